//! Shell completions (clap_complete, also printed by `pubmed completions`)
//! and the sections of the man pages that clap does not know: environment
//! (from the knob table), files and exit status. The man pages themselves
//! are rendered with clap_mangen by `tests/assets.rs`, which also checks the
//! committed `completions/` and `man/` against the current definition.

use std::io;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use clap_complete::Shell;

use crate::config::KNOBS;

/// The full clap command ([`super::command`]).
pub fn command() -> clap::Command {
    super::command()
}

/// The completion script for `shell`.
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut command(), "pubmed", &mut buf);
    buf
}

/// Writes every shell's completion script into `dir` (standard file names:
/// `pubmed.bash`, `_pubmed`, `pubmed.fish`, `pubmed.elv`, `_pubmed.ps1`).
pub fn write_completions(dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    Shell::value_variants()
        .iter()
        .map(|s| clap_complete::generate_to(*s, &mut command(), "pubmed", dir))
        .collect()
}

/// Environment variables that are not knobs, for the man page.
const OTHER_ENVIRONMENT: &[(&str, &str)] = &[
    (
        "PUBMED_CONFIG",
        "Path of the config file (default ~/.config/pubmed/config.toml).",
    ),
    (
        "XDG_RUNTIME_DIR",
        "Directory of the shared request budget's state file (else the cache directory, e.g. ~/.cache/pubmed).",
    ),
    ("NO_COLOR", "No colour when set and not empty."),
    ("COLUMNS", "Table width."),
    ("RUST_LOG", "Log filter for pubmed mcp (logs go to stderr)."),
];

/// The man page's ENVIRONMENT section as (variable, text): every knob with
/// a variable, from the knob table (its doc line, flag, config key and
/// default), then the other variables pubmed reads.
pub fn environment() -> Vec<(String, String)> {
    let knobs = KNOBS.iter().filter_map(|k| {
        let env = k.env?;
        let mut also = Vec::new();
        if let Some(flag) = k.flag {
            also.push(flag.to_string());
        }
        also.push(format!("config key {}", k.name));
        let mut text = format!("{} ({}", k.doc, also.join(", "));
        if let Some(d) = k.default_text() {
            text.push_str(&format!("; default {d}"));
        }
        text.push_str(").");
        Some((env.to_string(), text))
    });
    knobs
        .chain(
            OTHER_ENVIRONMENT
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        )
        .collect()
}

/// The man page's FILES section as (path, text).
pub const FILES: &[(&str, &str)] = &[
    (
        "~/.config/pubmed/config.toml",
        "The config file (the platform config directory; PUBMED_CONFIG overrides). See pubmed-config(1).",
    ),
    (
        "$XDG_RUNTIME_DIR, else ~/.cache/pubmed",
        "Where the request budget shared by every pubmed process keeps its state (PUBMED_SHARED_BUDGET=off turns it off).",
    ),
];

/// The man page's EXIT STATUS section as (code, meaning): every
/// [`Exit`](crate::error::Exit) status.
pub fn exit_status() -> Vec<(String, String)> {
    crate::error::Exit::ALL
        .iter()
        .map(|e| (e.code().to_string(), e.meaning()))
        .collect()
}
