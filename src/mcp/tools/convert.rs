//! `pubmed_convert_ids`: the convert operation (`pubmed convert`) as an MCP
//! tool. A call whose upstream failed is an `isError` result by the same
//! rule that sets the CLI's exit status ([`crate::ops::batch::Totals::failure`]); per-ID
//! failures stay records with their `reason`.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};

use super::{ToolSpec, errors_paragraph};
use crate::core::ids::IdType;
use crate::error::{Field, Reason};
use crate::mcp::reply::{
    BUDGET_ARG, DEFAULT_BUDGET, Failure, SEARCH_TOOL, budget_arg, deferral_of, fit, render, success,
};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::convert::{self, ConvertRecord};

/// The tool name.
pub const NAME: &str = "pubmed_convert_ids";
/// Most IDs per call.
pub const MAX_IDS: usize = 50;

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Convert up to {MAX_IDS} article IDs of one type between PMID, PMCID and DOI with the PMC ID Converter. E.g. a PMCID (free full text) or DOI for PMIDs, or a DOI's PMID. One record per input, in input order, under the ID as given.\n\n\
`ids`: all of `idType`, one ID per element (a packed \"23193287,37952131\" is not split): a PMID is digits (leading zeros allowed, never 0), a PMCID PMC and digits (prefix optional, any case), a DOI 10.… with a / (10.1093/nar/gks1195). The first malformed element fails the call before any request.\n\n\
Each record has `requestedId` and, when converted, `pmid`, `pmcid`, `doi` (absent if none). A record that failed has `errmsg` and a machine-readable `reason`: `not_in_pmc` (no PMC copy; it may still be in PubMed: look it up with {SEARCH_TOOL}, e.g. query \"10.1038/ng.590[doi]\"; do not retry), `no_record_returned` (the Converter did not answer for this ID). If NCBI fails, the call is an error and no record counts as converted.\n\n{}",
        errors_paragraph(&[
            (
                Reason::MalformedId,
                "an element of ids does not fit idType; the message names it"
            ),
            (
                Reason::InvalidArgument,
                "ids is not a list of 1–50 strings, idType is missing or not pmid, pmcid or doi, or the Converter rejected the request"
            ),
        ])
    );
    ToolSpec {
        name: NAME,
        title: "Convert PMID / PMCID / DOI",
        summary: "converts between PMIDs, PMCIDs and DOIs",
        description,
        args: vec![
            Arg::strings(
                "ids",
                1,
                Some(MAX_IDS),
                format!(
                    "1–{MAX_IDS} IDs, all of idType; one ID per element, no comma or whitespace."
                ),
            )
            .required()
            .fills(Field::Ids),
            Arg::choice_of::<IdType>("idType", None, "The type of every element of ids.")
                .required(),
            budget_arg(),
        ],
        output: json!({
            "type": "object",
            "properties": {
                "records": {"type": "array", "description": "One record per element of ids, in order.", "items": {
                    "type": "object",
                    "properties": {
                        "requestedId": {"type": "string", "description": "The ID as given."},
                        "pmid": {"type": "string", "description": "PubMed ID."},
                        "pmcid": {"type": "string", "description": "PubMed Central ID (PMC…)."},
                        "doi": {"type": "string", "description": "DOI, as the Converter reports it."},
                        "errmsg": {"type": "string", "description": "Why this ID did not convert (absent on success)."},
                        "reason": {"type": "string", "description": "Machine-readable reason beside errmsg: not_in_pmc (no PMC copy; it may still be in PubMed) or no_record_returned."}
                    },
                    "required": ["requestedId"]
                }},
                "totalConverted": {"type": "integer", "description": "Records held without an error."},
                "totalSubmitted": {"type": "integer", "description": "Records (the number of ids held)."},
                "deferred": {"type": "array", "items": {"type": "string", "description": "An ID as given."}, "description": "IDs left for another call because the answer reached maxResponseCharacters (absent when all came)."},
                "continueWith": {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "string", "description": "An ID."}, "description": "ids of the next call."}}, "description": "The arguments that change in the call returning the deferred IDs (ids = deferred); the others stay as given."}
            },
            "required": ["records", "totalConverted", "totalSubmitted"]
        }),
        examples,
        run: |s, c, v, _| Box::pin(run(s, c, v)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![json!({"ids": ["23193287", "14"], "idType": "pmid"})]
}

/// The MCP view of convert records (CLI JSON ↔ MCP mapping in docs/mcp.md).
fn output(
    spec: &ToolSpec,
    records: &[ConvertRecord],
    converted: u64,
    submitted: u64,
) -> Map<String, Value> {
    let recs: Vec<Value> = records
        .iter()
        .map(|r| {
            let error = r.outcome.as_ref().err();
            json!({
                "requestedId": r.requested,
                "pmid": r.get(IdType::Pmid),
                "pmcid": r.get(IdType::Pmcid),
                "doi": r.get(IdType::Doi),
                "errmsg": error.map(|e| e.words.as_ref().map_or_else(|| e.message.clone(), |w| render(w, &spec.args))),
                "reason": error.map(|e| e.reason),
            })
        })
        .collect();
    let mut m = Map::new();
    m.insert("records".into(), recs.into());
    m.insert("totalConverted".into(), converted.into());
    m.insert("totalSubmitted".into(), submitted.into());
    m
}

/// Runs the tool.
pub async fn run(spec: &ToolSpec, client: &Client, v: &Values) -> CallToolResult {
    let ids = v.strings("ids");
    let idtype = v.choice::<IdType>("idType");
    let (records, totals) = match convert::convert_ids(client, &ids, idtype).await {
        Ok(r) => r,
        Err(e) => return spec.failure(&e),
    };
    if let Some(e) = totals.failure() {
        let out = output(spec, &records, totals.succeeded, totals.submitted);
        return Failure::from_error(e, &spec.args).result(Some(out));
    }
    let budget = v.integer(BUDGET_ARG).unwrap_or(DEFAULT_BUDGET);
    let (out, text) = fit(records.len(), budget as usize, |k| {
        budgeted(spec, &records, &ids, k, budget)
    });
    success(out, text, &[])
}

/// The answer holding the first `k` records, the others' IDs deferred
/// (docs/mcp.md "Response budget"); the totals count the held records.
fn budgeted(
    spec: &ToolSpec,
    records: &[ConvertRecord],
    ids: &[String],
    k: usize,
    budget: u64,
) -> (Value, String) {
    let held = &records[..k];
    let converted = held.iter().filter(|r| r.outcome.is_ok()).count() as u64;
    let mut out = output(spec, held, converted, k as u64);
    let mut text = format!(
        "Converted {converted} of {}:",
        crate::core::text::count(k as u64, "ID")
    );
    for (r, rec) in held
        .iter()
        .zip(out["records"].as_array().into_iter().flatten())
    {
        match &r.outcome {
            Ok(c) => text.push_str(&format!(
                "\n- {} → PMID {}, PMCID {}, DOI {}",
                r.requested,
                c.pmid.as_deref().unwrap_or("–"),
                c.pmcid.as_deref().unwrap_or("–"),
                c.doi.as_deref().unwrap_or("–")
            )),
            Err(e) => text.push_str(&format!(
                "\n- {}: {} [{}]",
                r.requested,
                rec["errmsg"].as_str().unwrap_or_default(),
                e.reason
            )),
        }
    }
    let deferred = ids[k.min(ids.len())..].to_vec();
    let (extra, note) = deferral_of("IDs", NAME, budget, k, &deferred, json!({"ids": deferred}));
    out.extend(extra);
    text.push_str(&note);
    (Value::Object(out), text)
}
