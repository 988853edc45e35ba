//! The one error type every operation returns, with the reasons of
//! `client.md` ("Error reasons"): each maps to a CLI exit code and an MCP code.

use std::fmt;

use serde::Serialize;

/// Why a call failed. The string form (`as_str`) is the machine-readable
/// `reason` printed in `--format json` errors and MCP `data.reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The query or spell input has no search term.
    BlankQuery,
    /// A search filter has no term.
    BlankFilter,
    /// An impossible date, or a start after the end.
    InvalidDateRange,
    /// An ID does not fit its type.
    MalformedId,
    /// Any other bad argument: limits, unknown field, caller errors NCBI reports.
    InvalidArgument,
    /// The local request queue shed the call.
    QueueFull,
    /// NCBI answered HTTP 429 and the call stopped on it.
    NcbiRateLimited,
    /// Every allowed attempt failed, or the next backoff would overrun the deadline.
    NcbiUnreachable,
    /// The total deadline expired (queued, in flight or backing off).
    NcbiDeadlineExceeded,
    /// A complete body that cannot be parsed.
    NcbiInvalidResponse,
    /// NCBI says the ID or document does not exist.
    NcbiResourceNotFound,
}

impl Reason {
    /// The reason as written in JSON output and MCP errors, e.g. `blank_query`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::BlankQuery => "blank_query",
            Reason::BlankFilter => "blank_filter",
            Reason::InvalidDateRange => "invalid_date_range",
            Reason::MalformedId => "malformed_id",
            Reason::InvalidArgument => "invalid_argument",
            Reason::QueueFull => "queue_full",
            Reason::NcbiRateLimited => "ncbi_rate_limited",
            Reason::NcbiUnreachable => "ncbi_unreachable",
            Reason::NcbiDeadlineExceeded => "ncbi_deadline_exceeded",
            Reason::NcbiInvalidResponse => "ncbi_invalid_response",
            Reason::NcbiResourceNotFound => "ncbi_resource_not_found",
        }
    }

    /// Advice to the caller: trying the same call later may succeed.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            Reason::QueueFull
                | Reason::NcbiRateLimited
                | Reason::NcbiUnreachable
                | Reason::NcbiDeadlineExceeded
                | Reason::NcbiInvalidResponse
        )
    }

    /// CLI exit status: 1 not found, 2 bad input, 69 unavailable, 75 try later (sysexits).
    pub fn exit_code(self) -> u8 {
        match self {
            Reason::BlankQuery
            | Reason::BlankFilter
            | Reason::InvalidDateRange
            | Reason::MalformedId
            | Reason::InvalidArgument => 2,
            Reason::QueueFull | Reason::NcbiRateLimited => 75,
            Reason::NcbiUnreachable
            | Reason::NcbiDeadlineExceeded
            | Reason::NcbiInvalidResponse => 69,
            Reason::NcbiResourceNotFound => 1,
        }
    }

    /// JSON-RPC error code used in MCP tool errors (`client.md` table).
    pub fn mcp_code(self) -> i32 {
        match self {
            Reason::BlankQuery
            | Reason::BlankFilter
            | Reason::InvalidDateRange
            | Reason::MalformedId => -32007,
            Reason::InvalidArgument => -32602,
            Reason::QueueFull | Reason::NcbiRateLimited => -32003,
            Reason::NcbiUnreachable => -32000,
            Reason::NcbiDeadlineExceeded => -32004,
            Reason::NcbiInvalidResponse => -32070,
            Reason::NcbiResourceNotFound => -32001,
        }
    }

    /// A one-line recovery hint shown after the error.
    pub fn hint(self) -> &'static str {
        match self {
            Reason::BlankQuery => "give at least one search term",
            Reason::BlankFilter => "give the filter a term, or leave it out",
            Reason::InvalidDateRange => {
                "use YYYY, YYYY/MM or YYYY/MM/DD, with the start on or before the end"
            }
            Reason::MalformedId => {
                "PMIDs are digits, PMCIDs are PMC followed by digits, DOIs look like 10.1234/abc"
            }
            Reason::InvalidArgument => "check the arguments against `pubmed help`",
            Reason::QueueFull => "too many calls are waiting; retry after the given delay",
            Reason::NcbiRateLimited => {
                "set NCBI_API_KEY (or `pubmed config set api_key KEY`) to raise NCBI's limit from 3 to 10 requests/s, then retry later"
            }
            Reason::NcbiUnreachable => {
                "NCBI did not answer usefully; check the network or status.ncbi.nlm.nih.gov and retry later"
            }
            Reason::NcbiDeadlineExceeded => "NCBI is slow; retry later or raise --timeout",
            Reason::NcbiInvalidResponse => {
                "NCBI sent a body that is not what E-utilities document; retry later"
            }
            Reason::NcbiResourceNotFound => "check the ID; it may not exist in this database",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A typed failure: `reason` decides exit code and MCP code, `message` is ours
/// (it names the endpoint, never a URL with `api_key`), `retry_after` is in
/// seconds when known (`queue_full`, `ncbi_rate_limited`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The machine-readable reason.
    pub reason: Reason,
    /// A short human message.
    pub message: String,
    /// Seconds to wait before retrying, when known.
    pub retry_after: Option<u64>,
    /// A hint that fits this failure better than the reason's own.
    pub hint: Option<String>,
}

impl Error {
    /// An error with a reason and a message.
    pub fn new(reason: Reason, message: impl Into<String>) -> Self {
        Error {
            reason,
            message: message.into(),
            retry_after: None,
            hint: None,
        }
    }

    /// Replaces the reason's generic hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The recovery hint: this error's own, else the reason's.
    pub fn hint(&self) -> &str {
        self.hint.as_deref().unwrap_or(self.reason.hint())
    }

    /// Sets `retry_after` (seconds).
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs);
        self
    }

    /// `{"reason", "message", "retryable", "hint", "retryAfter"?}` as printed
    /// under `"error"` on stderr with `--format json`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "reason": self.reason.as_str(),
            "message": self.message,
            "retryable": self.reason.retryable(),
            "hint": self.hint(),
        });
        if let Some(s) = self.retry_after {
            v["retryAfter"] = s.into();
        }
        v
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.reason)
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of this crate's operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_client_md() {
        assert_eq!(Reason::BlankQuery.exit_code(), 2);
        assert_eq!(Reason::QueueFull.exit_code(), 75);
        assert_eq!(Reason::NcbiRateLimited.exit_code(), 75);
        assert_eq!(Reason::NcbiUnreachable.exit_code(), 69);
        assert_eq!(Reason::NcbiInvalidResponse.exit_code(), 69);
        assert_eq!(Reason::NcbiResourceNotFound.exit_code(), 1);
        assert_eq!(Reason::InvalidArgument.mcp_code(), -32602);
        assert_eq!(Reason::MalformedId.mcp_code(), -32007);
        assert_eq!(Reason::NcbiInvalidResponse.mcp_code(), -32070);
    }

    #[test]
    fn json_shape_carries_retry_after_only_when_known() {
        let e = Error::new(Reason::QueueFull, "queue full").with_retry_after(3);
        let v = e.to_json();
        assert_eq!(v["reason"], "queue_full");
        assert_eq!(v["retryable"], true);
        assert_eq!(v["retryAfter"], 3);
        let v = Error::new(Reason::BlankQuery, "blank").to_json();
        assert!(v.get("retryAfter").is_none());
        assert_eq!(v["retryable"], false);
    }
}
