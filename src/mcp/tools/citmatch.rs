//! `pubmed_lookup_citation`: the citation matcher (`pubmed match`) as an
//! MCP tool.

use serde_json::json;

use super::{ToolSpec, errors_paragraph};
use crate::core::reflist::{self, Reference};
use crate::error::{Field, Reason};
use crate::mcp::reply::{BUDGET_ARG, DEFAULT_BUDGET, budget_arg, deferral_at, fit, success};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::citmatch;
use crate::ops::citmatch::MatchRecord;

/// The tool name.
pub const NAME: &str = "pubmed_lookup_citation";

/// Citations per call.
const MAX_CITATIONS: usize = 100;

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Find the PMIDs of references with NCBI's ECitMatch, from journal, year, volume, first page and first author. Use it to turn a reference list into PMIDs, then fetch the records. Each citation gets one record, in order: matched (with pmid and method citmatch), not_found, ambiguous (ECitMatch's candidates, none chosen) or invalid_citation; a match is never guessed.\n\n\
Input: `citations` (1 to {MAX_CITATIONS}), each a string in ECitMatch's own form `journal|year|volume|first_page|author|key|` (journal as the ISO abbreviation or the full title, author as surname and initials: `mann bj`). Output: `records[{{input, key, status, pmid, method, candidates, detail, reason, message}}]`, `totalSubmitted`, `totalMatched` (of the records held). `offset` (citations to skip, from `continueWith`) and `maxResponseCharacters` (the response budget): the citations whose records do not fit are `deferred` and matched by the call `continueWith` describes.\n\n{}",
        errors_paragraph(&[(
            Reason::InvalidArgument,
            "a wrong argument, e.g. no citations or more than 100"
        )])
    );
    ToolSpec {
        name: NAME,
        title: "Match references to PMIDs",
        summary: "turns references (journal, year, volume, page, author) into PMIDs",
        description,
        args: vec![
            Arg::strings(
                "citations",
                1,
                Some(MAX_CITATIONS),
                "Citations as `journal|year|volume|first_page|author|key|` lines.",
            )
            .required()
            .fills(Field::Ids),
            Arg::integer(
                "offset",
                0,
                MAX_CITATIONS as u64 - 1,
                Some(0),
                "Citations to skip (continueWith gives it).",
            ),
            budget_arg(),
        ],
        output: json!({
            "type": "object",
            "properties": {
                "records": {"type": "array", "description": "One record per citation, in order.", "items": {
                    "type": "object",
                    "properties": {
                        "input": {"type": "string", "description": "The citation as given."},
                        "key": {"type": "string", "description": "The citation's key (its sixth field)."},
                        "status": {"type": "string", "enum": ["matched", "not_found", "ambiguous", "invalid_citation", "failed"], "description": "What became of the citation."},
                        "pmid": {"type": "string", "description": "The PMID, when matched."},
                        "method": {"type": "string", "description": "How it was matched: citmatch."},
                        "candidates": {"type": "array", "items": {"type": "string"}, "description": "ECitMatch's candidates of an ambiguous citation."},
                        "detail": {"type": "string", "description": "NCBI's words of a miss (INVALID_JOURNAL)."},
                        "reason": {"type": "string", "description": "A failed request's reason."},
                        "message": {"type": "string", "description": "Why it is not matched."}
                    },
                    "required": ["input", "key", "status"]
                }},
                "totalSubmitted": {"type": "integer", "description": "Citations whose records this answer holds."},
                "totalMatched": {"type": "integer", "description": "Of those, the citations matched."},
                "offset": {"type": "integer", "description": "Citations skipped (the offset argument)."},
                "deferred": {"type": "array", "items": {"type": "string"}, "description": "The citations whose records did not fit in maxResponseCharacters, as given."},
                "continueWith": {"type": "object", "description": "The arguments that match the deferred citations: {\"offset\": N}, others unchanged.", "properties": {"offset": {"type": "integer", "description": "The next offset."}}}
            },
            "required": ["records", "totalSubmitted", "totalMatched"]
        }),
        examples,
        run: |s, c, v, r| Box::pin(run(s, c, v, r)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![
        json!({"citations": ["proc natl acad sci u s a|1991|88|3248|mann bj|Art1|", "fake journal|2000|1|1|nobody|ref2|", "n engl j med|2020|382|727|zhu n|Art4|"]}),
    ]
}

/// Runs the tool: the citations from `offset` on are matched, and the
/// records that fit in the budget returned (docs/mcp.md "Response budget").
pub async fn run(
    spec: &ToolSpec,
    client: &Client,
    v: &Values,
    report: &super::Reporter,
) -> rmcp::model::CallToolResult {
    let given = v.strings("citations");
    let offset = (v.integer("offset").unwrap_or(0) as usize).min(given.len());
    let budget = v.integer(BUDGET_ARG).unwrap_or(DEFAULT_BUDGET);
    let inputs = &given[offset..];
    let lines: Vec<Reference> = inputs.iter().map(|s| reflist::from_line(s)).collect();
    match citmatch::match_all(client, lines, report).await {
        Err(f) => spec.failure(&f.into_op_error()),
        Ok((records, totals)) => {
            if let Some(e) = totals.failure() {
                return spec.failure(e);
            }
            let (out, text) = fit(records.len(), budget as usize, |k| {
                budgeted(&records, inputs, offset, k, budget)
            });
            success(out, text, &[])
        }
    }
}

/// The answer holding the first `k` records, the other citations
/// deferred; the totals count the held records.
fn budgeted(
    records: &[MatchRecord],
    inputs: &[String],
    offset: usize,
    k: usize,
    budget: u64,
) -> (serde_json::Value, String) {
    let held = &records[..k];
    let mut text = held
        .iter()
        .map(|r| {
            format!(
                "- {}: {}{}",
                r.input,
                r.status.as_str(),
                r.pmid
                    .as_deref()
                    .map(|p| format!(" PMID {p}"))
                    .unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let matched = held.iter().filter(|r| r.pmid.is_some()).count();
    let mut out = serde_json::Map::new();
    out.insert(
        "records".into(),
        serde_json::to_value(held).unwrap_or_default(),
    );
    out.insert("totalSubmitted".into(), k.into());
    out.insert("totalMatched".into(), matched.into());
    out.insert("offset".into(), offset.into());
    let deferred = inputs[k.min(inputs.len())..].to_vec();
    let (extra, note) = deferral_at("citations", NAME, budget, offset, k, &deferred);
    out.extend(extra);
    text.push_str(&note);
    (serde_json::Value::Object(out), text)
}
