//! `fulltext` / `pubmed_fetch_fulltext`: the open-access article itself,
//! as JATS from PMC (docs/fulltext.md). PMIDs and DOIs go through the ID
//! Converter to their PMCID, then EFetch `db=pmc` sends the JATS of up to
//! [`PMC_EFETCH_CHUNK`] PMCIDs at once. One record per input, in input
//! order, on the batch engine ([`super::batch`]).

use std::collections::HashMap;
use std::io;

use futures::Stream;
use futures::future::BoxFuture;
use serde::Serialize;

pub use super::batch::Totals;
use super::batch::{self, Admit, ChunkPolicy, Failed, InputLine, Op, Outcome, Output};
pub use super::record::{RecordError, RecordReason};
use crate::core::ids::{self, IdType};
use crate::core::jats::Article;
use crate::error::{Error, Failure, Reason, Result};
use crate::ncbi::Client;
use crate::ncbi::europepmc::EuropePmcEntry;
use crate::ncbi::idconv::IdconvAnswer;
use crate::ncbi::pmc::{PMC_EFETCH_CHUNK, PmcEntry};

/// Chunks outstanding at once (bodies of up to [`PMC_EFETCH_CHUNK`]
/// articles each stay in memory until their records are written).
pub const MAX_CHUNKS_IN_FLIGHT: usize = 2;

/// The reasons a record of `fulltext` can have that belong to the record.
pub const PER_RECORD_REASONS: [RecordReason; 3] = [
    RecordReason::MalformedId,
    RecordReason::NotInPmc,
    RecordReason::NoOpenFullText,
];

/// Where the text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// PMC, EFetch `db=pmc`.
    Pmc,
    /// Europe PMC `fullTextXML`, asked when PMC served no open text.
    Europepmc,
}

impl Source {
    /// The name records carry (`pmc`, `europepmc`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Pmc => "pmc",
            Source::Europepmc => "europepmc",
        }
    }
}

/// One input's full text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fulltext {
    /// The parsed article.
    pub article: Box<Article>,
    /// The `<article>` element as received, when kept (`-f jats`).
    pub raw: Option<String>,
    /// Who answered.
    pub source: Source,
}

/// The record of one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FulltextRecord {
    /// The input as written (trimmed).
    pub requested: String,
    /// The PMCID it resolved to, when it did.
    pub pmcid: Option<String>,
    /// The text, or why there is none.
    pub outcome: std::result::Result<Fulltext, RecordError>,
}

impl Outcome for FulltextRecord {
    fn failure(&self) -> Option<Failed<'_>> {
        self.outcome.as_ref().err().map(RecordError::failed)
    }
}

/// What to fetch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FulltextOptions {
    /// Keep each article's XML as received (`-f jats`).
    pub keep_raw: bool,
}

/// A chunk's answer: per key, the PMCID and its text (or the record
/// error in its place).
pub struct ChunkAnswer {
    by_key: HashMap<String, (Option<String>, std::result::Result<Fulltext, RecordError>)>,
}

/// PMC's entry for one PMCID, Europe PMC's when PMC had no open text.
fn decide(
    pmcid: &str,
    doi: Option<&str>,
    pmc: PmcEntry,
    epmc: Option<&Result<EuropePmcEntry>>,
) -> std::result::Result<Fulltext, RecordError> {
    let why = match pmc {
        PmcEntry::Article { article, raw } if article.has_body => {
            return Ok(Fulltext {
                article,
                raw,
                source: Source::Pmc,
            });
        }
        PmcEntry::Article { article, .. } => {
            let doi = article.doi.clone().or(doi.map(str::to_string));
            (
                "PMC's XML has the front matter only: the publisher does not allow the full text in XML".to_string(),
                doi,
            )
        }
        PmcEntry::Unavailable(why) => (format!("PMC answered: {why}"), doi.map(str::to_string)),
    };
    match epmc {
        Some(Ok(EuropePmcEntry::Article { article, raw })) => Ok(Fulltext {
            article: article.clone(),
            raw: raw.clone(),
            source: Source::Europepmc,
        }),
        // Europe PMC failing is this record's trouble, not the chunk's:
        // PMC's articles beside it stand.
        Some(Err(e)) => Err(RecordError::request(e)),
        _ => Err(no_open(
            pmcid,
            why.1.as_deref(),
            &format!("{}; Europe PMC has no full text of it either", why.0),
        )),
    }
}

/// Whether PMC's entry leaves the text to Europe PMC.
fn wants_fallback(e: &PmcEntry) -> bool {
    match e {
        PmcEntry::Article { article, .. } => !article.has_body,
        PmcEntry::Unavailable(_) => true,
    }
}

/// The link a reader follows to the article's PMC page.
pub fn pmc_link(pmcid: &str) -> String {
    format!("https://pmc.ncbi.nlm.nih.gov/articles/{pmcid}/")
}

fn no_open(pmcid: &str, doi: Option<&str>, why: &str) -> RecordError {
    let doi = doi.map_or_else(String::new, |d| format!(", https://doi.org/{d}"));
    RecordError::new(
        RecordReason::NoOpenFullText,
        format!(
            "PMC serves no open full text of {pmcid} ({why}); see {}{doi}",
            pmc_link(pmcid)
        ),
    )
}

fn not_in_pmc(id: &str) -> RecordError {
    RecordError::new(
        RecordReason::NotInPmc,
        format!(
            "{id} has no PMC copy, so no open full text from PMC; its abstract may be in PubMed: `pubmed fetch PMID`"
        ),
    )
}

pub(crate) struct FulltextOp<'c> {
    pub(crate) client: &'c Client,
    pub(crate) options: FulltextOptions,
}

/// Key → (PMCID, DOI the ID Converter gave), plus the records already
/// decided (no PMCID, rejected request).
type Resolved = (
    Vec<(String, String, Option<String>)>,
    HashMap<String, (Option<String>, std::result::Result<Fulltext, RecordError>)>,
);

impl FulltextOp<'_> {
    /// The PMCID of each key: itself for PMCIDs, else the ID Converter's.
    async fn resolve(&self, group: IdType, keys: Vec<String>) -> Result<Resolved> {
        let mut by_key = HashMap::new();
        if group == IdType::Pmcid {
            let same = keys.into_iter().map(|k| (k.clone(), k, None)).collect();
            return Ok((same, by_key));
        }
        let mut pmcid_of = Vec::new();
        match self.client.idconv(group, &keys).await? {
            IdconvAnswer::Records(records) => {
                let mut found: HashMap<String, (String, Option<String>)> = HashMap::new();
                for r in records {
                    let reported = match group {
                        IdType::Pmid => r.pmid.clone(),
                        IdType::Doi => r.doi.clone(),
                        IdType::Pmcid => r.pmcid.clone(),
                    };
                    let key = r
                        .requested_id
                        .as_deref()
                        .or(reported.as_deref())
                        .map(|k| ids::answer_key(group, k));
                    if let (Some(k), Some(p)) = (key, r.pmcid) {
                        found.insert(k, (ids::answer_key(IdType::Pmcid, &p), r.doi));
                    }
                }
                for k in keys {
                    match found.remove(&k) {
                        Some((p, doi)) => pmcid_of.push((k, p, doi)),
                        None => {
                            let e = not_in_pmc(&k);
                            by_key.insert(k, (None, Err(e)));
                        }
                    }
                }
            }
            IdconvAnswer::Rejected(msg) => {
                for k in keys {
                    let e = RecordError::new(RecordReason::MalformedId, msg.clone());
                    by_key.insert(k, (None, Err(e)));
                }
            }
        }
        Ok((pmcid_of, by_key))
    }

    /// Europe PMC's answer for each PMCID PMC had no open text of, one
    /// GET each (paced by the client); a failed GET is that PMCID's error.
    async fn fallback(&self, pmcids: Vec<String>) -> HashMap<String, Result<EuropePmcEntry>> {
        let keep = self.options.keep_raw;
        let asks = pmcids
            .iter()
            .map(|p| self.client.europepmc_fulltext(p, keep));
        let answers = futures::future::join_all(asks).await;
        pmcids.into_iter().zip(answers).collect()
    }

    async fn answer(&self, group: IdType, keys: Vec<String>) -> Result<ChunkAnswer> {
        let (pmcid_of, mut by_key) = self.resolve(group, keys).await?;
        if pmcid_of.is_empty() {
            return Ok(ChunkAnswer { by_key });
        }
        let mut wanted: Vec<String> = pmcid_of.iter().map(|(_, p, _)| p.clone()).collect();
        wanted.sort();
        wanted.dedup();
        let mut answer = self
            .client
            .efetch_pmc(&wanted, self.options.keep_raw)
            .await?;
        let mut elsewhere: Vec<String> = answer
            .iter()
            .filter(|(_, e)| wants_fallback(e))
            .map(|(p, _)| p.clone())
            .collect();
        elsewhere.sort();
        let epmc = self.fallback(elsewhere).await;
        for (k, p, doi) in pmcid_of {
            let entry = match answer.get(&p) {
                Some(e) => decide(&p, doi.as_deref(), e.clone(), epmc.get(&p)),
                None => Err(not_in_pmc(&p)),
            };
            by_key.insert(k, (Some(p), entry));
        }
        answer.clear();
        Ok(ChunkAnswer { by_key })
    }
}

impl Op for FulltextOp<'_> {
    type Line = InputLine;
    type Group = IdType;
    type Key = String;
    type Input = String;
    type Answer = ChunkAnswer;
    type Record = FulltextRecord;
    type Counts = ();

    fn client(&self) -> &Client {
        self.client
    }

    fn policy(&self) -> ChunkPolicy {
        let limit = self.client.settings().policy.max_in_flight;
        ChunkPolicy::simple(PMC_EFETCH_CHUNK, limit.clamp(1, MAX_CHUNKS_IN_FLIGHT))
    }

    fn check(&self, arg: &str) -> Result<()> {
        ids::detect(arg.trim()).map(drop)
    }

    fn admit(&self, line: InputLine) -> Admit<Self> {
        let raw = match line {
            InputLine::Skip => return Admit::Skip,
            InputLine::Undecodable(shown) => {
                let e = RecordError::new(RecordReason::MalformedId, "the line is not valid UTF-8");
                return Admit::Done(FulltextRecord {
                    requested: shown,
                    pmcid: None,
                    outcome: Err(e),
                });
            }
            InputLine::Id(raw) => raw,
        };
        match ids::detect(raw.trim()) {
            Ok(c) => Admit::Ask {
                group: c.idtype,
                key: c.key,
                cost: 0,
                input: raw,
            },
            Err(e) => Admit::Done(FulltextRecord {
                requested: raw,
                pmcid: None,
                outcome: Err(RecordError::new(RecordReason::MalformedId, e.message)),
            }),
        }
    }

    fn request(&self, group: IdType, keys: Vec<String>) -> BoxFuture<'_, Result<ChunkAnswer>> {
        Box::pin(self.answer(group, keys))
    }

    fn record(
        &self,
        requested: String,
        key: &String,
        answer: std::result::Result<&mut ChunkAnswer, &Error>,
        last: bool,
    ) -> FulltextRecord {
        let failed = |requested: String, e: RecordError| FulltextRecord {
            requested,
            pmcid: None,
            outcome: Err(e),
        };
        let answer = match answer {
            Ok(a) => a,
            Err(e) => return failed(requested, RecordError::request(e)),
        };
        let got = if last {
            answer.by_key.remove(key)
        } else {
            answer.by_key.get(key).cloned()
        };
        let Some((pmcid, entry)) = got else {
            let e = Error::new(
                Reason::Internal,
                "the chunk's answer has no place for this input",
            );
            return failed(requested, RecordError::request(&e));
        };
        let outcome = entry;
        FulltextRecord {
            requested,
            pmcid,
            outcome,
        }
    }
}

/// Full text for a stream of input lines, each record handed to `sink` in
/// input order as soon as it and everything before it is known.
///
/// Errors: an unreadable line is `invalid_argument`; the sink's error is
/// [`Failure::Output`]. A failed chunk is its inputs' records, not an error.
pub async fn fulltext_stream<S, F>(
    client: &Client,
    input: S,
    options: FulltextOptions,
    sink: &mut F,
) -> Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(Output<'_, FulltextRecord>) -> io::Result<()>,
{
    batch::run(&FulltextOp { client, options }, input, sink).await
}

/// Full text for IDs given at once (CLI arguments, MCP); every element is
/// validated first.
///
/// Errors: `malformed_id` naming the first bad element; otherwise the
/// records, one per element in order.
pub async fn fulltext_ids(
    client: &Client,
    input: &[String],
    options: FulltextOptions,
) -> Result<(Vec<FulltextRecord>, Totals)> {
    batch::collect(&FulltextOp { client, options }, input).await
}

/// [`fulltext_ids`], calling `progress` as each chunk completes (MCP
/// `notifications/progress`).
///
/// Errors: as [`fulltext_ids`].
pub async fn fulltext_ids_reporting(
    client: &Client,
    input: &[String],
    options: FulltextOptions,
    progress: impl FnMut(batch::Progress) + Send,
) -> Result<(Vec<FulltextRecord>, Totals)> {
    batch::collect_reporting(&FulltextOp { client, options }, input, progress).await
}
