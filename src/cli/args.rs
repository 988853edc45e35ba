//! clap definitions. They stay in the CLI layer and are turned into plain
//! request structs before any operation runs.

use clap::{Args, CommandFactory, Parser, Subcommand};
use clap_complete::Shell;

use super::choice::{self, choice};
use crate::core::dates::DateType;
use crate::core::ids::IdType;
use crate::core::query::Species;
use crate::ops::fallback::Fallback;
use crate::ops::related::LinkKind;
use crate::ops::search::{Detail, Sort, SpellMode};
use crate::output::citation::KeyStyle;
use crate::output::{
    CacheFormat, CiteFormat, ColorWhen, CommandFormat, ConfigFormat, ConvertFormat, FetchFormat,
    Format, FulltextFormat, MatchFormat, MeshFormat, RelatedFormat, RerunFormat, SearchAllFormat,
    SearchFormat, SpellFormat,
};

use crate::cache::CacheMode;
use crate::config::ConfigKey;
use crate::core::choice::Choice;
use crate::core::text::thousands;
use crate::ncbi::limits::{ESEARCH_MAX_RETMAX, ESEARCH_MAX_RETSTART, ESEARCH_WINDOW};
use crate::ops;

const SPELL_EXAMPLES: &str = "\
Examples:
  pubmed spell \"alzhiemer diseese\"
  pubmed search \"$(pubmed spell 'brest cancr[ti]')\"
  pubmed spell -f json \"asthmaa OR alergies\" | jq -r .corrected
  echo 'Netch AND Mus musclus' | pubmed spell -";

const SEARCH_EXAMPLES: &str = "\
Examples:
  pubmed search 'crispr[ti] AND 2023[pdat]'
  pubmed search asthma --mesh Child --mindate 2020 --retmax 50 -f json | jq -r '.summaries[].title'
  pubmed search 'sepsis' --count
  pubmed search 'alzhiemer' --spell=apply
  pubmed search 'microbiome[mh]' --all > pmids.txt
  pubmed search 'covid-19 vaccine' --all | pubmed convert --input - --to pmcid";

const CONVERT_EXAMPLES: &str = "\
Examples:
  pubmed convert PMC3531190 10.1038/ng.590 23193287
  pubmed convert --input refs.txt --to pmcid > pmcids.txt
  pubmed convert --input refs.txt -f json | jq '.records[] | select(.error)'
  pubmed search 'crispr[ti]' --retmax 100 | pubmed convert --input - --to doi --fallback pubmed";

const RELATED_EXAMPLES: &str = "\
Examples:
  pubmed related 9298984                              # similar articles, one PMID per line
  pubmed related 9298984 --kind cited-by -f table
  pubmed related 9298984 --kind references --detail brief -f json | jq '.links[].linked[].summary.title'
  pubmed related --input pmids.txt --retmax 10 -f tsv > similar.tsv
  pubmed search 'crispr[ti] AND 2023[pdat]' --all | pubmed related --input - --kind cited-by

cited-by and references come from PubMed's own citation links, which NCBI builds
from the reference lists of articles in PMC: counts can be lower than those of
other citation indexes, and an article whose references are not in PMC lists none.";

const FULLTEXT_EXAMPLES: &str = "\
Examples:
  pubmed fulltext PMC3460867                       # Markdown on a terminal
  pubmed fulltext 23029536 --section methods,results -f text
  pubmed fulltext 10.1371/journal.pone.0046493 -f json | jq '.[0].sections[].title'
  pubmed fulltext --input pmcids.txt -f ndjson > corpus.ndjson
  pubmed fulltext PMC3460867 -f jats > PMC3460867.xml
";

const FETCH_EXAMPLES: &str = "\
Examples:
  pubmed fetch 12091962 -f abstract
  pubmed fetch 27797938 29963580 -f json | jq '.records[].authors[].name'
  pubmed search 'crispr[ti] AND 2023[pdat]' --all | pubmed fetch -f csv > crispr.csv
  pubmed fetch --input pmids.txt -f ndjson > corpus.ndjson
  pubmed fetch --input pmids.txt -f medline > refs.nbib
  pubmed fetch 12091962 -f xml | xtract -pattern PubmedArticle -element ArticleTitle
  pubmed fetch --input pmids.txt -f ris > refs.ris            # Zotero, EndNote, Mendeley
  pubmed fetch --input pmids.txt -f bibtex --bib-key author-year > refs.bib
  pubmed fetch 12091962 9997 -f csl-json > refs.json          # Zotero, pandoc --citeproc";

const CITE_EXAMPLES: &str = "\
Examples:
  pubmed cite 12091962 9997
  pubmed cite 12091962 --style apa
  pubmed cite --input pmids.txt --style ama -f markdown > references.md
  pubmed search 'crispr[ti] AND 2023[pdat]' --retmax 20 | pubmed cite --style nature
  pubmed cite 12091962 --style my-journal.csl -f html
  pubmed cite --list-styles";

const MESH_EXAMPLES: &str = "\
Examples:
  pubmed mesh \"heart attack\"
  pubmed mesh D009203 --tree
  pubmed search \"$(pubmed mesh -f json 'heart attack' | jq -r '.records[0].search.mesh') AND aspirin\"
  pubmed mesh -f ids asthma";

const MATCH_EXAMPLES: &str = "\
Examples:
  pubmed match refs.txt                  # journal|year|volume|first_page|author|key| lines
  pubmed match refs.csv -f json          # CSV with journal, year, volume, first_page, author, key columns
  echo 'proc natl acad sci u s a|1991|88|3248|mann bj|Art1|' | pubmed match -
  pubmed match refs.tsv -f ids | pubmed fetch -f ris";

const RERUN_EXAMPLES: &str = "\
Examples:
  pubmed search 'asthma[mh] AND children[tiab]' --all --record review.jsonl -f ids > set.txt
  pubmed rerun review.jsonl                 # every recorded search again: added, removed, counts
  pubmed rerun review.jsonl --id 3 -f json  # only the record on line 3
  pubmed rerun review.jsonl --report > search-appendix.md   # PRISMA-S summary in Markdown

Exit status 0: every search identical; 1: a set or count changed (docs/recorded.md).";

const MCP_EXAMPLES: &str = "\
Examples:
  pubmed mcp                  # started by an MCP client: JSON-RPC on stdin/stdout
  NCBI_API_KEY=… NCBI_EMAIL=me@example.org pubmed mcp
  pubmed mcp --http           # one server for several agents: http://127.0.0.1:8765/mcp
  PUBMED_MCP_TOKEN=… pubmed mcp --http 0.0.0.0:8765   # off loopback a bearer token is required
  Client configuration (e.g. claude_desktop_config.json):
    {\"mcpServers\": {\"pubmed\": {\"command\": \"pubmed\", \"args\": [\"mcp\"],
                                \"env\": {\"NCBI_API_KEY\": \"\"}}}}   # env optional";

const MAIN_EXAMPLES: &str = "\
Examples:
  pubmed spell \"alzhiemer diseese\"
  pubmed search 'crispr[ti] AND 2023[pdat]' --retmax 50 -f json | jq -r '.summaries[].title'
  pubmed search 'microbiome[mh]' --all > pmids.txt
  pubmed convert --input refs.txt --to pmcid > pmcids.txt
  pubmed related 9298984 --kind cited-by
  pubmed search 'microbiome[mh]' --all | pubmed fetch -f ndjson > corpus.ndjson
  pubmed mcp                       # serve the same tools to an MCP client";

/// `search --retmax`: the default and NCBI's page limits.
fn retmax_help() -> String {
    format!(
        "Records per page [default: {}; ≤ {} with summaries, ≤ {} IDs; 0 = count only]",
        ops::search::DEFAULT_RETMAX,
        thousands(ops::search::MAX_RETMAX_SUMMARIES),
        thousands(ESEARCH_MAX_RETMAX)
    )
}

/// `search --retstart`: the records PubMed serves.
fn retstart_help() -> String {
    format!(
        "First record, 0-based (PubMed serves records 0–{})",
        thousands(ESEARCH_MAX_RETSTART)
    )
}

/// `search --all`: past the window, and the formats it streams.
fn all_help() -> String {
    format!(
        "Every PMID of the query, past PubMed's {}-record window, streamed (formats {}; summaries with --detail brief|full)",
        thousands(ESEARCH_WINDOW),
        SearchAllFormat::names()
    )
}

/// `cite --style`: the short names of the style table and the default.
fn style_help() -> String {
    format!(
        "Citation style: {}, any bundled style name, or a .csl file [default: {}]",
        ops::cite::SHORT_NAMES.map(|(n, _)| n).join(", "),
        ops::cite::DEFAULT_STYLE
    )
}

/// The `mcp` subcommand's one-line help: the tools it serves, by name.
fn mcp_about() -> String {
    format!(
        "Serve the PubMed tools ({}) over MCP: stdio, or streamable HTTP with --http",
        crate::mcp::tools::names()
    )
}

/// The top-level `--help` epilogue: the examples and the exit statuses.
fn main_after_help() -> String {
    format!("{MAIN_EXAMPLES}\n\n{}", crate::error::Exit::summary())
}

const CONFIG_EXAMPLES: &str = "\
Examples:
  pubmed config path
  echo \"$NCBI_API_KEY\" | pubmed config set api_key -
  pubmed config set email me@example.org
  pubmed config show -f json | jq .";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  pubmed completions bash > ~/.local/share/bash-completion/completions/pubmed
  mkdir -p ~/.zfunc && pubmed completions zsh > ~/.zfunc/_pubmed
  mkdir -p ~/.config/fish/completions
  pubmed completions fish > ~/.config/fish/completions/pubmed.fish";

/// The clap command of `pubmed`: [`Cli`]'s definition, with each
/// subcommand's `-f` listing only its formats, from its format enum (help,
/// completions and man pages come from here). Commands without formats
/// keep `-f` (for JSON errors) out of their help.
///
/// A new command with formats adds one line here.
pub fn command() -> clap::Command {
    fn config(c: clap::Command) -> clap::Command {
        no_formats(c)
            .mut_subcommand("show", formats::<ConfigFormat>)
            .mut_subcommand("path", no_formats)
            .mut_subcommand("set", no_formats)
    }
    fn cache(c: clap::Command) -> clap::Command {
        no_formats(c)
            .mut_subcommand("path", no_formats)
            .mut_subcommand("stats", formats::<CacheFormat>)
            .mut_subcommand("clear", no_formats)
    }
    Cli::command()
        .mut_subcommand("spell", formats::<SpellFormat>)
        .mut_subcommand("search", formats::<SearchFormat>)
        .mut_subcommand("convert", formats::<ConvertFormat>)
        .mut_subcommand("related", formats::<RelatedFormat>)
        .mut_subcommand("fetch", formats::<FetchFormat>)
        .mut_subcommand("cite", formats::<CiteFormat>)
        .mut_subcommand("fulltext", formats::<FulltextFormat>)
        .mut_subcommand("mesh", formats::<MeshFormat>)
        .mut_subcommand("match", formats::<MatchFormat>)
        .mut_subcommand("rerun", formats::<RerunFormat>)
        .mut_subcommand("config", config)
        .mut_subcommand("cache", cache)
        .mut_subcommand("mcp", no_formats)
        .mut_subcommand("completions", no_formats)
}

/// `cmd` with its own `-f`, taking the formats of `F`.
fn formats<F: CommandFormat>(cmd: clap::Command) -> clap::Command {
    cmd.arg(
        format_arg()
            .value_parser(choice::formats::<F>())
            .help(F::help()),
    )
}

/// `cmd` with a hidden `-f` that takes any format (only JSON matters:
/// errors are printed as JSON).
fn no_formats(cmd: clap::Command) -> clap::Command {
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
    /// formats, in [`command`]; the value lands here wherever it was given)
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

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Correct the spelling of a PubMed query with ESpell, in place
    #[command(after_help = SPELL_EXAMPLES)]
    Spell(SpellArgs),
    /// Search PubMed (ESearch + ESummary) and say what PubMed did to the query
    #[command(after_help = SEARCH_EXAMPLES)]
    Search(Box<SearchArgs>),
    /// Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input
    #[command(after_help = CONVERT_EXAMPLES)]
    Convert(ConvertArgs),
    /// PubMed's similar articles, citing articles or references of PMIDs (ELink), one record per input
    #[command(after_help = RELATED_EXAMPLES)]
    Related(RelatedArgs),
    /// Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID
    #[command(after_help = FETCH_EXAMPLES)]
    Fetch(FetchArgs),
    /// Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID
    #[command(after_help = CITE_EXAMPLES)]
    Cite(CiteArgs),
    /// Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI
    #[command(after_help = FULLTEXT_EXAMPLES)]
    Fulltext(FulltextArgs),
    /// Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search
    #[command(after_help = MESH_EXAMPLES)]
    Mesh(MeshArgs),
    /// Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input
    #[command(after_help = MATCH_EXAMPLES)]
    Match(MatchArgs),
    /// Run recorded searches (search --record) again: PMIDs added and removed, counts then and now, translation changes; --report writes a PRISMA-S summary
    #[command(after_help = RERUN_EXAMPLES)]
    Rerun(RerunArgs),
    /// Serve the PubMed tools over MCP (the tool list comes from `mcp::tools::specs`)
    #[command(about = mcp_about(), after_help = MCP_EXAMPLES)]
    Mcp(McpArgs),
    /// Show or change the configuration file (API key, e-mail, URLs, policy knobs)
    #[command(after_help = CONFIG_EXAMPLES)]
    Config {
        /// What to do with the configuration.
        #[command(subcommand)]
        action: ConfigAction,
    },
    /// The local cache of NCBI records: where it is, what it holds, clear it
    #[command(after_help = CACHE_EXAMPLES)]
    Cache {
        /// What to do with the cache.
        #[command(subcommand)]
        action: CacheAction,
    },
    /// Print a shell completion script
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell
        #[arg(value_enum, ignore_case = true)]
        shell: Shell,
    },
}

/// `pubmed cache …`
#[derive(Debug, Subcommand)]
pub enum CacheAction {
    /// Print the cache database's path
    Path,
    /// Print entries, bytes and stale entries per kind, the file's size and the bound
    Stats,
    /// Delete every entry (the next runs ask NCBI again)
    Clear,
}

const CACHE_EXAMPLES: &str = "\
Examples:
  pubmed cache stats
  pubmed cache clear
  pubmed fetch 12091962 --cache refresh   # ask NCBI again and store the answer
  PUBMED_CACHE=off pubmed fetch 12091962  # no cache for this run

See docs/cache.md for what is kept and for how long.";

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

/// `pubmed convert [ID…] [--from TYPE] [--input FILE|-] [--to TYPE]`
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// IDs to convert: PMIDs, PMCIDs (PMC…), DOIs (10.…/…); `-` (or none, piped) reads stdin
    #[arg(value_name = "ID", conflicts_with = "input")]
    pub ids: Vec<String>,
    /// The type of every input ID [default: detected per ID]
    #[arg(long, value_name = "TYPE", value_parser = choice::<IdType>())]
    pub from: Option<IdType>,
    /// Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// Print only this ID type, one line per input line (implies -f ids)
    #[arg(long, value_name = "TYPE", value_parser = choice::<IdType>())]
    pub to: Option<IdType>,
    /// Look up IDs the Converter has no record of (not in PMC) in PubMed:
    /// a PMID's DOI, a DOI's PMID; such records say source "pubmed"
    #[arg(long, value_name = "SOURCE", value_parser = choice::<Fallback>())]
    pub fallback: Option<Fallback>,
}

/// `pubmed related PMID… [--input FILE|-] [--kind KIND] [--retmax N] [--detail LEVEL]`
#[derive(Debug, Args)]
pub struct RelatedArgs {
    /// PMIDs to look up; `-` (or none, piped) reads stdin
    #[arg(value_name = "PMID", conflicts_with = "input")]
    pub pmids: Vec<String>,
    /// Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// similar: PubMed's similar articles; cited-by: articles citing it;
    /// references: articles it cites (both from PubMed's PMC-based citation
    /// links, so counts can be lower than other citation indexes)
    #[arg(long, value_name = "KIND", default_value = "similar",
          value_parser = choice::<LinkKind>())]
    pub kind: LinkKind,
    /// Keep at most N linked PMIDs per input [default: all NCBI returns]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub retmax: Option<u32>,
    /// Summaries of the linked articles [default: full with -f table, else ids]
    #[arg(long, value_name = "LEVEL", value_parser = choice::<Detail>())]
    pub detail: Option<Detail>,
}

/// `pubmed fulltext [ID…] [--input FILE|-] [--section S,…]`
#[derive(Debug, Args)]
pub struct FulltextArgs {
    /// PMIDs, PMCIDs or DOIs; `-` (or none, piped) reads stdin
    #[arg(value_name = "ID", conflicts_with = "input")]
    pub ids: Vec<String>,
    /// Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// Only these sections: a sec-type (methods, results, …) or words of a title, comma-separated
    #[arg(long, value_name = "S,…", value_delimiter = ',')]
    pub section: Vec<String>,
    /// Write to FILE instead of stdout; with -f ndjson, resumable with --resume
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Continue the run FILE holds: IDs it has are not asked again (needs --output, -f ndjson)
    #[arg(long, requires = "output")]
    pub resume: bool,
}

/// `pubmed fetch [PMID…] [--input FILE|-]`
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// PMIDs to fetch; `-` (or none, piped) reads stdin
    #[arg(value_name = "PMID", conflicts_with = "input")]
    pub pmids: Vec<String>,
    /// Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// BibTeX keys: pmid (pmid12091962) or author-year (Smith2020, then Smith2020a, …) [default: pmid]
    #[arg(long, value_name = "KEYS", value_parser = choice::<KeyStyle>(),
          help_heading = "BibTeX")]
    pub bib_key: Option<KeyStyle>,
    /// BibTeX: keep non-ASCII letters as UTF-8 (biblatex + biber) instead of LaTeX commands
    #[arg(long, help_heading = "BibTeX")]
    pub bib_unicode: bool,
    /// Write to FILE instead of stdout; with -f ndjson, resumable with --resume
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Continue the run FILE holds: PMIDs it has are not fetched again (needs --output, -f ndjson)
    #[arg(long, requires = "output")]
    pub resume: bool,
}

/// `pubmed cite [PMID…] [--input FILE|-] [--style NAME|PATH.csl]`
#[derive(Debug, Args)]
pub struct CiteArgs {
    /// PMIDs to cite; `-` (or none, piped) reads stdin
    #[arg(value_name = "PMID", conflicts_with = "input")]
    pub pmids: Vec<String>,
    /// Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// Citation style (help from the style table: `style_help`)
    #[arg(short, long, value_name = "NAME|PATH.csl", help = style_help())]
    pub style: Option<String>,
    /// Print the style names and exit
    #[arg(long, conflicts_with_all = ["pmids", "input", "style"])]
    pub list_styles: bool,
}

/// `pubmed search QUERY… [filters] [paging]`
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The query in PubMed syntax; several words are joined with one space;
    /// `-` reads stdin; "" with filters searches the filters alone
    #[arg(value_name = "QUERY")]
    pub query: Vec<String>,
    /// Limit untagged terms to one field (tag, long name or EInfo name: ti, title, TITL)
    #[arg(long, value_name = "TAG", help_heading = "Query")]
    pub field: Option<String>,
    /// On zero hits, spell-check the query and print the suggestion (=apply: search it)
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true,
          default_missing_value = "suggest", value_parser = choice::<SpellMode>(),
          help_heading = "Query")]
    pub spell: Option<SpellMode>,
    /// Earliest date: YYYY, YYYY/MM or YYYY/MM/DD (also with - or .)
    #[arg(long, value_name = "DATE", help_heading = "Dates")]
    pub mindate: Option<String>,
    /// Latest date: YYYY, YYYY/MM or YYYY/MM/DD
    #[arg(long, value_name = "DATE", help_heading = "Dates")]
    pub maxdate: Option<String>,
    /// Which date the range applies to: publication, Entrez or modification
    #[arg(long, value_name = "TYPE", default_value = "pdat",
          value_parser = choice::<DateType>(), help_heading = "Dates")]
    pub datetype: DateType,
    /// Only the last N days (0 = no limit); combined with --mindate/--maxdate
    #[arg(long, value_name = "DAYS", help_heading = "Dates")]
    pub reldate: Option<u32>,
    /// Author, e.g. "Smith J"
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    pub author: Option<String>,
    /// Journal title or abbreviation
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    pub journal: Option<String>,
    /// Publication type, e.g. Review (repeatable; OR-ed)
    #[arg(long, value_name = "TYPE", help_heading = "Filters")]
    pub pubtype: Vec<String>,
    /// MeSH term (repeatable; AND-ed)
    #[arg(long, value_name = "TERM", help_heading = "Filters")]
    pub mesh: Vec<String>,
    /// Language, e.g. english
    #[arg(long, value_name = "LANG", help_heading = "Filters")]
    pub language: Option<String>,
    /// Only records with an abstract
    #[arg(long, help_heading = "Filters")]
    pub has_abstract: bool,
    /// Only free full text
    #[arg(long, help_heading = "Filters")]
    pub free_full_text: bool,
    /// Only humans or only animals
    #[arg(long, value_name = "WHICH", value_parser = choice::<Species>(),
          help_heading = "Filters")]
    pub species: Option<Species>,
    /// Records per page (help from the limits: `retmax_help`)
    #[arg(long, value_name = "N", help_heading = "Paging", help = retmax_help())]
    pub retmax: Option<u32>,
    /// First record, 0-based (help from the limits: `retstart_help`)
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Paging",
          help = retstart_help())]
    pub retstart: u32,
    /// Print the number of hits only
    #[arg(long, help_heading = "Paging")]
    pub count: bool,
    /// Sort order
    #[arg(long, value_name = "ORDER", value_parser = choice::<Sort>(),
          help_heading = "Paging")]
    pub sort: Option<Sort>,
    /// Every PMID of the query, past PubMed's window, streamed (help: `all_help`)
    #[arg(long, help_heading = "Paging", help = all_help(),
          conflicts_with_all = ["retmax", "retstart", "count", "sort", "spell"])]
    pub all: bool,
    /// Append a record of this search (query, translation, limits, UTC time, count, PMIDs, SHA-256) to FILE, one JSON line (docs/recorded.md)
    #[arg(
        long,
        value_name = "FILE",
        help_heading = "Output",
        conflicts_with = "resume"
    )]
    pub record: Option<std::path::PathBuf>,
    /// Record detail [default: full; ids with -f ids and with --all]
    #[arg(long, value_name = "LEVEL", value_parser = choice::<Detail>(),
          help_heading = "Paging")]
    pub detail: Option<Detail>,
    /// With --all: write to FILE instead of stdout, resumable with --resume
    #[arg(long, value_name = "FILE", requires = "all", help_heading = "Paging")]
    pub output: Option<std::path::PathBuf>,
    /// Continue the run FILE holds: what it has is not asked for again (needs --output)
    #[arg(long, requires = "output", help_heading = "Paging")]
    pub resume: bool,
}

/// `pubmed mcp [--http [ADDR]] [--token TOKEN] [--allow-origin ORIGIN]…`
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve over MCP streamable HTTP at http://ADDR/mcp instead of stdio [default ADDR: 127.0.0.1:8765]
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8765")]
    pub http: Option<String>,
    /// Bearer token HTTP clients must send; required off loopback [env: PUBMED_MCP_TOKEN]
    #[arg(long, value_name = "TOKEN", requires = "http")]
    pub token: Option<String>,
    /// Also accept browser requests from ORIGIN, e.g. `https://app.example.org` or `http://host:*` (repeatable; pages on localhost are always accepted)
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub allow_origin: Vec<String>,
}

/// `pubmed spell QUERY…`
#[derive(Debug, Args)]
pub struct SpellArgs {
    /// The query; several words are joined with one space; `-` reads stdin
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
}

/// `pubmed mesh TERM…`
#[derive(Debug, Args)]
pub struct MeshArgs {
    /// A term (`heart attack`) or a MeSH UI (`D009203`); several words are joined with one space
    #[arg(required = true, value_name = "TERM")]
    pub term: Vec<String>,
    /// Also show each tree position's parent and children (to widen or narrow a search)
    #[arg(long)]
    pub tree: bool,
    /// Records to show (1 to 20)
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max: usize,
}

/// `pubmed match [FILE]`
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The reference list (`-` or none: stdin)
    #[arg(value_name = "FILE")]
    pub input: Option<String>,
    /// The list's form [default: by the file name: .csv, .tsv, .bib, .ris, else pipe lines]
    #[arg(long, value_name = "FORM", value_parser = choice::<crate::core::reflist::ListKind>())]
    pub from: Option<crate::core::reflist::ListKind>,
    /// BibTeX or RIS: write the list, with the PMID (and PMCID/DOI found) added to each matched entry that lacks them, to this new FILE (never overwritten)
    #[arg(long, visible_alias = "write-back", value_name = "FILE")]
    pub bib_out: Option<std::path::PathBuf>,
}

/// `pubmed rerun FILE [--id N] [--report]`
#[derive(Debug, Args)]
pub struct RerunArgs {
    /// The record file written by `search --record`
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Only the record on line N of FILE [default: every record, in file order]
    #[arg(long, value_name = "N")]
    pub id: Option<usize>,
    /// Write a PRISMA-S search summary in Markdown (the same as -f markdown)
    #[arg(long)]
    pub report: bool,
}
