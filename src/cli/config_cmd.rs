//! `pubmed config path|show|set` and `pubmed completions SHELL`.

use std::io::{self, Read, Write};

use super::args::ConfigAction;
use super::{Context, Failure};
use crate::config;
use crate::error::{Error, Reason};
use crate::output::Format;

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok()
}

pub(super) fn run(action: ConfigAction, ctx: &Context) -> Result<u8, Failure> {
    let path = config::config_path(&env).ok_or_else(|| {
        Error::new(
            Reason::InvalidArgument,
            "no config directory could be found; set PUBMED_CONFIG or HOME",
        )
    })?;
    let mut out = io::stdout().lock();
    match action {
        ConfigAction::Path => writeln!(out, "{}", path.display())?,
        ConfigAction::Show => {
            let json = match ctx.format {
                None | Some(Format::Text) | Some(Format::Table) => false,
                Some(Format::Json) => true,
                Some(f) => {
                    return Err(Error::new(
                        Reason::InvalidArgument,
                        format!(
                            "--format {} is not available for `config show` (use text or json)",
                            f.name()
                        ),
                    )
                    .into());
                }
            };
            let file = config::load_file(&path)?;
            let settings = config::settings(&ctx.flags, &env, file.as_ref())?;
            let shown = |s: &config::Setting| {
                s.value.as_deref().map(|v| {
                    if s.key == "api_key" {
                        config::mask(v)
                    } else {
                        v.to_string()
                    }
                })
            };
            if json {
                let mut map = serde_json::Map::new();
                for s in &settings {
                    map.insert(
                        s.key.into(),
                        serde_json::json!({"value": shown(s), "source": s.source.to_string()}),
                    );
                }
                let v =
                    serde_json::json!({"path": path, "exists": file.is_some(), "settings": map});
                crate::output::write_json(&mut out, &v)?;
            } else {
                let state = if file.is_some() {
                    ""
                } else {
                    " (does not exist)"
                };
                writeln!(out, "# {}{state}", path.display())?;
                for s in &settings {
                    match shown(s) {
                        Some(v) if v.parse::<f64>().is_ok() && s.key != "api_key" => {
                            writeln!(out, "{} = {v}  # {}", s.key, s.source)?
                        }
                        Some(v) => writeln!(out, "{} = {v:?}  # {}", s.key, s.source)?,
                        None if s.key == "request_gap_ms" => writeln!(
                            out,
                            "# request_gap_ms is not set: 400 without an API key, 110 with one"
                        )?,
                        None => writeln!(out, "# {} is not set", s.key)?,
                    }
                }
            }
        }
        ConfigAction::Set { key, value } => {
            let value = if value == "-" {
                let mut s = String::new();
                io::stdin().read_to_string(&mut s)?;
                s.trim().to_string()
            } else {
                value
            };
            let mut cfg = config::load_file(&path)?.unwrap_or_default();
            config::set_key(&mut cfg, &key, &value)?;
            config::write_file(&path, &cfg)?;
            let shown = if key == "api_key" {
                config::mask(&value)
            } else {
                value.clone()
            };
            if value.is_empty() {
                ctx.note(&format!("unset {key} in {}", path.display()));
            } else {
                ctx.note(&format!("set {key} = {shown:?} in {}", path.display()));
            }
        }
    }
    out.flush()?;
    Ok(0)
}

pub(super) fn completions(shell: &str) -> Result<u8, Failure> {
    let shell = super::assets::SHELLS
        .into_iter()
        .find(|s| s.to_string() == shell)
        .ok_or_else(|| Error::new(Reason::InvalidArgument, format!("unknown shell {shell:?}")))?;
    let mut out = io::stdout().lock();
    out.write_all(&super::assets::completion(shell))?;
    out.flush()?;
    Ok(0)
}
