//! Resuming a run that writes to a file (docs/search.md "Resume" and
//! docs/fetch.md "Resume"), the pure part: what the progress sidecar
//! holds, whether it was written by this run's command and parameters,
//! and which of the file's lines a resumed run keeps. Reading and writing
//! the file, locking it and wording the refusals is the CLI's
//! (`cli::outfile`).
//!
//! What wrote FILE is kept beside it, in a sidecar (JSON): the command,
//! the parameters that decide its output (its fingerprint), the run's
//! checkpoint and whether it completed. A sidecar, not a header line:
//! FILE stays byte for byte what an uninterrupted run writes, so `-f ids`,
//! NDJSON and CSV readers see nothing but records.

use std::io::{self, BufRead};

use serde::Serialize;

use crate::error::Reason;

/// The sidecar's version; a sidecar of another version is not read.
pub const VERSION: u32 = 1;

/// What the sidecar holds (JSON). `C` is the command's checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Sidecar<C> {
    /// [`VERSION`].
    pub version: u32,
    /// The command, e.g. `search --all`, `fetch`.
    pub command: String,
    /// The parameters that decide the output, as `[name, value]` pairs.
    pub fingerprint: Vec<(String, String)>,
    /// The run finished with nothing left to do.
    pub complete: bool,
    /// How far the run got, when the command keeps one.
    pub checkpoint: Option<C>,
    /// The process writing FILE while the run is going (named when another
    /// run finds FILE locked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
}

impl<C> Sidecar<C> {
    /// A sidecar for a run that is starting.
    pub fn new(command: &str, fingerprint: &[(&str, String)]) -> Sidecar<C> {
        Sidecar {
            version: VERSION,
            command: command.to_string(),
            fingerprint: fingerprint
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            complete: false,
            checkpoint: None,
            pid: None,
        }
    }
}

/// How a sidecar differs from the run asking to resume it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// Another command wrote it (the sidecar's command).
    Command(String),
    /// The same command with other parameters: `NAME was "A", now "B"`
    /// for each that differs.
    Changed(Vec<String>),
}

/// Checks that `sidecar` was written by `command` with the fingerprint
/// `current`. Errors: what differs.
pub fn check_same<C>(
    sidecar: &Sidecar<C>,
    command: &str,
    current: &[(&str, String)],
) -> Result<(), Mismatch> {
    if sidecar.command != command {
        return Err(Mismatch::Command(sidecar.command.clone()));
    }
    let stored = |k: &str| {
        sidecar
            .fingerprint
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    let mut changed: Vec<String> = current
        .iter()
        .filter(|(k, v)| stored(k) != Some(v.as_str()))
        .map(|(k, v)| format!("{k} was {:?}, now {v:?}", stored(k).unwrap_or("")))
        .collect();
    changed.extend(
        sidecar
            .fingerprint
            .iter()
            .filter(|(k, _)| !current.iter().any(|(c, _)| c == k))
            .map(|(k, v)| format!("{k} was {v:?}, now unset")),
    );
    if changed.is_empty() {
        Ok(())
    } else {
        Err(Mismatch::Changed(changed))
    }
}

/// How FILE's lines are written: which line is a header, and where a
/// record keeps its key (the PMID) and its error reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lines {
    /// One key per line (`-f ids`).
    Ids,
    /// One JSON object per line, with `pmid` and maybe `error.reason`.
    Ndjson,
    /// One JSON object per line, its key in this field (`fulltext`:
    /// `requested`, the input as given) and maybe `error.reason`.
    NdjsonKeyed(&'static str),
    /// CSV or TSV with this header line; the key is the first column, the
    /// error the last, ending with `[reason]` for a failed request.
    Delimited {
        /// The header line as written (without its line break).
        header: String,
        /// `b','` or `b'\t'`.
        delimiter: u8,
    },
}

/// One complete line of FILE, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// The CSV/TSV header.
    Header,
    /// A record.
    Record {
        /// Its PMID.
        key: String,
        /// It records a failure worth asking again for (a retryable reason).
        retry: bool,
    },
}

/// True when `reason` (its snake_case name) is worth asking again for.
fn retryable(reason: &str) -> bool {
    reason.parse::<Reason>().is_ok_and(Reason::retryable)
}

/// Reads one line (without its line break) as `lines` writes it.
///
/// Errors: a line that is not what the format writes (FILE was written by
/// something else, or edited).
pub fn read_line(lines: &Lines, line: &str) -> std::result::Result<Line, String> {
    match lines {
        Lines::Ids => {
            let key = line.trim();
            if key.is_empty() || key.contains(char::is_whitespace) {
                return Err("not one ID".into());
            }
            Ok(Line::Record {
                key: key.to_string(),
                retry: false,
            })
        }
        Lines::Ndjson => ndjson_line(line, "pmid"),
        Lines::NdjsonKeyed(field) => ndjson_line(line, field),
        Lines::Delimited { header, delimiter } => {
            if line == header {
                return Ok(Line::Header);
            }
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .delimiter(*delimiter)
                .quoting(*delimiter == b',')
                .from_reader(line.as_bytes());
            let record = reader
                .records()
                .next()
                .ok_or("an empty row")?
                .map_err(|e| format!("not a row ({e})"))?;
            let key = record.get(0).unwrap_or_default().to_string();
            if key.is_empty() {
                return Err("no ID in the first column".into());
            }
            let error = record.get(record.len() - 1).unwrap_or_default();
            let retry = error
                .strip_suffix(']')
                .and_then(|e| e.rsplit_once('['))
                .is_some_and(|(_, reason)| retryable(reason));
            Ok(Line::Record { key, retry })
        }
    }
}

/// One NDJSON record line, its key in `field`.
fn ndjson_line(line: &str, field: &str) -> std::result::Result<Line, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    let key = match &v[field] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => return Err(format!("no \"{field}\"")),
    };
    let retry = v["error"]["reason"].as_str().is_some_and(retryable);
    Ok(Line::Record { key, retry })
}

/// What to do with a record that failed for a retryable reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnRetry {
    /// Drop that line only (the output is a set: `search --all`).
    DropLine,
    /// Drop it and everything after it (the output is in input order: `fetch`).
    Truncate,
}

/// FILE as a resumed run finds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reopened {
    /// The keys of the records kept, in file order.
    pub keys: Vec<String>,
    /// The CSV/TSV header is among the lines kept.
    pub header: bool,
    /// A cut last line (no line break) was dropped.
    pub cut: bool,
    /// Records dropped to be asked for again (retryable failures, and with
    /// [`OnRetry::Truncate`] what followed the first of them).
    pub dropped: usize,
}

/// What of FILE a resumed run keeps: its first `prefix` bytes as they
/// are, then, once a line was dropped in the middle, `tail` (the kept
/// lines after it, to be written after the prefix).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Kept {
    /// Bytes kept as they are from the start.
    pub prefix: u64,
    /// The lines kept after the first dropped one, when one was dropped
    /// in the middle ([`OnRetry::DropLine`]).
    pub tail: Option<Vec<u8>>,
}

impl Kept {
    /// Takes FILE's next whole line, kept or not. Under
    /// [`OnRetry::DropLine`] the first line not kept starts the tail; under
    /// [`OnRetry::Truncate`] nothing after it is kept, so the prefix alone
    /// is what stays.
    fn add(&mut self, line: &[u8], keep: bool, on_retry: OnRetry) {
        match (&mut self.tail, keep) {
            (None, true) => self.prefix += line.len() as u64,
            (None, false) if on_retry == OnRetry::DropLine => self.tail = Some(Vec::new()),
            (None, false) => {}
            (Some(w), true) => w.extend_from_slice(line),
            (Some(_), false) => {}
        }
    }
}

/// Why FILE cannot be resumed from.
#[derive(Debug)]
pub enum ScanError {
    /// Reading it failed.
    Io(io::Error),
    /// Line `n` (1-based) is not UTF-8.
    NotUtf8(usize),
    /// Line `n` is not a line this output writes, and why.
    NotRecord(usize, String),
}

/// Reads FILE (`reader`) back for a resumed run, writing nothing: whole
/// lines only (a cut last line is dropped), each read as `lines` writes
/// it; records that failed for a retryable reason are dropped as
/// `on_retry` says. Gives what FILE holds and what of it to keep.
///
/// Errors: a line the format does not write, or the read error.
pub fn scan(
    mut reader: impl BufRead,
    lines: &Lines,
    on_retry: OnRetry,
) -> Result<(Reopened, Kept), ScanError> {
    let mut out = Reopened::default();
    let mut kept = Kept::default();
    let mut buf = Vec::new();
    let mut n = 0usize;
    let mut truncated = false;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf).map_err(ScanError::Io)? == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') {
            out.cut = true;
            break;
        }
        n += 1;
        if truncated {
            out.dropped += 1;
            continue;
        }
        let keep = match numbered_line(n, &buf, lines)? {
            Line::Header => {
                out.header = true;
                true
            }
            Line::Record { key, retry: false } => {
                out.keys.push(key);
                true
            }
            Line::Record { retry: true, .. } => {
                out.dropped += 1;
                truncated = on_retry == OnRetry::Truncate;
                false
            }
        };
        kept.add(&buf, keep, on_retry);
    }
    Ok((out, kept))
}

/// Line `n` of FILE (`buf`, its line break included) read as `lines`
/// writes it.
fn numbered_line(n: usize, buf: &[u8], lines: &Lines) -> Result<Line, ScanError> {
    let text = std::str::from_utf8(&buf[..buf.len() - 1]).map_err(|_| ScanError::NotUtf8(n))?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    read_line(lines, text).map_err(|why| ScanError::NotRecord(n, why))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scan of `body` and the bytes a resumed run keeps of it.
    fn kept(body: &[u8], lines: &Lines, on_retry: OnRetry) -> (Reopened, Vec<u8>) {
        let (r, k) = scan(body, lines, on_retry).unwrap();
        let mut out = body[..k.prefix as usize].to_vec();
        out.extend(k.tail.unwrap_or_default());
        (r, out)
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_the_file_cut_there() {
        let (r, out) = kept(b"3\n2\n1", &Lines::Ids, OnRetry::DropLine);
        assert_eq!(r.keys, vec!["3", "2"]);
        assert!(r.cut);
        assert_eq!(out, b"3\n2\n");
    }

    #[test]
    fn retryable_failures_are_dropped_or_cut_after() {
        let body = concat!(
            "{\"pmid\":\"1\",\"title\":\"a\"}\n",
            "{\"pmid\":\"2\",\"error\":{\"reason\":\"ncbi_unreachable\",\"message\":\"x\"}}\n",
            "{\"pmid\":\"3\",\"error\":{\"reason\":\"ncbi_resource_not_found\",\"message\":\"y\"}}\n",
            "{\"pmid\":\"4\",\"title\":\"d\"}\n",
        );
        let (r, mut out) = kept(body.as_bytes(), &Lines::Ndjson, OnRetry::DropLine);
        assert_eq!(r.keys, vec!["1", "3", "4"]);
        assert_eq!(r.dropped, 1);
        out.extend(b"{\"pmid\":\"2\"}\n");
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert!(!text.contains("ncbi_unreachable"));
        assert!(text.ends_with("{\"pmid\":\"4\",\"title\":\"d\"}\n{\"pmid\":\"2\"}\n"));
        let (r, out) = kept(body.as_bytes(), &Lines::Ndjson, OnRetry::Truncate);
        assert_eq!(r.keys, vec!["1"]);
        assert_eq!(r.dropped, 3);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"pmid\":\"1\",\"title\":\"a\"}\n"
        );
    }

    #[test]
    fn a_line_this_output_does_not_write_is_named() {
        assert!(matches!(
            scan(&b"12\n\xff\n"[..], &Lines::Ids, OnRetry::DropLine),
            Err(ScanError::NotUtf8(2))
        ));
        assert!(matches!(
            scan(&b"{}\n"[..], &Lines::Ndjson, OnRetry::Truncate),
            Err(ScanError::NotRecord(1, _))
        ));
    }

    #[test]
    fn csv_rows_give_their_pmid_and_failed_requests() {
        let lines = Lines::Delimited {
            header: "pmid,pub_date,title,pub_types,retracted,error".into(),
            delimiter: b',',
        };
        assert_eq!(
            read_line(&lines, "pmid,pub_date,title,pub_types,retracted,error"),
            Ok(Line::Header)
        );
        assert_eq!(
            read_line(&lines, "12,2001,\"a, b\",Review,false,"),
            Ok(Line::Record {
                key: "12".into(),
                retry: false
            })
        );
        assert_eq!(
            read_line(
                &lines,
                "13,,,,,no summary: gave up after 3 attempts [ncbi_unreachable]"
            ),
            Ok(Line::Record {
                key: "13".into(),
                retry: true
            })
        );
        assert_eq!(
            read_line(&lines, "14,,,,,no summary: cannot get document summary"),
            Ok(Line::Record {
                key: "14".into(),
                retry: false
            })
        );
        assert!(read_line(&Lines::Ndjson, "12").is_err());
        assert!(read_line(&Lines::Ids, "a b").is_err());
    }

    #[test]
    fn a_changed_fingerprint_names_what_changed() {
        let s: Sidecar<()> = Sidecar::new(
            "search --all",
            &[("term", "asthma".into()), ("format", "ids".into())],
        );
        assert!(
            check_same(
                &s,
                "search --all",
                &[("term", "asthma".into()), ("format", "ids".into())],
            )
            .is_ok()
        );
        let e = check_same(
            &s,
            "search --all",
            &[("term", "asthma[mh]".into()), ("format", "ids".into())],
        )
        .unwrap_err();
        assert_eq!(
            e,
            Mismatch::Changed(vec!["term was \"asthma\", now \"asthma[mh]\"".into()])
        );
        let e = check_same(&s, "fetch", &[]).unwrap_err();
        assert_eq!(e, Mismatch::Command("search --all".into()));
    }
}
