//! The one resumable output file of the batch commands (`--output FILE`,
//! `search --all` and `fetch`; docs/fetch.md "Output files"): open (check
//! and lock, refuse), start, checkpoint, finish. FILE is the user's data:
//!
//! - it is never the input (same file, by device and inode);
//! - one run at a time: FILE and its sidecar are locked (`flock`) from
//!   before anything is read or cut until the process ends; a second run
//!   fails at once with `output_locked`, naming the other process;
//! - a run refused for any reason leaves FILE byte for byte as it was:
//!   every check (the sidecar, the lines FILE holds, the input a resumed
//!   `fetch` compares with it) comes before [`OutputFile::start`] cuts or
//!   truncates anything;
//! - FILE holding an unfinished run is continued only with `--resume`,
//!   whatever the format;
//! - a write that fails (a full disk, `ulimit -f`) names FILE ([`FileError`]).
//!
//! Which lines a resumed run keeps is decided in [`crate::ops::resume`]
//! (pure); this module does the file I/O.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Failure, Reason};
use crate::ops::batch::InputLine;
use crate::ops::resume::{self, Kept, Lines, Mismatch, OnRetry, Reopened, ScanError, Sidecar};

/// Appended to FILE's name for its sidecar.
pub const SIDECAR_SUFFIX: &str = ".pubmed-resume";

/// The sidecar of `file`: `FILE.pubmed-resume`.
pub fn sidecar_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(SIDECAR_SUFFIX);
    PathBuf::from(name)
}

/// What a command's output file is: how the command and its output are
/// named in the sidecar, and how its lines read back.
pub(super) struct Spec<'a> {
    /// The command, e.g. `search --all`, `fetch`.
    pub command: &'a str,
    /// The parameters that decide the output.
    pub fingerprint: &'a [(&'a str, String)],
    /// How FILE's lines read back; `None`: this format cannot be resumed.
    pub lines: Option<Lines>,
    /// What to do with a record that failed for a retryable reason.
    pub on_retry: OnRetry,
    /// The input the command reads, when it is a file: `Some(None)` for
    /// stdin, `Some(Some(path))` for `--input PATH`.
    pub input: Option<Option<&'a Path>>,
}

/// An error about FILE that writing it met: the path and the I/O error.
/// Carried inside an [`io::Error`] so the report names FILE, not stdout.
#[derive(Debug)]
pub struct FileError {
    /// FILE (or its sidecar).
    pub path: PathBuf,
    /// What the OS said.
    pub source: io::Error,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for FileError {}

/// `e` as an I/O error naming `path` (its kind kept).
pub fn naming(path: &Path, e: io::Error) -> io::Error {
    if e.get_ref().is_some_and(|r| r.is::<FileError>()) {
        return e;
    }
    io::Error::new(
        e.kind(),
        FileError {
            path: path.to_path_buf(),
            source: e,
        },
    )
}

/// FILE open and locked for one run.
pub(super) struct OutputFile<C> {
    path: PathBuf,
    file: File,
    sidecar: Sidecar<C>,
    /// The sidecar's current inode, locked (replaced whole at each save).
    sidecar_lock: Option<File>,
    /// What a resumed run found (empty for a fresh run).
    held: Reopened,
    /// What to keep of FILE at [`OutputFile::start`]; `None` keeps nothing.
    kept: Option<Kept>,
    /// `--resume` found FILE complete.
    complete: bool,
}

fn usage(msg: String) -> Failure {
    Error::new(Reason::InvalidArgument, msg).into()
}

/// `(device, inode)` of an open file or a path, when it exists.
fn identity(m: &fs::Metadata) -> (u64, u64) {
    (m.dev(), m.ino())
}

/// The refusal of a second run on FILE, naming the process that holds it
/// when its sidecar says.
fn locked(path: &Path) -> Failure {
    let pid = fs::read(sidecar_path(path))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v["pid"].as_u64());
    let who = match pid {
        Some(p) => format!("another pubmed run (pid {p})"),
        None => "another pubmed run".to_string(),
    };
    Error::new(
        Reason::OutputLocked,
        format!(
            "{} is being written by {who}: two runs on one file would mix their records",
            path.display()
        ),
    )
    .with_hint("wait for the other run to end (then add --resume to continue an unfinished file), or give another --output")
    .into()
}

/// Locks `file` for this process, or says who holds it.
fn lock(file: &File, path: &Path) -> Result<(), Failure> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(fs::TryLockError::WouldBlock) => Err(locked(path)),
        Err(fs::TryLockError::Error(e)) => {
            Err(usage(format!("cannot lock {}: {e}", path.display())))
        }
    }
}

/// Refuses an output that is the input: the same file by device and inode.
fn refuse_input(
    path: &Path,
    out: &fs::Metadata,
    input: Option<Option<&Path>>,
) -> Result<(), Failure> {
    let Some(input) = input else {
        return Ok(());
    };
    let (meta, name) = match input {
        Some(p) => (fs::metadata(p), p.display().to_string()),
        None => {
            use std::os::fd::AsFd;
            let stdin = io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .map(File::from)
                .and_then(|f| f.metadata());
            (stdin, "stdin".to_string())
        }
    };
    match meta {
        Ok(m) if identity(&m) == identity(out) && out.is_file() => Err(usage(format!(
            "--output {} is the input ({name}): writing it would destroy what is being read; give another --output",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// Reads the sidecar of `file`, if there is one. Errors: `invalid_argument`
/// when it cannot be read or is not a sidecar of this version.
fn load<C: DeserializeOwned>(file: &Path) -> Result<Option<Sidecar<C>>, Failure> {
    let path = sidecar_path(file);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(usage(format!("cannot read {}: {e}", path.display()))),
    };
    let version = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("version").and_then(serde_json::Value::as_u64));
    if version != Some(u64::from(resume::VERSION)) {
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

/// The directory a file is in (for a temporary file beside it).
fn dir_of(file: &Path) -> &Path {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Writes the sidecar of `file` whole: to a temporary file first, locked,
/// then renamed over the old one, so a killed run never leaves half a
/// sidecar and the name never points at an unlocked one. Returns the new
/// sidecar, locked. Errors: the I/O error, naming the sidecar.
fn save<C: Serialize>(file: &Path, sidecar: &Sidecar<C>) -> io::Result<File> {
    let path = sidecar_path(file);
    let write = || -> io::Result<File> {
        let mut tmp = tempfile::NamedTempFile::new_in(dir_of(&path))?;
        tmp.as_file().try_lock().map_err(io::Error::from)?;
        serde_json::to_writer(&mut tmp, sidecar).map_err(io::Error::other)?;
        tmp.flush()?;
        tmp.persist(&path).map_err(|e| e.error)
    };
    write().map_err(|e| naming(&path, e))
}

impl<C: Serialize + DeserializeOwned> OutputFile<C> {
    /// Opens FILE for a run with `--output`, writing nothing yet: refuses
    /// the input as output, locks FILE and its sidecar, refuses an
    /// unfinished run without `--resume`, and under `--resume` checks the
    /// sidecar against this run and reads FILE back.
    ///
    /// Errors: `output_locked` (exit 75) when another run holds FILE;
    /// `invalid_argument` (exit 2) for the input as output, an unfinished
    /// run without `--resume`, `--resume` with a format that cannot be read
    /// back, a FILE without a sidecar under `--resume`, another command or
    /// fingerprint, a line this output does not write, or FILE that cannot
    /// be opened.
    pub fn open(path: &Path, resume: bool, spec: Spec<'_>) -> Result<Self, Failure> {
        let format_lines = match (&spec.lines, resume) {
            (None, true) => {
                return Err(usage(format!(
                    "--resume needs a format whose lines a resumed run can read back, which {} is not",
                    spec.command
                )));
            }
            (l, _) => l.clone(),
        };
        let before = fs::metadata(path).ok();
        if let Some(m) = &before {
            refuse_input(path, m, spec.input)?;
        }
        // Opened without truncating: nothing changes until `start`.
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| usage(format!("cannot write {}: {e}", path.display())))?;
        let refused = |f: Failure| {
            if before.is_none() {
                // a file this run created is not left behind
                let _ = fs::remove_file(path);
            }
            f
        };
        lock(&file, path).map_err(refused)?;
        let sidecar_lock = match File::open(sidecar_path(path)) {
            Ok(f) => {
                lock(&f, path).map_err(refused)?;
                Some(f)
            }
            Err(_) => None,
        };
        let found: Option<Sidecar<C>> = load(path).map_err(refused)?;
        let exists = before.is_some();
        let mut out = OutputFile {
            path: path.to_path_buf(),
            file,
            sidecar: Sidecar::new(spec.command, spec.fingerprint),
            sidecar_lock,
            held: Reopened::default(),
            kept: None,
            complete: false,
        };
        if !resume || !exists {
            if let Some(s) = &found
                && !s.complete
                && exists
            {
                return Err(usage(format!(
                    "{} holds an unfinished run of `pubmed {}`: add --resume to continue it, or delete it (and {}) to start over",
                    path.display(),
                    s.command,
                    sidecar_path(path).display()
                )));
            }
            return Ok(out);
        }
        let Some(mut sidecar) = found else {
            return Err(usage(format!(
                "{} has no {}: it was not written by `pubmed {} --output`, so what it holds is unknown; use another --output, or run without --resume to overwrite it",
                path.display(),
                sidecar_path(path).display(),
                spec.command
            )));
        };
        refuse_mismatch(&sidecar, &spec, path)?;
        let lines = format_lines.expect("checked above");
        let (held, kept) = resume::scan(BufReader::new(&out.file), &lines, spec.on_retry)
            .map_err(|e| scan_error(path, e))?;
        if held.dropped > 0 {
            sidecar.complete = false;
        }
        out.complete = sidecar.complete;
        out.held = held;
        out.kept = Some(kept);
        out.sidecar = sidecar;
        Ok(out)
    }

    /// FILE's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What a resumed run found in FILE (empty for a fresh run).
    pub fn held(&self) -> &Reopened {
        &self.held
    }

    /// The PMIDs FILE holds, taken (for the run to skip).
    pub fn take_keys(&mut self) -> Vec<String> {
        std::mem::take(&mut self.held.keys)
    }

    /// `--resume` found FILE complete: nothing left to do.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The checkpoint of the run FILE holds.
    pub fn checkpoint(&self) -> Option<&C> {
        self.sidecar.checkpoint.as_ref()
    }

    /// Makes FILE what the run continues from (empty for a fresh run, the
    /// lines kept for a resumed one), marks the sidecar unfinished with
    /// this process's pid, and gives the writer appending to FILE. Called
    /// after every check: the first change to FILE.
    ///
    /// Errors: the I/O error, naming FILE or its sidecar (exit 74).
    pub fn start(&mut self) -> Result<FileWriter, Failure> {
        let path = self.path.clone();
        let io = |e: io::Error| Failure::Output(naming(&path, e));
        match self.kept.take() {
            None => {
                // a device (/dev/full, /dev/null) is not truncated
                if self.file.metadata().map_err(io)?.is_file() {
                    self.file.set_len(0).map_err(io)?;
                }
            }
            Some(Kept { prefix, tail: None }) => self.file.set_len(prefix).map_err(io)?,
            Some(Kept {
                prefix,
                tail: Some(tail),
            }) => self.file = replace(&self.path, &self.file, prefix, &tail).map_err(io)?,
        }
        self.file.seek(io::SeekFrom::End(0)).map_err(io)?;
        self.sidecar.complete = false;
        self.sidecar.pid = Some(std::process::id());
        self.save()?;
        Ok(FileWriter {
            file: self.file.try_clone().map_err(io)?,
            path: self.path.clone(),
        })
    }

    /// Records how far the run got (after the records it covers were
    /// flushed to FILE). Errors: the I/O error naming the sidecar.
    pub fn checkpoint_at(&mut self, checkpoint: C) -> io::Result<()> {
        self.sidecar.checkpoint = Some(checkpoint);
        self.save_io()
    }

    /// Ends the run: the sidecar says whether FILE is complete. Errors:
    /// the I/O error naming the sidecar.
    pub fn finish(mut self, complete: bool) -> io::Result<()> {
        self.sidecar.complete = complete;
        self.sidecar.pid = None;
        self.save_io()
    }

    fn save_io(&mut self) -> io::Result<()> {
        let new = save(&self.path, &self.sidecar)?;
        // the old inode stays locked until the new one is in its place
        self.sidecar_lock = Some(new);
        Ok(())
    }

    fn save(&mut self) -> Result<(), Failure> {
        self.save_io().map_err(Failure::Output)
    }
}

/// The refusal of a `--resume` whose sidecar is another run's.
fn refuse_mismatch<C>(sidecar: &Sidecar<C>, spec: &Spec<'_>, path: &Path) -> Result<(), Failure> {
    match resume::check_same(sidecar, spec.command, spec.fingerprint) {
        Ok(()) => Ok(()),
        Err(Mismatch::Command(other)) => Err(usage(format!(
            "{} was written by `pubmed {other}`, not `pubmed {}`: refusing to mix their output; use another --output, or run without --resume to start over",
            path.display(),
            spec.command
        ))),
        Err(Mismatch::Changed(changed)) => Err(usage(format!(
            "{} holds the output of another run ({}): refusing to mix them; use another --output, or run without --resume to start over",
            path.display(),
            changed.join("; ")
        ))),
    }
}

/// Words a failed read-back of FILE.
fn scan_error(path: &Path, e: ScanError) -> Failure {
    match e {
        ScanError::Io(e) => usage(format!("cannot read {}: {e}", path.display())),
        ScanError::NotUtf8(n) => usage(format!(
            "{} line {n} is not UTF-8: it was not written by pubmed",
            path.display()
        )),
        ScanError::NotRecord(n, why) => usage(format!(
            "{} line {n} is not a record of this output ({why}): it was not written by this command; use another --output",
            path.display()
        )),
    }
}

/// Rewrites FILE as its first `prefix` bytes followed by `tail`: a new file
/// in the same directory, locked, with FILE's permissions (a temporary file
/// is private), renamed over FILE. Returns the new FILE, locked; `old`
/// stays locked until then.
fn replace(path: &Path, old: &File, prefix: u64, tail: &[u8]) -> io::Result<File> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir_of(path))?;
    tmp.as_file().try_lock().map_err(io::Error::from)?;
    let mut src = old.try_clone()?;
    src.seek(io::SeekFrom::Start(0))?;
    {
        let mut w = io::BufWriter::new(tmp.as_file_mut());
        io::copy(&mut io::Read::take(&mut src, prefix), &mut w)?;
        w.write_all(tail)?;
        w.flush()?;
    }
    fs::set_permissions(tmp.path(), old.metadata()?.permissions())?;
    tmp.persist(path).map_err(|e| e.error)
}

/// Appends to FILE; every error names it.
pub(super) struct FileWriter {
    file: File,
    path: PathBuf,
}

impl Write for FileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf).map_err(|e| naming(&self.path, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush().map_err(|e| naming(&self.path, e))
    }
}

/// `--output FILE` of a batch command over a list of IDs (`fetch`,
/// `fulltext`): how FILE is named and fingerprinted in its sidecar.
pub(super) struct IdsOutput<'a> {
    /// The command, e.g. `fetch`.
    pub command: &'a str,
    /// `-f`, as the user spells it.
    pub format: &'a str,
    /// How FILE's lines read back; `None`: this format cannot be resumed.
    pub lines: Option<Lines>,
    /// Other parameters that decide the output (after `format`, `input`).
    pub extra: Vec<(&'a str, String)>,
    /// `--input` as given.
    pub input: Option<&'a str>,
    /// No IDs on the command line (so stdin is read without `--input`).
    pub no_ids: bool,
}

impl IdsOutput<'_> {
    /// FILE opened (checked and locked) before anything is sent; `None`
    /// without `--output`. Only a format with [`IdsOutput::lines`] can be
    /// resumed, but every format keeps a sidecar, so an unfinished run of
    /// any format is never overwritten without `--resume`.
    ///
    /// Errors: `--resume` with a format that cannot be read back
    /// (`invalid_argument`), and those of [`OutputFile::open`].
    pub(super) fn open(
        self,
        path: Option<&Path>,
        resume: bool,
    ) -> Result<Option<OutputFile<()>>, Failure> {
        let Some(path) = path else {
            return Ok(None);
        };
        if self.lines.is_none() && resume {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "--resume needs -f ndjson (one record per line, which a resumed run can read back), not -f {}",
                    self.format
                ),
            )
            .into());
        }
        let mut fingerprint = vec![
            ("format", self.format.to_string()),
            ("input", self.input.unwrap_or("arguments").to_string()),
        ];
        fingerprint.extend(self.extra);
        let input = match (self.input, self.no_ids) {
            (Some(i), _) if i != "-" => Some(Some(Path::new(i))),
            (Some(_), _) | (None, true) => Some(None),
            (None, false) => None,
        };
        let spec = Spec {
            command: self.command,
            fingerprint: &fingerprint,
            lines: self.lines,
            on_retry: OnRetry::Truncate,
            input,
        };
        OutputFile::open(path, resume, spec).map(Some)
    }
}

/// A resumed run of an ID-list command: notes what FILE held that is
/// asked again, then passes the input lines whose records FILE holds
/// (matched by `key`, `noun` naming the ID in the error), counting them on
/// `progress`. Returns how many lines were passed.
///
/// Errors: the input is not the one FILE was written from
/// (`invalid_argument`, with a hint).
pub(super) async fn pass_held<S>(
    ctx: &super::Context,
    o: &mut OutputFile<()>,
    lines: &mut S,
    progress: &super::progress::Progress,
    noun: &str,
    key: impl Fn(&InputLine) -> Option<String>,
) -> Result<u64, Failure>
where
    S: futures::Stream<Item = io::Result<InputLine>> + Unpin,
{
    let file = o.path().display().to_string();
    let held = o.held();
    if held.cut {
        ctx.note(&format!("{file}: dropped a cut last line"));
    }
    if held.dropped > 0 {
        ctx.note(&format!(
            "{file}: {} failed or followed a failure; fetching again",
            held.dropped
        ));
    }
    let held = o.take_keys();
    if held.is_empty() {
        return Ok(0);
    }
    let passed = crate::ops::fetch::skip_written_by(lines, &held, &file, noun, key)
        .await
        .map_err(|e| e.with_hint("use another --output, or run without --resume to start over"))?;
    (0..passed).for_each(|_| progress.inc());
    ctx.note(&format!("{file}: {} already there", held.len()));
    Ok(passed)
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

    /// A sidecar saying FILE holds an unfinished `search --all`.
    fn unfinished(path: &Path) {
        let s: Sidecar<()> = Sidecar::new("search --all", &[]);
        save(path, &s).unwrap();
    }

    fn spec(lines: Lines, on_retry: OnRetry) -> Spec<'static> {
        Spec {
            command: "search --all",
            fingerprint: &[],
            lines: Some(lines),
            on_retry,
            input: None,
        }
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_the_file_cut_there() {
        let (_d, path) = temp("ids.txt", b"3\n2\n1");
        unfinished(&path);
        let mut o =
            OutputFile::<()>::open(&path, true, spec(Lines::Ids, OnRetry::DropLine)).unwrap();
        assert_eq!(o.held().keys, vec!["3", "2"]);
        assert!(o.held().cut);
        assert_eq!(
            fs::read(&path).unwrap(),
            b"3\n2\n1",
            "untouched until start"
        );
        o.start().unwrap();
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
        unfinished(&path);
        let mut o =
            OutputFile::<()>::open(&path, true, spec(Lines::Ndjson, OnRetry::DropLine)).unwrap();
        assert_eq!(o.held().keys, vec!["1", "3", "4"]);
        assert_eq!(o.held().dropped, 1);
        let mut f = o.start().unwrap();
        f.write_all(b"{\"pmid\":\"2\"}\n").unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert!(!text.contains("ncbi_unreachable"));
        assert!(text.ends_with("{\"pmid\":\"4\",\"title\":\"d\"}\n{\"pmid\":\"2\"}\n"));
        drop((f, o));
        let (_d, path) = temp("f.ndjson", body.as_bytes());
        unfinished(&path);
        let mut o =
            OutputFile::<()>::open(&path, true, spec(Lines::Ndjson, OnRetry::Truncate)).unwrap();
        assert_eq!(o.held().keys, vec!["1"]);
        assert_eq!(o.held().dropped, 3);
        o.start().unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"pmid\":\"1\",\"title\":\"a\"}\n"
        );
    }

    /// A second open of a FILE held by a run is refused, also after the
    /// holder rewrote FILE and its sidecar by renaming new ones in.
    #[test]
    fn a_held_file_is_refused_after_its_rewrite() {
        let (_d, path) = temp("s.txt", b"1\n2\n");
        unfinished(&path);
        let mut o =
            OutputFile::<()>::open(&path, true, spec(Lines::Ids, OnRetry::DropLine)).unwrap();
        o.start().unwrap();
        o.checkpoint_at(()).unwrap();
        let e = OutputFile::<()>::open(&path, true, spec(Lines::Ids, OnRetry::DropLine))
            .err()
            .unwrap();
        let Failure::Op(e) = e else { panic!("{e:?}") };
        assert_eq!(e.reason, Reason::OutputLocked);
        assert!(
            e.message.contains(&format!("(pid {})", std::process::id())),
            "{}",
            e.message
        );
    }
}
