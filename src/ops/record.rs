//! Why one record of a batch (convert, related, fetch, cite) has no
//! answer: the reason written in its place and the message beside it
//! (docs/errors.md "Reasons of one record"). Every per-input outcome is a
//! `Result<…, RecordError>`; the batch engine ([`super::batch`]) counts
//! the reasons and decides the exit rule from them, once.

use serde::Serialize;

use super::batch::Failed;
use crate::error::{Error, Reason, Words};

/// Why a record has no answer: its `error.reason` in JSON, one snake_case
/// name. The per-record reasons leave the exit status at 0; a failed
/// request's reason decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordReason {
    /// The input is not an ID of its type (`malformed_id`).
    MalformedId,
    /// The Converter knows no PMC copy of the article (`not_in_pmc`); it
    /// may still be in PubMed.
    NotInPmc,
    /// The Converter's answer has no record for the ID (`no_record_returned`).
    NoRecordReturned,
    /// PMC holds the article but serves no open full text of it
    /// (`no_open_full_text`): publisher-restricted, embargoed, or PMC's
    /// `not available` answer (docs/fulltext.md).
    NoOpenFullText,
    /// PubMed has no record of the ID (`not_found`), or lists it as
    /// deleted: fetch, related, `convert --fallback pubmed`.
    NotFound,
    /// The request for the record's chunk failed after retries, NCBI sent
    /// something for it that cannot be read, or the Converter answered the
    /// ID with another error: that failure's reason (`ncbi_unreachable`,
    /// `ncbi_invalid_response`, …).
    Request(Reason),
}

impl RecordReason {
    /// The name written in JSON, CSV/TSV and the summary line.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordReason::MalformedId => "malformed_id",
            RecordReason::NotInPmc => "not_in_pmc",
            RecordReason::NoRecordReturned => "no_record_returned",
            RecordReason::NoOpenFullText => "no_open_full_text",
            RecordReason::NotFound => "not_found",
            RecordReason::Request(r) => r.as_str(),
        }
    }

    /// The failed request's reason, which decides the exit status; `None`
    /// for a per-record reason.
    pub fn request_failure(self) -> Option<Reason> {
        match self {
            RecordReason::Request(r) => Some(r),
            _ => None,
        }
    }
}

impl std::fmt::Display for RecordReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RecordReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A per-record failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordError {
    /// Machine-readable reason.
    pub reason: RecordReason,
    /// A sentence for people, as the CLI prints it.
    pub message: String,
    /// `message` in parts when it names a CLI command, so other surfaces
    /// can word it their own way.
    #[serde(skip)]
    pub words: Option<Words>,
    /// Seconds to wait before retrying, from the failed request (a
    /// [`RecordReason::Request`] only); carried to the run's failure.
    #[serde(skip)]
    pub retry_after: Option<u64>,
}

impl RecordError {
    /// A record's error with a reason and a message.
    pub fn new(reason: RecordReason, message: impl Into<String>) -> Self {
        RecordError {
            reason,
            message: message.into(),
            words: None,
            retry_after: None,
        }
    }

    /// The error of a record whose request failed with `e` (its reason,
    /// message and retry advice).
    pub fn request(e: &Error) -> Self {
        RecordError {
            retry_after: e.retry_after,
            ..RecordError::new(RecordReason::Request(e.reason), e.message.clone())
        }
    }

    /// What the batch totals count of it.
    pub fn failed(&self) -> Failed<'_> {
        Failed {
            reason: self.reason.as_str(),
            request: self.reason.request_failure(),
            message: &self.message,
            retry_after: self.retry_after,
        }
    }
}
