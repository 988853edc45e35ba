//! The three MCP tools (cli.md "MCP"): schemas written to be portable
//! across clients, argument checks done here (the SDK checks none), and
//! thin adapters onto the same operation cores as the CLI.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use crate::core::choice::Choice;
use crate::core::dates::{DateRequest, DateType};
use crate::core::ids::IdType;
use crate::core::query::{Filters, Species};
use crate::error::{Error, Reason};
use crate::ncbi::Client;
use crate::ops::cite::{self, CiteStyle};
use crate::ops::convert::{self, ConvertRecord};
use crate::ops::fetch::{self, FetchOptions, Fetched, RecordReason};
use crate::ops::search::{self, Detail, SearchOutcome, SearchRequest, Sort};
use crate::ops::spell;
use crate::output::citation::{BibOptions, CitationWriter, Export};

/// Tool names.
pub const SEARCH: &str = "pubmed_search_articles";
/// Spell tool name.
pub const SPELL: &str = "pubmed_spell_check";
/// Convert tool name.
pub const CONVERT: &str = "pubmed_convert_ids";
/// Fetch tool name.
pub const FETCH: &str = "pubmed_fetch_articles";

/// Most PMIDs per `pubmed_fetch_articles` call.
pub const MAX_FETCH_PMIDS: usize = 200;
/// Related-articles tool name.
pub const RELATED: &str = "pubmed_find_related";
/// Most linked PMIDs per `pubmed_find_related` call.
pub const MAX_RELATED: u64 = 100;
/// Linked PMIDs per `pubmed_find_related` call when none is asked.
pub const DEFAULT_RELATED: u64 = 20;

/// Citation tool name.
pub const CITE: &str = "pubmed_format_citations";
/// Most PMIDs per `pubmed_format_citations` call.
pub const MAX_CITE_PMIDS: usize = 50;
/// The `format` values of `pubmed_format_citations`.
pub const CITE_FORMATS: [&str; 4] = ["ris", "bibtex", "csl-json", "text"];

/// Most IDs per `pubmed_convert_ids` call.
pub const MAX_CONVERT_IDS: usize = 50;
/// Most results per `pubmed_search_articles` call.
pub const MAX_RESULTS: u64 = 1000;
/// Most summaries per `pubmed_search_articles` call.
pub const MAX_SUMMARIES: u64 = 50;

fn object(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(Map::new()),
    }
}

fn annotations() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true).open_world(true)
}

fn summary_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "pmid": {"type": "string"},
            "title": {"type": "string"},
            "authors": {"type": "array", "items": {"type": "string"}},
            "journal": {"type": "string"},
            "fullJournalName": {"type": "string"},
            "pubDate": {"type": "string", "description": "ISO date at PubMed's precision: 2017-08-15, 1968-08 or 2012"},
            "pubDateText": {"type": "string"},
            "doi": {"type": "string"},
            "pmcid": {"type": "string"},
            "pubTypes": {"type": "array", "items": {"type": "string"}},
            "retracted": {"type": "boolean"},
            "retractionNotice": {"type": "boolean"},
            "pubmedUrl": {"type": "string"}
        },
        "required": ["pmid", "title"]
    })
}

/// An output schema that also admits the `isError` result
/// (`{"error": {code, message, data}}`): clients that validate
/// `structuredContent` of failed calls too then accept it. The root stays a
/// plain object; the success fields are required only in the success branch.
fn or_error(mut schema: Value) -> Value {
    let required = schema
        .as_object_mut()
        .and_then(|m| m.remove("required"))
        .unwrap_or_else(|| json!([]));
    schema["properties"]["error"] = json!({
        "type": "object",
        "properties": {
            "code": {"type": "integer"},
            "message": {"type": "string"},
            "data": {
                "type": "object",
                "properties": {
                    "reason": {"type": "string"},
                    "retryable": {"type": "boolean"},
                    "retryAfter": {"type": "integer"},
                    "recovery": {"type": "object", "properties": {"hint": {"type": "string"}}}
                },
                "required": ["reason", "retryable"]
            }
        },
        "required": ["code", "message", "data"]
    });
    schema["anyOf"] = json!([{"required": required}, {"required": ["error"]}]);
    schema
}

/// A schema `enum`: every name of the choice `T`.
fn names<T: Choice>() -> Vec<&'static str> {
    T::ALL.iter().map(|v| v.as_str()).collect()
}

fn author_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Last name and initials (Olivero JM), or the group's name"},
            "lastName": {"type": "string"},
            "foreName": {"type": "string"},
            "initials": {"type": "string"},
            "suffix": {"type": "string"},
            "collectiveName": {"type": "string", "description": "Set for a group author"},
            "affiliations": {"type": "array", "items": {"type": "string"}},
            "orcid": {"type": "string", "description": "0000-0002-4590-7461"}
        },
        "required": ["name"]
    })
}

fn pages_properties() -> Value {
    json!({
        "pages": {"type": "string", "description": "As PubMed writes them (113-25)"},
        "startPage": {"type": "string"},
        "endPage": {"type": "string", "description": "Written out in full (125)"}
    })
}

fn article_schema() -> Value {
    let mut journal = json!({
        "title": {"type": "string"},
        "isoAbbreviation": {"type": "string"},
        "medlineTa": {"type": "string"},
        "issn": {"type": "string"},
        "volume": {"type": "string"},
        "issue": {"type": "string"}
    });
    let mut book = json!({
        "title": {"type": "string"},
        "publisher": {"type": "string"},
        "publisherLocation": {"type": "string"},
        "edition": {"type": "string"},
        "volume": {"type": "string"},
        "volumeTitle": {"type": "string"},
        "collectionTitle": {"type": "string"},
        "isbn": {"type": "array", "items": {"type": "string"}},
        "editors": {"type": "array", "items": author_schema()},
        "medium": {"type": "string"},
        "reportNumber": {"type": "string"},
        "locationLabels": {"type": "array", "items": {"type": "string"}},
        "accession": {"type": "string"},
        "beginningDate": {"type": "string"},
        "endingDate": {"type": "string"},
        "isPart": {"type": "boolean"}
    });
    for target in [&mut journal, &mut book] {
        if let (Some(t), Value::Object(p)) = (target.as_object_mut(), pages_properties()) {
            t.extend(p);
        }
    }
    json!({
        "type": "object",
        "properties": {
            "pmid": {"type": "string"},
            "title": {"type": "string", "description": "Plain text; inline markup removed, its text kept"},
            "vernacularTitle": {"type": "string", "description": "The title in the original language"},
            "abstract": {"type": "string", "description": "Plain text, sections as LABEL: text"},
            "abstractSections": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "nlmCategory": {"type": "string"},
                    "text": {"type": "string"}
                },
                "required": ["text"]
            }},
            "authors": {"type": "array", "items": author_schema()},
            "journal": {"type": "object", "properties": journal},
            "pubDate": {"type": "string", "description": "ISO date at the precision written: 1976-09-28, 2000-11 or 1990"},
            "pubDateText": {"type": "string", "description": "As written: 1990 Spring, 2000 Nov-Dec"},
            "articleDate": {"type": "string", "description": "Electronic publication date, ISO"},
            "doi": {"type": "string"},
            "pmcid": {"type": "string"},
            "pii": {"type": "string"},
            "language": {"type": "array", "items": {"type": "string"}},
            "pubTypes": {"type": "array", "items": {"type": "string"}},
            "meshHeadings": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "descriptor": {"type": "string"},
                    "major": {"type": "boolean"},
                    "qualifiers": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"name": {"type": "string"}, "major": {"type": "boolean"}},
                        "required": ["name", "major"]
                    }}
                },
                "required": ["descriptor", "major"]
            }},
            "keywords": {"type": "array", "items": {"type": "string"}},
            "grants": {"type": "array", "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "agency": {"type": "string"}, "country": {"type": "string"}}
            }},
            "commentsCorrections": {"type": "array", "items": {
                "type": "object",
                "properties": {"type": {"type": "string"}, "pmid": {"type": "string"}, "source": {"type": "string"}},
                "required": ["type"]
            }},
            "retracted": {"type": "boolean"},
            "retractionNotice": {"type": "boolean"},
            "book": {"type": "object", "properties": book},
            "pubmedUrl": {"type": "string"}
        },
        "required": ["pmid", "title", "retracted"]
    })
}

fn fetch_schemas() -> (Value, Value) {
    let input = json!({
        "type": "object",
        "properties": {
            "pmids": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 200, "description": "1–200 PMIDs (digits, e.g. 12091962). One article per PMID, in this order."},
            "includeAbstract": {"type": "boolean", "default": true, "description": "Include the abstract (plain text and its labelled sections)."},
            "includeMesh": {"type": "boolean", "default": true, "description": "Include MeSH headings and keywords."},
            "includeAffiliations": {"type": "boolean", "default": false, "description": "Include each author's affiliations (long for large author lists)."}
        },
        "required": ["pmids"],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {
            "articles": {"type": "array", "items": article_schema()},
            "notFound": {"type": "array", "items": {"type": "string"}, "description": "PMIDs PubMed has no record for"},
            "failed": {"type": "array", "items": {
                "type": "object",
                "properties": {"pmid": {"type": "string"}, "reason": {"type": "string"}, "message": {"type": "string"}},
                "required": ["pmid", "reason"]
            }, "description": "PMIDs whose record NCBI did not deliver (upstream trouble)"}
        },
        "required": ["articles", "notFound"]
    });
    (input, output)
}

fn cite_schemas() -> (Value, Value) {
    let input = json!({
        "type": "object",
        "properties": {
            "pmids": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 50, "description": "1–50 PMIDs (digits, e.g. 12091962). One citation per PMID, in this order."},
            "format": {"type": "string", "enum": CITE_FORMATS, "description": "ris (Zotero, EndNote, Mendeley import), bibtex (LaTeX; keys pmid12091962), csl-json (Zotero, pandoc --citeproc), or text (references formatted in `style`)."},
            "style": {"type": "string", "description": "For format text: a citation style — apa, vancouver (NLM), ama, nlm, harvard, chicago-author-date, ieee, nature, or any other bundled CSL style name such as the-lancet or american-chemical-society. Default vancouver. Ignored by the other formats."}
        },
        "required": ["pmids", "format"],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {
            "format": {"type": "string"},
            "style": {"type": "string", "description": "The style's title (format text)"},
            "citations": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "pmid": {"type": "string"},
                    "citation": {"type": "string", "description": "The entry: a RIS record, a BibTeX entry, a CSL-JSON item (JSON text) or a formatted reference"},
                    "retracted": {"type": "boolean"},
                    "retractionNotice": {"type": "boolean"},
                    "error": {"type": "object", "properties": {"reason": {"type": "string"}, "message": {"type": "string"}}, "required": ["reason", "message"]}
                },
                "required": ["pmid"]
            }},
            "document": {"type": "string", "description": "Every entry joined into one file: RIS, BibTeX, a CSL-JSON array, or one reference per line"},
            "notFound": {"type": "array", "items": {"type": "string"}, "description": "PMIDs PubMed has no record for"}
        },
        "required": ["format", "citations", "document", "notFound"]
    });
    (input, output)
}

/// The tools with their schemas and annotations.
pub fn tools() -> Vec<Tool> {
    let search_in = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "PubMed query syntax (field tags like [ti], [mh], [au] and AND/OR/NOT work). An empty string searches the filters alone."},
            "maxResults": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 20, "description": "PMIDs to return (0 = count only)."},
            "offset": {"type": "integer", "minimum": 0, "maximum": 9998, "default": 0, "description": "0-based index of the first PMID; PubMed serves only the first 9,999 records of a query."},
            "sort": {"type": "string", "enum": names::<Sort>()},
            "dateRange": {
                "type": "object",
                "properties": {
                    "minDate": {"type": "string", "description": "YYYY, YYYY/MM or YYYY/MM/DD"},
                    "maxDate": {"type": "string", "description": "YYYY, YYYY/MM or YYYY/MM/DD"},
                    "dateType": {"type": "string", "enum": names::<DateType>(), "default": DateType::default().as_str()}
                },
                "additionalProperties": false
            },
            "publicationTypes": {"type": "array", "items": {"type": "string"}, "description": "e.g. Review, Clinical Trial (any of them)."},
            "author": {"type": "string"},
            "journal": {"type": "string"},
            "meshTerms": {"type": "array", "items": {"type": "string"}, "description": "MeSH headings (all of them)."},
            "language": {"type": "string"},
            "hasAbstract": {"type": "boolean"},
            "freeFullText": {"type": "boolean"},
            "species": {"type": "string", "enum": names::<Species>()},
            "summaryCount": {"type": "integer", "minimum": 0, "maximum": 50, "default": 0, "description": "Fetch title, authors, journal, date, DOI and retraction status for this many of the PMIDs."}
        },
        "required": ["query"],
        "additionalProperties": false
    });
    let search_out = json!({
        "type": "object",
        "properties": {
            "totalCount": {"type": "integer"},
            "offset": {"type": "integer"},
            "maxResults": {"type": "integer"},
            "pmids": {"type": "array", "items": {"type": "string"}},
            "effectiveQuery": {"type": "string"},
            "queryTranslation": {"type": "string"},
            "searchUrl": {"type": "string"},
            "appliedFilters": {"type": "object"},
            "summaries": {"type": "array", "items": summary_schema()},
            "missing": {"type": ["array", "null"], "description": "PMIDs whose summaries NCBI did not return; null when no summaries were asked for (summaryCount 0).", "items": {"type": "object", "properties": {"pmid": {"type": "string"}, "message": {"type": "string"}}}},
            "notice": {"type": "string"}
        },
        "required": ["totalCount", "offset", "maxResults", "pmids", "effectiveQuery", "searchUrl"]
    });
    let spell_in = json!({
        "type": "object",
        "properties": {"query": {"type": "string", "description": "A PubMed query to spell-check."}},
        "required": ["query"],
        "additionalProperties": false
    });
    let spell_out = json!({
        "type": "object",
        "properties": {
            "original": {"type": "string"},
            "corrected": {"type": "string"},
            "hasSuggestion": {"type": "boolean"}
        },
        "required": ["original", "corrected", "hasSuggestion"]
    });
    let convert_in = json!({
        "type": "object",
        "properties": {
            "ids": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 50, "description": "1–50 IDs, all of idType."},
            "idType": {"type": "string", "enum": names::<IdType>()}
        },
        "required": ["ids", "idType"],
        "additionalProperties": false
    });
    let convert_out = json!({
        "type": "object",
        "properties": {
            "records": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "requestedId": {"type": "string"},
                    "pmid": {"type": "string"},
                    "pmcid": {"type": "string"},
                    "doi": {"type": "string"},
                    "errmsg": {"type": "string"}
                },
                "required": ["requestedId"]
            }},
            "totalConverted": {"type": "integer"},
            "totalSubmitted": {"type": "integer"}
        },
        "required": ["records", "totalConverted", "totalSubmitted"]
    });
    vec![
        Tool::new(
            SEARCH,
            "Search PubMed and get PMIDs (and optionally short summaries) for a query with filters, dates, sorting and paging. Use it first to find literature. The answer says how PubMed translated the query and warns when a field tag or phrase was ignored. Zero hits do not prove there is no literature: check the spelling with pubmed_spell_check and search again.",
            object(search_in),
        )
        .with_title("Search PubMed")
        .with_raw_output_schema(object(or_error(search_out)))
        .with_annotations(annotations()),
        Tool::new(
            SPELL,
            "Correct the spelling of a PubMed query with NCBI's speller, in place: field tags, Boolean operators, acronyms and gene symbols are left as they are. Use it when a search finds nothing or few results and a word may be misspelled, then search again with the corrected query.",
            object(spell_in),
        )
        .with_title("Spell-check a PubMed query")
        .with_raw_output_schema(object(or_error(spell_out)))
        .with_annotations(annotations()),
        Tool::new(
            CONVERT,
            "Convert up to 50 article IDs of one type between PMID, PMCID and DOI with the PMC ID Converter. One record per input, in order. Articles without a PMC copy come back with an error even though they may be in PubMed; look those up with pubmed_search_articles (e.g. '<doi>[doi]').",
            object(convert_in),
        )
        .with_title("Convert PMID / PMCID / DOI")
        .with_raw_output_schema(object(or_error(convert_out)))
        .with_annotations(annotations()),
        {
            let (fetch_in, fetch_out) = fetch_schemas();
            Tool::new(
                FETCH,
                "Fetch full PubMed records for 1–200 PMIDs with EFetch: title, all authors in order (group authors included, with ORCID iDs and optionally affiliations), journal, volume, issue and pages, publication date at the precision PubMed gives, DOI, PMCID, abstract with its section labels, publication types, MeSH headings, keywords, grants, errata/comments/updates, and whether the article is retracted. Use it after pubmed_search_articles to read the articles. Book records (e.g. GeneReviews) come with their publisher and editors. PMIDs PubMed does not have are listed in notFound, never dropped silently.",
                object(fetch_in),
            )
            .with_title("Fetch PubMed records")
            .with_raw_output_schema(object(or_error(fetch_out)))
            .with_annotations(annotations())
        },
        related_tool(),
        {
            let (cite_in, cite_out) = cite_schemas();
            Tool::new(
                CITE,
                "Format 1–50 PubMed records as citations: RIS, BibTeX or CSL-JSON for reference managers and LaTeX, or references formatted in a citation style (APA, Vancouver/NLM, AMA, Harvard, Chicago author-date, IEEE, Nature or any other bundled CSL style) through a CSL processor. One citation per PMID, in input order, numbered by position for numeric styles. Authors come in PubMed's order with group authors, dates at the precision PubMed gives, and the journal's ISO abbreviation where a style wants it. A retracted article is marked in every format (RIS N1, BibTeX and CSL-JSON note, and a RETRACTED: prefix with the retraction notice in formatted text), so check retracted before citing. `document` holds the whole file ready to save; PMIDs PubMed does not have get an error entry in their place and are listed in notFound.",
                object(cite_in),
            )
            .with_title("Format citations")
            .with_raw_output_schema(object(or_error(cite_out)))
            .with_annotations(annotations())
        },
    ]
}

/// Arguments of one call, read leniently the way clients send them:
/// `null` and `""` mean absent, digit strings count as numbers.
struct Args<'a> {
    tool: &'a str,
    map: &'a JsonObject,
}

fn wrong(tool: &str, key: &str, want: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("{tool}: `{key}` must be {want}"),
        Some(json!({"field": key})),
    )
}

impl<'a> Args<'a> {
    fn only(&self, allowed: &[&str]) -> Result<(), ErrorData> {
        match self.map.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(ErrorData::invalid_params(
                format!(
                    "{}: unknown argument `{k}` (expected {})",
                    self.tool,
                    allowed.join(", ")
                ),
                Some(json!({"field": k})),
            )),
            None => Ok(()),
        }
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn string(&self, key: &str) -> Result<Option<String>, ErrorData> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(wrong(self.tool, key, "a string")),
        }
    }

    /// A string kept even when empty (`query`: `""` means "filters only").
    fn raw_string(&self, key: &str) -> Result<String, ErrorData> {
        match self.get(key) {
            None => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(wrong(self.tool, key, "a string")),
        }
    }

    /// A whole number, or digits in a string. A negative or huge whole
    /// number is a value out of range (an `isError` later, not a type error).
    fn integer(&self, key: &str) -> Result<Option<Int>, ErrorData> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => {
                if let Some(u) = n.as_u64() {
                    return Ok(Some(Int::Ok(u)));
                }
                match n.as_f64() {
                    Some(f) if f.fract() == 0.0 => Ok(Some(Int::OutOfRange(n.to_string()))),
                    _ => Err(wrong(self.tool, key, "a whole number")),
                }
            }
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => {
                let t = s.trim();
                let digits = t.strip_prefix('-').unwrap_or(t);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(wrong(self.tool, key, "a whole number (digits)"));
                }
                Ok(Some(
                    t.parse::<u64>()
                        .map_or_else(|_| Int::OutOfRange(t.to_string()), Int::Ok),
                ))
            }
            Some(_) => Err(wrong(self.tool, key, "a whole number")),
        }
    }

    fn boolean(&self, key: &str) -> Result<bool, ErrorData> {
        match self.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::String(s)) if s.is_empty() => Ok(false),
            Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
            Some(_) => Err(wrong(self.tool, key, "true or false")),
        }
    }

    fn strings(&self, key: &str) -> Result<Vec<String>, ErrorData> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(wrong(self.tool, key, "a list of strings")),
                })
                .collect(),
            Some(_) => Err(wrong(self.tool, key, "a list of strings")),
        }
    }

    fn nested(&self, key: &str) -> Result<Option<Args<'a>>, ErrorData> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(Args {
                tool: self.tool,
                map: m,
            })),
            Some(_) => Err(wrong(self.tool, key, "an object")),
        }
    }
}

/// A whole-number argument: in `u64` range, or out of it (negative, huge)
/// with the text given, for the message.
enum Int {
    Ok(u64),
    OutOfRange(String),
}

/// Checks `v` against `0..=max`; `what` names the limit in the message
/// (`maxResults 1001 is over the limit of 1000`).
fn in_range(name: &str, v: Option<Int>, default: u64, max: u64, what: &str) -> Result<u64, Error> {
    match v {
        None => Ok(default),
        Some(Int::Ok(n)) if n <= max => Ok(n),
        Some(Int::Ok(n)) => Err(limit(format!("{name} {n} {what}"))),
        Some(Int::OutOfRange(t)) => Err(limit(format!("{name} {t} is outside 0–{max}"))),
    }
}

/// The choice named `given` (any case), if given. Errors: a name that is
/// none of `T`'s values is `invalid_argument` naming the argument.
fn named<T: Choice>(arg: &str, given: Option<&str>) -> Result<Option<T>, Error> {
    given
        .map(|s| {
            T::parse(s).ok_or_else(|| limit(format!("{arg} {s:?} is not one of {}", T::names())))
        })
        .transpose()
}

/// A value outside a documented limit or enum: an `isError` result.
fn limit(msg: String) -> Error {
    Error::new(Reason::InvalidArgument, msg)
}

/// The `isError` result for a typed error: `structuredContent.error =
/// {code, message, data: {reason, retryable, recovery: {hint}}}`, and the
/// same JSON as text.
pub fn error_result(e: &Error) -> CallToolResult {
    let mut data = json!({
        "reason": e.reason.as_str(),
        "retryable": e.reason.retryable(),
        "recovery": {"hint": e.hint()},
    });
    if let Some(s) = e.retry_after {
        data["retryAfter"] = s.into();
    }
    let body = json!({"error": {"code": e.reason.mcp_code(), "message": e.message, "data": data}});
    let mut r = CallToolResult::error(vec![ContentBlock::text(body.to_string())]);
    r.structured_content = Some(body);
    r
}

/// Drops `null` members so outputs match their schemas (absent = unknown).
fn strip_nulls(v: Value) -> Value {
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

fn success(structured: Value, text: String) -> CallToolResult {
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(strip_nulls(structured));
    r
}

/// What a tool call produced: a result (success or `isError`), or a
/// JSON-RPC error for arguments of the wrong type.
pub type Outcome = Result<CallToolResult, ErrorData>;

fn finish<T>(r: Result<T, Error>, ok: impl FnOnce(T) -> CallToolResult) -> CallToolResult {
    match r {
        Ok(v) => ok(v),
        Err(e) => error_result(&e),
    }
}

/// `pubmed_spell_check`.
pub async fn spell(client: &Client, map: &JsonObject) -> Outcome {
    let a = Args { tool: SPELL, map };
    a.only(&["query"])?;
    let query = a.raw_string("query")?;
    Ok(finish(spell::spell(client, &query).await, |o| {
        let text = if o.has_suggestion {
            format!("Did you mean: **{}**", o.corrected)
        } else {
            "No spelling correction suggested.".to_string()
        };
        success(
            json!({"original": o.original, "corrected": o.corrected, "hasSuggestion": o.has_suggestion}),
            text,
        )
    }))
}

/// Builds the search request from MCP arguments. `Err(Ok(e))` is a typed
/// (`isError`) failure, `Err(Err(_))` a JSON-RPC error.
fn search_request(map: &JsonObject) -> Result<Result<SearchRequest, Error>, ErrorData> {
    let a = Args { tool: SEARCH, map };
    a.only(&[
        "query",
        "maxResults",
        "offset",
        "sort",
        "dateRange",
        "publicationTypes",
        "author",
        "journal",
        "meshTerms",
        "language",
        "hasAbstract",
        "freeFullText",
        "species",
        "summaryCount",
    ])?;
    let max_results = a.integer("maxResults")?;
    let offset = a.integer("offset")?;
    let summary_count = a.integer("summaryCount")?;
    let sort = a.string("sort")?;
    let species = a.string("species")?;
    let (mut min, mut max, mut date_type) = (None, None, None);
    if let Some(d) = a.nested("dateRange")? {
        d.only(&["minDate", "maxDate", "dateType"])?;
        min = d.string("minDate")?;
        max = d.string("maxDate")?;
        date_type = d.string("dateType")?;
    }
    let req = SearchRequest {
        query: a.raw_string("query")?,
        field: None,
        filters: Filters {
            publication_types: a.strings("publicationTypes")?,
            author: a.string("author")?,
            journal: a.string("journal")?,
            mesh_terms: a.strings("meshTerms")?,
            language: a.string("language")?,
            has_abstract: a.boolean("hasAbstract")?,
            free_full_text: a.boolean("freeFullText")?,
            species: None,
        },
        dates: DateRequest {
            min,
            max,
            datetype: DateType::Pdat,
            reldate: None,
        },
        retmax: 0,
        retstart: 0,
        sort: None,
        detail: Detail::Ids,
        summary_limit: None,
        spell: search::SpellMode::Off,
    };
    let checked = (|| {
        let mut req = req;
        let max_results = in_range(
            "maxResults",
            max_results,
            u64::from(search::DEFAULT_RETMAX),
            MAX_RESULTS,
            &format!("is over the limit of {MAX_RESULTS}"),
        )?;
        let offset = in_range(
            "offset",
            offset,
            0,
            u64::from(search::MAX_RETSTART),
            "is past PubMed's limit: only the first 9,999 records of a query are served (offset ≤ 9998)",
        )?;
        let summary_count = in_range(
            "summaryCount",
            summary_count,
            0,
            MAX_SUMMARIES,
            &format!("is over the limit of {MAX_SUMMARIES}"),
        )?;
        req.detail = if summary_count > 0 {
            Detail::Full
        } else {
            Detail::Ids
        };
        req.summary_limit = Some(summary_count as usize);
        req.retmax = max_results as u32;
        req.retstart = offset as u32;
        req.sort = named::<Sort>("sort", sort.as_deref())?;
        req.filters.species = named::<Species>("species", species.as_deref())?;
        req.dates.datetype =
            named::<DateType>("dateType", date_type.as_deref())?.unwrap_or_default();
        Ok(req)
    })();
    Ok(checked)
}

/// The MCP view of a search outcome (cli.md field mapping).
pub fn search_output(o: &SearchOutcome) -> Value {
    let notice: Vec<&str> = o.warnings.iter().map(|w| w.message.as_str()).collect();
    let mut v = json!({
        "totalCount": o.count,
        "offset": o.retstart,
        "maxResults": o.retmax,
        "pmids": o.pmids,
        "effectiveQuery": o.effective_query,
        "queryTranslation": o.query_translation,
        "searchUrl": o.search_url,
        "appliedFilters": o.applied_filters,
        "summaries": o.summaries,
        "missing": o.missing,
    });
    if !notice.is_empty() {
        v["notice"] = notice.join("\n").into();
    }
    v
}

fn search_text(o: &SearchOutcome) -> String {
    let mut t = format!("**{} results** for `{}`", o.count, o.effective_query);
    if !o.pmids.is_empty() {
        t.push_str(&format!(
            " (PMIDs {}–{} shown)",
            o.retstart + 1,
            o.retstart as usize + o.pmids.len()
        ));
    }
    for s in &o.summaries {
        let mark = if s.retracted { " **RETRACTED**" } else { "" };
        t.push_str(&format!(
            "\n- {} — {}{} ({}, {})",
            s.pmid,
            s.title,
            mark,
            s.journal,
            s.pub_date.as_deref().unwrap_or(&s.pub_date_text)
        ));
    }
    if !o.summaries.is_empty() && o.summaries.len() < o.pmids.len() {
        t.push_str(&format!(
            "\n- … and {} more PMIDs",
            o.pmids.len() - o.summaries.len()
        ));
    } else if o.summaries.is_empty() && !o.pmids.is_empty() {
        t.push_str(&format!("\n\nPMIDs: {}", o.pmids.join(", ")));
    }
    for w in &o.warnings {
        t.push_str(&format!("\n\n> {}", w.message));
    }
    t
}

/// `pubmed_search_articles`.
pub async fn search(client: &Client, map: &JsonObject) -> Outcome {
    let req = match search_request(map)? {
        Ok(r) => r,
        Err(e) => return Ok(error_result(&e)),
    };
    let today = search::today_utc();
    Ok(finish(search::search(client, &req, today).await, |o| {
        success(search_output(&o), search_text(&o))
    }))
}

/// The MCP view of convert records (cli.md field mapping).
pub fn convert_output(records: &[ConvertRecord], submitted: u64, converted: u64) -> Value {
    let recs: Vec<Value> = records
        .iter()
        .map(|r| {
            json!({
                "requestedId": r.requested,
                "pmid": r.pmid,
                "pmcid": r.pmcid,
                "doi": r.doi,
                "errmsg": r.error.as_ref().map(|e| e.message.clone()),
            })
        })
        .collect();
    json!({"records": recs, "totalConverted": converted, "totalSubmitted": submitted})
}

/// `pubmed_convert_ids`.
pub async fn convert(client: &Client, map: &JsonObject) -> Outcome {
    let a = Args { tool: CONVERT, map };
    a.only(&["ids", "idType"])?;
    let ids = a.strings("ids")?;
    let id_type = a.string("idType")?;
    let checked = (|| {
        let t = named::<IdType>("idType", id_type.as_deref())?
            .ok_or_else(|| limit(format!("idType is required: {}", IdType::names())))?;
        if ids.is_empty() || ids.len() > MAX_CONVERT_IDS {
            return Err(limit(format!(
                "ids holds {} IDs; give 1 to {MAX_CONVERT_IDS}",
                ids.len()
            )));
        }
        Ok(t)
    })();
    let idtype = match checked {
        Ok(t) => t,
        Err(e) => return Ok(error_result(&e)),
    };
    Ok(finish(
        convert::convert_ids(client, &ids, Some(idtype)).await,
        |(records, totals)| {
            let mut text = format!(
                "Converted {} of {} IDs:",
                totals.converted, totals.submitted
            );
            for r in &records {
                match &r.error {
                    None => text.push_str(&format!(
                        "\n- {} → PMID {}, PMCID {}, DOI {}",
                        r.requested,
                        r.pmid.as_deref().unwrap_or("–"),
                        r.pmcid.as_deref().unwrap_or("–"),
                        r.doi.as_deref().unwrap_or("–")
                    )),
                    Some(e) => text.push_str(&format!("\n- {}: {}", r.requested, e.message)),
                }
            }
            success(
                convert_output(&records, totals.submitted, totals.converted),
                text,
            )
        },
    ))
}

fn related_tool() -> Tool {
    let input = json!({
        "type": "object",
        "properties": {
            "pmid": {"type": "string", "description": "The PubMed ID of the source article: digits (9298984; leading zeros allowed, never 0). A PMCID or DOI must be converted first with pubmed_convert_ids."},
            "kind": {"type": "string", "enum": ["similar", "cited-by", "references"], "default": "similar", "description": "similar: PubMed's similar articles, best match first; cited-by: articles that cite it; references: articles it cites. cited-by and references come from PubMed's own citation links, built from the reference lists of articles in PubMed Central: counts can be lower than in other citation indexes, and an article whose references are not in PMC has none listed."},
            "maxResults": {"type": "integer", "minimum": 1, "maximum": MAX_RELATED, "default": DEFAULT_RELATED, "description": "Linked articles to return, in NCBI's order; `total` says how many NCBI lists."}
        },
        "required": ["pmid"],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {
            "pmid": {"type": "string", "description": "The source PMID (leading zeros dropped)."},
            "kind": {"type": "string", "description": "similar, cited-by or references."},
            "total": {"type": "integer", "description": "How many linked PMIDs NCBI lists (the source itself left out), before maxResults."},
            "linked": {"type": "array", "description": "Linked articles in NCBI's order, at most maxResults.", "items": {
                "type": "object",
                "properties": {
                    "pmid": {"type": "string"},
                    "rank": {"type": "integer", "description": "1-based position in NCBI's list."},
                    "score": {"type": "integer", "description": "NCBI's similarity score, when it sends one."}
                },
                "required": ["pmid", "rank"]
            }},
            "summaries": {"type": "array", "items": summary_schema(), "description": "A summary of every linked PMID (ESummary), in the order of linked."},
            "missing": {"type": "array", "items": {"type": "object", "properties": {"pmid": {"type": "string"}, "message": {"type": "string"}}}, "description": "Linked PMIDs ESummary has no summary for."},
            "notice": {"type": "string", "description": "Present when there are no links: what that means."}
        },
        "required": ["pmid", "kind", "total", "linked", "summaries"]
    });
    Tool::new(
        RELATED,
        "Find articles linked to one PubMed article: similar articles (PubMed's \"Similar articles\", best match first), the articles that cite it (cited-by), or the articles it cites (references), each with a short summary (title, authors, journal, date, DOI, retraction status). Use it to widen a literature search from a known relevant article, or to follow its citations. One call takes one PMID; `total` says how many links NCBI lists and `maxResults` (1–100, default 20) how many are returned. cited-by and references come from PubMed's own links, built from reference lists deposited in PubMed Central: counts are often lower than in other citation indexes, and zero does not mean the article is uncited. An article with no links of the kind returns an empty list and a `notice`. Errors: `malformed_id` (pmid is not digits, or is 0), `invalid_argument` (kind or maxResults out of range), `ncbi_resource_not_found` (PubMed has no article with this PMID; check it with pubmed_search_articles, e.g. \"9298984[pmid]\"), and retryable upstream reasons (`queue_full`, `ncbi_rate_limited`, `ncbi_unreachable`, `ncbi_deadline_exceeded`, `ncbi_invalid_response`).",
        object(input),
    )
    .with_title("Find related articles")
    .with_raw_output_schema(object(or_error(output)))
    .with_annotations(annotations())
}

/// The MCP view of one related record (docs/related.md).
pub fn related_output(r: &crate::ops::related::RelatedRecord) -> Value {
    let linked: Vec<Value> = r
        .linked
        .iter()
        .map(|l| {
            let mut v = json!({"pmid": l.pmid, "rank": l.rank});
            if let Some(s) = l.score {
                v["score"] = s.into();
            }
            v
        })
        .collect();
    let summaries: Vec<&crate::ops::search::Summary> =
        r.linked.iter().filter_map(|l| l.summary.as_ref()).collect();
    let missing: Vec<Value> = r
        .linked
        .iter()
        .filter_map(|l| {
            l.missing
                .as_ref()
                .map(|m| json!({"pmid": l.pmid, "message": m}))
        })
        .collect();
    let mut v = json!({
        "pmid": r.pmid,
        "kind": r.kind,
        "total": r.total,
        "linked": linked,
        "summaries": summaries,
        "missing": missing,
    });
    if r.total == 0 {
        v["notice"] = crate::ops::related::no_links_note(r).into();
    }
    v
}

fn related_text(r: &crate::ops::related::RelatedRecord) -> String {
    let pmid = r.pmid.as_deref().unwrap_or(&r.requested);
    if r.total == 0 {
        return format!("{}.", crate::ops::related::no_links_note(r));
    }
    let mut t = format!(
        "**{} {}** for PMID {pmid} (showing {}):",
        r.total,
        match r.kind {
            crate::ops::related::LinkKind::Similar => "similar articles",
            crate::ops::related::LinkKind::CitedBy => "citing articles",
            crate::ops::related::LinkKind::References => "references",
        },
        r.linked.len()
    );
    for l in &r.linked {
        match &l.summary {
            Some(s) => {
                let mark = if s.retracted { " **RETRACTED**" } else { "" };
                t.push_str(&format!(
                    "\n{}. {} — {}{} ({}, {})",
                    l.rank,
                    l.pmid,
                    s.title,
                    mark,
                    s.journal,
                    s.pub_date.as_deref().unwrap_or(&s.pub_date_text)
                ));
            }
            None => t.push_str(&format!("\n{}. {} (no summary)", l.rank, l.pmid)),
        }
    }
    t
}

/// `pubmed_find_related`.
pub async fn related(client: &Client, map: &JsonObject) -> Outcome {
    use crate::ops::related::{self, LinkKind, RelatedRequest};
    let a = Args { tool: RELATED, map };
    a.only(&["pmid", "kind", "maxResults"])?;
    // A PMID sent as a JSON number is read as its digits.
    let pmid = match a.get("pmid") {
        Some(Value::Number(n)) if n.is_u64() => Some(n.to_string()),
        _ => a.string("pmid")?,
    };
    let kind = a.string("kind")?;
    let max = a.integer("maxResults")?;
    let checked = (|| {
        let pmid =
            pmid.ok_or_else(|| limit("pmid is required: the source article's PubMed ID".into()))?;
        let kind = match kind.as_deref() {
            None => LinkKind::Similar,
            Some(k) => LinkKind::parse(&k.replace('_', "-")).ok_or_else(|| {
                limit(format!("kind {k:?} is not similar, cited-by or references"))
            })?,
        };
        let max = in_range(
            "maxResults",
            max,
            DEFAULT_RELATED,
            MAX_RELATED,
            &format!("is over the limit of {MAX_RELATED}"),
        )?;
        if max == 0 {
            return Err(limit("maxResults must be at least 1".into()));
        }
        Ok((pmid, kind, max as usize))
    })();
    let (pmid, kind, max) = match checked {
        Ok(c) => c,
        Err(e) => return Ok(error_result(&e)),
    };
    let req = RelatedRequest {
        kind,
        retmax: Some(max),
        detail: Detail::Full,
    };
    let outcome = related::related_ids(client, std::slice::from_ref(&pmid), &req)
        .await
        .and_then(|(mut records, totals)| {
            let r = records
                .pop()
                .ok_or_else(|| Error::new(Reason::NcbiInvalidResponse, "no record came back"))?;
            match &r.error {
                None => Ok(r),
                Some(e) if e.reason == crate::ops::convert::RecordReason::NotFound => {
                    Err(Error::new(Reason::NcbiResourceNotFound, e.message.clone()))
                }
                Some(e) => Err(totals
                    .first_chunk_failure
                    .clone()
                    .unwrap_or_else(|| Error::new(Reason::NcbiUnreachable, e.message.clone()))),
            }
        });
    Ok(finish(outcome, |r| {
        success(related_output(&r), related_text(&r))
    }))
}

/// The PMIDs of a `pubmed_fetch_articles` call: strings, or whole
/// numbers as some clients send them.
fn pmid_list(a: &Args<'_>) -> Result<Vec<String>, ErrorData> {
    match a.get("pmids") {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) if n.is_u64() => Ok(n.to_string()),
                _ => Err(wrong(
                    a.tool,
                    "pmids",
                    "a list of PMIDs (strings of digits)",
                )),
            })
            .collect(),
        Some(_) => Err(wrong(
            a.tool,
            "pmids",
            "a list of PMIDs (strings of digits)",
        )),
    }
}

/// The MCP view of one record, without the parts the call left out.
fn article_output(f: &Fetched, abstracts: bool, mesh: bool, affiliations: bool) -> Value {
    let mut v = serde_json::to_value(f).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        if !abstracts {
            m.remove("abstract");
            m.remove("abstractSections");
        }
        if !mesh {
            m.remove("meshHeadings");
            m.remove("keywords");
        }
        if !affiliations {
            let drop_aff = |list: Option<&mut Value>| {
                if let Some(Value::Array(authors)) = list {
                    for a in authors {
                        if let Value::Object(a) = a {
                            a.remove("affiliations");
                        }
                    }
                }
            };
            drop_aff(m.get_mut("authors"));
            drop_aff(m.get_mut("book").and_then(|b| b.get_mut("editors")));
        }
    }
    v
}

/// The text block of a fetch result: every title, author and abstract in
/// full, so the model loses nothing the structured part holds in prose.
fn fetch_text(records: &[Fetched], abstracts: bool, mesh: bool, affiliations: bool) -> String {
    let found = records.iter().filter(|r| r.error.is_none()).count();
    let mut t = format!("Fetched {found} of {} PMIDs.", records.len());
    for (i, f) in records.iter().enumerate() {
        let (Some(r), None) = (&f.record, &f.error) else {
            let e = f.error.as_ref();
            t.push_str(&format!(
                "\n\n## {}. PMID {}: {} [{}]",
                i + 1,
                f.pmid,
                e.map_or("no record", |e| e.message.as_str()),
                e.map_or("not_found", |e| e.reason.as_str())
            ));
            continue;
        };
        t.push_str(&format!("\n\n## {}. {}", i + 1, r.title));
        if let Some(v) = &r.vernacular_title {
            t.push_str(&format!("\nOriginal title: {v}"));
        }
        if r.retracted {
            t.push_str("\n**RETRACTED ARTICLE**");
            if let Some(l) = r.retraction_link() {
                t.push_str(&format!(
                    " (retraction notice: {}{})",
                    l.source.as_deref().unwrap_or(""),
                    l.pmid
                        .as_ref()
                        .map(|p| format!(", PMID {p}"))
                        .unwrap_or_default()
                ));
            }
        } else if r.retraction_notice {
            t.push_str("\n**This record is a retraction notice.**");
        }
        t.push_str(&format!(
            "\nPMID {} · {}",
            r.pmid,
            crate::output::fetch::citation_line(r)
        ));
        if let Some(p) = &r.pmcid {
            t.push_str(&format!(" · {p}"));
        }
        if !r.authors.is_empty() {
            let names: Vec<&str> = r.authors.iter().map(|a| a.name.as_str()).collect();
            t.push_str(&format!("\nAuthors: {}", names.join(", ")));
        }
        if affiliations {
            for a in r.authors.iter().filter(|a| !a.affiliations.is_empty()) {
                t.push_str(&format!("\n- {}: {}", a.name, a.affiliations.join(" | ")));
            }
        }
        if !r.pub_types.is_empty() {
            t.push_str(&format!("\nPublication types: {}", r.pub_types.join("; ")));
        }
        if abstracts {
            if r.abstract_sections.is_empty() {
                t.push_str("\nNo abstract.");
            }
            for s in &r.abstract_sections {
                match &s.label {
                    Some(l) => t.push_str(&format!("\n{l}: {}", s.text)),
                    None => t.push_str(&format!("\n{}", s.text)),
                }
            }
        }
        if mesh && !r.mesh_headings.is_empty() {
            let m: Vec<String> = r.mesh_headings.iter().map(|m| m.medline_form()).collect();
            t.push_str(&format!("\nMeSH: {}", m.join("; ")));
        }
        if mesh && !r.keywords.is_empty() {
            t.push_str(&format!("\nKeywords: {}", r.keywords.join("; ")));
        }
        for c in r
            .comments_corrections
            .iter()
            .filter(|c| c.r#type != "Cites" && c.r#type != "RetractionIn")
        {
            t.push_str(&format!(
                "\n{}: {}{}",
                c.r#type,
                c.source.as_deref().unwrap_or(""),
                c.pmid
                    .as_ref()
                    .map(|p| format!(" (PMID {p})"))
                    .unwrap_or_default()
            ));
        }
    }
    t
}

/// `pubmed_fetch_articles`.
pub async fn fetch(client: &Client, map: &JsonObject) -> Outcome {
    let a = Args { tool: FETCH, map };
    a.only(&[
        "pmids",
        "includeAbstract",
        "includeMesh",
        "includeAffiliations",
    ])?;
    let pmids = pmid_list(&a)?;
    let abstracts = a.get("includeAbstract").is_none() || a.boolean("includeAbstract")?;
    let mesh = a.get("includeMesh").is_none() || a.boolean("includeMesh")?;
    let affiliations = a.boolean("includeAffiliations")?;
    if pmids.is_empty() || pmids.len() > MAX_FETCH_PMIDS {
        return Ok(error_result(&limit(format!(
            "pmids holds {} PMIDs; give 1 to {MAX_FETCH_PMIDS}",
            pmids.len()
        ))));
    }
    let result = fetch::fetch_pmids(client, &pmids, FetchOptions::default()).await;
    Ok(match result {
        Err(e) => error_result(&e),
        Ok((_, totals)) if totals.found == 0 && totals.first_failure.is_some() => {
            error_result(totals.first_failure.as_ref().expect("checked"))
        }
        Ok((records, _)) => {
            let articles: Vec<Value> = records
                .iter()
                .filter(|r| r.error.is_none())
                .map(|r| article_output(r, abstracts, mesh, affiliations))
                .collect();
            let not_found: Vec<&str> = records
                .iter()
                .filter(|r| {
                    r.error
                        .as_ref()
                        .is_some_and(|e| e.reason == RecordReason::NotFound)
                })
                .map(|r| r.pmid.as_str())
                .collect();
            let failed: Vec<Value> = records
                .iter()
                .filter_map(|r| {
                    let e = r
                        .error
                        .as_ref()
                        .filter(|e| e.reason != RecordReason::NotFound)?;
                    Some(json!({"pmid": r.pmid, "reason": e.reason, "message": e.message}))
                })
                .collect();
            success(
                json!({"articles": articles, "notFound": not_found, "failed": failed}),
                fetch_text(&records, abstracts, mesh, affiliations),
            )
        }
    })
}

fn cite_error(pmid: &str, reason: &str, message: &str) -> Value {
    json!({"pmid": pmid, "error": {"reason": reason, "message": message}})
}

/// `pubmed_format_citations`.
pub async fn format_citations(client: &Client, map: &JsonObject) -> Outcome {
    let a = Args { tool: CITE, map };
    a.only(&["pmids", "format", "style"])?;
    let pmids = pmid_list(&a)?;
    let format = a.string("format")?;
    let style = a.string("style")?;
    if pmids.is_empty() || pmids.len() > MAX_CITE_PMIDS {
        return Ok(error_result(&limit(format!(
            "pmids holds {} PMIDs; give 1 to {MAX_CITE_PMIDS}",
            pmids.len()
        ))));
    }
    let export = match format.as_deref() {
        Some("text") => None,
        Some("ris") => Some(Export::Ris),
        Some("bibtex") => Some(Export::Bibtex),
        Some("csl-json") => Some(Export::CslJson),
        Some(f) => {
            return Ok(error_result(&limit(format!(
                "format {f:?} is not one of ris, bibtex, csl-json, text"
            ))));
        }
        None => {
            return Ok(error_result(&limit(
                "format is required: ris, bibtex, csl-json or text".into(),
            )));
        }
    };
    let format = format.unwrap_or_default();
    let not_found = |errors: Vec<(&str, &str)>| -> Vec<String> {
        errors
            .into_iter()
            .filter(|(_, r)| *r == "not_found")
            .map(|(p, _)| p.to_string())
            .collect()
    };
    let Some(export) = export else {
        let style = match CiteStyle::bundled(style.as_deref().unwrap_or(cite::DEFAULT_STYLE)) {
            Ok(s) => s,
            Err(e) => return Ok(error_result(&e)),
        };
        return Ok(match cite::cite_pmids(client, &pmids, &style).await {
            Err(e) => error_result(&e),
            Ok((_, t)) if t.fetch.found == 0 && t.fetch.first_failure.is_some() => {
                error_result(t.fetch.first_failure.as_ref().expect("checked"))
            }
            Ok((cited, _)) => {
                let mut lines = Vec::new();
                let citations: Vec<Value> = cited
                    .iter()
                    .map(|c| match (&c.reference, &c.error) {
                        (Some(r), None) => {
                            lines.push(r.text());
                            json!({"pmid": c.pmid, "citation": r.text(), "retracted": c.retracted, "retractionNotice": c.retraction_notice})
                        }
                        (_, e) => {
                            let c2 = crate::output::cite::error_text(c);
                            lines.push(format!("[{c2}]"));
                            match e {
                                Some(e) => cite_error(&c.pmid, e.reason.as_str(), &e.message),
                                None => json!({"pmid": c.pmid}),
                            }
                        }
                    })
                    .collect();
                let nf = not_found(
                    cited
                        .iter()
                        .filter_map(|c| {
                            c.error
                                .as_ref()
                                .map(|e| (c.pmid.as_str(), e.reason.as_str()))
                        })
                        .collect(),
                );
                let mut document = lines.join("\n");
                document.push('\n');
                success(
                    json!({"format": format, "style": style.title, "citations": citations, "document": document, "notFound": nf}),
                    document,
                )
            }
        });
    };
    Ok(
        match fetch::fetch_pmids(client, &pmids, FetchOptions::default()).await {
            Err(e) => error_result(&e),
            Ok((_, totals)) if totals.found == 0 && totals.first_failure.is_some() => {
                error_result(totals.first_failure.as_ref().expect("checked"))
            }
            Ok((records, _)) => {
                let mut writer = CitationWriter::new(export, BibOptions::default());
                let mut entries = Vec::with_capacity(records.len());
                let mut citations = Vec::with_capacity(records.len());
                for f in &records {
                    let entry = match writer.entry(f) {
                        Ok(e) => e,
                        Err(e) => {
                            return Ok(error_result(&Error::new(
                                Reason::InvalidArgument,
                                format!("cannot write the {format} entry: {e}"),
                            )));
                        }
                    };
                    citations.push(match (&f.record, &f.error) {
                        (Some(r), None) => json!({"pmid": f.pmid, "citation": entry, "retracted": r.retracted, "retractionNotice": r.retraction_notice}),
                        (_, Some(e)) => {
                            let mut v = cite_error(&f.pmid, e.reason.as_str(), &e.message);
                            v["citation"] = entry.clone().into();
                            v
                        }
                        (_, None) => json!({"pmid": f.pmid, "citation": entry}),
                    });
                    entries.push(entry);
                }
                let document = CitationWriter::document(export, &entries);
                let nf = not_found(
                    records
                        .iter()
                        .filter_map(|f| {
                            f.error
                                .as_ref()
                                .map(|e| (f.pmid.as_str(), e.reason.as_str()))
                        })
                        .collect(),
                );
                success(
                    json!({"format": format, "citations": citations, "document": document, "notFound": nf}),
                    document,
                )
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(v: Value) -> JsonObject {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn lenient_arguments() {
        let m = map(
            json!({"query": "x", "maxResults": "5", "offset": null, "author": "", "hasAbstract": true, "sort": "author"}),
        );
        let r = search_request(&m).unwrap().unwrap();
        assert_eq!(r.retmax, 5);
        assert_eq!(r.retstart, 0);
        assert_eq!(r.filters.author, None);
        assert!(r.filters.has_abstract);
        assert_eq!(r.sort, Some(Sort::Author));
        assert_eq!(r.detail, Detail::Ids);
        // choices are read in any case, as on the command line
        let m = map(json!({"query": "x", "species": "Humans", "dateRange": {"dateType": "EDAT"}}));
        let r = search_request(&m).unwrap().unwrap();
        assert_eq!(r.filters.species, Some(Species::Humans));
        assert_eq!(r.dates.datetype, DateType::Edat);
    }

    #[test]
    fn wrong_types_are_json_rpc_errors() {
        for bad in [
            json!({"query": 5}),
            json!({"query": "x", "maxResults": "five"}),
            json!({"query": "x", "maxResults": 2.5}),
            json!({"query": "x", "hasAbstract": 1}),
            json!({"query": "x", "meshTerms": "Asthma"}),
            json!({"query": "x", "dateRange": "2020"}),
            json!({"query": "x", "bogus": 1}),
            json!({"query": "x", "dateRange": {"from": "2020"}}),
        ] {
            let e = search_request(&map(bad.clone())).unwrap_err();
            assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{bad}");
        }
    }

    #[test]
    fn limits_are_tool_errors() {
        for (bad, needle) in [
            (json!({"query": "x", "maxResults": 1001}), "maxResults 1001"),
            (json!({"query": "x", "offset": 9999}), "offset 9999"),
            (json!({"query": "x", "summaryCount": 51}), "summaryCount 51"),
            (json!({"query": "x", "sort": "date"}), "sort"),
            (json!({"query": "x", "species": "plants"}), "species"),
            (
                json!({"query": "x", "maxResults": -5}),
                "maxResults -5 is outside 0–1000",
            ),
            (
                json!({"query": "x", "maxResults": "-5"}),
                "maxResults -5 is outside",
            ),
            (
                json!({"query": "x", "maxResults": 1e20}),
                "maxResults 1e+20 is outside",
            ),
            (
                json!({"query": "x", "offset": "123456789012345678901234567890"}),
                "offset 123456789012345678901234567890",
            ),
        ] {
            let e = search_request(&map(bad)).unwrap().unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument);
            assert!(e.message.contains(needle), "{}", e.message);
        }
    }

    #[test]
    fn error_result_shape() {
        let r = error_result(&Error::new(Reason::BlankQuery, "blank").with_retry_after(2));
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
