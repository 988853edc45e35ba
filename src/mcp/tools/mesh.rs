//! `pubmed_lookup_mesh`: the MeSH lookup (`pubmed mesh`) as an MCP tool.

use serde_json::json;

use super::{ToolSpec, errors_paragraph};
use crate::error::{Field, Reason};
use crate::mcp::reply::{
    BUDGET_ARG, DEFAULT_BUDGET, SEARCH_TOOL, SPELL_TOOL, budget_arg, deferral_at, fit, success,
};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ncbi::mesh::MESH_MAX_RECORDS;
use crate::ops::mesh::{self, MeshRequest};

/// The tool name.
pub const NAME: &str = "pubmed_lookup_mesh";

fn heading_schema(what: &str) -> serde_json::Value {
    json!({"type": "object", "description": what, "properties": {
        "ui": {"type": "string", "description": "The MeSH UI (D009203)."},
        "name": {"type": "string", "description": "The heading."},
        "treeNumber": {"type": "string", "description": "Its tree number at this position (parents and children)."}
    }, "required": ["ui", "name"]})
}

fn strings(what: &str) -> serde_json::Value {
    json!({"type": "array", "description": what, "items": {"type": "string"}})
}

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Look up MeSH (Medical Subject Headings, NLM's controlled vocabulary) for a term or a MeSH UI with NCBI's ESearch and ESummary (db=mesh). Use it before {SEARCH_TOOL} to find the heading PubMed indexes a concept under (\"heart attack\" → Myocardial Infarction, D009203) and paste its `search.mesh` clause (`\"Myocardial Infarction\"[Mesh]`, exploded; `search.major` for [majr], `search.noExplode` for [mh:noexp]); with `tree`, each tree position's parent and children, to widen or narrow a search.\n\n\
Input: `term` (words or a UI such as D009203 or C414177), `tree` (default false), `max` (records, 1 to {MESH_MAX_RECORDS}, default 5), `offset` and `maxResponseCharacters` (the response budget: records that do not fit are `deferred`, `continueWith` gives the offset that returns them). Output: `query`, `count` (records MeSH holds for the term) and `records`, each with `ui`, `name`, `kind` (descriptor, supplementary for a supplementary concept record, qualifier), `scopeNote`, `entryTerms`, `treeNumbers`, `allowableQualifiers`, `yearIntroduced`, `previousIndexing`, `seeRelated`, `search`, `mappedTo` (the descriptors a supplementary concept maps to) and, with `tree`, `tree`. No record is an error (ncbi_resource_not_found): check the spelling with {SPELL_TOOL}.\n\n{}",
        errors_paragraph(&[
            (Reason::BlankQuery, "the term has no visible character"),
            (
                Reason::NcbiResourceNotFound,
                "MeSH has no record for the term"
            ),
            (
                Reason::InvalidArgument,
                "a wrong argument, e.g. max out of range"
            ),
        ])
    );
    ToolSpec {
        name: NAME,
        title: "Look up MeSH headings",
        summary: "finds the MeSH heading, tree and search clause for a concept",
        description,
        args: vec![
            Arg::text_keep_empty("term", "A term (heart attack) or a MeSH UI (D009203).")
                .required()
                .fills(Field::Query),
            Arg::boolean(
                "tree",
                "Also give each tree position's parent and children.",
            ),
            Arg::integer(
                "max",
                1,
                MESH_MAX_RECORDS as u64,
                Some(5),
                "Records to return.",
            ),
            Arg::integer(
                "offset",
                0,
                MESH_MAX_RECORDS as u64 - 1,
                Some(0),
                "Records of the answer to skip (continueWith gives it).",
            ),
            budget_arg(),
        ],
        output: json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "The term or UI as given."},
                "count": {"type": "integer", "description": "Records MeSH holds for the term; records shows at most max of them."},
                "offset": {"type": "integer", "description": "Records skipped (the offset argument)."},
                "deferred": strings("The UIs of the records that did not fit in maxResponseCharacters."),
                "continueWith": {"type": "object", "description": "The arguments that fetch the deferred records: {\"offset\": N}, others unchanged.", "properties": {"offset": {"type": "integer", "description": "The next offset."}}},
                "records": {"type": "array", "description": "The MeSH records, in MeSH's order.", "items": {
                    "type": "object",
                    "properties": {
                        "ui": {"type": "string", "description": "The MeSH UI (D009203, C414177)."},
                        "name": {"type": "string", "description": "The heading (the record's preferred term)."},
                        "kind": {"type": "string", "enum": ["descriptor", "supplementary", "qualifier"], "description": "descriptor (D), supplementary concept record (C) or qualifier (Q)."},
                        "scopeNote": {"type": "string", "description": "NLM's definition of the heading."},
                        "entryTerms": strings("Synonyms MeSH maps to the heading."),
                        "treeNumbers": strings("The heading's places in the MeSH trees (none for a supplementary concept)."),
                        "allowableQualifiers": strings("Subheadings allowed with the heading."),
                        "yearIntroduced": {"type": "string", "description": "The year the heading was introduced (empty when NCBI gives none)."},
                        "previousIndexing": strings("How the concept was indexed before."),
                        "seeRelated": strings("Related headings."),
                        "search": {"type": "object", "description": "Clauses to paste into a PubMed query.", "properties": {
                            "mesh": {"type": "string", "description": "\"Name\"[Mesh] (exploded); [nm] for a supplementary concept, [sh] for a qualifier."},
                            "major": {"type": "string", "description": "\"Name\"[majr]: as a major topic (descriptors)."},
                            "noExplode": {"type": "string", "description": "\"Name\"[mh:noexp]: the heading alone (descriptors)."}
                        }, "required": ["mesh"]},
                        "mappedTo": {"type": "array", "description": "The descriptors a supplementary concept maps to.", "items": heading_schema("A descriptor.")},
                        "tree": {"type": "array", "description": "With tree: each tree position's parent and children.", "items": {"type": "object", "description": "One tree position.", "properties": {
                            "treeNumber": {"type": "string", "description": "The heading's tree number here."},
                            "parent": heading_schema("The heading above (absent at a tree's top)."),
                            "children": {"type": "array", "description": "The headings below.", "items": heading_schema("A heading below.")}
                        }, "required": ["treeNumber", "children"]}}
                    },
                    "required": ["ui", "name", "kind", "treeNumbers", "search"]
                }}
            },
            "required": ["query", "count", "records"]
        }),
        examples,
        run: |s, c, v, _| Box::pin(run(s, c, v)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![
        json!({"term": "heart attack"}),
        json!({"term": "D009203", "tree": true}),
        json!({"term": "C414177"}),
    ]
}

/// Runs the tool: the lookup, then the records from `offset` on that fit
/// in the budget (docs/mcp.md "Response budget").
pub async fn run(spec: &ToolSpec, client: &Client, v: &Values) -> rmcp::model::CallToolResult {
    let req = MeshRequest {
        term: v.text("term").unwrap_or_default(),
        tree: v.boolean("tree"),
        max: v.integer("max").unwrap_or(5) as usize,
    };
    let offset = v.integer("offset").unwrap_or(0) as usize;
    let budget = v.integer(BUDGET_ARG).unwrap_or(DEFAULT_BUDGET);
    match mesh::lookup(client, &req).await {
        Err(e) => spec.failure(&e),
        Ok(mut o) => {
            let rest = o.records.split_off(offset.min(o.records.len()));
            let (out, text) = fit(rest.len(), budget as usize, |k| {
                budgeted(&o, &rest, offset, k, budget)
            });
            success(out, text, &[])
        }
    }
}

/// The answer holding the first `k` of `rest` (the records from `offset`
/// on), the others' UIs deferred.
fn budgeted(
    o: &mesh::MeshOutcome,
    rest: &[mesh::MeshEntry],
    offset: usize,
    k: usize,
    budget: u64,
) -> (serde_json::Value, String) {
    let held = &rest[..k];
    let lines: Vec<String> = held
        .iter()
        .map(|e| format!("- {} ({}): {}", e.record.name, e.record.ui, e.search.mesh))
        .collect();
    let mut text = format!("MeSH for {:?}:\n{}", o.query, lines.join("\n"));
    let mut out = serde_json::Map::new();
    out.insert("query".into(), o.query.clone().into());
    out.insert("count".into(), o.count.into());
    out.insert("offset".into(), offset.into());
    out.insert(
        "records".into(),
        serde_json::to_value(held).unwrap_or_default(),
    );
    let deferred: Vec<String> = rest[k..].iter().map(|e| e.record.ui.clone()).collect();
    let (extra, note) = deferral_at("UIs", NAME, budget, offset, k, &deferred);
    out.extend(extra);
    text.push_str(&note);
    (serde_json::Value::Object(out), text)
}
