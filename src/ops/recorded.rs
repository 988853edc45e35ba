//! Search records (docs/recorded.md): what a systematic reviewer reports of
//! each search (PRISMA-S: database, platform, date, the full strategy,
//! limits, the number of records), built from a search's outcome, appended
//! to the user's JSON Lines file under a lock, and read back (a corrupt
//! line skipped with a note naming it).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::search::{AppliedFilters, SearchOutcome, SearchRequest, Sort, Warning};
use crate::core::dates::{DateRequest, DateType};

/// The record format's version (`recordVersion`).
pub const RECORD_VERSION: u32 = 1;

/// Most PMIDs a record holds inline; a larger set (only `--all` finds one)
/// goes to a sidecar file beside the record file.
pub const INLINE_MAX: usize = 10_000;

/// The dates as the user gave them: what a rerun resolves again against
/// its own day (docs/recorded.md "Re-running").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestedDates {
    /// `--mindate` as typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_date: Option<String>,
    /// `--maxdate` as typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_date: Option<String>,
    /// `--datetype`.
    #[serde(default)]
    pub date_type: DateType,
    /// `--reldate` in days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rel_date: Option<u32>,
}

impl RequestedDates {
    /// The dates of `req`.
    pub fn of(req: &DateRequest) -> RequestedDates {
        RequestedDates {
            min_date: req.min.clone(),
            max_date: req.max.clone(),
            date_type: req.datetype,
            rel_date: req.reldate.filter(|d| *d > 0),
        }
    }

    /// Back to a request.
    pub fn request(&self) -> DateRequest {
        DateRequest {
            min: self.min_date.clone(),
            max: self.max_date.clone(),
            datetype: self.date_type,
            reldate: self.rel_date,
        }
    }
}

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
    /// The dates as typed (what a rerun resolves again).
    pub requested_dates: RequestedDates,
    /// What PubMed or this tool did to the query.
    pub warnings: Vec<Warning>,
    /// PubMed's count for the query.
    pub count: u64,
    /// `retstart` sent.
    pub retstart: u32,
    /// `retmax` sent (the count for `--all`).
    pub retmax: u32,
    /// `--sort`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<Sort>,
    /// `page` (one ESearch page) or `all` (`search --all`).
    pub scope: &'static str,
    /// How many PMIDs the set holds.
    pub pmid_count: u64,
    /// The PMIDs, in ESearch order; `None` when in [`Self::pmids_file`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmids: Option<Vec<String>>,
    /// The sidecar file holding the set (its name, beside the record
    /// file): the PMIDs sorted numerically, one a line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmids_file: Option<String>,
    /// Whether the set is the query's whole set (`count` PMIDs from 0).
    pub complete: bool,
    /// SHA-256 (hex) of the PMIDs sorted numerically, one per line, each
    /// line ending in `\n`: equal sets have equal digests whatever the
    /// order (and `sha256sum` of a sidecar gives it).
    pub pmids_sha256: String,
}

/// What a search found, for [`record`]: one page or a whole `--all` set.
#[derive(Debug, Clone)]
pub struct Searched {
    /// The query as typed.
    pub query: String,
    /// The ESearch `term` sent.
    pub effective_query: String,
    /// PubMed's `QueryTranslation`.
    pub query_translation: Option<String>,
    /// Filters as applied.
    pub applied_filters: AppliedFilters,
    /// Dates as typed.
    pub dates: DateRequest,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// PubMed's count.
    pub count: u64,
    /// `retstart` sent.
    pub retstart: u32,
    /// `retmax` sent.
    pub retmax: u32,
    /// `--sort`.
    pub sort: Option<Sort>,
    /// From `search --all`.
    pub all: bool,
    /// The PMIDs found.
    pub pmids: Vec<String>,
}

impl Searched {
    /// A page search: `outcome` of `req`.
    pub fn page(outcome: &SearchOutcome, req: &SearchRequest) -> Searched {
        Searched {
            query: outcome.query.clone(),
            effective_query: outcome.effective_query.clone(),
            query_translation: outcome.query_translation.clone(),
            applied_filters: outcome.applied_filters.clone(),
            dates: req.dates.clone(),
            warnings: outcome.warnings.clone(),
            count: outcome.count,
            retstart: outcome.retstart,
            retmax: outcome.retmax,
            sort: req.sort,
            all: false,
            pmids: outcome.pmids.clone(),
        }
    }
}

/// Numeric order of PMIDs (shorter first, then by text).
pub fn sort_pmids(pmids: &mut [String]) {
    pmids.sort_by(|a, b| (a.len(), a.as_str()).cmp(&(b.len(), b.as_str())));
}

/// The PMIDs sorted numerically, one per line, each ending in `\n`: what
/// [`pmid_set_digest`] hashes and a sidecar holds.
fn set_text(pmids: &[String]) -> String {
    let mut sorted = pmids.to_vec();
    sort_pmids(&mut sorted);
    sorted.into_iter().map(|p| p + "\n").collect()
}

/// SHA-256 (hex) of `bytes`.
fn sha256_hex(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The digest of [`SearchRecord::pmids_sha256`].
pub fn pmid_set_digest(pmids: &[String]) -> String {
    sha256_hex(set_text(pmids).as_bytes())
}

/// The record of `s`, run at `at` against `base_url`; the PMIDs inline
/// (the caller moves them to a sidecar above [`INLINE_MAX`]).
pub fn record(s: &Searched, base_url: &str, at: jiff::Timestamp) -> SearchRecord {
    SearchRecord {
        record_version: RECORD_VERSION,
        recorded_at: at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
        database: "PubMed",
        platform: "NCBI E-utilities (ESearch)",
        base_url: crate::ncbi::redact_url(base_url),
        tool: format!("pubmed {}", env!("CARGO_PKG_VERSION")),
        query: s.query.clone(),
        effective_query: s.effective_query.clone(),
        query_translation: s.query_translation.clone(),
        applied_filters: s.applied_filters.clone(),
        requested_dates: RequestedDates::of(&s.dates),
        warnings: s.warnings.clone(),
        count: s.count,
        retstart: s.retstart,
        retmax: s.retmax,
        sort: s.sort,
        scope: if s.all { "all" } else { "page" },
        pmid_count: s.pmids.len() as u64,
        complete: s.retstart == 0 && s.pmids.len() as u64 == s.count,
        pmids_sha256: pmid_set_digest(&s.pmids),
        pmids: Some(s.pmids.clone()),
        pmids_file: None,
    }
}

/// Why a record could not be appended.
#[derive(Debug)]
pub enum AppendError {
    /// FILE (or the sidecar's directory) cannot be opened: the user's
    /// argument is wrong.
    Open(PathBuf, std::io::Error),
    /// A lock, write or sync failed (a full disk): an output failure.
    Write(PathBuf, std::io::Error),
}

/// Appends `rec` to `file` as one JSON line under an exclusive lock (two
/// writers at once both land, neither line cut), then syncs it. A set
/// over [`INLINE_MAX`] PMIDs is first written to a sidecar beside `file`
/// (`<file>.<sha256 prefix>.pmids`, written whole then renamed) and the
/// record names it.
///
/// Errors: [`AppendError`].
pub fn append(file: &Path, mut rec: SearchRecord) -> Result<SearchRecord, AppendError> {
    if rec.pmids.as_ref().is_some_and(|p| p.len() > INLINE_MAX) {
        let pmids = rec.pmids.take().unwrap_or_default();
        rec.pmids_file = Some(write_sidecar(file, &rec.pmids_sha256, &pmids)?);
    }
    let mut line =
        serde_json::to_vec(&rec).map_err(|e| AppendError::Write(file.into(), e.into()))?;
    line.push(b'\n');
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .map_err(|e| AppendError::Open(file.into(), e))?;
    f.lock()
        .and_then(|()| f.write_all(&line))
        .and_then(|()| f.sync_data())
        .map_err(|e| AppendError::Write(file.into(), e))?;
    Ok(rec)
}

/// Writes the sidecar of a set; returns its file name.
fn write_sidecar(file: &Path, digest: &str, pmids: &[String]) -> Result<String, AppendError> {
    let base = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "searches".into());
    let name = format!("{base}.{}.pmids", &digest[..16]);
    let path = file.with_file_name(&name);
    let tmp = file.with_file_name(format!("{name}.tmp{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp).map_err(|e| AppendError::Open(tmp.clone(), e))?;
    f.write_all(set_text(pmids).as_bytes())
        .and_then(|()| f.sync_data())
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            AppendError::Write(path.clone(), e)
        })?;
    Ok(name)
}

/// A record read back: the fields a rerun and a report use (later fields
/// are ignored, so a newer file still reads).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredRecord {
    /// When the search ran.
    pub recorded_at: String,
    /// `PubMed`.
    pub database: String,
    /// The platform.
    pub platform: String,
    /// The base URL.
    pub base_url: String,
    /// The tool and version.
    pub tool: String,
    /// The query as typed.
    pub query: String,
    /// The term sent.
    pub effective_query: String,
    /// PubMed's translation.
    #[serde(default)]
    pub query_translation: Option<String>,
    /// Filters and date bounds as sent (kept as JSON).
    #[serde(default)]
    pub applied_filters: serde_json::Map<String, serde_json::Value>,
    /// Dates as typed (absent before they were recorded).
    #[serde(default)]
    pub requested_dates: Option<RequestedDates>,
    /// Warnings (kept as JSON).
    #[serde(default)]
    pub warnings: Vec<serde_json::Value>,
    /// The count.
    pub count: u64,
    /// `retstart`.
    #[serde(default)]
    pub retstart: u32,
    /// `retmax`.
    #[serde(default)]
    pub retmax: u32,
    /// `--sort`.
    #[serde(default)]
    pub sort: Option<Sort>,
    /// `page` or `all`.
    #[serde(default)]
    pub scope: Option<String>,
    /// How many PMIDs the set holds (absent in the first records).
    #[serde(default)]
    pub pmid_count: Option<u64>,
    /// Inline PMIDs.
    #[serde(default)]
    pub pmids: Option<Vec<String>>,
    /// Sidecar name.
    #[serde(default)]
    pub pmids_file: Option<String>,
    /// Whole set.
    #[serde(default)]
    pub complete: bool,
    /// Digest of the set.
    pub pmids_sha256: String,
}

/// One record of a file and its line number (1-based): its `--id`.
#[derive(Debug, Clone)]
pub struct Numbered {
    /// The line number.
    pub id: usize,
    /// The record.
    pub record: StoredRecord,
}

/// A record file read: its records and the lines skipped.
#[derive(Debug, Clone, Default)]
pub struct RecordFile {
    /// The records, in file order.
    pub records: Vec<Numbered>,
    /// `line N: why` for each line skipped (blank lines are not).
    pub skipped: Vec<String>,
}

/// Reads the record file `text`: each line that is not a record (cut,
/// edited, another tool's) is skipped with a note naming it.
pub fn parse_file(text: &str) -> RecordFile {
    let mut out = RecordFile::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<StoredRecord>(line) {
            Ok(record) => out.records.push(Numbered { id: i + 1, record }),
            Err(e) => out
                .skipped
                .push(format!("line {}: not a search record ({e})", i + 1)),
        }
    }
    out
}

/// The recorded set of `rec` from the file at `file`: inline, or its
/// sidecar, checked against `pmidsSha256`.
///
/// Errors: a message naming the sidecar when it cannot be read or its
/// digest differs (the set cannot be trusted).
pub fn recorded_set(file: &Path, rec: &StoredRecord) -> Result<Vec<String>, String> {
    let pmids = match (&rec.pmids, &rec.pmids_file) {
        (Some(p), _) => p.clone(),
        (None, Some(name)) => {
            let path = file.with_file_name(name);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read the PMID set {}: {e}", path.display()))?;
            if sha256_hex(text.as_bytes()) != rec.pmids_sha256 {
                return Err(format!(
                    "{} does not match the record's pmidsSha256",
                    path.display()
                ));
            }
            text.lines().map(str::to_string).collect()
        }
        (None, None) => return Err("the record holds no PMID set".into()),
    };
    if rec.pmids_file.is_none() && pmid_set_digest(&pmids) != rec.pmids_sha256 {
        return Err("its PMIDs do not match its pmidsSha256".into());
    }
    Ok(pmids)
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

    #[test]
    fn a_corrupt_line_is_named_and_the_rest_read() {
        let good = r#"{"recordedAt":"2026-12-02T13:40:00Z","database":"PubMed","platform":"p","baseUrl":"u","tool":"t","query":"q","effectiveQuery":"q","count":1,"pmids":["1"],"pmidsSha256":"x"}"#;
        let text = format!("{good}\n{{\"cut\n\n{good}\n");
        let f = parse_file(&text);
        assert_eq!(f.records.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 4]);
        assert_eq!(f.skipped.len(), 1);
        assert!(f.skipped[0].starts_with("line 2: "), "{:?}", f.skipped);
    }
}
