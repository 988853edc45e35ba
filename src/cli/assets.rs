//! Shell completions (clap_complete) and man pages (clap_mangen), generated
//! from the one clap definition. The committed copies in `completions/` and
//! `man/` are checked against these by `tests/assets.rs`.

use std::io;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;
use clap_mangen::roff::{Roff, bold, roman};

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

const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "NCBI_API_KEY",
        "NCBI API key: 10 requests per second instead of 3.",
    ),
    (
        "NCBI_EMAIL",
        "Contact e-mail sent to NCBI with every request.",
    ),
    (
        "PUBMED_EUTILS_URL",
        "E-utilities base URL (a mirror, a proxy, a test server).",
    ),
    ("PUBMED_IDCONV_URL", "PMC ID Converter URL."),
    ("PUBMED_CONFIG", "Path of the config file."),
    (
        "PUBMED_REQUEST_GAP_MS",
        "Minimum gap between request starts (default 400, 110 with a key).",
    ),
    (
        "PUBMED_MAX_RETRIES",
        "Retries of a failed request (default 6).",
    ),
    (
        "PUBMED_RETRY_BASE_MS",
        "First backoff, doubled per retry (default 1000).",
    ),
    (
        "PUBMED_DEADLINE_S",
        "Deadline of one call, retries included (default 60).",
    ),
    ("NO_COLOR", "No colour when set and not empty."),
    ("COLUMNS", "Table width."),
    ("RUST_LOG", "Log filter for pubmed mcp (logs go to stderr)."),
];

const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "Success, including zero hits and no spelling suggestion.",
    ),
    (
        "1",
        "NCBI says the record does not exist (ncbi_resource_not_found).",
    ),
    (
        "2",
        "Input to change: usage errors, blank_query, blank_filter, invalid_date_range, malformed_id, invalid_argument.",
    ),
    (
        "69",
        "NCBI unavailable: ncbi_unreachable, ncbi_deadline_exceeded, ncbi_invalid_response.",
    ),
    ("75", "Try again later: ncbi_rate_limited, queue_full."),
];

fn tagged(roff: &mut Roff, heading: &str, items: &[(&str, &str)]) {
    roff.control("SH", [heading]);
    for (tag, text) in items {
        roff.control("TP", []);
        roff.text([bold(*tag)]);
        roff.text([roman(*text)]);
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
        tagged(&mut roff, "ENVIRONMENT", ENVIRONMENT);
        roff.control("SH", ["FILES"]);
        roff.control("TP", []);
        roff.text([bold("~/.config/pubmed/config.toml")]);
        roff.text([roman(
            "The config file (the platform config directory; PUBMED_CONFIG overrides). See pubmed-config(1).",
        )]);
        tagged(&mut roff, "EXIT STATUS", EXIT_STATUS);
    }
    roff.to_writer(w)?;
    man.render_version_section(w)
}

/// Writes `pubmed.1` and one page per subcommand (`pubmed-search.1`, …)
/// into `dir`.
pub fn write_man_pages(dir: &Path) -> io::Result<()> {
    fn walk(cmd: &clap::Command, top: bool, dir: &Path) -> io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, false, dir)?;
        }
        let name = cmd.get_display_name().unwrap_or_else(|| cmd.get_name());
        let mut file = std::fs::File::create(dir.join(format!("{name}.1")))?;
        page(cmd, top, &mut file)
    }
    std::fs::create_dir_all(dir)?;
    let mut cmd = command().disable_help_subcommand(true);
    cmd.build();
    walk(&cmd, true, dir)
}
