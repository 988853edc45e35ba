//! `pubmed_lookup_citation`: the citation matcher (`pubmed match`) as an
//! MCP tool.

use serde_json::json;

use super::{ToolSpec, errors_paragraph};
use crate::core::reflist::{self, Reference};
use crate::error::{Field, Reason};
use crate::mcp::reply::success;
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::citmatch;

/// The tool name.
pub const NAME: &str = "pubmed_lookup_citation";

/// Citations per call.
const MAX_CITATIONS: usize = 100;

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Find the PMIDs of references with NCBI's ECitMatch, from journal, year, volume, first page and first author. Use it to turn a reference list into PMIDs, then fetch the records. Each citation gets one record, in order: matched (with pmid and method citmatch), not_found, ambiguous (ECitMatch's candidates, none chosen) or invalid_citation; a match is never guessed.\n\n\
Input: `citations` (1 to {MAX_CITATIONS}), each a string in ECitMatch's own form `journal|year|volume|first_page|author|key|` (journal as the ISO abbreviation or the full title, author as surname and initials: `mann bj`). Output: `records[{{input, key, status, pmid, method, candidates, detail, reason, message}}]`, `totalSubmitted`, `totalMatched`.\n\n{}",
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
                "totalSubmitted": {"type": "integer", "description": "Citations given."},
                "totalMatched": {"type": "integer", "description": "Citations matched."}
            },
            "required": ["records", "totalSubmitted", "totalMatched"]
        }),
    }
}

/// Runs the tool.
pub async fn run(spec: &ToolSpec, client: &Client, v: &Values) -> rmcp::model::CallToolResult {
    let lines: Vec<Reference> = v
        .strings("citations")
        .iter()
        .map(|s| reflist::from_line(s))
        .collect();
    match citmatch::match_all(client, lines).await {
        Err(f) => spec.failure(&f.into_op_error()),
        Ok((records, totals)) => {
            if let Some(e) = totals.failure() {
                return spec.failure(e);
            }
            let text = records
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
            success(
                json!({
                    "records": records,
                    "totalSubmitted": totals.submitted,
                    "totalMatched": totals.succeeded,
                }),
                text,
                &[],
            )
        }
    }
}
