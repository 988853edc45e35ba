//! `related` / `pubmed_find_related`: PubMed's similar articles, citing
//! articles and references through ELink (docs/related.md). One record per
//! input line, in input order, under the caller's own spelling; inputs of
//! any size stream through the batch engine ([`super::batch`]) in chunks of
//! [`CHUNK`] PMIDs, at most `max_in_flight` chunks outstanding, with
//! bounded memory.
//!
//! ELink answers an unknown PMID like one without links (an empty or
//! missing LinkSet), so every input ELink gives no list is looked up in
//! ESummary — in the same request as the summaries, when those are asked
//! for — before it is reported as "no links"; one ESummary does not know is
//! a `not_found` record.

use std::collections::{HashMap, HashSet};
use std::io;

use futures::Stream;
use futures::future::BoxFuture;
use serde::Serialize;

use super::batch::{self, Admit, ChunkPolicy, Failed, InputLine, Op, Outcome, Output};
use super::record::{RecordError, RecordReason};
use super::search::{self, Detail, Summary};
use crate::cache::Kind as CacheKind;
pub use crate::core::ids::check_pmid;
use crate::error::{Error, Failure, Reason, Result};
use crate::ncbi::Client;
pub use crate::ncbi::elink::LinkKind;
use crate::ncbi::elink::{ElinkChunk, InputLinks, Link};

/// Inputs per ELink request. 200 repeated `id` parameters (~2,600 encoded
/// characters for 8-digit PMIDs) go out as one POST; NCBI advises POST from
/// about 200 IDs and refuses ELink work on more than 1,000. A chunk's answer
/// stays far below the client's body cap (a similar-articles list is ~100–300
/// links of ~50 bytes per input), and a chunk that fails after retries costs
/// at most 200 inputs. See docs/related.md.
pub const CHUNK: usize = 200;

/// What to look up for every input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RelatedRequest {
    /// Which links.
    pub kind: LinkKind,
    /// Keep at most this many linked PMIDs per input (`--retmax`,
    /// `maxResults`); `None` keeps every one NCBI returns.
    pub retmax: Option<usize>,
    /// `Ids`: PMIDs only; `Brief`/`Full`: a summary of every linked PMID
    /// through the same ESummary path as `search`.
    pub detail: Detail,
}

/// One linked article.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Linked {
    /// Its PMID.
    pub pmid: String,
    /// 1-based position in NCBI's list (the input itself and repeats left out).
    pub rank: usize,
    /// ELink's `<Score>`, when NCBI sent one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// Its ESummary record (`detail` brief or full).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    /// ESummary's text when it has no record for this PMID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

/// The links of one input PMID PubMed knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Links {
    /// How many linked PMIDs NCBI lists (before `retmax`); 0 for an input
    /// without links of this kind.
    pub total: usize,
    /// The linked articles, in NCBI's order, at most `retmax`.
    pub linked: Vec<Linked>,
}

/// The record of one input line: its links, or the error in their place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelatedRecord {
    /// The input as the caller wrote it (trimmed).
    pub requested: String,
    /// The PMID looked up (leading zeros dropped); `None` when malformed.
    pub pmid: Option<String>,
    /// Which links.
    pub kind: LinkKind,
    /// The links (an input without links succeeds with `total` 0), or why
    /// there are none.
    pub outcome: std::result::Result<Links, RecordError>,
}

impl RelatedRecord {
    fn failed(requested: &str, pmid: Option<&str>, kind: LinkKind, error: RecordError) -> Self {
        RelatedRecord {
            requested: requested.to_string(),
            pmid: pmid.map(str::to_string),
            kind,
            outcome: Err(error),
        }
    }

    /// How many linked PMIDs NCBI lists; 0 for an error.
    pub fn total(&self) -> usize {
        self.outcome.as_ref().map_or(0, |l| l.total)
    }

    /// The linked articles kept; none for an error.
    pub fn linked(&self) -> &[Linked] {
        self.outcome.as_ref().map_or(&[], |l| &l.linked)
    }
}

impl Outcome for RelatedRecord {
    fn failure(&self) -> Option<Failed<'_>> {
        self.outcome.as_ref().err().map(RecordError::failed)
    }
}

/// What `related` counts besides the batch totals.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LinkCounts {
    /// Records of PMIDs PubMed knows that have no links of this kind.
    pub without_links: u64,
    /// Linked PMIDs listed, all records together.
    pub linked: u64,
}

/// Counts for the summary line, the JSON totals and the exit status.
pub type Totals = batch::Totals<LinkCounts>;

impl Totals {
    /// Records with at least one linked PMID.
    pub fn with_links(&self) -> u64 {
        self.succeeded - self.counts.without_links
    }
}

/// What became of one PMID of a chunk.
#[derive(Debug, Clone)]
enum Answer {
    Found(Links),
    NotFound(String),
    Failed(Error),
}

/// ELink for `pmids`. A refusal naming its UIDs (`Invalid uid 5 at
/// position 1`) gives those PMIDs the error and sends the others again
/// without them; one naming a UID not sent contradicts the request
/// (`ncbi_invalid_response`). A refusal that names no input splits the
/// list in two until each refused PMID stands alone (one bad PMID never
/// costs the others).
fn fetch_links<'a>(
    client: &'a Client,
    kind: LinkKind,
    pmids: &'a [String],
) -> BoxFuture<'a, Result<Vec<InputLinks>>> {
    Box::pin(async move {
        match client.elink(kind, pmids).await? {
            ElinkChunk::Inputs(v) => Ok(v),
            ElinkChunk::PerIdError(text) if !crate::ncbi::elink::named_uids(&text).is_empty() => {
                let named = crate::ncbi::elink::named_uids(&text);
                if let Some(stray) = named.iter().find(|u| !pmids.contains(u)) {
                    return Err(Error::new(
                        Reason::NcbiInvalidResponse,
                        format!(
                            "ELink refused uid {stray}, which was not sent (it answered: {text})"
                        ),
                    ));
                }
                let rest: Vec<String> = pmids
                    .iter()
                    .filter(|p| !named.contains(p))
                    .cloned()
                    .collect();
                let mut others = if rest.is_empty() {
                    Vec::new()
                } else {
                    fetch_links(client, kind, &rest).await?
                }
                .into_iter();
                Ok(pmids
                    .iter()
                    .map(|p| {
                        if named.contains(p) {
                            InputLinks::Error(text.clone())
                        } else {
                            others.next().unwrap_or(InputLinks::Nothing)
                        }
                    })
                    .collect())
            }
            ElinkChunk::PerIdError(text) if pmids.len() == 1 => Ok(vec![InputLinks::Error(text)]),
            ElinkChunk::PerIdError(_) => {
                let (a, b) = pmids.split_at(pmids.len() / 2);
                let mut v = fetch_links(client, kind, a).await?;
                v.extend(fetch_links(client, kind, b).await?);
                Ok(v)
            }
        }
    })
}

/// NCBI's list for `source`, as the record shows it: the input itself left
/// out of its similar articles, each PMID once, cut at `retmax`.
fn shape_links(source: &str, links: Vec<Link>, req: &RelatedRequest) -> (usize, Vec<Linked>) {
    let mut seen = HashSet::new();
    let kept: Vec<Link> = links
        .into_iter()
        .filter(|l| !(req.kind == LinkKind::Similar && l.pmid == source))
        .filter(|l| seen.insert(l.pmid.clone()))
        .collect();
    let total = kept.len();
    let linked = kept
        .into_iter()
        .take(req.retmax.unwrap_or(usize::MAX))
        .enumerate()
        .map(|(i, l)| Linked {
            pmid: l.pmid,
            rank: i + 1,
            score: l.score,
            summary: None,
            missing: None,
        })
        .collect();
    (total, linked)
}

/// The cache key of one PMID's list: `pubmed_pubmed:23193287`.
fn cache_key(kind: LinkKind, pmid: &str) -> String {
    format!("{}:{pmid}", kind.linkname())
}

/// Stores every non-empty list of a whole ELink answer, one entry per
/// input PMID, as NCBI sent it (`[["PMID", score|null], …]`). An empty
/// list is not kept: ELink answers an unknown PMID the same way, and
/// tomorrow the PMID may have links (docs/cache.md).
fn store(cache: &crate::cache::Cache, kind: LinkKind, pmids: &[String], lists: &[InputLinks]) {
    let bodies: Vec<(String, String)> = pmids
        .iter()
        .zip(lists)
        .filter_map(|(pmid, list)| match list {
            InputLinks::Links(links) if !links.is_empty() => {
                let v: Vec<serde_json::Value> = links
                    .iter()
                    .map(|l| serde_json::json!([l.pmid, l.score]))
                    .collect();
                Some((
                    cache_key(kind, pmid),
                    serde_json::Value::from(v).to_string(),
                ))
            }
            _ => None,
        })
        .collect();
    cache.put(
        CacheKind::Elink,
        bodies.iter().map(|(k, b)| (k.as_str(), b.as_str(), None)),
    );
}

/// A list stored by [`store`]; `None` for an entry that does not read.
fn links_from_cache(body: &str) -> Option<Vec<Link>> {
    let v: Vec<(String, Option<u64>)> = serde_json::from_str(body).ok()?;
    let links: Vec<Link> = v
        .into_iter()
        .map(|(pmid, score)| Link { pmid, score })
        .collect();
    (!links.is_empty()).then_some(links)
}

/// What ELink's lists say for each PMID, and the PMIDs without links,
/// which ESummary must tell apart from unknown ones (docs/related.md
/// "Inputs without links and unknown PMIDs").
fn link_answers(
    req: &RelatedRequest,
    pmids: &[String],
    lists: Vec<InputLinks>,
) -> (HashMap<String, Answer>, Vec<String>) {
    let mut answers: HashMap<String, Answer> = HashMap::new();
    let mut to_check: Vec<String> = Vec::new();
    for (pmid, list) in pmids.iter().zip(lists) {
        let a = match list {
            InputLinks::Links(links) => {
                let (total, linked) = shape_links(pmid, links, req);
                if total == 0 {
                    to_check.push(pmid.clone());
                }
                Answer::Found(Links { total, linked })
            }
            InputLinks::Nothing => {
                to_check.push(pmid.clone());
                Answer::Found(Links {
                    total: 0,
                    linked: Vec::new(),
                })
            }
            InputLinks::Error(text) => {
                Answer::NotFound(format!("PubMed does not know PMID {pmid} (ELink: {text})"))
            }
        };
        answers.insert(pmid.clone(), a);
    }
    (answers, to_check)
}

/// Answers for a chunk's distinct PMIDs; an ESummary failure is the
/// answer of the PMIDs that needed it.
///
/// Errors: ELink's failure after retries, which fails the whole chunk.
async fn answer(
    client: &Client,
    req: &RelatedRequest,
    pmids: &[String],
) -> Result<HashMap<String, Answer>> {
    let lists = fetch_links(client, req.kind, pmids).await?;
    if let Some(cache) = client.cache().filter(|c| c.mode().writes()) {
        store(cache, req.kind, pmids, &lists);
    }
    let (mut answers, to_check) = link_answers(req, pmids, lists);
    // One ESummary call checks the PMIDs without links and, for brief/full,
    // summarizes every linked PMID.
    let mut wanted: Vec<String> = to_check.clone();
    if req.detail != Detail::Ids {
        let mut seen: HashSet<String> = wanted.iter().cloned().collect();
        for p in pmids {
            if let Some(Answer::Found(Links { linked, .. })) = answers.get(p) {
                wanted.extend(
                    linked
                        .iter()
                        .filter(|l| seen.insert(l.pmid.clone()))
                        .map(|l| l.pmid.clone()),
                );
            }
        }
    }
    if wanted.is_empty() {
        return Ok(answers);
    }
    let (summaries, missing) = match search::summaries(client, &wanted).await {
        Ok(s) => s,
        Err(e) => {
            for (pmid, a) in answers.iter_mut() {
                let needed = to_check.contains(pmid)
                    || (req.detail != Detail::Ids
                        && matches!(a, Answer::Found(l) if !l.linked.is_empty()));
                if needed {
                    *a = Answer::Failed(e.clone());
                }
            }
            return Ok(answers);
        }
    };
    let missing: HashMap<String, String> =
        missing.into_iter().map(|m| (m.pmid, m.message)).collect();
    for p in &to_check {
        if let Some(text) = missing.get(p) {
            answers.insert(
                p.clone(),
                Answer::NotFound(format!(
                    "PubMed has no record of PMID {p} (ESummary: {text})"
                )),
            );
        }
    }
    if req.detail != Detail::Ids {
        let by_pmid: HashMap<&str, &Summary> =
            summaries.iter().map(|s| (s.pmid.as_str(), s)).collect();
        for a in answers.values_mut() {
            if let Answer::Found(links) = a {
                for l in &mut links.linked {
                    l.summary = by_pmid.get(l.pmid.as_str()).map(|s| (*s).clone());
                    if l.summary.is_none() {
                        l.missing = Some(missing.get(&l.pmid).cloned().unwrap_or_else(|| {
                            "ESummary returned no summary for this PMID".into()
                        }));
                    }
                }
            }
        }
    }
    Ok(answers)
}

/// The related operation on the batch engine: one group, chunks of
/// [`CHUNK`] PMIDs, up to the client's in-flight limit at once.
struct Related<'c> {
    client: &'c Client,
    req: RelatedRequest,
}

impl Op for Related<'_> {
    type Line = InputLine;
    type Group = ();
    type Key = String;
    type Input = String;
    type Answer = HashMap<String, Answer>;
    type Record = RelatedRecord;
    type Counts = LinkCounts;

    fn client(&self) -> &Client {
        self.client
    }

    fn policy(&self) -> ChunkPolicy {
        ChunkPolicy::simple(CHUNK, self.client.settings().policy.max_in_flight)
    }

    fn check(&self, arg: &str) -> Result<()> {
        check_pmid(arg).map(drop)
    }

    fn admit(&self, line: InputLine) -> Admit<Self> {
        let (requested, message) = match line {
            InputLine::Skip => return Admit::Skip,
            InputLine::Undecodable(shown) => (shown, "the line is not valid UTF-8".to_string()),
            InputLine::Id(raw) => match check_pmid(&raw) {
                Ok(pmid) => {
                    return Admit::Ask {
                        group: (),
                        key: pmid,
                        cost: 0,
                        input: raw,
                    };
                }
                Err(e) => (raw, e.message),
            },
        };
        let e = RecordError::new(RecordReason::MalformedId, message);
        Admit::Done(RelatedRecord::failed(&requested, None, self.req.kind, e))
    }

    /// Only `detail` ids: the summaries of linked PMIDs are not cached.
    fn cached(&self, _: (), pmid: &String, requested: &String) -> Option<(RelatedRecord, i64)> {
        if self.req.detail != Detail::Ids {
            return None;
        }
        let cache = self.client.cache()?;
        // Counted as a hit only when it decodes (else it is fetched again).
        let (links, fetched_at) = cache.get_with(
            CacheKind::Elink,
            &cache_key(self.req.kind, pmid),
            |hit| links_from_cache(&hit.body),
        )?;
        let (total, linked) = shape_links(pmid, links, &self.req);
        let record = RelatedRecord {
            requested: requested.clone(),
            pmid: Some(pmid.clone()),
            kind: self.req.kind,
            outcome: Ok(Links { total, linked }),
        };
        Some((record, fetched_at))
    }

    fn request(&self, _: (), pmids: Vec<String>) -> BoxFuture<'_, Result<Self::Answer>> {
        Box::pin(async move { answer(self.client, &self.req, &pmids).await })
    }

    fn record(
        &self,
        requested: String,
        pmid: &String,
        answer: std::result::Result<&mut Self::Answer, &Error>,
        last: bool,
    ) -> RelatedRecord {
        let kind = self.req.kind;
        let answer = match answer {
            Err(e) => Some(Answer::Failed(e.clone())),
            Ok(map) if last => map.remove(pmid),
            Ok(map) => map.get(pmid).cloned(),
        };
        let error = match answer {
            Some(Answer::Found(links)) => {
                return RelatedRecord {
                    requested,
                    pmid: Some(pmid.clone()),
                    kind,
                    outcome: Ok(links),
                };
            }
            Some(Answer::NotFound(message)) => RecordError::new(RecordReason::NotFound, message),
            Some(Answer::Failed(e)) => RecordError::request(&e),
            None => RecordError::new(
                RecordReason::Request(Reason::NcbiInvalidResponse),
                "ELink gave no answer for this PMID",
            ),
        };
        RelatedRecord::failed(&requested, Some(pmid), kind, error)
    }

    fn count(counts: &mut LinkCounts, r: &RelatedRecord) {
        if let Ok(links) = &r.outcome {
            counts.without_links += u64::from(links.total == 0);
            counts.linked += links.linked.len() as u64;
        }
    }
}

/// Looks up the links of a stream of input lines, handing each record to
/// `sink` in input order as soon as its chunk is answered. Malformed lines
/// become `malformed_id` records; a chunk that fails after retries gives
/// each of its inputs an error record with the chunk's reason, and the run
/// goes on.
///
/// Errors: a line that cannot be read is `invalid_argument`; the sink's
/// error is [`Failure::Output`].
pub async fn related_stream<S, F>(
    client: &Client,
    input: S,
    req: &RelatedRequest,
    sink: &mut F,
) -> Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(Output<'_, RelatedRecord>) -> io::Result<()>,
{
    let op = Related { client, req: *req };
    batch::run(&op, input, sink).await
}

/// Links of PMIDs given at once (CLI arguments, MCP): every one is checked
/// first, and the first malformed one fails the whole call.
///
/// Errors: `malformed_id` naming it; otherwise the records (chunk failures
/// are per-record errors, the first one is in the totals).
pub async fn related_ids(
    client: &Client,
    pmids: &[String],
    req: &RelatedRequest,
) -> Result<(Vec<RelatedRecord>, Totals)> {
    batch::collect(&Related { client, req: *req }, pmids).await
}

/// [`related_ids`], calling `progress` as each chunk is answered (MCP
/// progress notifications).
///
/// Errors: as [`related_ids`].
pub async fn related_ids_reporting(
    client: &Client,
    pmids: &[String],
    req: &RelatedRequest,
    progress: impl FnMut(batch::Progress) + Send,
) -> Result<(Vec<RelatedRecord>, Totals)> {
    batch::collect_reporting(&Related { client, req: *req }, pmids, progress).await
}

/// The note for a record without links (stderr, MCP notice).
pub fn no_links_note(r: &RelatedRecord) -> String {
    let what = match r.kind {
        LinkKind::Similar => "no similar articles",
        LinkKind::CitedBy => "no citing articles in PubMed's links (PMC-based citations)",
        LinkKind::References => "no references in PubMed's links (PMC-based citations)",
    };
    format!(
        "PMID {} has {what}",
        r.pmid.as_deref().unwrap_or(&r.requested)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(ids: &[&str]) -> Vec<Link> {
        ids.iter()
            .map(|p| Link {
                pmid: p.to_string(),
                score: None,
            })
            .collect()
    }

    #[test]
    fn self_repeats_and_retmax() {
        let req = RelatedRequest {
            kind: LinkKind::Similar,
            retmax: Some(2),
            detail: Detail::Ids,
        };
        let (total, l) = shape_links("1", links(&["1", "5", "6", "5", "7"]), &req);
        assert_eq!(total, 3);
        let got: Vec<(&str, usize)> = l.iter().map(|x| (x.pmid.as_str(), x.rank)).collect();
        assert_eq!(got, vec![("5", 1), ("6", 2)]);
        // Citations keep what NCBI says, self-citation included.
        let req = RelatedRequest {
            kind: LinkKind::CitedBy,
            ..req
        };
        assert_eq!(shape_links("1", links(&["1", "5"]), &req).0, 2);
    }

    #[test]
    fn exit_rule() {
        let mut t = Totals::default();
        assert_eq!(t.exit().code(), 0);
        t.submitted = 2;
        t.failed = 2;
        assert_eq!(t.exit().code(), 1);
        // an input without links succeeds
        t.succeeded = 1;
        t.counts.without_links = 1;
        assert_eq!(t.with_links(), 0);
        assert_eq!(t.exit().code(), 0);
        t.first_failure = Some(Error::new(Reason::NcbiRateLimited, "x"));
        assert_eq!(t.exit().code(), 75);
    }

    #[test]
    fn pmids_are_checked_like_convert() {
        assert_eq!(check_pmid("023193287").unwrap(), "23193287");
        for bad in ["PMC1", "0", "1,2", "1 2", "abc", ""] {
            assert_eq!(
                check_pmid(bad).unwrap_err().reason,
                Reason::MalformedId,
                "{bad:?}"
            );
        }
    }
}
