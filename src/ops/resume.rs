//! Resuming a run that writes to a file (`--output FILE --resume`,
//! docs/search.md "Resume" and docs/fetch.md "Resume"): what FILE already
//! holds is read back (whole lines only), checked against the command that
//! wrote it, and not requested again.
//!
//! What wrote FILE is kept beside it, in `FILE.pubmed-resume` (JSON): the
//! command, the parameters that decide its output (its fingerprint), the
//! run's checkpoint and whether it completed. A sidecar, not a header line:
//! FILE stays byte for byte what an uninterrupted run writes, so `-f ids`,
//! NDJSON and CSV readers see nothing but records.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Reason, Result};

/// The sidecar's version; a sidecar of another version is not read.
pub const VERSION: u32 = 1;

/// Appended to FILE's name for its sidecar.
pub const SIDECAR_SUFFIX: &str = ".pubmed-resume";

/// The sidecar of `file`: `FILE.pubmed-resume`.
pub fn sidecar_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(SIDECAR_SUFFIX);
    PathBuf::from(name)
}

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
        }
    }
}

fn usage(msg: String) -> Error {
    Error::new(Reason::InvalidArgument, msg)
}

/// Reads the sidecar of `file`, if there is one.
///
/// Errors: `invalid_argument` when it cannot be read or is not a sidecar
/// of this version.
pub fn load<C: DeserializeOwned>(file: &Path) -> Result<Option<Sidecar<C>>> {
    let path = sidecar_path(file);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(usage(format!("cannot read {}: {e}", path.display()))),
    };
    let version = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("version").and_then(serde_json::Value::as_u64));
    if version != Some(u64::from(VERSION)) {
        return Err(usage(format!(
            "{} is not a resume file this version of pubmed can read; delete it and FILE to start over",
            path.display()
        )));
    }
    serde_json::from_str(&text).map(Some).map_err(|e| {
        usage(format!(
            "{} is damaged ({e}); delete it and FILE to start over",
            path.display()
        ))
    })
}

/// Writes the sidecar of `file` whole: to a temporary file first, then
/// renamed over the old one, so a killed run never leaves half a sidecar.
///
/// Errors: the I/O error.
pub fn save<C: Serialize>(file: &Path, sidecar: &Sidecar<C>) -> io::Result<()> {
    let path = sidecar_path(file);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    serde_json::to_writer(&mut tmp, sidecar).map_err(io::Error::other)?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

/// Checks that `stored` (the sidecar's) is the fingerprint of `current`.
///
/// Errors: `invalid_argument` naming each parameter that differs.
pub fn check_same<C>(
    sidecar: &Sidecar<C>,
    command: &str,
    current: &[(&str, String)],
    file: &Path,
) -> Result<()> {
    if sidecar.command != command {
        return Err(usage(format!(
            "{} was written by `pubmed {}`, not `pubmed {command}`: refusing to mix their output; use another --output, or run without --resume to start over",
            file.display(),
            sidecar.command
        )));
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
        return Ok(());
    }
    Err(usage(format!(
        "{} holds the output of another run ({}): refusing to mix them; use another --output, or run without --resume to start over",
        file.display(),
        changed.join("; ")
    )))
}

/// How FILE's lines are written: which line is a header, and where a
/// record keeps its key (the PMID) and its error reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lines {
    /// One key per line (`-f ids`).
    Ids,
    /// One JSON object per line, with `pmid` and maybe `error.reason`.
    Ndjson,
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
        Lines::Ndjson => {
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
            let key = match &v["pmid"] {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return Err("no \"pmid\"".into()),
            };
            let retry = v["error"]["reason"].as_str().is_some_and(retryable);
            Ok(Line::Record { key, retry })
        }
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

/// Reads FILE back for a resumed run: whole lines only (a cut last line is
/// dropped), each read as `lines` writes it; records that failed for a
/// retryable reason are dropped as `on_retry` says. FILE is then cut or
/// rewritten to hold exactly the lines kept, and opened for appending.
///
/// Errors: `invalid_argument` for a line the format does not write (naming
/// the line); the I/O error reading or rewriting FILE.
pub fn reopen(file: &Path, lines: &Lines, on_retry: OnRetry) -> Result<(Reopened, File)> {
    let (out, kept) = scan(file, lines, on_retry)?;
    let write_err = |e: io::Error| usage(format!("cannot rewrite {}: {e}", file.display()));
    match &kept.tail {
        None => cut_to(file, kept.prefix),
        Some(tail) => replace(file, kept.prefix, tail),
    }
    .map_err(write_err)?;
    let f = OpenOptions::new()
        .append(true)
        .open(file)
        .map_err(write_err)?;
    Ok((out, f))
}

/// What of FILE a resumed run keeps: its first `prefix` bytes as they
/// are, then, once a line was dropped in the middle, `tail` (the kept
/// lines after it, to be copied into a new file).
#[derive(Debug, Default)]
struct Kept {
    prefix: u64,
    tail: Option<Vec<u8>>,
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

/// Reads FILE line by line (whole lines only) and decides what stays:
/// the header, records kept (their keys), records dropped to be asked for
/// again, and a cut last line.
fn scan(file: &Path, lines: &Lines, on_retry: OnRetry) -> Result<(Reopened, Kept)> {
    let io_err = |e: io::Error| usage(format!("cannot read {}: {e}", file.display()));
    let mut reader = BufReader::new(File::open(file).map_err(io_err)?);
    let mut out = Reopened::default();
    let mut kept = Kept::default();
    let mut buf = Vec::new();
    let mut n = 0usize;
    let mut truncated = false;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf).map_err(io_err)? == 0 {
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
        let keep = match numbered_line(file, n, &buf, lines)? {
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
/// writes it. Errors: `invalid_argument` naming the line: not UTF-8, or
/// not a line this output writes.
fn numbered_line(file: &Path, n: usize, buf: &[u8], lines: &Lines) -> Result<Line> {
    let text = std::str::from_utf8(&buf[..buf.len() - 1]).map_err(|_| {
        usage(format!(
            "{} line {n} is not UTF-8: it was not written by pubmed",
            file.display()
        ))
    })?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    read_line(lines, text).map_err(|why| {
        usage(format!(
            "{} line {n} is not a record of this output ({why}): it was not written by this command; use another --output",
            file.display()
        ))
    })
}

/// Cuts FILE to its first `len` bytes (every line dropped was at its end).
fn cut_to(file: &Path, len: u64) -> io::Result<()> {
    OpenOptions::new().write(true).open(file)?.set_len(len)
}

/// Rewrites FILE as its first `prefix` bytes followed by `tail`: a new file
/// in the same directory, renamed over FILE, with FILE's permissions (a
/// temporary file is private).
fn replace(file: &Path, prefix: u64, tail: &[u8]) -> io::Result<()> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::NamedTempFile::new_in(dir)?;
    let mut src = File::open(file)?;
    let mut w = BufWriter::new(tmp);
    io::copy(&mut io::Read::take(&mut src, prefix), &mut w)?;
    w.write_all(tail)?;
    let tmp = w.into_inner().map_err(|e| e.into_error())?;
    let perms = fs::metadata(file)?.permissions();
    fs::set_permissions(tmp.path(), perms)?;
    tmp.persist(file).map_err(|e| e.error)?;
    Ok(())
}

/// Opens FILE for a run with `--output`: a fresh run truncates it (after
/// checking that it holds no unfinished run, which only `--resume` may
/// continue); a resumed run reads it back with [`reopen`]. Returns what it
/// holds, the file to append to, and the sidecar to keep up to date.
///
/// Errors: `invalid_argument` for an unfinished run without `--resume`, a
/// FILE without a sidecar under `--resume`, another command or fingerprint,
/// or a line this output does not write; I/O errors as `invalid_argument`
/// naming FILE.
pub fn open<C: DeserializeOwned>(
    file: &Path,
    resume: bool,
    command: &str,
    fingerprint: &[(&str, String)],
    lines: &Lines,
    on_retry: OnRetry,
) -> Result<(Reopened, File, Sidecar<C>)> {
    let exists = file.exists();
    let sidecar: Option<Sidecar<C>> = load(file)?;
    let create_err = |e: io::Error| usage(format!("cannot write {}: {e}", file.display()));
    if !resume || !exists {
        if let Some(s) = &sidecar
            && !s.complete
            && exists
        {
            return Err(usage(format!(
                "{} holds an unfinished run of `pubmed {}`: add --resume to continue it, or delete it (and {}) to start over",
                file.display(),
                s.command,
                sidecar_path(file).display()
            )));
        }
        let f = File::create(file).map_err(create_err)?;
        return Ok((Reopened::default(), f, Sidecar::new(command, fingerprint)));
    }
    let Some(mut sidecar) = sidecar else {
        return Err(usage(format!(
            "{} has no {}: it was not written by `pubmed {command} --output`, so what it holds is unknown; use another --output, or run without --resume to overwrite it",
            file.display(),
            sidecar_path(file).display()
        )));
    };
    check_same(&sidecar, command, fingerprint, file)?;
    let (reopened, f) = reopen(file, lines, on_retry)?;
    if reopened.dropped > 0 {
        sidecar.complete = false;
    }
    Ok((reopened, f, sidecar))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, body: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        fs::write(&path, body).unwrap();
        (dir, path)
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_the_file_cut_there() {
        let (_d, path) = temp("ids.txt", b"3\n2\n1");
        let (r, _) = reopen(&path, &Lines::Ids, OnRetry::DropLine).unwrap();
        assert_eq!(r.keys, vec!["3", "2"]);
        assert!(r.cut);
        assert_eq!(fs::read(&path).unwrap(), b"3\n2\n");
    }

    #[test]
    fn retryable_failures_are_dropped_or_cut_after() {
        let body = concat!(
            "{\"pmid\":\"1\",\"title\":\"a\"}\n",
            "{\"pmid\":\"2\",\"error\":{\"reason\":\"ncbi_unreachable\",\"message\":\"x\"}}\n",
            "{\"pmid\":\"3\",\"error\":{\"reason\":\"ncbi_resource_not_found\",\"message\":\"y\"}}\n",
            "{\"pmid\":\"4\",\"title\":\"d\"}\n",
        );
        let (_d, path) = temp("s.ndjson", body.as_bytes());
        let (r, mut f) = reopen(&path, &Lines::Ndjson, OnRetry::DropLine).unwrap();
        assert_eq!(r.keys, vec!["1", "3", "4"]);
        assert_eq!(r.dropped, 1);
        f.write_all(b"{\"pmid\":\"2\"}\n").unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert!(!text.contains("ncbi_unreachable"));
        assert!(text.ends_with("{\"pmid\":\"4\",\"title\":\"d\"}\n{\"pmid\":\"2\"}\n"));
        let (_d, path) = temp("f.ndjson", body.as_bytes());
        let (r, _) = reopen(&path, &Lines::Ndjson, OnRetry::Truncate).unwrap();
        assert_eq!(r.keys, vec!["1"]);
        assert_eq!(r.dropped, 3);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"pmid\":\"1\",\"title\":\"a\"}\n"
        );
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
        let file = Path::new("out.txt");
        assert!(
            check_same(
                &s,
                "search --all",
                &[("term", "asthma".into()), ("format", "ids".into())],
                file
            )
            .is_ok()
        );
        let e = check_same(
            &s,
            "search --all",
            &[("term", "asthma[mh]".into()), ("format", "ids".into())],
            file,
        )
        .unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert!(
            e.message
                .contains("term was \"asthma\", now \"asthma[mh]\""),
            "{}",
            e.message
        );
        let e = check_same(&s, "fetch", &[], file).unwrap_err();
        assert!(e.message.contains("not `pubmed fetch`"), "{}", e.message);
    }
}
