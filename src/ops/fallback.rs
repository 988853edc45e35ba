//! `convert --fallback pubmed`: a stage after the Converter's records
//! (docs/convert-fallback.md). An ID the PMC ID Converter has no record of
//! (`not_in_pmc`) may still be in PubMed: a PMID's DOI is read from its
//! ESummary `ArticleIds` (search's summary path), a DOI's PMID from ESearch
//! `"DOI"[doi]`. Records answered that way say `source: "pubmed"`; a PMCID is
//! never filled in from PubMed (the Converter is the authority on PMC).
//!
//! DOIs are searched [`DOI_BATCH`] at a time, OR-ed in one ESearch, and the
//! PMIDs it finds are summarized in the same ESummary request as the PMIDs
//! looked up, so a window of records costs at most one ESearch per
//! [`DOI_BATCH`] DOIs plus one ESummary per 1,000 PMIDs, instead of one request
//! per ID.

use std::collections::HashMap;
use std::io;
use std::time::Duration;

use futures::{Stream, StreamExt};

use super::convert::{
    self, ConvertRecord, InputLine, Output, RecordError, RecordReason, Source, Totals,
};
use super::search::{self, Summary};
use crate::core::choice::choice;
use crate::core::ids::{self, Canonical, IdType};
use crate::error::{Error, Failure, Reason};
use crate::ncbi::esearch::EsearchParams;
use crate::ncbi::{Client, Db};

choice! {
    /// Where `convert --fallback` looks up IDs the Converter does not know.
    pub enum Fallback {
        /// PubMed: ESummary for PMIDs, ESearch `"DOI"[doi]` for DOIs.
        Pubmed = "pubmed",
    }
}

/// DOIs per ESearch: 100 quoted `[doi]` terms OR-ed are ~3,500 characters,
/// sent as one POST; `retmax` covers every hit.
pub const DOI_BATCH: usize = 100;
/// Records looked up per window (one ESummary request holds 1,000 IDs).
pub const WINDOW: usize = 200;
/// Items (records and skipped lines) held in one window.
pub const MAX_ITEMS: usize = 1000;
/// With no record arriving for this long, a partial window is looked up.
const IDLE_FLUSH: Duration = Duration::from_secs(1);

/// One item of the Converter's output, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A record.
    Record(ConvertRecord),
    /// A blank or comment line.
    Skipped,
}

/// What the stage did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FallbackTotals {
    /// Records looked up in PubMed.
    pub looked_up: u64,
    /// Found there (now successes with `source: "pubmed"`).
    pub found: u64,
    /// Not in PubMed either (`not_found`).
    pub not_found: u64,
    /// Records whose lookup failed upstream, by reason.
    pub failed: HashMap<Reason, u64>,
    /// HTTP requests the stage sent (ESearch and ESummary, retries included).
    pub requests: u64,
    /// The first lookup that failed after retries.
    pub failure: Option<Error>,
}

impl FallbackTotals {
    /// Moves the converted run's totals to what the stage changed.
    pub fn apply(&self, t: &mut Totals) {
        if self.looked_up == 0 {
            return;
        }
        t.converted += self.found;
        t.failed -= self.found;
        let not_in_pmc = RecordReason::NotInPmc.as_str();
        if let Some(n) = t.by_reason.get_mut(not_in_pmc) {
            *n -= self.looked_up.min(*n);
            if *n == 0 {
                t.by_reason.remove(not_in_pmc);
            }
        }
        if self.not_found > 0 {
            *t.by_reason
                .entry(RecordReason::NotFound.as_str())
                .or_default() += self.not_found;
        }
        for (reason, n) in &self.failed {
            *t.by_reason.entry(reason.as_str()).or_default() += n;
        }
        t.requests += self.requests;
        if t.first_chunk_failure.is_none() {
            t.first_chunk_failure = self.failure.clone();
        }
    }
}

/// The canonical ID of a record the stage looks up: a `not_in_pmc` PMID or
/// DOI (a PMCID the Converter does not know is not in PMC by definition).
fn candidate(r: &ConvertRecord, from: Option<IdType>) -> Option<Canonical> {
    if r.error.as_ref()?.reason != RecordReason::NotInPmc {
        return None;
    }
    let raw = r.requested.trim_matches(crate::core::text::is_white_space);
    let c = match from {
        Some(t) => ids::validate(t, raw).ok()?,
        None => ids::detect(raw).ok()?,
    };
    // A quote cannot be searched inside a quoted phrase.
    (c.idtype == IdType::Pmid || (c.idtype == IdType::Doi && !c.sent.contains('"'))).then_some(c)
}

fn not_found(r: &mut ConvertRecord, message: String) {
    r.error = Some(RecordError {
        reason: RecordReason::NotFound,
        message,
        words: None,
    });
}

fn failed(r: &mut ConvertRecord, e: &Error) {
    r.error = Some(RecordError {
        reason: RecordReason::Request(e.reason),
        message: format!("not in PMC; looking it up in PubMed failed: {}", e.message),
        words: None,
    });
}

fn found(r: &mut ConvertRecord, s: &Summary) {
    r.pmid = Some(s.pmid.clone());
    r.doi = s.doi.clone();
    r.pmcid = None;
    r.error = None;
    r.source = Some(Source::Pubmed);
}

/// The PMIDs ESearch finds for each distinct DOI among `cands`, keyed by
/// the lower-cased DOI: [`DOI_BATCH`] DOIs OR-ed per ESearch
/// (`"10.1/a"[doi] OR …`), every DOI of a failed search getting its error.
async fn doi_searches(
    client: &Client,
    cands: &[(usize, Canonical)],
) -> HashMap<String, Result<Vec<String>, Error>> {
    let mut dois: Vec<String> = Vec::new();
    for (_, c) in cands {
        if c.idtype == IdType::Doi && !dois.contains(&c.key) {
            dois.push(c.key.clone());
        }
    }
    let mut doi_hits = HashMap::new();
    for batch in dois.chunks(DOI_BATCH) {
        let term = batch
            .iter()
            .map(|d| format!("\"{d}\"[doi]"))
            .collect::<Vec<_>>()
            .join(" OR ");
        let p = EsearchParams {
            term,
            retmax: (batch.len() * 10) as u32,
            ..Default::default()
        };
        let answer = client.esearch(Db::Pubmed, &p).await.map(|a| a.ids);
        for d in batch {
            doi_hits.insert(d.clone(), answer.clone());
        }
    }
    doi_hits
}

/// Looks up, in PubMed, every `not_in_pmc` PMID and DOI among `records`
/// and rewrites those records in place. `from` is the run's `--from`.
pub async fn resolve(
    client: &Client,
    from: Option<IdType>,
    records: &mut [ConvertRecord],
) -> FallbackTotals {
    let sent_before = client.requests_sent();
    let mut totals = FallbackTotals::default();
    let cands: Vec<(usize, Canonical)> = records
        .iter()
        .enumerate()
        .filter_map(|(i, r)| candidate(r, from).map(|c| (i, c)))
        .collect();
    if cands.is_empty() {
        return totals;
    }
    totals.looked_up = cands.len() as u64;
    let mut outcome: HashMap<usize, Result<Option<Summary>, Error>> = HashMap::new();
    let doi_hits = doi_searches(client, &cands).await;
    // One ESummary for the PMIDs and every PMID the DOIs found.
    let mut wanted: Vec<String> = Vec::new();
    let push = |p: &String, w: &mut Vec<String>| {
        if !w.contains(p) {
            w.push(p.clone());
        }
    };
    for (_, c) in &cands {
        match c.idtype {
            IdType::Pmid => push(&c.sent, &mut wanted),
            _ => {
                if let Some(Ok(hits)) = doi_hits.get(&c.key) {
                    for h in hits {
                        push(h, &mut wanted);
                    }
                }
            }
        }
    }
    let summaries = if wanted.is_empty() {
        Ok(HashMap::new())
    } else {
        search::summaries(client, &wanted)
            .await
            .map(|(s, _missing)| {
                s.into_iter()
                    .map(|s| (s.pmid.clone(), s))
                    .collect::<HashMap<String, Summary>>()
            })
    };
    for (i, c) in &cands {
        let result = match (&summaries, c.idtype) {
            (Err(e), _) => Err(e.clone()),
            (Ok(by_pmid), IdType::Pmid) => Ok(by_pmid.get(&c.sent).cloned()),
            (Ok(by_pmid), _) => match doi_hits.get(&c.key) {
                Some(Err(e)) => Err(e.clone()),
                Some(Ok(hits)) => Ok(hits
                    .iter()
                    .filter_map(|h| by_pmid.get(h))
                    .find(|s| {
                        s.doi
                            .as_deref()
                            .is_some_and(|d| d.eq_ignore_ascii_case(&c.sent))
                    })
                    .cloned()),
                None => Ok(None),
            },
        };
        outcome.insert(*i, result);
    }
    for (i, c) in &cands {
        let r = &mut records[*i];
        match &outcome[i] {
            Ok(Some(s)) => {
                found(r, s);
                totals.found += 1;
            }
            Ok(None) => {
                let what = match c.idtype {
                    IdType::Pmid => format!("PubMed has no record of PMID {}", c.sent),
                    _ => format!("PubMed has no article with DOI {}", c.sent),
                };
                not_found(r, format!("not in PMC, and {what}"));
                totals.not_found += 1;
            }
            Err(e) => {
                failed(r, e);
                *totals.failed.entry(e.reason).or_default() += 1;
                totals.failure.get_or_insert_with(|| e.clone());
            }
        }
    }
    totals.requests = client.requests_sent() - sent_before;
    totals
}

fn merge(into: &mut FallbackTotals, w: FallbackTotals) {
    into.looked_up += w.looked_up;
    into.found += w.found;
    into.not_found += w.not_found;
    into.requests += w.requests;
    for (k, v) in w.failed {
        *into.failed.entry(k).or_default() += v;
    }
    if into.failure.is_none() {
        into.failure = w.failure;
    }
}

async fn flush<F>(
    client: &Client,
    from: Option<IdType>,
    window: &mut Vec<Item>,
    totals: &mut FallbackTotals,
    sink: &mut F,
) -> io::Result<()>
where
    F: FnMut(&Item) -> io::Result<()>,
{
    let mut records: Vec<ConvertRecord> = window
        .iter()
        .filter_map(|i| match i {
            Item::Record(r) => Some(r.clone()),
            Item::Skipped => None,
        })
        .collect();
    merge(totals, resolve(client, from, &mut records).await);
    let mut records = records.into_iter();
    for item in window.drain(..) {
        let item = match item {
            Item::Record(_) => Item::Record(records.next().expect("one record per record item")),
            Item::Skipped => Item::Skipped,
        };
        sink(&item)?;
    }
    Ok(())
}

/// Runs the stage over the Converter's items as they arrive, handing each
/// item to `sink` in the same order, after its window was looked up. A
/// window closes at [`WINDOW`] candidates, [`MAX_ITEMS`] items, after 1 s
/// without a new item, or at the end.
///
/// Errors: only `sink`'s; a failed lookup is the record's error.
pub async fn fallback_stream<S, F>(
    client: &Client,
    from: Option<IdType>,
    items: S,
    sink: &mut F,
) -> io::Result<FallbackTotals>
where
    S: Stream<Item = Item> + Unpin,
    F: FnMut(&Item) -> io::Result<()>,
{
    let mut items = items;
    let mut totals = FallbackTotals::default();
    let mut window: Vec<Item> = Vec::new();
    let mut pending = 0usize;
    loop {
        let next = if window.is_empty() {
            items.next().await
        } else {
            match tokio::time::timeout(IDLE_FLUSH, items.next()).await {
                Ok(n) => n,
                Err(_) => {
                    flush(client, from, &mut window, &mut totals, sink).await?;
                    pending = 0;
                    continue;
                }
            }
        };
        let Some(item) = next else { break };
        if let Item::Record(r) = &item
            && candidate(r, from).is_some()
        {
            pending += 1;
        }
        window.push(item);
        if pending >= WINDOW || window.len() >= MAX_ITEMS {
            flush(client, from, &mut window, &mut totals, sink).await?;
            pending = 0;
        }
    }
    flush(client, from, &mut window, &mut totals, sink).await?;
    Ok(totals)
}

/// Input lines let into the Converter stage ahead of what this stage has
/// written: bounds the memory between the two stages.
const AHEAD: usize = 2 * MAX_ITEMS;

/// `convert` with the fallback stage after it: the Converter's engine
/// ([`convert::convert_stream`]) feeds this stage, which hands every item to
/// `sink` in input order. At most `AHEAD` input lines are between the two
/// stages, so memory stays flat however long the input. The totals are the
/// run's after the stage (records found in PubMed count as converted; its
/// requests are included).
pub async fn convert_with_fallback<S, F>(
    client: &Client,
    input: S,
    from: Option<IdType>,
    sink: &mut F,
) -> Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(&Item) -> io::Result<()>,
{
    let gate = tokio::sync::Semaphore::new(AHEAD);
    let gated = input.then(|line| {
        let gate = &gate;
        async move {
            if let Ok(p) = gate.acquire().await {
                p.forget();
            }
            line
        }
    });
    let gated = Box::pin(gated);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Item>();
    let producer = async move {
        let mut to_stage = move |o: Output<'_>| -> io::Result<()> {
            let item = match o {
                Output::Record(r) => Item::Record(r.clone()),
                Output::Skipped => Item::Skipped,
                Output::Flush => return Ok(()),
            };
            tx.send(item).map_err(|_| {
                io::Error::new(io::ErrorKind::BrokenPipe, "the fallback stage stopped")
            })
        };
        convert::convert_stream(client, gated, from, &mut to_stage).await
    };
    let items = Box::pin(futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|i| (i, rx))
    }));
    let mut release = |item: &Item| {
        gate.add_permits(1);
        sink(item)
    };
    let consumer = fallback_stream(client, from, items, &mut release);
    let sent_before = client.requests_sent();
    let (converted, stage) = tokio::join!(producer, consumer);
    let stage = stage.map_err(Failure::Output)?;
    let mut totals = converted?;
    stage.apply(&mut totals);
    // Both stages ran at once: count the run's requests as a whole.
    totals.requests = client.requests_sent() - sent_before;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(requested: &str, reason: Option<RecordReason>) -> ConvertRecord {
        ConvertRecord {
            requested: requested.into(),
            pmid: None,
            pmcid: None,
            doi: None,
            error: reason.map(|r| RecordError {
                reason: r,
                message: String::new(),
                words: None,
            }),
            source: None,
        }
    }

    #[test]
    fn only_pmids_and_dois_not_in_pmc_are_looked_up() {
        assert!(candidate(&rec("14", Some(RecordReason::NotInPmc)), None).is_some());
        assert!(candidate(&rec(" 10.1/X ", Some(RecordReason::NotInPmc)), None).is_some());
        assert!(candidate(&rec("PMC14", Some(RecordReason::NotInPmc)), None).is_none());
        assert!(
            candidate(
                &rec("14", Some(RecordReason::Request(Reason::NcbiUnreachable))),
                None
            )
            .is_none()
        );
        assert!(candidate(&rec("14", None), None).is_none());
        assert!(candidate(&rec("10.1/\"x\"", Some(RecordReason::NotInPmc)), None).is_none());
        assert!(
            candidate(
                &rec("14", Some(RecordReason::NotInPmc)),
                Some(IdType::Pmcid)
            )
            .is_none()
        );
    }

    #[test]
    fn totals_move_from_not_in_pmc() {
        let mut t = Totals {
            submitted: 4,
            converted: 1,
            failed: 3,
            ..Default::default()
        };
        t.by_reason.insert("not_in_pmc", 3);
        let f = FallbackTotals {
            looked_up: 3,
            found: 1,
            not_found: 1,
            failed: HashMap::from([(Reason::NcbiUnreachable, 1)]),
            requests: 2,
            failure: Some(Error::new(Reason::NcbiUnreachable, "x")),
        };
        f.apply(&mut t);
        assert_eq!((t.converted, t.failed), (2, 2));
        assert_eq!(t.by_reason.get("not_in_pmc"), None);
        assert_eq!(t.by_reason["not_found"], 1);
        assert_eq!(t.by_reason["ncbi_unreachable"], 1);
        assert_eq!(t.requests, 2);
        assert!(t.first_chunk_failure.is_some());
    }
}
