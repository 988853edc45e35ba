//! `match` / `pubmed_lookup_citation`: references → PMIDs with ECitMatch,
//! on the batch engine ([`batch::Op`]): chunks of
//! [`ECITMATCH_MAX_CITATIONS`] in order, every input line one record in
//! input order, each `matched` (with how), `not_found`, `ambiguous` (with
//! ECitMatch's candidates) or failed — never a guess shown as a match
//! (docs/match.md).

use std::collections::HashMap;
use std::io;

use futures::Stream;
use futures::future::BoxFuture;
use serde::Serialize;

use super::batch::{self, Admit, ChunkPolicy, Failed, Op, Outcome, Output, Totals};
use crate::core::citmatch::{self, Answer, Citation};
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
    /// How it was matched: `citmatch` (ECitMatch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
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

/// The operation on a client.
pub struct CitMatch<'a> {
    /// The client whose requests are sent and counted.
    pub client: &'a Client,
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
        match line.citation {
            Some(c) if !c.journal.is_empty() && !c.year.is_empty() => Admit::Ask {
                group: (),
                key: c.clone(),
                cost: 1,
                input: (line.raw, c.key),
            },
            other => {
                let mut r = MatchRecord::new(
                    line.raw,
                    other.map(|c| c.key).unwrap_or_default(),
                    Status::InvalidCitation,
                );
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

/// Matches a stream of inputs, handing each record to `sink` in input order.
///
/// Errors: as [`batch::run`] (a failed request is in its records and the
/// totals, not an error here).
pub async fn match_stream<S, F>(
    client: &Client,
    input: S,
    sink: &mut F,
) -> std::result::Result<Totals, Failure>
where
    S: Stream<Item = io::Result<MatchLine>> + Unpin,
    F: FnMut(Output<'_, MatchRecord>) -> io::Result<()>,
{
    batch::run(&CitMatch { client }, input, sink).await
}

/// Matches inputs given at once (MCP): the records in order and the totals.
///
/// Errors: as [`match_stream`].
pub async fn match_all(
    client: &Client,
    lines: Vec<MatchLine>,
) -> std::result::Result<(Vec<MatchRecord>, Totals), Failure> {
    let mut records = Vec::new();
    let stream = futures::stream::iter(lines.into_iter().map(Ok));
    let totals = match_stream(client, stream, &mut |o| {
        if let Output::Record(r) = o {
            records.push(r.clone());
        }
        Ok(())
    })
    .await?;
    Ok((records, totals))
}
