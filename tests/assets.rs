//! The committed shell completions (`completions/`), man pages (`man/`) and
//! the knob tables of README.md and docs/config.md must match what the
//! current CLI definition and knob table generate. To refresh them:
//! `UPDATE_ASSETS=1 cargo test --test assets`.
//!
//! The man pages are rendered here (clap_mangen is a dev-dependency): the
//! clap definition, then the examples and, for `pubmed.1`, the sections of
//! `pubmed::cli::assets` (environment from the knob table, files, exit
//! status).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use clap_mangen::roff::{Roff, bold, roman};
use pubmed::cli::assets;
use pubmed::config::KNOBS;

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect()
        })
        .unwrap_or_default()
}

fn check(name: &str, generate: impl Fn(&Path)) {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    if std::env::var_os("UPDATE_ASSETS").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        generate(&committed);
        return;
    }
    let fresh = tempfile::tempdir().unwrap();
    generate(fresh.path());
    let (want, have) = (files(fresh.path()), files(&committed));
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        have.keys().collect::<Vec<_>>(),
        "{name}/ is stale: run `UPDATE_ASSETS=1 cargo test --test assets`"
    );
    for (file, bytes) in &want {
        assert!(
            have[file] == *bytes,
            "{name}/{file} is stale: run `UPDATE_ASSETS=1 cargo test --test assets`"
        );
    }
}

#[test]
fn completions_are_fresh() {
    check("completions", |dir| {
        let written = assets::write_completions(dir).unwrap();
        assert_eq!(written.len(), 5);
    });
    let names: Vec<String> = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("completions"))
        .into_keys()
        .collect();
    assert_eq!(
        names,
        vec![
            "_pubmed",
            "_pubmed.ps1",
            "pubmed.bash",
            "pubmed.elv",
            "pubmed.fish"
        ]
    );
}

fn tagged<S: AsRef<str>>(roff: &mut Roff, heading: &str, items: &[(S, S)]) {
    roff.control("SH", [heading]);
    for (tag, text) in items {
        roff.control("TP", []);
        roff.text([bold(tag.as_ref())]);
        roff.text([roman(text.as_ref())]);
    }
}

/// One man page: clap_mangen's sections, then the examples kept as
/// written (no filling), and for `pubmed.1` the environment, files and
/// exit status.
fn page(cmd: &clap::Command, top: bool, w: &mut dyn io::Write) -> io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(w)?;
    man.render_name_section(w)?;
    man.render_synopsis_section(w)?;
    man.render_description_section(w)?;
    man.render_options_section(w)?;
    if cmd.has_subcommands() {
        man.render_subcommands_section(w)?;
    }
    let mut roff = Roff::default();
    if let Some(after) = cmd.get_after_help() {
        roff.control("SH", ["EXAMPLES"]);
        roff.control("nf", []);
        for line in after.to_string().lines().filter(|l| *l != "Examples:") {
            roff.text([roman(line)]);
        }
        roff.control("fi", []);
    }
    if top {
        tagged(&mut roff, "ENVIRONMENT", &assets::environment());
        tagged(&mut roff, "FILES", assets::FILES);
        tagged(&mut roff, "EXIT STATUS", &assets::exit_status());
    }
    roff.to_writer(w)?;
    man.render_version_section(w)
}

/// Writes `pubmed.1` and one page per subcommand (`pubmed-search.1`, …)
/// into `dir`.
fn write_man_pages(dir: &Path) -> io::Result<()> {
    fn walk(cmd: &clap::Command, top: bool, dir: &Path) -> io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, false, dir)?;
        }
        let name = cmd.get_display_name().unwrap_or_else(|| cmd.get_name());
        let mut file = std::fs::File::create(dir.join(format!("{name}.1")))?;
        page(cmd, top, &mut file)
    }
    std::fs::create_dir_all(dir)?;
    let mut cmd = assets::command().disable_help_subcommand(true);
    cmd.build();
    walk(&cmd, true, dir)
}

#[test]
fn man_pages_are_fresh() {
    check("man", |dir| write_man_pages(dir).unwrap());
    let names: Vec<String> = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("man"))
        .into_keys()
        .collect();
    for page in [
        "pubmed.1",
        "pubmed-spell.1",
        "pubmed-search.1",
        "pubmed-convert.1",
        "pubmed-mcp.1",
        "pubmed-config.1",
        "pubmed-completions.1",
    ] {
        assert!(names.iter().any(|n| n == page), "{page} missing: {names:?}");
    }
}

/// The Markdown table of every knob, from the knob table.
fn knob_table() -> String {
    let code = |s: Option<&str>| s.map_or(String::new(), |s| format!("`{s}`"));
    let mut t = String::from(
        "| config key | flag | environment | type | default | meaning |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for k in &KNOBS {
        t.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            k.name,
            code(k.flag),
            code(k.env),
            k.kind.short(),
            k.default_text().unwrap_or_default(),
            k.doc,
        ));
    }
    t
}

const BEGIN: &str =
    "<!-- knobs: generated from the knob table by `UPDATE_ASSETS=1 cargo test --test assets` -->\n";
const END: &str = "<!-- /knobs -->";

/// The text between the knob markers of `file` must be [`knob_table`].
fn check_knob_table(file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let start = text
        .find(BEGIN)
        .unwrap_or_else(|| panic!("{file}: no knob marker"))
        + BEGIN.len();
    let end = start
        + text[start..]
            .find(END)
            .unwrap_or_else(|| panic!("{file}: no end marker"));
    let want = knob_table();
    if std::env::var_os("UPDATE_ASSETS").is_some() {
        std::fs::write(&path, format!("{}{want}{}", &text[..start], &text[end..])).unwrap();
        return;
    }
    assert!(
        text[start..end] == want,
        "{file}'s knob table is stale: run `UPDATE_ASSETS=1 cargo test --test assets`\n{want}"
    );
}

#[test]
fn knob_tables_are_fresh() {
    check_knob_table("README.md");
    check_knob_table("docs/config.md");
    let table = knob_table();
    // Defaults as the spec gives them: 6 retries, 400/110 ms gap, 60 s deadline.
    assert!(
        table.contains("| `max_retries` |  | `PUBMED_MAX_RETRIES` | count | 6 |"),
        "{table}"
    );
    assert!(
        table.contains("| `request_gap_ms` |  | `PUBMED_REQUEST_GAP_MS` | ms | 400 without an API key, 110 with one |"),
        "{table}"
    );
    assert!(
        table.contains("| `deadline_s` | `--timeout` | `PUBMED_DEADLINE_S` | seconds | 60 |"),
        "{table}"
    );
    assert!(
        table.contains("| `shared_budget` |  | `PUBMED_SHARED_BUDGET` | bool | true |"),
        "{table}"
    );
}

#[test]
fn the_man_page_lists_every_knob_variable_with_its_default() {
    let env = assets::environment();
    let text = |name: &str| {
        env.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    assert_eq!(
        text("PUBMED_RETRY_BASE_MS"),
        "First backoff in milliseconds, doubled per retry; also the first 429 cooldown \
         (config key retry_base_ms; default 1000)."
    );
    assert_eq!(
        text("PUBMED_DEADLINE_S"),
        "Deadline of one NCBI call in seconds, retries included (--timeout, config key deadline_s; default 60)."
    );
    assert_eq!(
        text("NCBI_API_KEY"),
        "NCBI API key: 10 requests per second instead of 3 (--api-key, config key api_key)."
    );
    for k in KNOBS.iter().filter_map(|k| k.env) {
        text(k);
    }
    text("PUBMED_CONFIG");
    text("XDG_RUNTIME_DIR");
}
