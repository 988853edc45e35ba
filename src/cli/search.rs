//! The `search` adapter: arguments → [`SearchRequest`], then one page
//! (`ops::search`) or every PMID (`ops::search_all`), rendered.

use std::io::{self, Write};
use std::path::Path;

use super::outfile::{OutputFile, Spec};
use super::progress::{Counting, Progress};
use super::{Context, interruptible, read_query};
use crate::core::dates::DateRequest;
use crate::core::query::Filters;
use crate::core::text::count;
use crate::error::{Exit, Failure};
use crate::ops::resume::OnRetry;
use crate::ops::search::{self, Detail, SearchRequest};
use crate::ops::search_all::{self, Checkpoint, Event};
use crate::output::search_all::{self as search_all_out, Note};
use crate::output::{self, search::SearchFormat, search_all::SearchAllFormat};

use super::choice::choice;
use crate::core::choice::Choice;
use crate::core::dates::DateType;
use crate::core::query::Species;
use crate::core::text::thousands;
use crate::ncbi::limits::{ESEARCH_MAX_RETMAX, ESEARCH_MAX_RETSTART, ESEARCH_WINDOW};
use crate::ops;
use crate::ops::search::{Sort, SpellMode};
use clap::Args;

pub(super) const SEARCH_EXAMPLES: &str = "\
Examples:
  pubmed search 'crispr[ti] AND 2023[pdat]'
  pubmed search asthma --mesh Child --mindate 2020 --retmax 50 -f json | jq -r '.summaries[].title'
  pubmed search 'sepsis' --count
  pubmed search 'alzhiemer' --spell=apply
  pubmed search 'microbiome[mh]' --all > pmids.txt
  pubmed search 'covid-19 vaccine' --all | pubmed convert --input - --to pmcid";

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

/// Turns `search` arguments into a plain request (no clap types);
/// `ids_out`: the output is bare PMIDs (`-f ids`).
fn search_request(a: &SearchArgs, query: String, ids_out: bool) -> SearchRequest {
    let count_only = a.count || a.retmax == Some(0);
    let detail = match a.detail {
        _ if count_only => Detail::Ids,
        Some(d) => d,
        None if ids_out => Detail::Ids,
        None => Detail::Full,
    };
    SearchRequest {
        query,
        field: a.field.clone(),
        filters: Filters {
            publication_types: a.pubtype.clone(),
            author: a.author.clone(),
            journal: a.journal.clone(),
            mesh_terms: a.mesh.clone(),
            language: a.language.clone(),
            has_abstract: a.has_abstract,
            free_full_text: a.free_full_text,
            species: a.species,
        },
        dates: DateRequest {
            min: a.mindate.clone(),
            max: a.maxdate.clone(),
            datetype: a.datetype,
            reldate: a.reldate,
        },
        retmax: if count_only {
            0
        } else {
            a.retmax.unwrap_or(search::DEFAULT_RETMAX)
        },
        retstart: a.retstart,
        sort: a.sort,
        detail,
        summary_limit: None,
        spell: a.spell.unwrap_or_default(),
    }
}

pub(super) async fn run(a: SearchArgs, ctx: &Context) -> Result<Exit, Failure> {
    if a.all {
        return run_all(&a, ctx).await;
    }
    let format = ctx.format_of::<SearchFormat>()?;
    let query = read_query(&a.query)?;
    let req = search_request(&a, query, format == SearchFormat::Ids);
    let today = search::today_utc();
    // Checked before the configuration is read: bad input never waits on it.
    let prepared = search::prepare(&req, today)?;
    let client = ctx.client()?;
    let outcome = search::search_prepared(&client, &req, &prepared, today).await?;
    if let Some(file) = &a.record {
        let searched = crate::ops::recorded::Searched::page(&outcome, &req);
        record_search(ctx, file, &searched, &client.settings().eutils_url)?;
    }
    if format != SearchFormat::Json {
        ctx.note(&output::search::header_line(&outcome));
        if let Some(t) = &outcome.query_translation
            && (format == SearchFormat::Table || ctx.flags.verbose)
        {
            ctx.note(&format!("searched as: {t}"));
        }
        for w in &outcome.warnings {
            ctx.note(&format!("warning: {}", w.message));
        }
        for m in outcome.missing.iter().flatten() {
            ctx.note(&format!("warning: {}", output::search::missing_note(m)));
        }
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    output::search::render(&mut out, &outcome, format, req.detail, &ctx.style)?;
    out.flush()?;
    // `-q` silences it only for a page asked for (`--retmax`/`--retstart`).
    let silenced = ctx.quiet && (a.retmax.is_some() || a.retstart != 0);
    if !ctx.stdout_tty
        && !silenced
        && let Some(w) = output::search::short_pipe_warning(&outcome)
    {
        // Not a note: a pipe that is silently short loses data
        // (docs/search.md "In a pipe").
        crate::diag!("pubmed: {w}");
    }
    Ok(Exit::Success)
}

/// `search --all`: streams every PMID (or summary) as ranges complete, to
/// stdout or (`--output FILE`) to a file kept resumable.
/// What `search --all` sends and how its output is named: the request
/// (PMIDs alone unless `--detail` with a format that shows summaries), its
/// plan, the first request as the search record says it was sent, and the
/// output file's fingerprint.
struct AllPlan {
    req: SearchRequest,
    plan: search_all::Plan,
    first: search::Prepared,
    fingerprint: Vec<(&'static str, String)>,
}

/// The plan after the MeSH check of `--mesh` (1–2 requests with `--mesh`,
/// none without), so the output file's fingerprint names what is searched.
async fn plan_all(
    a: &SearchArgs,
    format: SearchAllFormat,
    client: &crate::ncbi::Client,
) -> Result<AllPlan, Failure> {
    let query = read_query(&a.query)?;
    let mut req = search_request(a, query, format == SearchAllFormat::Ids);
    // PMIDs alone need no summaries (and none can then be missing).
    if a.detail.is_none() || format == SearchAllFormat::Ids {
        req.detail = Detail::Ids;
    }
    let (plan, first) = search_all::prepare_checked(client, &req, search::today_utc()).await?;
    let mut fingerprint = plan.fingerprint();
    fingerprint.push(("detail", req.detail.as_str().to_string()));
    fingerprint.push(("format", format.as_str().to_string()));
    Ok(AllPlan {
        req,
        plan,
        first,
        fingerprint,
    })
}

/// `--output FILE` of `search --all`, checked, locked and read back before
/// anything is sent (`None` without `--output`).
fn open_all_output(
    a: &SearchArgs,
    format: SearchAllFormat,
    p: &AllPlan,
) -> Result<Option<OutputFile<Checkpoint>>, Failure> {
    let Some(path) = &a.output else {
        return Ok(None);
    };
    let spec = Spec {
        command: "search --all",
        fingerprint: &p.fingerprint,
        lines: Some(search_all_out::resume_lines(format, p.req.detail)),
        on_retry: OnRetry::DropLine,
        input: None,
    };
    Ok(Some(OutputFile::<Checkpoint>::open(path, a.resume, spec)?))
}

/// Where a run starts: after what FILE holds (its PMIDs and checkpoint),
/// and whether FILE already has its header.
fn resume_start(file: Option<&mut OutputFile<Checkpoint>>) -> (search_all::Start, bool) {
    match file {
        Some(o) => {
            let header = o.held().header;
            let checkpoint = o.checkpoint().cloned();
            let start = search_all::Start {
                written: o.take_keys(),
                checkpoint,
            };
            (start, header)
        }
        None => (search_all::Start::default(), false),
    }
}

async fn run_all(a: &SearchArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<SearchAllFormat>()?;
    let client = ctx.client()?;
    let p = plan_all(a, format, &client).await?;
    let mut file = open_all_output(a, format, &p)?;
    if let Some(o) = &file
        && note_held(ctx, o, a.resume)
    {
        return Ok(Exit::Success);
    }
    let (start, header_written) = resume_start(file.as_mut());
    let progress = if file.is_some() {
        ctx.progress_to_file(Counting::Pmids)
    } else {
        ctx.progress(Counting::Pmids)
    };
    let stdout = io::stdout();
    let mut out: Box<dyn Write> = match &mut file {
        Some(o) => Box::new(io::BufWriter::new(o.start()?)),
        None => Box::new(io::BufWriter::new(stdout.lock())),
    };
    let mut writer = search_all_out::Writer::begin(&mut out, format, p.req.detail);
    if header_written {
        writer.header_written();
    }
    let mut set: Option<Vec<String>> = a.record.as_ref().map(|_| Vec::new());
    let mut sink = |event: Event<'_>| {
        if let (Event::Pmids(pmids), Some(set)) = (&event, set.as_mut()) {
            set.extend(pmids.iter().cloned());
        }
        on_event(&event, ctx, &progress, &mut writer, file.as_mut())
    };
    let plan = p.plan.clone();
    let result = interruptible(search_all::search_all(&client, plan, start, &mut sink)).await;
    progress.clear();
    let outcome = match result {
        Ok(o) => o,
        Err(f) => {
            writer.flush()?;
            return Err(f);
        }
    };
    writer.finish(outcome.first_failure.is_some())?;
    out.flush()?;
    if let Some(o) = file {
        o.finish(outcome.complete)?;
    }
    note_outcome(ctx, &outcome);
    if let (Some(path), Some(pmids)) = (&a.record, set) {
        record_all(
            ctx,
            path,
            &p,
            &outcome,
            pmids,
            &client.settings().eutils_url,
        )?;
    }
    Ok(outcome.exit())
}

/// `--record FILE` of `search --all`: the whole set when the run is
/// complete, else a warning that nothing was recorded.
fn record_all(
    ctx: &Context,
    path: &Path,
    p: &AllPlan,
    outcome: &search_all::AllOutcome,
    pmids: Vec<String>,
    eutils_url: &str,
) -> Result<(), Failure> {
    if !outcome.complete || outcome.first_failure.is_some() {
        crate::diag!(
            "pubmed: warning: not recorded in {}: the set is incomplete",
            path.display()
        );
        return Ok(());
    }
    let searched = crate::ops::recorded::Searched {
        query: p.req.query.clone(),
        effective_query: p.first.params.term.clone(),
        query_translation: outcome.query_translation.clone(),
        applied_filters: p.first.applied.clone(),
        dates: p.req.dates.clone(),
        warnings: outcome.warnings.clone(),
        count: outcome.total,
        retstart: 0,
        retmax: u32::try_from(outcome.total).unwrap_or(u32::MAX),
        sort: None,
        all: true,
        pmids,
    };
    record_search(ctx, path, &searched, eutils_url)
}

/// One event of the run: the progress bar, its notes on stderr, the
/// output; at a checkpoint, the output flushed and then the sidecar saved
/// (what the output holds is written before the checkpoint says so).
fn on_event(
    event: &Event<'_>,
    ctx: &Context,
    progress: &Progress,
    writer: &mut search_all_out::Writer<'_>,
    file: Option<&mut OutputFile<Checkpoint>>,
) -> io::Result<()> {
    if let Event::Progress {
        done,
        planned,
        pmids,
        total,
    } = event
    {
        progress.set(*pmids, *total, format!("{done}/{planned}"));
    }
    for note in search_all_out::notes(event) {
        match note {
            Note::Warning(w) => ctx.note(&format!("warning: {w}")),
            Note::Error(e) => crate::diag!("pubmed: error: {e}"),
        }
    }
    writer.event(event)?;
    if let (Event::Checkpoint(cp), Some(file)) = (event, file) {
        writer.flush()?;
        file.checkpoint_at((*cp).clone())?;
    }
    Ok(())
}

/// Says what `--output FILE` already holds; true when a `--resume` finds
/// FILE complete (nothing left to ask NCBI).
fn note_held(ctx: &Context, o: &OutputFile<Checkpoint>, resuming: bool) -> bool {
    let (path, held) = (o.path(), o.held());
    if held.cut {
        ctx.note(&format!("{}: dropped a cut last line", path.display()));
    }
    if held.dropped > 0 {
        ctx.note(&format!(
            "{}: {} failed before; asking again",
            path.display(),
            count(held.dropped as u64, "record")
        ));
    }
    let complete = o.complete() && resuming;
    if complete {
        ctx.note(&format!(
            "{} is complete ({}); nothing to resume",
            path.display(),
            count(held.keys.len() as u64, "PMID")
        ));
    }
    complete
}

/// The run's closing notes: its warnings and what was written.
fn note_outcome(ctx: &Context, outcome: &search_all::AllOutcome) {
    for w in &outcome.warnings {
        ctx.note(&format!("warning: {}", w.message));
    }
    let resumed_note = if outcome.resumed > 0 {
        format!(", {} of them already in the file", outcome.resumed)
    } else {
        String::new()
    };
    ctx.note(&format!(
        "{} written{resumed_note}; the query has {} ({})",
        count(outcome.written, "PMID"),
        count(outcome.total, "hit"),
        count(outcome.requests, "request")
    ));
}

/// Appends the record of `searched` to FILE (docs/recorded.md "The record
/// file") and says so.
///
/// Errors: `invalid_argument` naming FILE when it cannot be opened (the
/// path is the user's argument); a failed lock, write or sync (a full disk,
/// `ulimit -f`) is an output failure naming FILE, exit 74, as for every
/// output file (docs/fetch.md "Output files").
fn record_search(
    ctx: &Context,
    file: &Path,
    searched: &crate::ops::recorded::Searched,
    base_url: &str,
) -> Result<(), Failure> {
    use crate::error::{Error, Reason};
    use crate::ops::recorded::{self, AppendError};
    let rec = recorded::record(searched, base_url, jiff::Timestamp::now());
    let rec = recorded::append(file, rec).map_err(|e| match e {
        AppendError::Open(p, e) => Failure::Op(Error::new(
            Reason::InvalidArgument,
            format!("cannot append the search record to {}: {e}", p.display()),
        )),
        AppendError::Write(p, e) => Failure::Output(super::outfile::naming(&p, e)),
    })?;
    let side = match &rec.pmids_file {
        Some(name) => format!(" (the PMIDs in {name})"),
        None => String::new(),
    };
    ctx.note(&format!(
        "recorded the search ({} of {} PMIDs) in {}{side}",
        rec.pmid_count,
        rec.count,
        file.display()
    ));
    Ok(())
}
