//! The MCP tools. Each tool is one module with a [`ToolSpec`] (name,
//! description, arguments as [`Arg`]s, output schema) and one adapter
//! function from checked arguments to a result; everything else — the input
//! schema, the allow-list, argument checks, error results in MCP terms —
//! comes from the spec. Adding a tool is adding a module and one line to
//! [`specs`] and `run` (docs/mcp.md "Adding a tool").

use std::sync::{Arc, OnceLock};

use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use super::reply::{Failure, or_error};
use super::schema::{Arg, Values, object_schema, read};
use crate::error::Error;
use crate::ncbi::Client;

pub mod cite;
pub mod convert;
pub mod fetch;
pub mod related;
pub mod search;
pub mod spell;

/// A tool's declaration: everything clients see, and the argument list the
/// checks and messages come from.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    /// The tool name (`pubmed_search_articles`).
    pub name: &'static str,
    /// A short human title.
    pub title: &'static str,
    /// What it does, when to use it, its arguments' rules and the error
    /// reasons it can return.
    pub description: String,
    /// The arguments.
    pub args: Vec<Arg>,
    /// The JSON Schema of a successful `structuredContent`.
    pub output: Value,
}

impl ToolSpec {
    /// The MCP `Tool`: input schema from the arguments, output schema that
    /// also admits the error shape, read-only and open-world annotations.
    pub fn tool(&self) -> Tool {
        Tool::new(
            self.name,
            self.description.clone(),
            object(object_schema(&self.args)),
        )
        .with_title(self.title)
        .with_raw_output_schema(object(or_error(self.output.clone())))
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(true))
    }

    /// The `isError` result for an operation's error, in this tool's terms.
    pub fn failure(&self, e: &Error) -> CallToolResult {
        Failure::from_error(e, &self.args).result(None)
    }
}

fn object(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(Map::new()),
    }
}

/// Every tool's spec, built once.
pub fn specs() -> &'static [ToolSpec] {
    static SPECS: OnceLock<Vec<ToolSpec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        vec![
            search::spec(),
            spell::spec(),
            convert::spec(),
            fetch::spec(),
            cite::spec(),
            related::spec(),
        ]
    })
}

/// The tools as MCP lists them.
pub fn tools() -> Vec<Tool> {
    specs().iter().map(ToolSpec::tool).collect()
}

/// Runs tool `name` with `arguments`; `None` when there is no such tool.
/// Arguments are checked against the spec first: a wrong one is an
/// `isError` result naming it, and nothing is sent to NCBI.
pub async fn call(client: &Client, name: &str, arguments: &JsonObject) -> Option<CallToolResult> {
    let spec = specs().iter().find(|s| s.name == name)?;
    let values = match read(&spec.args, arguments, spec.name) {
        Ok(v) => v,
        Err(e) => return Some(Failure::from_arg(&e).result(None)),
    };
    Some(run(spec, client, &values).await)
}

async fn run(spec: &ToolSpec, client: &Client, v: &Values) -> CallToolResult {
    match spec.name {
        search::NAME => search::run(spec, client, v).await,
        spell::NAME => spell::run(spec, client, v).await,
        convert::NAME => convert::run(spec, client, v).await,
        fetch::NAME => fetch::run(spec, client, v).await,
        cite::NAME => cite::run(spec, client, v).await,
        related::NAME => related::run(spec, client, v).await,
        _ => Failure::from_error(
            &Error::new(crate::error::Reason::InvalidArgument, "unknown tool"),
            &[],
        )
        .result(None),
    }
}

/// The record schema of a PubMed summary (ESummary), shared by the tools
/// that return summaries.
pub fn summary_schema() -> Value {
    json!({
        "type": "object",
        "description": "One PubMed record's summary (ESummary). With detail \"brief\" only pmid, pubDate, pubDateText, title, pubTypes, retracted and retractionNotice are present.",
        "properties": {
            "pmid": {"type": "string", "description": "PubMed ID."},
            "title": {"type": "string", "description": "Article title, markup removed, never truncated."},
            "authors": {"type": "array", "items": {"type": "string"}, "description": "Every author in order (e.g. \"Smith J\"), collective names included."},
            "journal": {"type": "string", "description": "Journal abbreviation (ESummary Source)."},
            "fullJournalName": {"type": "string", "description": "Full journal name."},
            "pubDate": {"type": "string", "description": "Publication date as ISO at PubMed's precision: 2017-08-15, 1968-08 or 2012."},
            "pubDateText": {"type": "string", "description": "Publication date as PubMed writes it (e.g. 2012 Winter)."},
            "doi": {"type": "string", "description": "DOI, when the record has one."},
            "pmcid": {"type": "string", "description": "PMC ID (free full text in PubMed Central), when the article is in PMC."},
            "pubTypes": {"type": "array", "items": {"type": "string"}, "description": "Publication types, e.g. Journal Article, Review."},
            "retracted": {"type": "boolean", "description": "True when the article has been retracted (publication type Retracted Publication): do not rely on it."},
            "retractionNotice": {"type": "boolean", "description": "True when this record is itself a retraction notice (Retraction of Publication)."},
            "pubmedUrl": {"type": "string", "description": "The record on the PubMed website."}
        },
        "required": ["pmid", "title"]
    })
}

/// The description paragraph listing the error reasons a tool returns.
pub fn errors_paragraph(reasons: &[(&str, &str)]) -> String {
    let list = reasons
        .iter()
        .map(|(r, when)| format!("`{r}` ({when})"))
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "Errors come back as results with isError true and structuredContent.error = {{code, message, data: {{reason, retryable, field, retryAfter, recovery.hint}}}}: {list}. When retryable is false, change the arguments; when true, call again later (after retryAfter seconds when given)."
    )
}

/// The upstream reasons every tool can return.
pub const UPSTREAM_REASONS: &[(&str, &str)] = &[
    (
        "queue_full",
        "too many calls waiting on this server; retryable",
    ),
    ("ncbi_rate_limited", "NCBI answered HTTP 429; retryable"),
    (
        "ncbi_unreachable",
        "NCBI did not answer usefully after retries; retryable",
    ),
    (
        "ncbi_deadline_exceeded",
        "the call's deadline passed; retryable",
    ),
    (
        "ncbi_invalid_response",
        "NCBI's answer could not be read; retryable",
    ),
    (
        "invalid_api_key",
        "NCBI rejected this server's API key; not retryable, the server's operator must fix it",
    ),
];
