//! The command-line adapter: parses arguments, resolves configuration,
//! calls one operation and renders its result. Exit statuses are
//! [`Exit`]'s.

use std::io::{self, IsTerminal, Read};
use std::process::ExitCode;
use std::sync::Arc;

pub mod args;
pub mod assets;
mod cache_cmd;
pub mod choice;
mod cite;
mod config_cmd;
mod convert;
mod fetch;
mod fulltext;
mod input;
mod r#match;
mod mcp_cmd;
mod mesh;
mod outfile;
mod progress;
mod related;
mod rerun;
mod search;
mod spell;
mod usage;

use crate::config::{self, Flags};
use crate::core::query::MAX_QUERY_CHARS;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ncbi::Client;
use crate::output::{self, ColorWhen, CommandFormat, Format, FormatVisitor, Style};
use args::{Cli, GlobalArgs, formats, no_formats};
use clap::{CommandFactory, Subcommand};
use clap_complete::Shell;

/// What every command needs from the environment: resolved settings, the
/// output format and style, and whether notes may be printed.
pub struct Context {
    /// The explicit `--format`, if any.
    pub format: Option<Format>,
    /// Colour and width for human output.
    pub style: Style,
    /// `-q`: no notes or warnings.
    pub quiet: bool,
    /// Progress bars allowed (stderr is a terminal, no `--no-progress`).
    pub progress: bool,
    /// stdout is a terminal.
    pub stdout_tty: bool,
    /// Flags as plain values (`--cache` among them).
    pub flags: Flags,
}

impl Context {
    fn new(g: &GlobalArgs) -> Self {
        let stdout_tty = io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match g.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => stdout_tty && !no_color,
        };
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<u16>().ok())
            .filter(|w| *w >= 20);
        Context {
            format: g.format,
            style: Style { color, width },
            quiet: g.quiet,
            progress: !g.no_progress && io::stderr().is_terminal(),
            stdout_tty,
            flags: Flags {
                api_key: g.api_key.clone(),
                email: g.email.clone(),
                tool: g.tool.clone(),
                eutils_url: g.eutils_url.clone(),
                idconv_url: g.idconv_url.clone(),
                europepmc_url: g.europepmc_url.clone(),
                timeout: g.timeout,
                cache: g.cache,
                verbose: g.verbose,
            },
        }
    }

    /// The format of a command: `--format` when the command's set `F`
    /// holds it, else `F`'s terminal or pipe default. The one check of the
    /// global `-f` (a command's own `-f` already refused other formats).
    /// Errors: a format the command does not offer is `invalid_argument`
    /// (exit 2).
    pub fn format_of<F: CommandFormat>(&self) -> Result<F, Error> {
        // A set missing from the list would escape tests/docs.rs's checks.
        debug_assert!(
            command_names().contains(&F::COMMAND),
            "{}'s formats are not in cli::each_command_format",
            F::COMMAND
        );
        match self.format {
            Some(f) => F::try_from(f)
                .map_err(|f| Error::new(Reason::InvalidArgument, choice::not_offered::<F>(f))),
            None if self.stdout_tty => Ok(F::TERMINAL),
            None => Ok(F::PIPE),
        }
    }

    /// Prints a note or warning on stderr unless `-q`.
    pub fn note(&self, msg: &str) {
        if !self.quiet {
            crate::diag!("pubmed: {msg}");
        }
    }

    /// The progress bar of a long run: shown when stderr is a terminal and
    /// stdout is not (output on the terminal is its own progress, and a bar
    /// drawn between its lines would garble them), unless `-q` or
    /// `--no-progress`.
    fn progress(&self, counting: progress::Counting) -> progress::Progress {
        progress::Progress::new(self.progress && !self.quiet && !self.stdout_tty, counting)
    }

    /// The progress bar of a run writing to a file (`--output`): shown on a
    /// terminal's stderr whatever stdout is.
    fn progress_to_file(&self, counting: progress::Counting) -> progress::Progress {
        progress::Progress::new(self.progress && !self.quiet, counting)
    }

    /// Builds the one NCBI client of the process from flags, environment
    /// and config file (resolved once; warnings about them on stderr).
    pub fn client(&self) -> Result<Arc<Client>, Error> {
        let settings = config::load(&self.flags, !self.quiet)?;
        for w in &settings.warnings {
            self.note(w);
        }
        let client = Client::new(settings.client_settings()).with_cache(self.open_cache(&settings));
        Ok(Arc::new(client))
    }

    /// Opens the cache for a run (docs/cache.md) as `settings` say (mode,
    /// size bound, directory: flag > environment > config file >
    /// default); a cache that cannot be opened is off for the run, with
    /// one note, never a failure.
    fn open_cache(&self, settings: &config::Settings) -> Option<Arc<crate::cache::Cache>> {
        use crate::cache::{Cache, CacheMode};
        let mode = settings.cache_mode.value;
        if mode == CacheMode::Off {
            return None;
        }
        let dir = settings.cache_dir()?;
        let note = |n: &str| self.note(n);
        match Cache::open(&dir, mode, !self.quiet, &note) {
            Ok(c) => {
                let c = c.with_max_bytes(settings.cache_max_bytes.value.0);
                Some(Arc::new(c.with_verbose(self.flags.verbose)))
            }
            Err(e) => {
                self.note(&format!("{}; going on without it", e.message));
                None
            }
        }
    }
}

/// Runs `run` until it ends or SIGINT (Ctrl-C) arrives; then `run` is
/// dropped at an await point (every line it wrote is whole) and the
/// result is [`Failure::Interrupted`].
async fn interruptible<T>(run: impl Future<Output = Result<T, Failure>>) -> Result<T, Failure> {
    tokio::select! {
        r = run => r,
        Ok(()) = tokio::signal::ctrl_c() => Err(Failure::Interrupted),
    }
}

/// The end of a streaming batch run (`convert`, `fetch`, `related`,
/// `cite`): the progress bar is cleared, and when the run stopped early
/// (Ctrl-C, a failed write, unreadable input) `abandon` ends what was
/// written so every line is whole before the failure is returned
/// (docs/errors.md "Exit statuses").
fn end_of_stream<T>(
    result: Result<T, Failure>,
    progress: &progress::Progress,
    abandon: impl FnOnce() -> io::Result<()>,
) -> Result<T, Failure> {
    progress.clear();
    if result.is_err() {
        abandon()?;
    }
    result
}

/// Joins query words with one space; a lone `-` reads the query from
/// stdin, up to the query length limit and no further (`/dev/zero` is an
/// error at once, in bounded memory).
pub fn read_query(words: &[String]) -> Result<String, Failure> {
    if words.len() == 1 && words[0] == "-" {
        // The longest query in bytes (4 per character) and a line break.
        let limit = MAX_QUERY_CHARS * 4 + 2;
        let mut bytes = Vec::new();
        let stdin = io::stdin();
        stdin
            .lock()
            .take(limit as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| {
                Error::new(
                    Reason::InvalidArgument,
                    format!("cannot read the query from stdin: {e}"),
                )
            })?;
        if bytes.len() > limit {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "the query on stdin is longer than {MAX_QUERY_CHARS} characters, the most accepted"
                ),
            )
            .into());
        }
        let s = String::from_utf8(bytes).map_err(|_| {
            Error::new(
                Reason::InvalidArgument,
                "the query on stdin is not valid UTF-8",
            )
        })?;
        return Ok(s.trim_end_matches(['\n', '\r']).to_string());
    }
    Ok(words.join(" "))
}

/// Prints `e` on stderr: one `pubmed: error:` line and a hint, or the JSON
/// error object with `--format json`/`ndjson`.
pub fn report(e: &Error, json: bool) {
    if json {
        let v = serde_json::json!({ "error": e.to_json() });
        crate::diag!("{v}");
    } else {
        crate::diag!("pubmed: error: {} [{}]", e.message, e.reason);
        crate::diag!("pubmed: hint: {}", e.hint());
    }
}

/// The batch commands' rule for an input with no ID line at all (an empty
/// stdin, a file of blank and `#` lines): the usage error of giving no IDs,
/// `invalid_argument` (exit 2), as for no arguments (docs/convert.md). From
/// stdin the message says the pipe was empty and the hint points at the
/// command before it, not at this one's arguments.
pub(crate) fn require_input(submitted: u64, what: &str) -> Result<(), Failure> {
    if submitted > 0 {
        return Ok(());
    }
    if input::from_stdin() {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!("stdin was empty: the command before the pipe wrote no {what} (only blank or # comment lines, or nothing)"),
        )
        .with_hint("check the command before `|` (its errors, or zero hits, are on stderr above it)")
        .into());
    }
    Err(Error::new(
        Reason::InvalidArgument,
        format!("the input holds no {what} (only blank or # comment lines, or nothing)"),
    )
    .into())
}

/// Prints why a command stopped (nothing for a closed pipe or Ctrl-C) and
/// returns its exit status.
fn report_failure(f: &Failure, json: bool) -> Exit {
    match f {
        Failure::Op(e) => report(e, json),
        Failure::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Failure::Output(e) => match output_error(e) {
            err if json => report(&err, true),
            // the text lines name no reason, as before
            err => {
                crate::diag!("pubmed: error: {}", err.message);
                crate::diag!("pubmed: hint: {}", err.hint());
            }
        },
        Failure::Interrupted => crate::diag!("pubmed: interrupted"),
    }
    f.exit()
}

/// The `output_failed` error (exit 74) of a failed write: the `--output`
/// file named when it was one, else stdout (docs/errors.md).
fn output_error(e: &io::Error) -> Error {
    match e
        .get_ref()
        .and_then(|r| r.downcast_ref::<outfile::FileError>())
    {
        Some(f) => Error::new(
            Reason::OutputFailed,
            format!("cannot write {}: {}", f.path.display(), f.source),
        )
        .with_hint(format!(
            "check the free space and the file size limit (ulimit -f) for {}",
            f.path.display()
        )),
        None => Error::new(
            Reason::OutputFailed,
            format!("cannot write the output: {e}"),
        ),
    }
}

/// The subcommands. A command is registered in this file alone: its
/// module above (`mod mesh;`: its `MeshArgs`, examples and `run`), its
/// variant here (the about line, `after_help` examples), its formats'
/// line in [`each_command_format`] and its arm in `run`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Correct the spelling of a PubMed query with ESpell, in place
    #[command(after_help = spell::SPELL_EXAMPLES)]
    Spell(spell::SpellArgs),
    /// Search PubMed (ESearch + ESummary) and say what PubMed did to the query
    #[command(after_help = search::SEARCH_EXAMPLES)]
    Search(Box<search::SearchArgs>),
    /// Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input
    #[command(after_help = convert::CONVERT_EXAMPLES)]
    Convert(convert::ConvertArgs),
    /// PubMed's similar articles, citing articles or references of PMIDs (ELink), one record per input
    #[command(after_help = related::RELATED_EXAMPLES)]
    Related(related::RelatedArgs),
    /// Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID
    #[command(after_help = fetch::FETCH_EXAMPLES)]
    Fetch(fetch::FetchArgs),
    /// Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID
    #[command(after_help = cite::CITE_EXAMPLES)]
    Cite(cite::CiteArgs),
    /// Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI
    #[command(after_help = fulltext::FULLTEXT_EXAMPLES)]
    Fulltext(fulltext::FulltextArgs),
    /// Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search
    #[command(after_help = mesh::MESH_EXAMPLES)]
    Mesh(mesh::MeshArgs),
    /// Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input
    #[command(after_help = r#match::MATCH_EXAMPLES)]
    Match(r#match::MatchArgs),
    /// Run recorded searches (search --record) again: PMIDs added and removed, counts then and now, translation changes; --report writes a PRISMA-S summary
    #[command(after_help = rerun::RERUN_EXAMPLES)]
    Rerun(rerun::RerunArgs),
    /// Serve the PubMed tools over MCP (the tool list comes from `mcp::tools::specs`)
    #[command(about = mcp_cmd::mcp_about(), after_help = mcp_cmd::MCP_EXAMPLES)]
    Mcp(mcp_cmd::McpArgs),
    /// Show or change the configuration file (API key, e-mail, URLs, policy knobs)
    #[command(after_help = config_cmd::CONFIG_EXAMPLES)]
    Config {
        /// What to do with the configuration.
        #[command(subcommand)]
        action: config_cmd::ConfigAction,
    },
    /// The local cache of NCBI records: where it is, what it holds, clear it
    #[command(after_help = cache_cmd::CACHE_EXAMPLES)]
    Cache {
        /// What to do with the cache.
        #[command(subcommand)]
        action: cache_cmd::CacheAction,
    },
    /// Print a shell completion script
    #[command(after_help = config_cmd::COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell
        #[arg(value_enum, ignore_case = true)]
        shell: Shell,
    },
}

/// Visits every command's format set ([`CommandFormat`], defined in the
/// module that writes it), and every subcommand without one: the one list
/// of them, in the order clap lists the subcommands (completions). A
/// subcommand's `-f` comes from here ([`command`]), `tests/docs.rs`
/// checks each one (`--help`, man page, clap values) against it, and
/// [`Context::format_of`] refuses, in debug builds, a set that is not
/// listed. A new command adds one line here.
pub fn each_command_format(v: &mut impl FormatVisitor) {
    v.visit::<output::spell::SpellFormat>();
    v.visit::<output::search::SearchFormat>();
    v.visit::<output::search_all::SearchAllFormat>();
    v.visit::<output::convert::ConvertFormat>();
    v.visit::<output::related::RelatedFormat>();
    v.visit::<output::fetch::FetchFormat>();
    v.visit::<output::cite::CiteFormat>();
    v.visit::<output::fulltext::FulltextFormat>();
    v.visit::<output::mesh::MeshFormat>();
    v.visit::<output::citmatch::MatchFormat>();
    v.visit::<output::rerun::RerunFormat>();
    v.no_formats(&["config"]);
    v.visit::<config_cmd::ConfigFormat>();
    v.no_formats(&["config", "path"]);
    v.no_formats(&["config", "set"]);
    v.no_formats(&["cache"]);
    v.no_formats(&["cache", "path"]);
    v.visit::<cache_cmd::CacheFormat>();
    v.no_formats(&["cache", "clear"]);
    v.no_formats(&["mcp"]);
    v.no_formats(&["completions"]);
}

/// The [`CommandFormat::COMMAND`] of each set [`each_command_format`]
/// visits, in its order.
fn command_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl FormatVisitor for Names {
        fn visit<F: CommandFormat>(&mut self) {
            self.0.push(F::COMMAND);
        }
    }
    let mut names = Names(Vec::new());
    each_command_format(&mut names);
    names.0
}

/// The clap command of `pubmed`: [`Cli`]'s definition, with each
/// subcommand's `-f` listing only its formats, as [`each_command_format`]
/// gives them (help, completions and man pages come from here).
/// Subcommands without formats keep `-f` (for JSON errors) out of their
/// help.
pub fn command() -> clap::Command {
    /// The command, its subcommands given their `-f` one at a time.
    struct Apply(clap::Command);
    impl FormatVisitor for Apply {
        fn visit<F: CommandFormat>(&mut self) {
            // `search --all` is a mode: its help names its formats.
            if let Some(words) = F::subcommand() {
                self.0 = under(std::mem::take(&mut self.0), &words, formats::<F>);
            }
        }
        fn no_formats(&mut self, words: &[&str]) {
            self.0 = under(std::mem::take(&mut self.0), words, no_formats);
        }
    }
    /// `cmd` with `with` applied to its subcommand at `words`; clap moves
    /// each subcommand changed to the end of its list.
    fn under(
        cmd: clap::Command,
        words: &[&str],
        with: fn(clap::Command) -> clap::Command,
    ) -> clap::Command {
        match words {
            [] => with(cmd),
            [first, rest @ ..] => cmd.mut_subcommand(first, |sub| under(sub, rest, with)),
        }
    }
    let mut apply = Apply(Cli::command());
    each_command_format(&mut apply);
    apply.0
}

/// Runs the command `cli` names, through its adapter.
async fn run(cli: Cli, ctx: Context) -> Result<Exit, Failure> {
    output::delimited::set_raw_cells(raw_cells()?);
    match cli.command {
        Command::Spell(a) => spell::run(a, &ctx).await,
        Command::Search(a) => search::run(*a, &ctx).await,
        Command::Convert(a) => convert::run(a, &ctx).await,
        Command::Related(a) => related::run(a, &ctx).await,
        Command::Fetch(a) => fetch::run(a, &ctx).await,
        Command::Fulltext(a) => fulltext::run(a, &ctx).await,
        Command::Cite(a) => cite::run(a, &ctx).await,
        Command::Mesh(a) => mesh::run(a, &ctx).await,
        Command::Match(a) => r#match::run(a, &ctx).await,
        Command::Rerun(a) => rerun::run(a, &ctx).await,
        Command::Config { action } => config_cmd::run(action, &ctx),
        Command::Cache { action } => cache_cmd::run(action, &ctx),
        Command::Completions { shell } => config_cmd::completions(shell),
        Command::Mcp(a) => mcp_cmd::run(a, &ctx).await,
    }
}

/// A write past the file size limit (`ulimit -f`) fails with `EFBIG`,
/// reported as exit 74 naming the file, instead of killing the process
/// with SIGXFSZ (exit 153, no message).
fn ignore_sigxfsz() {
    // SAFETY: setting a signal's disposition to SIG_IGN before any thread
    // starts; no handler runs.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// `PUBMED_RAW_CELLS`: CSV/TSV cells as NCBI sent them, without the `'`
/// before a formula-like cell (docs/errors.md "CSV and TSV cells"); a bool
/// as the config knobs take it. Errors: `invalid_argument` naming the
/// variable.
fn raw_cells() -> Result<bool, Error> {
    const VAR: &str = "PUBMED_RAW_CELLS";
    let Some(v) = std::env::var_os(VAR).filter(|v| !v.is_empty()) else {
        return Ok(false);
    };
    let bad = |msg: String| {
        Error::new(Reason::InvalidArgument, msg)
            .with_hint(format!("set {VAR} to 1 or 0, or unset it"))
    };
    let text = v
        .to_str()
        .ok_or_else(|| bad(format!("{VAR} is not valid UTF-8")))?;
    <bool as config::KnobValue>::parse(text.trim()).map_err(|why| bad(why.describe(VAR)))
}

/// The whole program: parse, run, map the outcome to an exit code.
pub fn main() -> ExitCode {
    ignore_sigxfsz();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match usage::parse(&args) {
        Ok(c) => c,
        Err(exit) => return exit.into(),
    };
    let ctx = Context::new(&cli.global);
    let json_errors = ctx.format.is_some_and(Format::is_json);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            crate::diag!("pubmed: error: cannot start the async runtime: {e}");
            return Exit::Internal.into();
        }
    };
    let result = runtime.block_on(run(cli, ctx));
    // Don't wait for a blocking stdin read (MCP after SIGINT) to finish.
    runtime.shutdown_background();
    match result {
        Ok(exit) => exit.into(),
        Err(f) => report_failure(&f, json_errors).into(),
    }
}
