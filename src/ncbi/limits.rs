//! NCBI's limits, one constant each, and the batch sizes this client
//! chooses within them. Help texts, messages and the docs-drift tests
//! quote these constants (formatted with [`thousands`]), never the
//! numbers. The sources are the E-utilities documentation and the PMC ID
//! Converter API page, as docs/search.md "Batch sizes" and docs/convert.md
//! cite them. A size one command alone chooses, not bound by a limit of
//! NCBI's, is that command's: in its own client file and its page
//! (docs/adding-a-command.md).
//!
//! [`thousands`]: crate::core::text::thousands

/// Records of one query ESearch serves: `retstart + retmax` stays within
/// the first 9,999 (docs/search.md "--all" goes past it with PMID ranges).
pub const ESEARCH_WINDOW: u32 = 9_999;

/// The last `retstart` ESearch accepts (0-based): the window's last record.
pub const ESEARCH_MAX_RETSTART: u32 = ESEARCH_WINDOW - 1;

/// The most PMIDs one ESearch page returns (`retmax`).
pub const ESEARCH_MAX_RETMAX: u32 = 10_000;

/// IDs per PMC ID Converter request.
pub const IDCONV_MAX_IDS: usize = 200;

/// UIDs per ESummary request with JSON output (`retmode=json`); this
/// client asks for XML, which has no such cap ([`ESUMMARY_BATCH`]).
pub const ESUMMARY_JSON_MAX_UIDS: usize = 500;

/// IDs above which E-utilities ask for POST rather than GET ("if more than
/// about 200 UIDs are to be provided, the request should be made using
/// the HTTP POST method").
pub const POST_ABOVE_IDS: usize = 200;

/// IDs per ESummary request: 1,000, as EDirect sends them (XML version
/// 2.0; a chunk of 1,000 real summaries is 2–5 MB).
pub const ESUMMARY_BATCH: usize = 1_000;

/// PMIDs per EFetch request (by POST), as EDirect sends them.
pub const EFETCH_CHUNK: usize = 1_000;

/// PMCIDs per EFetch `db=pmc` request: this client's choice, not NCBI's
/// limit. A full-text article is 50–500 kB of JATS, so 20 keep one body
/// near 1–10 MB and four in flight within the memory bound
/// (docs/fulltext.md "Requests").
pub const PMC_EFETCH_CHUNK: usize = 20;

/// Citations per ECitMatch request (`bdata` lines). NCBI documents no
/// figure; this client's choice keeps a GET URL and each answer (one line
/// per citation) small (docs/match.md "Requests").
pub const ECITMATCH_MAX_CITATIONS: usize = 100;

/// Requests per second NCBI allows one IP without an API key (HTTP 429
/// beyond).
pub const RATE_WITHOUT_KEY: u32 = 3;

/// Requests per second NCBI allows with an API key.
pub const RATE_WITH_KEY: u32 = 10;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::text::thousands;

    /// The figures NCBI documents, as the brief and docs quote them.
    #[test]
    fn limits_are_ncbis_figures() {
        assert_eq!(thousands(ESEARCH_WINDOW), "9,999");
        assert_eq!(ESEARCH_MAX_RETSTART, 9998);
        assert_eq!(thousands(ESEARCH_MAX_RETMAX), "10,000");
        assert_eq!(IDCONV_MAX_IDS, 200);
        assert_eq!(ESUMMARY_JSON_MAX_UIDS, 500);
        assert_eq!((RATE_WITHOUT_KEY, RATE_WITH_KEY), (3, 10));
    }
}
