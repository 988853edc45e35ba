//! The clap definitions every command shares: [`Cli`], the global options
//! and the `-f` of each subcommand. Each command's own arguments are in its
//! adapter's file (`MeshArgs` in `cli/mesh.rs`), its variant in
//! [`Command`]. They stay in the CLI layer and are turned into plain
//! request structs before any operation runs.

use clap::{Args, Parser};

use super::Command;
use super::choice::{self, choice};
use crate::cache::CacheMode;
use crate::config::ConfigKey;
use crate::output::{ColorWhen, CommandFormat, Format};

const MAIN_EXAMPLES: &str = "\
Examples:
  pubmed spell \"alzhiemer diseese\"
  pubmed search 'crispr[ti] AND 2023[pdat]' --retmax 50 -f json | jq -r '.summaries[].title'
  pubmed search 'microbiome[mh]' --all > pmids.txt
  pubmed convert --input refs.txt --to pmcid > pmcids.txt
  pubmed related 9298984 --kind cited-by
  pubmed search 'microbiome[mh]' --all | pubmed fetch -f ndjson > corpus.ndjson
  pubmed mcp                       # serve the same tools to an MCP client";

/// The top-level `--help` epilogue: the examples and the exit statuses.
fn main_after_help() -> String {
    format!("{MAIN_EXAMPLES}\n\n{}", crate::error::Exit::summary())
}

/// `cmd` with its own `-f`, taking the formats of `F`.
pub(super) fn formats<F: CommandFormat>(cmd: clap::Command) -> clap::Command {
    cmd.arg(
        format_arg()
            .value_parser(choice::formats::<F>())
            .help(F::help()),
    )
}

/// `cmd` with a hidden `-f` that takes any format (only JSON matters:
/// errors are printed as JSON).
pub(super) fn no_formats(cmd: clap::Command) -> clap::Command {
    cmd.arg(
        format_arg()
            .value_parser(choice::choice::<Format>())
            .hide(true),
    )
}

/// The `-f`/`--format` argument, as the global one is declared.
fn format_arg() -> clap::Arg {
    clap::Arg::new("format")
        .short('f')
        .long("format")
        .value_name("FORMAT")
        .help_heading("Output")
        // first of "Output", where the global one stands
        .display_order(0)
        .action(clap::ArgAction::Set)
}

/// PubMed from the command line: search, spell-check and convert IDs with
/// NCBI's E-utilities, or serve the same tools over MCP.
#[derive(Debug, Parser)]
#[command(name = "pubmed", version, about, propagate_version = true, after_help = main_after_help())]
pub struct Cli {
    /// Options every subcommand takes.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand takes.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Output format (every subcommand declares its own `-f`, with its
    /// formats, in [`super::command`]; the value lands here wherever it was given)
    #[arg(short = 'f', long, global = true, value_name = "FORMAT",
          value_parser = choice::<Format>(), help_heading = "Output",
          help = "Output format; each command takes its own (see `pubmed help COMMAND`)")]
    pub format: Option<Format>,
    /// Colour: auto (terminal and no NO_COLOR), always, never
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto",
          value_parser = choice::<ColorWhen>(), help_heading = "Output")]
    pub color: ColorWhen,
    /// No warnings or notes on stderr
    #[arg(short, long, global = true, help_heading = "Output")]
    pub quiet: bool,
    /// Log each request on stderr (API key redacted)
    #[arg(short, long, global = true, help_heading = "Output")]
    pub verbose: bool,
    /// No progress bar
    #[arg(long, global = true, help_heading = "Output")]
    pub no_progress: bool,
    /// NCBI API key (help from the knob table)
    #[arg(long, global = true, value_name = "KEY", help_heading = "NCBI",
          help = ConfigKey::ApiKey.knob().flag_help())]
    pub api_key: Option<String>,
    /// Contact e-mail (help from the knob table)
    #[arg(long, global = true, value_name = "ADDRESS", help_heading = "NCBI",
          help = ConfigKey::Email.knob().flag_help())]
    pub email: Option<String>,
    /// Tool name (help from the knob table)
    #[arg(long, global = true, value_name = "NAME", help_heading = "NCBI",
          help = ConfigKey::Tool.knob().flag_help())]
    pub tool: Option<String>,
    /// E-utilities base URL (help from the knob table)
    #[arg(long, global = true, value_name = "URL", help_heading = "NCBI",
          help = ConfigKey::EutilsUrl.knob().flag_help())]
    pub eutils_url: Option<String>,
    /// PMC ID Converter URL (help from the knob table)
    #[arg(long, global = true, value_name = "URL", help_heading = "NCBI",
          help = ConfigKey::IdconvUrl.knob().flag_help())]
    pub idconv_url: Option<String>,
    /// Europe PMC REST base URL (help from the knob table)
    #[arg(long, global = true, value_name = "URL", help_heading = "NCBI",
          help = ConfigKey::EuropepmcUrl.knob().flag_help())]
    pub europepmc_url: Option<String>,
    /// Deadline per NCBI call (help from the knob table)
    #[arg(long, global = true, value_name = "SECS", help_heading = "NCBI",
          help = ConfigKey::DeadlineS.knob().flag_help())]
    pub timeout: Option<f64>,
    /// The local cache (docs/cache.md)
    #[arg(long, global = true, value_name = "MODE", value_parser = choice::<CacheMode>(),
          help_heading = "NCBI",
          help = "Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]")]
    pub cache: Option<CacheMode>,
}
