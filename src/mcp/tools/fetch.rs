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
                "Include the abstract (by section).",
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
        examples,
        run: |s, c, v, r| Box::pin(run(s, c, v, r)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![json!({"pmids": ["9700097", "99999999"], "includeAffiliations": true})]
}

fn author_schema() -> Value {
    json!({
        "type": "object",
        "description": "One author or editor, in PubMed's order.",
        "properties": {
            "name": {"type": "string", "description": "Last name, comma, fore name as PubMed gives them (Olivero, Jose M); without a fore name, last name and initials (Olivero JM); or the group's name."},
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
            "abstract": described_list(json!({
                "type": "object",
                "description": "One section of the abstract.",
                "properties": {
                    "label": text("Section label as printed (BACKGROUND)."),
                    "nlmCategory": text("NLM's category (BACKGROUND, METHODS, RESULTS, CONCLUSIONS, …), when it differs from label."),
                    "text": text("Section text.")
                },
                "required": ["text"]
            }), "The abstract by section (one unlabelled section for a plain abstract); the CLI's abstractSections."),
            "authors": described_list(author_schema(), "Every author in order, group authors included."),
            "journal": {"type": "object", "properties": journal, "description": "The journal (absent for books)."},
            "pubDate": text("Publication date, ISO at the precision written: 1976-09-28, 2000-11 or 1990."),
            "pubDateText": text("Publication date as written: 1990 Spring, 2000 Nov-Dec."),
            "articleDate": text("Electronic publication date, ISO."),
            "doi": text("The article's DOI."),
            "pmcid": text("PMC ID (free full text in PubMed Central)."),
            "pii": text("Publisher item identifier."),
            "language": described_list(text("A language code."), "Languages (eng, fre, …); absent for an article means eng (English)."),
            "pubTypes": described_list(text("A publication type."), "Publication types (Journal Article, Review, …); Retracted Publication and Retraction of Publication are given by retracted and retractionNotice instead."),
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
            "retractionIn": {"type": "object", "description": "The retraction notice of a retracted article (PubMed's RetractionIn link, not repeated in commentsCorrections).", "properties": {"pmid": text("The notice's PMID."), "source": text("The notice's citation.")}},
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

/// One author as MCP gives it: each fact once. `name` is `Last, Fore`
/// when PubMed gives a fore name (the initials follow from it), else
/// PubMed's `Last Initials` or the group's name (`collective`).
fn compact_author(a: &mut Value) {
    let Value::Object(a) = a else { return };
    let last = a.remove("lastName");
    a.remove("initials");
    let fore = a.remove("foreName");
    if let (Some(Value::String(last)), Some(Value::String(fore))) = (&last, &fore) {
        a.insert("name".into(), format!("{last}, {fore}").into());
    }
    a.retain(|_, v| !is_default(v) && !v.is_null());
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

/// True when a date as written (`1967 Jul 15`, `1967 Jul`, `1967`) says
/// no more than its ISO form (`1967-07-15`): PubMed's `Year Mon Day`.
fn written_as_iso(text: &str, iso: &str) -> bool {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut p = iso.split('-');
    let (y, m, d) = (p.next(), p.next(), p.next());
    let month = m
        .and_then(|m| m.parse::<usize>().ok())
        .and_then(|m| MONTHS.get(m.wrapping_sub(1)));
    let day = d.and_then(|d| d.parse::<u8>().ok());
    let mut forms = Vec::new();
    match (y, month, day) {
        (Some(y), None, None) => forms.push(y.to_string()),
        (Some(y), Some(mo), None) => forms.push(format!("{y} {mo}")),
        (Some(y), Some(mo), Some(day)) => {
            forms.push(format!("{y} {mo} {day}"));
            forms.push(format!("{y} {mo} {day:02}"));
        }
        _ => {}
    }
    forms.iter().any(|f| f == text)
}

/// The retraction once: `retracted`/`retractionNotice` and the link as
/// `retractionIn` (which names the notice or the retracted article), not
/// the `RetractionIn` comment or the publication types that say the same.
fn retraction_once(m: &mut Map<String, Value>) {
    let links = m
        .get_mut("commentsCorrections")
        .and_then(Value::as_array_mut);
    if let Some(links) = links
        && let Some(at) = links.iter().position(|l| l["type"] == "RetractionIn")
    {
        let mut notice = links.remove(at);
        if let Value::Object(n) = &mut notice {
            n.remove("type");
        }
        if links.is_empty() {
            m.remove("commentsCorrections");
        }
        m.insert("retractionIn".into(), notice);
    }
    if let Some(Value::Array(types)) = m.get_mut("pubTypes") {
        types.retain(|t| t != "Retracted Publication" && t != "Retraction of Publication");
        if types.is_empty() {
            m.remove("pubTypes");
        }
    }
}

/// A record's facts once (docs/mcp.md "Response budget"): the abstract
/// only by section (an NLM category only when it differs from the
/// label), authors by name, pages as written, no URL built from the PMID,
/// no `false`, empty list, `pubDateText` that only spells `pubDate`
/// (`1967 Jul 15`), `medlineTa` equal to `isoAbbreviation`, or
/// publication type saying what `retracted`/`retractionNotice` says.
fn compact(m: &mut Map<String, Value>) {
    // `abstract` is the sections (the CLI's `abstractSections`), not the
    // same text again joined.
    m.remove("abstract");
    if let Some(sections) = m.remove("abstractSections") {
        m.insert("abstract".into(), sections);
    }
    m.remove("pubmedUrl");
    m.retain(|k, v| k == "retracted" || !is_default(v));
    if let (Some(text), Some(iso)) = (
        m.get("pubDateText").and_then(Value::as_str),
        m.get("pubDate").and_then(Value::as_str),
    ) && written_as_iso(text, iso)
    {
        m.remove("pubDateText");
    }
    retraction_once(m);
    // Language is required in a PubMed article record: absent there means
    // English (docs/mcp.md); a book's absent language is unknown.
    if m.contains_key("journal") && m.get("language") == Some(&serde_json::json!(["eng"])) {
        m.remove("language");
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
        .get_mut("abstract")
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
            j.retain(|_, v| !is_default(v));
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
        m.remove("abstract");
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

/// The retraction mark of a record's index line, if any.
fn retraction(r: &Record) -> Option<String> {
    if r.retracted {
        return Some("RETRACTED".to_string());
    }
    r.retraction_notice.then(|| "RETRACTION NOTICE".to_string())
}

/// One record's line of the index (docs/mcp.md "Response budget"):
/// `PMID · RETRACTED · title · first author (et al.) · journal or book
/// year · doi`. Everything else is in `structuredContent` only.
fn record_line(r: &Record) -> String {
    let mut parts = vec![format!("PMID {}", r.pmid)];
    parts.extend(retraction(r));
    parts.push(r.title.clone());
    if let Some(first) = r.authors.first() {
        let more = if r.authors.len() > 1 { " et al." } else { "" };
        parts.push(format!("{}{more}", first.name));
    }
    let source = crate::output::fetch::source_name(r);
    let year = r.date_parts.year.map(|y| y.to_string());
    let cited = [Some(source).filter(|s| !s.is_empty()), year]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    if !cited.is_empty() {
        parts.push(cited);
    }
    if let Some(d) = &r.doi {
        parts.push(format!("doi:{d}"));
    }
    parts.join(" · ")
}

/// The text block: an index of the records, one line each (and every PMID
/// without one with its reason); the records themselves are
/// `structuredContent` (docs/mcp.md "Response budget").
fn text(records: &[Fetched], succeeded: usize, asked: usize) -> String {
    let mut t = format!(
        "Fetched {succeeded} of {}, one line each; the records (abstracts, authors, MeSH, links, …): structuredContent `articles`.",
        crate::core::text::count(asked as u64, "PMID")
    );
    for (i, f) in records.iter().enumerate() {
        match f.parsed() {
            Ok(r) => t.push_str(&format!("\n{}. {}", i + 1, record_line(r))),
            Err(e) => t.push_str(&format!(
                "\n{}. PMID {}: {} [{}]",
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
    let mut t = text(held, succeeded, records.len());
    let deferred: Vec<String> = records[k..].iter().map(|f| f.pmid.clone()).collect();
    let (extra, note) = deferral(NAME, budget, k, &deferred, json!({"pmids": deferred}));
    out.extend(extra);
    t.push_str(&note);
    (Value::Object(out), t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pubDateText` is dropped only when it spells the ISO date the way
    /// PubMed writes `Year Month Day` (the dates of the EFetch captures).
    #[test]
    fn a_written_date_goes_only_when_the_iso_date_says_it_all() {
        for (text, iso) in [
            ("2001 Nov", "2001-11"),
            ("1976 Sep 28", "1976-09-28"),
            ("2012 Nov 4", "2012-11-04"),
            ("2012 Nov 04", "2012-11-04"),
            ("1990", "1990"),
        ] {
            assert!(written_as_iso(text, iso), "{text} = {iso}");
        }
        for (text, iso) in [
            ("1990 Spring", "1990"),
            ("2013 Nov-Dec", "2013-11"),
            ("2017 06", "2017-06"),
            ("1998 Dec-1999 Jan", "1998-12"),
            ("2001 Nov", "2001-12"),
        ] {
            assert!(!written_as_iso(text, iso), "{text} ≠ {iso}");
        }
    }

    /// The MCP author: `Last, Fore`, or PubMed's name without a fore name;
    /// a group keeps its name and says `collective`.
    #[test]
    fn authors_are_last_comma_fore() {
        let mut a = json!({"name": "Taddei AR", "lastName": "Taddei", "foreName": "A R", "initials": "AR", "suffix": null, "collectiveName": null, "affiliations": [], "orcid": null});
        compact_author(&mut a);
        assert_eq!(a, json!({"name": "Taddei, A R"}));
        let mut a = json!({"name": "Smith J", "lastName": "Smith", "foreName": null, "initials": "J", "collectiveName": null, "suffix": "Jr"});
        compact_author(&mut a);
        assert_eq!(a, json!({"name": "Smith J", "suffix": "Jr"}));
        let mut a = json!({"name": "ASPIRE Investigators", "lastName": null, "foreName": null, "collectiveName": "ASPIRE Investigators"});
        compact_author(&mut a);
        assert_eq!(
            a,
            json!({"name": "ASPIRE Investigators", "collective": true})
        );
    }
}
