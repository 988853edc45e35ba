//! `pubmed_search_articles`: the search operation (`pubmed search`) as an
//! MCP tool, with the same filters, dates, paging and record detail, and
//! its warnings worded for agents.

use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use super::{ToolSpec, errors_paragraph, summary_schema};
use crate::core::choice::Choice;
use crate::core::dates::{DateRequest, DateType};
use crate::core::query::{Filters, Species};
use crate::core::text::{count, thousands};
use crate::error::{Field, Reason};
use crate::mcp::reply::{
    BUDGET_ARG, DEFAULT_BUDGET, SPELL_TOOL, budget_arg, deferral, fit, success,
};
use crate::mcp::schema::{Arg, Values};
use crate::ncbi::Client;
use crate::ncbi::limits::{ESEARCH_MAX_RETSTART, ESEARCH_WINDOW};
use crate::ops::search::{
    self, Detail, SearchOutcome, SearchRequest, Sort, SpellMode, Warning, WarningKind,
};

/// The tool name.
pub const NAME: &str = "pubmed_search_articles";
/// Most PMIDs per call.
pub const MAX_RESULTS: u64 = 1000;

/// The declaration.
pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        title: "Search PubMed",
        summary: "finds PMIDs with PubMed query syntax, filters and dates (start here)",
        description: description(),
        args: args(),
        output: output_schema(),
        examples,
        run: |s, c, v, r| Box::pin(run(s, c, v, r)),
    }
}

/// The calls of [`ToolSpec::examples`].
fn examples() -> Vec<serde_json::Value> {
    vec![
        json!({"query": "hits300", "maxResults": 3, "detail": "full", "dateRange": {"minDate": "2001"}}),
        json!({"query": "hits300", "maxResults": 3, "detail": "brief", "dateRange": {"minDate": "2001"}}),
        json!({"query": "hits300", "maxResults": 3, "detail": "ids", "dateRange": {"minDate": "2001"}}),
        json!({"query": "nothing"}),
    ]
}

/// What the tool does, its rules and its error reasons.
fn description() -> String {
    let max_offset = ESEARCH_MAX_RETSTART;
    let window = thousands(ESEARCH_WINDOW);
    format!(
        "Search PubMed (NCBI ESearch, with ESummary records) and get the PMIDs of a query, with filters, dates, sorting and paging. Use it first to find literature; then read the articles with pubmed_fetch_articles (or cite them with pubmed_format_citations). Zero hits do not prove there is no literature: check the words with {SPELL_TOOL} and search again.\n\n\
Filters (publicationTypes: any of them; meshTerms: all of them; author, journal, language, hasAbstract, freeFullText, species), dateRange and reldate are ANDed to the query; a lone date bound is completed with 1000 or 3000, as NCBI ignores a lone bound. PubMed serves only the first {window} records of a query (offset 0–{max_offset}): narrow the query (e.g. by date) to reach beyond.\n\n\
Read `warnings` first: PubMed rewrites queries (queryTranslation shows what was really searched, and totalCount is for that translation); a warning says when a field tag, a phrase or a term was ignored or mapped to another concept, when a date bound was filled in, when the page was cut at record {window}, or when nothing was found. `retracted` marks a retracted article.\n\n{}",
        errors_paragraph(&[
            (
                Reason::BlankQuery,
                "the query has no search term and no filter is set"
            ),
            (
                Reason::BlankFilter,
                "a filter has no term; the message names it"
            ),
            (
                Reason::InvalidDateRange,
                "an impossible date, a start after the end, or reldate not overlapping dateRange"
            ),
            (
                Reason::InvalidArgument,
                "a wrong argument: an unknown name, a wrong type, a value out of range or not in its list, an unknown field, or a query NCBI rejects; the message names the argument"
            ),
        ])
    )
}

/// The warning kinds this tool can return: a page's, without the spell
/// pass (`spell` is off here) and `search --all`'s count check.
fn warning_kinds() -> impl Iterator<Item = WarningKind> {
    WarningKind::ALL.iter().copied().filter(|k| {
        !matches!(
            k,
            WarningKind::SpellSuggestion
                | WarningKind::SpellApplied
                | WarningKind::SpellFailed
                | WarningKind::CountMismatch
        )
    })
}

/// The arguments.
fn args() -> Vec<Arg> {
    let max_offset = u64::from(ESEARCH_MAX_RETSTART);
    vec![
        Arg::text_keep_empty(
            "query",
            "PubMed query syntax: words, \"phrases\", field tags ([ti], [tiab], [au], [mh], [majr], [pt], [ta], [dp], [la]…), AND/OR/NOT in capitals, parentheses, truncation (canc*), ranges (2020:2024[dp]). \"\" searches the filters alone.",
        )
        .required()
        .fills(Field::Query),
        Arg::text(
            "field",
            "Limit untagged terms of the query to one field (ESearch field): a tag or its long name (ti / title, tiab, au / author, mh / mesh, ta / journal, gr / grants and funding…) or an EInfo name (TITL, TIAB, MESH), any case.",
        )
        .fills(Field::SearchField),
        Arg::integer(
            "maxResults",
            0,
            MAX_RESULTS,
            Some(u64::from(search::DEFAULT_RETMAX)),
            format!("How many PMIDs to return, 0–{MAX_RESULTS} (0 = count only)."),
        )
        .fills(Field::Retmax),
        Arg::integer(
            "offset",
            0,
            max_offset,
            Some(0),
            format!("0-based index of the first PMID to return, 0–{max_offset}: PubMed serves only the first {} records of a query.", thousands(ESEARCH_WINDOW)),
        )
        .fills(Field::Retstart),
        Arg::choice_of::<Sort>(
            "sort",
            None,
            "Order of the PMIDs: relevance (best match), pub_date (newest first), author (first author), journal. Absent: PubMed's default order.",
        ),
        Arg::choice_of(
            "detail",
            Some(Detail::Full),
            "What to return per PMID: full (a complete summary for every PMID returned), brief (PMID, date, title, publication types, retraction flags), ids (PMIDs only, no summaries; fastest).",
        ),
        Arg::object(
            "dateRange",
            vec![
                Arg::text("minDate", "Earliest date: YYYY, YYYY/MM or YYYY/MM/DD (also with - or .).")
                    .fills(Field::MinDate),
                Arg::text("maxDate", "Latest date: YYYY, YYYY/MM or YYYY/MM/DD (also with - or .).")
                    .fills(Field::MaxDate),
                Arg::choice_of(
                    "dateType",
                    Some(DateType::default()),
                    "Which date the range applies to: pdat (publication), mdat (modification), edat (Entrez, when the record was added).",
                ),
            ],
            "Limit to a date range (ANDed with reldate). A lone bound is completed with 1000 or 3000.",
        ),
        Arg::integer(
            "reldate",
            0,
            u64::from(u32::MAX),
            None,
            "Only the last N days (by dateRange.dateType; 0 = no limit), ANDed with dateRange.",
        )
        .fills(Field::RelDate),
        Arg::strings(
            "publicationTypes",
            0,
            None,
            "Publication types, any of them, e.g. Review, Clinical Trial, Meta-Analysis, Randomized Controlled Trial.",
        )
        .fills(Field::PublicationType),
        Arg::text("author", "Author, e.g. \"Smith J\" or \"Smith John\".").fills(Field::Author),
        Arg::text("journal", "Journal title or NLM abbreviation, e.g. Nature, N Engl J Med.")
            .fills(Field::Journal),
        Arg::strings("meshTerms", 0, None, "MeSH headings, all of them, e.g. Asthma, Child.")
            .fills(Field::MeshTerm),
        Arg::text("language", "Language of the article, e.g. english, french.")
            .fills(Field::Language),
        Arg::boolean("hasAbstract", "Only records with an abstract."),
        Arg::boolean("freeFullText", "Only articles with free full text."),
        Arg::choice_of::<Species>(
            "species",
            None,
            "Only studies in humans or only in animals (MeSH).",
        ),
        budget_arg(),
    ]
    .into_iter()
    .chain(crate::mcp::record::arg())
    .collect()
}

/// The schema of a successful answer.
fn output_schema() -> Value {
    let warning = json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "description": format!("Machine-readable kind: {}.", warning_kinds().map(WarningKind::as_str).collect::<Vec<_>>().join(", "))},
            "message": {"type": "string", "description": "What PubMed (or this server) did to the query, in words."},
            "terms": {"type": "array", "items": {"type": "string"}, "description": "The terms concerned, when NCBI named them."}
        },
        "required": ["kind", "message"]
    });
    json!({
        "type": "object",
        "properties": {
            "totalCount": {"type": "integer", "description": "Hits of the query as PubMed translated it."},
            "offset": {"type": "integer", "description": "Index of the first PMID returned."},
            "maxResults": {"type": "integer", "description": format!("PMIDs asked for (after the cut at record {}).", thousands(ESEARCH_WINDOW))},
            "detail": {"type": "string", "description": "The detail of the summaries: full, brief or ids."},
            "pmids": {"type": "array", "items": {"type": "string"}, "description": "The PMIDs of this page, in order."},
            "effectiveQuery": {"type": "string", "description": "The query sent to ESearch: the query with the filters ANDed."},
            "queryTranslation": {"type": "string", "description": "PubMed's translation of the query: what was really searched."},
            "searchUrl": {"type": "string", "description": "The same search on the PubMed website."},
            "appliedFilters": {"type": "object", "description": "Filters as applied: publicationTypes, author, journal, meshTerms, language, hasAbstract, freeFullText, species, field, dateRange {minDate, maxDate, dateType}."},
            "summaries": {"type": "array", "items": summary_schema(), "description": "One record per PMID returned, in order (none with detail ids); a PMID ESummary did not answer is in missing instead."},
            "missing": {"type": ["array", "null"], "description": "PMIDs without a summary, with NCBI's message; null when no summaries were fetched (detail ids, maxResults 0).", "items": {"type": "object", "properties": {"pmid": {"type": "string", "description": "The PMID without a summary."}, "message": {"type": "string", "description": "NCBI's message for it."}}, "required": ["pmid", "message"]}},
            "warnings": {"type": "array", "items": warning, "description": "What PubMed or this server did to the query; read these first."},
            "notice": {"type": "string", "description": "The warnings' messages, one per line (absent when there are none)."},
            "deferred": {"type": "array", "items": {"type": "string", "description": "A PMID."}, "description": "PMIDs of this page left for another call because the answer reached maxResponseCharacters (absent when all came)."},
            "continueWith": {"type": "object", "properties": {"offset": {"type": "integer", "description": "offset of the next call."}, "maxResults": {"type": "integer", "description": "maxResults of the next call."}}, "description": "The arguments that change in the call returning the deferred PMIDs; the others stay as given."}
        },
        "required": ["totalCount", "offset", "maxResults", "pmids", "effectiveQuery", "searchUrl", "warnings"]
    })
}

/// The operation's request from checked arguments.
fn request(v: &Values) -> SearchRequest {
    let dates = v.object("dateRange");
    let retmax = v
        .integer("maxResults")
        .unwrap_or(u64::from(search::DEFAULT_RETMAX)) as u32;
    let detail = if retmax == 0 {
        Detail::Ids
    } else {
        v.choice("detail").unwrap_or_default()
    };
    SearchRequest {
        query: v.text("query").unwrap_or_default(),
        field: v.text("field"),
        filters: Filters {
            publication_types: v.strings("publicationTypes"),
            author: v.text("author"),
            journal: v.text("journal"),
            mesh_terms: v.strings("meshTerms"),
            language: v.text("language"),
            has_abstract: v.boolean("hasAbstract"),
            free_full_text: v.boolean("freeFullText"),
            species: v.choice("species"),
        },
        dates: DateRequest {
            min: dates.text("minDate"),
            max: dates.text("maxDate"),
            datetype: dates.choice("dateType").unwrap_or_default(),
            reldate: v.integer("reldate").map(|n| n as u32),
        },
        retmax,
        retstart: v.integer("offset").unwrap_or(0) as u32,
        sort: v.choice("sort"),
        detail,
        summary_limit: None,
        spell: SpellMode::Off,
    }
}

/// A warning's message in MCP terms: the kinds whose CLI text names flags
/// or commands are worded again from the outcome; the others are kept.
fn warning_message(w: &Warning, o: &SearchOutcome, req: &SearchRequest) -> String {
    match w.kind {
        WarningKind::ZeroHits => format!(
            "no records found; zero hits do not prove there is no literature: check the spelling with {SPELL_TOOL}, the field tags and the filters, then search again"
        ),
        WarningKind::RetstartPastCount => format!(
            "`offset` {} is at or past the {}: this page is empty",
            o.retstart,
            count(o.count, "hit")
        ),
        WarningKind::WindowTruncated => format!(
            "PubMed serves only the first {} records of a query: the page was cut to records {}–{ESEARCH_WINDOW} ({}); narrow the query (e.g. with dateRange or reldate) to reach the others",
            thousands(ESEARCH_WINDOW),
            o.retstart + 1,
            count(o.retmax, "PMID")
        ),
        WarningKind::DateBoundFilled => {
            let range = o
                .applied_filters
                .date_range
                .as_ref()
                .map(|d| format!(" ({} to {})", d.min_date, d.max_date))
                .unwrap_or_default();
            if req.dates.min.is_some() {
                format!(
                    "only `dateRange.minDate` was given; NCBI ignores a lone bound, so `dateRange.maxDate` 3000 was added{range}"
                )
            } else {
                format!(
                    "only `dateRange.maxDate` was given; NCBI ignores a lone bound, so `dateRange.minDate` 1000 was added{range}"
                )
            }
        }
        _ => w.message.clone(),
    }
}

/// The MCP view of a search outcome (CLI JSON ↔ MCP mapping in docs/mcp.md).
fn output(o: &SearchOutcome, req: &SearchRequest) -> Value {
    let warnings: Vec<Value> = o
        .warnings
        .iter()
        .map(|w| json!({"kind": w.kind, "message": warning_message(w, o, req), "terms": w.terms}))
        .collect();
    let notice: Vec<&str> = warnings
        .iter()
        .filter_map(|w| w["message"].as_str())
        .collect();
    let summaries: Vec<Value> = match req.detail {
        Detail::Ids => Vec::new(),
        Detail::Brief => o
            .summaries
            .iter()
            .map(|s| serde_json::to_value(s.brief()).unwrap_or_default())
            .collect(),
        Detail::Full => o
            .summaries
            .iter()
            .map(|s| serde_json::to_value(s).unwrap_or_default())
            .collect(),
    };
    // `null` when no summaries were fetched (detail ids, count only).
    let missing = serde_json::to_value(&o.missing).unwrap_or_default();
    let mut v = json!({
        "totalCount": o.count,
        "offset": o.retstart,
        "maxResults": o.retmax,
        "detail": req.detail.as_str(),
        "pmids": o.pmids,
        "effectiveQuery": o.effective_query,
        "queryTranslation": o.query_translation,
        "searchUrl": o.search_url,
        "appliedFilters": o.applied_filters,
        "summaries": summaries,
        "missing": missing,
        "warnings": warnings,
    });
    if !notice.is_empty() {
        v["notice"] = notice.join("\n").into();
    }
    v
}

/// The text block: short, but with everything the model needs when a
/// client passes only `content` on — every PMID returned, the query
/// translation, every warning, DOIs and retraction flags.
fn text(o: &SearchOutcome, out: &Value) -> String {
    let mut t = format!(
        "**{}** for `{}`",
        count(o.count, "result"),
        o.effective_query
    );
    let n = o.pmids.len();
    if n == 1 {
        t.push_str(&format!("; 1 PMID returned (record {})", o.retstart + 1));
    } else if n > 1 {
        t.push_str(&format!(
            "; PMIDs {}–{} returned ({n})",
            o.retstart + 1,
            o.retstart as usize + n
        ));
    } else if o.retmax == 0 && o.count > 0 {
        t.push_str("; count only, no PMIDs asked for");
    }
    if let Some(tr) = &o.query_translation {
        t.push_str(&format!("\nSearched as: `{tr}`"));
    }
    for w in out["warnings"].as_array().into_iter().flatten() {
        t.push_str(&format!(
            "\n> ⚠ {} [{}]",
            w["message"].as_str().unwrap_or_default(),
            w["kind"].as_str().unwrap_or_default()
        ));
    }
    let summaries = out["summaries"].as_array().cloned().unwrap_or_default();
    if summaries.is_empty() {
        if n > 0 {
            t.push_str(&format!("\n\nPMIDs: {}", o.pmids.join(", ")));
        }
        return t;
    }
    t.push('\n');
    for (i, pmid) in o.pmids.iter().enumerate() {
        let line = match summaries.iter().find(|s| s["pmid"] == pmid.as_str()) {
            Some(s) => summary_line(s),
            None => {
                let why = o
                    .missing
                    .iter()
                    .flatten()
                    .find(|m| &m.pmid == pmid)
                    .map_or("no summary", |m| m.message.as_str());
                format!("PMID {pmid} — (no summary: {why})")
            }
        };
        t.push_str(&format!("\n{}. {line}", o.retstart as usize + i + 1));
    }
    t
}

fn summary_line(s: &Value) -> String {
    let get = |k: &str| s[k].as_str().unwrap_or_default();
    let mut line = format!("PMID {} — {}", get("pmid"), get("title"));
    if let Some(a) = s["authors"].as_array().filter(|a| !a.is_empty()) {
        let first = a[0].as_str().unwrap_or_default();
        line.push_str(&format!(
            " — {first}{}",
            if a.len() > 1 { " et al." } else { "" }
        ));
    }
    let date = s["pubDate"].as_str().unwrap_or(get("pubDateText"));
    let journal = get("journal");
    match (journal.is_empty(), date.is_empty()) {
        (false, false) => line.push_str(&format!(" ({journal}, {date})")),
        (false, true) => line.push_str(&format!(" ({journal})")),
        (true, false) => line.push_str(&format!(" ({date})")),
        (true, true) => {}
    }
    if !get("doi").is_empty() {
        line.push_str(&format!(" doi:{}", get("doi")));
    }
    if !get("pmcid").is_empty() {
        line.push_str(&format!(" {}", get("pmcid")));
    }
    if s["retracted"] == true {
        line.push_str(" **RETRACTED**");
    }
    if s["retractionNotice"] == true {
        line.push_str(" **RETRACTION NOTICE**");
    }
    line
}

/// The answer holding the first `k` PMIDs of the page (with their
/// summaries), the others deferred to a call at `offset` + `k`.
fn budgeted(o: &SearchOutcome, req: &SearchRequest, k: usize, budget: u64) -> (Value, String) {
    let mut held = o.clone();
    let deferred = held.pmids.split_off(k);
    if !deferred.is_empty() {
        held.summaries.retain(|s| !deferred.contains(&s.pmid));
        if let Some(m) = held.missing.as_mut() {
            m.retain(|m| !deferred.contains(&m.pmid));
        }
    }
    let mut out = output(&held, req);
    let mut t = text(&held, &out);
    let next = json!({"offset": o.retstart as usize + k, "maxResults": deferred.len()});
    let (extra, note) = deferral(NAME, budget, k, &deferred, next);
    if let Value::Object(m) = &mut out {
        m.extend(extra);
    }
    t.push_str(&note);
    (out, t)
}

/// Runs the tool.
pub async fn run(
    spec: &ToolSpec,
    client: &Client,
    v: &Values,
    report: &super::Reporter,
) -> CallToolResult {
    let req = request(v);
    let today = search::today_utc();
    let prepared = match search::prepare(&req, today) {
        Ok(p) => p,
        Err(e) => return spec.failure(&e),
    };
    let record = match crate::mcp::record::target(v) {
        Ok(r) => r,
        Err(e) => return spec.failure(&e),
    };
    match search::search_reporting(client, &req, &prepared, today, report).await {
        Err(e) => spec.failure(&e),
        Ok(o) => {
            let url = &client.settings().eutils_url;
            let recorded = match record.map(|p| crate::mcp::record::append(&p, &o, &req, url)) {
                Some(Err(e)) => return spec.failure(&e),
                r => r.and_then(Result::ok),
            };
            let budget = v.integer(BUDGET_ARG).unwrap_or(DEFAULT_BUDGET);
            let (mut out, text) = fit(o.pmids.len(), budget as usize, |k| {
                budgeted(&o, &req, k, budget)
            });
            if let (Some(r), Value::Object(m)) = (recorded, &mut out) {
                m.insert("recorded".into(), r);
            }
            success(out, text, &["missing"])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::schema::read;

    fn req(v: Value) -> SearchRequest {
        let s = spec();
        request(&read(&s.args, v.as_object().unwrap(), NAME).unwrap())
    }

    #[test]
    fn arguments_map_onto_the_search_request() {
        let r = req(
            json!({"query": "x", "maxResults": "5", "offset": null, "author": "", "hasAbstract": true, "sort": "author", "field": "ti", "reldate": 30.0, "dateRange": {"minDate": "2020", "dateType": "edat"}}),
        );
        assert_eq!(r.retmax, 5);
        assert_eq!(r.retstart, 0);
        assert_eq!(r.filters.author, None);
        assert!(r.filters.has_abstract);
        assert_eq!(r.sort, Some(Sort::Author));
        assert_eq!(r.detail, Detail::Full);
        assert_eq!(r.field.as_deref(), Some("ti"));
        assert_eq!(r.dates.reldate, Some(30));
        assert_eq!(r.dates.min.as_deref(), Some("2020"));
        assert_eq!(r.dates.datetype, DateType::Edat);
        assert_eq!(
            req(json!({"query": "x", "detail": "ids"})).detail,
            Detail::Ids
        );
        assert_eq!(
            req(json!({"query": "x", "detail": "brief"})).detail,
            Detail::Brief
        );
        assert_eq!(
            req(json!({"query": "x", "maxResults": 0})).detail,
            Detail::Ids
        );
        assert_eq!(req(json!({"query": "x"})).retmax, 20);
    }

    #[test]
    fn summary_count_is_gone_with_a_message_that_says_what_replaced_it() {
        let s = spec();
        let e = read(
            &s.args,
            json!({"query": "x", "summaryCount": 3})
                .as_object()
                .unwrap(),
            NAME,
        )
        .unwrap_err();
        assert_eq!(e.path, "summaryCount");
        assert!(e.message.contains("replaced by `detail`"), "{}", e.message);
    }
}
