//! The MCP tools. Each tool is one module with a [`ToolSpec`] (name,
//! description, arguments as [`Arg`]s, output schema) and one adapter
//! function from checked arguments to a result; everything else — the input
//! schema, the allow-list, argument checks, error results in MCP terms —
//! comes from the spec. Adding a tool is adding a module (a file of this
//! directory) and one line to [`specs`] (docs/mcp.md "Adding a tool").

use std::sync::{Arc, OnceLock};

use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use super::reply::{Failure, or_error};
use super::schema::{Arg, Values, object_schema, read};
use crate::error::{Error, Reason};
use crate::ncbi::Client;

// One module per tool, each file of this directory.
automod::dir!(pub "src/mcp/tools");

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
    /// Example arguments, at least one set: each a call that succeeds on
    /// the tests' fake NCBI (`tests/support/fake_ncbi/mod.rs`, its captures
    /// and corpus: `hits300` is a query of 300 hits there), which
    /// `tests/mcp.rs` makes and checks against [`output`](Self::output).
    /// A function, so that the values are built only when asked for.
    pub examples: fn() -> Vec<Value>,
    /// The adapter: checked arguments in, the result out, progress to the
    /// [`Reporter`] for the tools that run in steps or chunks.
    pub run: Run,
}

/// A tool's adapter, its `async fn run` boxed (`|s, c, v, r|
/// Box::pin(run(s, c, v, r))`), so that [`call`] needs no list of tools.
pub type Run = for<'a> fn(
    &'a ToolSpec,
    &'a Client,
    &'a Values,
    &'a Reporter,
) -> futures::future::BoxFuture<'a, CallToolResult>;

impl ToolSpec {
    /// The MCP `Tool`: input schema from the arguments, output schema that
    /// also admits the error shape, read-only and open-world annotations.
    ///
    /// The listed output schema is the validating one (types, required
    /// members, enums) without descriptions: what each field means is in
    /// the resource [`output_uri`] (docs/mcp.md "Limits", issue 27: the
    /// list stays under half its former size and loses no rule).
    pub fn tool(&self) -> Tool {
        Tool::new(
            self.name,
            self.description.clone(),
            object(object_schema(&self.args)),
        )
        .with_title(self.title)
        .with_raw_output_schema(object(listed_output(&self.output)))
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(true))
    }

    /// The `isError` result for an operation's error, in this tool's terms.
    pub fn failure(&self, e: &Error) -> CallToolResult {
        Failure::from_error(e, &self.args).result(None)
    }
}

/// The output schema as listed: [`undescribed`], and the error member
/// only as an object with its three required members (its shape is in
/// the instructions, [`ERROR_RULES`]).
fn listed_output(output: &Value) -> Value {
    let mut s = undescribed(or_error(output.clone()));
    s["properties"]["error"] = json!({"type": "object", "required": ["code", "message", "data"]});
    s
}

/// The resource holding the described output schema of tool `name`.
pub fn output_uri(name: &str) -> String {
    format!("pubmed://tools/{name}/output-schema")
}

/// `schema` without its `description` members (property names stay).
pub fn undescribed(schema: Value) -> Value {
    match schema {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .filter(|(k, v)| !(k == "description" && v.is_string()))
                .map(|(k, v)| {
                    if k == "properties" {
                        // property names may be "description": keep them
                        let props = match v {
                            Value::Object(p) => Value::Object(
                                p.into_iter().map(|(n, s)| (n, undescribed(s))).collect(),
                            ),
                            other => other,
                        };
                        (k, props)
                    } else {
                        (k, undescribed(v))
                    }
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(undescribed).collect()),
        other => other,
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
            fulltext::spec(),
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
    let upstream = UPSTREAM_REASONS
        .iter()
        .map(|(r, when)| format!("`{r}` ({when})"))
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "PubMed literature tools on NCBI E-utilities: {}.\n\n{ERROR_RULES} Besides the reasons each tool's description lists, every tool can return: {upstream}.\n\nWhat each output field means: the resource pubmed://tools/<tool name>/output-schema (resources/read); PubMed's field tags and this server's limits: pubmed://database/info.",
        clauses.join("; ")
    )
}

/// How every tool reports a failure: stated once, in the instructions.
pub const ERROR_RULES: &str = "Errors come back as results with isError true and structuredContent.error = {code, message, data: {reason, retryable, field, retryAfter, recovery.hint}}: code is JSON-RPC-style (-32007 input, -32602 invalid argument, -32003 rate or queue, -32000 NCBI unreachable, -32004 deadline, -32070 invalid NCBI answer, -32001 not found, -32005 API key rejected), message names the argument concerned, field is its path (e.g. dateRange.minDate). When retryable is false, change the arguments; when true, call again later (after retryAfter seconds when given).";

/// The resources: each tool's described output schema, then
/// [`crate::mcp::info`]'s database info.
pub fn resources() -> Vec<rmcp::model::Resource> {
    specs()
        .iter()
        .map(|s| {
            rmcp::model::Resource::new(output_uri(s.name), format!("{} output schema", s.name))
                .with_description(format!(
                    "The JSON Schema of {}'s structuredContent, with what each field means.",
                    s.name
                ))
                .with_mime_type("application/schema+json")
        })
        .chain(std::iter::once(crate::mcp::info::resource()))
        .collect()
}

/// The text of the resource at `uri`, if there is one.
pub fn resource(uri: &str) -> Option<String> {
    if uri == crate::mcp::info::URI {
        return Some(crate::mcp::info::text());
    }
    let spec = specs().iter().find(|s| output_uri(s.name) == uri)?;
    serde_json::to_string_pretty(&or_error(spec.output.clone())).ok()
}

/// The tools as MCP lists them.
pub fn tools() -> Vec<Tool> {
    specs().iter().map(ToolSpec::tool).collect()
}

/// Runs tool `name` with `arguments`; `None` when there is no such tool.
/// Arguments are checked against the spec first: a wrong one is an
/// `isError` result naming it, and nothing is sent to NCBI.
///
/// `report` receives the progress of tools that run in steps or chunks
/// (search, fetch, related, cite, fulltext, lookup_citation),
/// for MCP `notifications/progress`.
pub async fn call(
    client: &Client,
    name: &str,
    arguments: &JsonObject,
    report: &Reporter,
) -> Option<CallToolResult> {
    let spec = specs().iter().find(|s| s.name == name)?;
    let values = match read(&spec.args, arguments, spec.name) {
        Ok(v) => v,
        Err(e) => return Some(Failure::from_arg(&e).result(None)),
    };
    Some((spec.run)(spec, client, &values, report).await)
}

/// Where a call's progress goes (`done`, `total` records so far).
pub type Reporter = dyn Fn(crate::ops::batch::Progress) + Send + Sync;

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

/// The description paragraph listing the error reasons a tool returns
/// besides [`UPSTREAM_REASONS`] (`own`, each with when the tool returns
/// it); the error shape and the shared reasons are in [`instructions`].
pub fn errors_paragraph(own: &[(Reason, &str)]) -> String {
    // A shared reason a tool names too is said once, in the instructions.
    let list = own
        .iter()
        .filter(|(r, _)| !UPSTREAM_REASONS.iter().any(|(u, _)| u == r))
        .map(|(r, when)| format!("`{r}` ({when})"))
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "Errors (isError, structuredContent.error.data.reason; shape and shared reasons in the server instructions): {list}."
    )
}

/// The upstream reasons every tool can return (listed once, in
/// [`instructions`]).
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
