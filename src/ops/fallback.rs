//! `convert --fallback pubmed`: a stage after the Converter's records
//! (docs/convert-fallback.md). An ID the PMC ID Converter has no record of
//! (`not_in_pmc`) may still be in PubMed: a PMID's DOI is read from its
//! ESummary `ArticleIds` (search's summary path), a DOI's PMID from ESearch
//! `"DOI"[doi]`. Records answered that way say `source: "pubmed"`; a PMCID is
//! never filled in from PubMed (the Converter is the authority on PMC).
//!
//! The stage is a batch operation ([`super::batch`]) over the Converter's
//! records: a window of up to [`WINDOW`] lookups is one chunk. DOIs are
//! searched [`DOI_BATCH`] at a time, OR-ed in one ESearch, and the PMIDs it
//! finds are summarized in the same ESummary request as the PMIDs looked up,
//! so a window costs at most one ESearch per [`DOI_BATCH`] DOIs plus one
//! ESummary per 1,000 PMIDs, instead of one request per ID.

use std::collections::HashMap;
use std::io;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::{Stream, StreamExt};

use super::batch::{self, Admit, ChunkPolicy, InputLine, Op, Output, Sealing, Totals};
use super::convert::{self, ConvertRecord, Converted, RecordError, RecordReason, Source};
use super::search::{self, Summary};
use crate::core::choice::choice;
use crate::core::ids::{self, Canonical, IdType};
use crate::error::{Error, Failure, Result};
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
const WINDOW_IDLE: Duration = Duration::from_secs(1);

/// The canonical ID of a record the stage looks up: a `not_in_pmc` PMID or
/// DOI (a PMCID the Converter does not know is not in PMC by definition).
fn candidate(r: &ConvertRecord, from: Option<IdType>) -> Option<Canonical> {
    if r.outcome.as_ref().err()?.reason != RecordReason::NotInPmc {
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

/// What PubMed says of each looked-up ID: its summary, none, or the lookup's
/// failure.
type Lookups = HashMap<Canonical, std::result::Result<Option<Summary>, Error>>;

/// The record `r` (a `not_in_pmc` candidate `c`) after its lookup.
fn looked_up(
    mut r: ConvertRecord,
    c: &Canonical,
    found: Option<&std::result::Result<Option<Summary>, Error>>,
) -> ConvertRecord {
    r.outcome = match found {
        Some(Ok(Some(s))) => Ok(Converted {
            pmid: Some(s.pmid.clone()),
            pmcid: None,
            doi: s.doi.clone(),
            source: Source::Pubmed,
        }),
        Some(Ok(None)) | None => {
            let what = match c.idtype {
                IdType::Pmid => format!("PubMed has no record of PMID {}", c.sent),
                _ => format!("PubMed has no article with DOI {}", c.sent),
            };
            Err(RecordError::new(
                RecordReason::NotFound,
                format!("not in PMC, and {what}"),
            ))
        }
        Some(Err(e)) => Err(RecordError {
            message: format!("not in PMC; looking it up in PubMed failed: {}", e.message),
            ..RecordError::request(e)
        }),
    };
    r
}

/// The PMIDs ESearch finds for each distinct DOI among `cands`, keyed by
/// the lower-cased DOI: [`DOI_BATCH`] DOIs OR-ed per ESearch
/// (`"10.1/a"[doi] OR …`), every DOI of a failed search getting its error.
async fn doi_searches(
    client: &Client,
    cands: &[Canonical],
) -> HashMap<String, std::result::Result<Vec<String>, Error>> {
    let mut dois: Vec<String> = Vec::new();
    for c in cands {
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

/// Looks up, in PubMed, every candidate of a window: each DOI's PMIDs by
/// ESearch, then one ESummary for the PMIDs and every PMID the DOIs found.
async fn lookups(client: &Client, cands: &[Canonical]) -> Lookups {
    let doi_hits = doi_searches(client, cands).await;
    let mut wanted: Vec<String> = Vec::new();
    let push = |p: &String, w: &mut Vec<String>| {
        if !w.contains(p) {
            w.push(p.clone());
        }
    };
    for c in cands {
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
    cands
        .iter()
        .map(|c| {
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
            (c.clone(), result)
        })
        .collect()
}

/// The stage on the batch engine: its lines are the Converter's records
/// (`None` for a skipped line), its chunks windows of lookups, one at a
/// time, closed at [`WINDOW`] lookups, [`MAX_ITEMS`] items held, after
/// 1 s without a new item, or at the end.
struct Lookup<'c> {
    client: &'c Client,
    /// The run's `--from`.
    from: Option<IdType>,
}

impl Op for Lookup<'_> {
    type Line = Option<ConvertRecord>;
    type Group = ();
    type Key = Canonical;
    type Input = ConvertRecord;
    type Answer = Lookups;
    type Record = ConvertRecord;
    type Counts = ();

    fn client(&self) -> &Client {
        self.client
    }

    fn policy(&self) -> ChunkPolicy {
        ChunkPolicy {
            max_keys: WINDOW,
            max_cost: usize::MAX,
            in_flight: 1,
            max_pending: MAX_ITEMS,
            idle: WINDOW_IDLE,
            max_age: None,
            sealing: Sealing::Simple,
        }
    }

    /// The stage reads records, never IDs given at once.
    fn check(&self, _: &str) -> Result<()> {
        Ok(())
    }

    fn admit(&self, line: Option<ConvertRecord>) -> Admit<Self> {
        let Some(r) = line else {
            return Admit::Skip;
        };
        match candidate(&r, self.from) {
            Some(c) => Admit::Ask {
                group: (),
                key: c,
                cost: 0,
                input: r,
            },
            None => Admit::Done(r),
        }
    }

    fn request(&self, _: (), cands: Vec<Canonical>) -> BoxFuture<'_, Result<Lookups>> {
        Box::pin(async move { Ok(lookups(self.client, &cands).await) })
    }

    fn record(
        &self,
        r: ConvertRecord,
        c: &Canonical,
        answer: std::result::Result<&mut Lookups, &Error>,
        _last: bool,
    ) -> ConvertRecord {
        match answer {
            Ok(found) => looked_up(r, c, found.get(c)),
            Err(e) => looked_up(r, c, Some(&Err(e.clone()))),
        }
    }
}

/// Input lines let into the Converter stage ahead of what this stage has
/// written: bounds the memory between the two stages.
const AHEAD: usize = 2 * MAX_ITEMS;

/// `convert` with the fallback stage after it: the Converter's engine
/// ([`convert::convert_stream`]) feeds this stage, which hands every item to
/// `sink` in input order. At most `AHEAD` (2,000) input lines are between the two
/// stages, so memory stays flat however long the input. The totals are the
/// stage's, counted on the records written (records found in PubMed count
/// as converted), with the run's requests, and the Converter stage's first
/// failed request before the stage's own.
///
/// Errors: as [`convert::convert_stream`].
pub async fn convert_with_fallback<S, F>(
    client: &Client,
    input: S,
    from: Option<IdType>,
    sink: &mut F,
) -> std::result::Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(Output<'_, ConvertRecord>) -> io::Result<()>,
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
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Option<ConvertRecord>>();
    let producer = async move {
        let mut to_stage = move |o: Output<'_, ConvertRecord>| -> io::Result<()> {
            let item = match o {
                Output::Record(r) => Some(r.clone()),
                Output::Skipped => None,
                Output::Progress(_) | Output::Flush => return Ok(()),
            };
            tx.send(item).map_err(|_| {
                io::Error::new(io::ErrorKind::BrokenPipe, "the fallback stage stopped")
            })
        };
        convert::convert_stream(client, gated, from, &mut to_stage).await
    };
    let items = Box::pin(futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|i| (Ok(i), rx))
    }));
    let mut release = |o: Output<'_, ConvertRecord>| {
        if let Output::Record(_) | Output::Skipped = o {
            gate.add_permits(1);
        }
        sink(o)
    };
    let sent_before = client.requests_sent();
    let stage = Lookup { client, from };
    let consumer = batch::run(&stage, items, &mut release);
    let (converted, staged) = tokio::join!(producer, consumer);
    let mut totals = staged?;
    let converted = converted?;
    totals.first_failure = converted.first_failure.or(totals.first_failure);
    // Both stages ran at once: count the run's requests as a whole.
    totals.requests = client.requests_sent() - sent_before;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Reason;

    fn rec(requested: &str, reason: Option<RecordReason>) -> ConvertRecord {
        ConvertRecord {
            requested: requested.into(),
            outcome: match reason {
                Some(r) => Err(RecordError::new(r, "")),
                None => Ok(Converted {
                    pmid: None,
                    pmcid: None,
                    doi: None,
                    source: Source::Pmc,
                }),
            },
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

    /// The run's totals are counted on the records written: a lookup moves
    /// a record from `not_in_pmc` to a success, `not_found` or the failed
    /// request's reason (which is then the run's failure).
    #[test]
    fn totals_move_from_not_in_pmc() {
        let summary = Summary {
            pmid: "14".into(),
            doi: Some("10.5555/pmid.14".into()),
            ..Default::default()
        };
        let c = |raw: &str| ids::detect(raw).unwrap();
        let records = [
            rec("23193287", None),
            looked_up(
                rec("14", Some(RecordReason::NotInPmc)),
                &c("14"),
                Some(&Ok(Some(summary))),
            ),
            looked_up(
                rec("21", Some(RecordReason::NotInPmc)),
                &c("21"),
                Some(&Ok(None)),
            ),
            looked_up(
                rec("28", Some(RecordReason::NotInPmc)),
                &c("28"),
                Some(&Err(Error::new(Reason::NcbiUnreachable, "x"))),
            ),
        ];
        let mut t = Totals::<()>::default();
        for r in &records {
            t.count(r, None);
        }
        assert_eq!((t.submitted, t.succeeded, t.failed), (4, 2, 2));
        assert_eq!(t.by_reason.get("not_in_pmc"), None);
        assert_eq!(t.by_reason["not_found"], 1);
        assert_eq!(t.by_reason["ncbi_unreachable"], 1);
        assert!(t.first_failure.is_some());
        assert_eq!(records[1].get(IdType::Doi), Some("10.5555/pmid.14"));
        assert_eq!(records[1].get(IdType::Pmcid), None);
    }
}
