//! The `fetch` adapter: PMIDs from arguments, a file or stdin (the batch
//! commands' one reader, [`super::input`]) → the fetch engine → a
//! streaming writer, with a progress bar on a terminal (docs/fetch.md).
//! `cite` reads its PMIDs the same way ([`choose_input`]).

use std::io::{self, Write};

use std::path::Path;

use super::args::FetchArgs;
use super::input::Input;
use super::outfile::{OutputFile, Spec};
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::core::text::printable;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ncbi::efetch::Mode;
use crate::ops::batch::Output;
use crate::ops::fetch::{self, FetchOptions, Fetched};
use crate::ops::resume::{Lines, OnRetry};
use crate::output::citation::BibOptions;
use crate::output::{self, FetchFormat};

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

/// FILE of `fetch --output`, opened (checked and locked) before anything
/// is sent; only `-f ndjson` can be resumed (one record per line is what
/// can be read back), but every format keeps a sidecar, so an unfinished
/// run of any format is never overwritten without `--resume`.
fn open_output(a: &FetchArgs, format: FetchFormat) -> Result<Option<OutputFile<()>>, Failure> {
    let Some(path) = &a.output else {
        return Ok(None);
    };
    let ndjson = format == FetchFormat::Ndjson;
    if !ndjson && a.resume {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!(
                "--resume needs -f ndjson (one record per line, which a resumed run can read back), not -f {}",
                format.as_str()
            ),
        )
        .into());
    }
    let fingerprint = [
        ("format", format.as_str().to_string()),
        (
            "input",
            a.input.clone().unwrap_or_else(|| "arguments".into()),
        ),
    ];
    let input = match (&a.input, a.pmids.is_empty()) {
        (Some(i), _) if i != "-" => Some(Some(Path::new(i.as_str()))),
        (Some(_), _) | (None, true) => Some(None),
        (None, false) => None,
    };
    let spec = Spec {
        command: "fetch",
        fingerprint: &fingerprint,
        lines: ndjson.then_some(Lines::Ndjson),
        on_retry: OnRetry::Truncate,
        input,
    };
    OutputFile::open(path, a.resume, spec).map(Some)
}

pub(super) async fn run(a: FetchArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<FetchFormat>()?;
    let bib = BibOptions {
        keys: a.bib_key.unwrap_or_default(),
        unicode: a.bib_unicode,
    };
    let input = choose_input("fetch", a.input.as_deref(), &a.pmids)?;
    // FILE is checked, locked and read back before anything is sent.
    let mut output = open_output(&a, format)?;
    let client = ctx.client()?;
    let options = FetchOptions {
        mode: match format {
            FetchFormat::Medline => Mode::Medline,
            f => Mode::Xml {
                keep_raw: f == FetchFormat::Xml,
            },
        },
        ..FetchOptions::default()
    };
    let progress = match &output {
        Some(_) => ctx.progress_to_file(Counting::Ids(input.total(ctx))),
        None => ctx.progress(Counting::Ids(input.total(ctx))),
    };
    let mut lines = input.lines();
    let mut already = 0;
    if let Some(o) = &mut output {
        note_held(ctx, o);
        let held = o.take_keys();
        if !held.is_empty() {
            let file = o.path().display().to_string();
            let passed = fetch::skip_written(&mut lines, &held, &file)
                .await
                .map_err(|e| {
                    e.with_hint("use another --output, or run without --resume to start over")
                })?;
            (0..passed).for_each(|_| progress.inc());
            already = passed;
            ctx.note(&format!("{file}: {} already there", held.len()));
        }
    }

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

/// Says what a resumed FILE held that is fetched again.
fn note_held(ctx: &Context, o: &OutputFile<()>) {
    let held = o.held();
    if held.cut {
        ctx.note(&format!("{}: dropped a cut last line", o.path().display()));
    }
    if held.dropped > 0 {
        ctx.note(&format!(
            "{}: {} failed or followed a failure; fetching again",
            o.path().display(),
            held.dropped
        ));
    }
}
