//! The one batch engine every batch operation plugs into (docs/errors.md
//! "The batch engine"): `convert`, `fetch`, `cite`, `related` and the
//! `convert --fallback pubmed` stage run on it; `search --all` uses its exit
//! rule ([`exit`]).
//!
//! The engine reads input lines, has the operation ([`Op`]) validate and key
//! each one, groups the keys into chunks (one group per request kind, e.g.
//! an ID type; a key repeated while its chunk is live is sent once), sends
//! the chunks through the operation's "request for this chunk" function
//! under the concurrency limit, hands every input's outcome to a sink in
//! input order ([`Output`]) as soon as it and everything before it is known,
//! and counts the run ([`Totals`], one exit rule). A chunk policy
//! ([`ChunkPolicy`]) says how big a chunk is, how many run at once, how many
//! lines may wait for answers (the reorder buffer, which bounds memory), and
//! when a partial chunk is sent: [`Sealing::Simple`] once a request slot is
//! free and the input has ended, stalled or kept the chunk waiting;
//! [`Sealing::Paced`] only at the moment the pacer (and the request budget
//! every `pubmed` process shares) could start a request, so a chunk that
//! would wait keeps collecting keys (docs/convert.md "Chunks").
//!
//! Plugging in an operation: implement [`Op`] (admit a line: skip it,
//! answer it at once, or ask for a key; the request for a chunk's keys; the
//! record of one input from its chunk's answer), then call [`run`] for a
//! stream of lines or [`collect`] for IDs given at once (CLI arguments,
//! MCP). [`Op::cached`] answers an input locally before it is chunked (a
//! cache), and [`Output::Progress`] reports every answered chunk (MCP
//! progress notifications).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::Hash;
use std::io;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use futures::{Stream, StreamExt};
use tokio::time::Instant;

use crate::error::{Error, Exit, Failure, Reason, Result};
use crate::ncbi::Client;
use crate::ncbi::pacer::Lane;

/// With no new input line for this long, a partial chunk is due.
pub const IDLE_FLUSH: Duration = Duration::from_millis(250);
/// A partial chunk is due once its first key has waited this long.
pub const MAX_CHUNK_AGE: Duration = Duration::from_secs(1);
/// A shared-budget slot this close counts as now (the budget's clock is
/// the wall clock in whole milliseconds).
const SHARED_SLACK: Duration = Duration::from_millis(20);

/// One line of input: an ID, or a blank/comment line (file input) that is
/// skipped but keeps its place (`convert --format ids`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputLine {
    /// An ID as written (surrounding whitespace trimmed).
    Id(String),
    /// A blank line or a `#` comment.
    Skip,
    /// A line that is not valid UTF-8 (shown lossily); always malformed.
    Undecodable(String),
}

impl InputLine {
    /// Classifies a raw file line (bytes without the `\n`): see
    /// [`InputLine::from_file_line`]; bytes that are not UTF-8 are
    /// [`InputLine::Undecodable`].
    pub fn from_bytes(line: &[u8], first: bool) -> InputLine {
        match std::str::from_utf8(line) {
            Ok(s) => InputLine::from_file_line(s, first),
            Err(_) => InputLine::Undecodable(String::from_utf8_lossy(line).trim().to_string()),
        }
    }

    /// Classifies a raw file line: CRLF, surrounding whitespace and (on the
    /// first line) a UTF-8 byte-order mark are dropped; blank and `#` lines
    /// are skipped.
    pub fn from_file_line(line: &str, first: bool) -> InputLine {
        let line = if first {
            line.strip_prefix('\u{FEFF}').unwrap_or(line)
        } else {
            line
        };
        let t = line.trim_matches(crate::core::text::is_white_space);
        if t.is_empty() || t.starts_with('#') {
            InputLine::Skip
        } else {
            InputLine::Id(t.to_string())
        }
    }
}

/// IDs given at once (CLI arguments, MCP) as a stream of input lines.
pub fn id_lines(
    ids: &[String],
) -> futures::stream::Iter<std::vec::IntoIter<io::Result<InputLine>>> {
    futures::stream::iter(
        ids.iter()
            .map(|s| Ok(InputLine::Id(s.clone())))
            .collect::<Vec<_>>(),
    )
}

/// What the engine hands its sink, in input order.
#[derive(Debug)]
pub enum Output<'a, R> {
    /// The record of an input line.
    Record(&'a R),
    /// A skipped line (blank or comment).
    Skipped,
    /// A chunk's answer came and its records were handed out.
    Progress(Progress),
    /// The engine is about to wait: a good moment to flush.
    Flush,
}

/// How far a run is, as of an answered chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Records handed out so far.
    pub done: u64,
    /// Records the run will hand out, once the input has ended.
    pub total: Option<u64>,
    /// HTTP requests sent so far (retries included).
    pub requests: u64,
}

/// What the totals count of one record that has no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failed<'a> {
    /// The reason's name (`by_reason`, the summary line).
    pub reason: &'static str,
    /// The failed request's reason, which decides the exit status; `None`
    /// for a reason of the record's own (docs/errors.md "Reasons of one
    /// record").
    pub request: Option<Reason>,
    /// The record's message.
    pub message: &'a str,
    /// Seconds to wait before retrying, when the request said.
    pub retry_after: Option<u64>,
}

/// A per-input outcome the totals can count.
pub trait Outcome {
    /// `None` on success; else why the record has no answer.
    fn failure(&self) -> Option<Failed<'_>>;
}

/// The batch exit rule (docs/errors.md "The batch rule"): the first failed
/// request's status; else [`Exit::NotFound`] (1) when there were inputs and
/// none succeeded (every one failed on its own: a script can test one ID
/// as with grep); else success.
pub fn exit(first_failure: Option<&Error>, submitted: u64, succeeded: u64) -> Exit {
    match first_failure {
        Some(e) => e.reason.exit(),
        None if submitted > 0 && succeeded == 0 => Exit::NotFound,
        None => Exit::Success,
    }
}

/// Counts of a run, for the summary line, JSON totals and the exit status.
/// `C` is the operation's own counts (`related`: inputs without links).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Totals<C = ()> {
    /// Input lines with a record.
    pub submitted: u64,
    /// Records with an answer (converted, found, formatted, …).
    pub succeeded: u64,
    /// Records with an error.
    pub failed: u64,
    /// Failed records by reason.
    pub by_reason: BTreeMap<&'static str, u64>,
    /// HTTP requests sent (retries included).
    pub requests: u64,
    /// The first failed request, in input order; it decides the exit status.
    pub first_failure: Option<Error>,
    /// The operation's own counts.
    pub counts: C,
    /// Records answered from the local cache (docs/cache.md "Saying
    /// so").
    pub from_cache: u64,
    /// When the oldest of them was fetched from NCBI (Unix seconds, UTC).
    pub cache_oldest: Option<i64>,
}

impl<C> Totals<C> {
    /// The upstream failure of the run, if any ([`Totals::first_failure`]):
    /// the CLI exits with its status, MCP answers with it as an `isError`
    /// result (docs/mcp.md "Errors"). Per-record reasons alone are not one.
    pub fn failure(&self) -> Option<&Error> {
        self.first_failure.as_ref()
    }

    /// The exit status by the batch rule ([`exit`]).
    pub fn exit(&self) -> Exit {
        exit(self.failure(), self.submitted, self.succeeded)
    }

    /// Counts one record; `chunk_error` is its chunk's failure, which
    /// becomes the run's (with its retry advice) when the record is the
    /// first to fail by a request.
    pub(crate) fn count<R: Outcome>(&mut self, r: &R, chunk_error: Option<&Error>) {
        self.submitted += 1;
        let Some(f) = r.failure() else {
            self.succeeded += 1;
            return;
        };
        self.failed += 1;
        *self.by_reason.entry(f.reason).or_default() += 1;
        if let Some(reason) = f.request
            && self.first_failure.is_none()
        {
            self.first_failure = Some(chunk_error.cloned().unwrap_or_else(|| Error {
                retry_after: f.retry_after,
                ..Error::new(reason, f.message)
            }));
        }
    }
}

/// When a partial chunk may be sealed (full chunks go whenever a request
/// slot is free).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sealing {
    /// Once fewer than `in_flight` chunks run and the chunk is due; by
    /// idle input or age only when no answer and no input line is ready
    /// (a busy runtime that polls late must not look like stalled input).
    Simple,
    /// Also only when this lane's pacer, and the shared budget, could start
    /// a request now: a chunk that would wait for a start keeps collecting
    /// keys (convert, docs/convert.md "Chunks").
    Paced(Lane),
}

/// How an operation's inputs are chunked and sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkPolicy {
    /// Distinct keys per chunk (the service's limit per request).
    pub max_keys: usize,
    /// Total cost of a chunk's keys ([`Admit::Ask`]'s `cost`: convert's
    /// encoded URL characters); `usize::MAX` for no limit.
    pub max_cost: usize,
    /// Chunks (requests) outstanding at once.
    pub in_flight: usize,
    /// Input lines held while their answers are pending (the reorder
    /// buffer): a full buffer stops reading, and only the chunk holding the
    /// oldest waiting line may then go partial.
    pub max_pending: usize,
    /// A partial chunk is due once the input has been idle this long.
    pub idle: Duration,
    /// A partial chunk is due once its first key has waited this long;
    /// `None`: only by idle input or the input's end.
    pub max_age: Option<Duration>,
    /// When a partial chunk may be sealed.
    pub sealing: Sealing,
}

impl ChunkPolicy {
    /// Chunks of `max_keys`, `in_flight` at once, a reorder buffer of one
    /// chunk more than run, due after [`IDLE_FLUSH`] or [`MAX_CHUNK_AGE`].
    pub fn simple(max_keys: usize, in_flight: usize) -> Self {
        let max_keys = max_keys.max(1);
        let in_flight = in_flight.max(1);
        ChunkPolicy {
            max_keys,
            max_cost: usize::MAX,
            in_flight,
            max_pending: max_keys * (in_flight + 1),
            idle: IDLE_FLUSH,
            max_age: Some(MAX_CHUNK_AGE),
            sealing: Sealing::Simple,
        }
    }
}

/// What an operation makes of one input line.
pub enum Admit<O: Op + ?Sized> {
    /// No record (a blank or comment line).
    Skip,
    /// The record is known now (a malformed ID).
    Done(O::Record),
    /// The record needs `key` from a chunk of `group`.
    Ask {
        /// Chunks hold keys of one group (convert: the ID type).
        group: O::Group,
        /// What is sent and matched back; equal keys share one place.
        key: O::Key,
        /// The key's share of [`ChunkPolicy::max_cost`].
        cost: usize,
        /// What the record is made from besides the answer (the input as
        /// written, …).
        input: O::Input,
    },
}

/// A batch operation, as the engine drives it.
pub trait Op: Sync {
    /// An input line (an [`InputLine`], or the record of a stage before).
    type Line: Send;
    /// What chunks are grouped by (`()` for one kind of request).
    type Group: Copy + Eq + Hash + Send + Sync;
    /// What a chunk carries per input.
    type Key: Clone + Eq + Hash + Send + Sync;
    /// What a waiting input keeps for its record.
    type Input: Send;
    /// A chunk's answer.
    type Answer: Send;
    /// One input's outcome.
    type Record: Outcome + Send + Sync;
    /// The operation's own counts in [`Totals`].
    type Counts: Default + Send;

    /// The client whose requests are counted (and paced, for
    /// [`Sealing::Paced`]).
    fn client(&self) -> &Client;

    /// How inputs are chunked and sent.
    fn policy(&self) -> ChunkPolicy;

    /// Checks one ID given at once (CLI arguments, MCP), stricter than a
    /// file line. Errors: the ID's own (`malformed_id`).
    fn check(&self, arg: &str) -> Result<()>;

    /// Validates and keys one input line.
    fn admit(&self, line: Self::Line) -> Admit<Self>;

    /// The record of an input answered without a request (the local
    /// cache) and when its answer was fetched from NCBI (Unix seconds), or
    /// `None` to chunk its key.
    fn cached(
        &self,
        _group: Self::Group,
        _key: &Self::Key,
        _input: &Self::Input,
    ) -> Option<(Self::Record, i64)> {
        None
    }

    /// The request for one chunk: its group and its distinct keys, in input
    /// order. An `Err` fails every input of the chunk.
    fn request(
        &self,
        group: Self::Group,
        keys: Vec<Self::Key>,
    ) -> BoxFuture<'_, Result<Self::Answer>>;

    /// The record of one input from its chunk's answer (or failure); `last`
    /// says no other input waits on this key of the chunk, so its part of
    /// the answer may be taken.
    fn record(
        &self,
        input: Self::Input,
        key: &Self::Key,
        answer: std::result::Result<&mut Self::Answer, &Error>,
        last: bool,
    ) -> Self::Record;

    /// Adds a record to the operation's own counts.
    fn count(_counts: &mut Self::Counts, _record: &Self::Record) {}
}

enum Slot<O: Op> {
    Skip,
    /// Boxed: a slot is as big as its largest variant, and most slots
    /// wait (docs/convert.md "Memory").
    Done(Box<O::Record>),
    Waiting {
        chunk: u64,
        key: O::Key,
        input: O::Input,
    },
}

/// Where a key's waiting inputs wait: at most one live chunk carries a key
/// that inputs still wait on (a repeat after the last is asked again).
struct Carried {
    chunk: u64,
    /// Inputs waiting on the key.
    waiting: usize,
}

struct Chunk<O: Op> {
    group: O::Group,
    /// When its first key arrived (moved on while reading was held).
    opened: Instant,
    /// Its distinct keys in order, given up when it is sent.
    keys: Vec<O::Key>,
    /// Inputs still waiting, all keys.
    left: usize,
    cost: usize,
    answer: Option<Result<O::Answer>>,
}

/// What the input is doing, for the partial-chunk rules.
struct InputState {
    eof: bool,
    /// Reading is held because the reorder buffer is full.
    held: bool,
    held_since: Option<Instant>,
    /// When the last line arrived (moved on by the time reading was held).
    last_line: Instant,
    /// Lines with a record read so far.
    records: u64,
    /// No answer and no input line was ready at the last look (a timer
    /// fired); a new line ends it.
    quiet: bool,
}

/// When a request could start, as the engine sees it ([`Sealing::Paced`]).
#[derive(Default)]
struct Gate {
    last_start: Option<Instant>,
    /// Other `pubmed` processes hold the lane until then.
    shared_at: Option<Instant>,
}

type Running<'o, A> = FuturesUnordered<BoxFuture<'o, (u64, Result<A>)>>;

struct Engine<'o, O: Op> {
    op: &'o O,
    policy: ChunkPolicy,
    pending: VecDeque<Slot<O>>,
    chunks: HashMap<u64, Chunk<O>>,
    /// Keys with inputs waiting, and the chunk that carries each: a repeat
    /// is answered from that chunk, even after it was sent. One map (not
    /// also a count per chunk) holds one copy of each key: the reorder
    /// buffer's keys are most of what `convert` holds (docs/convert.md
    /// "Memory").
    carried: HashMap<(O::Group, O::Key), Carried>,
    /// The open (partial) chunk of each group.
    open: HashMap<O::Group, u64>,
    /// Full chunks waiting for a request slot, oldest first.
    sealed: VecDeque<u64>,
    next_chunk: u64,
    input: InputState,
    gate: Gate,
    totals: Totals<O::Counts>,
    sent_before: u64,
}

impl<'o, O: Op> Engine<'o, O> {
    fn new(op: &'o O) -> Self {
        Engine {
            op,
            policy: op.policy(),
            pending: VecDeque::new(),
            chunks: HashMap::new(),
            carried: HashMap::new(),
            open: HashMap::new(),
            sealed: VecDeque::new(),
            next_chunk: 0,
            input: InputState {
                eof: false,
                held: false,
                held_since: None,
                last_line: Instant::now(),
                records: 0,
                quiet: false,
            },
            gate: Gate::default(),
            totals: Totals::default(),
            sent_before: op.client().requests_sent(),
        }
    }

    fn requests(&self) -> u64 {
        self.op.client().requests_sent() - self.sent_before
    }

    fn add(&mut self, line: O::Line) {
        self.input.last_line = Instant::now();
        self.input.quiet = false;
        let (group, key, cost, input) = match self.op.admit(line) {
            Admit::Skip => return self.pending.push_back(Slot::Skip),
            Admit::Done(r) => {
                self.input.records += 1;
                return self.pending.push_back(Slot::Done(Box::new(r)));
            }
            Admit::Ask {
                group,
                key,
                cost,
                input,
            } => (group, key, cost, input),
        };
        self.input.records += 1;
        if let Some((r, fetched_at)) = self.op.cached(group, &key, &input) {
            self.totals.from_cache += 1;
            let oldest = self.totals.cache_oldest.get_or_insert(fetched_at);
            *oldest = (*oldest).min(fetched_at);
            return self.pending.push_back(Slot::Done(Box::new(r)));
        }
        let chunk = self.chunk_for(group, &key, cost);
        self.pending.push_back(Slot::Waiting { chunk, key, input });
    }

    fn close(&mut self, group: O::Group) {
        if let Some(id) = self.open.remove(&group) {
            self.sealed.push_back(id);
        }
    }

    /// The chunk that answers `key`: the live one already carrying it, or
    /// the open chunk of its group (sealed first when full), with `key`
    /// added; one more input waits on it.
    fn chunk_for(&mut self, group: O::Group, key: &O::Key, cost: usize) -> u64 {
        let carried = (group, key.clone());
        if let Some(c) = self.carried.get_mut(&carried) {
            c.waiting += 1;
            let ch = self
                .chunks
                .get_mut(&c.chunk)
                .expect("carried chunks are live");
            ch.left += 1;
            return c.chunk;
        }
        if let Some(&id) = self.open.get(&group) {
            let ch = &self.chunks[&id];
            if ch.keys.len() >= self.policy.max_keys
                || ch.cost.saturating_add(cost) > self.policy.max_cost
            {
                self.close(group);
            }
        }
        let id = match self.open.get(&group) {
            Some(&id) => id,
            None => self.open_chunk(group),
        };
        let ch = self.chunks.get_mut(&id).expect("open chunk exists");
        ch.keys.push(key.clone());
        ch.left += 1;
        ch.cost = ch.cost.saturating_add(cost);
        let full = ch.keys.len() >= self.policy.max_keys;
        self.carried.insert(
            carried,
            Carried {
                chunk: id,
                waiting: 1,
            },
        );
        // A full chunk can go as soon as a request can start.
        if full {
            self.close(group);
        }
        id
    }

    fn open_chunk(&mut self, group: O::Group) -> u64 {
        let id = self.next_chunk;
        self.next_chunk += 1;
        self.chunks.insert(
            id,
            Chunk {
                group,
                opened: Instant::now(),
                keys: Vec::new(),
                left: 0,
                cost: 0,
                answer: None,
            },
        );
        self.open.insert(group, id);
        id
    }

    /// Holds reading while the reorder buffer is full; that time counts
    /// neither as idle input nor as a chunk waiting for input.
    fn update_hold(&mut self, now: Instant) {
        let held = !self.input.eof && self.pending.len() >= self.policy.max_pending;
        self.input.held = held;
        match (held, self.input.held_since) {
            (true, None) => self.input.held_since = Some(now),
            (false, Some(since)) => {
                let d = now - since;
                self.input.last_line += d;
                for id in self.open.values() {
                    if let Some(ch) = self.chunks.get_mut(id) {
                        ch.opened += d;
                    }
                }
                self.input.held_since = None;
            }
            _ => {}
        }
    }

    /// When open chunk `id` may be sent (as of `now`), or `None` while no
    /// rule allows it yet: at once when the input has ended; while reading
    /// is held, only when the oldest waiting line is in it (nothing else
    /// could free the buffer); else once the input has been idle for
    /// [`ChunkPolicy::idle`] or its first key has waited
    /// [`ChunkPolicy::max_age`].
    fn partial_due(&self, id: u64, now: Instant) -> Option<Instant> {
        if self.input.eof {
            return Some(now);
        }
        if self.input.held {
            let head = self.pending.front();
            return matches!(head, Some(Slot::Waiting { chunk, .. }) if *chunk == id)
                .then_some(now);
        }
        let idle = self.input.last_line + self.policy.idle;
        let aged = self.policy.max_age.map(|a| self.chunks[&id].opened + a);
        Some(aged.map_or(idle, |a| a.min(idle)))
    }

    /// When there will be a chunk to send: now for a full one, else when
    /// the first partial chunk is due; `None` when none will be without
    /// new input.
    fn due(&self, now: Instant) -> Option<Instant> {
        if !self.sealed.is_empty() {
            return Some(now);
        }
        self.open
            .values()
            .filter_map(|id| self.partial_due(*id, now))
            .min()
    }

    /// Whether a due partial chunk may go: always at the input's end, while
    /// reading is held and under [`Sealing::Paced`]; by idle input or age
    /// under [`Sealing::Simple`] only once the input was found quiet.
    fn settled(&self) -> bool {
        self.input.eof
            || self.input.held
            || self.input.quiet
            || matches!(self.policy.sealing, Sealing::Paced(_))
    }

    /// The chunk to send now: the oldest of the full chunks and the due
    /// partial ones, so output order is not held up. A partial chunk is
    /// sealed here, at its start, never while it waits for one.
    fn pick(&mut self, now: Instant) -> Option<u64> {
        let settled = self.settled();
        let partial = self
            .open
            .iter()
            .filter(|(_, id)| settled && self.partial_due(**id, now).is_some_and(|at| at <= now))
            .map(|(g, id)| (*id, *g))
            .min_by_key(|(id, _)| *id);
        match (self.sealed.front().copied(), partial) {
            (Some(full), Some((p, _))) if full < p => self.sealed.pop_front(),
            (_, Some((p, g))) => {
                self.open.remove(&g);
                Some(p)
            }
            (Some(_), None) => self.sealed.pop_front(),
            (None, None) => None,
        }
    }

    /// The earliest start as last known ([`Sealing::Paced`] only).
    fn start_at(&self) -> Option<Instant> {
        let Sealing::Paced(lane) = self.policy.sealing else {
            return None;
        };
        let local = self
            .op
            .client()
            .pacer()
            .estimated_start(lane, self.gate.last_start);
        Some(self.gate.shared_at.map_or(local, |s| local.max(s)))
    }

    /// Whether a chunk may be sent now: a request slot is free, something
    /// is due, and (paced) the pacer could start it now; then the shared
    /// budget is asked, so a chunk that would wait for another process's
    /// requests keeps collecting keys.
    fn may_start(&mut self, running: usize) -> bool {
        if running >= self.policy.in_flight {
            return false;
        }
        if self.start_at().is_some_and(|at| at > Instant::now()) {
            return false;
        }
        let now = Instant::now();
        let partial_due = self.settled() && self.due(now).is_some_and(|due| due <= now);
        if self.sealed.is_empty() && !partial_due {
            return false;
        }
        let Sealing::Paced(lane) = self.policy.sealing else {
            return true;
        };
        match self.op.client().pacer().shared_free_at(lane) {
            Some(at) if at > Instant::now() + SHARED_SLACK => {
                self.gate.shared_at = Some(at);
                false
            }
            _ => true,
        }
    }

    /// Sends every chunk that may go now.
    fn start(&mut self, running: &mut Running<'o, O::Answer>) {
        while self.may_start(running.len()) {
            let Some(id) = self.pick(Instant::now()) else {
                break;
            };
            self.gate.last_start = Some(Instant::now());
            let ch = self.chunks.get_mut(&id).expect("sealed chunk exists");
            let keys = std::mem::take(&mut ch.keys);
            let group = ch.group;
            let op = self.op;
            running.push(Box::pin(async move { (id, op.request(group, keys).await) }));
        }
    }

    /// When to wake for the first due chunk: `None` when none is due
    /// without new input, or every slot is taken (an answer wakes the loop
    /// then).
    fn wake(&self, running: usize) -> Option<Instant> {
        if running >= self.policy.in_flight {
            return None;
        }
        let due = self.due(Instant::now())?;
        Some(self.start_at().map_or(due, |at| due.max(at)))
    }

    /// Hands out every slot at the head whose record is known.
    fn drain<F>(&mut self, sink: &mut F) -> io::Result<()>
    where
        F: FnMut(Output<'_, O::Record>) -> io::Result<()>,
    {
        while let Some(head) = self.pending.front() {
            if let Slot::Waiting { chunk, .. } = head
                && self.chunks[chunk].answer.is_none()
            {
                break;
            }
            let record = match self.pending.pop_front().expect("head exists") {
                Slot::Skip => {
                    sink(Output::Skipped)?;
                    continue;
                }
                Slot::Done(r) => {
                    self.totals.count(&*r, None);
                    *r
                }
                Slot::Waiting { chunk, key, input } => self.answer(chunk, &key, input),
            };
            O::count(&mut self.totals.counts, &record);
            sink(Output::Record(&record))?;
        }
        Ok(())
    }

    /// The record of an input waiting on `key` of answered chunk `id`,
    /// counted; the chunk goes once no input waits on it.
    fn answer(&mut self, id: u64, key: &O::Key, input: O::Input) -> O::Record {
        let ch = self.chunks.get_mut(&id).expect("chunk exists");
        let carried = (ch.group, key.clone());
        let c = self.carried.get_mut(&carried).expect("key counted");
        debug_assert_eq!(c.chunk, id, "a waiting input's key is carried by its chunk");
        c.waiting -= 1;
        let last = c.waiting == 0;
        ch.left -= 1;
        let answer = ch.answer.as_mut().expect("answered");
        let record = self
            .op
            .record(input, key, answer.as_mut().map_err(|e| &*e), last);
        let chunk_error = ch.answer.as_ref().and_then(|a| a.as_ref().err());
        self.totals.count(&record, chunk_error);
        // The key's part of the answer may be gone now: a repeat arriving
        // while the chunk still lives for its other keys is asked again.
        if last {
            self.carried.remove(&carried);
        }
        // Every key of a chunk no input waits on was forgotten above.
        if ch.left == 0 {
            self.chunks.remove(&id);
        }
        record
    }

    fn progress(&self) -> Progress {
        Progress {
            done: self.totals.submitted,
            total: self.input.eof.then_some(self.input.records),
            requests: self.requests(),
        }
    }
}

/// Runs `op` over a stream of input lines, handing each record to `sink` in
/// input order as soon as it and everything before it is known. Inputs the
/// operation cannot use become its error records in place; a chunk that
/// fails after retries gives each of its inputs an error record with its
/// reason, and the run goes on.
///
/// Errors: a line that cannot be read is `invalid_argument` (its message
/// names the input); the sink's error is [`Failure::Output`].
pub async fn run<O, S, F>(op: &O, input: S, sink: &mut F) -> Result<Totals<O::Counts>, Failure>
where
    O: Op,
    S: Stream<Item = io::Result<O::Line>> + Unpin,
    F: FnMut(Output<'_, O::Record>) -> io::Result<()>,
{
    let mut input = input;
    let mut e = Engine::new(op);
    let mut running: Running<'_, O::Answer> = FuturesUnordered::new();
    loop {
        e.drain(sink).map_err(Failure::Output)?;
        e.update_hold(Instant::now());
        // Chunks are sealed only when a request can start now.
        e.start(&mut running);
        if e.input.eof && e.pending.is_empty() && running.is_empty() {
            break;
        }
        let can_read = !e.input.eof && !e.input.held;
        let wake = e.wake(running.len());
        // Answers and input before timers: a busy runtime that polls late
        // must not look like stalled input and send chunks half full.
        tokio::select! {
            biased;
            Some((id, answer)) = running.next(), if !running.is_empty() => {
                if let Some(ch) = e.chunks.get_mut(&id) {
                    ch.answer = Some(answer);
                }
                e.drain(sink).map_err(Failure::Output)?;
                sink(Output::Progress(e.progress())).map_err(Failure::Output)?;
                sink(Output::Flush).map_err(Failure::Output)?;
            },
            line = input.next(), if can_read => match line {
                None => e.input.eof = true,
                Some(Err(err)) => {
                    return Err(Error::new(Reason::InvalidArgument, err.to_string()).into());
                }
                Some(Ok(l)) => e.add(l),
            },
            // A chunk is due and a request can start.
            _ = tokio::time::sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                e.input.quiet = true;
                sink(Output::Flush).map_err(Failure::Output)?;
            },
            // Every waiting line's chunk is open, sealed or running, so one
            // branch above is always live; never spin if that breaks.
            else => {
                debug_assert!(false, "the batch engine has nothing to wait for");
                tokio::time::sleep(IDLE_FLUSH).await;
            }
        }
    }
    e.totals.requests = e.requests();
    Ok(e.totals)
}

/// Runs `op` over IDs given at once (CLI arguments, MCP): every one is
/// checked first ([`Op::check`]), and the first that fails fails the call
/// before any request. Gives the records, one per ID in order, and the
/// totals (a failed chunk's inputs are error records; the first failure is
/// in the totals).
///
/// Errors: the first bad ID's (`malformed_id`).
pub async fn collect<O>(op: &O, ids: &[String]) -> Result<(Vec<O::Record>, Totals<O::Counts>)>
where
    O: Op<Line = InputLine>,
    O::Record: Clone,
{
    collect_reporting(op, ids, |_| {}).await
}

/// [`collect`], calling `progress` as each chunk is answered (MCP progress
/// notifications).
///
/// Errors: as [`collect`].
pub async fn collect_reporting<O, P>(
    op: &O,
    ids: &[String],
    mut progress: P,
) -> Result<(Vec<O::Record>, Totals<O::Counts>)>
where
    O: Op<Line = InputLine>,
    O::Record: Clone,
    P: FnMut(Progress) + Send,
{
    for id in ids {
        op.check(id)?;
    }
    let mut records = Vec::with_capacity(ids.len());
    let mut sink = |o: Output<'_, O::Record>| {
        match o {
            Output::Record(r) => records.push(r.clone()),
            Output::Progress(p) => progress(p),
            Output::Skipped | Output::Flush => {}
        }
        Ok(())
    };
    let totals = run(op, id_lines(ids), &mut sink)
        .await
        .map_err(Failure::into_op_error)?;
    Ok((records, totals))
}

/// Bytes a waiting line costs the engine besides its strings: its slot in
/// the reorder buffer and its key's entry in the carried map (a unit
/// test's budget, docs/convert.md "Memory").
#[cfg(test)]
pub(crate) fn bytes_per_line<O: Op>() -> (usize, usize) {
    (
        std::mem::size_of::<Slot<O>>(),
        std::mem::size_of::<((O::Group, O::Key), Carried)>(),
    )
}

#[cfg(test)]
mod tests;
