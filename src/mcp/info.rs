//! The resource `pubmed://database/info`: what an agent needs to write
//! good PubMed queries (EInfo's field tags and their meaning, with the
//! bracket tags that select them) and this server's limits (docs/mcp.md
//! "Resources").

use serde_json::{Value, json};

use crate::core::fields::{EINFO_FIELDS, FIELDS};
use crate::ncbi::limits;

/// The resource's URI.
pub const URI: &str = "pubmed://database/info";

/// The EInfo build the field list comes from (`einfo_pubmed.xml`).
pub const EINFO_BUILD: &str = "Build-2025.11.27.06.33";

/// The resource as resources/list shows it.
pub fn resource() -> rmcp::model::Resource {
    rmcp::model::Resource::new(URI, "PubMed search fields and this server's limits")
        .with_description(
            "PubMed's search field tags with their meaning (NCBI EInfo), how to write them in a query, and this server's limits per tool and per NCBI request.",
        )
        .with_mime_type("application/json")
}

/// The resource's JSON text: `fields` (one per EInfo field: `name` for
/// ESearch's field parameter, `fullName`, `description`, the bracket
/// `tags` a query can use, `isDate`, `hidden`), `otherTags` (tags PubMed
/// accepts that EInfo does not list), `syntax` and `limits`.
pub fn text() -> String {
    serde_json::to_string_pretty(&value()).unwrap_or_default()
}

fn value() -> Value {
    let fields: Vec<Value> = EINFO_FIELDS
        .iter()
        .map(|e| {
            let tags: Vec<&str> = FIELDS
                .iter()
                .filter(|f| f.einfo == Some(e.name))
                .flat_map(|f| f.tags.iter().copied())
                .collect();
            json!({
                "name": e.name,
                "fullName": e.full_name,
                "description": e.description,
                "tags": tags,
                "isDate": e.is_date,
                "hidden": e.hidden,
            })
        })
        .collect();
    let other: Vec<&[&str]> = FIELDS
        .iter()
        .filter(|f| f.einfo.is_none())
        .map(|f| f.tags)
        .collect();
    json!({
        "database": "pubmed",
        "source": format!("NCBI EInfo, einfo.fcgi?db=pubmed ({EINFO_BUILD})"),
        "fields": fields,
        "otherTags": other,
        "syntax": [
            "A tag goes in brackets after its term: asthma[ti], Smith J[au], \"heart failure\"[mh].",
            "A date field takes a range: 2020:2024[dp], 2023/01/15:2023/03/31[edat].",
            "AND, OR and NOT are written in capitals; parentheses group.",
            "An untagged term is mapped by PubMed's automatic term mapping (MeSH, journal, author); effectiveQuery in the search answer shows how.",
        ],
        "limits": limits_value(),
    })
}

/// Per-tool limits, read from the tools' input schemas (`maximum`,
/// `maxItems`), and NCBI's, from `ncbi::limits`.
fn limits_value() -> Value {
    let mut tools = serde_json::Map::new();
    for t in super::tools::tools() {
        let mut args = serde_json::Map::new();
        if let Some(props) = t.input_schema.get("properties").and_then(Value::as_object) {
            for (name, p) in props {
                if let Some(max) = p.get("maxItems").or_else(|| p.get("maximum")) {
                    args.insert(name.clone(), max.clone());
                }
            }
        }
        if !args.is_empty() {
            tools.insert(t.name.to_string(), Value::Object(args));
        }
    }
    json!({
        "tools": tools,
        "ncbi": {
            "searchWindow": limits::ESEARCH_WINDOW,
            "searchMaxOffset": limits::ESEARCH_MAX_RETSTART,
            "summariesPerRequest": limits::ESUMMARY_BATCH,
            "recordsPerEfetchRequest": limits::EFETCH_CHUNK,
            "idsPerIdConverterRequest": limits::IDCONV_MAX_IDS,
            "requestsPerSecondWithoutApiKey": limits::RATE_WITHOUT_KEY,
            "requestsPerSecondWithApiKey": limits::RATE_WITH_KEY,
        },
        "notes": [
            "tools: the most each argument takes (maxItems for lists, maximum for numbers).",
            "searchWindow: ESearch serves only the first records of one query; offset + maxResults stays within it. Narrow the query (dates, fields) to reach more.",
        ],
    })
}
