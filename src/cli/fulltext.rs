//! The `fulltext` adapter: IDs from arguments or a file/stdin → the
//! full-text engine → a streaming writer (stdout, or `--output FILE`
//! through [`super::outfile`]), error records noted on stderr in the
//! reading formats (docs/fulltext.md).

use std::io::{self, Write};
use std::path::Path;

use super::args::FulltextArgs;
use super::input::Input;
use super::outfile::{OutputFile, Spec};
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::core::text::count;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ops::batch::{InputLine, Output};
use crate::ops::fulltext::{self, FulltextOptions, FulltextRecord};
use crate::ops::resume::{Lines, OnRetry};
use crate::output::{self, FulltextFormat};

/// FILE of `fulltext --output`, opened (checked and locked) before
/// anything is sent, as `fetch --output`: only `-f ndjson` can be resumed
/// (its records keyed by `requested`, the ID as given), but every format
/// keeps a sidecar, so an unfinished run is never overwritten without
/// `--resume`.
fn open_output(
    a: &FulltextArgs,
    format: FulltextFormat,
) -> Result<Option<OutputFile<()>>, Failure> {
    let Some(path) = &a.output else {
        return Ok(None);
    };
    let ndjson = format == FulltextFormat::Ndjson;
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
        ("section", a.section.join(",")),
    ];
    let input = match (&a.input, a.ids.is_empty()) {
        (Some(i), _) if i != "-" => Some(Some(Path::new(i.as_str()))),
        (Some(_), _) | (None, true) => Some(None),
        (None, false) => None,
    };
    let spec = Spec {
        command: "fulltext",
        fingerprint: &fingerprint,
        lines: ndjson.then_some(Lines::NdjsonKeyed("requested")),
        on_retry: OnRetry::Truncate,
        input,
    };
    OutputFile::open(path, a.resume, spec).map(Some)
}

/// The key a record of this input line has in FILE (`requested`).
fn line_key(line: &InputLine) -> Option<String> {
    match line {
        InputLine::Skip => None,
        InputLine::Undecodable(shown) => Some(shown.clone()),
        InputLine::Id(raw) => Some(raw.clone()),
    }
}

pub(super) async fn run(a: FulltextArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<FulltextFormat>()?;
    let options = FulltextOptions {
        keep_raw: format == FulltextFormat::Jats,
    };
    let input = Input::choose("IDs", a.input.as_deref(), &a.ids, |ids| {
        ids.iter()
            .try_for_each(|i| crate::core::ids::detect(i.trim()).map(drop))
    })?;
    // FILE is checked, locked and read back before anything is sent.
    let mut output = open_output(&a, format)?;
    let client = ctx.client()?;
    let progress = match &output {
        Some(_) => ctx.progress_to_file(Counting::Ids(input.total(ctx))),
        None => ctx.progress(Counting::Ids(input.total(ctx))),
    };
    let mut lines = input.lines();
    let mut already = 0;
    if let Some(o) = &mut output {
        let held = o.take_keys();
        if !held.is_empty() {
            let file = o.path().display().to_string();
            let passed =
                crate::ops::fetch::skip_written_by(&mut lines, &held, &file, "ID", line_key)
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
    // FILE is cut to what it keeps only now, after every check.
    let mut lock: Box<dyn Write> = match &mut output {
        Some(o) => Box::new(io::BufWriter::new(o.start()?)),
        None => Box::new(io::BufWriter::new(stdout.lock())),
    };
    let mut first = true;
    if format == FulltextFormat::Json {
        write!(lock, "[")?;
    }
    let mut sink = |item: Output<'_, FulltextRecord>| -> io::Result<()> {
        if let Output::Record(_) | Output::Skipped = item {
            progress.inc();
        }
        let Output::Record(r) = item else {
            return Ok(());
        };
        if let Err(e) = &r.outcome
            && !matches!(format, FulltextFormat::Json | FulltextFormat::Ndjson)
        {
            ctx.note(&format!(
                "error: {}: {} [{}]",
                r.requested, e.message, e.reason
            ));
        }
        let wrote_text =
            r.outcome.is_ok() || matches!(format, FulltextFormat::Json | FulltextFormat::Ndjson);
        output::fulltext::write_record(&mut lock, format, r, &a.section, first)?;
        if wrote_text {
            first = false;
        }
        Ok(())
    };
    let run = fulltext::fulltext_stream(&client, lines, options, &mut sink);
    let totals = end_of_stream(interruptible(run).await, &progress, || Ok(()))?;
    if format == FulltextFormat::Json {
        writeln!(lock, "]")?;
    }
    lock.flush()?;
    drop(lock);
    if let Some(o) = output {
        o.finish(true)?;
    }
    ctx.note(&format!(
        "{} of {} with open full text",
        totals.succeeded,
        count(totals.submitted, "input")
    ));
    // a resumed run over a finished FILE had its input, all of it in FILE
    super::require_input(totals.submitted + already, "IDs")?;
    Ok(totals.exit())
}
