//! `fetch` / `pubmed_fetch_articles`: full PubMed records for any number of
//! PMIDs through EFetch (docs/fetch.md). One record per input line, in
//! input order, as soon as it and everything before it is known; inputs of
//! any size stream through with bounded memory, in chunks of
//! [`EFETCH_CHUNK`] PMIDs flowing at the pacer's rate.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::sync::Arc;
use std::time::Duration;

use futures::stream::FuturesUnordered;
use futures::{Stream, StreamExt};
use serde::Serialize;
use serde::ser::SerializeMap;

use super::convert::InputLine;
pub use crate::core::ids::check_pmid;
use crate::core::record::Record;
use crate::error::{Error, Exit, Failure, Reason, Result};
use crate::ncbi::efetch::{EFETCH_CHUNK, EfetchAnswer, Entry, MissingReason, Mode};
use crate::ncbi::{Client, Db};

/// Chunks outstanding at once: enough to keep the pacer busy, few enough
/// that the bodies in memory stay bounded.
pub const MAX_CHUNKS_IN_FLIGHT: usize = 4;
/// With input idle this long and nothing else to send, a partial chunk goes.
const IDLE_FLUSH: Duration = Duration::from_millis(250);
/// A partial chunk goes at the latest this long after its first PMID, once
/// a request could start.
const MAX_CHUNK_AGE: Duration = Duration::from_secs(1);

pub use super::record::{RecordError, RecordReason};

/// The reasons a fetched PMID can have that belong to the record, not to a
/// request (docs/fetch.md "What each PMID gets").
pub const PER_RECORD_REASONS: [RecordReason; 2] =
    [RecordReason::MalformedId, RecordReason::NotFound];

/// What to fetch: the EFetch mode and the chunk size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchOptions {
    /// XML records (parsed; raw bytes kept when asked) or MEDLINE text.
    pub mode: Mode,
    /// PMIDs per request (at most [`EFETCH_CHUNK`]).
    pub chunk: usize,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            mode: Mode::Xml { keep_raw: false },
            chunk: EFETCH_CHUNK,
        }
    }
}

/// The output for one input PMID: a record, or an error in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The input as written (trimmed).
    pub requested: String,
    /// The PMID: NCBI's (no leading zeros) when valid, else as written.
    pub pmid: String,
    /// The parsed record (XML mode).
    pub record: Option<Box<Record>>,
    /// The article's own bytes as NCBI sent them: the XML element (`-f
    /// xml`) or the MEDLINE record (`-f medline`).
    pub raw: Option<String>,
    /// The text before `<PubmedArticleSet>` in the answer (XML mode).
    pub prolog: Option<Arc<str>>,
    /// Why there is no record: `not_found`, `malformed_id`,
    /// `ncbi_invalid_response`, or the failing chunk's reason.
    pub error: Option<RecordError>,
}

impl Fetched {
    fn failed(
        requested: &str,
        pmid: &str,
        reason: RecordReason,
        message: impl Into<String>,
    ) -> Fetched {
        Fetched {
            requested: requested.to_string(),
            pmid: pmid.to_string(),
            record: None,
            raw: None,
            prolog: None,
            error: Some(RecordError {
                reason,
                message: message.into(),
                words: None,
            }),
        }
    }
}

/// JSON: the record's own fields, or `{"pmid", "error": {reason, message}}`.
impl Serialize for Fetched {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match (&self.record, &self.error) {
            (Some(r), None) => r.serialize(s),
            (_, error) => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("pmid", &self.pmid)?;
                if let Some(e) = error {
                    m.serialize_entry("error", e)?;
                }
                m.end()
            }
        }
    }
}

/// What the engine hands out, in input order.
#[derive(Debug)]
pub enum Output<'a> {
    /// The record (or error) for a PMID line.
    Record(&'a Fetched),
    /// A skipped line (blank or comment).
    Skipped,
    /// The engine is about to wait: a good moment to flush.
    Flush,
}

/// Counts for the summary line and JSON totals.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Totals {
    /// PMID lines (records).
    pub submitted: u64,
    /// Records found.
    pub found: u64,
    /// Records with an error.
    pub failed: u64,
    /// Failed records by reason.
    pub by_reason: std::collections::BTreeMap<String, u64>,
    /// HTTP requests sent to EFetch (retries included).
    pub requests: u64,
    /// The first failure that is not per-ID (a chunk's, or a record NCBI
    /// sent that cannot be read): it decides the exit code.
    pub first_failure: Option<Error>,
}

impl Totals {
    /// The batch exit status (docs/fetch.md): the first non-per-ID
    /// failure's; else not found when every record failed per-ID; else
    /// success.
    pub fn exit(&self) -> Exit {
        match &self.first_failure {
            Some(e) => e.reason.exit(),
            None if self.submitted > 0 && self.found == 0 => Exit::NotFound,
            None => Exit::Success,
        }
    }
}

enum SlotState {
    Ready(Box<Fetched>),
    Skip,
    Waiting { chunk: u64, key: String },
}

struct Slot {
    requested: String,
    state: SlotState,
}

struct Chunk {
    opened: tokio::time::Instant,
    ids: Vec<String>,
    /// Slots still waiting on each PMID of the chunk.
    keys: HashMap<String, usize>,
    answer: Option<EfetchAnswer>,
}

/// The `pmid` the record of input `line` carries (NCBI's form of a valid
/// PMID, else the line as written); `None` for a skipped line, which has
/// no record. A resumed run matches FILE's records to its input with it
/// (docs/fetch.md "Resume").
pub fn record_key(line: &InputLine) -> Option<String> {
    match line {
        InputLine::Skip => None,
        InputLine::Undecodable(shown) => Some(shown.clone()),
        InputLine::Id(raw) => Some(check_pmid(raw).unwrap_or_else(|_| raw.clone())),
    }
}

/// Reads past the input lines whose records FILE already holds: `written`
/// are those records' PMIDs, in file order, which must be the input's
/// first records. Returns how many lines were passed.
///
/// Errors: `invalid_argument` when the input differs from what FILE was
/// written from (another PMID at a place, or fewer records), naming the
/// place; a line that cannot be read, as `invalid_argument`.
pub async fn skip_written<S>(input: &mut S, written: &[String], file: &str) -> Result<u64>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
{
    let changed = |why: String| {
        Error::new(
            Reason::InvalidArgument,
            format!(
                "the input is not the one {file} was written from ({why}): refusing to mix their output; use another --output, or run without --resume to start over"
            ),
        )
    };
    let mut lines = 0u64;
    for (n, want) in written.iter().enumerate() {
        loop {
            let line = match input.next().await {
                None => {
                    return Err(changed(format!(
                        "it has {n} records, {file} holds {}",
                        written.len()
                    )));
                }
                Some(Err(e)) => return Err(Error::new(Reason::InvalidArgument, e.to_string())),
                Some(Ok(l)) => l,
            };
            lines += 1;
            match record_key(&line) {
                None => continue,
                Some(k) if k == *want => break,
                Some(k) => {
                    return Err(changed(format!(
                        "record {} is PMID {k}, in {file} it is {want}",
                        n + 1
                    )));
                }
            }
        }
    }
    Ok(lines)
}

/// Validates every PMID of a list given at once (CLI arguments, MCP), no
/// request. Errors: the first malformed one as `malformed_id`.
pub fn check_pmids(input: &[String]) -> Result<()> {
    for raw in input {
        check_pmid(raw)?;
    }
    Ok(())
}

fn fetched_from(requested: &str, pmid: &str, entry: Entry, prolog: Option<Arc<str>>) -> Fetched {
    let mut f = Fetched {
        requested: requested.to_string(),
        pmid: pmid.to_string(),
        record: None,
        raw: None,
        prolog: None,
        error: None,
    };
    match entry {
        Entry::Article { record, raw } => {
            f.pmid = record.pmid.clone();
            f.record = Some(record);
            f.raw = raw;
            f.prolog = prolog;
        }
        Entry::Medline(text) => f.raw = Some(text),
        Entry::Missing { reason, message } => {
            let reason = match reason {
                MissingReason::NotFound => RecordReason::NotFound,
                MissingReason::Invalid => RecordReason::Request(Reason::NcbiInvalidResponse),
                MissingReason::Failed(r) => RecordReason::Request(r),
            };
            f.error = Some(RecordError {
                reason,
                message,
                words: None,
            });
        }
    }
    f
}

struct Engine {
    options: FetchOptions,
    pending: VecDeque<Slot>,
    chunks: HashMap<u64, Chunk>,
    open: Option<u64>,
    ready: VecDeque<u64>,
    next_chunk: u64,
    totals: Totals,
}

impl Engine {
    fn close(&mut self) {
        if let Some(id) = self.open.take() {
            self.ready.push_back(id);
        }
    }

    fn add(&mut self, line: InputLine) {
        let raw = match line {
            InputLine::Skip => {
                self.pending.push_back(Slot {
                    requested: String::new(),
                    state: SlotState::Skip,
                });
                return;
            }
            InputLine::Undecodable(shown) => {
                let f = Fetched::failed(
                    &shown,
                    &shown,
                    RecordReason::MalformedId,
                    "the line is not valid UTF-8",
                );
                self.pending.push_back(Slot {
                    requested: shown,
                    state: SlotState::Ready(Box::new(f)),
                });
                return;
            }
            InputLine::Id(raw) => raw,
        };
        let pmid = match check_pmid(&raw) {
            Ok(p) => p,
            Err(e) => {
                let f = Fetched::failed(&raw, &raw, RecordReason::MalformedId, e.message);
                self.pending.push_back(Slot {
                    requested: raw,
                    state: SlotState::Ready(Box::new(f)),
                });
                return;
            }
        };
        let id = match self.open {
            Some(id) => id,
            None => {
                let id = self.next_chunk;
                self.next_chunk += 1;
                self.chunks.insert(
                    id,
                    Chunk {
                        opened: tokio::time::Instant::now(),
                        ids: Vec::new(),
                        keys: HashMap::new(),
                        answer: None,
                    },
                );
                self.open = Some(id);
                id
            }
        };
        let ch = self.chunks.get_mut(&id).expect("open chunk exists");
        let waiting = ch.keys.entry(pmid.clone()).or_insert(0);
        if *waiting == 0 {
            ch.ids.push(pmid.clone());
        }
        *waiting += 1;
        if ch.ids.len() >= self.options.chunk {
            self.close();
        }
        self.pending.push_back(Slot {
            requested: raw,
            state: SlotState::Waiting {
                chunk: id,
                key: pmid,
            },
        });
    }

    fn count(&mut self, f: &Fetched) {
        self.totals.submitted += 1;
        match &f.error {
            None => self.totals.found += 1,
            Some(e) => {
                self.totals.failed += 1;
                *self
                    .totals
                    .by_reason
                    .entry(e.reason.as_str().to_string())
                    .or_default() += 1;
                if let Some(reason) = e.reason.request_failure()
                    && self.totals.first_failure.is_none()
                {
                    self.totals.first_failure = Some(Error::new(reason, e.message.clone()));
                }
            }
        }
    }

    /// Hands out every slot at the head whose answer is known.
    fn drain(&mut self, sink: &mut dyn FnMut(Output<'_>) -> io::Result<()>) -> io::Result<()> {
        while let Some(head) = self.pending.front() {
            if let SlotState::Waiting { chunk, .. } = &head.state
                && self.chunks[chunk].answer.is_none()
            {
                break;
            }
            let slot = self.pending.pop_front().expect("head exists");
            let fetched = match slot.state {
                SlotState::Skip => {
                    sink(Output::Skipped)?;
                    continue;
                }
                SlotState::Ready(f) => *f,
                SlotState::Waiting { chunk, key } => {
                    let ch = self.chunks.get_mut(&chunk).expect("chunk exists");
                    let answer = ch.answer.as_mut().expect("answered");
                    let left = ch.keys.get_mut(&key).expect("key counted");
                    *left -= 1;
                    let entry = if *left == 0 {
                        answer.entries.remove(&key)
                    } else {
                        answer.entries.get(&key).cloned()
                    };
                    let entry = entry.unwrap_or_else(|| Entry::Missing {
                        reason: MissingReason::NotFound,
                        message: "EFetch returned no record for this PMID".into(),
                    });
                    let prolog = answer.prolog.clone();
                    let f = fetched_from(&slot.requested, &key, entry, prolog);
                    if ch.keys.values().all(|n| *n == 0) {
                        self.chunks.remove(&chunk);
                    }
                    f
                }
            };
            self.count(&fetched);
            sink(Output::Record(&fetched))?;
        }
        Ok(())
    }
}

/// Fetches a stream of input lines, handing each record to `sink` in input
/// order as soon as it and everything before it is known. Malformed lines
/// become `malformed_id` records; a PMID EFetch does not return becomes a
/// `not_found` record; a chunk that fails after retries (and halving)
/// gives each of its PMIDs an error record with its reason, and the run
/// goes on.
///
/// Errors: a line that cannot be read is `invalid_argument` (its message
/// names the input); the sink's error is [`Failure::Output`].
pub async fn fetch_stream<S, F>(
    client: &Client,
    input: S,
    options: FetchOptions,
    sink: &mut F,
) -> Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(Output<'_>) -> io::Result<()>,
{
    let mut input = input;
    let sent_before = client.requests_sent();
    let options = FetchOptions {
        chunk: options.chunk.clamp(1, EFETCH_CHUNK),
        ..options
    };
    let limit = client
        .settings()
        .policy
        .max_in_flight
        .clamp(1, MAX_CHUNKS_IN_FLIGHT);
    let max_pending = options.chunk * (limit + 1);
    let mut e = Engine {
        options,
        pending: VecDeque::new(),
        chunks: HashMap::new(),
        open: None,
        ready: VecDeque::new(),
        next_chunk: 0,
        totals: Totals::default(),
    };
    let mut running = FuturesUnordered::new();
    let mut eof = false;
    loop {
        if eof || e.pending.len() >= max_pending {
            e.close();
        }
        while running.len() < limit {
            let Some(id) = e.ready.pop_front() else { break };
            let ids = e.chunks[&id].ids.clone();
            running.push(async move { (id, client.efetch(Db::Pubmed, &ids, options.mode).await) });
        }
        e.drain(sink).map_err(Failure::Output)?;
        if eof && e.pending.is_empty() && running.is_empty() {
            break;
        }
        let can_read = !eof && e.pending.len() < max_pending;
        // A partial chunk is sent only when a request could start now.
        let could_start = running.len() < limit && e.ready.is_empty();
        let partial = could_start && e.open.is_some();
        let too_old = e
            .open
            .map(|id| e.chunks[&id].opened + MAX_CHUNK_AGE)
            .unwrap_or_else(tokio::time::Instant::now);
        // Answers and input before timers: a busy runtime that polls late
        // must not look like stalled input and send chunks half full.
        tokio::select! {
            biased;
            Some((id, answer)) = running.next(), if !running.is_empty() => {
                if let Some(ch) = e.chunks.get_mut(&id) {
                    ch.answer = Some(answer);
                }
                e.drain(sink).map_err(Failure::Output)?;
                sink(Output::Flush).map_err(Failure::Output)?;
            },
            line = input.next(), if can_read => match line {
                None => eof = true,
                Some(Err(err)) => {
                    return Err(Error::new(Reason::InvalidArgument, err.to_string()).into());
                }
                Some(Ok(l)) => e.add(l),
            },
            _ = tokio::time::sleep(IDLE_FLUSH), if partial => {
                e.close();
                sink(Output::Flush).map_err(Failure::Output)?;
            },
            _ = tokio::time::sleep_until(too_old), if partial => e.close(),
        }
    }
    e.totals.requests = client.requests_sent() - sent_before;
    Ok(e.totals)
}

/// Fetches a list of PMIDs given at once (CLI arguments, MCP): every
/// element is validated first, and the first malformed one fails the call.
///
/// Errors: `malformed_id` naming the element; otherwise the records, one
/// per element in order (chunk failures are per-record errors, and the
/// first is in the totals).
pub async fn fetch_pmids(
    client: &Client,
    input: &[String],
    options: FetchOptions,
) -> Result<(Vec<Fetched>, Totals)> {
    check_pmids(input)?;
    let lines = futures::stream::iter(
        input
            .iter()
            .map(|s| Ok(InputLine::Id(s.clone())))
            .collect::<Vec<_>>(),
    );
    let mut records = Vec::with_capacity(input.len());
    let mut sink = |o: Output<'_>| {
        if let Output::Record(r) = o {
            records.push(r.clone());
        }
        Ok(())
    };
    let totals = fetch_stream(client, lines, options, &mut sink)
        .await
        .map_err(Failure::into_op_error)?;
    Ok((records, totals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmids_are_validated_like_convert() {
        assert_eq!(check_pmid("0012091962").unwrap(), "12091962");
        assert_eq!(check_pmid(" 9997 ").unwrap(), "9997");
        for bad in ["0", "PMC123", "12,13", "12 13", "abc", ""] {
            assert_eq!(
                check_pmid(bad).unwrap_err().reason,
                Reason::MalformedId,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn exit_codes_follow_the_batch_rule() {
        let mut t = Totals {
            submitted: 2,
            found: 1,
            failed: 1,
            ..Default::default()
        };
        assert_eq!(t.exit(), Exit::Success);
        t.found = 0;
        assert_eq!(t.exit(), Exit::NotFound);
        t.first_failure = Some(Error::new(Reason::NcbiRateLimited, "429"));
        assert_eq!(t.exit(), Exit::TempFail);
        assert_eq!(Totals::default().exit(), Exit::Success);
    }

    #[test]
    fn errors_serialize_in_place() {
        let f = Fetched::failed("99999999", "99999999", RecordReason::NotFound, "gone");
        assert_eq!(
            serde_json::to_value(&f).unwrap(),
            serde_json::json!({"pmid": "99999999", "error": {"reason": "not_found", "message": "gone"}})
        );
    }
}
