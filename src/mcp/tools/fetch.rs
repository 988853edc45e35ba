//! `pubmed_fetch_articles`: the fetch operation (`pubmed fetch -f json`) as
//! an MCP tool (docs/fetch.md, docs/mcp.md). A call whose upstream failed
//! is an `isError` result by the rule that sets the CLI's exit status
//! ([`fetch::Totals::exit`]: the first failure that is not one record's), with the
//! records that did come beside it; PMIDs PubMed does not have stay in
//! `notFound`.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};

use super::{ToolSpec, errors_paragraph};
use crate::core::record::Record;
use crate::error::{Field, Reason};
use crate::mcp::reply::{BUDGET_ARG, DEFAULT_BUDGET, Failure, budget_arg, deferral, fit, success};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ops::fetch::{self, FetchOptions, Fetched, RecordReason};

/// The tool name.
pub const NAME: &str = "pubmed_fetch_articles";
/// Most PMIDs per call.
pub const MAX_PMIDS: usize = 200;

/// The declaration.
pub fn spec() -> ToolSpec {
    let description = format!(
        "Fetch full PubMed records for 1–{MAX_PMIDS} PMIDs with EFetch: title, all authors in order (group authors included, with ORCID iDs and optionally affiliations), journal, volume, issue and pages, publication date at the precision PubMed gives, DOI, PMCID, abstract with its section labels, publication types, MeSH headings, keywords, grants, errata/comments/updates, and whether the article is retracted. Use it after pubmed_search_articles to read the articles; use pubmed_format_citations to cite them. Book records (e.g. GeneReviews) come with their publisher and editors. One article per PMID PubMed has, in input order; PMIDs PubMed does not have are listed in notFound, never dropped silently. If NCBI fails for part of the call, the result is an error (below) that still carries the articles that came.\n\n{}",
        errors_paragraph(&[
            (
                Reason::MalformedId,
                "an element of pmids is not digits, or is 0; nothing is fetched",
            ),
            (
                Reason::InvalidArgument,
                "pmids is not a list of 1–200 PMIDs, or another wrong argument",
            ),
        ])
    );
    ToolSpec {
        name: NAME,
        title: "Fetch PubMed records",
        summary: "reads full records (abstract, authors, MeSH, retractions)",
        description,
        args: vec![
            Arg::ids(
                "pmids",
                1,
                MAX_PMIDS,
                format!("1–{MAX_PMIDS} PMIDs (digits, e.g. 12091962; strings or whole numbers; leading zeros allowed, never 0), one per element. One article per PMID, in this order."),
            )
            .required()
            .fills(Field::Ids),
            Arg::boolean_or(
                "includeAbstract",
                true,
                "Include the abstract (plain text and its labelled sections).",
            ),
            Arg::boolean_or("includeMesh", true, "Include MeSH headings and keywords."),
            Arg::boolean(
                "includeAffiliations",
                "Include each author's affiliations (long for large author lists).",
            ),
            budget_arg(),
        ],
        output: json!({
            "type": "object",
            "properties": {
                "articles": {"type": "array", "items": article_schema(), "description": "The records found, in input order, without null fields and without the parts the call left out."},
                "notFound": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "PMIDs PubMed has no record for (or lists as deleted); do not retry them."},
                "failed": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "pmid": {"type": "string", "description": "The PMID."},
                        "reason": {"type": "string", "description": "Why: a failed request's reason (ncbi_unreachable, ncbi_rate_limited, …) or ncbi_invalid_response for a record that could not be read."},
                        "message": {"type": "string", "description": "What happened, for people."}
                    },
                    "required": ["pmid", "reason"]
                }, "description": "PMIDs whose record NCBI did not deliver (upstream trouble; the call is then an error result)."},
                "deferred": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "PMIDs left for another call because the answer reached maxResponseCharacters (absent when all came)."},
                "continueWith": {"type": "object", "properties": {"pmids": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "pmids of the next call."}}, "description": "The arguments that change in the call returning the deferred PMIDs (pmids = deferred); the others stay as given."}
            },
            "required": ["articles", "notFound", "failed"]
        }),
    }
}

fn author_schema() -> Value {
    json!({
        "type": "object",
        "description": "One author or editor, in PubMed's order.",
        "properties": {
            "name": {"type": "string", "description": "Last name and initials (Olivero JM), or the group's name."},
            "foreName": {"type": "string", "description": "Fore name as PubMed gives it (name holds the last name and initials)."},
            "suffix": {"type": "string", "description": "Suffix (Jr, 3rd)."},
            "collective": {"type": "boolean", "description": "True for a group author (name is the group's name)."},
            "affiliations": {"type": "array", "items": {"type": "string", "description": "One affiliation."}, "description": "Affiliations (only with includeAffiliations)."},
            "orcid": {"type": "string", "description": "ORCID iD (0000-0002-4590-7461)."}
        },
        "required": ["name"]
    })
}

/// The properties of a record's `journal` or `book`.
fn source_properties() -> (Value, Value) {
    let mut journal = json!({
        "title": {"type": "string", "description": "Journal title."},
        "isoAbbreviation": {"type": "string", "description": "ISO abbreviation (J Med Imaging (Bellingham))."},
        "medlineTa": {"type": "string", "description": "NLM title abbreviation."},
        "issn": {"type": "string", "description": "The journal's ISSN."},
        "volume": {"type": "string", "description": "Volume."},
        "issue": {"type": "string", "description": "Issue."}
    });
    let mut book = json!({
        "title": {"type": "string", "description": "Book title."},
        "publisher": {"type": "string", "description": "Publisher."},
        "publisherLocation": {"type": "string", "description": "Publisher's place."},
        "edition": {"type": "string", "description": "Edition."},
        "volume": {"type": "string", "description": "Volume."},
        "volumeTitle": {"type": "string", "description": "Volume title."},
        "collectionTitle": {"type": "string", "description": "Series or collection title."},
        "isbn": {"type": "array", "items": {"type": "string", "description": "One ISBN."}, "description": "ISBNs."},
        "editors": {"type": "array", "items": author_schema(), "description": "Editors, in order."},
        "medium": {"type": "string", "description": "Medium (Internet)."},
        "reportNumber": {"type": "string", "description": "Report number."},
        "locationLabels": {"type": "array", "items": {"type": "string", "description": "One label."}, "description": "Chapter or section labels."},
        "accession": {"type": "string", "description": "Bookshelf accession (NBK1116)."},
        "beginningDate": {"type": "string", "description": "First published, ISO."},
        "endingDate": {"type": "string", "description": "Last revised, ISO."},
        "isPart": {"type": "boolean", "description": "True for a chapter or part of a book."}
    });
    let pages = json!({
        "pages": {"type": "string", "description": "Pages as PubMed writes them (113-25)."},
        "startPage": {"type": "string", "description": "First page, only when there is no `pages`."}
    });
    for target in [&mut journal, &mut book] {
        if let (Some(t), Some(p)) = (target.as_object_mut(), pages.as_object()) {
            t.extend(p.clone());
        }
    }
    (journal, book)
}

fn described_list(item: Value, description: &str) -> Value {
    json!({"type": "array", "items": item, "description": description})
}

fn article_schema() -> Value {
    let (journal, book) = source_properties();
    let text = |d: &str| json!({"type": "string", "description": d});
    json!({
        "type": "object",
        "description": "One PubMed record (EFetch), the fields of `pubmed fetch -f json` each once: an absent boolean is false, an absent list empty.",
        "properties": {
            "pmid": text("PubMed ID."),
            "title": text("Title, plain text: inline markup removed, its text kept."),
            "vernacularTitle": text("The title in the original language."),
            "titleFromVernacular": {"type": "boolean", "description": "True when `title` is the vernacular title because ArticleTitle is empty."},
            "abstractSections": described_list(json!({
                "type": "object",
                "description": "One section of the abstract.",
                "properties": {
                    "label": text("Section label as printed (BACKGROUND)."),
                    "nlmCategory": text("NLM's category (BACKGROUND, METHODS, RESULTS, CONCLUSIONS, …), when it differs from label."),
                    "text": text("Section text.")
                },
                "required": ["text"]
            }), "The abstract by section (one unlabelled section for a plain abstract)."),
            "authors": described_list(author_schema(), "Every author in order, group authors included."),
            "journal": {"type": "object", "properties": journal, "description": "The journal (absent for books)."},
            "pubDate": text("Publication date, ISO at the precision written: 1976-09-28, 2000-11 or 1990."),
            "pubDateText": text("Publication date as written: 1990 Spring, 2000 Nov-Dec."),
            "articleDate": text("Electronic publication date, ISO."),
            "doi": text("The article's DOI."),
            "pmcid": text("PMC ID (free full text in PubMed Central)."),
            "pii": text("Publisher item identifier."),
            "language": described_list(text("A language code."), "Languages (eng, fre, …)."),
            "pubTypes": described_list(text("A publication type."), "Publication types (Journal Article, Review, …)."),
            "meshHeadings": described_list(json!({
                "type": "object",
                "description": "One MeSH heading.",
                "properties": {
                    "descriptor": text("The MeSH descriptor."),
                    "major": {"type": "boolean", "description": "A major topic of the article."},
                    "qualifiers": described_list(json!({
                        "type": "object",
                        "description": "One qualifier (subheading).",
                        "properties": {"name": text("Qualifier name."), "major": {"type": "boolean", "description": "A major topic."}},
                        "required": ["name"]
                    }), "Qualifiers (subheadings).")
                },
                "required": ["descriptor"]
            }), "MeSH headings (with includeMesh)."),
            "keywords": described_list(text("A keyword."), "Author keywords (with includeMesh)."),
            "grants": described_list(json!({
                "type": "object",
                "description": "One grant.",
                "properties": {"id": text("Grant number."), "agency": text("Funding agency."), "country": text("Agency's country.")}
            }), "Grants and funding."),
            "commentsCorrections": described_list(json!({
                "type": "object",
                "description": "A link to a related record.",
                "properties": {"type": text("Link type: ErratumIn, CommentIn, RetractionIn, UpdateOf, Cites, …"), "pmid": text("The linked record's PMID."), "source": text("The linked record's citation.")},
                "required": ["type"]
            }), "Errata, comments, retractions, updates and other links."),
            "retracted": {"type": "boolean", "description": "True when the article has been retracted: do not rely on it."},
            "retractionNotice": {"type": "boolean", "description": "True when this record is itself a retraction notice."},
            "book": {"type": "object", "properties": book, "description": "The book (NCBI Bookshelf records; absent for articles)."}
        },
        "required": ["pmid", "title", "retracted"]
    })
}

/// What a call leaves in or out.
#[derive(Debug, Clone, Copy)]
struct Parts {
    abstracts: bool,
    mesh: bool,
    affiliations: bool,
}

/// One author as MCP gives it: each fact once (`name` holds the last
/// name and initials; a group is `collective`).
fn compact_author(a: &mut Value) {
    let Value::Object(a) = a else { return };
    a.remove("lastName");
    a.remove("initials");
    a.retain(|_, v| !is_default(v));
    if a.remove("collectiveName").is_some_and(|c| !c.is_null()) {
        a.insert("collective".into(), true.into());
    }
}

/// `false` and empty lists: absent in MCP (docs/mcp.md "Response budget").
fn is_default(v: &Value) -> bool {
    v == &Value::Bool(false) || v.as_array().is_some_and(Vec::is_empty)
}

fn drop_defaults(v: &mut Value) {
    if let Value::Object(m) = v {
        m.retain(|_, v| !is_default(v));
    }
}

/// A record's facts once (docs/mcp.md "Response budget"): the abstract
/// only by section (an NLM category only when it differs from the
/// label), authors by name, pages as written, no URL built from the PMID,
/// no `false`, empty list, `pubDateText` equal to `pubDate` or `medlineTa`
/// equal to `isoAbbreviation`.
fn compact(m: &mut Map<String, Value>) {
    m.remove("abstract");
    m.remove("pubmedUrl");
    m.retain(|k, v| k == "retracted" || !is_default(v));
    if m.get("pubDateText") == m.get("pubDate") {
        m.remove("pubDateText");
    }
    for h in m
        .get_mut("meshHeadings")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        drop_defaults(h);
        for q in h
            .get_mut("qualifiers")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            drop_defaults(q);
        }
    }
    for s in m
        .get_mut("abstractSections")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let same = s["nlmCategory"].as_str().map(str::to_lowercase)
            == s["label"].as_str().map(str::to_lowercase);
        if same && let Value::Object(s) = s {
            s.remove("nlmCategory");
        }
    }
    for a in m
        .get_mut("authors")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        compact_author(a);
    }
    for part in ["journal", "book"] {
        if let Some(Value::Object(j)) = m.get_mut(part) {
            j.remove("endPage");
            if j.get("medlineTa") == j.get("isoAbbreviation") {
                j.remove("medlineTa");
            }
            if j.get("pages").is_some_and(|p| !p.is_null()) {
                j.remove("startPage");
            }
            for e in j
                .get_mut("editors")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                compact_author(e);
            }
        }
    }
}

/// The MCP view of one record: the CLI's JSON with each fact once
/// ([`compact`]), without what the call left out.
fn article(f: &Fetched, parts: Parts) -> Value {
    let mut v = serde_json::to_value(f).unwrap_or(Value::Null);
    let Value::Object(m) = &mut v else {
        return v;
    };
    compact(m);
    if !parts.abstracts {
        m.remove("abstractSections");
    }
    if !parts.mesh {
        m.remove("meshHeadings");
        m.remove("keywords");
    }
    if !parts.affiliations {
        let drop_aff = |list: Option<&mut Value>| {
            for a in list.and_then(Value::as_array_mut).into_iter().flatten() {
                if let Value::Object(a) = a {
                    a.remove("affiliations");
                }
            }
        };
        drop_aff(m.get_mut("authors"));
        drop_aff(m.get_mut("book").and_then(|b| b.get_mut("editors")));
    }
    v
}

fn output(records: &[Fetched], parts: Parts) -> Map<String, Value> {
    let mut articles = Vec::new();
    let mut not_found = Vec::new();
    let mut failed = Vec::new();
    for r in records {
        match &r.outcome {
            Ok(_) => articles.push(article(r, parts)),
            Err(e) if e.reason == RecordReason::NotFound => not_found.push(r.pmid.clone()),
            Err(e) => {
                failed.push(json!({"pmid": r.pmid, "reason": e.reason, "message": e.message}))
            }
        }
    }
    let mut m = Map::new();
    m.insert("articles".into(), articles.into());
    m.insert("notFound".into(), not_found.into());
    m.insert("failed".into(), failed.into());
    m
}

/// The retraction line of a record, if any.
fn retraction(r: &Record) -> Option<String> {
    if r.retracted {
        let notice = r.retraction_link().map(|l| {
            format!(
                " (retraction notice: {}{})",
                l.source.as_deref().unwrap_or(""),
                l.pmid
                    .as_ref()
                    .map(|p| format!(", PMID {p}"))
                    .unwrap_or_default()
            )
        });
        return Some(format!(
            "**RETRACTED ARTICLE**{}",
            notice.unwrap_or_default()
        ));
    }
    r.retraction_notice
        .then(|| "**This record is a retraction notice.**".to_string())
}

/// Authors named in a record's text line before "et al.".
const AUTHORS_SHOWN: usize = 3;

/// One record in the text block, compact (docs/mcp.md "Response budget"):
/// retraction, `PMID · authors · citation · PMCID`, the abstract by
/// section and errata/comments/updates; the rest (every author, MeSH,
/// keywords, publication types, grants) only in `structuredContent`.
fn record_text(t: &mut String, r: &Record, parts: Parts) {
    let mut line = |s: String| {
        t.push('\n');
        t.push_str(&s);
    };
    if let Some(s) = retraction(r) {
        line(s);
    }
    let mut head = format!("PMID {}", r.pmid);
    if !r.authors.is_empty() {
        let shown = r.authors.len().min(AUTHORS_SHOWN);
        let names: Vec<&str> = r.authors[..shown].iter().map(|a| a.name.as_str()).collect();
        head.push_str(&format!(" · {}", names.join(", ")));
        if r.authors.len() > shown {
            head.push_str(&format!(" et al. ({} authors)", r.authors.len()));
        }
    }
    head.push_str(&format!(" · {}", crate::output::fetch::citation_line(r)));
    if let Some(p) = &r.pmcid {
        head.push_str(&format!(" · {p}"));
    }
    line(head);
    if parts.abstracts {
        for s in &r.abstract_sections {
            match &s.label {
                Some(l) => line(format!("{l}: {}", s.text)),
                None => line(s.text.clone()),
            }
        }
    }
    for c in r
        .comments_corrections
        .iter()
        .filter(|c| c.r#type != "Cites" && c.r#type != "RetractionIn")
    {
        let pmid = c.pmid.as_ref().map(|p| format!(" (PMID {p})"));
        line(format!(
            "{}: {}{}",
            c.r#type,
            c.source.as_deref().unwrap_or(""),
            pmid.unwrap_or_default()
        ));
    }
}

/// The text block: a compact summary of every record and every PMID
/// without one with its reason; the full records are `structuredContent`.
fn text(records: &[Fetched], succeeded: usize, asked: usize, parts: Parts) -> String {
    let mut t = format!(
        "Fetched {succeeded} of {}. Every author, MeSH, keywords, publication types and grants: structuredContent `articles`.",
        crate::core::text::count(asked as u64, "PMID")
    );
    for (i, f) in records.iter().enumerate() {
        match f.parsed() {
            Ok(r) => {
                t.push_str(&format!("\n\n## {}. {}", i + 1, r.title));
                record_text(&mut t, r, parts);
            }
            Err(e) => t.push_str(&format!(
                "\n\n## {}. PMID {}: {} [{}]",
                i + 1,
                f.pmid,
                e.message,
                e.reason
            )),
        }
    }
    t
}

/// Runs the tool.
pub async fn run(
    spec: &ToolSpec,
    client: &Client,
    v: &Values,
    report: &super::Reporter,
) -> CallToolResult {
    let pmids = v.strings("pmids");
    let parts = Parts {
        abstracts: v.boolean("includeAbstract"),
        mesh: v.boolean("includeMesh"),
        affiliations: v.boolean("includeAffiliations"),
    };
    let fetched = fetch::fetch_pmids_reporting(client, &pmids, FetchOptions::default(), report);
    let (records, totals) = match fetched.await {
        Ok(r) => r,
        Err(e) => return spec.failure(&e),
    };
    if let Some(e) = &totals.first_failure {
        return Failure::from_error(e, &spec.args).result(Some(output(&records, parts)));
    }
    let budget = v.integer(BUDGET_ARG).unwrap_or(DEFAULT_BUDGET);
    let (out, text) = fit(records.len(), budget as usize, |k| {
        budgeted(&records, k, parts, budget)
    });
    success(out, text, &[])
}

/// The answer holding the first `k` records, the others deferred.
fn budgeted(records: &[Fetched], k: usize, parts: Parts, budget: u64) -> (Value, String) {
    let held = &records[..k];
    let mut out = output(held, parts);
    let succeeded = held.iter().filter(|f| f.parsed().is_ok()).count();
    let mut t = text(held, succeeded, records.len(), parts);
    let deferred: Vec<String> = records[k..].iter().map(|f| f.pmid.clone()).collect();
    let (extra, note) = deferral(NAME, budget, k, &deferred, json!({"pmids": deferred}));
    out.extend(extra);
    t.push_str(&note);
    (Value::Object(out), t)
}
