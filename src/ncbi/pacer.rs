//! One pacer per process (client.md "Pacing"): a minimum gap between request
//! starts, a cap on requests in flight, a bounded wait queue, and a cooldown
//! gate after HTTP 429. Built on tokio time and synchronisation, so paused
//! test time drives it.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::error::{Error, Reason};

/// Which service a request goes to. NCBI counts requests per API key, or
/// per address without one; the ID Converter never receives the key, so its
/// requests are always paced as keyless.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// E-utilities (with the API key when configured).
    Eutils,
    /// The PMC ID Converter (never with the key).
    Idconv,
}

/// Pacing numbers (from [`super::Policy`]).
#[derive(Debug, Clone, Copy)]
pub struct PacerConfig {
    /// Minimum gap between any two starts (the E-utilities gap).
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

#[derive(Debug, Default)]
struct State {
    last_start: Option<Instant>,
    last_idconv_start: Option<Instant>,
    cooldown_until: Option<Instant>,
    /// When the current cooldown was set: a 429 for a request started before
    /// it belongs to the same burst and does not lengthen the cooldown.
    cooldown_set_at: Option<Instant>,
    streak: u32,
}

/// Grants request starts. Shared by every request of the process.
#[derive(Debug)]
pub struct Pacer {
    cfg: PacerConfig,
    in_flight: Arc<Semaphore>,
    turn: tokio::sync::Mutex<()>,
    state: Mutex<State>,
    waiting: AtomicUsize,
}

/// Held while a request is in flight; dropping it frees the slot.
#[derive(Debug)]
pub struct Permit {
    _slot: OwnedSemaphorePermit,
    /// When the request was allowed to start.
    pub started: Instant,
}

struct WaitingGuard<'a>(&'a AtomicUsize);

impl Drop for WaitingGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn ceil_secs(d: Duration) -> u64 {
    (d.as_millis().div_ceil(1000) as u64).max(1)
}

impl Pacer {
    /// A pacer with the given numbers.
    pub fn new(cfg: PacerConfig) -> Self {
        Pacer {
            cfg,
            in_flight: Arc::new(Semaphore::new(cfg.max_in_flight.max(1))),
            turn: tokio::sync::Mutex::new(()),
            state: Mutex::new(State::default()),
            waiting: AtomicUsize::new(0),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The earliest start a new request could get now, ignoring the queue.
    fn next_free(&self, now: Instant, lane: Lane) -> Instant {
        let s = self.state();
        let mut t = now;
        if let Some(last) = s.last_start {
            t = t.max(last + self.cfg.gap);
        }
        if lane == Lane::Idconv
            && let Some(last) = s.last_idconv_start
        {
            t = t.max(last + self.cfg.idconv_gap);
        }
        if let Some(c) = s.cooldown_until {
            t = t.max(c);
        }
        t
    }

    /// Waits for a start slot. Errors: `queue_full` (with `retryAfter`) when
    /// `max_waiting` calls already wait or the call could not start before
    /// `deadline`; `ncbi_deadline_exceeded` when the deadline passes while
    /// it waits.
    pub async fn acquire(&self, deadline: Instant, lane: Lane) -> Result<Permit, Error> {
        let ahead = self.waiting.fetch_add(1, Ordering::SeqCst);
        let _guard = WaitingGuard(&self.waiting);
        let now = Instant::now();
        let step = match lane {
            Lane::Eutils => self.cfg.gap,
            Lane::Idconv => self.cfg.gap.max(self.cfg.idconv_gap),
        };
        let estimate = self.next_free(now, lane) + step * ahead as u32;
        if ahead >= self.cfg.max_waiting {
            return Err(Error::new(
                Reason::QueueFull,
                format!("{ahead} requests are already waiting for NCBI"),
            )
            .with_retry_after(ceil_secs(estimate - now)));
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
        let wait = async {
            let _turn = self.turn.lock().await;
            let slot = self
                .in_flight
                .clone()
                .acquire_owned()
                .await
                .expect("the pacer never closes its semaphore");
            loop {
                let now = Instant::now();
                let at = self.next_free(now, lane);
                if at <= now {
                    let mut s = self.state();
                    s.last_start = Some(now);
                    if lane == Lane::Idconv {
                        s.last_idconv_start = Some(now);
                    }
                    return Permit {
                        _slot: slot,
                        started: now,
                    };
                }
                tokio::time::sleep_until(at).await;
            }
        };
        tokio::time::timeout_at(deadline, wait).await.map_err(|_| {
            Error::new(
                Reason::NcbiDeadlineExceeded,
                "the deadline passed while the request waited for its turn",
            )
        })
    }

    /// Records an HTTP 429 for a request started at `started`: holds every
    /// start for `retry_after`, or for the cooldown base doubled per
    /// consecutive 429 up to the cap. Returns when starts resume.
    pub fn note_rate_limited(&self, started: Instant, retry_after: Option<Duration>) -> Instant {
        let now = Instant::now();
        let mut s = self.state();
        let same_burst = s.cooldown_set_at.is_some_and(|at| started < at);
        if !same_burst {
            s.streak += 1;
        }
        let doubling = self
            .cfg
            .cooldown_base
            .saturating_mul(1u32 << (s.streak.saturating_sub(1)).min(20));
        let cooldown = retry_after.unwrap_or(doubling.min(self.cfg.cooldown_cap));
        let until = now
            .checked_add(cooldown)
            .unwrap_or(now + Duration::from_secs(86_400));
        if s.cooldown_until.is_none_or(|c| c < until) {
            s.cooldown_until = Some(until);
        }
        s.cooldown_set_at = Some(now);
        s.cooldown_until.unwrap_or(until)
    }

    /// Records a successful answer: the 429 streak resets.
    pub fn note_success(&self) {
        self.state().streak = 0;
    }

    /// Calls waiting for a start right now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }
}
