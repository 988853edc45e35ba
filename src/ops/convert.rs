//! `convert` / `pubmed_convert_ids`: DOI ↔ PMID ↔ PMCID through the PMC ID
//! Converter (docs/convert.md). One record per input element, in input order,
//! under the caller's own spelling; inputs of any size stream through with
//! bounded memory, grouped by type and chunked at 200 IDs, chunks flowing
//! at the pacer's rate.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::time::Duration;

use futures::stream::FuturesUnordered;
use futures::{Stream, StreamExt};
use serde::Serialize;

use crate::core::ids::{self, Canonical, IdType};
use crate::error::{Error, Exit, Failure, Reason, Result, Term, Words};
use crate::ncbi::Client;
use crate::ncbi::idconv::{IDCONV_MAX_IDS, IdconvAnswer, IdconvRecord, message_names as names};
use crate::ncbi::pacer::Lane;

/// The longest ID Converter URL sent (docs/convert.md "Requests").
const MAX_URL: usize = 8000;
/// Input lines held while their answers are pending; bounds memory (about
/// 8 MB at most). A full buffer stops reading; only the chunk holding its
/// oldest line may then go partial, which at this size costs at most one
/// request per 19,000 lines read (docs/convert.md "Chunks").
pub const MAX_PENDING: usize = 20_000;
/// With no new input line for this long, a partial chunk may be sent.
const IDLE_FLUSH: Duration = Duration::from_millis(250);
/// A partial chunk may be sent once its first ID has waited this long.
const MAX_CHUNK_AGE: Duration = Duration::from_secs(1);
/// A shared-budget slot this close counts as now (the budget's clock is
/// the wall clock in whole milliseconds).
const SHARED_SLACK: Duration = Duration::from_millis(20);

pub use super::record::{RecordError, RecordReason};

/// The reasons a convert record can have that belong to the record, not to
/// a request (docs/convert.md "Records").
pub const PER_RECORD_REASONS: [RecordReason; 4] = [
    RecordReason::MalformedId,
    RecordReason::NotInPmc,
    RecordReason::NoRecordReturned,
    RecordReason::NotFound,
];

/// Where a record's answer came from (`source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The PMC ID Converter.
    Pmc,
    /// PubMed (ESummary / ESearch), for an ID the Converter has no record
    /// of (`--fallback pubmed`, docs/convert-fallback.md).
    Pubmed,
}

impl Source {
    /// `pmc` or `pubmed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Pmc => "pmc",
            Source::Pubmed => "pubmed",
        }
    }
}

/// One output record (docs/convert.md "Records").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConvertRecord {
    /// The input as the user wrote it (trimmed).
    pub requested: String,
    /// PMID, as a string.
    pub pmid: Option<String>,
    /// PMCID.
    pub pmcid: Option<String>,
    /// DOI, cased as the Converter reports it.
    pub doi: Option<String>,
    /// Absent on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<RecordError>,
    /// Where the answer came from; absent when there is none (an error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

impl ConvertRecord {
    fn failed(requested: &str, reason: RecordReason, message: impl Into<String>) -> ConvertRecord {
        ConvertRecord {
            requested: requested.to_string(),
            pmid: None,
            pmcid: None,
            doi: None,
            error: Some(RecordError {
                reason,
                message: message.into(),
                words: None,
            }),
            source: None,
        }
    }

    /// The converted ID of type `to`, if any (`--to`).
    pub fn get(&self, to: IdType) -> Option<&str> {
        match to {
            IdType::Pmid => self.pmid.as_deref(),
            IdType::Pmcid => self.pmcid.as_deref(),
            IdType::Doi => self.doi.as_deref(),
        }
    }
}

/// One line of input: an ID, or a blank/comment line (file input) that is
/// skipped but keeps its place for `--format ids`.
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

/// What the engine hands out, in input order.
#[derive(Debug)]
pub enum Output<'a> {
    /// The record for an ID line.
    Record(&'a ConvertRecord),
    /// A skipped line (blank or comment).
    Skipped,
    /// The engine is about to wait: a good moment to flush what was written.
    Flush,
}

/// Counts for the summary line and JSON totals.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Totals {
    /// ID lines (records).
    pub submitted: u64,
    /// Records without error.
    pub converted: u64,
    /// Records with an error.
    pub failed: u64,
    /// Failed records by reason.
    pub by_reason: std::collections::BTreeMap<&'static str, u64>,
    /// HTTP requests sent to the Converter (retries included).
    pub requests: u64,
    /// The first chunk that failed after retries; it decides the exit code.
    pub first_chunk_failure: Option<Error>,
}

impl Totals {
    /// The upstream failure of the run, if any: the first chunk that
    /// failed after retries, or the first record whose reason is a failed
    /// request's. Per-record failures alone (`malformed_id`, `not_in_pmc`,
    /// `no_record_returned`) are records, not a failure of the run. The CLI
    /// exits with this error's status ([`Totals::exit`]); MCP answers with
    /// it as an `isError` result (docs/mcp.md "Errors").
    pub fn failure(&self) -> Option<&Error> {
        self.first_chunk_failure.as_ref()
    }

    /// The exit status of a batch: [`Totals::failure`]'s reason's; else
    /// [`Exit::NotFound`] (1) when records were asked for and none converted
    /// (every input failed on its own: scripts can test a single ID, as with
    /// grep); else success.
    pub fn exit(&self) -> Exit {
        match self.failure() {
            Some(e) => e.reason.exit(),
            None if self.submitted > 0 && self.converted == 0 => Exit::NotFound,
            None => Exit::Success,
        }
    }
}

enum SlotState {
    Ready(ConvertRecord),
    Skip,
    Waiting { chunk: u64, key: String },
}

struct Slot {
    requested: String,
    idtype: Option<IdType>,
    state: SlotState,
}

#[derive(Default)]
struct Chunk {
    idtype: Option<IdType>,
    /// When its first ID arrived (a partial chunk waits at most
    /// [`MAX_CHUNK_AGE`]).
    opened: Option<tokio::time::Instant>,
    ids: Vec<String>,
    keys: HashMap<String, ()>,
    chars: usize,
    result: Option<std::result::Result<HashMap<String, Answer>, Error>>,
    refs: usize,
}

fn encoded_len(s: &str) -> usize {
    url::form_urlencoded::byte_serialize(s.as_bytes())
        .map(str::len)
        .sum::<usize>()
        + 3
}

/// What a chunk learnt about one of its IDs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    /// The Converter's record.
    Record(IdconvRecord),
    /// The Converter rejected every request holding this ID, alone too,
    /// with this message.
    Rejected(String),
}

/// A chunk's answers: the records, and the IDs (as sent) the Converter
/// rejected.
#[derive(Debug, Default)]
struct ChunkAnswer {
    records: Vec<IdconvRecord>,
    rejected: Vec<(String, String)>,
}

/// Converts one chunk. When the Converter rejects the whole request, the
/// IDs its message names are set aside and the rest sent again; otherwise
/// the request is split in halves until each rejected ID stands alone
/// (about 2·log2(n) more requests per bad ID), so one bad ID never costs
/// the others (docs/convert.md "A request the Converter rejects whole").
///
/// Errors: a request that fails after retries fails the chunk.
async fn convert_chunk(client: &Client, idtype: IdType, ids: Vec<String>) -> Result<ChunkAnswer> {
    let mut out = ChunkAnswer::default();
    let mut todo = vec![ids];
    while let Some(part) = todo.pop() {
        let msg = match client.idconv(idtype, &part).await? {
            IdconvAnswer::Records(r) => {
                out.records.extend(r);
                continue;
            }
            IdconvAnswer::Rejected(msg) => msg,
        };
        let (named, rest): (Vec<String>, Vec<String>) =
            part.iter().cloned().partition(|id| names(&msg, id));
        if !named.is_empty() {
            out.rejected
                .extend(named.into_iter().map(|id| (id, msg.clone())));
            if !rest.is_empty() {
                todo.push(rest);
            }
        } else if part.len() == 1 {
            out.rejected.push((part[0].clone(), msg));
        } else {
            let (a, b) = part.split_at(part.len() / 2);
            todo.push(b.to_vec());
            todo.push(a.to_vec());
        }
    }
    Ok(out)
}

/// The record of an ID the Converter rejected: `malformed_id`, in its words.
fn rejected_record(requested: &str, idtype: IdType, msg: &str) -> ConvertRecord {
    ConvertRecord::failed(
        requested,
        RecordReason::MalformedId,
        format!(
            "the ID Converter rejects this {}: {msg} (a {} is {})",
            idtype.as_str().to_uppercase(),
            idtype.as_str().to_uppercase(),
            idtype.expected_form()
        ),
    )
}

/// Indexes a chunk's answers by canonical key.
fn index_chunk(idtype: IdType, answer: ChunkAnswer) -> HashMap<String, Answer> {
    let mut map: HashMap<String, Answer> = index_answer(idtype, answer.records)
        .into_iter()
        .map(|(k, r)| (k, Answer::Record(r)))
        .collect();
    for (id, msg) in answer.rejected {
        map.insert(ids::answer_key(idtype, &id), Answer::Rejected(msg));
    }
    map
}

/// Matches answers back to canonical keys: by `requested-id` when the
/// service echoes it, else by the record's field for the request's type.
fn index_answer(idtype: IdType, records: Vec<IdconvRecord>) -> HashMap<String, IdconvRecord> {
    let mut map = HashMap::new();
    for mut r in records {
        // `requested-id` only matches the record back; it is not kept.
        let reported = r.requested_id.take().or_else(|| match idtype {
            IdType::Pmid => r.pmid.clone(),
            IdType::Pmcid => r.pmcid.clone(),
            IdType::Doi => r.doi.clone(),
        });
        if let Some(rep) = reported {
            map.entry(ids::answer_key(idtype, &rep)).or_insert(r);
        }
    }
    map
}

/// The reason for a per-record `errmsg`: the Converter's "not in PMC"
/// answers (`Identifier not found in PMC`, `invalid article id`) are
/// `not_in_pmc`; other texts are classified like any NCBI error text.
fn errmsg_reason(errmsg: &str) -> Reason {
    let t = errmsg.to_lowercase();
    if t.contains("not found") || t.contains("invalid article id") {
        return Reason::NcbiResourceNotFound;
    }
    match crate::ncbi::classify::error_text_kind(errmsg) {
        crate::ncbi::classify::ErrorTextKind::Caller => Reason::InvalidArgument,
        crate::ncbi::classify::ErrorTextKind::NotFound => Reason::NcbiResourceNotFound,
        crate::ncbi::classify::ErrorTextKind::Transient => Reason::NcbiUnreachable,
        crate::ncbi::classify::ErrorTextKind::InvalidApiKey => Reason::InvalidApiKey,
    }
}

/// The record for one input: `key` is its canonical form, used in the
/// "look in PubMed" hint.
fn record_from(
    requested: &str,
    idtype: IdType,
    key: &str,
    answer: Option<&IdconvRecord>,
) -> ConvertRecord {
    match answer {
        None => ConvertRecord::failed(
            requested,
            RecordReason::NoRecordReturned,
            "the ID Converter returned no record for this ID",
        ),
        Some(r) if r.error.is_some() => {
            let errmsg = r.error.as_deref().unwrap_or("error");
            match errmsg_reason(errmsg) {
                Reason::NcbiResourceNotFound => {}
                other => {
                    return ConvertRecord::failed(
                        requested,
                        RecordReason::Request(other),
                        format!("the ID Converter answered this ID with an error: {errmsg}"),
                    );
                }
            }
            let words = Words::new().text(format!("not in PMC ({errmsg})"));
            let words = match idtype {
                IdType::Pmid | IdType::Doi => {
                    let query = format!("{key}[{}]", idtype.as_str());
                    words.text("; it may still be in PubMed: ").term(
                        Term::Search(query.clone()),
                        format!("pubmed search '{query}'"),
                    )
                }
                IdType::Pmcid => words.text("; check the PMCID"),
            };
            let mut record = ConvertRecord::failed(requested, RecordReason::NotInPmc, words.cli());
            if let Some(e) = &mut record.error {
                e.words = Some(words);
            }
            record
        }
        Some(r) => ConvertRecord {
            requested: requested.to_string(),
            pmid: r.pmid.clone(),
            pmcid: r.pmcid.clone(),
            doi: r.doi.clone(),
            error: None,
            source: Some(Source::Pmc),
        },
    }
}

/// What the input is doing, for the partial-chunk rules.
struct InputState {
    /// The input has ended.
    eof: bool,
    /// Reading is held because the reorder buffer is full.
    held: bool,
    /// When the last line arrived (moved on by the time reading was held).
    last_line: tokio::time::Instant,
}

struct Engine<'c> {
    client: &'c Client,
    from: Option<IdType>,
    /// Encoded characters left for `ids` once the URL's other parts are counted.
    ids_budget: usize,
    /// Live chunks by canonical ID: a repeat is answered from the chunk
    /// that already carries it, even after that chunk was sent.
    carried: HashMap<(IdType, String), u64>,
    pending: VecDeque<Slot>,
    chunks: HashMap<u64, Chunk>,
    open: HashMap<IdType, u64>,
    ready: VecDeque<u64>,
    next_chunk: u64,
    totals: Totals,
}

impl<'c> Engine<'c> {
    fn close(&mut self, idtype: IdType) {
        if let Some(id) = self.open.remove(&idtype) {
            self.ready.push_back(id);
        }
    }

    /// Queues a slot whose record is already known (malformed input).
    fn ready(&mut self, requested: String, message: &str) {
        self.pending.push_back(Slot {
            state: SlotState::Ready(ConvertRecord::failed(
                &requested,
                RecordReason::MalformedId,
                message,
            )),
            requested,
            idtype: None,
        });
    }

    /// The chunk that answers `c`: the live one already carrying it, or the
    /// open chunk of its type (closed first when full), with `c` added.
    fn chunk_for(&mut self, c: &Canonical, len: usize) -> u64 {
        let carried_key = (c.idtype, c.key.clone());
        if let Some(&id) = self.carried.get(&carried_key) {
            return id;
        }
        if let Some(&id) = self.open.get(&c.idtype) {
            let ch = &self.chunks[&id];
            if ch.ids.len() >= IDCONV_MAX_IDS || ch.chars + len > self.ids_budget {
                self.close(c.idtype);
            }
        }
        let id = match self.open.get(&c.idtype) {
            Some(&id) => id,
            None => {
                let id = self.next_chunk;
                self.next_chunk += 1;
                self.chunks.insert(
                    id,
                    Chunk {
                        idtype: Some(c.idtype),
                        opened: Some(tokio::time::Instant::now()),
                        ..Default::default()
                    },
                );
                self.open.insert(c.idtype, id);
                id
            }
        };
        let ch = self.chunks.get_mut(&id).expect("open chunk exists");
        ch.keys.insert(c.key.clone(), ());
        ch.ids.push(c.sent.clone());
        ch.chars += len;
        let full = ch.ids.len() >= IDCONV_MAX_IDS;
        self.carried.insert(carried_key, id);
        // A full chunk can go as soon as a request can start.
        if full {
            self.close(c.idtype);
        }
        id
    }

    /// When open (partial) chunk `id` may be sent (as of `now`, read once
    /// per decision), or `None` while no rule
    /// allows it yet (docs/convert.md "Chunks"): at once when the input has
    /// ended; while reading is held by a full reorder buffer, only when the
    /// oldest waiting line is in it (nothing else could free the buffer);
    /// else once the input has been idle for [`IDLE_FLUSH`] or the chunk's
    /// first ID has waited [`MAX_CHUNK_AGE`] for more input.
    fn partial_due(
        &self,
        id: u64,
        input: &InputState,
        now: tokio::time::Instant,
    ) -> Option<tokio::time::Instant> {
        if input.eof {
            return Some(now);
        }
        if input.held {
            let head = self.pending.front().map(|s| &s.state);
            return matches!(head, Some(SlotState::Waiting { chunk, .. }) if *chunk == id)
                .then_some(now);
        }
        let aged = self.chunks[&id].opened.map_or(now, |t| t + MAX_CHUNK_AGE);
        Some(aged.min(input.last_line + IDLE_FLUSH))
    }

    /// The chunk to send now that a request can start: the oldest of the
    /// full chunks and the partial chunks that are due, so output order
    /// is not held up. A partial chunk is sealed here, at its start, never
    /// while it waits for one.
    fn pick(&mut self, input: &InputState) -> Option<u64> {
        let now = tokio::time::Instant::now();
        let partial = self
            .open
            .iter()
            .filter(|(_, id)| {
                self.partial_due(**id, input, now)
                    .is_some_and(|at| at <= now)
            })
            .map(|(t, id)| (*id, *t))
            .min();
        match (self.ready.front().copied(), partial) {
            (Some(full), Some((p, _))) if full < p => self.ready.pop_front(),
            (_, Some((p, t))) => {
                self.open.remove(&t);
                Some(p)
            }
            (Some(_), None) => self.ready.pop_front(),
            (None, None) => None,
        }
    }

    /// When [`Engine::pick`] will have something to send: now for a full
    /// chunk, else when the first partial chunk is due; `None` when nothing
    /// is or will be due without new input.
    fn due(&self, input: &InputState) -> Option<tokio::time::Instant> {
        let now = tokio::time::Instant::now();
        if !self.ready.is_empty() {
            return Some(now);
        }
        self.open
            .values()
            .filter_map(|id| self.partial_due(*id, input, now))
            .min()
    }

    /// Moves the open chunks' clocks on by `d`, the time reading was held:
    /// a chunk ages only while the input, not the buffer, keeps it waiting.
    fn shift_open(&mut self, d: Duration) {
        for id in self.open.values() {
            if let Some(ch) = self.chunks.get_mut(id)
                && let Some(t) = ch.opened.as_mut()
            {
                *t += d;
            }
        }
    }

    /// The request for sealed chunk `id`, to run beside the others. The
    /// chunk gives up its IDs (it is never added to again): the reorder
    /// buffer's memory is what a full buffer costs.
    fn send(&mut self, id: u64) -> Request<'c> {
        let ch = self.chunks.get_mut(&id).expect("sealed chunk exists");
        let idtype = ch.idtype.expect("chunks have a type");
        let ids = std::mem::take(&mut ch.ids);
        let client = self.client;
        Box::pin(async move { (id, idtype, convert_chunk(client, idtype, ids).await) })
    }

    /// Files chunk `id`'s answer (or its failure, the run's first failure
    /// when none came before) for [`Engine::drain`].
    fn answered(&mut self, id: u64, idtype: IdType, answer: Result<ChunkAnswer>) {
        let result = answer
            .map(|answer| index_chunk(idtype, answer))
            .inspect_err(|err| {
                self.totals
                    .first_chunk_failure
                    .get_or_insert_with(|| err.clone());
            });
        if let Some(ch) = self.chunks.get_mut(&id) {
            ch.result = Some(result);
        }
    }

    fn add(&mut self, line: InputLine) {
        let raw = match line {
            InputLine::Skip => {
                self.pending.push_back(Slot {
                    requested: String::new(),
                    idtype: None,
                    state: SlotState::Skip,
                });
                return;
            }
            InputLine::Undecodable(shown) => {
                return self.ready(shown, "the line is not valid UTF-8");
            }
            InputLine::Id(raw) => raw,
        };
        // The record keeps the spelling given; surrounding blanks don't
        // count against the ID.
        let trimmed = raw.trim_matches(crate::core::text::is_white_space);
        let canonical: Result<Canonical> = match self.from {
            Some(t) => ids::validate(t, trimmed),
            None => ids::detect(trimmed),
        };
        let c = match canonical {
            Err(e) => return self.ready(raw, &e.message),
            Ok(c) => c,
        };
        let len = encoded_len(&c.sent);
        if len > self.ids_budget {
            return self.ready(
                raw,
                &format!(
                    "the ID is too long for the ID Converter (its URL is limited to {MAX_URL} characters)"
                ),
            );
        }
        let id = self.chunk_for(&c, len);
        self.chunks.get_mut(&id).expect("live chunk").refs += 1;
        self.pending.push_back(Slot {
            requested: raw,
            idtype: Some(c.idtype),
            state: SlotState::Waiting {
                chunk: id,
                key: c.key,
            },
        });
    }

    /// Hands out every slot at the head whose answer is known.
    fn drain(&mut self, sink: &mut dyn FnMut(Output<'_>) -> io::Result<()>) -> io::Result<()> {
        while let Some(head) = self.pending.front() {
            let record = match &head.state {
                SlotState::Skip => None,
                SlotState::Ready(r) => Some(r.clone()),
                SlotState::Waiting { chunk, key } => {
                    let ch = &self.chunks[chunk];
                    let Some(result) = &ch.result else { break };
                    let idtype = head.idtype.unwrap_or(IdType::Pmid);
                    Some(match result {
                        Ok(map) => match map.get(key) {
                            Some(Answer::Rejected(msg)) => {
                                rejected_record(&head.requested, idtype, msg)
                            }
                            Some(Answer::Record(r)) => {
                                record_from(&head.requested, idtype, key, Some(r))
                            }
                            None => record_from(&head.requested, idtype, key, None),
                        },
                        Err(e) => ConvertRecord::failed(
                            &head.requested,
                            RecordReason::Request(e.reason),
                            e.message.clone(),
                        ),
                    })
                }
            };
            let slot = self.pending.pop_front().expect("head exists");
            if let SlotState::Waiting { chunk, .. } = slot.state {
                let ch = self.chunks.get_mut(&chunk).expect("chunk exists");
                ch.refs -= 1;
                if ch.refs == 0
                    && let Some(done) = self.chunks.remove(&chunk)
                    && let Some(t) = done.idtype
                {
                    for key in done.keys.into_keys() {
                        self.carried.remove(&(t, key));
                    }
                }
            }
            match record {
                None => sink(Output::Skipped)?,
                Some(r) => {
                    self.totals.submitted += 1;
                    match &r.error {
                        None => self.totals.converted += 1,
                        Some(e) => {
                            self.totals.failed += 1;
                            *self.totals.by_reason.entry(e.reason.as_str()).or_default() += 1;
                        }
                    }
                    if let Some(err) = &r.error
                        && let Some(reason) = err.reason.request_failure()
                        && self.totals.first_chunk_failure.is_none()
                    {
                        self.totals.first_chunk_failure =
                            Some(Error::new(reason, err.message.clone()));
                    }
                    sink(Output::Record(&r))?;
                }
            }
        }
        Ok(())
    }
}

/// Encoded characters left for the `ids` parameter once the Converter URL,
/// the other parameters and a margin are counted.
fn ids_budget(client: &Client) -> usize {
    let s = client.settings();
    let fixed = s.idconv_url.len()
        + "?ids=&idtype=pmcid&format=json&tool=&email=".len()
        + s.tool.len() * 3
        + s.email.as_ref().map_or(0, |e| e.len() * 3)
        + 100;
    MAX_URL.saturating_sub(fixed)
}

/// When the next ID Converter request could start, as the convert engine
/// sees it (docs/convert.md "Chunks"): this process's pacer, one gap after
/// the last chunk sent here and per call already waiting, and the shared
/// budget's next slot when it last said "not yet".
struct Starts<'c> {
    client: &'c Client,
    /// The Converter's gap (paced as keyless, whatever the E-utilities key).
    gap: Duration,
    /// Requests in flight at once.
    limit: usize,
    last_start: Option<tokio::time::Instant>,
    /// Other `pubmed` processes hold the lane until then.
    shared_at: Option<tokio::time::Instant>,
}

impl Starts<'_> {
    /// The earliest start, ignoring the shared budget's answer.
    fn local(&self) -> tokio::time::Instant {
        let pacer = self.client.pacer();
        let mut at = pacer.free_at(Lane::Idconv);
        if let Some(last) = self.last_start {
            at = at.max(last + self.gap);
        }
        at + self.gap * pacer.waiting() as u32
    }

    /// The earliest start, as last known.
    fn at(&self) -> tokio::time::Instant {
        let local = self.local();
        self.shared_at.map_or(local, |s| local.max(s))
    }

    /// Whether a chunk may be sealed now: a slot is free in this process
    /// and something is due; then the shared budget is asked, so a chunk
    /// that would wait for another process's requests keeps collecting IDs.
    fn may_seal(&mut self, running: usize, e: &Engine<'_>, input: &InputState) -> bool {
        if running >= self.limit || self.at() > tokio::time::Instant::now() {
            return false;
        }
        // `due` reads the clock itself: compare with a reading after it.
        if e.due(input)
            .is_none_or(|due| due > tokio::time::Instant::now())
        {
            return false;
        }
        match self.client.pacer().shared_free_at(Lane::Idconv) {
            Some(at) if at > tokio::time::Instant::now() + SHARED_SLACK => {
                self.shared_at = Some(at);
                false
            }
            _ => true,
        }
    }

    /// When to wake for the first due chunk: `None` when nothing is due
    /// without new input, or every slot is taken (a finished chunk wakes
    /// the loop then).
    fn wake(
        &self,
        running: usize,
        e: &Engine<'_>,
        input: &InputState,
    ) -> Option<tokio::time::Instant> {
        e.due(input)
            .filter(|_| running < self.limit)
            .map(|due| due.max(self.at()))
    }
}

/// Tracks how long a full reorder buffer holds reading: that time does not
/// count as the input being idle or a chunk waiting for input.
#[derive(Default)]
struct Hold {
    since: Option<tokio::time::Instant>,
}

impl Hold {
    fn update(&mut self, e: &mut Engine<'_>, input: &mut InputState, now: tokio::time::Instant) {
        input.held = !input.eof && e.pending.len() >= MAX_PENDING;
        match (input.held, self.since) {
            (true, None) => self.since = Some(now),
            (false, Some(since)) => {
                let d = now - since;
                input.last_line += d;
                e.shift_open(d);
                self.since = None;
            }
            _ => {}
        }
    }
}

type Running<'c> = FuturesUnordered<Request<'c>>;

/// One chunk's request: its id, type and answer.
type Request<'c> = futures::future::BoxFuture<'c, (u64, IdType, Result<ChunkAnswer>)>;

/// Converts a stream of input lines, handing each record to `sink` in input
/// order as soon as it and everything before it is known. `from` fixes the
/// ID type; `None` detects each ID's type. Malformed IDs become error
/// records; a chunk that fails after retries gives each of its IDs an error
/// record with the chunk's reason, and the run goes on.
///
/// Errors: a line that cannot be read is `invalid_argument` (its message
/// names the input); the sink's error is [`Failure::Output`].
pub async fn convert_stream<S, F>(
    client: &Client,
    input: S,
    from: Option<IdType>,
    sink: &mut F,
) -> Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(Output<'_>) -> io::Result<()>,
{
    let mut input = input;
    let sent_before = client.requests_sent();
    let mut e = Engine {
        client,
        from,
        ids_budget: ids_budget(client),
        carried: HashMap::new(),
        pending: VecDeque::new(),
        chunks: HashMap::new(),
        open: HashMap::new(),
        ready: VecDeque::new(),
        next_chunk: 0,
        totals: Totals::default(),
    };
    let mut starts = Starts {
        client,
        gap: client.settings().policy.gap(false),
        limit: client.settings().policy.max_in_flight.max(1),
        last_start: None,
        shared_at: None,
    };
    let mut running: Running<'_> = FuturesUnordered::new();
    let mut input_state = InputState {
        eof: false,
        held: false,
        last_line: tokio::time::Instant::now(),
    };
    let mut hold = Hold::default();
    loop {
        e.drain(sink).map_err(Failure::Output)?;
        let now = tokio::time::Instant::now();
        hold.update(&mut e, &mut input_state, now);
        // Chunks are sealed only when a request can start now.
        while starts.may_seal(running.len(), &e, &input_state) {
            let Some(id) = e.pick(&input_state) else {
                break;
            };
            starts.last_start = Some(tokio::time::Instant::now());
            running.push(e.send(id));
        }
        if input_state.eof && e.pending.is_empty() && running.is_empty() {
            break;
        }
        let can_read = !input_state.eof && !input_state.held;
        let wake = starts.wake(running.len(), &e, &input_state);
        tokio::select! {
            line = input.next(), if can_read => match line {
                None => input_state.eof = true,
                Some(Err(err)) => {
                    return Err(Error::new(Reason::InvalidArgument, err.to_string()).into());
                }
                Some(Ok(l)) => {
                    input_state.last_line = tokio::time::Instant::now();
                    e.add(l);
                }
            },
            Some((id, idtype, answer)) = running.next(), if !running.is_empty() => {
                e.answered(id, idtype, answer);
                e.drain(sink).map_err(Failure::Output)?;
                sink(Output::Flush).map_err(Failure::Output)?;
            },
            // A chunk is due and a request can start.
            _ = tokio::time::sleep_until(wake.unwrap_or(now)), if wake.is_some() => {
                sink(Output::Flush).map_err(Failure::Output)?;
            },
            // Every waiting line's chunk is open, ready or running, so one
            // branch above is always live; never spin if that breaks.
            else => {
                debug_assert!(false, "convert engine has nothing to wait for");
                tokio::time::sleep(IDLE_FLUSH).await;
            }
        }
    }
    e.totals.requests = client.requests_sent() - sent_before;
    Ok(e.totals)
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

/// Converts a list of IDs given at once (CLI arguments, MCP): every element
/// is validated first, and the first malformed one fails the whole call.
///
/// Errors: `malformed_id` naming the element; otherwise the records (chunk
/// failures are per-record errors, and the first is in the totals).
pub async fn convert_ids(
    client: &Client,
    input: &[String],
    from: Option<IdType>,
) -> Result<(Vec<ConvertRecord>, Totals)> {
    check_ids(input, from)?;
    let lines = id_lines(input);
    let mut records = Vec::with_capacity(input.len());
    let mut sink = |o: Output<'_>| {
        if let Output::Record(r) = o {
            records.push(r.clone());
        }
        Ok(())
    };
    let totals = convert_stream(client, lines, from, &mut sink)
        .await
        .map_err(Failure::into_op_error)?;
    Ok((records, totals))
}

/// Validates every ID of a list (CLI arguments, MCP `ids`; no request).
/// Errors: the first malformed element as `malformed_id`, an element with
/// whitespace anywhere included.
pub fn check_ids(input: &[String], from: Option<IdType>) -> Result<()> {
    for raw in input {
        // Whitespace anywhere in an element, leading or trailing too, is
        // malformed: only lines of an input file are trimmed.
        match from {
            Some(t) => ids::validate(t, raw)?,
            None => ids::detect(raw)?,
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_lines() {
        assert_eq!(
            InputLine::from_file_line("\u{FEFF}123\r", true),
            InputLine::Id("123".into())
        );
        assert_eq!(
            InputLine::from_file_line("\u{FEFF}123", false),
            InputLine::Id("\u{FEFF}123".into())
        );
        assert_eq!(
            InputLine::from_file_line("  # note", false),
            InputLine::Skip
        );
        assert_eq!(InputLine::from_file_line(" \t\r", false), InputLine::Skip);
        assert_eq!(
            InputLine::from_file_line("  PMC1  ", false),
            InputLine::Id("PMC1".into())
        );
    }

    #[test]
    fn rejection_messages_name_ids_in_quotes() {
        // the 404 capture's decoded message
        let m = "ID type 'doi' mismatch for '28371833'";
        assert!(names(m, "28371833"));
        assert!(!names(m, "2837183"));
        assert!(names("bad id \"10.1/ABC\"", "10.1/abc"));
        assert!(!names("Invalid value for ids", "5"));
    }

    #[test]
    fn batch_exit_codes() {
        let t = |submitted, converted, failure: Option<Reason>| Totals {
            submitted,
            converted,
            failed: submitted - converted,
            first_chunk_failure: failure.map(|r| Error::new(r, "x")),
            ..Default::default()
        };
        assert_eq!(t(3, 1, None).exit().code(), 0);
        assert_eq!(t(3, 0, None).exit().code(), 1);
        assert_eq!(t(0, 0, None).exit().code(), 0);
        assert_eq!(t(3, 2, Some(Reason::NcbiUnreachable)).exit().code(), 69);
        assert_eq!(t(3, 0, Some(Reason::NcbiRateLimited)).exit().code(), 75);
    }

    #[test]
    fn answers_match_by_requested_id_or_field() {
        let current = vec![IdconvRecord {
            requested_id: Some("pmc3531190".into()),
            pmcid: Some("PMC3531190".into()),
            pmid: Some("23193287".into()),
            ..Default::default()
        }];
        assert!(index_answer(IdType::Pmcid, current).contains_key("PMC3531190"));
        let legacy = vec![IdconvRecord {
            doi: Some("10.1038/NG.590".into()),
            pmid: Some("20495566".into()),
            ..Default::default()
        }];
        assert!(index_answer(IdType::Doi, legacy).contains_key("10.1038/ng.590"));
    }

    #[test]
    fn not_in_pmc_says_where_to_look() {
        let r = IdconvRecord {
            error: Some("Identifier not found in PMC".into()),
            ..Default::default()
        };
        let rec = record_from("023193287", IdType::Pmid, "23193287", Some(&r));
        let e = rec.error.unwrap();
        assert_eq!(e.reason, RecordReason::NotInPmc);
        assert!(e.message.contains("may still be in PubMed"));
        assert!(e.message.contains("pubmed search '23193287[pmid]'"));
        let rec = record_from("x", IdType::Doi, "x", None);
        assert_eq!(rec.error.unwrap().reason, RecordReason::NoRecordReturned);
        let r = IdconvRecord {
            error: Some("invalid article id".into()),
            ..Default::default()
        };
        assert_eq!(
            record_from("10.1/x", IdType::Doi, "10.1/x", Some(&r))
                .error
                .unwrap()
                .reason,
            RecordReason::NotInPmc
        );
        let r = IdconvRecord {
            error: Some("Internal server error, try again later".into()),
            ..Default::default()
        };
        let e = record_from("1", IdType::Pmid, "1", Some(&r)).error.unwrap();
        assert_eq!(e.reason, RecordReason::Request(Reason::NcbiUnreachable));
        assert!(e.message.contains("Internal server error"));
    }
}
