//! clap definitions. They stay in the CLI layer and are turned into plain
//! request structs before any operation runs.

use clap::{Args, Parser, Subcommand};

const SPELL_EXAMPLES: &str = "\
Examples:
  pubmed spell \"alzhiemer diseese\"
  pubmed search \"$(pubmed spell 'brest cancr[ti]')\"
  pubmed spell -f json \"asthmaa OR alergies\" | jq -r .corrected
  echo 'Netch AND Mus musclus' | pubmed spell -";

/// PubMed from the command line: search, spell-check and convert IDs with
/// NCBI's E-utilities, or serve the same tools over MCP.
#[derive(Debug, Parser)]
#[command(name = "pubmed", version, about, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand takes.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Output format [default: table on a terminal; text/ids/tsv in a pipe]
    #[arg(short = 'f', long, global = true, value_name = "FORMAT",
          value_parser = ["table", "text", "json", "ndjson", "csv", "tsv", "ids"],
          help_heading = "Output")]
    pub format: Option<String>,
    /// Colour: auto (terminal and no NO_COLOR), always, never
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto",
          value_parser = ["auto", "always", "never"], help_heading = "Output")]
    pub color: String,
    /// No warnings or notes on stderr
    #[arg(short, long, global = true, help_heading = "Output")]
    pub quiet: bool,
    /// Log each request on stderr (API key redacted)
    #[arg(short, long, global = true, help_heading = "Output")]
    pub verbose: bool,
    /// No progress bar
    #[arg(long, global = true, help_heading = "Output")]
    pub no_progress: bool,
    /// NCBI API key (visible in the process list; prefer NCBI_API_KEY)
    #[arg(long, global = true, value_name = "KEY", help_heading = "NCBI")]
    pub api_key: Option<String>,
    /// Contact e-mail sent to NCBI [env: NCBI_EMAIL]
    #[arg(long, global = true, value_name = "ADDRESS", help_heading = "NCBI")]
    pub email: Option<String>,
    /// Tool name sent to NCBI [default: pubmed-cli]
    #[arg(long, global = true, value_name = "NAME", help_heading = "NCBI")]
    pub tool: Option<String>,
    /// E-utilities base URL [env: PUBMED_EUTILS_URL]
    #[arg(long, global = true, value_name = "URL", help_heading = "NCBI")]
    pub eutils_url: Option<String>,
    /// PMC ID Converter URL [env: PUBMED_IDCONV_URL]
    #[arg(long, global = true, value_name = "URL", help_heading = "NCBI")]
    pub idconv_url: Option<String>,
    /// Deadline per NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]
    #[arg(long, global = true, value_name = "SECS", help_heading = "NCBI")]
    pub timeout: Option<f64>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Correct the spelling of a PubMed query with ESpell, in place
    #[command(after_help = SPELL_EXAMPLES)]
    Spell(SpellArgs),
}

/// `pubmed spell QUERY…`
#[derive(Debug, Args)]
pub struct SpellArgs {
    /// The query; several words are joined with one space; `-` reads stdin
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
}
