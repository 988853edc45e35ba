//! `pubmed_convert_ids`: the convert operation (`pubmed convert`) as an MCP
//! tool. A call whose upstream failed is an `isError` result by the same
//! rule that sets the CLI's exit status ([`Totals::failure`]); per-ID
//! failures stay records with their `reason`.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};

use super::{ToolSpec, errors_paragraph};
use crate::core::ids::IdType;
use crate::error::{Field, Reason};
use crate::mcp::reply::{Failure, SEARCH_TOOL, render, success};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::convert::{self, ConvertRecord, Totals};

/// The tool name.
pub const NAME: &str = "pubmed_convert_ids";
/// Most IDs per call.
pub const MAX_IDS: usize = 50;

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Convert up to {MAX_IDS} article IDs of one type between PMID, PMCID and DOI with the PMC ID Converter. E.g. a PMCID (free full text) or DOI for PMIDs, or a DOI's PMID. One record per input, in input order, under the ID as given.\n\n\
`ids`: all of `idType`, one ID per element (a packed \"23193287,37952131\" is not split): a PMID is digits (leading zeros allowed, never 0), a PMCID PMC and digits (prefix optional, any case), a DOI 10.… with a / (10.1093/nar/gks1195). The first malformed element fails the call before any request.\n\n\
Each record has `requestedId` and, when converted, `pmid`, `pmcid` and `doi` (a field is absent when the article has none). A record that failed has `errmsg` and a machine-readable `reason`: `not_in_pmc` (the article has no PMC copy — it may still be in PubMed: look it up with {SEARCH_TOOL}, e.g. query \"10.1038/ng.590[doi]\" or \"23193287[pmid]\"; do not retry), `no_record_returned` (the Converter did not answer for this ID). If NCBI fails, the call is an error and no record counts as converted.\n\n{}",
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
                "totalConverted": {"type": "integer", "description": "Records without an error."},
                "totalSubmitted": {"type": "integer", "description": "Records (the number of ids)."}
            },
            "required": ["records", "totalConverted", "totalSubmitted"]
        }),
    }
}

/// The MCP view of convert records (CLI JSON ↔ MCP mapping in docs/mcp.md).
fn output(spec: &ToolSpec, records: &[ConvertRecord], totals: &Totals) -> Map<String, Value> {
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
    m.insert("totalConverted".into(), totals.succeeded.into());
    m.insert("totalSubmitted".into(), totals.submitted.into());
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
    let out = output(spec, &records, &totals);
    if let Some(e) = totals.failure() {
        return Failure::from_error(e, &spec.args).result(Some(out));
    }
    let mut text = format!(
        "Converted {} of {}:",
        totals.succeeded,
        crate::core::text::count(totals.submitted, "ID")
    );
    for (r, rec) in records
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
    success(Value::Object(out), text, &[])
}
