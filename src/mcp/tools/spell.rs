//! `pubmed_spell_check`: the spell operation (`pubmed spell`) as an MCP
//! tool.

use serde_json::json;

use super::{ToolSpec, errors_paragraph};
use crate::error::{Field, Reason};
use crate::mcp::reply::{SEARCH_TOOL, success};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::spell;

/// The tool name.
pub const NAME: &str = "pubmed_spell_check";

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Correct the spelling of a PubMed query with NCBI's ESpell, in place: the answer is the query with only the misspelled words replaced, everything else byte for byte as written. Use it when {SEARCH_TOOL} finds nothing or few results and a word may be misspelled, then search again with `corrected` (zero hits do not prove there is no literature).\n\n\
Rules it follows: field tags ([ti], [mh:noexp]), Boolean operators, parentheses, quotes, wildcards, numbers and symbols are never changed; values of indexed fields are kept as written (e.g. the MeSH heading in `agd[mh]`), while words tagged with the free-text fields [tiab], [ti], [ab], [tw] and [all] are corrected like untagged words; words written in capitals (gene symbols, acronyms such as COPD), words with a digit (il-6, BRCA1), non-ASCII words (naïve) and single letters are left alone, as are truncated stems (canc*); where ESpell skips a number or symbol and loses its place, the words after it are left as written rather than guessed.\n\n\
{}",
        errors_paragraph(&[
            (Reason::BlankQuery, "the query has no visible character"),
            (
                Reason::InvalidArgument,
                "a wrong argument, e.g. a query that is not a string or over 100,000 characters"
            ),
        ])
    );
    ToolSpec {
        name: NAME,
        title: "Spell-check a PubMed query",
        summary: "checks the words of a query that found nothing; search again with its correction",
        description,
        args: vec![
            Arg::text_keep_empty(
                "query",
                "The PubMed query to spell-check, in PubMed syntax (field tags, AND/OR/NOT, quotes and parentheses are kept as written).",
            )
            .required()
            .fills(Field::Query),
        ],
        output: json!({
            "type": "object",
            "properties": {
                "original": {"type": "string", "description": "The query as given, byte for byte."},
                "corrected": {"type": "string", "description": "The query with ESpell's accepted corrections applied in place; equal to original when there is nothing to correct."},
                "hasSuggestion": {"type": "boolean", "description": "True exactly when corrected differs from original."},
                "corrections": {"type": "array", "description": "Every correction ESpell proposed that lines up with the query, in query order.", "items": {
                    "type": "object",
                    "properties": {
                        "from": {"type": "string", "description": "The text of the query ESpell replaced."},
                        "to": {"type": "string", "description": "ESpell's replacement (capitalised like the original word when applied)."},
                        "applied": {"type": "boolean", "description": "Whether it is in corrected."},
                        "keptBecause": {"type": "string", "description": "When not applied, the rule that kept it out: field_tag, indexed_field, capitals, digits, non_ascii, case_only, single_letter, wildcard or alignment_lost."}
                    },
                    "required": ["from", "to", "applied"]
                }}
            },
            "required": ["original", "corrected", "hasSuggestion"]
        }),
        examples,
        run: |s, c, v, _| Box::pin(run(s, c, v)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![json!({"query": "asthmaa OR alergies"})]
}

/// Runs the tool.
pub async fn run(spec: &ToolSpec, client: &Client, v: &Values) -> rmcp::model::CallToolResult {
    let query = v.text("query").unwrap_or_default();
    match spell::spell(client, &query).await {
        Err(e) => spec.failure(&e),
        Ok(o) => {
            let mut text = if o.has_suggestion {
                format!("Did you mean: **{}**", o.corrected)
            } else {
                "No spelling correction suggested.".to_string()
            };
            for c in o.corrections.iter().filter(|c| !c.applied) {
                let why = c
                    .kept_because
                    .as_ref()
                    .and_then(|g| serde_json::to_value(g).ok())
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                text.push_str(&format!(
                    "\n- kept {:?} (ESpell proposed {:?}; {why})",
                    c.from, c.to
                ));
            }
            success(serde_json::to_value(&o).unwrap_or_default(), text, &[])
        }
    }
}
