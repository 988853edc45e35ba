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
use crate::error::{Error, Reason};
use crate::ncbi::Client;

pub mod cite;
pub mod citmatch;
pub mod convert;
pub mod fetch;
pub mod mesh;
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
    /// What the tool is for, in a few words after its name: one clause of
    /// the server's instructions ([`instructions`]).
    pub summary: &'static str,
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
            mesh::spec(),
            citmatch::spec(),
        ]
    })
}

/// The tool names, in [`specs`] order, comma-separated: for help texts.
pub fn names() -> String {
    specs()
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The server's instructions (MCP `initialize`): one clause per tool of
/// [`specs`], its name and [`ToolSpec::summary`].
pub fn instructions() -> String {
    let clauses: Vec<String> = specs()
        .iter()
        .map(|s| format!("{} {}", s.name, s.summary))
        .collect();
    format!(
        "PubMed literature tools on NCBI E-utilities: {}.",
        clauses.join("; ")
    )
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
        mesh::NAME => mesh::run(spec, client, v).await,
        citmatch::NAME => citmatch::run(spec, client, v).await,
        _ => Failure::from_error(&Error::new(Reason::InvalidArgument, "unknown tool"), &[])
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

/// The description paragraph listing the error reasons a tool returns:
/// `own` (each reason with when the tool returns it), then
/// [`UPSTREAM_REASONS`], which every tool can return.
pub fn errors_paragraph(own: &[(Reason, &str)]) -> String {
    let list = own
        .iter()
        .chain(UPSTREAM_REASONS)
        .map(|(r, when)| format!("`{r}` ({when})"))
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "Errors come back as results with isError true and structuredContent.error = {{code, message, data: {{reason, retryable, field, retryAfter, recovery.hint}}}}: {list}. When retryable is false, change the arguments; when true, call again later (after retryAfter seconds when given)."
    )
}

/// The upstream reasons every tool can return.
pub const UPSTREAM_REASONS: &[(Reason, &str)] = &[
    (
        Reason::QueueFull,
        "too many calls waiting on this server; retryable",
    ),
    (Reason::NcbiRateLimited, "NCBI answered HTTP 429; retryable"),
    (
        Reason::NcbiUnreachable,
        "NCBI did not answer usefully after retries; retryable",
    ),
    (
        Reason::NcbiDeadlineExceeded,
        "the call's deadline passed; retryable",
    ),
    (
        Reason::NcbiInvalidResponse,
        "NCBI's answer could not be read; retryable",
    ),
    (
        Reason::InvalidApiKey,
        "NCBI rejected this server's API key; not retryable, the server's operator must fix it",
    ),
    (
        Reason::Internal,
        "the server failed in a way that is neither NCBI's nor the arguments'; not retryable",
    ),
];
