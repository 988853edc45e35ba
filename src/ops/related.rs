//! `related` / `pubmed_find_related`: PubMed's similar articles, citing
//! articles and references through ELink (docs/related.md). One record per
//! input line, in input order, under the caller's own spelling; inputs of
//! any size stream through in chunks of [`CHUNK`] PMIDs, at most
//! `max_in_flight` chunks outstanding, with bounded memory.
//!
//! ELink answers an unknown PMID like one without links (an empty or
//! missing LinkSet), so every input ELink gives no list is looked up in
//! ESummary — in the same request as the summaries, when those are asked
//! for — before it is reported as "no links"; one ESummary does not know is
//! a `not_found` record.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::FuturesOrdered;
use futures::{Stream, StreamExt};
use serde::Serialize;

use super::convert::{InputLine, RecordError, RecordReason};
use super::search::{self, Detail, Summary};
pub use crate::core::ids::check_pmid;
use crate::error::{Error, Exit, Failure, Reason, Result};
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
/// Input lines (blank and comment lines included) held in one chunk.
const MAX_SLOTS: usize = 4 * CHUNK;
/// With input idle this long, a partial chunk is sent rather than held.
const IDLE_FLUSH: Duration = Duration::from_millis(250);
/// A partial chunk is sent at the latest this long after its first line.
const MAX_CHUNK_AGE: Duration = Duration::from_secs(1);

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

/// The record of one input line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RelatedRecord {
    /// The input as the caller wrote it (trimmed).
    pub requested: String,
    /// The PMID looked up (leading zeros dropped); `None` when malformed.
    pub pmid: Option<String>,
    /// Which links.
    pub kind: LinkKind,
    /// How many linked PMIDs NCBI lists (before `retmax`).
    pub total: usize,
    /// The linked articles, in NCBI's order, at most `retmax`.
    pub linked: Vec<Linked>,
    /// Absent on success (an input without links succeeds with `total` 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<RecordError>,
}

impl RelatedRecord {
    fn failed(
        requested: &str,
        pmid: Option<&str>,
        kind: LinkKind,
        reason: RecordReason,
        message: String,
    ) -> Self {
        RelatedRecord {
            requested: requested.to_string(),
            pmid: pmid.map(str::to_string),
            kind,
            total: 0,
            linked: Vec::new(),
            error: Some(RecordError {
                reason,
                message,
                words: None,
            }),
        }
    }
}

/// What the engine hands out, in input order.
#[derive(Debug)]
pub enum Output<'a> {
    /// The record of an input line.
    Record(&'a RelatedRecord),
    /// A blank or comment line (file input).
    Skipped,
    /// The engine is about to wait: a good moment to flush.
    Flush,
}

/// Counts for the summary line, the JSON totals and the exit status.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Totals {
    /// Input lines with an ID (records).
    pub submitted: u64,
    /// Records with at least one linked PMID.
    pub with_links: u64,
    /// Records of PMIDs PubMed knows that have no links of this kind.
    pub without_links: u64,
    /// Records with an error.
    pub failed: u64,
    /// Linked PMIDs listed, all records together.
    pub linked: u64,
    /// Failed records by reason.
    pub by_reason: BTreeMap<&'static str, u64>,
    /// HTTP requests sent (ELink and ESummary, retries included).
    pub requests: u64,
    /// The first chunk (in input order) that failed after retries.
    pub first_chunk_failure: Option<Error>,
}

impl Totals {
    /// Records without error.
    pub fn succeeded(&self) -> u64 {
        self.with_links + self.without_links
    }

    /// The exit status (docs/related.md): the first failing chunk's;
    /// else "not found" when every input failed on its own (unknown or
    /// malformed); else success.
    pub fn exit(&self) -> Exit {
        match &self.first_chunk_failure {
            Some(e) => e.reason.exit(),
            None if self.submitted > 0 && self.succeeded() == 0 => Exit::NotFound,
            None => Exit::Success,
        }
    }

    fn add(&mut self, r: &RelatedRecord) {
        self.submitted += 1;
        match &r.error {
            Some(e) => {
                self.failed += 1;
                *self.by_reason.entry(e.reason.as_str()).or_default() += 1;
            }
            None if r.total == 0 => self.without_links += 1,
            None => self.with_links += 1,
        }
        self.linked += r.linked.len() as u64;
    }
}

enum Slot {
    Skip,
    Malformed { requested: String, message: String },
    Query { requested: String, pmid: String },
}

#[derive(Default)]
struct Chunk {
    slots: Vec<Slot>,
    pmids: Vec<String>,
    seen: HashSet<String>,
    opened: Option<tokio::time::Instant>,
}

impl Chunk {
    fn add(&mut self, line: InputLine) {
        self.opened.get_or_insert_with(tokio::time::Instant::now);
        let slot = match line {
            InputLine::Skip => Slot::Skip,
            InputLine::Undecodable(shown) => Slot::Malformed {
                requested: shown,
                message: "the line is not valid UTF-8".into(),
            },
            InputLine::Id(raw) => match check_pmid(&raw) {
                Err(e) => Slot::Malformed {
                    requested: raw,
                    message: e.message,
                },
                Ok(pmid) => {
                    if self.seen.insert(pmid.clone()) {
                        self.pmids.push(pmid.clone());
                    }
                    Slot::Query {
                        requested: raw,
                        pmid,
                    }
                }
            },
        };
        self.slots.push(slot);
    }

    fn full(&self) -> bool {
        self.pmids.len() >= CHUNK || self.slots.len() >= MAX_SLOTS
    }
}

/// What became of one PMID of a chunk.
#[derive(Debug, Clone)]
enum Answer {
    Found { total: usize, linked: Vec<Linked> },
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
                Answer::Found { total, linked }
            }
            InputLinks::Nothing => {
                to_check.push(pmid.clone());
                Answer::Found {
                    total: 0,
                    linked: Vec::new(),
                }
            }
            InputLinks::Error(text) => {
                Answer::NotFound(format!("PubMed does not know PMID {pmid} (ELink: {text})"))
            }
        };
        answers.insert(pmid.clone(), a);
    }
    (answers, to_check)
}

/// Answers for a chunk's distinct PMIDs, and the error that failed part or
/// all of it (for the exit status).
async fn answer(
    client: &Client,
    req: &RelatedRequest,
    pmids: &[String],
) -> (HashMap<String, Answer>, Option<Error>) {
    let all_failed = |e: &Error| {
        pmids
            .iter()
            .map(|p| (p.clone(), Answer::Failed(e.clone())))
            .collect()
    };
    let lists = match fetch_links(client, req.kind, pmids).await {
        Ok(l) => l,
        Err(e) => return (all_failed(&e), Some(e)),
    };
    let (mut answers, to_check) = link_answers(req, pmids, lists);
    // One ESummary call checks the PMIDs without links and, for brief/full,
    // summarizes every linked PMID.
    let mut wanted: Vec<String> = to_check.clone();
    if req.detail != Detail::Ids {
        let mut seen: HashSet<String> = wanted.iter().cloned().collect();
        for p in pmids {
            if let Some(Answer::Found { linked, .. }) = answers.get(p) {
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
        return (answers, None);
    }
    let (summaries, missing) = match search::summaries(client, &wanted).await {
        Ok(s) => s,
        Err(e) => {
            for (pmid, a) in answers.iter_mut() {
                let needed = to_check.contains(pmid)
                    || (req.detail != Detail::Ids
                        && matches!(a, Answer::Found { linked, .. } if !linked.is_empty()));
                if needed {
                    *a = Answer::Failed(e.clone());
                }
            }
            return (answers, Some(e));
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
            if let Answer::Found { linked, .. } = a {
                for l in linked {
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
    (answers, None)
}

enum Item {
    Skip,
    Record(RelatedRecord),
}

async fn run_chunk(
    client: &Client,
    req: RelatedRequest,
    chunk: Chunk,
) -> (Vec<Item>, Option<Error>) {
    let (answers, failure) = if chunk.pmids.is_empty() {
        (HashMap::new(), None)
    } else {
        answer(client, &req, &chunk.pmids).await
    };
    let items = chunk
        .slots
        .into_iter()
        .map(|slot| match slot {
            Slot::Skip => Item::Skip,
            Slot::Malformed { requested, message } => Item::Record(RelatedRecord::failed(
                &requested,
                None,
                req.kind,
                RecordReason::MalformedId,
                message,
            )),
            Slot::Query { requested, pmid } => Item::Record(match answers.get(&pmid) {
                Some(Answer::Found { total, linked }) => RelatedRecord {
                    requested,
                    pmid: Some(pmid),
                    kind: req.kind,
                    total: *total,
                    linked: linked.clone(),
                    error: None,
                },
                Some(Answer::NotFound(message)) => RelatedRecord::failed(
                    &requested,
                    Some(&pmid),
                    req.kind,
                    RecordReason::NotFound,
                    message.clone(),
                ),
                Some(Answer::Failed(e)) => RelatedRecord::failed(
                    &requested,
                    Some(&pmid),
                    req.kind,
                    RecordReason::Request(e.reason),
                    e.message.clone(),
                ),
                None => RelatedRecord::failed(
                    &requested,
                    Some(&pmid),
                    req.kind,
                    RecordReason::Request(Reason::NcbiInvalidResponse),
                    "ELink gave no answer for this PMID".into(),
                ),
            }),
        })
        .collect();
    (items, failure)
}

/// Looks up the links of a stream of input lines, handing each record to
/// `sink` in input order as soon as its chunk is answered. Malformed lines
/// become `malformed_id` records; a chunk that fails after retries gives
/// each of its inputs an error record with the chunk's reason, and the run
/// goes on.
pub async fn related_stream<S, F>(
    client: &Client,
    input: S,
    req: &RelatedRequest,
    sink: &mut F,
) -> Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(Output<'_>) -> io::Result<()>,
{
    let mut input = input;
    let sent_before = client.requests_sent();
    let limit = client.settings().policy.max_in_flight.max(1);
    let mut running = FuturesOrdered::new();
    let mut open = Chunk::default();
    let mut totals = Totals::default();
    let mut eof = false;
    loop {
        let send_now = !open.slots.is_empty() && (eof || open.full());
        if send_now && running.len() < limit {
            running.push_back(run_chunk(client, *req, std::mem::take(&mut open)));
        }
        if eof && open.slots.is_empty() && running.is_empty() {
            break;
        }
        let can_read = !eof && !open.full();
        let partial = can_read && !open.slots.is_empty() && running.len() < limit;
        let too_old = open
            .opened
            .map_or_else(tokio::time::Instant::now, |t| t + MAX_CHUNK_AGE);
        tokio::select! {
            line = input.next(), if can_read => match line {
                None => eof = true,
                Some(Err(e)) => {
                    return Err(Error::new(Reason::InvalidArgument, e.to_string()).into());
                }
                Some(Ok(l)) => open.add(l),
            },
            Some((items, failure)) = running.next(), if !running.is_empty() => {
                if let Some(e) = failure {
                    totals.first_chunk_failure.get_or_insert(e);
                }
                for item in items {
                    match item {
                        Item::Skip => sink(Output::Skipped).map_err(Failure::Output)?,
                        Item::Record(r) => {
                            totals.add(&r);
                            sink(Output::Record(&r)).map_err(Failure::Output)?;
                        }
                    }
                }
                sink(Output::Flush).map_err(Failure::Output)?;
            },
            _ = tokio::time::sleep(IDLE_FLUSH), if partial => {
                running.push_back(run_chunk(client, *req, std::mem::take(&mut open)));
            },
            _ = tokio::time::sleep_until(too_old), if partial => {
                running.push_back(run_chunk(client, *req, std::mem::take(&mut open)));
            },
        }
    }
    totals.requests = client.requests_sent() - sent_before;
    Ok(totals)
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
    for p in pmids {
        check_pmid(p)?;
    }
    let lines = super::convert::id_lines(pmids);
    let mut records = Vec::with_capacity(pmids.len());
    let mut sink = |o: Output<'_>| {
        if let Output::Record(r) = o {
            records.push(r.clone());
        }
        Ok(())
    };
    let totals = related_stream(client, lines, req, &mut sink)
        .await
        .map_err(Failure::into_op_error)?;
    Ok((records, totals))
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
        t.without_links = 1;
        assert_eq!(t.exit().code(), 0);
        t.first_chunk_failure = Some(Error::new(Reason::NcbiRateLimited, "x"));
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
