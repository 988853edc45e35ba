//! `pubmed_find_related`: the related operation (`pubmed related`) for one
//! PMID as an MCP tool (docs/related.md).

use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use super::{ToolSpec, errors_paragraph, summary_schema};
use crate::core::text::count;
use crate::error::{Error, Field, Reason};
use crate::mcp::reply::{
    BUDGET_ARG, DEFAULT_BUDGET, SEARCH_TOOL, budget_arg, deferral, fit, success,
};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ncbi::elink::LinkKind;
use crate::ops::record::RecordReason;
use crate::ops::related::{self, RelatedRecord, RelatedRequest};
use crate::ops::search::{Detail, Summary};

/// The tool name.
pub const NAME: &str = "pubmed_find_related";
/// Most linked PMIDs per call.
pub const MAX_RELATED: u64 = 100;
/// Linked PMIDs per call when none is asked.
pub const DEFAULT_RELATED: u64 = 20;

/// The declaration.
pub fn spec() -> ToolSpec {
    let not_found = format!(
        "PubMed has no article with this PMID; check it with {SEARCH_TOOL}, e.g. query \"9298984[pmid]\""
    );
    let description = format!(
        "Find articles linked to one PubMed article: similar articles (best match first), the articles that cite it (cited-by), or the articles it cites (references), each with a short summary (title, authors, journal, date, DOI, retraction status). Use it to widen a search from a known article or follow its citations. One call takes one PMID; `total` says how many links NCBI lists, `maxResults` (1–{MAX_RELATED}, default {DEFAULT_RELATED}) how many come, from `offset` on. cited-by and references come from PubMed's own links, built from reference lists in PubMed Central: counts are often lower than elsewhere, and zero does not mean uncited. An article with no links of the kind returns an empty list and a `notice`.\n\n{}",
        errors_paragraph(&[
            (Reason::MalformedId, "pmid is not digits, or is 0"),
            (
                Reason::InvalidArgument,
                "kind or maxResults out of range, or another wrong argument"
            ),
            (Reason::NcbiResourceNotFound, &not_found),
        ])
    );
    ToolSpec {
        name: NAME,
        title: "Find related articles",
        summary: "follows an article's similar articles, citing articles or references",
        description,
        args: vec![
            Arg::id(
                "pmid",
                "The PubMed ID of the source article: digits (9298984; leading zeros allowed, never 0). A PMCID or DOI must be converted first with pubmed_convert_ids.",
            )
            .required()
            .fills(Field::Ids),
            Arg::choice_of(
                "kind",
                Some(LinkKind::default()),
                "similar (best match first), cited-by (articles citing it) or references (articles it cites).",
            ),
            Arg::integer(
                "maxResults",
                1,
                MAX_RELATED,
                Some(DEFAULT_RELATED),
                "Linked articles to return, in NCBI's order; `total` says how many NCBI lists.",
            ),
            Arg::integer(
                "offset",
                0,
                MAX_RELATED - 1,
                Some(0),
                "Linked articles to skip first (for `continueWith`).",
            ),
            budget_arg(),
        ],
        output: json!({
            "type": "object",
            "properties": {
                "pmid": {"type": "string", "description": "The source PMID (leading zeros dropped)."},
                "kind": {"type": "string", "description": "similar, cited-by or references."},
                "total": {"type": "integer", "description": "How many linked PMIDs NCBI lists (the source itself left out), before maxResults."},
                "linked": {"type": "array", "description": "Linked articles in NCBI's order, at most maxResults.", "items": {
                    "type": "object",
                    "properties": {
                        "pmid": {"type": "string", "description": "The linked article's PMID."},
                        "rank": {"type": "integer", "description": "1-based position in NCBI's list."},
                        "score": {"type": "integer", "description": "NCBI's similarity score, when it sends one."}
                    },
                    "required": ["pmid", "rank"]
                }},
                "summaries": {"type": "array", "items": summary_schema(), "description": "A summary of every linked PMID (ESummary), in the order of linked."},
                "missing": {"type": "array", "items": {"type": "object", "properties": {"pmid": {"type": "string", "description": "The linked PMID without a summary."}, "message": {"type": "string", "description": "NCBI's message for it."}}}, "description": "Linked PMIDs ESummary has no summary for."},
                "notice": {"type": "string", "description": "Present when there are no links: what that means."},
                "deferred": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "Linked PMIDs left for another call because the answer reached maxResponseCharacters (absent when all came)."},
                "continueWith": {"type": "object", "properties": {"offset": {"type": "integer", "description": "offset of the next call."}, "maxResults": {"type": "integer", "description": "maxResults of the next call."}}, "description": "The arguments that change in the call returning the deferred PMIDs; the others stay as given."}
            },
            "required": ["pmid", "kind", "total", "linked", "summaries"]
        }),
        examples,
        run: |s, c, v, r| Box::pin(run(s, c, v, r)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![json!({"pmid": "9298984", "kind": "references", "maxResults": 3})]
}

/// The MCP view of one related record (docs/related.md).
fn output(r: &RelatedRecord) -> Value {
    let linked: Vec<Value> = r
        .linked()
        .iter()
        .map(|l| {
            let mut v = json!({"pmid": l.pmid, "rank": l.rank});
            if let Some(s) = l.score {
                v["score"] = s.into();
            }
            v
        })
        .collect();
    let summaries: Vec<&Summary> = r
        .linked()
        .iter()
        .filter_map(|l| l.summary.as_ref())
        .collect();
    let missing: Vec<Value> = r
        .linked()
        .iter()
        .filter_map(|l| {
            l.missing
                .as_ref()
                .map(|m| json!({"pmid": l.pmid, "message": m}))
        })
        .collect();
    let mut v = json!({
        "pmid": r.pmid,
        "kind": r.kind,
        "total": r.total(),
        "linked": linked,
        "summaries": summaries,
        "missing": missing,
    });
    if r.total() == 0 {
        v["notice"] = related::no_links_note(r).into();
    }
    v
}

/// Every linked PMID with its summary line ([`summary_line`]).
fn text(r: &RelatedRecord) -> String {
    let pmid = r.pmid.as_deref().unwrap_or(&r.requested);
    if r.total() == 0 {
        return format!("{}.", related::no_links_note(r));
    }
    let mut t = format!(
        "**{}** for PMID {pmid} (showing {}):",
        count(
            r.total() as u64,
            match r.kind {
                LinkKind::Similar => "similar article",
                LinkKind::CitedBy => "citing article",
                LinkKind::References => "reference",
            }
        ),
        r.linked().len()
    );
    for l in r.linked() {
        match &l.summary {
            Some(s) => t.push_str(&format!("\n{}. {}", l.rank, summary_line(s))),
            None => t.push_str(&format!("\n{}. PMID {} (no summary)", l.rank, l.pmid)),
        }
    }
    t
}

/// Authors shown in a line before "et al.".
const AUTHORS_SHOWN: usize = 3;

/// One linked article as the description promises: `PMID — title —
/// authors (journal, date) doi:… PMCID`, retraction marks last; the first
/// [`AUTHORS_SHOWN`] authors, then "et al." (docs/mcp.md "Text").
fn summary_line(s: &Summary) -> String {
    let mut line = format!("PMID {} — {}", s.pmid, s.title);
    if !s.authors.is_empty() {
        let shown = s.authors.len().min(AUTHORS_SHOWN);
        line.push_str(&format!(" — {}", s.authors[..shown].join(", ")));
        if s.authors.len() > shown {
            line.push_str(", et al.");
        }
    }
    let date = s.pub_date.as_deref().unwrap_or(&s.pub_date_text);
    let parts: Vec<&str> = [s.journal.as_str(), date]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    if !parts.is_empty() {
        line.push_str(&format!(" ({})", parts.join(", ")));
    }
    if let Some(d) = &s.doi {
        line.push_str(&format!(" doi:{d}"));
    }
    if let Some(p) = &s.pmcid {
        line.push_str(&format!(" {p}"));
    }
    if s.retracted {
        line.push_str(" **RETRACTED**");
    }
    if s.retraction_notice {
        line.push_str(" **RETRACTION NOTICE**");
    }
    line
}

/// Runs the tool.
pub async fn run(
    spec: &ToolSpec,
    client: &Client,
    v: &Values,
    report: &super::Reporter,
) -> CallToolResult {
    let pmid = v.text("pmid").unwrap_or_default();
    let offset = v.integer("offset").unwrap_or(0) as usize;
    let req = RelatedRequest {
        kind: v.choice("kind").unwrap_or_default(),
        retmax: Some(offset + v.integer("maxResults").unwrap_or(DEFAULT_RELATED) as usize),
        detail: Detail::Full,
    };
    let outcome = related::related_ids_reporting(client, std::slice::from_ref(&pmid), &req, report)
        .await
        .and_then(|(mut records, totals)| {
            let r = records
                .pop()
                .ok_or_else(|| Error::new(Reason::NcbiInvalidResponse, "no record came back"))?;
            match &r.outcome {
                Ok(_) => Ok(r),
                Err(e) if e.reason == RecordReason::NotFound => {
                    Err(Error::new(Reason::NcbiResourceNotFound, e.message.clone()))
                }
                Err(e) => Err(totals
                    .first_failure
                    .clone()
                    .unwrap_or_else(|| Error::new(Reason::NcbiUnreachable, e.message.clone()))),
            }
        });
    match outcome {
        Ok(mut r) => {
            if let Ok(l) = &mut r.outcome {
                l.linked.drain(..offset.min(l.linked.len()));
            }
            let budget = v.integer(BUDGET_ARG).unwrap_or(DEFAULT_BUDGET);
            let (out, text) = fit(r.linked().len(), budget as usize, |k| {
                budgeted(&r, offset, k, budget)
            });
            success(out, text, &[])
        }
        Err(e) => spec.failure(&e),
    }
}

/// The answer holding the first `k` linked articles of `r` (which starts
/// at `offset` in NCBI's list), the others deferred to a call at
/// `offset` + `k` (docs/mcp.md "Response budget").
fn budgeted(r: &RelatedRecord, offset: usize, k: usize, budget: u64) -> (Value, String) {
    let mut held = r.clone();
    let mut deferred = Vec::new();
    if let Ok(l) = &mut held.outcome {
        deferred = l.linked.split_off(k.min(l.linked.len()));
    }
    let deferred: Vec<String> = deferred.into_iter().map(|l| l.pmid).collect();
    let next = json!({"offset": offset + k, "maxResults": deferred.len()});
    let (extra, note) = deferral(NAME, budget, k, &deferred, next);
    let mut out = output(&held);
    if let Value::Object(m) = &mut out {
        m.extend(extra);
    }
    (out, text(&held) + &note)
}
