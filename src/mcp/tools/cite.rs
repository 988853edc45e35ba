//! `pubmed_format_citations`: the citation exports (`pubmed fetch -f
//! ris|bibtex|csl-json`) and formatted references (`pubmed cite -f text`)
//! as one MCP tool (docs/cite.md, docs/mcp.md). `document` is byte for
//! byte what the CLI writes for the same PMIDs. A call whose upstream
//! failed is an `isError` result by the CLI's exit rule, with the entries
//! that were made beside it; a PMID PubMed does not have keeps an error
//! entry in its place.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};

use super::{ToolSpec, errors_paragraph};
use crate::core::choice::Choice;
use crate::error::{Error, Field, Reason};
use crate::mcp::reply::{BUDGET_ARG, DEFAULT_BUDGET, Failure, budget_arg, deferral, fit, success};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::cite::{self, CiteStyle, Cited};
use crate::ops::fetch::{self, FetchOptions, Fetched};
use crate::output::citation::{BibOptions, CitationWriter, Export};
use crate::output::cite::CiteWriter;
use crate::output::cite::{CiteFormat, ToolCiteFormat};

/// The tool name.
pub const NAME: &str = "pubmed_format_citations";
/// Most PMIDs per call.
pub const MAX_PMIDS: usize = 50;

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Format 1–{MAX_PMIDS} PubMed records as citations: RIS, BibTeX or CSL-JSON for reference managers and LaTeX, or references formatted in a citation style (APA, Vancouver, AMA or another bundled CSL style). One citation per PMID, in input order, numbered by position for numeric styles. A retracted article is marked in every format (a note, or a RETRACTED: prefix in text); check retracted before citing. `document` holds the whole file ready to save; a PMID PubMed does not have gets an error entry in its place and is listed in notFound; a record the style cannot format gets an error entry with reason citation_failed. If NCBI fails for part of the call, the result is an error carrying the entries made.\n\n{}",
        errors_paragraph(&[
            (
                Reason::MalformedId,
                "an element of pmids is not digits, or is 0; nothing is fetched",
            ),
            (
                Reason::InvalidArgument,
                "pmids is not a list of 1–50 PMIDs, format is missing or not one of ris, bibtex, csl-json, text, or style is not a bundled style name",
            ),
        ])
    );
    let formats: Vec<&'static str> = ToolCiteFormat::ALL.iter().map(|f| f.as_str()).collect();
    ToolSpec {
        name: NAME,
        title: "Format citations",
        summary: "turns PMIDs into citations (RIS, BibTeX, CSL-JSON, or references in APA, Vancouver, AMA or another CSL style)",
        description,
        args: vec![
            Arg::ids(
                "pmids",
                1,
                MAX_PMIDS,
                format!("1–{MAX_PMIDS} PMIDs (digits, as strings or whole numbers; leading zeros allowed, never 0), one per element; one citation each, in order."),
            )
            .required()
            .fills(Field::Ids),
            Arg::choice(
                "format",
                &formats,
                None,
                "ris (EndNote, Zotero), bibtex (LaTeX; keys pmid12091962), csl-json (Zotero, pandoc), or text (references in `style`, one per line).",
            )
            .required(),
            Arg::text(
                "style",
                format!("For format text: a citation style — {}, or any other bundled CSL style name such as the-lancet or american-chemical-society. Default {}. Ignored by the other formats.", cite::SHORT_NAMES.map(|(n, _)| n).join(", "), cite::DEFAULT_STYLE),
            )
            .fills(Field::Style),
            budget_arg(),
        ],
        output: output_schema(),
        examples,
        run: |s, c, v, r| Box::pin(run(s, c, v, r)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![
        json!({"pmids": ["9700097"], "format": "text"}),
        json!({"pmids": ["9700097"], "format": "ris"}),
    ]
}

fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "format": {"type": "string", "description": "The format written: ris, bibtex, csl-json or text."},
            "style": {"type": "string", "description": "The style's title (format text only)."},
            "citations": {"type": "array", "description": "One entry per element of pmids, in order: the n-th is the n-th entry of document (its n-th line for format text); the citation itself is only in document.", "items": {
                "type": "object",
                "properties": {
                    "pmid": {"type": "string", "description": "The PMID (NCBI's form, leading zeros dropped)."},
                    "retracted": {"type": "boolean", "description": "True when the article has been retracted: do not cite it as valid."},
                    "retractionNotice": {"type": "boolean", "description": "True when the record is itself a retraction notice."},
                    "error": {"type": "object", "description": "Why there is no citation.", "properties": {
                        "reason": {"type": "string", "description": "not_found (PubMed has no record; do not retry), citation_failed (the style could not format the record), or a failed request's reason."},
                        "message": {"type": "string", "description": "What happened, for people."}
                    }, "required": ["reason", "message"]}
                },
                "required": ["pmid"]
            }},
            "document": {"type": "string", "description": "Every entry joined into one file: RIS, BibTeX, a CSL-JSON array, or one reference per line — what the CLI writes."},
            "notFound": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "PMIDs PubMed has no record for."},
            "deferred": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "PMIDs left for another call because the answer reached maxResponseCharacters (absent when all came)."},
            "continueWith": {"type": "object", "properties": {"pmids": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "pmids of the next call."}}, "description": "The arguments that change in the call returning the deferred PMIDs (pmids = deferred); the others stay as given."}
        },
        "required": ["format", "citations", "document", "notFound"]
    })
}

fn entry_error(pmid: &str, reason: &str, message: &str) -> Value {
    json!({"pmid": pmid, "error": {"reason": reason, "message": message}})
}

/// What a call made: one citation per PMID, and the document of the first
/// `k` ([`Made::document`]).
struct Made<'a> {
    format: ToolCiteFormat,
    style: Option<String>,
    pmids: &'a [String],
    citations: Vec<Value>,
    document: Box<dyn Fn(usize) -> String + Send + Sync + 'a>,
}

impl Made<'_> {
    /// The fields holding the first `k` citations; `notFound` among them.
    fn fields(&self, k: usize) -> Map<String, Value> {
        let held = &self.citations[..k];
        let nf: Vec<Value> = held
            .iter()
            .filter(|c| c["error"]["reason"] == NOT_FOUND)
            .map(|c| c["pmid"].clone())
            .collect();
        let mut m = Map::new();
        m.insert("format".into(), self.format.as_str().into());
        if let Some(s) = &self.style {
            m.insert("style".into(), s.clone().into());
        }
        m.insert("citations".into(), held.to_vec().into());
        m.insert("document".into(), (self.document)(k).into());
        m.insert("notFound".into(), nf.into());
        m
    }
}

/// `error.reason` of a PMID PubMed has no record for.
const NOT_FOUND: &str = "not_found";

/// The result: the citations that fit in the budget as a success, the
/// others deferred (docs/mcp.md "Response budget"); or the first upstream
/// failure with every citation made beside it (the CLI exits non-zero for
/// the same input).
fn finish(spec: &ToolSpec, failure: Option<&Error>, made: Made<'_>, budget: u64) -> CallToolResult {
    let n = made.citations.len();
    if let Some(e) = failure {
        return Failure::from_error(e, &spec.args).result(Some(made.fields(n)));
    }
    let (out, text) = fit(n, budget as usize, |k| {
        let mut out = made.fields(k);
        let deferred = made.pmids[k.min(made.pmids.len())..].to_vec();
        let (extra, note) = deferral(NAME, budget, k, &deferred, json!({"pmids": deferred}));
        let text = format!("{}{note}", out["document"].as_str().unwrap_or_default());
        out.extend(extra);
        (Value::Object(out), text)
    });
    success(out, text, &[])
}

/// One line of `cite -f text` output for `c`, as the CLI writes it.
fn text_entry(c: &Cited) -> String {
    let mut buf = Vec::new();
    let _ = CiteWriter::begin(&mut buf, CiteFormat::Text).entry(c);
    String::from_utf8_lossy(&buf)
        .trim_end_matches('\n')
        .to_string()
}

/// Formatted references (`pubmed cite -f text --style …`).
async fn references(
    spec: &ToolSpec,
    client: &Client,
    pmids: &[String],
    style: &str,
    budget: u64,
    report: &super::Reporter,
) -> CallToolResult {
    let style = match CiteStyle::bundled(style) {
        Ok(s) => s,
        Err(e) => return spec.failure(&e),
    };
    let (cited, totals) = match cite::cite_pmids_reporting(client, pmids, &style, report).await {
        Ok(r) => r,
        Err(e) => return spec.failure(&e),
    };
    let lines: Vec<String> = cited.iter().map(text_entry).collect();
    let citations: Vec<Value> = cited
        .iter()
        .map(|c| match &c.outcome {
            Ok(r) => entry(&c.pmid, r.retracted, r.retraction_notice),
            Err(e) => entry_error(&c.pmid, e.reason.as_str(), &e.message),
        })
        .collect();
    let made = Made {
        format: ToolCiteFormat::Text,
        style: Some(style.title.clone()),
        pmids,
        citations,
        document: Box::new(move |k| lines[..k].iter().map(|l| format!("{l}\n")).collect()),
    };
    finish(spec, totals.failure(), made, budget)
}

/// Reference-manager exports (`pubmed fetch -f ris|bibtex|csl-json`).
async fn export(
    spec: &ToolSpec,
    client: &Client,
    pmids: &[String],
    format: ToolCiteFormat,
    export: Export,
    budget: u64,
    report: &super::Reporter,
) -> CallToolResult {
    let fetched = fetch::fetch_pmids_reporting(client, pmids, FetchOptions::default(), report);
    let (records, totals) = match fetched.await {
        Ok(r) => r,
        Err(e) => return spec.failure(&e),
    };
    let mut writer = CitationWriter::new(export, BibOptions::default());
    let mut entries = Vec::with_capacity(records.len());
    let mut citations = Vec::with_capacity(records.len());
    for f in &records {
        let entry = match writer.entry(f) {
            Ok(e) => e,
            Err(e) => {
                let e = Error::new(
                    Reason::NcbiInvalidResponse,
                    format!(
                        "PMID {}: the {format} entry could not be written: {e}",
                        f.pmid
                    ),
                );
                return spec.failure(&e);
            }
        };
        citations.push(export_entry(f));
        entries.push(entry);
    }
    let made = Made {
        format,
        style: None,
        pmids,
        citations,
        document: Box::new(move |k| CitationWriter::document(export, &entries[..k])),
    };
    finish(spec, totals.failure(), made, budget)
}

/// The `citations` element of one exported record (its entry is in
/// `document`).
fn export_entry(f: &Fetched) -> Value {
    match f.parsed() {
        Ok(r) => entry(&f.pmid, r.retracted, r.retraction_notice),
        Err(e) => entry_error(&f.pmid, e.reason.as_str(), &e.message),
    }
}

/// A citation's entry: the PMID and its retraction flags (`retracted`
/// always, `retractionNotice` only when true); the citation is `document`'s.
fn entry(pmid: &str, retracted: bool, notice: bool) -> Value {
    let mut v = json!({"pmid": pmid, "retracted": retracted});
    if notice {
        v["retractionNotice"] = true.into();
    }
    v
}

/// Runs the tool.
pub async fn run(
    spec: &ToolSpec,
    client: &Client,
    v: &Values,
    report: &super::Reporter,
) -> CallToolResult {
    let pmids = v.strings("pmids");
    let budget = v.integer(BUDGET_ARG).unwrap_or(DEFAULT_BUDGET);
    match v
        .choice::<ToolCiteFormat>("format")
        .unwrap_or(ToolCiteFormat::Text)
    {
        ToolCiteFormat::Text => {
            let style = v
                .text("style")
                .unwrap_or_else(|| cite::DEFAULT_STYLE.to_string());
            references(spec, client, &pmids, &style, budget, report).await
        }
        f @ ToolCiteFormat::Ris => {
            export(spec, client, &pmids, f, Export::Ris, budget, report).await
        }
        f @ ToolCiteFormat::Bibtex => {
            export(spec, client, &pmids, f, Export::Bibtex, budget, report).await
        }
        f @ ToolCiteFormat::CslJson => {
            export(spec, client, &pmids, f, Export::CslJson, budget, report).await
        }
    }
}
