//! The `fetch` adapter: PMIDs from arguments, a file or stdin (read with
//! convert's input reader) → the fetch engine → a streaming writer, with a
//! progress bar on a terminal (docs/fetch.md). `cite` reads its PMIDs the
//! same way ([`choose_input`], [`Input::lines`]).

use std::io::{self, BufRead, IsTerminal, Write};
use std::pin::Pin;

use futures::Stream;

use super::args::FetchArgs;
use super::convert::{count_lines, open_input, read_lines};
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::core::text::printable;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ncbi::efetch::Mode;
use crate::ops::convert::InputLine;
use crate::ops::fetch::{self, FetchOptions, Output};
use crate::output::citation::BibOptions;
use crate::output::{self, Format};

/// Where the PMIDs come from: the arguments, or a file (`-` = stdin)
/// opened before anything is written.
pub(super) enum Input {
    Arguments(Vec<String>),
    File(String, Box<dyn BufRead + Send>),
}

/// The input lines of a run, whatever their source.
pub(super) type Lines = Pin<Box<dyn Stream<Item = io::Result<InputLine>> + Send>>;

impl Input {
    /// The lines counted for the progress bar, for a regular file when a
    /// bar is shown.
    pub(super) fn total(&self, ctx: &Context) -> Option<u64> {
        match self {
            Input::File(path, _) if ctx.progress && !ctx.quiet && !ctx.stdout_tty => {
                count_lines(path)
            }
            _ => None,
        }
    }

    /// The input as a stream of lines (a file is read on its own thread).
    pub(super) fn lines(self) -> Lines {
        match self {
            Input::File(path, reader) => {
                let rx = read_lines(reader, path);
                Box::pin(futures::stream::unfold(rx, |mut rx| async move {
                    rx.recv().await.map(|item| (item, rx))
                }))
            }
            Input::Arguments(pmids) => Box::pin(futures::stream::iter(
                pmids
                    .into_iter()
                    .map(|s| Ok(InputLine::Id(s)))
                    .collect::<Vec<_>>(),
            )),
        }
    }
}

/// The format: `--format` if `fetch` offers it, else `abstract` on a
/// terminal and `ndjson` in a pipe.
fn choose_format(ctx: &Context) -> Result<Format, Error> {
    match ctx.format {
        None if ctx.stdout_tty => Ok(Format::Abstract),
        None => Ok(Format::Ndjson),
        Some(_) => ctx.format_for("fetch", &Format::FETCH, Format::Ndjson),
    }
}

/// The input of `command` (`fetch`, `cite`), checked before any request:
/// arguments are validated all at once (the first malformed one is the
/// error), a file is opened; with no arguments, a piped stdin is read
/// (`pubmed search … | pubmed fetch`).
pub(super) fn choose_input(
    command: &str,
    input: Option<&str>,
    pmids: &[String],
) -> Result<Input, Error> {
    let path = match (input, pmids) {
        (Some(path), _) => path.to_string(),
        (None, [dash]) if dash == "-" => "-".to_string(),
        (None, []) if !io::stdin().is_terminal() => "-".to_string(),
        (None, []) => {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!("give PMIDs to {command}, or --input FILE (- for stdin)"),
            ));
        }
        (None, _) => {
            fetch::check_pmids(pmids)?;
            return Ok(Input::Arguments(pmids.to_vec()));
        }
    };
    let reader = open_input(&path)?;
    Ok(Input::File(path, reader))
}

pub(super) async fn run(a: FetchArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = choose_format(ctx)?;
    let bib = BibOptions {
        keys: a.bib_key.unwrap_or_default(),
        unicode: a.bib_unicode,
    };
    let input = choose_input("fetch", a.input.as_deref(), &a.pmids)?;
    let client = ctx.client()?;
    let options = FetchOptions {
        mode: match format {
            Format::Medline => Mode::Medline,
            f => Mode::Xml {
                keep_raw: f == Format::Xml,
            },
        },
        ..FetchOptions::default()
    };
    let progress = ctx.progress(Counting::Ids(input.total(ctx)));

    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let mut writer = output::fetch::Writer::begin_with(&mut lock, format, ctx.style, bib)?;
    writer.on_terminal(ctx.stdout_tty);
    let mut sink = |item: Output<'_>| -> io::Result<()> {
        if let Output::Record(_) | Output::Skipped = item {
            progress.inc();
        }
        // MEDLINE text has no place for an error: it goes to stderr.
        if let (Format::Medline, Output::Record(f)) = (format, &item)
            && let Some(e) = &f.error
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
    let lines = input.lines();
    let run = fetch::fetch_stream(&client, lines, options, &mut sink);
    let totals = end_of_stream(interruptible(run).await, &progress, || writer.abandon())?;
    writer.finish(&totals)?;
    drop(writer);
    lock.flush()?;
    ctx.note(&output::fetch::summary(&totals));
    super::require_input(totals.submitted, "PMIDs")?;
    Ok(totals.exit())
}
