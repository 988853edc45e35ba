//! Where a batch command's IDs come from (`convert`, `related`, `fetch`,
//! `cite`): the arguments, a file, or stdin (`-`, or a pipe when no
//! argument is given, so `pubmed search … | pubmed fetch` works), opened
//! and checked before anything is written or sent. One reader for all of
//! them: blank and `#` lines skipped, CRLF and a byte-order mark handled,
//! over-long lines cut (docs/convert.md "Input").

use std::io::{self, BufRead, IsTerminal};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};

use futures::Stream;

use super::Context;
use crate::error::{Error, Reason};
use crate::ops::batch::InputLine;

/// The input of this run is stdin (`-`, or a pipe with no argument): an
/// empty one then says the pipe was empty ([`super::require_input`]).
static FROM_STDIN: AtomicBool = AtomicBool::new(false);

/// Whether [`Input::choose`] chose stdin.
pub(super) fn from_stdin() -> bool {
    FROM_STDIN.load(Ordering::Relaxed)
}

/// Where the IDs come from.
pub(super) enum Input {
    /// The command's arguments (already checked).
    Arguments(Vec<String>),
    /// A file or stdin (`-`), opened.
    File(String, Box<dyn BufRead + Send>),
}

/// The input lines of a run, whatever their source.
pub(super) type Lines = Pin<Box<dyn Stream<Item = io::Result<InputLine>> + Send>>;

impl Input {
    /// The input of a command: `--input FILE` (or `-`); a lone `-`
    /// argument; with no argument, stdin when it is not a terminal; else
    /// the arguments, every one checked by `check` first (the first
    /// malformed one is the error). `what` names what to give in the error
    /// for no input at all ("IDs to convert").
    pub(super) fn choose(
        what: &str,
        input: Option<&str>,
        ids: &[String],
        check: impl FnOnce(&[String]) -> Result<(), Error>,
    ) -> Result<Input, Error> {
        let path = match (input, ids) {
            (Some(path), _) => path.to_string(),
            (None, [dash]) if dash == "-" => "-".to_string(),
            (None, []) if !io::stdin().is_terminal() => "-".to_string(),
            (None, []) => {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    format!("give {what}, or --input FILE (- for stdin)"),
                ));
            }
            (None, _) => {
                check(ids)?;
                return Ok(Input::Arguments(ids.to_vec()));
            }
        };
        FROM_STDIN.store(path == "-", Ordering::Relaxed);
        let reader = open_input(&path)?;
        Ok(Input::File(path, reader))
    }

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
            Input::Arguments(ids) => Box::pin(crate::ops::batch::id_lines(&ids)),
        }
    }
}

/// Opens the input (`-` = stdin) before anything is written, so a missing
/// file or a directory is an error naming it, with nothing on stdout.
fn open_input(path: &str) -> Result<Box<dyn BufRead + Send>, Error> {
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
fn read_lines(
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
fn count_lines(path: &str) -> Option<u64> {
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
