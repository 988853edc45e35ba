//! The client's policy numbers (docs/client.md "Policy knobs"), in one
//! struct, and the one exponential backoff both the retry loop and the 429
//! cooldown use.

use std::time::Duration;

/// Pacing, retry and deadline numbers. Defaults follow docs/client.md; the
/// knobs (`request_gap`, `max_retries`, `retry_base`, `deadline`,
/// `shared_budget`) are settable by config file and environment so tests
/// and benchmarks run fast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Minimum gap between request starts; `None` = 400 ms without an API
    /// key, 110 ms with one (`PUBMED_REQUEST_GAP_MS`; 0 allowed).
    pub request_gap: Option<Duration>,
    /// Requests in flight at once.
    pub max_in_flight: usize,
    /// Calls allowed to wait for a start before `queue_full`.
    pub max_waiting: usize,
    /// Retries after the first attempt (`PUBMED_MAX_RETRIES`).
    pub max_retries: u32,
    /// First backoff, doubled per retry; also the first 429 cooldown
    /// (`PUBMED_RETRY_BASE_MS`).
    pub retry_base: Duration,
    /// Longest backoff and longest 429 cooldown.
    pub retry_cap: Duration,
    /// A `Retry-After` longer than this stops the call as `ncbi_rate_limited`.
    pub max_retry_after: Duration,
    /// Timeout of one attempt.
    pub request_timeout: Duration,
    /// Total time for one call: queue wait, attempts and backoff
    /// (`PUBMED_DEADLINE_S`, `--timeout`).
    pub deadline: Duration,
    /// Draw request starts from the budget shared by every `pubmed` process
    /// of the user (docs/client.md "Shared budget"); `false` paces this
    /// process alone (`PUBMED_SHARED_BUDGET=0`).
    pub shared_budget: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            request_gap: None,
            max_in_flight: 8,
            max_waiting: 100,
            max_retries: 6,
            retry_base: Duration::from_secs(1),
            retry_cap: Duration::from_secs(15),
            max_retry_after: Duration::from_secs(30),
            request_timeout: Duration::from_secs(30),
            deadline: Duration::from_secs(60),
            shared_budget: true,
        }
    }
}

impl Policy {
    /// The gap between request starts for a client with or without an API key.
    pub fn gap(&self, has_api_key: bool) -> Duration {
        self.request_gap.unwrap_or(if has_api_key {
            Duration::from_millis(110)
        } else {
            Duration::from_millis(400)
        })
    }

    /// The backoff of this policy: `retry_base` doubled per step, capped at
    /// `retry_cap`.
    pub fn backoff(&self) -> Backoff {
        Backoff {
            base: self.retry_base,
            cap: self.retry_cap,
        }
    }
}

/// Exponential backoff: step `n` (0-based) waits `base × 2ⁿ`, at most
/// `cap`. The retry loop uses step = retries so far (with ±25% jitter), the
/// 429 cooldown uses step = consecutive 429s − 1 (without jitter, so every
/// process computes the same cooldown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// The first wait.
    pub base: Duration,
    /// The longest wait.
    pub cap: Duration,
}

impl Backoff {
    /// The wait of step `n`, without jitter; never above `cap`, never
    /// overflowing.
    pub fn step(&self, n: u32) -> Duration {
        self.base.saturating_mul(1u32 << n.min(20)).min(self.cap)
    }

    /// The wait of step `n` with ±25% jitter, still never above `cap`.
    pub fn jittered(&self, n: u32) -> Duration {
        self.step(n)
            .mul_f64(rand::random_range(0.75..=1.25))
            .min(self.cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let b = Policy::default().backoff();
        let steps: Vec<u64> = (0..8).map(|n| b.step(n).as_millis() as u64).collect();
        assert_eq!(steps, [1000, 2000, 4000, 8000, 15000, 15000, 15000, 15000]);
        assert_eq!(b.step(u32::MAX), Duration::from_secs(15));
        let huge = Backoff {
            base: Duration::MAX,
            cap: Duration::MAX,
        };
        assert_eq!(huge.step(40), Duration::MAX);
    }

    #[test]
    fn jitter_stays_within_a_quarter_and_the_cap() {
        let b = Policy::default().backoff();
        for _ in 0..1000 {
            let d = b.jittered(2);
            assert!(d >= Duration::from_secs(3) && d <= Duration::from_secs(5));
            assert!(b.jittered(4) <= Duration::from_secs(15));
        }
    }
}
