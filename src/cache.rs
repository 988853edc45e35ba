//! The local cache (docs/cache.md): one SQLite database (rusqlite's bundled
//! library) in the user's cache directory, shared by every `pubmed`
//! process and the MCP server. It keeps NCBI's own bytes per item (one
//! EFetch record per PMID), never a request's whole answer, so a fetch of
//! 1,000 PMIDs of which 900 are cached sends one request for the other 100.
//!
//! Safety rules: WAL journal and a busy timeout, so two processes writing
//! at once both land; a file that is not a readable database is rebuilt
//! with one note; a database that stays locked or cannot be opened turns
//! the cache off for the run with one note. The cache never fails a
//! command.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

use crate::error::{Error, Reason, Result};

crate::core::choice::choice! {
    /// How a run uses the cache (`--cache`, `PUBMED_CACHE`, config key
    /// `cache_mode`).
    #[derive(Default)]
    pub enum CacheMode {
        /// Read fresh entries and store new answers.
        #[default]
        On = "on",
        /// As `on`, and ESearch counts and ID lists are reused too
        /// (within a day): for re-running the same searches.
        Searches = "searches",
        /// Read fresh entries, store nothing.
        Read = "read",
        /// Read nothing, store every new answer (replacing old entries).
        Refresh = "refresh",
        /// No cache at all: the database is not opened.
        Off = "off",
    }
}

impl CacheMode {
    /// Entries are looked up.
    pub fn reads(self) -> bool {
        matches!(self, CacheMode::On | CacheMode::Searches | CacheMode::Read)
    }

    /// New answers are stored.
    pub fn writes(self) -> bool {
        matches!(
            self,
            CacheMode::On | CacheMode::Searches | CacheMode::Refresh
        )
    }
}

/// What an entry holds; each kind has its own time to live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One EFetch XML record (`PubmedArticle` element as NCBI sent it);
    /// `extra` is the answer's prolog (declaration and DOCTYPE).
    EfetchXml,
    /// One EFetch MEDLINE record as NCBI sent it.
    EfetchMedline,
    /// One PubMed ESummary document summary (the parsed
    /// [`DocSum`](crate::ncbi::esummary::DocSum) as JSON), keyed by PMID;
    /// a PMID ESummary answers with an error is not kept.
    Esummary,
    /// One ID Converter record (`{"pmid","pmcid","doi"}` JSON), keyed by
    /// `TYPE:canonical ID`; "not in PMC" answers are not kept.
    Idconv,
    /// One PMID's ELink list (JSON array of PMIDs, NCBI's order), keyed by
    /// `LINKNAME:PMID`.
    Elink,
    /// One MeSH ESummary `<DocumentSummary>` element as NCBI sent it
    /// (re-parsed on a hit), keyed by its UID; a UID answered with an
    /// `<error>` is not kept.
    Mesh,
    /// One PubMed ESpell answer
    /// ([`EspellAnswer`](crate::ncbi::espell::EspellAnswer) as JSON), keyed
    /// by the term sent; only answers that passed every check.
    Espell,
    /// One ESearch answer (count, IDs, translation, notes as JSON), keyed
    /// by the request's parameters; stored when the mode writes, reused
    /// only with [`CacheMode::Searches`] (docs/cache.md "What is kept, and
    /// for how long").
    Esearch,
}

/// One day in seconds.
const DAY: i64 = 86_400;

impl Kind {
    /// Every kind, in `cache stats` order.
    pub const ALL: [Kind; 8] = [
        Kind::EfetchXml,
        Kind::EfetchMedline,
        Kind::Esummary,
        Kind::Idconv,
        Kind::Elink,
        Kind::Mesh,
        Kind::Espell,
        Kind::Esearch,
    ];

    /// The kind's name in the database and in `cache stats`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::EfetchXml => "efetch_xml",
            Kind::EfetchMedline => "efetch_medline",
            Kind::Esummary => "esummary",
            Kind::Idconv => "idconv",
            Kind::Elink => "elink",
            Kind::Mesh => "mesh",
            Kind::Espell => "espell",
            Kind::Esearch => "esearch",
        }
    }

    /// How long an entry is reused, in seconds (docs/cache.md "What is
    /// kept"). Records change (corrections, retraction notices, MeSH
    /// indexing), so a week: long enough to make repeated work free, short
    /// enough that a retraction shows within days; summaries are records
    /// too. ID links are near
    /// permanent but a PMCID or DOI can be added: 30 days. Related lists
    /// grow with new papers: 7 days. MeSH changes once a year: 30 days.
    /// ESpell follows the index: 7 days. A search is about now: 1 day,
    /// and only when asked.
    pub fn ttl(self) -> i64 {
        match self {
            Kind::EfetchXml | Kind::EfetchMedline | Kind::Esummary | Kind::Elink | Kind::Espell => {
                7 * DAY
            }
            Kind::Idconv | Kind::Mesh => 30 * DAY,
            Kind::Esearch => DAY,
        }
    }
}

/// The default size bound: 1 GiB of stored bytes.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;
/// How long a write waits for another process's write (SQLite busy
/// timeout).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// The database's file name in the cache directory.
pub const FILE_NAME: &str = "cache.sqlite3";
/// A WAL file larger than this at a run's end is copied into the database
/// and truncated (`wal_checkpoint(TRUNCATE)`, without waiting for other
/// processes): 4 MiB, SQLite's automatic checkpoint size. The last process
/// to close copies and removes it anyway; this bounds it while others keep
/// the cache open. Test: `cache::the_wal_stays_bounded_across_many_runs`.
const WAL_TRUNCATE_BYTES: u64 = 4 << 20;
/// The schema version in `PRAGMA user_version`; another one is rebuilt.
const SCHEMA_VERSION: i64 = 2;

/// The bodies in a rowid table (a record of several kilobytes is a poor
/// fit for a `WITHOUT ROWID` tree), their lookups' marks in a small table
/// of their own: marking 1,000 lookups writes a few pages, not the pages of
/// 1,000 bodies (docs/cache.md "Size"). A deleted entry takes its mark.
/// `parsed` (before `body`, so reading it leaves the body unread) is an
/// optional parsed form of the body, valid only for the parser named by
/// `form` ([`Cache::get_parsed`]).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS entries (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    extra TEXT,
    form TEXT,
    parsed BLOB,
    body BLOB NOT NULL,
    PRIMARY KEY (kind, key)
);
CREATE TABLE IF NOT EXISTS uses (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    used_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS uses_at ON uses (used_at);
CREATE TRIGGER IF NOT EXISTS entries_gone AFTER DELETE ON entries BEGIN
    DELETE FROM uses WHERE kind = old.kind AND key = old.key;
END;
";

/// The lookup of an entry's body ([`Cache::get_with`]); parameters kind,
/// key, the oldest fresh `fetched_at`. `used_at` is a correlated
/// subquery, not a `LEFT JOIN`: SQLite re-prepares a cached statement
/// that `LEFT JOIN`s on bound parameters at every use (its plan depends on
/// their values), and a cached run then spent half its time in SQLite's
/// parser (test `cache::tests::lookups_are_prepared_once`).
const GET_SQL: &str = "SELECT e.body, e.extra, e.fetched_at, (SELECT u.used_at FROM uses u WHERE u.kind = e.kind AND u.key = e.key) FROM entries e WHERE e.kind = ?1 AND e.key = ?2 AND e.fetched_at > ?3";

/// The lookup of an entry's parsed form ([`Cache::get_parsed`]): as
/// [`GET_SQL`], and the form's name as `?4`.
const GET_PARSED_SQL: &str = "SELECT e.parsed, e.fetched_at, (SELECT u.used_at FROM uses u WHERE u.kind = e.kind AND u.key = e.key) FROM entries e WHERE e.kind = ?1 AND e.key = ?2 AND e.fetched_at > ?3 AND e.form = ?4 AND e.parsed IS NOT NULL";

/// A cached entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// NCBI's bytes for the item.
    pub body: String,
    /// The kind's extra text ([`Kind::EfetchXml`]: the prolog).
    pub extra: Option<String>,
    /// When it was fetched from NCBI, in Unix seconds (UTC).
    pub fetched_at: i64,
}

/// What `cache stats` shows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// The database file.
    pub path: PathBuf,
    /// Entries per kind, in [`Kind::ALL`] order: (name, entries, bytes).
    pub kinds: Vec<KindStats>,
    /// The database file's size in bytes (pages in use and free).
    pub file_bytes: u64,
    /// The size bound in bytes.
    pub max_bytes: u64,
}

/// One kind's row of [`Stats`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KindStats {
    /// [`Kind::name`].
    pub kind: &'static str,
    /// Entries stored.
    pub entries: u64,
    /// Bytes of their bodies and parsed forms.
    pub bytes: u64,
    /// Entries past their time to live (reused by no lookup; replaced by
    /// the next fetch, evicted first when the cache is full).
    pub stale: u64,
    /// [`Kind::ttl`] in seconds.
    pub ttl_s: i64,
}

/// What part of one answer came from the cache, as JSON metadata says it
/// (docs/cache.md "Saying so"): `{"records": N, "oldest_fetched": DATE}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CacheUse {
    /// Records answered from the cache.
    pub records: u64,
    /// When the oldest of them was fetched from NCBI ([`utc`]).
    pub oldest_fetched: String,
}

impl CacheUse {
    /// `None` when no record came from the cache.
    pub fn new(records: u64, oldest: Option<i64>) -> Option<CacheUse> {
        let oldest = oldest.filter(|_| records > 0)?;
        Some(CacheUse {
            records,
            oldest_fetched: utc(oldest),
        })
    }
}

/// The open cache of a process.
pub struct Cache {
    conn: Mutex<Connection>,
    path: PathBuf,
    mode: CacheMode,
    max_bytes: u64,
    notes: bool,
    /// `-v`: say on drop how many records came from the cache.
    verbose: bool,
    /// One note per run about a failing cache.
    noted: AtomicBool,
    hits: AtomicU64,
    stored: AtomicU64,
    /// The oldest `fetched_at` of the entries reused (`i64::MAX`: none).
    oldest_hit: AtomicI64,
    /// Lookups not yet marked in the database (kind, key, when in Unix
    /// milliseconds): written in one transaction per [`MARK_BATCH`]
    /// lookups (or after [`MARK_DELAY_MS`]), before a store or eviction,
    /// and when the cache is dropped.
    marks: Mutex<Vec<(Kind, String, i64)>>,
}

/// Lookups marked used per transaction: one EFetch chunk's worth. One
/// write transaction per lookup cost most of a cached run (docs/cache.md
/// "Size").
const MARK_BATCH: usize = 1000;
/// The longest a lookup's mark waits to be written, in milliseconds.
const MARK_DELAY_MS: i64 = 2000;
/// An entry marked less than this long ago (milliseconds) is not marked
/// again: eviction orders entries to the hour, and a run that only reads
/// entries it used within the hour writes nothing (its marks and the
/// checkpoint's fsyncs at exit were a third of a cached run's wall time).
pub const MARK_FRESH_MS: i64 = 3_600_000;

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("path", &self.path)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

/// The platform cache directory (e.g. `~/.cache/pubmed`), where the cache
/// lives unless `cache_dir` (`PUBMED_CACHE_DIR`) names another; `None`
/// when there is no home directory.
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "pubmed").map(|d| d.cache_dir().to_path_buf())
}

/// Unix seconds as `2026-12-01T09:12:44Z` (UTC).
pub fn utc(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|_| t.to_string())
}

fn now() -> i64 {
    jiff::Timestamp::now().as_second()
}

/// `used_at` is in milliseconds, so eviction orders the lookups of runs a
/// moment apart (an older database's seconds read as older still).
fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

fn cache_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::new(
        Reason::InvalidArgument,
        format!("the cache {} cannot be used: {e}", path.display()),
    )
}

/// True for errors that say the file is not a (readable) database.
fn is_corrupt(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
    )
}

fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // WAL: readers never block the writer, two writers wait their turn.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // A 512 KiB page cache (SQLite's default is 2 MB): a run's lookups are
    // scattered over the file, so a bigger cache is mostly the pages just
    // written, and the operating system keeps the file's pages anyway
    // (docs/memory.md "SQLite").
    conn.pragma_update(None, "cache_size", -512)?;
    let version = |c: &Connection| -> rusqlite::Result<i64> {
        c.pragma_query_value(None, "user_version", |r| r.get(0))
    };
    if version(&conn)? != SCHEMA_VERSION {
        // One write transaction, the version read again inside it: another
        // process opening the old cache at the same moment waits, then
        // finds it rebuilt, rather than dropping the tables this one made
        // (test cache::tests::processes_upgrading_an_old_cache_at_once_keep_their_entries).
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found = version(&tx)?;
        if found != SCHEMA_VERSION {
            if found != 0 {
                tx.execute_batch("DROP TABLE IF EXISTS entries; DROP TABLE IF EXISTS uses;")?;
            }
            tx.execute_batch(SCHEMA)?;
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        }
        tx.commit()?;
    }
    // A quick read (one row, not a count of them all): a damaged file
    // fails here rather than mid-run.
    conn.query_row("SELECT 1 FROM entries LIMIT 1", [], |_| Ok(()))
        .optional()?;
    Ok(conn)
}

impl Cache {
    /// Opens (creating) the database in `dir`. A file that is not a
    /// readable database is replaced by an empty one; `note` is told.
    ///
    /// Errors: `invalid_argument` naming the file when the directory cannot
    /// be made or the database cannot be opened (locked past the busy
    /// timeout, no permission).
    pub fn open(dir: &Path, mode: CacheMode, notes: bool, note: &dyn Fn(&str)) -> Result<Cache> {
        let path = dir.join(FILE_NAME);
        std::fs::create_dir_all(dir).map_err(|e| cache_error(&path, e))?;
        let conn = match connect(&path) {
            Ok(c) => c,
            Err(e) if is_corrupt(&e) => {
                note(&format!(
                    "the cache {} was not a readable database ({e}); starting an empty one",
                    path.display()
                ));
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.clone().into_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
                connect(&path).map_err(|e| cache_error(&path, e))?
            }
            Err(e) => return Err(cache_error(&path, e)),
        };
        Ok(Cache {
            conn: Mutex::new(conn),
            path,
            mode,
            max_bytes: DEFAULT_MAX_BYTES,
            notes,
            verbose: false,
            noted: AtomicBool::new(false),
            hits: AtomicU64::new(0),
            stored: AtomicU64::new(0),
            oldest_hit: AtomicI64::new(i64::MAX),
            marks: Mutex::new(Vec::new()),
        })
    }

    /// Sets the size bound in bytes.
    pub fn with_max_bytes(mut self, max: u64) -> Cache {
        self.max_bytes = max;
        self
    }

    /// With `-v`, the cache says when it is dropped (the run's end) how
    /// many records it answered and when the oldest was fetched.
    pub fn with_verbose(mut self, verbose: bool) -> Cache {
        self.verbose = verbose;
        self
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The run's mode.
    pub fn mode(&self) -> CacheMode {
        self.mode
    }

    /// Entries reused so far by this process.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Entries stored so far by this process.
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// When the oldest entry reused was fetched (Unix seconds), if any.
    pub fn oldest_hit(&self) -> Option<i64> {
        Some(self.oldest_hit.load(Ordering::Relaxed)).filter(|t| *t != i64::MAX)
    }

    /// A failure while running: one note, then silence (the run goes on as
    /// if the entry were not cached).
    fn failed(&self, e: &rusqlite::Error) {
        if self.notes && !self.noted.swap(true, Ordering::Relaxed) {
            crate::diag!(
                "pubmed: the cache {} failed ({e}); going on without it",
                self.path.display()
            );
        }
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The fresh entry of `key`, when the mode reads and one is younger
    /// than the kind's time to live; marks it used (for eviction; the
    /// marks are written in batches, see [`Cache::flush_marks`]). The
    /// unit tests' shorthand: every caller decodes, so it uses
    /// [`Cache::get_with`].
    #[cfg(test)]
    pub fn get(&self, kind: Kind, key: &str) -> Option<Hit> {
        self.get_with(kind, key, Some).map(|(hit, _)| hit)
    }

    /// The fresh entry of `key` read by `decode` (e.g. parsed), when the
    /// mode reads and one is younger than the kind's time to live: marked
    /// used (for eviction; the marks are written in batches, see
    /// [`Cache::flush_marks`]) and counted as a hit only when `decode`
    /// accepts it, so an entry that no longer parses (and is fetched
    /// again) is not said to have come from the cache. Returns the value
    /// and the entry's `fetched_at`.
    pub fn get_with<T>(
        &self,
        kind: Kind,
        key: &str,
        decode: impl FnOnce(Hit) -> Option<T>,
    ) -> Option<(T, i64)> {
        let (body, extra, fetched_at, used_at) = self.lookup(kind, key, GET_SQL, &[], |r| {
            Ok((
                r.get::<_, Vec<u8>>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<i64>>(3)?,
            ))
        })?;
        let body = String::from_utf8(body).ok()?;
        let value = decode(Hit {
            body,
            extra,
            fetched_at,
        })?;
        self.used(kind, key, fetched_at, used_at);
        Some((value, fetched_at))
    }

    /// The parsed form of `key`'s fresh entry read by `decode`, when the
    /// mode reads and one was stored by the parser `form`
    /// ([`Cache::put_parsed`]); the body is not read. Marks it used and
    /// counts it, as [`Cache::get_with`] does, only when `decode` accepts
    /// it. `None` sends the caller to [`Cache::get_with`] and its own
    /// parser.
    pub fn get_parsed<T>(
        &self,
        kind: Kind,
        key: &str,
        form: &str,
        decode: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Option<(T, i64)> {
        let (parsed, fetched_at, used_at) =
            self.lookup(kind, key, GET_PARSED_SQL, &[&form], |r| {
                Ok((
                    r.get::<_, Vec<u8>>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                ))
            })?;
        let value = decode(&parsed)?;
        self.used(kind, key, fetched_at, used_at);
        Some((value, fetched_at))
    }

    /// One fresh row of `sql` (parameters: kind, key, the oldest fresh
    /// `fetched_at`, then `more`); a failure is one note and `None`.
    fn lookup<T>(
        &self,
        kind: Kind,
        key: &str,
        sql: &str,
        more: &[&dyn rusqlite::ToSql],
        row: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Option<T> {
        if !self.mode.reads() {
            return None;
        }
        let oldest = now() - kind.ttl();
        let name = kind.name();
        let mut args: Vec<&dyn rusqlite::ToSql> = vec![&name, &key, &oldest];
        args.extend_from_slice(more);
        let conn = self.conn();
        let found = conn
            .prepare_cached(sql)
            .and_then(|mut st| st.query_row(&args[..], row).optional());
        drop(conn);
        found.unwrap_or_else(|e| {
            self.failed(&e);
            None
        })
    }

    /// Counts a hit and queues its mark, unless its entry was marked less
    /// than [`MARK_FRESH_MS`] ago (`used_at`, Unix milliseconds).
    fn used(&self, kind: Kind, key: &str, fetched_at: i64, used_at: Option<i64>) {
        self.hits.fetch_add(1, Ordering::Relaxed);
        self.oldest_hit.fetch_min(fetched_at, Ordering::Relaxed);
        let at = now_ms();
        if used_at.is_some_and(|u| at - u < MARK_FRESH_MS) {
            return;
        }
        let full = {
            let mut marks = self.marks();
            marks.push((kind, key.to_string(), at));
            // A long-lived process (the MCP server) writes them within
            // seconds too, so other processes' eviction sees them.
            marks.len() >= MARK_BATCH || at - marks[0].2 > MARK_DELAY_MS
        };
        if full {
            self.flush_marks();
        }
    }

    fn marks(&self) -> std::sync::MutexGuard<'_, Vec<(Kind, String, i64)>> {
        self.marks.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes the pending lookups' marks (`used_at`, Unix milliseconds) in
    /// one transaction. A failure is one note; the marks are dropped (an
    /// entry then looks older to eviction than it is, nothing worse).
    pub fn flush_marks(&self) {
        let marks = std::mem::take(&mut *self.marks());
        if marks.is_empty() {
            return;
        }
        let mut conn = self.conn();
        if let Err(e) = mark(&mut conn, &marks) {
            self.failed(&e);
        }
    }

    /// Stores `items` (key, body, extra) in one transaction, when the mode
    /// writes, replacing older entries; then evicts the least recently used
    /// entries while the database is over its size bound.
    pub fn put<'a, I>(&self, kind: Kind, items: I)
    where
        I: IntoIterator<Item = (&'a str, &'a str, Option<&'a str>)>,
    {
        self.put_parsed(
            kind,
            "",
            items
                .into_iter()
                .map(|(key, body, extra)| (key, body, extra, None)),
        );
    }

    /// As [`Cache::put`], each item with an optional parsed form of its
    /// body made by the parser `form` (e.g. a crate version and a format
    /// number): [`Cache::get_parsed`] returns it to a reader asking for
    /// the same `form` only.
    pub fn put_parsed<'a, I>(&self, kind: Kind, form: &str, items: I)
    where
        I: IntoIterator<Item = (&'a str, &'a str, Option<&'a str>, Option<&'a [u8]>)>,
    {
        if !self.mode.writes() {
            return;
        }
        // Eviction below reads the marks: write them first.
        self.flush_marks();
        let (now, used) = (now(), now_ms());
        let mut conn = self.conn();
        let result = (|| -> rusqlite::Result<u64> {
            let tx = conn.transaction()?;
            let mut n = 0;
            {
                let mut st = tx.prepare_cached(
                    "INSERT OR REPLACE INTO entries (kind, key, body, extra, fetched_at, form, parsed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )?;
                let mut mark = tx.prepare_cached(
                    "INSERT OR REPLACE INTO uses (kind, key, used_at) VALUES (?1, ?2, ?3)",
                )?;
                for (key, body, extra, parsed) in items {
                    let form = parsed.map(|_| form);
                    st.execute(params![
                        kind.name(),
                        key,
                        body.as_bytes(),
                        extra,
                        now,
                        form,
                        parsed
                    ])?;
                    mark.execute(params![kind.name(), key, used])?;
                    n += 1;
                }
            }
            tx.commit()?;
            Ok(n)
        })();
        match result {
            Ok(n) => {
                self.stored.fetch_add(n, Ordering::Relaxed);
                if let Err(e) = evict(&conn, self.max_bytes) {
                    self.failed(&e);
                }
            }
            Err(e) => self.failed(&e),
        }
    }

    /// Counts per kind and the file's size.
    ///
    /// Errors: `invalid_argument` naming the file when it cannot be read.
    pub fn stats(&self) -> Result<Stats> {
        self.flush_marks();
        let conn = self.conn();
        let now = now();
        let mut kinds = Vec::new();
        for kind in Kind::ALL {
            let (entries, bytes, stale) = conn
                .query_row(
                    "SELECT count(*), coalesce(sum(length(body) + coalesce(length(parsed), 0)), 0), coalesce(sum(fetched_at <= ?2), 0) FROM entries WHERE kind = ?1",
                    params![kind.name(), now - kind.ttl()],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)),
                )
                .map_err(|e| cache_error(&self.path, e))?;
            kinds.push(KindStats {
                kind: kind.name(),
                entries: entries as u64,
                bytes: bytes as u64,
                stale: stale as u64,
                ttl_s: kind.ttl(),
            });
        }
        let file_bytes = db_bytes(&conn).map_err(|e| cache_error(&self.path, e))?;
        Ok(Stats {
            path: self.path.clone(),
            kinds,
            file_bytes,
            max_bytes: self.max_bytes,
        })
    }

    /// Deletes every entry and gives the file's free pages back; returns
    /// how many entries there were.
    ///
    /// Errors: `invalid_argument` naming the file when it cannot be
    /// written.
    pub fn clear(&self) -> Result<u64> {
        let conn = self.conn();
        let n = conn
            .execute("DELETE FROM entries", [])
            .and_then(|n| conn.execute_batch("VACUUM;").map(|()| n))
            .map_err(|e| cache_error(&self.path, e))?;
        // VACUUM's smaller database is in the WAL until a checkpoint: the
        // file shrinks only then (test cache::cache_clear_shrinks_the_file_on_disk).
        // Another process reading it now keeps the old size until a later
        // checkpoint; the entries are gone all the same.
        let _ = checkpoint(&conn);
        Ok(n as u64)
    }

    /// At a run's end, a WAL over [`WAL_TRUNCATE_BYTES`] is copied into the
    /// database and truncated, when no other process is using it (no
    /// wait: a busy WAL is left to a later run).
    fn trim_wal(&self) {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        let big = std::fs::metadata(&wal).is_ok_and(|m| m.len() > WAL_TRUNCATE_BYTES);
        if !big {
            return;
        }
        let conn = self.conn();
        // Nothing to say when it fails: the next run's end tries again.
        let _ = conn
            .busy_timeout(Duration::ZERO)
            .and_then(|()| checkpoint(&conn));
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        self.flush_marks();
        self.trim_wal();
        if !self.verbose {
            return;
        }
        let (hits, stored) = (self.hits(), self.stored());
        let oldest = self
            .oldest_hit()
            .map(|t| format!(", the oldest fetched {}", utc(t)))
            .unwrap_or_default();
        crate::diag!(
            "pubmed: cache {}: {hits} from cache{oldest}; {stored} stored",
            self.path.display()
        );
    }
}

/// Marks `marks` used (kind, key, Unix milliseconds) in one transaction.
fn mark(conn: &mut Connection, marks: &[(Kind, String, i64)]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut st =
            tx.prepare_cached("UPDATE uses SET used_at = ?1 WHERE kind = ?2 AND key = ?3")?;
        for (kind, key, at) in marks {
            st.execute(params![at, kind.name(), key])?;
        }
    }
    tx.commit()
}

/// Copies the WAL into the database and truncates it to 0 bytes; another
/// process reading or writing makes it stop short (SQLite's busy answer,
/// not an error: the WAL is left for a later checkpoint).
fn checkpoint(conn: &Connection) -> rusqlite::Result<()> {
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
}

fn db_bytes(conn: &Connection) -> rusqlite::Result<u64> {
    let pages: i64 = conn.pragma_query_value(None, "page_count", |r| r.get(0))?;
    let size: i64 = conn.pragma_query_value(None, "page_size", |r| r.get(0))?;
    Ok((pages * size) as u64)
}

/// While the stored bodies exceed `max` bytes, deletes the least recently
/// used tenth of the entries (at least one). Freed pages are reused by
/// later entries; `cache clear` gives them back to the file system.
fn evict(conn: &Connection, max: u64) -> rusqlite::Result<()> {
    // The file's size bounds the bodies' from above: cheap to read, and
    // the exact sum is only needed once it is over.
    if db_bytes(conn)? <= max {
        return Ok(());
    }
    loop {
        let (entries, bytes): (i64, i64) = conn.query_row(
            "SELECT count(*), coalesce(sum(length(body) + coalesce(length(parsed), 0)), 0) FROM entries",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if bytes as u64 <= max || entries == 0 {
            return Ok(());
        }
        // An entry without a mark (none should be) goes first.
        let gone = conn.execute(
            "DELETE FROM entries WHERE (kind, key) IN (SELECT kind, key FROM entries LEFT JOIN uses USING (kind, key) ORDER BY coalesce(used_at, 0) LIMIT ?1)",
            params![(entries / 10).max(1)],
        )?;
        if gone == 0 {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(dir: &Path, mode: CacheMode) -> Cache {
        Cache::open(dir, mode, false, &|_| {}).unwrap()
    }

    #[test]
    fn stores_and_reads_per_mode() {
        let dir = tempfile::tempdir().unwrap();
        let c = open(dir.path(), CacheMode::On);
        c.put(Kind::EfetchXml, [("1", "<a/>", Some("<?xml?>"))]);
        let hit = c.get(Kind::EfetchXml, "1").unwrap();
        assert_eq!(hit.body, "<a/>");
        assert_eq!(hit.extra.as_deref(), Some("<?xml?>"));
        assert_eq!(c.get(Kind::EfetchMedline, "1"), None);
        assert_eq!(c.hits(), 1);
        drop(c);
        let r = open(dir.path(), CacheMode::Read);
        r.put(Kind::EfetchXml, [("2", "<b/>", None)]);
        assert_eq!(r.get(Kind::EfetchXml, "2"), None);
        let f = open(dir.path(), CacheMode::Refresh);
        assert_eq!(f.get(Kind::EfetchXml, "1"), None);
        assert_eq!(f.stats().unwrap().kinds[0].entries, 1);
        assert_eq!(f.clear().unwrap(), 1);
        assert_eq!(f.stats().unwrap().kinds[0].entries, 0);
    }

    #[test]
    fn stale_entries_are_not_reused() {
        let dir = tempfile::tempdir().unwrap();
        let c = open(dir.path(), CacheMode::On);
        c.put(Kind::EfetchXml, [("1", "<a/>", None)]);
        let old = now() - Kind::EfetchXml.ttl() - 1;
        c.conn()
            .execute("UPDATE entries SET fetched_at = ?1", [old])
            .unwrap();
        assert_eq!(c.get(Kind::EfetchXml, "1"), None);
        assert_eq!(c.stats().unwrap().kinds[0].stale, 1);
    }

    #[test]
    fn a_corrupt_file_is_rebuilt_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE_NAME), vec![b'x'; 8192]).unwrap();
        let notes = std::cell::RefCell::new(Vec::new());
        let c = Cache::open(dir.path(), CacheMode::On, false, &|n| {
            notes.borrow_mut().push(n.to_string())
        })
        .unwrap();
        assert_eq!(notes.borrow().len(), 1);
        assert!(
            notes.borrow()[0].contains("not a readable database"),
            "{notes:?}"
        );
        c.put(Kind::EfetchXml, [("1", "<a/>", None)]);
        assert_eq!(c.get(Kind::EfetchXml, "1").unwrap().body, "<a/>");
    }

    #[test]
    fn the_size_bound_evicts_least_recently_used() {
        let dir = tempfile::tempdir().unwrap();
        let c = open(dir.path(), CacheMode::On).with_max_bytes(50_000);
        let body = "x".repeat(1000);
        for i in 0..100 {
            let key = i.to_string();
            c.put(Kind::EfetchXml, [(key.as_str(), body.as_str(), None)]);
        }
        let s = c.stats().unwrap();
        assert!(s.kinds[0].bytes <= 50_000, "{s:?}");
        assert!(s.kinds[0].entries >= 40, "{s:?}");
        // The newest survive.
        assert!(c.get(Kind::EfetchXml, "99").is_some());
        assert!(c.get(Kind::EfetchXml, "0").is_none());
    }

    /// Moves every mark `ms` milliseconds into the past.
    fn age(c: &Cache, ms: i64) {
        c.conn()
            .execute("UPDATE uses SET used_at = used_at - ?1", [ms])
            .unwrap();
    }

    /// Lookups are marked in batches, yet a lookup of another process
    /// since the store keeps its entry over one not used since (item 4 of
    /// issue 30; the CLI test is cache::a_recent_lookup_survives_eviction);
    /// an entry marked within the hour is not marked again, so rereading
    /// it writes nothing.
    #[test]
    fn marks_are_batched_and_order_eviction() {
        let dir = tempfile::tempdir().unwrap();
        let body = "x".repeat(1000);
        let c = open(dir.path(), CacheMode::On);
        c.put(
            Kind::EfetchXml,
            [("a", body.as_str(), None), ("b", body.as_str(), None)],
        );
        // Just stored: a lookup queues no mark.
        assert!(c.get(Kind::EfetchXml, "a").is_some());
        assert_eq!(c.marks().len(), 0);
        assert_eq!(c.hits(), 1);
        age(&c, 2 * MARK_FRESH_MS);
        drop(c);
        let c = open(dir.path(), CacheMode::On);
        assert!(c.get(Kind::EfetchXml, "a").is_some());
        // Not written yet: one transaction per batch.
        assert_eq!(c.marks().len(), 1);
        drop(c);
        assert_eq!(
            open(dir.path(), CacheMode::On)
                .conn()
                .query_row(
                    "SELECT count(*) FROM uses WHERE key = 'a' AND used_at > (SELECT used_at FROM uses WHERE key = 'b') + ?1",
                    [MARK_FRESH_MS],
                    |r| r.get::<_, i64>(0),
                )
                .unwrap(),
            1
        );
        let c = open(dir.path(), CacheMode::On).with_max_bytes(2500);
        c.put(Kind::EfetchXml, [("c", body.as_str(), None)]);
        assert!(c.get(Kind::EfetchXml, "a").is_some());
        assert!(c.get(Kind::EfetchXml, "c").is_some());
        assert!(c.get(Kind::EfetchXml, "b").is_none());
        drop(c);
        // A full batch of stale lookups is written at once.
        let c = open(dir.path(), CacheMode::On);
        let keys: Vec<String> = (0..MARK_BATCH).map(|i| format!("k{i}")).collect();
        c.put(
            Kind::EfetchXml,
            keys.iter().map(|k| (k.as_str(), "<a/>", None)),
        );
        age(&c, 2 * MARK_FRESH_MS);
        for k in &keys {
            assert!(c.get(Kind::EfetchXml, k).is_some());
        }
        assert_eq!(c.marks().len(), 0, "written when the batch filled");
        let fresh: i64 = c
            .conn()
            .query_row(
                "SELECT count(*) FROM uses WHERE key LIKE 'k%' AND used_at > ?1",
                [now_ms() - MARK_FRESH_MS],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(fresh, MARK_BATCH as i64);
    }

    /// Each lookup's statement is prepared once per connection, however
    /// many lookups run: with a `LEFT JOIN` of `uses`, SQLite prepared it
    /// again at every lookup (99 times for 100; half a cached run's time).
    #[test]
    fn lookups_are_prepared_once() {
        let dir = tempfile::tempdir().unwrap();
        let c = open(dir.path(), CacheMode::On);
        let keys: Vec<String> = (0..100).map(|i| format!("{}", 3_000_000 + i)).collect();
        c.put_parsed(
            Kind::EfetchXml,
            "f",
            keys.iter()
                .map(|k| (k.as_str(), "<a/>", None, Some(&b"[1]"[..]))),
        );
        age(&c, 2 * MARK_FRESH_MS);
        for k in &keys {
            assert!(c.get(Kind::EfetchXml, k).is_some());
            assert!(
                c.get_parsed(Kind::EfetchXml, k, "f", |b| Some(b.to_vec()))
                    .is_some()
            );
        }
        let conn = c.conn();
        for sql in [GET_SQL, GET_PARSED_SQL] {
            let st = conn.prepare_cached(sql).unwrap();
            assert_eq!(
                st.get_status(rusqlite::StatementStatus::RePrepare),
                0,
                "{sql}"
            );
        }
    }

    /// Processes opening a cache of the previous schema at once: each
    /// opens it and keeps what it stores. The version check and rebuild
    /// were not one transaction, so one process dropped the tables another
    /// had just made and filled ("no such table: entries" at open or at a
    /// store, or its records lost).
    #[test]
    fn processes_upgrading_an_old_cache_at_once_keep_their_entries() {
        for round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let old = Connection::open(dir.path().join(FILE_NAME)).unwrap();
            old.pragma_update(None, "journal_mode", "WAL").unwrap();
            old.execute_batch(
                "CREATE TABLE entries (kind TEXT NOT NULL, key TEXT NOT NULL, body BLOB NOT NULL,
                     extra TEXT, fetched_at INTEGER NOT NULL, used_at INTEGER NOT NULL,
                     PRIMARY KEY (kind, key)) WITHOUT ROWID;
                 CREATE INDEX entries_used ON entries (used_at);
                 INSERT INTO entries VALUES ('efetch_xml', 'old', x'00', NULL, 0, 0);
                 PRAGMA user_version = 1;",
            )
            .unwrap();
            drop(old);
            let start = std::sync::Barrier::new(6);
            std::thread::scope(|s| {
                for t in 0..6 {
                    let (start, dir) = (&start, dir.path());
                    s.spawn(move || {
                        start.wait();
                        let c = Cache::open(dir, CacheMode::On, false, &|_| {})
                            .unwrap_or_else(|e| panic!("round {round}, opener {t}: {e}"));
                        let key = t.to_string();
                        c.put(Kind::EfetchXml, [(key.as_str(), "<a/>", None)]);
                        assert!(
                            c.get(Kind::EfetchXml, &key).is_some(),
                            "round {round}, opener {t}"
                        );
                    });
                }
            });
            assert_eq!(
                open(dir.path(), CacheMode::On).stats().unwrap().kinds[0].entries,
                6,
                "round {round}"
            );
        }
    }

    #[test]
    fn two_connections_write_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let a = open(dir.path(), CacheMode::On);
        let b = open(dir.path(), CacheMode::On);
        std::thread::scope(|s| {
            for (c, base) in [(&a, 0), (&b, 1000)] {
                s.spawn(move || {
                    for i in 0..200 {
                        let k = (base + i).to_string();
                        c.put(Kind::EfetchXml, [(k.as_str(), "<a/>", None)]);
                    }
                });
            }
        });
        assert_eq!(a.stats().unwrap().kinds[0].entries, 400);
    }
}
