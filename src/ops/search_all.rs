//! `search --all`: every PMID of a query, past PubMed's window of
//! [`ESEARCH_WINDOW`] records (docs/search.md "--all"). Above that many hits
//! the query is split into PMID ranges `(QUERY) AND LO:HI[uid]`, planned
//! from where the first page's hits lie and bisected while a range holds
//! more than the window; ranges run
//! concurrently under the client's pacer and their PMIDs stream out as each
//! completes, each PMID once.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io;

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use serde::{Deserialize, Serialize};

use super::search::{self, Detail, Missing, SearchRequest, Summary, Warning, WarningKind};
use crate::core::dates::DateBound;
use crate::error::{Error, Exit, Failure, Reason, Result};
use crate::ncbi::esearch::{EsearchAnswer, EsearchParams};
use crate::ncbi::esummary::{self, EsummaryAnswer};
use crate::ncbi::halving::Part;
use crate::ncbi::limits::ESEARCH_WINDOW;
use crate::ncbi::{Client, Db};

/// [`ESEARCH_WINDOW`] as a count of hits.
const WINDOW: u64 = ESEARCH_WINDOW as u64;

/// Hits a planned range aims at, leaving room for estimation error.
pub const TARGET: u64 = 8000;
/// The upper end of the top range: above any PMID NCBI will assign soon,
/// so hits newer than the first page are never lost.
pub const TOP_BOUND: u64 = 999_999_999;
/// IDs per ESummary request; PMIDs are batched across ranges, so only the
/// run's last batch is partial.
const SUMMARY_BATCH: usize = crate::ncbi::esummary::ESUMMARY_BATCH;

/// Summary bytes (as JSON) one ESummary request is sized for: a batch holds
/// 1,000 summaries while they average under 4 KB, fewer when NCBI's are
/// richer (docs/search.md "Memory").
const SUMMARY_BYTES_PER_REQUEST: usize = 4 << 20;

/// The smallest summary batch the byte rule makes.
const MIN_SUMMARY_BATCH: usize = 50;

/// Summary bytes in flight at once, whatever their number: requests beyond
/// it wait for answers to be written.
const SUMMARY_BYTES_IN_FLIGHT: usize = 8 << 20;
/// More hits than PubMed holds (about 40 million records): an ESearch count
/// above this is not believed, so no plan of millions of ranges is made.
pub const MAX_HITS: u64 = 100_000_000;

/// PMIDs written so far; numbers are kept compactly, and PMIDs too long for
/// a `u64` (they have no digit limit) are kept as text.
#[derive(Default)]
struct Seen {
    numbers: HashSet<u64>,
    texts: HashSet<String>,
}

impl Seen {
    /// True the first time `pmid` is seen.
    fn insert(&mut self, pmid: &str) -> bool {
        match pmid.parse::<u64>() {
            Ok(n) => self.numbers.insert(n),
            Err(_) => self.texts.insert(pmid.to_string()),
        }
    }
}

/// An inclusive PMID range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PmidRange {
    /// Lowest PMID.
    pub lo: u64,
    /// Highest PMID.
    pub hi: u64,
}

impl std::fmt::Display for PmidRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.lo, self.hi)
    }
}

/// Plans ranges covering PMIDs from 1 to [`TOP_BOUND`] (or twice the newest
/// sampled PMID, if higher) for a query of `total`
/// hits whose first page is `sample`. The top range starts at the lowest
/// sampled PMID (the first page is the newest hits); below it the remaining
/// hits are assumed as dense as the sample (with a 5% margin) and split
/// into ranges of about [`TARGET`] hits; the lowest range reaches down to
/// PMID 1. Pure.
pub fn plan(total: u64, sample: &[u64]) -> Vec<PmidRange> {
    let (Some(&min), Some(&max)) = (sample.iter().min(), sample.iter().max()) else {
        return vec![PmidRange {
            lo: 1,
            hi: TOP_BOUND,
        }];
    };
    let mut ranges = vec![PmidRange {
        lo: min,
        hi: TOP_BOUND.max(max.saturating_mul(2)),
    }];
    if min <= 1 {
        ranges[0].lo = 1;
        return ranges;
    }
    let rest = total.saturating_sub(sample.len() as u64);
    let density = sample.len() as f64 / (max - min + 1) as f64;
    // 5% wider than the estimate: the lowest range, which reaches down to
    // PMID 1, then rarely has to absorb an underestimate.
    let width = ((rest as f64 / density * 1.05).ceil() as u64).clamp(1, min - 1);
    let parts = rest.div_ceil(TARGET).clamp(1, width);
    let step = width.div_ceil(parts);
    let mut hi = min - 1;
    for i in 0..parts {
        let lo = if i + 1 == parts {
            1
        } else {
            (hi + 1).saturating_sub(step).max(1)
        };
        ranges.push(PmidRange { lo, hi });
        if lo == 1 {
            break;
        }
        hi = lo - 1;
    }
    ranges
}

/// Splits a range that held more than [`ESEARCH_WINDOW`] hits, given the PMIDs its
/// request returned (the newest first): peel `[min(ids), hi]` (the window
/// it just saw) from `[lo, min(ids) - 1]`, or halve it when that would not
/// shrink it. Pure.
pub fn split(r: PmidRange, ids: &[u64]) -> Option<Vec<PmidRange>> {
    if r.lo >= r.hi {
        return None;
    }
    let seen_min = ids
        .iter()
        .copied()
        .filter(|p| (r.lo..=r.hi).contains(p))
        .min();
    if let Some(p) = seen_min
        && p > r.lo
    {
        return Some(vec![
            PmidRange { lo: p, hi: r.hi },
            PmidRange {
                lo: r.lo,
                hi: p - 1,
            },
        ]);
    }
    let top = ids
        .iter()
        .copied()
        .filter(|p| (r.lo..=r.hi).contains(p))
        .max()
        .unwrap_or(r.hi);
    let mid = r.lo + (top.max(r.lo + 1).min(r.hi) - r.lo) / 2;
    Some(vec![
        PmidRange { lo: r.lo, hi: mid },
        PmidRange {
            lo: mid + 1,
            hi: r.hi,
        },
    ])
}

/// What `search --all` reports as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// New PMIDs (never seen before in this run), in ESearch order.
    Pmids(&'a [String]),
    /// Summaries for PMIDs already announced, and those without one.
    Summaries(&'a [Summary], &'a [Missing]),
    /// PMIDs whose summaries could not be fetched.
    SummariesFailed(&'a [String], &'a Error),
    /// A range failed after retries; its PMIDs are not in the output.
    RangeFailed {
        /// The range.
        range: PmidRange,
        /// Why it failed.
        error: &'a Error,
        /// The query that fetches the range again ([`range_query`]).
        rerun: &'a str,
    },
    /// The ranges not complete changed (see [`Checkpoint`]); everything
    /// written before this event is in the output.
    Checkpoint(&'a Checkpoint),
    /// Progress: ranges done / planned, PMIDs so far / total.
    Progress {
        /// Range requests finished.
        done: usize,
        /// Range requests planned so far.
        planned: usize,
        /// Records written: PMIDs, or with summaries the PMIDs whose
        /// summary (or its failure) was written; those resumed included.
        pmids: u64,
        /// Hits of the query.
        total: u64,
    },
}

/// The run's totals.
#[derive(Debug, Default)]
pub struct AllOutcome {
    /// Hits of the query (first ESearch `Count`).
    pub total: u64,
    /// PubMed's `QueryTranslation` of the first request (`None` when
    /// resumed from a checkpoint).
    pub query_translation: Option<String>,
    /// Distinct PMIDs in the output (with those of the run resumed).
    pub written: u64,
    /// PMIDs the output held before this run (resumed).
    pub resumed: u64,
    /// Every range is complete and nothing failed: a resumed run would
    /// have nothing left to do.
    pub complete: bool,
    /// HTTP requests sent (retries included).
    pub requests: u64,
    /// Warnings (query notes, count mismatch).
    pub warnings: Vec<Warning>,
    /// The first failure (range or summaries), which decides the exit code.
    pub first_failure: Option<Error>,
    /// Summaries fetched (`--detail brief|full`).
    pub summarised: u64,
    /// PMIDs ESummary answered without a summary (per-PMID failures).
    pub unsummarised: u64,
}

impl AllOutcome {
    /// The exit status, by the rule of every batch command
    /// ([`super::batch::exit`]): the first failure's; else
    /// [`Exit::NotFound`] (1) when summaries were fetched and every PMID
    /// lacks its own (nothing found, nothing resumed); else success. The
    /// PMIDs of a resumed run count as found.
    pub fn exit(&self) -> Exit {
        super::batch::exit(
            self.first_failure.as_ref(),
            self.summarised + self.unsummarised + self.resumed,
            self.summarised + self.resumed,
        )
    }
}

/// A `--all` run checked and turned into ESearch parameters; no request
/// was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The ESearch parameters of the whole query: the first window, IDs only,
    /// no sort (ranges are by PMID).
    base: EsearchParams,
    /// The normalized user query, for [`range_query`].
    query: String,
    /// Warnings known before any request.
    warnings: Vec<Warning>,
    /// Summaries are fetched (`--detail brief|full`).
    want_summaries: bool,
}

/// Checks a request for `--all` and plans its first request: the first
/// window of the query, IDs only (summaries come in their own
/// batches), no sort and no `retstart`. The request's `detail` says whether
/// summaries are fetched.
///
/// Errors: the validation errors of [`search::prepare`].
pub fn prepare(req: &SearchRequest, today: DateBound) -> Result<Plan> {
    let prepared = search::prepare(&first_request(req), today)?;
    Ok(plan_of(req, prepared))
}

/// [`prepare`], then the MeSH check of the request's `--mesh` values as
/// one search runs it (docs/search.md "MeSH check"): a UI is searched as
/// its record's name, a value that is not a current descriptor gets its
/// `mesh_not_descriptor` warning. Returns the plan and its first request as
/// sent (what a search record says). 0 requests without `--mesh`, else the
/// check's 1–2; a failed check is a warning, never an error.
///
/// Errors: the validation errors of [`search::prepare`].
pub async fn prepare_checked(
    client: &Client,
    req: &SearchRequest,
    today: DateBound,
) -> Result<(Plan, search::Prepared)> {
    let first = first_request(req);
    let mut prepared = search::prepare(&first, today)?;
    if !first.filters.mesh_terms.is_empty() {
        prepared = search::mesh_checked(client, &first, &prepared, today)
            .await
            .1;
    }
    Ok((plan_of(req, prepared.clone()), prepared))
}

/// The first window's request: IDs only, no sort, no `retstart`.
fn first_request(req: &SearchRequest) -> SearchRequest {
    SearchRequest {
        retstart: 0,
        retmax: ESEARCH_WINDOW,
        sort: None,
        detail: Detail::Ids,
        ..req.clone()
    }
}

/// The plan of `req` whose first request is `prepared`.
fn plan_of(req: &SearchRequest, prepared: search::Prepared) -> Plan {
    Plan {
        base: EsearchParams {
            sort: None,
            ..prepared.params
        },
        query: prepared.normalized_query,
        warnings: prepared.warnings,
        want_summaries: req.detail != Detail::Ids,
    }
}

impl Plan {
    /// What makes two runs the same for `--resume`: the ESearch `term`
    /// (query and filters), `field`, dates and `datetype`, and whether
    /// summaries are fetched, as `(name, value)` pairs.
    pub fn fingerprint(&self) -> Vec<(&'static str, String)> {
        let b = &self.base;
        let (min, max) = b.dates.clone().unwrap_or_default();
        vec![
            ("term", b.term.clone()),
            ("field", b.field.clone().unwrap_or_default()),
            ("mindate", min),
            ("maxdate", max),
            ("datetype", b.datetype.clone().unwrap_or_default()),
        ]
    }
}

/// The query that fetches range `r` of `query` again, as the user would
/// type it: `(QUERY) AND LO:HI[uid]` (the filters and dates are the
/// command's own options, given again).
pub fn range_query(query: &str, r: PmidRange) -> String {
    if query.is_empty() {
        format!("{}:{}[uid]", r.lo, r.hi)
    } else {
        format!("({query}) AND {}:{}[uid]", r.lo, r.hi)
    }
}

/// Where a run starts: from nothing, or from what an earlier run of the
/// same command left in its output file (`--output FILE --resume`,
/// docs/search.md "Resume").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Start {
    /// PMIDs the output already holds: never requested or written again.
    pub written: Vec<String>,
    /// The earlier run's last checkpoint, when it got past its first request.
    pub checkpoint: Option<Checkpoint>,
}

/// How far a run got: the ranges whose PMIDs are not all written yet. A
/// resumed run sends these ranges again and nothing else (the first
/// window is covered by the top range).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Hits of the query at the first request.
    pub total: u64,
    /// Ranges not complete: queued, in flight, waiting for summaries, or
    /// failed.
    pub todo: Vec<PmidRange>,
    /// Hits of the complete ranges (for the check that counts add up).
    pub counted: u64,
}

enum Job {
    Range(u64, EsearchParams),
    Summaries(Vec<String>),
}

enum Done {
    Range(u64, Result<EsearchAnswer>),
    Summaries(Vec<Part<EsummaryAnswer>>),
}

impl Job {
    async fn send(self, client: &Client) -> Done {
        match self {
            Job::Range(id, params) => Done::Range(id, client.esearch(Db::Pubmed, &params).await),
            Job::Summaries(ids) => Done::Summaries(client.esummary_parts(Db::Pubmed, ids).await),
        }
    }
}

fn ranged(base: &EsearchParams, r: PmidRange) -> EsearchParams {
    EsearchParams {
        term: format!("({}) AND {}:{}[uid]", base.term, r.lo, r.hi),
        retstart: 0,
        retmax: ESEARCH_WINDOW,
        ..base.clone()
    }
}

type Sink<'s> = &'s mut dyn FnMut(Event<'_>) -> io::Result<()>;

/// A range not complete yet.
struct Open {
    range: PmidRange,
    /// Its count, once its answer came (a leaf: at most the window).
    count: Option<u64>,
    /// Its PMIDs still waiting for their summaries.
    outstanding: usize,
    /// It failed, or one of its PMIDs got no summary for a reason worth
    /// retrying: it stays in the checkpoint.
    failed: bool,
}

/// The state of one run: what was written, what is queued, and the
/// bookkeeping that checks the counts at the end.
struct AllRun<'s> {
    plan: Plan,
    sink: Sink<'s>,
    seen: Seen,
    /// Ranges to send; they wait while summaries are due, so PMIDs found
    /// are written before more are looked for (memory stays bounded).
    ranges: VecDeque<Job>,
    /// Full summary batches to send.
    summaries: VecDeque<Job>,
    /// PMIDs waiting for a full batch; sent partial only when no range is
    /// left to add to it.
    batch: Vec<String>,
    /// PMIDs per summary request: [`SUMMARY_BATCH`], fewer when the
    /// summaries written so far are large (bounded by bytes, not counts).
    batch_size: usize,
    /// The largest summary seen, in JSON bytes (0 before the first answer).
    summary_bytes: usize,
    /// Summary requests in flight.
    summaries_open: usize,
    /// Ranges queued or in flight.
    ranges_open: usize,
    /// Ranges not complete, by id.
    open: std::collections::BTreeMap<u64, Open>,
    next_id: u64,
    /// PMIDs queued or in flight for summaries, with the ranges waiting on them.
    pending: HashMap<String, Vec<u64>>,
    /// PMIDs written with a failure worth retrying (`--resume` asks again).
    failed: HashSet<String>,
    out: AllOutcome,
    /// Hits of the ranges that were not split (they must add up to the total).
    leaf_sum: u64,
    /// Hits of the complete ranges.
    counted: u64,
    /// The run has a checkpoint (it got past the first window, or resumed one).
    ranged: bool,
    /// Range requests planned and finished.
    planned: usize,
    done: usize,
    /// Bisection is bounded: a healthy query needs about ⌈count / 8,000⌉ ranges.
    max_ranges: usize,
    range_failed: bool,
    /// PMIDs written as failed summaries.
    summaries_failed: u64,
}

impl<'s> AllRun<'s> {
    fn new(plan: Plan, sink: Sink<'s>, start: &Start) -> AllRun<'s> {
        let mut seen = Seen::default();
        for p in &start.written {
            seen.insert(p);
        }
        AllRun {
            plan,
            sink,
            seen,
            ranges: VecDeque::new(),
            summaries: VecDeque::new(),
            batch: Vec::new(),
            batch_size: SUMMARY_BATCH,
            summary_bytes: 0,
            summaries_open: 0,
            ranges_open: 0,
            open: Default::default(),
            next_id: 0,
            pending: HashMap::new(),
            failed: HashSet::new(),
            out: AllOutcome {
                written: start.written.len() as u64,
                resumed: start.written.len() as u64,
                ..Default::default()
            },
            leaf_sum: 0,
            counted: 0,
            ranged: false,
            planned: 0,
            done: 0,
            max_ranges: 0,
            range_failed: false,
            summaries_failed: 0,
        }
    }

    /// A run after the first window's answer: its new PMIDs are written
    /// and, above the window, the ranges are planned.
    fn start(
        checked: Plan,
        sink: Sink<'s>,
        from: &Start,
        first: &EsearchAnswer,
    ) -> Result<AllRun<'s>, Failure> {
        check_total(first.count)?;
        let mut warnings: Vec<_> = search::translated_warning(&first.translations)
            .into_iter()
            .collect();
        warnings.extend(checked.warnings.iter().cloned());
        warnings.extend(search::note_warnings(&first.notes));
        if first.count == 0 {
            warnings.push(search::zero_hits_warning());
        }
        let mut run = AllRun::new(checked, sink, from);
        run.out.total = first.count;
        run.out.query_translation = first.query_translation.clone();
        run.out.warnings = warnings;
        run.absorb(None, &first.ids)?;
        if first.count > WINDOW {
            let sample: Vec<u64> = first.ids.iter().filter_map(|p| p.parse().ok()).collect();
            run.max_ranges = 16 + 4 * first.count.div_ceil(WINDOW) as usize;
            run.ranged = true;
            for r in plan(first.count, &sample) {
                run.queue_range(r);
            }
            run.checkpoint()?;
        } else {
            run.leaf_sum = first.count;
        }
        run.progress()?;
        Ok(run)
    }

    /// A run that continues an earlier one from its checkpoint: only the
    /// ranges not complete are sent, no first window.
    fn resume(
        checked: Plan,
        sink: Sink<'s>,
        from: &Start,
        cp: &Checkpoint,
    ) -> Result<AllRun<'s>, Failure> {
        check_total(cp.total)?;
        let mut run = AllRun::new(checked, sink, from);
        run.out.total = cp.total;
        run.out.warnings = run.plan.warnings.clone();
        run.counted = cp.counted;
        run.leaf_sum = cp.counted;
        run.ranged = true;
        run.max_ranges = cp.todo.len() + 16 + 4 * cp.total.div_ceil(WINDOW) as usize;
        for r in &cp.todo {
            run.queue_range(*r);
        }
        run.checkpoint()?;
        run.progress()?;
        Ok(run)
    }

    fn queue_range(&mut self, r: PmidRange) {
        let id = self.next_id;
        self.next_id += 1;
        self.open.insert(
            id,
            Open {
                range: r,
                count: None,
                outstanding: 0,
                failed: false,
            },
        );
        self.ranges
            .push_back(Job::Range(id, ranged(&self.plan.base, r)));
        self.planned += 1;
        self.ranges_open += 1;
    }

    /// The next request to send: a full summary batch, else a range, else
    /// (no range left) the last, partial batch.
    /// Summary requests fill [`SUMMARY_BYTES_IN_FLIGHT`] at most (one always
    /// may go); ranges wait while summaries are due.
    fn next_job(&mut self) -> Option<Job> {
        // before the first answer the size is unknown: one at a time
        let room = self.summaries_open == 0
            || (self.summary_bytes > 0
                && (self.summaries_open + 1) * self.batch_size * self.summary_bytes
                    <= SUMMARY_BYTES_IN_FLIGHT);
        if !self.summaries.is_empty() {
            if !room {
                return None;
            }
            self.summaries_open += 1;
            return self.summaries.pop_front();
        }
        if let Some(job) = self.ranges.pop_front() {
            return Some(job);
        }
        if self.ranges_open == 0 && !self.batch.is_empty() && room {
            self.summaries_open += 1;
            return Some(Job::Summaries(std::mem::take(&mut self.batch)));
        }
        None
    }

    /// Learns the size of summaries from an answer: the batch shrinks so a
    /// request's summaries stay near [`SUMMARY_BYTES_PER_REQUEST`].
    fn learn_size(&mut self, summaries: &[Summary]) {
        let largest = summaries
            .iter()
            .map(|s| serde_json::to_vec(s).map_or(0, |v| v.len()))
            .max()
            .unwrap_or(0);
        self.summary_bytes = self.summary_bytes.max(largest);
        if let Some(n) = SUMMARY_BYTES_PER_REQUEST.checked_div(self.summary_bytes) {
            self.batch_size = n.clamp(MIN_SUMMARY_BATCH, SUMMARY_BATCH);
        }
    }

    /// Takes in the PMIDs of an answer (of range `owner`, or the first
    /// window): new ones are written, or queued for summaries; the range
    /// waits for those whose summaries are still to come.
    fn absorb(&mut self, owner: Option<u64>, ids: &[String]) -> Result<(), Failure> {
        let mut fresh: Vec<String> = Vec::new();
        let mut waits = 0;
        let mut failed = false;
        for p in ids {
            if self.failed.contains(p) {
                failed = true;
            } else if let Some(w) = self.pending.get_mut(p) {
                w.extend(owner);
                waits += 1;
            } else if self.seen.insert(p) {
                if self.plan.want_summaries {
                    self.pending.insert(p.clone(), owner.into_iter().collect());
                    waits += 1;
                }
                fresh.push(p.clone());
            }
        }
        if let Some(o) = owner.and_then(|id| self.open.get_mut(&id)) {
            o.outstanding += waits;
            o.failed |= failed;
        }
        self.out.written += fresh.len() as u64;
        if self.plan.want_summaries {
            for p in fresh {
                self.batch.push(p);
                if self.batch.len() >= self.batch_size {
                    let full =
                        std::mem::replace(&mut self.batch, Vec::with_capacity(self.batch_size));
                    self.summaries.push_back(Job::Summaries(full));
                }
            }
        } else if !fresh.is_empty() {
            self.send(Event::Pmids(&fresh))?;
        }
        Ok(())
    }

    /// Range `id` is complete when its answer came and every one of its
    /// PMIDs is written; a complete range leaves the checkpoint, unless it
    /// failed.
    fn settle(&mut self, id: u64) -> Result<(), Failure> {
        let Some(o) = self.open.get(&id) else {
            return Ok(());
        };
        let (Some(count), 0, false) = (o.count, o.outstanding, o.failed) else {
            return Ok(());
        };
        self.open.remove(&id);
        self.counted += count;
        self.checkpoint()
    }

    /// Summaries for `ids` were written (or failed, `failed`): the ranges
    /// waiting on them may be complete.
    fn written(&mut self, ids: &[String], failed: bool) -> Result<(), Failure> {
        let mut owners: Vec<u64> = Vec::new();
        for p in ids {
            if failed {
                self.failed.insert(p.clone());
            }
            for w in self.pending.remove(p).unwrap_or_default() {
                if let Some(o) = self.open.get_mut(&w) {
                    o.outstanding = o.outstanding.saturating_sub(1);
                    o.failed |= failed;
                }
                owners.push(w);
            }
        }
        owners.sort_unstable();
        owners.dedup();
        for id in owners {
            self.settle(id)?;
        }
        Ok(())
    }

    fn checkpoint(&mut self) -> Result<(), Failure> {
        if !self.ranged {
            return Ok(());
        }
        let cp = Checkpoint {
            total: self.out.total,
            todo: self.open.values().map(|o| o.range).collect(),
            counted: self.counted,
        };
        self.send(Event::Checkpoint(&cp))
    }

    fn send(&mut self, event: Event<'_>) -> Result<(), Failure> {
        (self.sink)(event).map_err(Failure::Output)
    }

    fn progress(&mut self) -> Result<(), Failure> {
        let event = Event::Progress {
            done: self.done,
            planned: self.planned,
            pmids: if self.plan.want_summaries {
                let o = &self.out;
                o.resumed + o.summarised + o.unsummarised + self.summaries_failed
            } else {
                self.out.written
            },
            total: self.out.total,
        };
        self.send(event)
    }

    /// A range that failed (after retries, or because it cannot be split):
    /// reported with the query that fetches it again; the run goes on, and
    /// the range stays in the checkpoint.
    fn range_failed(&mut self, id: u64, error: Error) -> Result<(), Failure> {
        self.range_failed = true;
        let Some(o) = self.open.get_mut(&id) else {
            return Ok(());
        };
        o.failed = true;
        let range = o.range;
        let rerun = range_query(&self.plan.query, range);
        self.send(Event::RangeFailed {
            range,
            error: &error,
            rerun: &rerun,
        })?;
        self.out.first_failure.get_or_insert(error);
        Ok(())
    }

    fn on_done(&mut self, done: Done) -> Result<(), Failure> {
        match done {
            Done::Range(id, Ok(a)) if a.count > WINDOW => {
                self.done += 1;
                self.ranges_open -= 1;
                let r = self.open.get(&id).map(|o| o.range).expect("open range");
                let ids: Vec<u64> = a.ids.iter().filter_map(|p| p.parse().ok()).collect();
                // A range that cannot shrink, or too many splits, means the
                // counts are not what PubMed gives: stop splitting.
                match split(r, &ids).filter(|_| self.planned + 2 <= self.max_ranges) {
                    Some(parts) => {
                        self.open.remove(&id);
                        parts.into_iter().for_each(|p| self.queue_range(p));
                        self.checkpoint()?;
                    }
                    None => {
                        let e = Error::new(
                            Reason::NcbiInvalidResponse,
                            format!(
                                "ESearch counts {} hits in PMID range {r}, which cannot be split further ({} ranges so far); the counts are inconsistent",
                                a.count, self.planned
                            ),
                        );
                        self.range_failed(id, e)?;
                    }
                }
            }
            Done::Range(id, Ok(a)) => {
                self.done += 1;
                self.ranges_open -= 1;
                self.leaf_sum += a.count;
                if let Some(o) = self.open.get_mut(&id) {
                    o.count = Some(a.count);
                }
                self.absorb(Some(id), &a.ids)?;
                self.settle(id)?;
            }
            Done::Range(id, Err(e)) => {
                self.done += 1;
                self.ranges_open -= 1;
                self.range_failed(id, e)?;
            }
            Done::Summaries(parts) => {
                self.summaries_open = self.summaries_open.saturating_sub(1);
                for part in parts {
                    match part.result {
                        Ok(a) => {
                            let by_uid = a.docs.into_iter().map(|d| (d.uid.clone(), d)).collect();
                            let errors = a.missing.into_iter().collect();
                            let a = esummary::in_order(&part.ids, by_uid, &errors);
                            let summaries: Vec<Summary> =
                                a.docs.iter().map(Summary::from_docsum).collect();
                            let missing = search::missing_from(a.missing);
                            self.learn_size(&summaries);
                            self.out.summarised += summaries.len() as u64;
                            self.out.unsummarised += missing.len() as u64;
                            self.send(Event::Summaries(&summaries, &missing))?;
                            self.written(&part.ids, false)?;
                        }
                        Err(e) => {
                            self.summaries_failed += part.ids.len() as u64;
                            self.send(Event::SummariesFailed(&part.ids, &e))?;
                            self.written(&part.ids, e.reason.retryable())?;
                            self.out.first_failure.get_or_insert(e);
                        }
                    }
                }
            }
        }
        self.progress()
    }

    /// The totals, with a warning when the counts do not add up.
    fn finish(mut self) -> AllOutcome {
        let (leaf_sum, total, written) = (self.leaf_sum, self.out.total, self.out.written);
        if !self.range_failed && leaf_sum != total {
            self.out.warnings.push(Warning::new(
                WarningKind::CountMismatch,
                format!(
                    "the ranges' counts add up to {leaf_sum}, but the query has {total} hits (difference {})",
                    leaf_sum as i64 - total as i64
                ),
            ));
        }
        if !self.range_failed && written != leaf_sum {
            self.out.warnings.push(Warning::new(
                WarningKind::CountMismatch,
                format!(
                    "{written} distinct PMIDs were written, but the ranges' counts add up to {leaf_sum}"
                ),
            ));
        }
        self.out.complete = self.open.is_empty() && self.out.first_failure.is_none();
        self.out
    }
}

/// An ESearch count above [`MAX_HITS`] cannot be right.
fn check_total(count: u64) -> Result<(), Failure> {
    if count > MAX_HITS {
        return Err(Error::new(
            Reason::NcbiInvalidResponse,
            format!(
                "ESearch reports {count} hits, more than PubMed holds; the answer cannot be right"
            ),
        )
        .into());
    }
    Ok(())
}

/// Runs `search --all` for a [`prepare`]d plan from `start` (nothing, or
/// an earlier run's output and checkpoint), calling `sink` with each event
/// as it happens. Failures of single ranges are reported and the run goes
/// on; the first one is in [`AllOutcome::first_failure`].
///
/// Errors: the first request's failure, an impossible count, or the sink's
/// (output) error.
pub async fn search_all(
    client: &Client,
    plan: Plan,
    start: Start,
    sink: &mut dyn FnMut(Event<'_>) -> io::Result<()>,
) -> Result<AllOutcome, Failure> {
    let sent_before = client.requests_sent();
    let mut run = match &start.checkpoint {
        Some(cp) => AllRun::resume(plan, sink, &start, cp)?,
        None => {
            let first = client.esearch(Db::Pubmed, &plan.base).await?;
            AllRun::start(plan, sink, &start, &first)?
        }
    };
    drop(start);
    let limit = client.settings().policy.max_in_flight.max(1);
    let mut running = FuturesUnordered::new();
    loop {
        while running.len() < limit {
            let Some(job) = run.next_job() else {
                break;
            };
            running.push(job.send(client));
        }
        let Some(done) = running.next().await else {
            break;
        };
        run.on_done(done)?;
    }
    let mut out = run.finish();
    out.requests = client.requests_sent() - sent_before;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covers_everything(ranges: &[PmidRange]) {
        let mut sorted = ranges.to_vec();
        sorted.sort_by_key(|r| r.lo);
        assert_eq!(sorted[0].lo, 1);
        assert!(sorted.last().unwrap().hi >= TOP_BOUND);
        for w in sorted.windows(2) {
            assert_eq!(w[0].hi + 1, w[1].lo, "gap or overlap: {w:?}");
        }
        assert!(sorted.iter().all(|r| r.lo <= r.hi));
    }

    #[test]
    fn plan_covers_all_pmids_without_overlap() {
        // 30,000 hits uniformly over 1M..41M; the first page is the newest 9,999
        let step = 40_000_000 / 30_000;
        let all: Vec<u64> = (0..30_000u64).map(|i| 1_000_000 + i * step).collect();
        let sample: Vec<u64> = all[30_000 - 9_999..].to_vec();
        let ranges = plan(30_000, &sample);
        covers_everything(&ranges);
        assert_eq!(ranges.len(), 4, "{ranges:?}");
        for r in &ranges {
            let n = all.iter().filter(|p| (r.lo..=r.hi).contains(p)).count();
            assert!(n as u64 <= WINDOW, "{r}: {n}");
        }
        covers_everything(&plan(10_000, &sample));
        covers_everything(&plan(250_000, &sample));
        covers_everything(&plan(50_000, &[]));
        covers_everything(&plan(50_000, &[1, 2, 3]));
        covers_everything(&plan(50_000, &[5]));
        // PMIDs past the usual top bound still get a valid top range
        let big = plan(20_000, &[1_000_000_001, 1_000_000_500]);
        assert!(big.iter().all(|r| r.lo <= r.hi), "{big:?}");
    }

    #[test]
    fn split_peels_the_window_or_halves() {
        let r = PmidRange { lo: 1, hi: 100 };
        assert_eq!(
            split(r, &[90, 80, 70]).unwrap(),
            vec![PmidRange { lo: 70, hi: 100 }, PmidRange { lo: 1, hi: 69 }]
        );
        // the window starts at lo: halve up to the highest PMID seen
        assert_eq!(
            split(r, &[1, 41]).unwrap(),
            vec![PmidRange { lo: 1, hi: 21 }, PmidRange { lo: 22, hi: 100 }]
        );
        assert_eq!(
            split(r, &[]).unwrap(),
            vec![PmidRange { lo: 1, hi: 50 }, PmidRange { lo: 51, hi: 100 }]
        );
        // never an inverted range; a single PMID cannot be split
        assert_eq!(
            split(PmidRange { lo: 5, hi: 6 }, &[5]).unwrap(),
            vec![PmidRange { lo: 5, hi: 5 }, PmidRange { lo: 6, hi: 6 }]
        );
        assert_eq!(split(PmidRange { lo: 7, hi: 7 }, &[7]), None);
        for lo in 1..20u64 {
            for hi in lo + 1..25 {
                for ids in [
                    vec![],
                    vec![lo],
                    vec![hi],
                    vec![lo, hi],
                    vec![(lo + hi) / 2],
                ] {
                    let parts = split(PmidRange { lo, hi }, &ids).unwrap();
                    assert!(
                        parts.iter().all(|p| p.lo <= p.hi),
                        "{lo}:{hi} {ids:?} → {parts:?}"
                    );
                    let covered: u64 = parts.iter().map(|p| p.hi - p.lo + 1).sum();
                    assert_eq!(covered, hi - lo + 1);
                }
            }
        }
    }

    /// A summary as ESummary gives it, with three authors.
    fn docsum(pmid: &str) -> crate::ncbi::esummary::DocSum {
        crate::ncbi::esummary::DocSum {
            uid: pmid.to_string(),
            title: "A summary of twelve words. ".repeat(2),
            authors: (0..3).map(|i| format!("Author{i} Q")).collect(),
            source: "J Test".into(),
            full_journal_name: "Journal of Tests".into(),
            pub_date: "2020 Sep 4".into(),
            elocation_id: String::new(),
            article_ids: vec![("pubmed".into(), pmid.into())],
            pub_types: vec!["Journal Article".into()],
        }
    }

    /// Runs the scheduler alone over `n` PMIDs of one window (no client):
    /// each summary request is answered at once, two requests kept in
    /// flight. Returns the PMIDs per request.
    fn schedule(n: usize) -> Vec<usize> {
        let req = SearchRequest {
            query: "hits".into(),
            detail: Detail::Brief,
            ..Default::default()
        };
        let plan = prepare(&req, search::today_utc()).unwrap();
        let mut written = 0usize;
        let mut sink = |e: Event<'_>| {
            match e {
                Event::Summaries(s, _) => written += s.len(),
                // progress counts records written, not PMIDs found
                Event::Progress { pmids, .. } => assert_eq!(pmids, written as u64),
                _ => {}
            }
            Ok(())
        };
        let mut run = AllRun::new(plan, &mut sink, &Start::default());
        let ids: Vec<String> = (1..=n).map(|p| p.to_string()).collect();
        run.absorb(None, &ids).unwrap();
        let (mut sizes, mut in_flight) = (Vec::new(), VecDeque::new());
        loop {
            while in_flight.len() < 2 {
                match run.next_job() {
                    Some(Job::Summaries(batch)) => {
                        sizes.push(batch.len());
                        in_flight.push_back(batch);
                    }
                    Some(Job::Range(..)) => panic!("no range was planned"),
                    None => break,
                }
            }
            let Some(batch) = in_flight.pop_front() else {
                break;
            };
            let docs = batch.iter().map(|p| docsum(p)).collect();
            let answer = EsummaryAnswer {
                docs,
                missing: Vec::new(),
                from_cache: 0,
                cache_oldest: None,
            };
            run.on_done(Done::Summaries(vec![Part {
                ids: batch,
                result: Ok(answer),
            }]))
            .unwrap();
        }
        drop(run);
        assert_eq!(written, n, "every PMID summarised once");
        sizes
    }

    #[test]
    fn usual_summaries_go_1000_per_request_and_progress_counts_records_written() {
        // `schedule`'s sink asserts each progress event against the
        // summaries written so far (not the PMIDs found).
        let sizes = schedule(5_000);
        assert_eq!(sizes, vec![1000, 1000, 1000, 1000, 1000]);
    }
}
