//! Search records (docs/recorded.md): what a systematic reviewer reports of
//! each search (PRISMA-S: database, platform, date, the full strategy,
//! limits, the number of records), built from a search's outcome. Pure: the
//! CLI appends the record to the user's file.

use serde::Serialize;
use sha2::Digest;

use super::search::{AppliedFilters, SearchOutcome, Warning};

/// The record format's version (`recordVersion`).
pub const RECORD_VERSION: u32 = 1;

/// One recorded search: one JSON line of a record file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchRecord {
    /// [`RECORD_VERSION`].
    pub record_version: u32,
    /// When the search ran, UTC, RFC 3339 to the second.
    pub recorded_at: String,
    /// Always `PubMed`.
    pub database: &'static str,
    /// Always `NCBI E-utilities (ESearch)`.
    pub platform: &'static str,
    /// The E-utilities base URL used (credentials redacted).
    pub base_url: String,
    /// `pubmed` and its version.
    pub tool: String,
    /// The query as typed.
    pub query: String,
    /// The ESearch `term` sent (query, field and filter clauses).
    pub effective_query: String,
    /// PubMed's `QueryTranslation`.
    pub query_translation: Option<String>,
    /// Filters and date bounds as sent.
    pub applied_filters: AppliedFilters,
    /// What PubMed or this tool did to the query.
    pub warnings: Vec<Warning>,
    /// PubMed's count for the query.
    pub count: u64,
    /// `retstart` sent.
    pub retstart: u32,
    /// `retmax` sent.
    pub retmax: u32,
    /// The PMIDs returned, in ESearch order.
    pub pmids: Vec<String>,
    /// Whether `pmids` is the query's whole set (`count` PMIDs from 0).
    pub complete: bool,
    /// SHA-256 (hex) of the PMIDs sorted numerically, one per line, each
    /// line ending in `\n`: equal sets have equal digests whatever the
    /// order.
    pub pmids_sha256: String,
}

/// The digest of [`SearchRecord::pmids_sha256`].
pub fn pmid_set_digest(pmids: &[String]) -> String {
    let mut sorted: Vec<&String> = pmids.iter().collect();
    sorted.sort_by(|a, b| (a.len(), a.as_str()).cmp(&(b.len(), b.as_str())));
    let mut h = sha2::Sha256::new();
    for p in sorted {
        h.update(p.as_bytes());
        h.update(b"\n");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The record of `outcome`, run at `at` against `base_url`.
pub fn search_record(outcome: &SearchOutcome, base_url: &str, at: jiff::Timestamp) -> SearchRecord {
    SearchRecord {
        record_version: RECORD_VERSION,
        recorded_at: at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
        database: "PubMed",
        platform: "NCBI E-utilities (ESearch)",
        base_url: crate::ncbi::redact_url(base_url),
        tool: format!("pubmed {}", env!("CARGO_PKG_VERSION")),
        query: outcome.query.clone(),
        effective_query: outcome.effective_query.clone(),
        query_translation: outcome.query_translation.clone(),
        applied_filters: outcome.applied_filters.clone(),
        warnings: outcome.warnings.clone(),
        count: outcome.count,
        retstart: outcome.retstart,
        retmax: outcome.retmax,
        complete: outcome.retstart == 0 && outcome.pmids.len() as u64 == outcome.count,
        pmids_sha256: pmid_set_digest(&outcome.pmids),
        pmids: outcome.pmids.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_of_the_sorted_set() {
        // printf '9997\n12091962\n' | sha256sum
        let want = "e150332654d4dce94c541dff541e9691221d181ac5940808dda5f4d73aae1179";
        assert_eq!(pmid_set_digest(&["12091962".into(), "9997".into()]), want);
        assert_eq!(pmid_set_digest(&["9997".into(), "12091962".into()]), want);
    }
}
