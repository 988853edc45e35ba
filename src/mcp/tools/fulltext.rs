//! `pubmed_fetch_fulltext`: the fulltext operation (`pubmed fulltext`) as
//! an MCP tool, with a character budget and section selection
//! (docs/fulltext.md "MCP pubmed_fetch_fulltext").

use serde_json::{Map, Value, json};

use super::{ToolSpec, errors_paragraph};
use crate::error::Reason;
use crate::mcp::reply::{Failure, success};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::fulltext::{self, FulltextOptions, FulltextRecord};
use crate::output::fulltext::article_text;

/// The tool name.
pub const NAME: &str = "pubmed_fetch_fulltext";

/// IDs per call.
pub const MAX_IDS: usize = 20;

/// The default character budget of the whole answer's text.
pub const DEFAULT_MAX_CHARACTERS: u64 = 40_000;

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "The open-access full text of articles from PubMed Central (JATS XML through EFetch db=pmc), as Markdown: title, authors, licence, abstract, sections with their headings in order, figure and table captions, simple tables as Markdown tables (others named in place), references numbered. PMIDs and DOIs are resolved to their PMCID with the PMC ID Converter. Use it after a search or fetch when the abstract is not enough; an article PMC has no open text for is listed with its reason, never returned empty.\n\n\
Input: `ids` (PMIDs, PMCIDs or DOIs), `sections` (optional: sec-types such as methods, results, discussion, or words of section titles; only those sections are returned), `maxCharacters` (the budget of the text of all articles together, split evenly between them; an article cut short says so and gives its full length).\n\n\
Output: `articles` (requested, pmcid, pmid, doi, title, license, source, text, truncated, characters) and `unavailable` (requested, pmcid, reason: not_in_pmc, no_open_full_text, malformed_id or a request's reason; message).\n\n{}",
        errors_paragraph(&[
            (
                Reason::MalformedId,
                "an element of ids is not a PMID, a PMCID or a DOI"
            ),
            (Reason::NcbiUnreachable, "PMC did not answer after retries"),
        ])
    );
    ToolSpec {
        name: NAME,
        title: "Fetch open-access full text from PMC",
        summary: "reads the open-access full text of articles from PMC, by section, within a character budget",
        description,
        args: vec![
            Arg::ids(
                "ids",
                1,
                MAX_IDS,
                format!("1–{MAX_IDS} PMIDs (digits), PMCIDs (PMC + digits) or DOIs (10.…/…), one per element; one entry per element, in this order."),
            )
            .required(),
            Arg::strings(
                "sections",
                0,
                None,
                "Only these sections: a sec-type (methods, results, discussion, …) or words of a section title, matched case-insensitively. Empty: the whole article.",
            ),
            Arg::integer(
                "maxCharacters",
                1_000,
                1_000_000,
                Some(DEFAULT_MAX_CHARACTERS),
                "Characters of text for all articles together (split evenly); longer texts are cut at a line end and marked truncated.",
            ),
        ],
        output: json!({
            "type": "object",
            "properties": {
                "articles": {"type": "array", "description": "The articles with open full text, in input order.", "items": {"type": "object", "properties": {
                    "requested": {"type": "string", "description": "The ID as given."},
                    "pmcid": {"type": "string", "description": "The article's PMCID (PMC + digits)."},
                    "pmid": {"type": "string", "description": "Its PMID, when the XML has one."},
                    "doi": {"type": "string", "description": "Its DOI, when the XML has one."},
                    "manuscript": {"type": ["object", "null"], "description": "Set for an author manuscript (the accepted version a funder deposited, not the publisher's): {id}, the deposit's ID (NIHMS…, EMS…) when the XML has one."},
                    "title": {"type": "string", "description": "The article title."},
                    "license": {"type": "object", "description": "The article's <license>: url, type and text."},
                    "source": {"type": "string", "description": "Who answered: pmc, or europepmc when PMC had no open text."},
                    "text": {"type": "string", "description": "The article as Markdown, within its share of maxCharacters."},
                    "truncated": {"type": "boolean", "description": "True when text was cut to the budget."},
                    "characters": {"type": "integer", "description": "The full Markdown's length in characters."}
                }, "required": ["requested", "text", "truncated", "characters"]}},
                "unavailable": {"type": "array", "description": "The inputs without open full text, in input order, with why.", "items": {"type": "object", "properties": {
                    "requested": {"type": "string", "description": "The ID as given."},
                    "pmcid": {"type": "string", "description": "The PMCID it resolved to, when it did."},
                    "reason": {"type": "string", "description": "not_in_pmc, no_open_full_text, malformed_id, or a failed request's reason."},
                    "message": {"type": "string", "description": "A sentence for people, with the PMC and DOI links where known."}
                }, "required": ["requested", "reason", "message"]}}
            },
            "required": ["articles", "unavailable"]
        }),
        examples,
        run: |s, c, v, r| Box::pin(run(s, c, v, r)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![json!({"ids": ["PMC3460867", "PMC1"], "sections": ["methods"], "maxCharacters": 2000})]
}

/// `text` cut to at most `max` characters at a line end, and whether it was.
pub fn within(text: &str, max: usize) -> (String, bool) {
    if text.chars().count() <= max {
        return (text.to_string(), false);
    }
    let cut: String = text.chars().take(max).collect();
    let end = cut.rfind('\n').filter(|e| *e > 0).unwrap_or(cut.len());
    (cut[..end].to_string(), true)
}

fn output(
    records: &[FulltextRecord],
    wanted: &[String],
    max: usize,
) -> (Map<String, Value>, String) {
    let ok = records.iter().filter(|r| r.outcome.is_ok()).count().max(1);
    let share = (max / ok).max(1);
    let mut articles = Vec::new();
    let mut unavailable = Vec::new();
    let mut text = String::new();
    for r in records {
        match &r.outcome {
            Ok(f) => {
                let md = article_text(f, wanted, true);
                let total = md.chars().count();
                let (body, truncated) = within(&md, share);
                text.push_str(&body);
                if truncated {
                    text.push_str(&format!(
                        "\n\n[truncated: {share} of {total} characters; ask for fewer sections or a larger maxCharacters]\n"
                    ));
                }
                text.push_str("\n---\n\n");
                let a = &f.article;
                articles.push(json!({
                    "requested": r.requested, "pmcid": a.pmcid.clone().or_else(|| r.pmcid.clone()),
                    "pmid": a.pmid, "doi": a.doi, "manuscript": a.manuscript, "title": a.title, "license": a.license,
                    "source": f.source, "text": body, "truncated": truncated, "characters": total,
                }));
            }
            Err(e) => {
                text.push_str(&format!("{}: {} [{}]\n", r.requested, e.message, e.reason));
                unavailable.push(json!({
                    "requested": r.requested, "pmcid": r.pmcid, "reason": e.reason, "message": e.message,
                }));
            }
        }
    }
    let mut m = Map::new();
    m.insert("articles".into(), articles.into());
    m.insert("unavailable".into(), unavailable.into());
    (m, text)
}

/// Runs the tool.
pub async fn run(
    spec: &ToolSpec,
    client: &Client,
    v: &Values,
    report: &super::Reporter,
) -> rmcp::model::CallToolResult {
    let ids = v.strings("ids");
    let wanted = v.strings("sections");
    let max = v.integer("maxCharacters").unwrap_or(DEFAULT_MAX_CHARACTERS) as usize;
    let fetched =
        fulltext::fulltext_ids_reporting(client, &ids, FulltextOptions::default(), report);
    let (records, totals) = match fetched.await {
        Ok(r) => r,
        Err(e) => return spec.failure(&e),
    };
    let (out, text) = output(&records, &wanted, max);
    if let Some(e) = &totals.first_failure {
        return Failure::from_error(e, &spec.args).result(Some(out));
    }
    success(Value::Object(out), text, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_at_a_line_end() {
        assert_eq!(within("ab\ncd\nef", 100), ("ab\ncd\nef".into(), false));
        assert_eq!(within("ab\ncd\nef", 6), ("ab\ncd".into(), true));
        assert_eq!(within("abcdef", 3), ("abc".into(), true));
    }
}
