//! `fetch` / `pubmed_fetch_articles`: full PubMed records for any number of
//! PMIDs through EFetch (docs/fetch.md). One record per input line, in
//! input order, as soon as it and everything before it is known; inputs of
//! any size stream through the batch engine ([`super::batch`]) with bounded
//! memory, in chunks of [`EFETCH_CHUNK`] PMIDs flowing at the pacer's rate.

use std::io;
use std::sync::{Arc, LazyLock};

use futures::future::BoxFuture;
use futures::{Stream, StreamExt};
use serde::Serialize;
use serde::ser::SerializeMap;

pub use super::batch::Totals;
use super::batch::{self, Admit, ChunkPolicy, Failed, InputLine, Op, Outcome, Output};
use crate::cache::Kind as CacheKind;
pub use crate::core::ids::check_pmid;
use crate::core::record::Record;
use crate::error::{Error, Failure, Reason, Result};
use crate::ncbi::efetch::{EFETCH_CHUNK, EfetchAnswer, Entry, MissingReason, Mode};
use crate::ncbi::{Client, Db};

/// Chunks outstanding at once: enough to keep the pacer busy, few enough
/// that the bodies in memory stay bounded.
pub const MAX_CHUNKS_IN_FLIGHT: usize = 4;

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
    /// The caller prints each record as its JSON only (`-f json`, `-f
    /// ndjson`): a record read from the cache's parsed form is then that
    /// JSON ([`Article::Json`]), neither parsed nor serialized again
    /// (docs/cache.md "Parsed records").
    pub json_only: bool,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            mode: Mode::Xml { keep_raw: false },
            chunk: EFETCH_CHUNK,
            json_only: false,
        }
    }
}

/// What EFetch sent for one PMID it has, in the run's [`Mode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Article {
    /// XML mode: the parsed record.
    Xml {
        /// The record.
        record: Box<Record>,
        /// The article's own element as NCBI sent it, when kept (`-f xml`).
        raw: Option<String>,
        /// The text before `<PubmedArticleSet>` in the answer.
        prolog: Option<Arc<str>>,
    },
    /// MEDLINE mode (`-f medline`): the record's text as NCBI sent it,
    /// which has no parsed fields.
    Medline(String),
    /// A cached record as the JSON `-f json` prints for it, when the caller
    /// asked for nothing else ([`FetchOptions::json_only`]): no parsed
    /// fields.
    Json(RecordJson),
}

/// A record's JSON, as [`Record`]'s `Serialize` writes it (compact), taken
/// from the cache's parsed form of this build.
#[derive(Debug, Clone)]
pub struct RecordJson(Box<serde_json::value::RawValue>);

impl RecordJson {
    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for RecordJson {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for RecordJson {}

/// The output for one input PMID: the article, or the error in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The input as written (trimmed).
    pub requested: String,
    /// The PMID: NCBI's (no leading zeros) when valid, else as written.
    pub pmid: String,
    /// The article, or why there is none: `not_found`, `malformed_id`,
    /// `ncbi_invalid_response`, or the failing chunk's reason.
    pub outcome: std::result::Result<Article, RecordError>,
}

/// The error in place of a form of the record the run's [`Mode`] did not
/// ask EFetch for: a parsed record of MEDLINE text, or the bytes of an XML
/// record that were not kept ([`Fetched::parsed`], [`Fetched::raw`]).
static NOT_ASKED: LazyLock<RecordError> = LazyLock::new(|| {
    RecordError::new(
        RecordReason::Request(Reason::Internal),
        "EFetch was not asked for this form of the record",
    )
});

impl Fetched {
    fn failed(requested: &str, pmid: &str, error: RecordError) -> Fetched {
        Fetched {
            requested: requested.to_string(),
            pmid: pmid.to_string(),
            outcome: Err(error),
        }
    }

    /// The parsed record, or the error in its place: what every writer but
    /// `-f medline` and `-f xml` uses. XML mode parses every PMID found;
    /// MEDLINE text (which only `-f medline` asks for) has no parsed fields.
    pub fn parsed(&self) -> std::result::Result<&Record, &RecordError> {
        match &self.outcome {
            Ok(Article::Xml { record, .. }) => Ok(record),
            Ok(Article::Medline(_) | Article::Json(_)) => Err(&NOT_ASKED),
            Err(e) => Err(e),
        }
    }

    /// NCBI's own bytes for the record, or the error in their place: the
    /// MEDLINE text, or the XML element when kept (`-f xml`).
    pub fn raw(&self) -> std::result::Result<&str, &RecordError> {
        match &self.outcome {
            Ok(Article::Medline(text)) => Ok(text),
            Ok(Article::Xml { raw: Some(raw), .. }) => Ok(raw),
            Ok(Article::Xml { raw: None, .. } | Article::Json(_)) => Err(&NOT_ASKED),
            Err(e) => Err(e),
        }
    }
}

/// JSON: the record's own fields, or `{"pmid", "error": {reason, message}}`
/// (a MEDLINE text: `{"pmid", "medline"}`).
impl Serialize for Fetched {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match &self.outcome {
            Ok(Article::Xml { record, .. }) => return record.serialize(s),
            Ok(Article::Json(json)) => return json.0.serialize(s),
            _ => {}
        }
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("pmid", &self.pmid)?;
        match &self.outcome {
            Ok(Article::Medline(text)) => m.serialize_entry("medline", text)?,
            Err(e) => m.serialize_entry("error", e)?,
            Ok(Article::Xml { .. } | Article::Json(_)) => {}
        }
        m.end()
    }
}

impl Outcome for Fetched {
    fn failure(&self) -> Option<Failed<'_>> {
        self.outcome.as_ref().err().map(RecordError::failed)
    }
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
    skip_written_by(input, written, file, "PMID", record_key).await
}

/// [`skip_written`] with the key of an input line given by `key` (`None`:
/// a line that makes no record) and named `noun` in the error, for a
/// command whose records are keyed otherwise (`fulltext`: the ID as given).
pub async fn skip_written_by<S>(
    input: &mut S,
    written: &[String],
    file: &str,
    noun: &str,
    key: impl Fn(&InputLine) -> Option<String>,
) -> Result<u64>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
{
    let changed = |why: String| {
        Error::new(
            Reason::InvalidArgument,
            format!(
                "the input is not the one {file} was written from ({why}): refusing to mix their output"
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
            match key(&line) {
                None => continue,
                Some(k) if k == *want => break,
                Some(k) => {
                    return Err(changed(format!(
                        "record {} is {noun} {k}, in {file} it is {want}",
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

/// A PMID EFetch left out of its answer: the one not-found wording of
/// `fetch` (docs/fetch.md "What each PMID gets").
fn not_in_answer() -> Entry {
    Entry::Missing {
        reason: MissingReason::NotFound,
        message: "EFetch returned no record for this PMID".into(),
    }
}

fn fetched_from(requested: String, pmid: &str, entry: Entry, prolog: Option<Arc<str>>) -> Fetched {
    let outcome = match entry {
        Entry::Article { record, raw } => Ok(Article::Xml {
            record,
            raw: raw.map(|r| r.as_str().to_owned()),
            prolog,
        }),
        Entry::Medline(text) => Ok(Article::Medline(text)),
        Entry::Missing { reason, message } => {
            let reason = match reason {
                MissingReason::NotFound => RecordReason::NotFound,
                MissingReason::Invalid => RecordReason::Request(Reason::NcbiInvalidResponse),
                MissingReason::Failed(r) => RecordReason::Request(r),
            };
            Err(RecordError::new(reason, message))
        }
    };
    let pmid = match &outcome {
        Ok(Article::Xml { record, .. }) => record.pmid.clone(),
        _ => pmid.to_string(),
    };
    Fetched {
        requested,
        pmid,
        outcome,
    }
}

/// The cache kind of a run's records.
fn cache_kind(mode: Mode) -> CacheKind {
    match mode {
        Mode::Xml { .. } => CacheKind::EfetchXml,
        Mode::Medline => CacheKind::EfetchMedline,
    }
}

/// Stores the records of an EFetch answer, one entry per PMID. An answer
/// with a failed part (after retries and halving) stores nothing: what
/// came with a failure is not trusted to be whole (docs/cache.md "Never
/// stored"); PMIDs without a record are never stored.
fn store(cache: &crate::cache::Cache, mode: Mode, answer: &EfetchAnswer) {
    if !answer.failures.is_empty() {
        return;
    }
    let prolog = answer.prolog.as_deref();
    // One pass: an entry without its XML is not stored, so its parsed
    // form is never made.
    let rows: Vec<_> = answer
        .entries
        .iter()
        .filter_map(|(pmid, e)| match e {
            Entry::Article {
                record,
                raw: Some(raw),
            } => {
                let form = serde_json::to_vec(&(record, &record.date_parts)).ok();
                Some((pmid.as_str(), raw.as_str(), prolog, form))
            }
            Entry::Medline(text) => Some((pmid.as_str(), text.as_str(), None, None::<Vec<u8>>)),
            _ => None,
        })
        .collect();
    let items = rows
        .iter()
        .map(|(pmid, body, extra, form)| (*pmid, *body, *extra, form.as_deref()));
    cache.put_parsed(cache_kind(mode), PARSED_FORM, items);
}

/// The parser that made a cached record's parsed form: this build's
/// version and the form's number (bumped when the parser's output
/// changes). Another form is not read; the XML is parsed again
/// (docs/cache.md "Parsed records").
const PARSED_FORM: &str = concat!("pubmed ", env!("CARGO_PKG_VERSION"), " record 1");

/// A record from its parsed form, if it is one of `pmid`. The form is the
/// JSON pair `[record, date parts]`: the record as `-f json` prints it, and
/// the date's parts, which that JSON leaves out.
fn from_parsed(bytes: &[u8], pmid: &str) -> Option<Record> {
    let (mut record, date_parts): (Record, crate::core::record::DateParts) =
        serde_json::from_slice(bytes).ok()?;
    record.date_parts = date_parts;
    (record.pmid == pmid).then_some(record)
}

/// A record's JSON from its parsed form, if it is one of `pmid`: the
/// pair's first element as it is stored, checked (valid JSON that starts
/// with `{"pmid":"PMID"`, as [`Record`]'s serializer writes it: `pmid` is
/// its first field) but not parsed into a [`Record`]. JSON the compact
/// serializer never writes is refused (the XML is read instead): a line
/// break (it would split an ndjson line) and a `\u` escape other than
/// `\u00XX` (a lone surrogate `\ud800` is valid to the scanner, refused by
/// strict readers). Test `cache::a_tampered_json_form_is_never_printed_as_it_is`.
fn json_from_parsed(bytes: &[u8], pmid: &str) -> Option<RecordJson> {
    let (json, _): (&serde_json::value::RawValue, serde::de::IgnoredAny) =
        serde_json::from_slice(bytes).ok()?;
    let text = json.get();
    let of = text.strip_prefix("{\"pmid\":\"")?.strip_prefix(pmid)?;
    // `\\u` (an escaped backslash, then u) also refuses: a fallback, not an error.
    let compact = !text.contains('\n')
        && text
            .match_indices("\\u")
            .all(|(i, _)| text[i + 2..].starts_with("00"));
    (of.starts_with('"') && compact).then(|| RecordJson(json.to_owned()))
}

/// The fetch operation on the batch engine: one group, chunks of
/// `options.chunk` PMIDs, at most [`MAX_CHUNKS_IN_FLIGHT`] at once.
pub(crate) struct Fetch<'c> {
    pub(crate) client: &'c Client,
    pub(crate) options: FetchOptions,
}

impl Op for Fetch<'_> {
    type Line = InputLine;
    type Group = ();
    type Key = String;
    type Input = String;
    type Answer = EfetchAnswer;
    type Record = Fetched;
    type Counts = ();

    fn client(&self) -> &Client {
        self.client
    }

    fn policy(&self) -> ChunkPolicy {
        let limit = self.client.settings().policy.max_in_flight;
        ChunkPolicy::simple(
            self.options.chunk.clamp(1, EFETCH_CHUNK),
            limit.clamp(1, MAX_CHUNKS_IN_FLIGHT),
        )
    }

    fn check(&self, arg: &str) -> Result<()> {
        check_pmid(arg).map(drop)
    }

    fn admit(&self, line: InputLine) -> Admit<Self> {
        let raw = match line {
            InputLine::Skip => return Admit::Skip,
            InputLine::Undecodable(shown) => {
                let e = RecordError::new(RecordReason::MalformedId, "the line is not valid UTF-8");
                return Admit::Done(Fetched::failed(&shown, &shown, e));
            }
            InputLine::Id(raw) => raw,
        };
        match check_pmid(&raw) {
            Ok(pmid) => Admit::Ask {
                group: (),
                key: pmid,
                cost: 0,
                input: raw,
            },
            Err(e) => {
                let e = RecordError::new(RecordReason::MalformedId, e.message);
                Admit::Done(Fetched::failed(&raw, &raw, e))
            }
        }
    }

    fn cached(&self, _: (), pmid: &String, requested: &String) -> Option<(Fetched, i64)> {
        let cache = self.client.cache()?;
        let kind = cache_kind(self.options.mode);
        if let Mode::Xml { keep_raw: false } = self.options.mode {
            // Its parsed form, when this parser stored one: no XML read.
            let parsed = if self.options.json_only {
                cache.get_parsed(kind, pmid, PARSED_FORM, |b| {
                    json_from_parsed(b, pmid).map(Article::Json)
                })
            } else {
                cache.get_parsed(kind, pmid, PARSED_FORM, |b| {
                    from_parsed(b, pmid).map(|record| Article::Xml {
                        record: Box::new(record),
                        raw: None,
                        prolog: None,
                    })
                })
            };
            if let Some((article, fetched_at)) = parsed {
                let record = Fetched {
                    requested: requested.clone(),
                    pmid: pmid.clone(),
                    outcome: Ok(article),
                };
                return Some((record, fetched_at));
            }
        }
        // An entry that no longer parses is a miss (not counted as a hit,
        // and replaced by the fetch).
        let (article, fetched_at) = cache.get_with(kind, pmid, |hit| match self.options.mode {
            Mode::Medline => Some(Article::Medline(hit.body)),
            Mode::Xml { keep_raw } => {
                let el = crate::ncbi::xml::parse(&hit.body).ok()?;
                let record = crate::ncbi::efetch::parse_article(&el).ok()?;
                if record.pmid != *pmid {
                    return None;
                }
                Some(Article::Xml {
                    record: Box::new(record),
                    raw: keep_raw.then_some(hit.body),
                    prolog: hit.extra.map(Arc::from),
                })
            }
        })?;
        let record = Fetched {
            requested: requested.clone(),
            pmid: pmid.clone(),
            outcome: Ok(article),
        };
        Some((record, fetched_at))
    }

    fn request(&self, _: (), pmids: Vec<String>) -> BoxFuture<'_, Result<EfetchAnswer>> {
        Box::pin(async move {
            let cache = self.client.cache().filter(|c| c.mode().writes());
            // The cache keeps NCBI's bytes, so XML runs keep them while
            // the chunk is stored.
            let mode = match (self.options.mode, cache.is_some()) {
                (Mode::Xml { .. }, true) => Mode::Xml { keep_raw: true },
                (m, _) => m,
            };
            let mut answer = self.client.efetch(Db::Pubmed, &pmids, mode).await;
            if let Some(cache) = cache {
                store(cache, mode, &answer);
            }
            if let Mode::Xml { keep_raw: false } = self.options.mode {
                for entry in answer.entries.values_mut() {
                    if let Entry::Article { raw, .. } = entry {
                        *raw = None;
                    }
                }
            }
            Ok(answer)
        })
    }

    fn record(
        &self,
        requested: String,
        pmid: &String,
        answer: std::result::Result<&mut EfetchAnswer, &Error>,
        last: bool,
    ) -> Fetched {
        let answer = match answer {
            Ok(a) => a,
            Err(e) => return Fetched::failed(&requested, pmid, RecordError::request(e)),
        };
        let entry = if last {
            answer.entries.remove(pmid)
        } else {
            answer.entries.get(pmid).cloned()
        };
        let prolog = answer.prolog.clone();
        fetched_from(requested, pmid, entry.unwrap_or_else(not_in_answer), prolog)
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
    F: FnMut(Output<'_, Fetched>) -> io::Result<()>,
{
    batch::run(&Fetch { client, options }, input, sink).await
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
    batch::collect(&Fetch { client, options }, input).await
}

/// [`fetch_pmids`], calling `progress` as each EFetch chunk is answered
/// (MCP `notifications/progress`).
///
/// Errors: as [`fetch_pmids`].
pub async fn fetch_pmids_reporting(
    client: &Client,
    input: &[String],
    options: FetchOptions,
    progress: impl FnMut(batch::Progress) + Send,
) -> Result<(Vec<Fetched>, Totals)> {
    batch::collect_reporting(&Fetch { client, options }, input, progress).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Exit;

    /// A record read back from its parsed form in the cache is the record
    /// the XML gives, field for field (date parts included), for every
    /// article of every real EFetch capture; another PMID's form is refused.
    #[test]
    fn parsed_forms_read_back_as_the_records_they_came_from() {
        let mut seen = 0;
        for dir in ["tests/fixtures", "../shared/fixtures/ncbi"] {
            let Ok(files) = std::fs::read_dir(dir) else {
                continue;
            };
            for f in files.flatten() {
                let name = f.file_name().to_string_lossy().into_owned();
                if !(name.starts_with("efetch_pubmed") && name.ends_with(".xml")) {
                    continue;
                }
                let body = std::fs::read_to_string(f.path()).unwrap();
                let set = crate::ncbi::efetch::parse_set(&body, false).unwrap();
                for (pmid, record, _) in set.articles {
                    let record = record.unwrap();
                    let bytes = serde_json::to_vec(&(&record, &record.date_parts)).unwrap();
                    assert_eq!(from_parsed(&bytes, &pmid).as_ref(), Some(&record), "{name}");
                    assert_eq!(from_parsed(&bytes, "1"), None);
                    // The JSON kept for `-f json` is what the record prints.
                    let json = json_from_parsed(&bytes, &pmid).unwrap();
                    assert_eq!(
                        json.get(),
                        serde_json::to_string(&record).unwrap(),
                        "{name}"
                    );
                    assert_eq!(json_from_parsed(&bytes, "1"), None);
                    seen += 1;
                }
            }
        }
        assert!(seen >= 15, "{seen} records");
    }

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
        let mut t = Totals::<()> {
            submitted: 2,
            succeeded: 1,
            failed: 1,
            ..Default::default()
        };
        assert_eq!(t.exit(), Exit::Success);
        t.succeeded = 0;
        assert_eq!(t.exit(), Exit::NotFound);
        t.first_failure = Some(Error::new(Reason::NcbiRateLimited, "429"));
        assert_eq!(t.exit(), Exit::TempFail);
        assert_eq!(Totals::<()>::default().exit(), Exit::Success);
    }

    #[test]
    fn errors_serialize_in_place() {
        let f = Fetched::failed(
            "99999999",
            "99999999",
            RecordError::new(RecordReason::NotFound, "gone"),
        );
        assert_eq!(
            serde_json::to_value(&f).unwrap(),
            serde_json::json!({"pmid": "99999999", "error": {"reason": "not_found", "message": "gone"}})
        );
    }
}
