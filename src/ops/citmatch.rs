//! `match` / `pubmed_lookup_citation`: references → PMIDs. A reference
//! with a DOI is looked up first through the ID Converter, then PubMed's
//! ESearch `"DOI"[doi]` for DOIs outside PMC (the `convert --fallback
//! pubmed` stages, [`fallback::convert_with_fallback`]); the rest go to
//! ECitMatch on the batch engine ([`batch::Op`]): chunks of
//! [`ECITMATCH_MAX_CITATIONS`] in order, every input line one record in
//! input order, each `matched` (with how: `doi` or `citmatch`),
//! `not_found`, `ambiguous` (with ECitMatch's candidates) or failed —
//! never a guess shown as a match (docs/match.md).

use std::collections::HashMap;
use std::io;

use futures::future::BoxFuture;
use serde::Serialize;

use super::batch::{self, Admit, ChunkPolicy, Failed, InputLine, Op, Outcome, Output, Totals};
use super::fallback;
use crate::core::citmatch::{self, Answer, Citation};
use crate::core::ids::IdType;
use crate::error::{Error, Failure, Reason, Result};
use crate::ncbi::Client;
use crate::ncbi::limits::ECITMATCH_MAX_CITATIONS;

/// Chunks in flight at most (the pacer spaces them anyway).
const MAX_CHUNKS_IN_FLIGHT: usize = 4;

/// One input: the reference as written and the citation read from it.
pub use crate::core::reflist::Reference as MatchLine;

/// What became of one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// One PMID.
    Matched,
    /// ECitMatch found no article.
    NotFound,
    /// Several articles fit; see `candidates`.
    Ambiguous,
    /// The input is not a citation (fewer than four fields, no journal or year).
    InvalidCitation,
    /// The request for its chunk failed (`reason` says how).
    Failed,
}

impl Status {
    /// The name JSON and TSV write.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Matched => "matched",
            Status::NotFound => "not_found",
            Status::Ambiguous => "ambiguous",
            Status::InvalidCitation => "invalid_citation",
            Status::Failed => "failed",
        }
    }
}

/// One record: `{input, key, status, pmid?, method?, candidates, detail?,
/// reason?, message?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchRecord {
    /// The input as written.
    pub input: String,
    /// The caller's key (ECitMatch's sixth field), empty when none.
    pub key: String,
    /// What became of it.
    pub status: Status,
    /// The PMID, when matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmid: Option<String>,
    /// How it was matched: `doi` (ID Converter or ESearch `[doi]`) or
    /// `citmatch` (ECitMatch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
    /// The PMCID the ID Converter gave for the DOI or PMID, when matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmcid: Option<String>,
    /// The article's DOI as NCBI writes it, when matched and known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// ECitMatch's candidates of an ambiguous citation (may be empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
    /// NCBI's words of a miss (`INVALID_JOURNAL`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// A failed request's reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// A failed request's message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl MatchRecord {
    fn new(input: String, key: String, status: Status) -> Self {
        MatchRecord {
            input,
            key,
            status,
            pmid: None,
            method: None,
            pmcid: None,
            doi: None,
            candidates: Vec::new(),
            detail: None,
            reason: None,
            message: None,
        }
    }
}

impl Outcome for MatchRecord {
    fn failure(&self) -> Option<Failed<'_>> {
        let message = self.message.as_deref().unwrap_or_default();
        let (reason, request) = match self.status {
            Status::Matched => return None,
            // The record's own status names the reason: one list, in `Status`.
            Status::NotFound | Status::Ambiguous | Status::InvalidCitation => {
                (self.status.as_str(), None)
            }
            Status::Failed => {
                let r = self.reason.unwrap_or(Reason::Internal);
                (r.as_str(), Some(r))
            }
        };
        Some(Failed {
            reason,
            request,
            message,
            retry_after: None,
        })
    }
}

/// What the DOI lookup made of one DOI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DoiHit {
    /// The article: PMID, and the PMCID and DOI NCBI gave with it.
    Found {
        /// PMID.
        pmid: String,
        /// PMCID (ID Converter only).
        pmcid: Option<String>,
        /// DOI as NCBI writes it.
        doi: Option<String>,
    },
    /// Neither the ID Converter nor PubMed knows it (or it is no DOI):
    /// the reference goes to ECitMatch; the words say why.
    Missing(String),
    /// The lookup's request failed after retries.
    Failed(Reason, String),
}

/// The operation on a client.
pub struct CitMatch<'a> {
    /// The client whose requests are sent and counted.
    pub client: &'a Client,
    /// The DOI lookup's answers, by lower-cased DOI as written.
    pub by_doi: HashMap<String, DoiHit>,
}

/// The keys sent for a chunk's citations: the caller's key when it is
/// there and unique in the chunk (so NCBI's answer reads as the caller's),
/// else `n` and the position.
fn sent_keys(keys: &[Citation]) -> Vec<String> {
    keys.iter()
        .enumerate()
        .map(|(i, c)| {
            let k = citmatch::clean_field(&c.key);
            let unique = keys
                .iter()
                .filter(|o| citmatch::clean_field(&o.key) == k)
                .count()
                == 1;
            let positional = k
                .strip_prefix('n')
                .is_some_and(|d| d.parse::<usize>().is_ok());
            if !k.is_empty() && unique && !positional {
                k
            } else {
                format!("n{i}")
            }
        })
        .collect()
}

impl Op for CitMatch<'_> {
    type Line = MatchLine;
    type Group = ();
    type Key = Citation;
    type Input = (String, String);
    type Answer = HashMap<Citation, Answer>;
    type Record = MatchRecord;
    type Counts = ();

    fn client(&self) -> &Client {
        self.client
    }

    fn policy(&self) -> ChunkPolicy {
        let limit = self.client.settings().policy.max_in_flight;
        ChunkPolicy::simple(
            ECITMATCH_MAX_CITATIONS,
            limit.clamp(1, MAX_CHUNKS_IN_FLIGHT),
        )
    }

    fn check(&self, _arg: &str) -> Result<()> {
        Ok(())
    }

    fn admit(&self, line: MatchLine) -> Admit<Self> {
        let t = line.raw.trim();
        if t.is_empty() || t.starts_with('#') {
            return Admit::Skip;
        }
        let hit = line
            .doi
            .as_ref()
            .and_then(|d| self.by_doi.get(&d.to_lowercase()));
        let key = line
            .citation
            .as_ref()
            .map(|c| c.key.clone())
            .unwrap_or_default();
        match hit {
            Some(DoiHit::Found { pmid, pmcid, doi }) => {
                let mut r = MatchRecord::new(line.raw, key, Status::Matched);
                r.pmid = Some(pmid.clone());
                r.method = Some("doi");
                r.pmcid = pmcid.clone();
                r.doi = doi.clone();
                return Admit::Done(r);
            }
            Some(DoiHit::Failed(reason, message)) => {
                let mut r = MatchRecord::new(line.raw, key, Status::Failed);
                r.reason = Some(*reason);
                r.message = Some(format!("looking up the DOI failed: {message}"));
                return Admit::Done(r);
            }
            Some(DoiHit::Missing(_)) | None => {}
        }
        match line.citation {
            Some(c) if !c.journal.is_empty() && !c.year.is_empty() => Admit::Ask {
                group: (),
                key: c.clone(),
                cost: 1,
                input: (line.raw, c.key),
            },
            _ if let Some(DoiHit::Missing(why)) = hit => {
                let mut r = MatchRecord::new(line.raw, key, Status::NotFound);
                r.message = Some(format!(
                    "no article with its DOI ({why}), and no journal and year to ask ECitMatch"
                ));
                Admit::Done(r)
            }
            _ => {
                let mut r = MatchRecord::new(line.raw, key, Status::InvalidCitation);
                r.message = Some(
                    "not a citation: give journal|year|volume|first_page|author|key| (a journal and a year at least)"
                        .into(),
                );
                Admit::Done(r)
            }
        }
    }

    fn request(&self, _group: (), keys: Vec<Citation>) -> BoxFuture<'_, Result<Self::Answer>> {
        Box::pin(async move {
            let names = sent_keys(&keys);
            let sent: Vec<Citation> = keys
                .iter()
                .zip(&names)
                .map(|(c, k)| Citation {
                    key: k.clone(),
                    ..c.clone()
                })
                .collect();
            let lines = self.client.ecitmatch(&sent).await?;
            // One line per citation in order (checked by the client), each
            // echoing the key sent: another key is another request's answer.
            let mut out = HashMap::new();
            for ((c, k), l) in keys.iter().zip(&names).zip(lines) {
                if citmatch::clean_field(&l.key) != *k {
                    return Err(Error::new(
                        Reason::NcbiInvalidResponse,
                        format!("ECitMatch answered key {:?} where {k:?} was sent", l.key),
                    ));
                }
                out.insert(c.clone(), l.answer);
            }
            Ok(out)
        })
    }

    fn record(
        &self,
        (raw, key): (String, String),
        c: &Citation,
        answer: std::result::Result<&mut Self::Answer, &Error>,
        _last: bool,
    ) -> MatchRecord {
        let answer = match answer {
            Err(e) => {
                let mut r = MatchRecord::new(raw, key, Status::Failed);
                r.reason = Some(e.reason);
                r.message = Some(e.message.clone());
                return r;
            }
            Ok(a) => a.get(c).cloned(),
        };
        match answer {
            Some(Answer::Found(pmid)) => {
                let mut r = MatchRecord::new(raw, key, Status::Matched);
                r.pmid = Some(pmid);
                r.method = Some("citmatch");
                r
            }
            Some(Answer::Ambiguous(candidates)) => {
                let mut r = MatchRecord::new(raw, key, Status::Ambiguous);
                r.candidates = candidates;
                r.message = Some("ECitMatch found several articles; none is chosen".into());
                r
            }
            Some(Answer::NotFound(detail)) => {
                let mut r = MatchRecord::new(raw, key, Status::NotFound);
                r.message = Some(if detail.is_empty() {
                    "ECitMatch found no article".into()
                } else {
                    format!("ECitMatch found no article ({detail})")
                });
                r.detail = (!detail.is_empty()).then_some(detail);
                r
            }
            None => {
                let mut r = MatchRecord::new(raw, key, Status::Failed);
                r.reason = Some(Reason::NcbiInvalidResponse);
                r.message = Some("ECitMatch's answer has no line for this citation".into());
                r
            }
        }
    }
}

/// Looks the DOIs up (the ID Converter, then ESearch `"DOI"[doi]` for
/// those outside PMC), each distinct DOI once: the answers by lower-cased
/// DOI and the requests sent.
///
/// Errors: as [`fallback::convert_with_fallback`] (a failed request is in
/// its DOIs' answers).
pub async fn lookup_dois(
    client: &Client,
    dois: &[String],
) -> std::result::Result<(HashMap<String, DoiHit>, u64), Failure> {
    let mut asked: Vec<String> = Vec::new();
    for d in dois {
        if !asked.iter().any(|a| a.eq_ignore_ascii_case(d)) {
            asked.push(d.clone());
        }
    }
    let mut by_doi = HashMap::new();
    if asked.is_empty() {
        return Ok((by_doi, 0));
    }
    let mut hits = Vec::new();
    let lines = futures::stream::iter(
        asked
            .iter()
            .map(|d| Ok(InputLine::Id(d.trim().to_string()))),
    );
    let totals = fallback::convert_with_fallback(client, lines, Some(IdType::Doi), &mut |o| {
        if let Output::Record(r) = o {
            hits.push(doi_hit(r));
        }
        Ok(())
    })
    .await?;
    for (d, h) in asked.iter().zip(hits) {
        by_doi.insert(d.to_lowercase(), h);
    }
    Ok((by_doi, totals.requests))
}

/// What a convert record says of its DOI.
fn doi_hit(r: &super::convert::ConvertRecord) -> DoiHit {
    match &r.outcome {
        Ok(c) => match &c.pmid {
            Some(pmid) => DoiHit::Found {
                pmid: pmid.clone(),
                pmcid: c.pmcid.clone(),
                doi: c.doi.clone(),
            },
            None => DoiHit::Missing("the article has no PMID".into()),
        },
        Err(e) => match e.reason.request_failure() {
            Some(reason) => DoiHit::Failed(reason, e.message.clone()),
            None => DoiHit::Missing(e.message.clone()),
        },
    }
}

/// Matches `refs`, handing each record to `sink` in input order: the DOIs
/// first ([`lookup_dois`]), then ECitMatch for every reference the DOI did
/// not match.
///
/// Errors: as [`batch::run`] (a failed request is in its records and the
/// totals, not an error here).
pub async fn match_stream<F>(
    client: &Client,
    refs: Vec<MatchLine>,
    sink: &mut F,
) -> std::result::Result<Totals, Failure>
where
    F: FnMut(Output<'_, MatchRecord>) -> io::Result<()>,
{
    let dois: Vec<String> = refs.iter().filter_map(|r| r.doi.clone()).collect();
    let (by_doi, doi_requests) = lookup_dois(client, &dois).await?;
    let input = futures::stream::iter(refs.into_iter().map(Ok));
    let mut totals = batch::run(&CitMatch { client, by_doi }, input, sink).await?;
    totals.requests += doi_requests;
    Ok(totals)
}

/// Matches inputs given at once (MCP): the records in order and the totals;
/// `progress` hears of every answered ECitMatch chunk (MCP progress
/// notifications).
///
/// Errors: as [`match_stream`].
pub async fn match_all(
    client: &Client,
    lines: Vec<MatchLine>,
    mut progress: impl FnMut(batch::Progress) + Send,
) -> std::result::Result<(Vec<MatchRecord>, Totals), Failure> {
    let mut records = Vec::new();
    let totals = match_stream(client, lines, &mut |o| {
        match o {
            Output::Record(r) => records.push(r.clone()),
            Output::Progress(p) => progress(p),
            Output::Skipped | Output::Flush => {}
        }
        Ok(())
    })
    .await?;
    Ok((records, totals))
}
