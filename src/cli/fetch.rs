//! The `fetch` adapter: PMIDs from arguments, a file or stdin (the batch
//! commands' one reader, [`super::input`]) → the fetch engine → a
//! streaming writer, with a progress bar on a terminal (docs/fetch.md).
//! `cite` reads its PMIDs the same way ([`choose_input`]).

use std::io::{self, Write};

use super::args::FetchArgs;
use super::input::Input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::core::text::printable;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ncbi::efetch::Mode;
use crate::ops::batch::Output;
use crate::ops::fetch::{self, FetchOptions, Fetched};
use crate::ops::resume;
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

/// FILE of `fetch --output`, opened before anything is sent: what a
/// resumed run finds in it, the file to append to, and its sidecar (`-f
/// ndjson` only: one record per line is what can be read back).
struct OutputFile {
    path: std::path::PathBuf,
    held: Vec<String>,
    file: std::fs::File,
    sidecar: Option<resume::Sidecar<()>>,
}

fn open_output(
    a: &FetchArgs,
    format: FetchFormat,
    ctx: &Context,
) -> Result<Option<OutputFile>, Failure> {
    let Some(path) = &a.output else {
        return Ok(None);
    };
    if format != FetchFormat::Ndjson {
        if a.resume {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "--resume needs -f ndjson (one record per line, which a resumed run can read back), not -f {}",
                    format.as_str()
                ),
            )
            .into());
        }
        let file = std::fs::File::create(path).map_err(|e| {
            Error::new(
                Reason::InvalidArgument,
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
        return Ok(Some(OutputFile {
            path: path.clone(),
            held: Vec::new(),
            file,
            sidecar: None,
        }));
    }
    let fingerprint = [
        ("format", format.as_str().to_string()),
        (
            "input",
            a.input.clone().unwrap_or_else(|| "arguments".into()),
        ),
    ];
    let (held, file, mut sidecar) = resume::open::<()>(
        path,
        a.resume,
        "fetch",
        &fingerprint,
        &resume::Lines::Ndjson,
        resume::OnRetry::Truncate,
    )?;
    if held.cut {
        ctx.note(&format!("{}: dropped a cut last line", path.display()));
    }
    if held.dropped > 0 {
        ctx.note(&format!(
            "{}: {} failed or followed a failure; fetching again",
            path.display(),
            held.dropped
        ));
    }
    sidecar.complete = false;
    resume::save(path, &sidecar).map_err(|e| {
        Failure::Output(io::Error::new(
            e.kind(),
            format!("{}: {e}", resume::sidecar_path(path).display()),
        ))
    })?;
    Ok(Some(OutputFile {
        path: path.clone(),
        held: held.keys,
        file,
        sidecar: Some(sidecar),
    }))
}

pub(super) async fn run(a: FetchArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<FetchFormat>()?;
    let bib = BibOptions {
        keys: a.bib_key.unwrap_or_default(),
        unicode: a.bib_unicode,
    };
    let input = choose_input("fetch", a.input.as_deref(), &a.pmids)?;
    // FILE is checked (and read back) before anything is sent.
    let mut output = open_output(&a, format, ctx)?;
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
    let held = output.as_mut().map(|o| std::mem::take(&mut o.held));
    let mut already = 0;
    if let (Some(held), Some(o)) = (&held, &output)
        && !held.is_empty()
    {
        let passed = fetch::skip_written(&mut lines, held, &o.path.display().to_string()).await?;
        (0..passed).for_each(|_| progress.inc());
        already = passed;
        ctx.note(&format!(
            "{}: {} already there",
            o.path.display(),
            held.len()
        ));
    }

    let stdout = io::stdout();
    // NCBI's own bytes are made terminal-safe only on a terminal
    let on_terminal = output.is_none() && ctx.stdout_tty;
    let (mut out, path_sidecar): (Box<dyn Write>, _) = match output {
        Some(o) => (
            Box::new(io::BufWriter::new(o.file)),
            o.sidecar.map(|s| (o.path, s)),
        ),
        None => (Box::new(io::BufWriter::new(stdout.lock())), None),
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
    if let Some((path, mut sidecar)) = path_sidecar {
        sidecar.complete = true;
        resume::save(&path, &sidecar).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("{}: {e}", resume::sidecar_path(&path).display()),
            )
        })?;
    }
    ctx.note(&output::fetch::summary(&totals));
    // a resumed run over a finished FILE had its input, all of it in FILE
    super::require_input(totals.submitted + already, "PMIDs")?;
    Ok(totals.exit())
}
