//! `pubmed config path|show|set` and `pubmed completions SHELL`.

use std::io::{self, Read, Write};
use std::path::Path;

use super::Context;
use crate::config::{self, ConfigFile, ConfigKey, file::Change};
use crate::error::{Error, Exit, Failure, Reason};

use clap::Subcommand;

crate::output::formats! {
    /// The formats of `config show` (a table is the text listing).
    pub enum ConfigFormat { Text, Json, Table }
}

impl crate::output::CommandFormat for ConfigFormat {
    const COMMAND: &'static str = "config show";
    const TERMINAL: Self = ConfigFormat::Table;
    const PIPE: Self = ConfigFormat::Text;
}

pub(super) const CONFIG_EXAMPLES: &str = "\
Examples:
  pubmed config path
  echo \"$NCBI_API_KEY\" | pubmed config set api_key -
  pubmed config set email me@example.org
  pubmed config show -f json | jq .";

pub(super) const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  pubmed completions bash > ~/.local/share/bash-completion/completions/pubmed
  mkdir -p ~/.zfunc && pubmed completions zsh > ~/.zfunc/_pubmed
  mkdir -p ~/.config/fish/completions
  pubmed completions fish > ~/.config/fish/completions/pubmed.fish";

/// `pubmed config …`
#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the config file's path
    Path,
    /// Print every setting, its value (API key masked) and where it comes from
    Show,
    /// Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)
    Set {
        /// The setting (case-insensitive)
        #[arg(value_enum, ignore_case = true)]
        key: ConfigKey,
        /// The value (`-` reads stdin; empty unsets)
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
}

/// The longest value `config set KEY -` reads from stdin.
const MAX_STDIN_VALUE: u64 = 64 * 1024;

/// `pubmed config set` takes the table's keys, case-insensitively; each
/// possible value's help is the knob's doc line, type and default.
impl clap::ValueEnum for ConfigKey {
    fn value_variants<'a>() -> &'a [Self] {
        &ConfigKey::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.knob().value_help()))
    }
}

pub(super) fn run(action: ConfigAction, ctx: &Context) -> Result<Exit, Failure> {
    let path = config::config_path(&|k| std::env::var_os(k)).ok_or_else(|| {
        Error::new(
            Reason::InvalidArgument,
            "no config directory could be found; set PUBMED_CONFIG or HOME",
        )
    })?;
    let mut out = io::stdout().lock();
    match action {
        ConfigAction::Path => writeln!(out, "{}", path.display())?,
        ConfigAction::Show => show(ctx, &mut out)?,
        ConfigAction::Set { key, value } => set(ctx, &path, key, value)?,
    }
    out.flush()?;
    Ok(Exit::Success)
}

/// `pubmed config show`: every knob, its value (the API key masked) and
/// its source, as text or JSON.
fn show(ctx: &Context, out: &mut dyn Write) -> Result<(), Failure> {
    let json = match ctx.format_of::<ConfigFormat>()? {
        ConfigFormat::Json => true,
        ConfigFormat::Text | ConfigFormat::Table => false,
    };
    let settings = config::load(&ctx.flags, !ctx.quiet)?;
    for w in &settings.warnings {
        ctx.note(w);
    }
    // A URL may carry a password or an api_key: shown as -v logs it.
    let shown = |key: ConfigKey, v: &Option<String>| match key {
        ConfigKey::EutilsUrl | ConfigKey::IdconvUrl | ConfigKey::EuropepmcUrl => {
            v.as_deref().map(crate::ncbi::redact_url)
        }
        _ => v.clone(),
    };
    if json {
        let mut map = serde_json::Map::new();
        for e in &settings.entries {
            map.insert(
                e.key.name().into(),
                serde_json::json!({"value": shown(e.key, &e.value), "source": e.source.to_string()}),
            );
        }
        let v = serde_json::json!({
            "path": settings.config_path,
            "exists": settings.config_exists,
            "settings": map,
            "budgetDir": settings.budget_dir,
        });
        crate::output::write_json(out, &v)?;
        return Ok(());
    }
    let state = if settings.config_exists {
        ""
    } else {
        " (does not exist)"
    };
    if let Some(p) = &settings.config_path {
        writeln!(out, "# {}{state}", p.display())?;
    }
    for e in &settings.entries {
        let key = e.key.name();
        match (&shown(e.key, &e.value), &e.unset) {
            (Some(v), _) if e.key.knob().kind.quoted() => {
                writeln!(out, "{key} = {v:?}  # {}", e.source)?
            }
            (Some(v), _) => writeln!(out, "{key} = {v}  # {}", e.source)?,
            (None, Some(means)) => writeln!(out, "# {key} is not set: {means}")?,
            (None, None) => writeln!(out, "# {key} is not set")?,
        }
    }
    if let Some(dir) = &settings.budget_dir {
        writeln!(out, "# shared budget state in {}", dir.display())?;
    }
    Ok(())
}

/// `pubmed config set KEY VALUE`: VALUE `-` reads stdin (at most 64 KiB of
/// UTF-8); an empty value removes the key.
fn set(ctx: &Context, path: &Path, key: ConfigKey, value: String) -> Result<(), Failure> {
    let value = if value == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .take(MAX_STDIN_VALUE + 1)
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > MAX_STDIN_VALUE {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!("the value on stdin is longer than {MAX_STDIN_VALUE} bytes"),
            )
            .into());
        }
        String::from_utf8(bytes).map_err(|_| {
            Error::new(
                Reason::InvalidArgument,
                "the value on stdin is not valid UTF-8",
            )
        })?
    } else {
        value
    };
    let mut file = ConfigFile::load(path)?;
    let change = file.set(key, &value)?;
    file.save()?;
    match change {
        Change::Unset => ctx.note(&format!("unset {key} in {}", path.display())),
        Change::Set => {
            let stored = file.stored(key).unwrap_or_default();
            ctx.note(&format!("set {key} = {stored} in {}", path.display()));
        }
    }
    Ok(())
}

pub(super) fn completions(shell: clap_complete::Shell) -> Result<Exit, Failure> {
    let mut out = io::stdout().lock();
    out.write_all(&super::assets::completion(shell))?;
    out.flush()?;
    Ok(Exit::Success)
}
