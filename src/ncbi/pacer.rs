//! One pacer per process (docs/client.md "Pacing"): a minimum gap between
//! request starts per lane, a cap on requests in flight, a bounded wait
//! queue, and a cooldown gate after HTTP 429. Built on tokio time and
//! synchronisation, so paused test time drives it. With a
//! [`SharedBudget`], every start is also booked in the budget every
//! `pubmed` process of the user shares, and a 429 cools down all of them.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::budget::{self, Late, SharedBudget};
use super::policy::Backoff;
use crate::error::{Error, Reason};

/// Which service a request goes to. NCBI counts requests per API key, or
/// per address without one; the ID Converter never receives the key, so its
/// requests are always paced as keyless. Each lane has its own gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// E-utilities (with the API key when configured).
    Eutils,
    /// The PMC ID Converter (never with the key).
    Idconv,
}

impl Lane {
    fn index(self) -> usize {
        match self {
            Lane::Eutils => 0,
            Lane::Idconv => 1,
        }
    }
}

/// Pacing numbers (from [`super::Policy`]).
#[derive(Debug, Clone, Copy)]
pub struct PacerConfig {
    /// Minimum gap between two E-utilities starts.
    pub gap: Duration,
    /// Minimum gap between two ID Converter starts (the keyless gap).
    pub idconv_gap: Duration,
    /// Requests in flight at once.
    pub max_in_flight: usize,
    /// Calls allowed to wait before `queue_full`.
    pub max_waiting: usize,
    /// First 429 cooldown; doubled per consecutive 429.
    pub cooldown_base: Duration,
    /// Longest 429 cooldown.
    pub cooldown_cap: Duration,
}

impl PacerConfig {
    fn gap_of(&self, lane: Lane) -> Duration {
        match lane {
            Lane::Eutils => self.gap,
            Lane::Idconv => self.idconv_gap,
        }
    }

    fn backoff(&self) -> Backoff {
        Backoff {
            base: self.cooldown_base,
            cap: self.cooldown_cap,
        }
    }
}

/// One lane's pacing state in this process.
#[derive(Debug, Default, Clone, Copy)]
struct LaneState {
    last_start: Option<Instant>,
    cooldown_until: Option<Instant>,
    /// When the current cooldown was set: a 429 for a request started before
    /// it belongs to the same burst and does not lengthen the cooldown.
    cooldown_set_at: Option<Instant>,
    streak: u32,
    /// The shared budget's streak was non-zero when last seen, so a success
    /// must reset it there.
    shared_streak: bool,
}

/// The shared budget and this process's lane names in it.
#[derive(Debug)]
struct Shared {
    budget: Arc<SharedBudget>,
    eutils_lane: String,
}

impl Shared {
    fn lane(&self, lane: Lane) -> &str {
        match lane {
            Lane::Eutils => &self.eutils_lane,
            Lane::Idconv => budget::IDCONV_LANE,
        }
    }
}

/// Grants request starts. Shared by every request of the process.
#[derive(Debug)]
pub struct Pacer {
    cfg: PacerConfig,
    in_flight: Arc<Semaphore>,
    turn: tokio::sync::Mutex<()>,
    state: Mutex<[LaneState; 2]>,
    waiting: AtomicUsize,
    shared: Option<Shared>,
}

/// Held while a request is in flight; dropping it frees the slot.
#[derive(Debug)]
pub struct Permit {
    _slot: OwnedSemaphorePermit,
    /// When the request was allowed to start.
    pub started: Instant,
}

/// A shared-budget booking not yet used: given back if dropped armed (the
/// waiting call was cancelled), so a cancelled call costs the other
/// callers nothing (docs/mcp.md "Transport").
struct Unused<'a> {
    shared: &'a Shared,
    lane: Lane,
    booking: Option<budget::Booking>,
}

impl Drop for Unused<'_> {
    fn drop(&mut self) {
        if let Some(b) = self.booking.take() {
            self.shared
                .budget
                .try_unbook(self.shared.lane(self.lane), b);
        }
    }
}

struct WaitingGuard<'a>(&'a AtomicUsize);

impl Drop for WaitingGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How late after its booked slot a start may still go: a quarter of the
/// lane's gap (100 ms keyless). Later than that it is booked again. Below
/// it the order of starts holds and any 4 consecutive keyless starts still
/// span more than 1 s (3 gaps of 400 ms, less one lateness), so NCBI's
/// 3-per-second count is kept; rebooking every few milliseconds of delay
/// would waste the slots of a loaded machine instead.
pub fn late_slack(gap: Duration) -> Duration {
    (gap / 4).max(Duration::from_millis(5))
}

/// Late starts booked again per request at most.
const MAX_REBOOKS: u32 = 3;

fn ceil_secs(d: Duration) -> u64 {
    (d.as_millis().div_ceil(1000) as u64).max(1)
}

/// `at` on the wall clock (ms since the Unix epoch).
fn wall_ms(at: Instant) -> u64 {
    let (now, wall) = (Instant::now(), budget::now_ms());
    if at >= now {
        let ahead = (at - now).as_nanos().div_ceil(1_000_000);
        wall.saturating_add(ahead.min(u64::MAX as u128) as u64)
    } else {
        wall.saturating_sub((now - at).as_millis() as u64)
    }
}

/// The tokio instant of a wall-clock time (ms since the Unix epoch).
fn instant_of(ms: u64) -> Instant {
    let (now, wall) = (Instant::now(), budget::now_ms());
    if ms >= wall {
        now.checked_add(Duration::from_millis(ms - wall))
            .unwrap_or(now + Duration::from_secs(86_400))
    } else {
        now.checked_sub(Duration::from_millis(wall - ms))
            .unwrap_or(now)
    }
}

impl Pacer {
    /// A pacer for this process alone.
    pub fn new(cfg: PacerConfig) -> Self {
        Pacer {
            cfg,
            in_flight: Arc::new(Semaphore::new(cfg.max_in_flight.max(1))),
            turn: tokio::sync::Mutex::new(()),
            state: Mutex::new([LaneState::default(); 2]),
            waiting: AtomicUsize::new(0),
            shared: None,
        }
    }

    /// A pacer that also books every start in `budget`; `eutils_lane` is
    /// the E-utilities lane name ([`budget::eutils_lane`]).
    pub fn with_budget(cfg: PacerConfig, budget: Arc<SharedBudget>, eutils_lane: String) -> Self {
        Pacer {
            shared: Some(Shared {
                budget,
                eutils_lane,
            }),
            ..Pacer::new(cfg)
        }
    }

    fn shared(&self) -> Option<&Shared> {
        self.shared.as_ref().filter(|s| s.budget.active())
    }

    fn state(&self) -> std::sync::MutexGuard<'_, [LaneState; 2]> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The earliest start this process's own pacing allows now, ignoring
    /// the queue.
    fn next_free(&self, now: Instant, lane: Lane) -> Instant {
        let s = self.state()[lane.index()];
        let mut t = now;
        if let Some(last) = s.last_start {
            t = t.max(last + self.cfg.gap_of(lane));
        }
        if let Some(c) = s.cooldown_until {
            t = t.max(c);
        }
        t
    }

    fn cooling_down(&self, lane: Lane, now: Instant) -> bool {
        self.state()[lane.index()]
            .cooldown_until
            .is_some_and(|c| c > now)
    }

    /// Waits for a start slot (docs/client.md "Pacing"). Errors, decided at
    /// once unless said otherwise:
    /// - `queue_full` (with `retryAfter`) when `max_waiting` calls already
    ///   wait, when the calls waiting ahead push the estimated start (the
    ///   next free slot plus one gap per call ahead) past `deadline` although
    ///   the call alone could start before it, or when other processes have
    ///   booked the shared budget past it;
    /// - `ncbi_rate_limited` (with `retryAfter`) when a 429 cooldown of any
    ///   process outlasts the deadline;
    /// - `ncbi_deadline_exceeded` when the call could not start before its
    ///   deadline even with no call ahead of it (the deadline is over, or
    ///   shorter than what is left of the lane's gap), or when the deadline
    ///   passes while it waits.
    pub async fn acquire(&self, deadline: Instant, lane: Lane) -> Result<Permit, Error> {
        let ahead = self.waiting.fetch_add(1, Ordering::SeqCst);
        let _guard = WaitingGuard(&self.waiting);
        let now = Instant::now();
        let step = self.cfg.gap_of(lane);
        let own = self.next_free(now, lane);
        let estimate = own + step * ahead as u32;
        if ahead >= self.cfg.max_waiting {
            return Err(Error::new(
                Reason::QueueFull,
                format!("{ahead} requests are already waiting for NCBI"),
            )
            .with_retry_after(ceil_secs(estimate - now)));
        }
        if own >= deadline {
            // Nothing ahead is to blame: this call's own deadline is too short.
            return Err(self.own_start_too_late(lane, now, deadline));
        }
        if estimate > deadline {
            return Err(Error::new(
                Reason::QueueFull,
                format!(
                    "the request could not start within its deadline ({} requests waiting)",
                    ahead
                ),
            )
            .with_retry_after(ceil_secs(estimate - now)));
        }
        let wait = self.wait_for_slot(lane, deadline);
        tokio::time::timeout_at(deadline, wait).await.map_err(|_| {
            Error::new(
                Reason::NcbiDeadlineExceeded,
                "the deadline passed while the request waited for its turn",
            )
        })?
    }

    /// The booking loop of [`Pacer::acquire`]: this process's turn, a slot
    /// in flight, then the start this process's pacing allows, booked in
    /// the shared budget when there is one, waited for, and booked again
    /// when a 429 cooldown (here or in another process) arrived meanwhile.
    ///
    /// Errors: as [`Pacer::acquire`] says of the shared budget (the caller
    /// bounds the whole wait by `deadline`).
    async fn wait_for_slot(&self, lane: Lane, deadline: Instant) -> Result<Permit, Error> {
        let step = self.cfg.gap_of(lane);
        let _turn = self.turn.lock().await;
        let slot = self
            .in_flight
            .clone()
            .acquire_owned()
            .await
            .expect("the pacer never closes its semaphore");
        let mut rebooks = 0;
        loop {
            let now = Instant::now();
            let local = self.next_free(now, lane);
            let booked = match self.shared() {
                Some(sh) => {
                    sh.budget
                        .book(sh.lane(lane), step, wall_ms(local), wall_ms(deadline))
                        .await
                }
                None => None,
            };
            let at = match booked {
                Some(Ok(b)) => {
                    self.state()[lane.index()].shared_streak |= b.streak > 0;
                    instant_of(b.at).max(now)
                }
                Some(Err(_)) if local > deadline || Instant::now() >= deadline => {
                    return Err(self.own_start_too_late(lane, Instant::now(), deadline));
                }
                Some(Err(late)) => return Err(late_error(late)),
                None => local,
            };
            let mut unused = match (self.shared(), booked) {
                (Some(shared), Some(Ok(b))) => Some(Unused {
                    shared,
                    lane,
                    booking: Some(b),
                }),
                _ => None,
            };
            if at > now {
                tokio::time::sleep_until(at).await;
            }
            // Paced at the send, not at the booking: a start later than its
            // booked slot (a busy machine woke this task late, or the
            // budget's lock was slow) would fall into the next process's
            // slot, so the booking is given back and the start booked again
            // from now (docs/client.md "Shared budget").
            // At most MAX_REBOOKS times: a machine too busy for any slot
            // still sends.
            if unused.is_some()
                && rebooks < MAX_REBOOKS
                && Instant::now().saturating_duration_since(at) > late_slack(step)
            {
                rebooks += 1;
                drop(unused);
                continue;
            }
            if let Some(u) = unused.as_mut() {
                u.booking = None;
            }
            if at > now {
                // A 429 may have arrived meanwhile, here or in another
                // process: then book again after its cooldown.
                if booked.is_some()
                    && let Some(sh) = self.shared()
                    && let Some(until) = sh.budget.cooldown(sh.lane(lane)).await
                {
                    let mut s = self.state();
                    let c = &mut s[lane.index()].cooldown_until;
                    *c = Some(c.map_or(instant_of(until), |c| c.max(instant_of(until))));
                    continue;
                }
                if booked.is_none() || self.cooling_down(lane, Instant::now()) {
                    continue;
                }
            }
            let now = Instant::now();
            self.state()[lane.index()].last_start = Some(now);
            return Ok(Permit {
                _slot: slot,
                started: now,
            });
        }
    }

    /// The error of a call that could not start before `deadline` even
    /// with no call ahead of it: `ncbi_rate_limited` when this process's 429
    /// cooldown outlasts the deadline, else `ncbi_deadline_exceeded` (the
    /// deadline is over, or ends within the lane's gap).
    fn own_start_too_late(&self, lane: Lane, now: Instant, deadline: Instant) -> Error {
        let cooldown = self.state()[lane.index()].cooldown_until;
        match cooldown {
            Some(until) if until > deadline => Error::new(
                Reason::NcbiRateLimited,
                "NCBI answered HTTP 429 (rate limited), and the cooldown outlasts this call's deadline",
            )
            .with_retry_after(ceil_secs(until.saturating_duration_since(now))),
            _ if deadline <= now => Error::new(
                Reason::NcbiDeadlineExceeded,
                "the deadline passed before the request could start",
            ),
            _ => Error::new(
                Reason::NcbiDeadlineExceeded,
                format!(
                    "the deadline ends before the request's earliest start ({} ms between requests)",
                    self.cfg.gap_of(lane).as_millis()
                ),
            ),
        }
    }

    /// Records an HTTP 429 in `lane` for a request started at `started`:
    /// holds every start of the lane (in every process sharing the budget)
    /// for `retry_after`, or for the cooldown base doubled per consecutive
    /// 429 up to the cap. Returns when starts resume.
    pub async fn note_rate_limited(
        &self,
        lane: Lane,
        started: Instant,
        retry_after: Option<Duration>,
    ) -> Instant {
        let backoff = self.cfg.backoff();
        let shared_until = match self.shared() {
            Some(sh) => {
                sh.budget
                    .note_rate_limited(sh.lane(lane), wall_ms(started), retry_after, backoff)
                    .await
            }
            None => None,
        };
        let now = Instant::now();
        let mut all = self.state();
        let s = &mut all[lane.index()];
        let same_burst = s.cooldown_set_at.is_some_and(|at| started < at);
        if !same_burst {
            s.streak += 1;
        }
        let cooldown = retry_after.unwrap_or(backoff.step(s.streak.saturating_sub(1)));
        let mut until = now
            .checked_add(cooldown)
            .unwrap_or(now + Duration::from_secs(86_400));
        if let Some(ms) = shared_until {
            until = until.max(instant_of(ms));
            s.shared_streak = true;
        }
        if s.cooldown_until.is_none_or(|c| c < until) {
            s.cooldown_until = Some(until);
        }
        s.cooldown_set_at = Some(now);
        s.cooldown_until.unwrap_or(until)
    }

    /// Records a successful answer in `lane`: the 429 streak resets (in the
    /// shared budget too, when it had one).
    pub async fn note_success(&self, lane: Lane) {
        let shared_streak = {
            let mut all = self.state();
            let s = &mut all[lane.index()];
            s.streak = 0;
            std::mem::take(&mut s.shared_streak)
        };
        if shared_streak && let Some(sh) = self.shared() {
            sh.budget.note_success(sh.lane(lane)).await;
        }
    }

    /// When a request of `lane` asking now could start, by this process's
    /// gaps and 429 cooldown (ignoring calls already waiting; other
    /// processes' bookings are [`Pacer::shared_free_at`]). Batch work that
    /// forms its chunk at the last moment waits for both
    /// (docs/convert.md "Chunks").
    pub fn free_at(&self, lane: Lane) -> Instant {
        self.next_free(Instant::now(), lane)
    }

    /// When a request of `lane` could start by the shared budget (other
    /// `pubmed` processes' bookings and cooldowns, and this one's), as of
    /// now; nothing is booked, nothing waits. `None` without a usable
    /// shared budget or while its lock is taken ([`SharedBudget::free_at`]).
    pub fn shared_free_at(&self, lane: Lane) -> Option<Instant> {
        let sh = self.shared()?;
        let at = sh.budget.free_at(sh.lane(lane), self.cfg.gap_of(lane))?;
        Some(instant_of(at))
    }

    /// When a request of `lane` asking now would start, by this process's
    /// pacing: the next free slot (one gap after `last_start` too, a start
    /// the caller made that may not have reached the pacer yet), plus one
    /// gap per call already waiting ahead of it; the estimate [`Pacer::acquire`]
    /// checks deadlines against. Other processes' bookings are
    /// [`Pacer::shared_free_at`]. The batch engine's paced sealing seals a
    /// chunk only once this is now (docs/convert.md "Chunks").
    pub fn estimated_start(&self, lane: Lane, last_start: Option<Instant>) -> Instant {
        let step = self.cfg.gap_of(lane);
        let mut own = self.next_free(Instant::now(), lane);
        if let Some(last) = last_start {
            own = own.max(last + step);
        }
        own + step * self.waiting() as u32
    }

    /// Calls waiting for a start right now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }
}

/// The error of a call whose slot in the shared budget would come after its
/// deadline.
fn late_error(late: Late) -> Error {
    let wait_from_now =
        |at: u64| ceil_secs(Duration::from_millis(at.saturating_sub(budget::now_ms())));
    match late {
        Late::Busy(at) => Error::new(
            Reason::QueueFull,
            "other pubmed processes have booked NCBI's request budget past this call's deadline",
        )
        .with_retry_after(wait_from_now(at)),
        Late::Cooldown(at) => Error::new(
            Reason::NcbiRateLimited,
            "NCBI answered HTTP 429 (rate limited) to this or another pubmed process, and the shared cooldown outlasts this call's deadline",
        )
        .with_retry_after(wait_from_now(at)),
    }
}
