//! The client's policy numbers (client.md "Policy knobs"), in one struct.

use std::time::Duration;

/// Pacing, retry and deadline numbers. Defaults follow client.md; the four
/// knobs (`request_gap`, `max_retries`, `retry_base`, `deadline`) are settable
/// by config file and environment so tests and benchmarks run fast.
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
    /// of the user (`PUBMED_SHARED_BUDGET`; default on).
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
}
