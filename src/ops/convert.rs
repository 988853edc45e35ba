//! `convert` / `pubmed_convert_ids`: DOI ↔ PMID ↔ PMCID through the PMC ID
//! Converter (docs/convert.md). One record per input element, in input order,
//! under the caller's own spelling; inputs of any size stream through the
//! batch engine ([`super::batch`]) with bounded memory, grouped by type and
//! chunked at 200 IDs, chunks sealed at the pacer's rate ([`Sealing::Paced`]).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io;

use futures::Stream;
use futures::future::BoxFuture;
use serde::Serialize;
use serde::ser::SerializeMap;

use super::batch::{self, Admit, ChunkPolicy, Failed, Op, Outcome, Output, Sealing};
pub use super::batch::{InputLine, Totals};
use crate::cache::Kind as CacheKind;
use crate::core::ids::{self, Canonical, IdType};
use crate::error::{Error, Failure, Reason, Result, Term, Words};
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

/// The IDs an input converts to. A field is `None` when the article has
/// no such ID (some PMC articles have no PMID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// PMID, as a string.
    pub pmid: Option<String>,
    /// PMCID.
    pub pmcid: Option<String>,
    /// DOI, cased as the Converter (or PubMed) reports it.
    pub doi: Option<String>,
    /// Where the answer came from.
    pub source: Source,
}

/// One output record (docs/convert.md "Records"): the input and its IDs,
/// or the error in their place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertRecord {
    /// The input as the user wrote it (trimmed).
    pub requested: String,
    /// The IDs, or why there are none.
    pub outcome: std::result::Result<Converted, RecordError>,
}

impl ConvertRecord {
    fn failed(requested: &str, reason: RecordReason, message: impl Into<String>) -> ConvertRecord {
        ConvertRecord {
            requested: requested.to_string(),
            outcome: Err(RecordError::new(reason, message)),
        }
    }

    /// The converted ID of type `to`, if any (`--to`); `None` for an error.
    pub fn get(&self, to: IdType) -> Option<&str> {
        let c = self.outcome.as_ref().ok()?;
        match to {
            IdType::Pmid => c.pmid.as_deref(),
            IdType::Pmcid => c.pmcid.as_deref(),
            IdType::Doi => c.doi.as_deref(),
        }
    }
}

/// JSON: `{requested, pmid, pmcid, doi, source}`, or `{requested, pmid:
/// null, pmcid: null, doi: null, error: {reason, message}}`.
impl Serialize for ConvertRecord {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("requested", &self.requested)?;
        for to in [IdType::Pmid, IdType::Pmcid, IdType::Doi] {
            m.serialize_entry(to.as_str(), &self.get(to))?;
        }
        match &self.outcome {
            Ok(c) => m.serialize_entry("source", &c.source)?,
            Err(e) => m.serialize_entry("error", e)?,
        }
        m.end()
    }
}

impl Outcome for ConvertRecord {
    fn failure(&self) -> Option<Failed<'_>> {
        self.outcome.as_ref().err().map(RecordError::failed)
    }
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
                    words
                        .text("; it may still be in PubMed: ")
                        .term(
                            Term::Search(query.clone()),
                            format!("pubmed search '{query}'"),
                        )
                        // The flag is the CLI's (MCP has no fallback).
                        .cli_only(", or convert with --fallback pubmed")
                }
                IdType::Pmcid => words.text("; check the PMCID"),
            };
            let mut record = ConvertRecord::failed(requested, RecordReason::NotInPmc, words.cli());
            if let Err(e) = &mut record.outcome {
                e.words = Some(words);
            }
            record
        }
        Some(r) => ConvertRecord {
            requested: requested.to_string(),
            outcome: Ok(Converted {
                pmid: r.pmid.clone(),
                pmcid: r.pmcid.clone(),
                doi: r.doi.clone(),
                source: Source::Pmc,
            }),
        },
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

/// A chunk key: the form sent (`sent`, the first spelling's) and the
/// canonical form answers are matched by ([`IdKey::key`]; stored only when
/// it differs, for a DOI in capitals). Equal by the canonical form alone,
/// so two casings of one DOI are sent once. Boxed strings, one in most
/// keys: the reorder buffer holds a key per waiting line and the engine
/// another (docs/convert.md "Memory").
#[derive(Debug, Clone)]
struct IdKey {
    idtype: IdType,
    sent: Box<str>,
    key: Option<Box<str>>,
}

impl IdKey {
    fn new(c: Canonical) -> IdKey {
        let key = (c.key != c.sent).then(|| c.key.into_boxed_str());
        IdKey {
            idtype: c.idtype,
            sent: c.sent.into_boxed_str(),
            key,
        }
    }

    /// The canonical form answers are matched by.
    fn key(&self) -> &str {
        self.key.as_deref().unwrap_or(&self.sent)
    }

    /// The input as written ([`Op::Input`]): kept only when it is not the
    /// form sent.
    fn requested<'a>(&'a self, input: &'a Option<Box<str>>) -> &'a str {
        input.as_deref().unwrap_or(&self.sent)
    }
}

impl PartialEq for IdKey {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for IdKey {}

impl Hash for IdKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

/// The convert operation on the batch engine: chunks per ID type, at most
/// 200 IDs and a URL under 8,000 characters, sealed when the ID
/// Converter's lane could start a request ([`Sealing::Paced`]).
struct Convert<'c> {
    client: &'c Client,
    /// `--from`: every ID of this type; `None` detects each ID's type.
    from: Option<IdType>,
    /// Encoded characters left for `ids` once the URL's other parts are counted.
    ids_budget: usize,
}

impl<'c> Convert<'c> {
    /// The operation for `client`; `from` fixes the ID type, `None`
    /// detects each ID's type.
    fn new(client: &'c Client, from: Option<IdType>) -> Self {
        Convert {
            client,
            from,
            ids_budget: ids_budget(client),
        }
    }
}

/// The cache key of a canonical ID: `pmid:23193287`, `doi:10.1038/ng.590`.
fn cache_key(idtype: IdType, key: &str) -> String {
    format!("{}:{key}", idtype.as_str())
}

/// Stores a chunk's records, one entry per ID (docs/cache.md). Only whole
/// answers are kept: "not in PMC" and other per-record errors may change
/// tomorrow, and rejected IDs are errors.
fn store(cache: &crate::cache::Cache, idtype: IdType, answer: &HashMap<String, Answer>) {
    let bodies: Vec<(String, String)> = answer
        .iter()
        .filter_map(|(key, a)| match a {
            Answer::Record(r) if r.error.is_none() => {
                let body = serde_json::json!({"pmid": r.pmid, "pmcid": r.pmcid, "doi": r.doi});
                Some((cache_key(idtype, key), body.to_string()))
            }
            _ => None,
        })
        .collect();
    cache.put(
        CacheKind::Idconv,
        bodies.iter().map(|(k, b)| (k.as_str(), b.as_str(), None)),
    );
}

/// A record stored by [`store`]; `None` for an entry that does not read.
fn record_from_cache(body: &str) -> Option<IdconvRecord> {
    let v: serde_json::Value = serde_json::from_str(body).ok()?;
    let field = |name: &str| match v.get(name)? {
        serde_json::Value::String(s) => Some(s.clone()),
        _ => None,
    };
    let r = IdconvRecord {
        requested_id: None,
        pmid: field("pmid"),
        pmcid: field("pmcid"),
        doi: field("doi"),
        error: None,
    };
    (r.pmid.is_some() || r.pmcid.is_some() || r.doi.is_some()).then_some(r)
}

/// `raw` as an ID of type `from`, or of the type it has (`None`).
fn canonical(from: Option<IdType>, raw: &str) -> Result<Canonical> {
    match from {
        Some(t) => ids::validate(t, raw),
        None => ids::detect(raw),
    }
}

impl Op for Convert<'_> {
    type Line = InputLine;
    type Group = IdType;
    type Key = IdKey;
    /// The input as written, when it is not the ID sent.
    type Input = Option<Box<str>>;
    type Answer = HashMap<String, Answer>;
    type Record = ConvertRecord;
    type Counts = ();

    fn client(&self) -> &Client {
        self.client
    }

    fn policy(&self) -> ChunkPolicy {
        ChunkPolicy {
            max_keys: IDCONV_MAX_IDS,
            max_cost: self.ids_budget,
            max_pending: MAX_PENDING,
            sealing: Sealing::Paced(Lane::Idconv),
            ..ChunkPolicy::simple(IDCONV_MAX_IDS, self.client.settings().policy.max_in_flight)
        }
    }

    /// Whitespace anywhere in an element, leading or trailing too, is
    /// malformed: only lines of an input file are trimmed.
    fn check(&self, arg: &str) -> Result<()> {
        canonical(self.from, arg).map(drop)
    }

    fn admit(&self, line: InputLine) -> Admit<Self> {
        let raw = match line {
            InputLine::Skip => return Admit::Skip,
            InputLine::Undecodable(shown) => {
                return Admit::Done(ConvertRecord::failed(
                    &shown,
                    RecordReason::MalformedId,
                    "the line is not valid UTF-8",
                ));
            }
            InputLine::Id(raw) => raw,
        };
        // The record keeps the spelling given; surrounding blanks don't
        // count against the ID.
        let c = match canonical(
            self.from,
            raw.trim_matches(crate::core::text::is_white_space),
        ) {
            Err(e) => {
                return Admit::Done(ConvertRecord::failed(
                    &raw,
                    RecordReason::MalformedId,
                    e.message,
                ));
            }
            Ok(c) => c,
        };
        let cost = encoded_len(&c.sent);
        if cost > self.ids_budget {
            return Admit::Done(ConvertRecord::failed(
                &raw,
                RecordReason::MalformedId,
                format!(
                    "the ID is too long for the ID Converter (its URL is limited to {MAX_URL} characters)"
                ),
            ));
        }
        let input = (raw != c.sent).then(|| raw.into_boxed_str());
        Admit::Ask {
            group: c.idtype,
            key: IdKey::new(c),
            cost,
            input,
        }
    }

    fn cached(
        &self,
        idtype: IdType,
        key: &IdKey,
        requested: &Option<Box<str>>,
    ) -> Option<(ConvertRecord, i64)> {
        let requested = key.requested(requested);
        // Counted as a hit only when it decodes (else it is fetched again).
        let (r, fetched_at) = self.client.cache()?.get_with(
            CacheKind::Idconv,
            &cache_key(idtype, key.key()),
            |hit| record_from_cache(&hit.body),
        )?;
        Some((record_from(requested, idtype, key.key(), Some(&r)), fetched_at))
    }

    fn request(&self, idtype: IdType, keys: Vec<IdKey>) -> BoxFuture<'_, Result<Self::Answer>> {
        let ids = keys.into_iter().map(|k| k.sent.into_string()).collect();
        Box::pin(async move {
            let answer = index_chunk(idtype, convert_chunk(self.client, idtype, ids).await?);
            if let Some(cache) = self.client.cache().filter(|c| c.mode().writes()) {
                store(cache, idtype, &answer);
            }
            Ok(answer)
        })
    }

    fn record(
        &self,
        requested: Option<Box<str>>,
        key: &IdKey,
        answer: std::result::Result<&mut Self::Answer, &Error>,
        _last: bool,
    ) -> ConvertRecord {
        let idtype = key.idtype;
        let requested = key.requested(&requested).to_string();
        match answer {
            Err(e) => ConvertRecord {
                requested,
                outcome: Err(RecordError::request(e)),
            },
            Ok(map) => match map.get(key.key()) {
                Some(Answer::Rejected(msg)) => rejected_record(&requested, idtype, msg),
                Some(Answer::Record(r)) => record_from(&requested, idtype, key.key(), Some(r)),
                None => record_from(&requested, idtype, key.key(), None),
            },
        }
    }
}

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
    F: FnMut(Output<'_, ConvertRecord>) -> io::Result<()>,
{
    batch::run(&Convert::new(client, from), input, sink).await
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
    batch::collect(&Convert::new(client, from), input).await
}

/// Validates every ID of a list (CLI arguments, MCP `ids`; no request).
/// Errors: the first malformed element as `malformed_id`, an element with
/// whitespace anywhere included.
pub fn check_ids(input: &[String], from: Option<IdType>) -> Result<()> {
    input
        .iter()
        .try_for_each(|raw| canonical(from, raw).map(drop))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reorder buffer holds up to 20,000 lines: a slot of 64 bytes and
    /// a carried entry of 64 (were 104 and 80 with a `String` input and a
    /// key of two `String`s, the `Done` record inline).
    #[test]
    fn a_waiting_line_costs_the_engine_64_plus_64_bytes() {
        assert_eq!(batch::bytes_per_line::<Convert<'static>>(), (64, 64));
    }

    /// One boxed string per key when the form sent is the canonical one.
    #[test]
    fn keys_store_the_canonical_form_only_when_it_differs() {
        let pmid = IdKey::new(ids::detect("23193287").unwrap());
        assert_eq!((&*pmid.sent, pmid.key.is_none()), ("23193287", true));
        let doi = IdKey::new(ids::detect("10.1038/NG.590").unwrap());
        assert_eq!((&*doi.sent, doi.key()), ("10.1038/NG.590", "10.1038/ng.590"));
        assert_eq!(doi, IdKey::new(ids::detect("10.1038/ng.590").unwrap()));
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
        let t = |submitted, converted, failure: Option<Reason>| Totals::<()> {
            submitted,
            succeeded: converted,
            failed: submitted - converted,
            first_failure: failure.map(|r| Error::new(r, "x")),
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
        let e = rec.outcome.unwrap_err();
        assert_eq!(e.reason, RecordReason::NotInPmc);
        assert!(e.message.contains("may still be in PubMed"));
        assert!(e.message.contains("pubmed search '23193287[pmid]'"));
        // Issue 25: the message names the flag that looks in PubMed.
        assert_eq!(
            e.message,
            "not in PMC (Identifier not found in PMC); it may still be in PubMed: pubmed search '23193287[pmid]', or convert with --fallback pubmed"
        );
        let rec = record_from("x", IdType::Doi, "x", None);
        assert_eq!(
            rec.outcome.unwrap_err().reason,
            RecordReason::NoRecordReturned
        );
        let r = IdconvRecord {
            error: Some("invalid article id".into()),
            ..Default::default()
        };
        assert_eq!(
            record_from("10.1/x", IdType::Doi, "10.1/x", Some(&r))
                .outcome
                .unwrap_err()
                .reason,
            RecordReason::NotInPmc
        );
        let r = IdconvRecord {
            error: Some("Internal server error, try again later".into()),
            ..Default::default()
        };
        let e = record_from("1", IdType::Pmid, "1", Some(&r))
            .outcome
            .unwrap_err();
        assert_eq!(e.reason, RecordReason::Request(Reason::NcbiUnreachable));
        assert!(e.message.contains("Internal server error"));
    }
}
