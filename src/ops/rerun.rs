//! `pubmed rerun FILE [--id N]` (docs/recorded.md "Re-running"): each recorded
//! search run again with the same strategy, and what changed: PMIDs added
//! and removed, the count then and now, whether PubMed's translation of
//! the query changed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::recorded::{self, Numbered, RecordFile, StoredRecord};
use super::search::{self, Detail, SearchRequest};
use super::search_all::{self, Event, Start};
use crate::core::dates::{DateBound, DateRequest};
use crate::error::{Error, Failure, Reason};
use crate::ncbi::Client;
use crate::ncbi::limits::ESEARCH_WINDOW;

/// Most changed PMIDs whose titles are fetched (one ESummary batch of
/// each 500 beyond is more than a terminal reader reads).
pub const TITLES_MAX: usize = 500;

/// A rerun, in plain values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RerunRequest {
    /// The record file.
    pub file: PathBuf,
    /// Only the record on this line (1-based); `None` = every record.
    pub id: Option<usize>,
    /// Fetch the titles of the PMIDs added and removed.
    pub titles: bool,
}

/// A changed PMID, with its title when asked for and PubMed has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    /// The PMID.
    pub pmid: String,
    /// Its title (ESummary), when fetched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// One search run again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rerun {
    /// The record's line in the file (its `--id`).
    pub id: usize,
    /// The query as typed.
    pub query: String,
    /// When the record was made.
    pub recorded_at: String,
    /// `page` (the same page again) or `all` (the whole set again).
    pub scope: &'static str,
    /// PubMed's count then.
    pub count_then: u64,
    /// PubMed's count now.
    pub count_now: u64,
    /// The translation then.
    pub translation_then: Option<String>,
    /// The translation now.
    pub translation_now: Option<String>,
    /// Whether the translation differs.
    pub translation_changed: bool,
    /// The date bounds sent now (`mindate`, `maxdate`), when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_bounds_now: Option<(String, String)>,
    /// PMIDs now in the set and not then, numerically.
    pub added: Vec<Changed>,
    /// PMIDs then in the set and not now, numerically.
    pub removed: Vec<Changed>,
    /// No PMID added or removed and the same count.
    pub identical: bool,
    /// The record run again (for the report; not in JSON, which names it
    /// by `id`).
    #[serde(skip)]
    pub record: StoredRecord,
}

/// The rerun of a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RerunOutcome {
    /// The record file.
    pub file: String,
    /// When the searches ran again, UTC.
    pub ran_at: String,
    /// Every search run again, in file order.
    pub searches: Vec<Rerun>,
    /// Lines skipped (`line N: why`).
    pub skipped: Vec<String>,
    /// Every search is identical.
    pub identical: bool,
    /// `pubmed` and its version, as a record's `tool`.
    pub tool: String,
    /// Changed PMIDs left without a title past [`TITLES_MAX`].
    #[serde(skip_serializing_if = "is_zero")]
    pub untitled: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(Reason::InvalidArgument, msg)
}

/// Reads `file` and selects record `id` (every record when `None`).
///
/// Errors: `invalid_argument` naming FILE when it cannot be read, holds no
/// record, or has no record on line `id`.
pub fn read(file: &Path, id: Option<usize>) -> Result<RecordFile, Error> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        invalid(format!(
            "cannot read the record file {}: {e}",
            file.display()
        ))
    })?;
    let mut parsed = recorded::parse_file(&text);
    if let Some(id) = id {
        let ids: Vec<usize> = parsed.records.iter().map(|r| r.id).collect();
        parsed.records.retain(|r| r.id == id);
        if parsed.records.is_empty() {
            return Err(no_such_id(file, id, &ids, &parsed.skipped));
        }
    }
    if parsed.records.is_empty() {
        return Err(invalid(format!(
            "{} holds no search record",
            file.display()
        )));
    }
    Ok(parsed)
}

/// `--id N` names no record: why, and which ids there are.
fn no_such_id(file: &Path, id: usize, ids: &[usize], skipped: &[String]) -> Error {
    let f = file.display();
    let prefix = format!("line {id}: ");
    let why = match skipped.iter().find(|s| s.starts_with(&prefix)) {
        Some(s) => format!("--id {id}: {f} {s}"),
        None if ids.is_empty() => format!("--id {id}: {f} holds no search record"),
        None => format!("--id {id} is out of range: {f} has no search record on line {id}"),
    };
    let list: Vec<String> = ids.iter().map(usize::to_string).collect();
    let hint = if list.is_empty() {
        "record a search with `pubmed search QUERY --record FILE`".to_string()
    } else {
        format!(
            "a record's id is its line number; {f} holds records {}",
            list.join(", ")
        )
    };
    invalid(why).with_hint(hint)
}

/// The request a record makes now: the term sent then (query and
/// filters), its field, its dates as typed resolved again against today
/// (an open end is today; `--reldate` counts back from today), its page.
pub fn request_of(rec: &StoredRecord) -> SearchRequest {
    let dates = match &rec.requested_dates {
        Some(d) => d.request(),
        // A record made before the typed dates were kept: the bounds sent.
        None => sent_dates(rec),
    };
    let field = rec
        .applied_filters
        .get("field")
        .and_then(|v| v.as_str())
        .map(str::to_string);
    SearchRequest {
        query: rec.effective_query.clone(),
        field,
        dates,
        retmax: rec.retmax,
        retstart: rec.retstart,
        sort: rec.sort,
        detail: Detail::Ids,
        spell: search::SpellMode::Off,
        ..SearchRequest::default()
    }
}

fn sent_dates(rec: &StoredRecord) -> DateRequest {
    let Some(d) = rec.applied_filters.get("dateRange") else {
        return DateRequest::default();
    };
    let s = |k: &str| d.get(k).and_then(|v| v.as_str()).map(str::to_string);
    DateRequest {
        min: s("minDate"),
        max: s("maxDate"),
        datetype: s("dateType")
            .and_then(|t| t.parse().ok())
            .unwrap_or_default(),
        reldate: None,
    }
}

/// What a search finds now: its PMIDs, count, translation, date bounds.
struct Now {
    pmids: Vec<String>,
    count: u64,
    translation: Option<String>,
    bounds: Option<(String, String)>,
}

/// Runs `req` now: the whole set (`search --all`'s ranges) when `whole`,
/// else the same page.
async fn run_now(
    client: &Client,
    req: &SearchRequest,
    whole: bool,
    today: DateBound,
) -> Result<Now, Failure> {
    let prepared = search::prepare(
        &SearchRequest {
            retmax: if whole { ESEARCH_WINDOW } else { req.retmax },
            retstart: if whole { 0 } else { req.retstart },
            sort: if whole { None } else { req.sort },
            ..req.clone()
        },
        today,
    )?;
    let bounds = prepared.params.dates.clone();
    if !whole {
        let o = search::search_prepared(client, req, &prepared, today).await?;
        return Ok(Now {
            pmids: o.pmids,
            count: o.count,
            translation: o.query_translation,
            bounds,
        });
    }
    let (plan, _) = search_all::prepare_checked(client, req, today).await?;
    let mut pmids = Vec::new();
    let mut sink = |e: Event<'_>| {
        if let Event::Pmids(p) = e {
            pmids.extend(p.iter().cloned());
        }
        Ok(())
    };
    let out = search_all::search_all(client, plan, Start::default(), &mut sink).await?;
    if let Some(e) = out.first_failure {
        return Err(Failure::Op(e));
    }
    Ok(Now {
        pmids,
        count: out.total,
        translation: out.query_translation,
        bounds,
    })
}

/// The difference `a − b`, numerically.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let b: HashSet<&String> = b.iter().collect();
    let mut d: Vec<String> = a.iter().filter(|p| !b.contains(p)).cloned().collect();
    recorded::sort_pmids(&mut d);
    d.dedup();
    d
}

/// Runs one record again (no titles yet: [`rerun`] fetches them for
/// every search at once).
///
/// Errors: the record's set cannot be read (`invalid_argument`), and the
/// search's own errors.
pub async fn rerun_one(
    client: &Client,
    file: &Path,
    n: &Numbered,
    today: DateBound,
) -> Result<Rerun, Failure> {
    let rec = &n.record;
    let then = recorded::recorded_set(file, rec)
        .map_err(|e| invalid(format!("{}: line {}: {e}", file.display(), n.id)))?;
    let whole = rec.complete || rec.scope.as_deref() == Some("all");
    let now = run_now(client, &request_of(rec), whole, today).await?;
    let added = minus(&now.pmids, &then);
    let removed = minus(&then, &now.pmids);
    let identical = added.is_empty() && removed.is_empty() && rec.count == now.count;
    Ok(Rerun {
        id: n.id,
        query: rec.query.clone(),
        recorded_at: rec.recorded_at.clone(),
        scope: if whole { "all" } else { "page" },
        count_then: rec.count,
        count_now: now.count,
        translation_changed: rec.query_translation != now.translation,
        translation_then: rec.query_translation.clone(),
        translation_now: now.translation,
        date_bounds_now: now.bounds,
        added: bare(added),
        removed: bare(removed),
        identical,
        record: rec.clone(),
    })
}

fn bare(pmids: Vec<String>) -> Vec<Changed> {
    pmids
        .into_iter()
        .map(|pmid| Changed { pmid, title: None })
        .collect()
}

/// Fills in the titles of the changed PMIDs of every search: one
/// ESummary batch for the first [`TITLES_MAX`] distinct PMIDs (a removed
/// PMID PubMed no longer has keeps none). Returns how many PMIDs were
/// left without a title because of the cap.
///
/// Errors: ESummary's (an upstream failure never looks like "no title").
async fn fill_titles(client: &Client, searches: &mut [Rerun]) -> Result<usize, Failure> {
    let mut wanted: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let mut over = 0;
    for c in searches
        .iter()
        .flat_map(|s| s.added.iter().chain(s.removed.iter()))
    {
        if seen.insert(c.pmid.clone()) {
            if wanted.len() < TITLES_MAX {
                wanted.push(c.pmid.clone());
            } else {
                over += 1;
            }
        }
    }
    if wanted.is_empty() {
        return Ok(0);
    }
    let (sums, _missing) = search::summaries(client, &wanted).await?;
    let titles: HashMap<&str, &str> = sums
        .iter()
        .map(|s| (s.pmid.as_str(), s.title.as_str()))
        .collect();
    for s in searches.iter_mut() {
        for c in s.added.iter_mut().chain(s.removed.iter_mut()) {
            c.title = titles.get(c.pmid.as_str()).map(|t| t.to_string());
        }
    }
    Ok(over)
}

/// Runs the request's records again, in file order; with `titles`, one
/// ESummary batch for the titles of the PMIDs that changed.
///
/// Errors: those of [`read`] and [`rerun_one`], and ESummary's.
pub async fn rerun(client: &Client, req: &RerunRequest) -> Result<RerunOutcome, Failure> {
    let parsed = read(&req.file, req.id)?;
    let today = search::today_utc();
    let ran_at = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let mut searches = Vec::new();
    for n in &parsed.records {
        searches.push(rerun_one(client, &req.file, n, today).await?);
    }
    let untitled = if req.titles {
        fill_titles(client, &mut searches).await?
    } else {
        0
    };
    Ok(RerunOutcome {
        file: req.file.display().to_string(),
        ran_at,
        tool: format!("pubmed {}", env!("CARGO_PKG_VERSION")),
        identical: searches.iter().all(|s| s.identical),
        searches,
        skipped: parsed.skipped,
        untitled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_and_removed_are_set_differences_in_numeric_order() {
        let s = |v: &[&str]| v.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        let then = s(&["10", "9", "100"]);
        let now = s(&["100", "11", "9", "2"]);
        assert_eq!(minus(&now, &then), s(&["2", "11"]));
        assert_eq!(minus(&then, &now), s(&["10"]));
    }
}
