//! The request budget shared by every `pubmed` process of a user
//! (docs/client.md "Shared budget"). NCBI counts requests per address or
//! per API key, not per process: a shell loop, `xargs -P 8` or several MCP
//! servers must draw their request starts from one budget.
//!
//! One small JSON file, [`FILE_NAME`] in the budget directory, guarded by an
//! OS file lock (`std::fs::File::try_lock`; the OS drops the lock when a
//! process dies, so a dead process never blocks the others). Per lane
//! (`eutils`, `eutils-key-<hash>`, `idconv`) it holds the latest booked
//! request start and the 429 cooldown, as wall-clock milliseconds since the
//! Unix epoch (processes cannot compare `Instant`s). A caller books a slot
//! under the lock and sleeps outside it. A corrupt or foreign file is
//! rebuilt; a directory that cannot be written turns the budget off for the
//! process (one note on stderr), which then paces itself alone.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::policy::Backoff;

/// The state file's name inside the budget directory.
pub const FILE_NAME: &str = "pubmed-request-budget.json";
/// The `format` field of the state file; any other file is rebuilt.
const FORMAT: &str = "pubmed-request-budget/1";
/// A larger file is not ours: it is rebuilt.
const MAX_FILE: u64 = 64 * 1024;
/// A lane with nothing booked or cooling down for this long is dropped.
const IDLE_MS: u64 = 10 * 60 * 1000;
/// A time "set" later than now plus this means the wall clock went back
/// (or the file is foreign): that lane's state is dropped.
const SLACK_MS: u64 = 2_000;
/// A booking further ahead than this is not believed.
const MAX_AHEAD_MS: u64 = 10 * 60 * 1000;
/// A cooldown longer than this is not believed.
const MAX_COOLDOWN_MS: u64 = 24 * 60 * 60 * 1000;
/// The longest wait for the lock before one request is paced alone.
const LOCK_WAIT: Duration = Duration::from_secs(1);

/// The budget lane of E-utilities requests: keyless, or per API key
/// (identified by a SHA-256 prefix, never the key itself).
pub fn eutils_lane(api_key: Option<&str>) -> String {
    use sha2::Digest;
    match api_key {
        None => "eutils".into(),
        Some(key) => {
            let digest = sha2::Sha256::digest(format!("pubmed-request-budget\0{key}"));
            let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
            format!("eutils-key-{hex}")
        }
    }
}

/// The budget lane of the PMC ID Converter (never sent the key).
pub const IDCONV_LANE: &str = "idconv";

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// One lane's shared state. Times are milliseconds since the Unix epoch;
/// 0 means none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneState {
    /// The latest booked request start.
    #[serde(default)]
    pub last_start: u64,
    /// When that start was booked.
    #[serde(default)]
    pub booked_at: u64,
    /// No request starts before this (HTTP 429 cooldown).
    #[serde(default)]
    pub cooldown_until: u64,
    /// When the cooldown was set: a 429 for a request started before it
    /// belongs to the same burst and does not lengthen the cooldown.
    #[serde(default)]
    pub cooldown_set_at: u64,
    /// Consecutive 429 bursts; reset by a success.
    #[serde(default)]
    pub streak: u32,
}

/// Why no slot could be booked before the caller's deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Late {
    /// Other requests have booked the lane past the deadline; the first
    /// free slot is at this time (ms).
    Busy(u64),
    /// A 429 cooldown (from any process) lasts past the deadline, until
    /// this time (ms).
    Cooldown(u64),
}

/// A booked start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Booking {
    /// When the request may start (ms).
    pub at: u64,
    /// The lane's latest start before this booking (ms; 0 = none), to
    /// give the booking back ([`SharedBudget::try_unbook`]).
    pub previous: u64,
    /// The lane's 429 streak when booked (a success must reset it).
    pub streak: u32,
}

impl LaneState {
    /// Drops times that cannot be right: set in the future (the wall clock
    /// went back), or booked implausibly far ahead.
    fn sanitize(&mut self, now: u64) {
        let future = now.saturating_add(SLACK_MS);
        if self.booked_at > future || self.last_start > now.saturating_add(MAX_AHEAD_MS) {
            self.last_start = 0;
            self.booked_at = 0;
        }
        if self.cooldown_set_at > future
            || self.cooldown_until > now.saturating_add(MAX_COOLDOWN_MS)
        {
            self.cooldown_until = 0;
            self.cooldown_set_at = 0;
            self.streak = 0;
        }
    }

    fn idle(&self, now: u64) -> bool {
        self.last_start
            .max(self.cooldown_until)
            .saturating_add(IDLE_MS)
            < now
            && self.streak == 0
    }

    /// Books the first start at or after `not_before` that keeps `gap_ms`
    /// after the latest booking and is outside the cooldown. Nothing is
    /// booked when that start is after `latest`.
    pub fn book(
        &mut self,
        now: u64,
        gap_ms: u64,
        not_before: u64,
        latest: u64,
    ) -> Result<Booking, Late> {
        let after_last = if self.last_start == 0 {
            0
        } else {
            self.last_start.saturating_add(gap_ms)
        };
        let at = now.max(not_before).max(after_last).max(self.cooldown_until);
        if at > latest {
            return Err(
                if self.cooldown_until >= after_last && self.cooldown_until > now {
                    Late::Cooldown(at)
                } else {
                    Late::Busy(at)
                },
            );
        }
        let previous = self.last_start;
        self.last_start = at;
        self.booked_at = now;
        Ok(Booking {
            at,
            previous,
            streak: self.streak,
        })
    }

    /// Records an HTTP 429 for a request started at `started`: the cooldown
    /// is `retry_after_ms` when NCBI sent one, else the backoff step of the
    /// streak (a new burst lengthens the streak; a 429 of a request started
    /// before the current cooldown was set does not). Returns the end of the
    /// cooldown.
    pub fn note_rate_limited(
        &mut self,
        now: u64,
        started: u64,
        retry_after_ms: Option<u64>,
        backoff: Backoff,
    ) -> u64 {
        let same_burst = self.cooldown_set_at != 0 && started < self.cooldown_set_at;
        if !same_burst {
            self.streak = self.streak.saturating_add(1);
        }
        let cooldown = retry_after_ms
            .unwrap_or_else(|| backoff.step(self.streak.saturating_sub(1)).as_millis() as u64)
            .min(MAX_COOLDOWN_MS);
        let until = now.saturating_add(cooldown);
        self.cooldown_until = self.cooldown_until.max(until);
        self.cooldown_set_at = now;
        self.cooldown_until
    }
}

/// The state file's content.
#[derive(Debug, Serialize, Deserialize)]
struct FileState {
    format: String,
    lanes: BTreeMap<String, LaneState>,
}

impl FileState {
    fn empty() -> FileState {
        FileState {
            format: FORMAT.into(),
            lanes: BTreeMap::new(),
        }
    }

    /// Our file, or an empty state for a corrupt, foreign or empty one.
    fn parse(bytes: &[u8]) -> FileState {
        match serde_json::from_slice::<FileState>(bytes) {
            Ok(s) if s.format == FORMAT => s,
            _ => FileState::empty(),
        }
    }
}

/// The shared budget of one process: the state file and whether it is
/// usable. Every method is cheap when the lock is free (one open, one
/// read and at most one write of a file of a few hundred bytes).
#[derive(Debug)]
pub struct SharedBudget {
    dir: PathBuf,
    path: PathBuf,
    /// Set once the file proved unusable: the process paces alone.
    off: AtomicBool,
    /// The first use was reported (`-v`).
    announced: AtomicBool,
    notes: bool,
    verbose: bool,
}

impl SharedBudget {
    /// The budget kept in `dir` (created on first use, mode 0700). `notes`:
    /// say once on stderr when it cannot be used; `verbose`: also name the
    /// file on first use.
    pub fn new(dir: PathBuf, notes: bool, verbose: bool) -> SharedBudget {
        SharedBudget {
            path: dir.join(FILE_NAME),
            dir,
            off: AtomicBool::new(false),
            announced: AtomicBool::new(false),
            notes,
            verbose,
        }
    }

    /// The state file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// False once the file proved unusable.
    pub fn active(&self) -> bool {
        !self.off.load(Ordering::Relaxed)
    }

    /// Books a start in `lane` (see [`LaneState::book`]); `None` when the
    /// budget cannot be used (the caller paces alone).
    pub async fn book(
        &self,
        lane: &str,
        gap: Duration,
        not_before: u64,
        latest: u64,
    ) -> Option<Result<Booking, Late>> {
        let gap_ms = gap.as_millis().min(u64::MAX as u128) as u64;
        self.with_lane(lane, |s, now| {
            let r = s.book(now, gap_ms, not_before, latest);
            (r, r.is_ok())
        })
        .await
    }

    /// Gives back booking `b` of `lane` whose request never started (its
    /// call was cancelled, or its deadline passed, while it waited): the
    /// lane's latest start goes back to what it was, unless someone booked
    /// after it. Best effort and without waiting (it runs when a waiting
    /// future is dropped): a taken lock leaves the booking in place.
    pub fn try_unbook(&self, lane: &str, b: Booking) {
        if !self.active() {
            return;
        }
        if let Ok(Some(mut file)) = self.open_locked() {
            let _ = Self::update(&mut file, lane, |s, _| {
                let mine = s.last_start == b.at;
                if mine {
                    s.last_start = b.previous;
                }
                ((), mine)
            });
        }
    }

    /// The first start (ms) a request of `lane` could book now, keeping
    /// `gap` after the latest booking of any process and outside the 429
    /// cooldown; nothing is booked. Batch work asks this before it seals a
    /// partial chunk, so the chunk keeps collecting IDs while other
    /// processes hold the lane (docs/convert.md "Chunks"). Advice, without
    /// waiting: `None` when the budget cannot be used or its lock is taken
    /// (the booking that follows waits for the lock as every request does).
    pub fn free_at(&self, lane: &str, gap: Duration) -> Option<u64> {
        if !self.active() {
            return None;
        }
        let gap_ms = gap.as_millis().min(u64::MAX as u128) as u64;
        let mut file = self.open_locked().ok()??;
        Self::update(&mut file, lane, |s, now| {
            let after_last = if s.last_start == 0 {
                0
            } else {
                s.last_start.saturating_add(gap_ms)
            };
            (now.max(after_last).max(s.cooldown_until), false)
        })
        .ok()
    }

    /// The lane's cooldown end (ms) if one lasts past now.
    pub async fn cooldown(&self, lane: &str) -> Option<u64> {
        self.with_lane(lane, |s, now| {
            ((s.cooldown_until > now).then_some(s.cooldown_until), false)
        })
        .await
        .flatten()
    }

    /// Records an HTTP 429 (see [`LaneState::note_rate_limited`]); returns
    /// the end of the shared cooldown, or `None` when the budget cannot be
    /// used.
    pub async fn note_rate_limited(
        &self,
        lane: &str,
        started: u64,
        retry_after: Option<Duration>,
        backoff: Backoff,
    ) -> Option<u64> {
        let ra = retry_after.map(|d| d.as_millis().min(u64::MAX as u128) as u64);
        self.with_lane(lane, |s, now| {
            (s.note_rate_limited(now, started, ra, backoff), true)
        })
        .await
    }

    /// Records a success: the lane's 429 streak resets.
    pub async fn note_success(&self, lane: &str) {
        self.with_lane(lane, |s, _| {
            let changed = s.streak != 0;
            s.streak = 0;
            ((), changed)
        })
        .await;
    }

    /// Runs `f(state, now)` on `lane` under the lock; `f` says whether it
    /// changed the state, which is then written back. `None` when the file
    /// cannot be used (or its lock stays taken for [`LOCK_WAIT`]).
    async fn with_lane<T>(
        &self,
        lane: &str,
        f: impl FnOnce(&mut LaneState, u64) -> (T, bool),
    ) -> Option<T> {
        if !self.active() {
            return None;
        }
        let waited_from = std::time::Instant::now();
        let mut file = loop {
            match self.open_locked() {
                Ok(Some(file)) => break file,
                Ok(None) if waited_from.elapsed() < LOCK_WAIT => {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                Ok(None) => {
                    if self.verbose {
                        crate::diag!(
                            "pubmed: the shared request budget {} stayed locked for {} s; pacing this request alone",
                            self.path.display(),
                            LOCK_WAIT.as_secs()
                        );
                    }
                    return None;
                }
                Err(e) => {
                    self.turn_off(&e);
                    return None;
                }
            }
        };
        match Self::update(&mut file, lane, f) {
            Ok(v) => {
                if self.verbose && !self.announced.swap(true, Ordering::Relaxed) {
                    crate::diag!(
                        "pubmed: shared request budget: {} (lane {lane})",
                        self.path.display()
                    );
                }
                Some(v)
            }
            Err(e) => {
                self.turn_off(&e);
                None
            }
        }
    }

    /// Reads the state, applies `f` to the lane and writes the state back
    /// when `f` changed it. The caller holds the lock.
    fn update<T>(
        file: &mut File,
        lane: &str,
        f: impl FnOnce(&mut LaneState, u64) -> (T, bool),
    ) -> std::io::Result<T> {
        let mut bytes = Vec::new();
        Read::by_ref(file)
            .take(MAX_FILE + 1)
            .read_to_end(&mut bytes)?;
        let mut state = if bytes.len() as u64 > MAX_FILE {
            FileState::empty()
        } else {
            FileState::parse(&bytes)
        };
        let now = now_ms();
        let stored = state.lanes.get(lane).copied();
        let mut lane_state = stored.unwrap_or_default();
        lane_state.sanitize(now);
        let (value, changed) = f(&mut lane_state, now);
        if changed || stored.is_some_and(|s| s != lane_state) {
            state.lanes.insert(lane.to_string(), lane_state);
            state.lanes.retain(|name, s| name == lane || !s.idle(now));
            let out = serde_json::to_vec(&state).map_err(std::io::Error::other)?;
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&out)?;
            file.set_len(out.len() as u64)?;
        }
        Ok(value)
    }

    /// Opens the state file (creating the directory and the file) and
    /// takes its lock; `Ok(None)` when another process holds it.
    fn open_locked(&self) -> std::io::Result<Option<File>> {
        let file = match self.open() {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut dir = std::fs::DirBuilder::new();
                dir.recursive(true);
                #[cfg(unix)]
                std::os::unix::fs::DirBuilderExt::mode(&mut dir, 0o700);
                dir.create(&self.dir)?;
                self.open()?
            }
            Err(e) => return Err(e),
        };
        self.check_private(&file)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }

    /// Only this user's state is believed: the directory and the opened
    /// file must be owned by this user and writable by no one else
    /// ([`crate::core::trust::judge_private`]); another user's file (say, with a 23-hour
    /// cooldown) would otherwise stall every call. Err: the budget is
    /// turned off for the process.
    #[cfg(unix)]
    fn check_private(&self, file: &File) -> std::io::Result<()> {
        use crate::core::trust;
        let me = trust::me();
        let dir = trust::Facts::of(&std::fs::metadata(&self.dir)?);
        if let Some(why) = trust::judge_private(dir, me) {
            return Err(std::io::Error::other(format!("the directory is {why}")));
        }
        let f = trust::Facts::of(&file.metadata()?);
        if let Some(why) = trust::judge_private(f, me) {
            return Err(std::io::Error::other(format!(
                "{} is {why}",
                self.path.display()
            )));
        }
        Ok(())
    }

    #[cfg(not(unix))]
    fn check_private(&self, _file: &File) -> std::io::Result<()> {
        Ok(())
    }

    fn open(&self) -> std::io::Result<File> {
        // A symlink or directory in the file's place is foreign: a symlink
        // is removed (never followed and overwritten), anything else fails.
        if let Ok(meta) = std::fs::symlink_metadata(&self.path)
            && !meta.is_file()
        {
            if meta.file_type().is_symlink() {
                std::fs::remove_file(&self.path)?;
            } else {
                return Err(std::io::Error::other(format!(
                    "{} is not a regular file",
                    self.path.display()
                )));
            }
        }
        let mut opts = OpenOptions::new();
        opts.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        opts.open(&self.path)
    }

    fn turn_off(&self, e: &std::io::Error) {
        if !self.off.swap(true, Ordering::Relaxed) && (self.notes || self.verbose) {
            crate::diag!(
                "pubmed: note: cannot use the shared request budget in {} ({e}); this process paces its own requests, so several pubmed at once may exceed NCBI's rate limit",
                self.dir.display()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAP: u64 = 400;
    const FAR: u64 = u64::MAX;

    fn backoff() -> Backoff {
        Backoff {
            base: Duration::from_secs(1),
            cap: Duration::from_secs(15),
        }
    }

    #[test]
    fn bookings_keep_the_gap_from_the_latest_one() {
        let mut s = LaneState::default();
        let t0 = 1_000_000;
        let at: Vec<u64> = (0..4)
            .map(|_| s.book(t0, GAP, 0, FAR).unwrap().at - t0)
            .collect();
        assert_eq!(at, [0, 400, 800, 1200]);
        // Later, after the lane went quiet: at once.
        assert_eq!(s.book(t0 + 5000, GAP, 0, FAR).unwrap().at, t0 + 5000);
        // `not_before` (the process's own pacing) is honoured.
        assert_eq!(
            s.book(t0 + 5000, GAP, t0 + 6000, FAR).unwrap().at,
            t0 + 6000
        );
    }

    #[test]
    fn a_slot_past_the_deadline_is_not_booked() {
        let mut s = LaneState::default();
        let t0 = 1_000_000;
        s.book(t0, GAP, 0, FAR).unwrap();
        s.book(t0, GAP, 0, FAR).unwrap();
        assert_eq!(s.book(t0, GAP, 0, t0 + 700), Err(Late::Busy(t0 + 800)));
        assert_eq!(s.last_start, t0 + 400, "nothing booked");
        s.note_rate_limited(t0, t0, None, backoff());
        assert_eq!(s.book(t0, GAP, 0, t0 + 900), Err(Late::Cooldown(t0 + 1000)));
    }

    #[test]
    fn cooldown_doubles_per_burst_and_a_burst_counts_once() {
        let mut s = LaneState::default();
        let mut now = 1_000_000;
        let mut cooldowns = Vec::new();
        for _ in 0..6 {
            let until = s.note_rate_limited(now, now, None, backoff());
            cooldowns.push(until - now);
            now = until;
        }
        assert_eq!(cooldowns, [1000, 2000, 4000, 8000, 15000, 15000]);
        // A 429 of a request started before the cooldown was set: same burst.
        let (streak, set_at) = (s.streak, s.cooldown_set_at);
        s.note_rate_limited(now + 10, set_at - 1, None, backoff());
        assert_eq!(s.streak, streak);
        s.note_rate_limited(now + 20, now + 15, None, backoff());
        assert_eq!(s.streak, streak + 1);
        // Retry-After replaces the doubling.
        let mut s = LaneState::default();
        assert_eq!(s.note_rate_limited(5000, 5000, Some(3000), backoff()), 8000);
        assert_eq!(s.book(5000, GAP, 0, FAR).unwrap().at, 8000);
    }

    #[test]
    fn times_from_a_clock_that_went_back_are_dropped() {
        let now = 1_000_000_000;
        let mut s = LaneState {
            last_start: now + 3_600_000,
            booked_at: now + 3_600_000,
            cooldown_until: now + 3_600_000,
            cooldown_set_at: now + 3_599_000,
            streak: 3,
        };
        s.sanitize(now);
        assert_eq!(s, LaneState::default());
        assert_eq!(s.book(now, GAP, 0, FAR).unwrap().at, now);
    }

    #[test]
    fn key_lanes_are_hashed_and_distinct() {
        let a = eutils_lane(Some("abcdef0123456789abcdef0123456789ab"));
        let b = eutils_lane(Some("abcdef0123456789abcdef0123456789ac"));
        assert!(a.starts_with("eutils-key-") && a.len() == "eutils-key-".len() + 16);
        assert_ne!(a, b);
        assert!(!a.contains("abcdef0123"));
        assert_eq!(eutils_lane(None), "eutils");
    }

    #[tokio::test]
    async fn an_unused_booking_given_back_costs_the_next_caller_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let a = SharedBudget::new(dir.path().join("pubmed"), false, false);
        let b = SharedBudget::new(dir.path().join("pubmed"), false, false);
        let gap = Duration::from_millis(400);
        let first = a.book("eutils", gap, 0, FAR).await.unwrap().unwrap();
        let cancelled = a.book("eutils", gap, 0, FAR).await.unwrap().unwrap();
        assert_eq!(cancelled.previous, first.at);
        a.try_unbook("eutils", cancelled);
        // the next booking (any process) takes the slot given back
        let next = b.book("eutils", gap, 0, FAR).await.unwrap().unwrap();
        assert_eq!(next.at, cancelled.at);
        // a booking someone else booked after is kept
        let later = b.book("eutils", gap, 0, FAR).await.unwrap().unwrap();
        a.try_unbook("eutils", next);
        let after = b.book("eutils", gap, 0, FAR).await.unwrap().unwrap();
        assert_eq!(after.at - later.at, 400);
    }

    #[tokio::test]
    async fn two_budgets_on_one_file_share_the_lane() {
        let dir = tempfile::tempdir().unwrap();
        let a = SharedBudget::new(dir.path().join("pubmed"), false, false);
        let b = SharedBudget::new(dir.path().join("pubmed"), false, false);
        let gap = Duration::from_millis(400);
        let first = a.book("eutils", gap, 0, FAR).await.unwrap().unwrap();
        let second = b.book("eutils", gap, 0, FAR).await.unwrap().unwrap();
        assert_eq!(second.at - first.at, 400);
        // Another lane is independent.
        let other = b.book(IDCONV_LANE, gap, 0, FAR).await.unwrap().unwrap();
        assert!(other.at < second.at);
        // A 429 seen by one is the other's cooldown.
        let until = a
            .note_rate_limited("eutils", now_ms(), None, backoff())
            .await
            .unwrap();
        assert_eq!(b.cooldown("eutils").await, Some(until));
        assert_eq!(
            b.book("eutils", gap, 0, FAR).await.unwrap().unwrap().streak,
            1
        );
        a.note_success("eutils").await;
        assert_eq!(
            b.book("eutils", gap, 0, FAR).await.unwrap().unwrap().streak,
            0
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(a.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[tokio::test]
    async fn a_corrupt_or_foreign_file_is_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let budget = SharedBudget::new(dir.path().to_path_buf(), false, false);
        for junk in [
            &b"\0\xff garbage"[..],
            br#"{"format":"someone-else/3","lanes":{}}"#,
            br#"{"format":"pubmed-request-budget/1","lanes":{"eutils":{"last_start":"x"}}}"#,
            b"",
        ] {
            std::fs::write(budget.path(), junk).unwrap();
            let t = now_ms();
            let b = budget
                .book("eutils", Duration::from_millis(400), 0, FAR)
                .await
                .unwrap()
                .unwrap();
            assert!(b.at >= t && b.at < t + 100, "booked at once");
            let text = std::fs::read_to_string(budget.path()).unwrap();
            assert!(
                text.starts_with(r#"{"format":"pubmed-request-budget/1""#),
                "{text}"
            );
            assert!(budget.active());
            std::fs::remove_file(budget.path()).unwrap();
        }
    }

    #[tokio::test]
    async fn a_lock_held_elsewhere_is_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let budget = SharedBudget::new(dir.path().to_path_buf(), false, false);
        budget
            .book("eutils", Duration::ZERO, 0, FAR)
            .await
            .unwrap()
            .unwrap();
        let holder = File::options().write(true).open(budget.path()).unwrap();
        holder.lock().unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(holder); // as when a process dies: the OS drops its lock
        });
        let t0 = std::time::Instant::now();
        assert!(
            budget
                .book("eutils", Duration::ZERO, 0, FAR)
                .await
                .is_some()
        );
        assert!(t0.elapsed() >= Duration::from_millis(40));
        release.join().unwrap();
    }

    /// The next free slot of a lane another budget (process) booked: one
    /// gap after its latest start, or the cooldown's end; nothing booked,
    /// and a taken lock answers `None` at once instead of waiting.
    #[tokio::test]
    async fn free_at_sees_other_processes_bookings_without_booking() {
        let dir = tempfile::tempdir().unwrap();
        let mine = SharedBudget::new(dir.path().to_path_buf(), false, false);
        let other = SharedBudget::new(dir.path().to_path_buf(), false, false);
        let gap = Duration::from_millis(GAP);
        let now = now_ms();
        assert!(mine.free_at(IDCONV_LANE, gap).unwrap() < now + 50);
        let b = other
            .book(IDCONV_LANE, gap, now + 1_000, FAR)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(mine.free_at(IDCONV_LANE, gap), Some(b.at + GAP));
        assert_eq!(
            mine.free_at(IDCONV_LANE, gap),
            Some(b.at + GAP),
            "not booked"
        );
        let until = other
            .note_rate_limited(IDCONV_LANE, b.at, Some(Duration::from_secs(5)), backoff())
            .await
            .unwrap();
        assert_eq!(mine.free_at(IDCONV_LANE, gap), Some(until));
        let holder = File::options().write(true).open(mine.path()).unwrap();
        holder.lock().unwrap();
        let t0 = std::time::Instant::now();
        assert_eq!(mine.free_at(IDCONV_LANE, gap), None);
        assert!(t0.elapsed() < Duration::from_millis(100));
    }

    #[tokio::test]
    async fn an_unusable_directory_turns_the_budget_off() {
        // A path under a regular file cannot be created, even by root.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let budget = SharedBudget::new(file.join("pubmed"), false, false);
        assert_eq!(budget.book("eutils", Duration::ZERO, 0, FAR).await, None);
        assert!(!budget.active());
        assert_eq!(budget.cooldown("eutils").await, None);
    }

    /// Issue 25 item 15: another user's budget file with a 23-hour
    /// cooldown made every call fail (exit 75). Needs root to chown
    /// (skipped otherwise).
    #[cfg(unix)]
    #[tokio::test]
    async fn another_users_budget_or_an_open_directory_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        if crate::core::trust::me() != 0 {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let budget = SharedBudget::new(dir.path().to_path_buf(), false, false);
        let until = now_ms() + 23 * 60 * 60 * 1000;
        std::fs::write(
            budget.path(),
            format!(
                r#"{{"format":"pubmed-request-budget/1","lanes":{{"eutils":{{"last_start":0,"cooldown_until":{until},"streak":9}}}}}}"#
            ),
        )
        .unwrap();
        // this user's own file: its cooldown holds
        assert_eq!(budget.cooldown("eutils").await, Some(until));
        std::os::unix::fs::chown(budget.path(), Some(4242), Some(4242)).unwrap();
        let budget = SharedBudget::new(dir.path().to_path_buf(), false, false);
        assert_eq!(budget.cooldown("eutils").await, None);
        assert!(!budget.active(), "paced alone");
        assert_eq!(budget.book("eutils", Duration::ZERO, 0, FAR).await, None);
        std::fs::remove_file(budget.path()).unwrap();
        // a directory others can write (anyone could plant the file)
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
        let budget = SharedBudget::new(dir.path().to_path_buf(), false, false);
        assert_eq!(budget.book("eutils", Duration::ZERO, 0, FAR).await, None);
        assert!(!budget.active());
        // another user's directory
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        std::os::unix::fs::chown(dir.path(), Some(4242), None).unwrap();
        let budget = SharedBudget::new(dir.path().to_path_buf(), false, false);
        assert_eq!(budget.book("eutils", Duration::ZERO, 0, FAR).await, None);
        assert!(!budget.active());
        std::os::unix::fs::chown(dir.path(), Some(0), None).unwrap();
        let budget = SharedBudget::new(dir.path().to_path_buf(), false, false);
        assert!(
            budget
                .book("eutils", Duration::ZERO, 0, FAR)
                .await
                .is_some()
        );
        assert!(budget.active());
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_symlink_in_the_files_place_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("precious.txt");
        std::fs::write(&target, "keep me").unwrap();
        let budget = SharedBudget::new(dir.path().join("b"), false, false);
        std::fs::create_dir(dir.path().join("b")).unwrap();
        std::os::unix::fs::symlink(&target, budget.path()).unwrap();
        assert!(
            budget
                .book("eutils", Duration::ZERO, 0, FAR)
                .await
                .is_some()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        assert!(std::fs::symlink_metadata(budget.path()).unwrap().is_file());
    }
}
