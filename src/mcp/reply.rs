//! How answers speak MCP: the `isError` result shape, messages that name
//! MCP arguments and tools instead of CLI flags and commands, and recovery
//! hints an agent can act on (docs/mcp.md "Errors"). The operations name
//! the input an error is about ([`Field`]); the tool's argument list
//! ([`Arg`]) gives its MCP spelling.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value, json};

use super::schema::{Arg, ArgError, path_of};
use crate::core::text::thousands;
use crate::error::{Error, Field, Reason, Term, Words};
use crate::ncbi::limits::{ESEARCH_MAX_RETSTART, ESEARCH_WINDOW};

/// The search tool's name (hints point agents at it).
pub const SEARCH_TOOL: &str = "pubmed_search_articles";
/// The spell tool's name.
pub const SPELL_TOOL: &str = "pubmed_spell_check";

/// A failed call as MCP reports it: `structuredContent.error = {code,
/// message, data: {reason, retryable, field?, retryAfter?, recovery:
/// {hint}}}`, and the same JSON as the text block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The machine-readable reason.
    pub reason: Reason,
    /// The message, in MCP terms.
    pub message: String,
    /// The argument it is about (`dateRange.minDate`), when known.
    pub field: Option<String>,
    /// What the agent can do.
    pub hint: String,
    /// Seconds to wait before calling again, when known.
    pub retry_after: Option<u64>,
}

/// `term` in MCP terms, for a tool taking `args`.
fn spell_term(term: &Term, cli: impl FnOnce() -> String, args: &[Arg]) -> String {
    match term {
        Term::Field(f) => path_of(args, *f).map_or_else(cli, |p| format!("`{p}`")),
        Term::Search(q) => format!("{SEARCH_TOOL} with query {q:?}"),
    }
}

/// `words` rendered for a tool taking `args`.
pub fn render(words: &Words, args: &[Arg]) -> String {
    words.render(|t| {
        spell_term(
            t,
            || match t {
                Term::Field(f) => format!("{f:?}"),
                Term::Search(q) => q.clone(),
            },
            args,
        )
    })
}

/// An error's message in MCP terms.
pub fn message(e: &Error, args: &[Arg]) -> String {
    e.words
        .as_ref()
        .map_or_else(|| e.message.clone(), |w| render(w, args))
}

/// The hint for an operation's error, in MCP terms. `field` is the
/// argument's path when known.
pub fn hint(reason: Reason, field: Option<Field>, path: Option<&str>) -> String {
    let arg = path.map_or_else(|| "the argument".to_string(), |p| format!("`{p}`"));
    match reason {
        Reason::BlankQuery => format!(
            "give `query` at least one search term; for {SEARCH_TOOL}, `query` \"\" with a filter (author, journal, meshTerms, publicationTypes, language, species, hasAbstract, freeFullText, dateRange, reldate) searches the filters alone"
        ),
        Reason::BlankFilter => format!("give {arg} a term, or leave it out"),
        Reason::InvalidDateRange => "write `dateRange.minDate` and `dateRange.maxDate` as YYYY, YYYY/MM or YYYY/MM/DD (real calendar dates, the start on or before the end); `reldate` N means the last N days and must overlap `dateRange`".into(),
        Reason::MalformedId => match path {
            None | Some("ids") => "give each element of `ids` as one ID of `idType`, with no comma or whitespace: a PMID is digits (23193287), a PMCID is PMC followed by digits (PMC3531190), a DOI is 10.<registrant>/<suffix> (10.1093/nar/gks1195)".into(),
            // the tools that take PMIDs only (`pmid`, `pmids`)
            Some(_) => format!("give {arg} as PMIDs: digits (23193287; leading zeros allowed, never 0), one per element, with no comma or whitespace; turn a PMCID or DOI into a PMID first with pubmed_convert_ids"),
        },
        Reason::InvalidArgument => match field {
            Some(Field::Retstart) => format!(
                "PubMed serves only the first {} records of a query: keep `offset` at most {ESEARCH_MAX_RETSTART}, and narrow the query (e.g. with `dateRange` or `reldate`) to reach later records",
                thousands(ESEARCH_WINDOW)
            ),
            Some(Field::Retmax) => "ask for fewer records with `maxResults`, and page with `offset`".into(),
            Some(Field::SearchField) => "give `field` a PubMed field tag such as ti, tiab, au, mh, pt, ta or dp (or its long name, e.g. title)".into(),
            Some(Field::Query) => "shorten `query`".into(),
            Some(Field::Style) => format!(
                "give `style` a bundled style name: {}, or another bundled CSL style name such as the-lancet",
                crate::ops::cite::SHORT_NAMES.map(|(n, _)| n).join(", ")
            ),
            _ => format!("correct {arg} as the message says; the tool's inputSchema lists every argument with its type and limits"),
        },
        Reason::QueueFull => "this server has too many NCBI requests waiting; call again after `retryAfter` seconds".into(),
        Reason::NcbiRateLimited => "NCBI is limiting this server's request rate; call again after `retryAfter` seconds (the server's operator can set NCBI_API_KEY to raise NCBI's limit from 3 to 10 requests/s)".into(),
        Reason::NcbiUnreachable => "NCBI did not answer usefully; call again in a minute (NCBI's status: https://status.ncbi.nlm.nih.gov)".into(),
        Reason::NcbiDeadlineExceeded => "NCBI is slow right now; call again later, or ask for less (a smaller `maxResults`, or `detail` \"ids\")".into(),
        Reason::NcbiInvalidResponse => "NCBI sent a body that is not what E-utilities document; call again later".into(),
        Reason::NcbiResourceNotFound => "check the ID; it may not exist in this database".into(),
        Reason::InvalidApiKey => "NCBI rejected this server's API key: calling again fails the same way; the server's operator must correct or remove the key (NCBI_API_KEY, or api_key in the configuration file)".into(),
        // MCP tools write no files: only a CLI `--output` meets it
        Reason::OutputLocked => "another run holds the output file; call again when it has ended".into(),
        Reason::OutputFailed => "the output could not be written".into(),
        Reason::Internal => "the server failed in a way that is neither NCBI's nor the arguments'; call again, and tell the server's operator if it persists".into(),
    }
}

impl Failure {
    /// The MCP view of an operation's error for a tool taking `args`.
    pub fn from_error(e: &Error, args: &[Arg]) -> Failure {
        let path = e.field.and_then(|f| path_of(args, f));
        Failure {
            reason: e.reason,
            message: message(e, args),
            hint: hint(e.reason, e.field, path.as_deref()),
            field: path,
            retry_after: e.retry_after,
        }
    }

    /// The MCP view of an argument the client must correct.
    pub fn from_arg(e: &ArgError) -> Failure {
        Failure {
            reason: Reason::InvalidArgument,
            message: e.message.clone(),
            hint: format!(
                "correct `{}` as the message says; the tool's inputSchema lists every argument with its type and limits",
                e.path
            ),
            field: Some(e.path.clone()),
            retry_after: None,
        }
    }

    /// `{"error": {code, message, data}}`.
    pub fn to_json(&self) -> Value {
        let mut data = json!({
            "reason": self.reason.as_str(),
            "retryable": self.reason.retryable(),
            "recovery": {"hint": self.hint},
        });
        if let Some(f) = &self.field {
            data["field"] = f.clone().into();
        }
        if let Some(s) = self.retry_after {
            data["retryAfter"] = s.into();
        }
        json!({"error": {"code": self.reason.mcp_code(), "message": self.message, "data": data}})
    }

    /// The `isError` result; `partial` adds what the call did produce
    /// (e.g. the records of a convert whose upstream failed) beside `error`.
    pub fn result(&self, partial: Option<Map<String, Value>>) -> CallToolResult {
        let mut body = self.to_json();
        if let (Value::Object(m), Some(extra)) = (&mut body, partial) {
            for (k, v) in extra {
                m.entry(k).or_insert(v);
            }
        }
        let body = strip_nulls(body);
        let mut r = CallToolResult::error(vec![ContentBlock::text(body.to_string())]);
        r.structured_content = Some(body);
        r
    }
}

/// The schema of the `error` member that failed calls carry (and that
/// output schemas admit).
pub fn error_schema() -> Value {
    json!({
        "type": "object",
        "description": "Present only when the call failed (isError): what went wrong and what to do.",
        "properties": {
            "code": {"type": "integer", "description": "JSON-RPC-style error code of the reason (-32007 input, -32602 invalid argument, -32003 rate or queue, -32000 NCBI unreachable, -32004 deadline, -32070 invalid NCBI answer, -32001 not found, -32005 API key rejected)."},
            "message": {"type": "string", "description": "What went wrong, naming the argument concerned."},
            "data": {
                "type": "object",
                "description": "Machine-readable details of the failure.",
                "properties": {
                    "reason": {"type": "string", "description": "Machine-readable reason, e.g. invalid_argument, blank_query, ncbi_unreachable."},
                    "retryable": {"type": "boolean", "description": "True when the same call may succeed later (upstream trouble); false when the arguments must change."},
                    "field": {"type": "string", "description": "The argument concerned, as a path (e.g. dateRange.minDate), when there is one."},
                    "retryAfter": {"type": "integer", "description": "Seconds to wait before calling again, when known."},
                    "recovery": {"type": "object", "description": "How to recover.", "properties": {"hint": {"type": "string", "description": "What to do next."}}}
                },
                "required": ["reason", "retryable"]
            }
        },
        "required": ["code", "message", "data"]
    })
}

/// An output schema that also admits the `isError` result: clients that
/// validate `structuredContent` of failed calls too then accept it. The
/// root stays a plain object; the success fields are required only in the
/// success branch.
pub fn or_error(mut schema: Value) -> Value {
    let required = schema
        .as_object_mut()
        .and_then(|m| m.remove("required"))
        .unwrap_or_else(|| json!([]));
    schema["properties"]["error"] = error_schema();
    schema["anyOf"] = json!([{"required": required}, {"required": ["error"]}]);
    schema
}

/// Drops `null` members so outputs match their schemas (absent = unknown).
pub fn strip_nulls(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(strip_nulls).collect()),
        other => other,
    }
}

/// A successful result: `structured` (nulls dropped, except those listed
/// in `keep_null` at the top level) and a short markdown text.
pub fn success(structured: Value, text: String, keep_null: &[&str]) -> CallToolResult {
    let mut clean = strip_nulls(structured.clone());
    if let (Value::Object(m), Value::Object(orig)) = (&mut clean, &structured) {
        for k in keep_null {
            if orig.get(*k).is_some_and(Value::is_null) {
                m.insert((*k).to_string(), Value::Null);
            }
        }
    }
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(clean);
    r
}

/// The response budget argument's name (docs/mcp.md "Response budget").
pub const BUDGET_ARG: &str = "maxResponseCharacters";
/// The budget when none is given: characters of text plus
/// `structuredContent` (compact JSON).
pub const DEFAULT_BUDGET: u64 = 40_000;
/// The smallest and largest budget a call may set.
pub const BUDGET_RANGE: (u64, u64) = (2_000, 1_000_000);

/// The budget argument every tool returning many records takes.
pub fn budget_arg() -> Arg {
    Arg::integer(
        BUDGET_ARG,
        BUDGET_RANGE.0,
        BUDGET_RANGE.1,
        Some(DEFAULT_BUDGET),
        "Cap in characters; the rest is `deferred`.",
    )
}

/// An answer's size as the budget counts it: characters of `text` plus
/// those of `structured` as compact JSON (nulls dropped).
pub fn answer_chars(structured: &Value, text: &str) -> usize {
    text.chars().count() + strip_nulls(structured.clone()).to_string().chars().count()
}

/// The answer with the most of `n` records (at least one) that fits in
/// `budget` characters: `render(k)` builds the answer holding the first
/// `k` records and deferring the rest. With `n` 0, `render(0)`.
pub fn fit(n: usize, budget: usize, render: impl Fn(usize) -> (Value, String)) -> (Value, String) {
    let size = |a: &(Value, String)| answer_chars(&a.0, &a.1);
    let all = render(n);
    if n <= 1 || size(&all) <= budget {
        return all;
    }
    // largest k in 1..n that fits, by bisection (k = 1 always comes)
    let (mut lo, mut hi) = (1, n);
    let mut best = render(1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let a = render(mid);
        if size(&a) <= budget {
            lo = mid;
            best = a;
        } else {
            hi = mid;
        }
    }
    best
}

/// The budget part of an answer deferring `deferred` records: the members
/// `deferred` and `continueWith` (the arguments that change in the call
/// returning them), and the text paragraph saying how many and how to
/// continue (the IDs appear there only inside `continueWith`).
pub fn deferral(
    tool: &str,
    budget: u64,
    held: usize,
    deferred: &[String],
    continue_with: Value,
) -> (Map<String, Value>, String) {
    deferral_of("PMIDs", tool, budget, held, deferred, continue_with)
}

/// [`deferral`] for deferred inputs that are `noun` ("IDs") rather than
/// PMIDs.
pub fn deferral_of(
    noun: &str,
    tool: &str,
    budget: u64,
    held: usize,
    deferred: &[String],
    continue_with: Value,
) -> (Map<String, Value>, String) {
    let mut m = Map::new();
    if deferred.is_empty() {
        return (m, String::new());
    }
    m.insert("deferred".into(), deferred.into());
    m.insert("continueWith".into(), continue_with.clone());
    // The list once in the text: in the continuation when it carries the
    // IDs (fetch, cite, convert), else not at all (search and related
    // continue by offset; structuredContent `deferred` lists them).
    let text = format!(
        "\n\n**Budget:** this answer holds {held} of {} records ({BUDGET_ARG} {budget}); the {} deferred {noun} are listed in structuredContent `deferred`. To get them, call {tool} again with {} (other arguments unchanged).",
        held + deferred.len(),
        deferred.len(),
        continue_with
    );
    (m, text)
}

/// The budget part of an answer of a tool that continues by `offset`
/// (`pubmed_lookup_mesh`, `pubmed_lookup_citation`): the answer holds
/// `held` records from `offset` on and defers `deferred` (their UIs or
/// inputs). `deferred` is listed once, in structuredContent; the text
/// says how many and how to continue, and `continueWith` is
/// `{"offset": offset + held}`, never the list again.
pub fn deferral_at(
    noun: &str,
    tool: &str,
    budget: u64,
    offset: usize,
    held: usize,
    deferred: &[String],
) -> (Map<String, Value>, String) {
    let mut m = Map::new();
    if deferred.is_empty() {
        return (m, String::new());
    }
    let next = json!({"offset": offset + held});
    m.insert("deferred".into(), deferred.into());
    m.insert("continueWith".into(), next.clone());
    let text = format!(
        "\n\n**Budget:** this answer holds {held} of {} records from offset {offset} ({BUDGET_ARG} {budget}); the {} deferred {noun} are listed in structuredContent `deferred`. To get them, call {tool} again with {next} (other arguments unchanged).",
        held + deferred.len(),
        deferred.len()
    );
    (m, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::choice::Choice;

    fn args() -> Vec<Arg> {
        vec![
            Arg::integer("offset", 0, 9998, Some(0), "o").fills(Field::Retstart),
            Arg::object(
                "dateRange",
                vec![Arg::text("minDate", "m").fills(Field::MinDate)],
                "d",
            ),
        ]
    }

    #[test]
    fn messages_name_mcp_arguments_and_drop_cli_advice() {
        let e = Error::about(
            Reason::InvalidArgument,
            Field::Retstart,
            Words::new()
                .field(Field::Retstart, "retstart")
                .text(" 9999 is past the limit (")
                .field(Field::Retstart, "retstart")
                .text(" ≤ 9998)")
                .cli_only("; or use --all"),
        );
        assert_eq!(
            e.message,
            "retstart 9999 is past the limit (retstart ≤ 9998); or use --all"
        );
        let f = Failure::from_error(&e, &args());
        assert_eq!(
            f.message,
            "`offset` 9999 is past the limit (`offset` ≤ 9998)"
        );
        assert_eq!(f.field.as_deref(), Some("offset"));
        assert!(f.hint.contains("`offset` at most 9998"), "{}", f.hint);
        let e = Error::about(
            Reason::InvalidDateRange,
            Field::MinDate,
            Words::new()
                .field(Field::MinDate, "mindate")
                .text(" \"2023/02/29\": x"),
        );
        let f = Failure::from_error(&e, &args());
        assert_eq!(f.message, "`dateRange.minDate` \"2023/02/29\": x");
        assert_eq!(f.field.as_deref(), Some("dateRange.minDate"));
        let w = Words::new()
            .text("not in PMC; try ")
            .term(Term::Search("1[pmid]".into()), "pubmed search '1[pmid]'");
        assert_eq!(
            render(&w, &args()),
            "not in PMC; try pubmed_search_articles with query \"1[pmid]\""
        );
    }

    #[test]
    fn no_hint_names_a_cli_flag_or_command() {
        for &r in Reason::ALL {
            let h = hint(r, None, None);
            assert!(!h.contains("--") && !h.contains("pubmed "), "{r}: {h}");
        }
    }

    #[test]
    fn failure_shape() {
        let e = Error::new(Reason::BlankQuery, "blank").with_retry_after(2);
        let r = Failure::from_error(&e, &[]).result(None);
        assert_eq!(r.is_error, Some(true));
        let s = r.structured_content.unwrap();
        assert_eq!(s["error"]["code"], -32007);
        assert_eq!(s["error"]["data"]["reason"], "blank_query");
        assert_eq!(s["error"]["data"]["retryable"], false);
        assert_eq!(s["error"]["data"]["retryAfter"], 2);
        assert!(s["error"]["data"]["recovery"]["hint"].is_string());
        assert_eq!(r.content[0].as_text().unwrap().text, s.to_string());
    }
}
