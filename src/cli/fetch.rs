//! The `fetch` adapter: PMIDs from arguments, a file or stdin (the batch
//! commands' one reader, [`super::input`]) → the fetch engine → a
//! streaming writer, with a progress bar on a terminal (docs/fetch.md).
//! `cite` reads its PMIDs the same way ([`choose_input`]).

use std::io::{self, Write};

use super::input::Input;
use super::outfile::{IdsOutput, pass_held};
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::core::text::printable;
use crate::error::{Error, Exit, Failure};
use crate::ncbi::efetch::Mode;
use crate::ops::batch::Output;
use crate::ops::fetch::{self, FetchOptions, Fetched};
use crate::ops::resume::Lines;
use crate::output::citation::BibOptions;
use crate::output::{self, fetch::FetchFormat};

use super::choice::choice;
use crate::output::citation::KeyStyle;
use clap::Args;

pub(super) const FETCH_EXAMPLES: &str = "\
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

/// The input of `command` (`fetch`, `cite`): PMIDs checked all at once,
/// or a file / stdin ([`Input::choose`]).
pub(super) fn choose_input(
    command: &str,
    input: Option<&str>,
    pmids: &[String],
) -> Result<Input, Error> {
    Input::choose(
        &format!("PMIDs to {command}"),
        input,
        pmids,
        fetch::check_pmids,
    )
}

pub(super) async fn run(a: FetchArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<FetchFormat>()?;
    let bib = BibOptions {
        keys: a.bib_key.unwrap_or_default(),
        unicode: a.bib_unicode,
    };
    let input = choose_input("fetch", a.input.as_deref(), &a.pmids)?;
    // FILE is checked, locked and read back before anything is sent.
    let mut output = IdsOutput {
        command: "fetch",
        format: format.as_str(),
        lines: (format == FetchFormat::Ndjson).then_some(Lines::Ndjson),
        extra: Vec::new(),
        input: a.input.as_deref(),
        no_ids: a.pmids.is_empty(),
    }
    .open(a.output.as_deref(), a.resume)?;
    let client = ctx.client()?;
    let options = FetchOptions {
        mode: match format {
            FetchFormat::Medline => Mode::Medline,
            f => Mode::Xml {
                keep_raw: f == FetchFormat::Xml,
            },
        },
        json_only: matches!(format, FetchFormat::Json | FetchFormat::Ndjson),
        ..FetchOptions::default()
    };
    let progress = match &output {
        Some(_) => ctx.progress_to_file(Counting::Ids(input.total(ctx))),
        None => ctx.progress(Counting::Ids(input.total(ctx))),
    };
    let mut lines = input.lines();
    let already = match &mut output {
        Some(o) => pass_held(ctx, o, &mut lines, &progress, "PMID", fetch::record_key).await?,
        None => 0,
    };

    let stdout = io::stdout();
    // NCBI's own bytes are made terminal-safe only on a terminal
    let on_terminal = output.is_none() && ctx.stdout_tty;
    // FILE is cut to what it keeps only now, after every check.
    let mut out: Box<dyn Write> = match &mut output {
        Some(o) => Box::new(io::BufWriter::new(o.start()?)),
        None => Box::new(io::BufWriter::new(stdout.lock())),
    };
    let mut writer = output::fetch::Writer::begin_with(&mut out, format, ctx.style, bib)?;
    writer.on_terminal(on_terminal);
    let mut sink = |item: Output<'_, Fetched>| -> io::Result<()> {
        if let Output::Record(_) | Output::Skipped = item {
            progress.inc();
        }
        // MEDLINE text has no place for an error: it goes to stderr.
        if let (FetchFormat::Medline, Output::Record(f)) = (format, &item)
            && let Err(e) = &f.outcome
        {
            ctx.note(&format!(
                "PMID {}: {} [{}]",
                printable(&f.pmid),
                e.message,
                e.reason
            ));
        }
        writer.item(item)
    };
    let run = fetch::fetch_stream(&client, lines, options, &mut sink);
    let totals = end_of_stream(interruptible(run).await, &progress, || writer.abandon())?;
    writer.finish(&totals)?;
    drop(writer);
    out.flush()?;
    if let Some(o) = output {
        o.finish(true)?;
    }
    ctx.note(&output::fetch::summary(&totals));
    // a resumed run over a finished FILE had its input, all of it in FILE
    super::require_input(totals.submitted + already, "PMIDs")?;
    Ok(totals.exit())
}
