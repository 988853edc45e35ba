//! Shell completions (clap_complete) and man pages (clap_mangen), generated
//! from the one clap definition. The committed copies in `completions/` and
//! `man/` are checked against these by `tests/assets.rs`.

use std::io;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;

use super::args::Cli;

/// The shells completions are generated for.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

/// The full clap command.
pub fn command() -> clap::Command {
    Cli::command()
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
    SHELLS
        .iter()
        .map(|s| clap_complete::generate_to(*s, &mut command(), "pubmed", dir))
        .collect()
}

/// Writes `pubmed.1` and one page per subcommand into `dir`.
pub fn write_man_pages(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    clap_mangen::generate_to(command(), dir)
}
