//! The `convert` adapter: IDs from arguments or a file/stdin → the convert
//! engine → a streaming writer, with a progress bar on a terminal.

use std::io::{self, BufRead, Write};

use super::args::ConvertArgs;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::error::{Error, Exit, Failure, Reason};
use crate::ops::convert::{self, InputLine, Output};
use crate::ops::fallback;
use crate::output::{self, Format};

/// Opens the input (`-` = stdin) before anything is written, so a missing
/// file or a directory is an error naming it, with nothing on stdout.
pub(super) fn open_input(path: &str) -> Result<Box<dyn BufRead + Send>, Error> {
    if path == "-" {
        return Ok(Box::new(io::BufReader::new(io::stdin())));
    }
    let cannot = |why: String| {
        Error::new(
            Reason::InvalidArgument,
            format!("cannot read {path}: {why}"),
        )
    };
    let meta = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
    if meta.is_dir() {
        return Err(cannot("it is a directory".into()));
    }
    let f = std::fs::File::open(path).map_err(|e| cannot(e.to_string()))?;
    Ok(Box::new(io::BufReader::new(f)))
}

/// Lines of the input read on their own thread, so a slow producer
/// upstream never stalls answers already in flight.
pub(super) fn read_lines(
    reader: Box<dyn BufRead + Send>,
    path: String,
) -> tokio::sync::mpsc::Receiver<io::Result<InputLine>> {
    let (tx, rx) = tokio::sync::mpsc::channel(1024);
    std::thread::spawn(move || read_into(reader, &path, &tx));
    rx
}

fn read_into(
    mut reader: Box<dyn BufRead + Send>,
    path: &str,
    tx: &tokio::sync::mpsc::Sender<io::Result<InputLine>>,
) {
    let mut buf = Vec::new();
    let mut first = true;
    loop {
        buf.clear();
        // A line is read up to MAX_LINE bytes; a longer one (no real ID is)
        // becomes one malformed record and the rest of it is skipped.
        match io::Read::take(&mut reader, MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(_) => {
                let item = if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
                    if let Err(e) = skip_line(&mut reader) {
                        let _ = tx.blocking_send(Err(e));
                        return;
                    }
                    let head = String::from_utf8_lossy(&buf[..40]).into_owned();
                    InputLine::Undecodable(format!("{head}… (a line over {MAX_LINE} bytes)"))
                } else {
                    let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    InputLine::from_bytes(line, first)
                };
                if tx.blocking_send(Ok(item)).is_err() {
                    return;
                }
                first = false;
            }
            Err(e) => {
                let name = if path == "-" { "stdin" } else { path };
                let _ = tx.blocking_send(Err(io::Error::new(
                    e.kind(),
                    format!("cannot read {name}: {e}"),
                )));
                return;
            }
        }
    }
}

/// The longest input line read as an ID.
const MAX_LINE: usize = 64 * 1024;

/// Reads and drops the rest of the current line.
fn skip_line(reader: &mut Box<dyn BufRead + Send>) -> io::Result<()> {
    loop {
        let (found, used) = {
            let chunk = reader.fill_buf()?;
            if chunk.is_empty() {
                return Ok(());
            }
            match chunk.iter().position(|b| *b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, chunk.len()),
            }
        };
        reader.consume(used);
        if found {
            return Ok(());
        }
    }
}

/// Counts the lines of a regular file, for the progress bar's length. Not
/// for pipes, FIFOs or devices: reading them here would consume the input.
pub(super) fn count_lines(path: &str) -> Option<u64> {
    if path == "-" || !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut f = std::fs::File::open(path).ok()?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut n = 0u64;
    loop {
        let got = io::Read::read(&mut f, &mut buf).ok()?;
        if got == 0 {
            return Some(n);
        }
        n += buf[..got].iter().filter(|b| **b == b'\n').count() as u64;
    }
}

/// Where the IDs come from: the arguments, or a file (`-` = stdin) opened
/// before anything is written.
pub(super) enum Input {
    Arguments,
    File(String, Box<dyn BufRead + Send>),
}

impl Input {
    /// The file to count lines of for the progress bar, when there is one
    /// and a bar is shown.
    pub(super) fn total(&self, ctx: &Context) -> Option<u64> {
        match self {
            Input::File(path, _) if ctx.progress && !ctx.quiet && !ctx.stdout_tty => {
                count_lines(path)
            }
            _ => None,
        }
    }

    /// The input as a stream of lines: the file or stdin (read on its own
    /// thread), or the arguments `ids`.
    pub(super) fn lines(
        self,
        ids: &[String],
    ) -> futures::stream::BoxStream<'static, io::Result<InputLine>> {
        match self {
            Input::File(path, reader) => {
                let rx = read_lines(reader, path);
                Box::pin(futures::stream::unfold(rx, |mut rx| async move {
                    rx.recv().await.map(|item| (item, rx))
                }))
            }
            Input::Arguments => Box::pin(convert::id_lines(ids)),
        }
    }
}

/// The output format: `ids` when `--to` is given without `-f`. Errors:
/// `-f ids` without `--to`, or a format `convert` does not offer.
fn choose_format(a: &ConvertArgs, ctx: &Context) -> Result<Format, Error> {
    let format = match (ctx.format, a.to) {
        (None, Some(_)) => Format::Ids,
        _ => ctx.format_for("convert", &Format::RECORDS, Format::Tsv)?,
    };
    if format == Format::Ids && a.to.is_none() {
        return Err(Error::new(
            Reason::InvalidArgument,
            "--format ids needs --to pmid|pmcid|doi (which ID to print)",
        ));
    }
    Ok(format)
}

/// The input, checked before any request: arguments are validated all at
/// once (the first malformed one is the error), a file is opened.
fn choose_input(a: &ConvertArgs) -> Result<Input, Error> {
    let path = match (&a.input, a.ids.as_slice()) {
        (Some(path), _) => path.clone(),
        (None, [dash]) if dash == "-" => "-".to_string(),
        (None, []) => {
            return Err(Error::new(
                Reason::InvalidArgument,
                "give IDs to convert, or --input FILE (- for stdin)",
            ));
        }
        (None, _) => {
            convert::check_ids(&a.ids, a.from)?;
            return Ok(Input::Arguments);
        }
    };
    let reader = open_input(&path)?;
    Ok(Input::File(path, reader))
}

pub(super) async fn run(a: ConvertArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = choose_format(&a, ctx)?;
    let input = choose_input(&a)?;
    let client = ctx.client()?;
    let progress = ctx.progress(Counting::Ids(input.total(ctx)));

    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let fallback = a.fallback.is_some();
    let mut writer =
        output::convert::Writer::begin_with(&mut lock, format, a.to, ctx.style, fallback)?;
    let mut sink = |item: Output<'_>| -> io::Result<()> {
        if let Output::Record(_) | Output::Skipped = item {
            progress.inc();
        }
        writer.item(item)
    };
    let lines = input.lines(&a.ids);
    let run = async {
        if fallback {
            // `--fallback pubmed`: a stage after the Converter's records.
            let mut staged = |item: &fallback::Item| match item {
                fallback::Item::Record(r) => sink(Output::Record(r)),
                fallback::Item::Skipped => sink(Output::Skipped),
            };
            fallback::convert_with_fallback(&client, lines, a.from, &mut staged).await
        } else {
            convert::convert_stream(&client, lines, a.from, &mut sink).await
        }
    };
    let totals = end_of_stream(interruptible(run).await, &progress, || writer.abandon())?;
    writer.finish(&totals)?;
    drop(writer);
    lock.flush()?;
    ctx.note(&output::convert::summary(&totals));
    super::require_input(totals.submitted, "IDs")?;
    Ok(totals.exit())
}
