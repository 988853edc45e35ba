//! The `fetch` adapter: PMIDs from arguments, a file or stdin (read with
//! convert's input reader) → the fetch engine → a streaming writer, with a
//! progress bar on a terminal (docs/fetch.md).

use std::io::{self, BufRead, IsTerminal, Write};

use super::args::FetchArgs;
use super::convert::{count_lines, open_input, read_lines};
use super::progress::Counting;
use super::{Context, interruptible};
use crate::core::text::printable;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ncbi::efetch::Mode;
use crate::ops::convert::InputLine;
use crate::ops::fetch::{self, FetchOptions, Output};
use crate::output::{self, Format};

/// Where the PMIDs come from: the arguments, or a file (`-` = stdin)
/// opened before anything is written.
enum Input {
    Arguments,
    File(String, Box<dyn BufRead + Send>),
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

/// The input, checked before any request: arguments are validated all at
/// once (the first malformed one is the error), a file is opened; with no
/// arguments, a piped stdin is read (`pubmed search … | pubmed fetch`).
fn choose_input(a: &FetchArgs) -> Result<Input, Error> {
    let path = match (&a.input, a.pmids.as_slice()) {
        (Some(path), _) => path.clone(),
        (None, [dash]) if dash == "-" => "-".to_string(),
        (None, []) if !io::stdin().is_terminal() => "-".to_string(),
        (None, []) => {
            return Err(Error::new(
                Reason::InvalidArgument,
                "give PMIDs to fetch, or --input FILE (- for stdin)",
            ));
        }
        (None, _) => {
            fetch::check_pmids(&a.pmids)?;
            return Ok(Input::Arguments);
        }
    };
    let reader = open_input(&path)?;
    Ok(Input::File(path, reader))
}

pub(super) async fn run(a: FetchArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = choose_format(ctx)?;
    let input = choose_input(&a)?;
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
    let total = match &input {
        Input::File(path, _) if ctx.progress && !ctx.quiet && !ctx.stdout_tty => count_lines(path),
        _ => None,
    };
    let progress = ctx.progress(Counting::Ids(total));

    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let mut writer = output::fetch::Writer::begin(&mut lock, format, ctx.style)?;
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
    let run = async {
        match input {
            Input::File(path, reader) => {
                let rx = read_lines(reader, path);
                let lines = Box::pin(futures::stream::unfold(rx, |mut rx| async move {
                    rx.recv().await.map(|item| (item, rx))
                }));
                fetch::fetch_stream(&client, lines, options, &mut sink).await
            }
            Input::Arguments => {
                let pmids: Vec<_> = a
                    .pmids
                    .iter()
                    .map(|s| Ok(InputLine::Id(s.clone())))
                    .collect();
                let lines = futures::stream::iter(pmids);
                fetch::fetch_stream(&client, lines, options, &mut sink).await
            }
        }
    };
    let result = interruptible(run).await;
    progress.clear();
    let totals = match result {
        Ok(t) => t,
        Err(f) => {
            writer.abandon()?;
            return Err(f);
        }
    };
    writer.finish(&totals)?;
    drop(writer);
    lock.flush()?;
    ctx.note(&output::fetch::summary(&totals));
    Ok(totals.exit())
}
