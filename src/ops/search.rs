//! `search` / `pubmed_search_articles`: ESearch + ESummary with PubMed's
//! rules, limits and warnings made visible. One core for the
//! CLI and the MCP tool.

use serde::Serialize;

use super::mesh::HeadingCheck;
use crate::core::choice::{Choice, choice, choice_traits};
use crate::core::dates::{self, DateBound, DateRange, DateRequest};
use crate::core::fields;
use crate::core::mesh::{MeshRecord, RecordKind};
use crate::core::query::{self, Filters};
use crate::core::text::{clean_markup, fold_whitespace, thousands};
use crate::error::{Error, Field, Reason, Result, Words};
use crate::ncbi::esearch::{EsearchAnswer, EsearchParams, QueryNote};
use crate::ncbi::esummary::DocSum;
use crate::ncbi::limits::{ESEARCH_MAX_RETMAX, ESEARCH_MAX_RETSTART, ESEARCH_WINDOW};
use crate::ncbi::{Client, Db};

/// Largest `retmax` when summaries are fetched.
pub const MAX_RETMAX_SUMMARIES: u32 = 1_000;
/// `retmax` when none is given.
pub const DEFAULT_RETMAX: u32 = 20;

choice! {
    /// Sort order (`--sort`, MCP `sort`).
    pub enum Sort {
        /// Best match.
        Relevance = "relevance",
        /// Publication date, newest first.
        PubDate = "pub_date",
        /// First author.
        Author = "author",
        /// Journal name.
        Journal = "journal",
    }
}

impl Sort {
    /// The ESearch `sort` value NCBI documents.
    pub fn ncbi(self) -> &'static str {
        match self {
            Sort::Relevance => "relevance",
            Sort::PubDate => "pub_date",
            Sort::Author => "Author",
            Sort::Journal => "JournalName",
        }
    }

    /// The PubMed web `sort` value, for `searchUrl`.
    fn web(self) -> Option<&'static str> {
        match self {
            Sort::Relevance => None,
            Sort::PubDate => Some("pubdate"),
            Sort::Author => Some("fauth"),
            Sort::Journal => Some("jour"),
        }
    }
}

choice! {
    /// How much to fetch per record (`--detail`).
    #[derive(Default)]
    pub enum Detail {
        /// Full ESummary records.
        #[default]
        Full = "full",
        /// PMID, date, title, publication types.
        Brief = "brief",
        /// PMIDs only; no ESummary request.
        Ids = "ids",
    }
}

/// What to do with a zero-hit search (`--spell[=suggest|apply]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SpellMode {
    /// Nothing (no `--spell`).
    #[default]
    Off,
    /// Run the spell core and report a suggestion.
    Suggest,
    /// Run it and, if it suggests something, search again with it.
    Apply,
}

/// The modes a caller names: `suggest` and `apply` (`Off` is the flag's absence).
impl Choice for SpellMode {
    const ALL: &'static [Self] = &[SpellMode::Suggest, SpellMode::Apply];

    fn as_str(self) -> &'static str {
        match self {
            SpellMode::Off => "off",
            SpellMode::Suggest => "suggest",
            SpellMode::Apply => "apply",
        }
    }
}
choice_traits!(SpellMode);

/// A search, in plain values (no CLI or MCP types).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchRequest {
    /// The query as the caller wrote it; `""` with filters = filters only.
    pub query: String,
    /// `--field`: a tag, long name or EInfo field name.
    pub field: Option<String>,
    /// Filter clauses.
    pub filters: Filters,
    /// Date limits.
    pub dates: DateRequest,
    /// `retmax` (records per page); 0 = count only.
    pub retmax: u32,
    /// `retstart` (0-based).
    pub retstart: u32,
    /// Sort order.
    pub sort: Option<Sort>,
    /// Record detail.
    pub detail: Detail,
    /// Fetch summaries for at most this many PMIDs (MCP `summaryCount`).
    pub summary_limit: Option<usize>,
    /// Spell-check a zero-hit search.
    pub spell: SpellMode,
}

choice! {
    /// What a [`Warning`] is about: its `kind` in JSON. Every kind the
    /// search and `--all` emit is here (and in README's list).
    pub enum WarningKind {
        /// PubMed mapped a term to a different concept (a MeSH heading or
        /// entry term other than the term as typed): the count is for the
        /// translated query.
        Translated = "translated",
        /// The query's parentheses or double quotes do not pair; it was
        /// searched as typed.
        UnbalancedSyntax = "unbalanced_syntax",
        /// ESearch `FieldNotFound`: PubMed ignored an unknown field tag.
        FieldNotFound = "field_not_found",
        /// ESearch `PhraseNotFound`: a term matched nothing and was left out.
        PhraseNotFound = "phrase_not_found",
        /// ESearch `QuotedPhraseNotFound`: a quoted phrase matched nothing.
        QuotedPhraseNotFound = "quoted_phrase_not_found",
        /// ESearch `PhraseIgnored`: a stopword or unsearchable term.
        PhraseIgnored = "phrase_ignored",
        /// A one-sided date range got its other bound filled in.
        DateBoundFilled = "date_bound_filled",
        /// The page was cut at the end of PubMed's window ([`ESEARCH_WINDOW`] records).
        WindowTruncated = "window_truncated",
        /// No records (zero does not prove there is no literature).
        ZeroHits = "zero_hits",
        /// `retstart` is at or past the count: an empty page.
        RetstartPastCount = "retstart_past_count",
        /// `--spell` found a correction for a zero-hit query.
        SpellSuggestion = "spell_suggestion",
        /// `--spell=apply` searched the correction instead.
        SpellApplied = "spell_applied",
        /// `--spell` could not run (ESpell failed; the search stands).
        SpellFailed = "spell_failed",
        /// A `--mesh` value is not the heading of a current MeSH
        /// descriptor (misspelled, retired, an entry term, a supplementary
        /// concept): searched as typed, with the closest record if MeSH
        /// names one.
        MeshNotDescriptor = "mesh_not_descriptor",
        /// The MeSH check of `--mesh` could not run (`db=mesh` failed);
        /// the values were searched as typed.
        MeshCheckFailed = "mesh_check_failed",
        /// Any other ESearch note, quoted.
        NcbiMessage = "ncbi_message",
        /// `--all`: the ranges' counts or the PMIDs written do not add up to
        /// the query's count.
        CountMismatch = "count_mismatch",
    }
}

/// A warning about what PubMed (or this tool) did to the query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// What the warning is about.
    pub kind: WarningKind,
    /// A sentence for people.
    pub message: String,
    /// The terms concerned, when NCBI named them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<Vec<String>>,
}

impl Warning {
    /// A warning without terms.
    pub fn new(kind: WarningKind, message: impl Into<String>) -> Warning {
        Warning {
            kind,
            message: message.into(),
            terms: None,
        }
    }
}

/// A PMID ESummary answered with an error, or not at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Missing {
    /// The PMID.
    pub pmid: String,
    /// NCBI's text.
    pub message: String,
}

/// One record: ESummary fields, cleaned.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// PMID.
    pub pmid: String,
    /// Title, markup removed, entities decoded, never truncated.
    pub title: String,
    /// All authors in order, collective names included.
    pub authors: Vec<String>,
    /// ESummary `Source` (journal abbreviation).
    pub journal: String,
    /// `FullJournalName`.
    pub full_journal_name: String,
    /// `PubDate` as ISO at its precision (`2017-08-15`, `1968-08`, `2012`).
    pub pub_date: Option<String>,
    /// `PubDate` verbatim.
    pub pub_date_text: String,
    /// DOI: ArticleId `doi`, else the `doi:` part of `ELocationID`.
    pub doi: Option<String>,
    /// PMCID from ArticleId `pmc`.
    pub pmcid: Option<String>,
    /// Publication types.
    pub pub_types: Vec<String>,
    /// A publication type is `Retracted Publication`.
    pub retracted: bool,
    /// A publication type is `Retraction of Publication`.
    pub retraction_notice: bool,
    /// `https://pubmed.ncbi.nlm.nih.gov/PMID/`.
    pub pubmed_url: String,
}

/// The `brief` view of a record: [`Summary`]'s fields of the same names
/// (docs/search.md "Summaries"), serialized as they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Brief<'a> {
    pub(crate) pmid: &'a str,
    pub(crate) pub_date: &'a Option<String>,
    pub(crate) pub_date_text: &'a str,
    pub(crate) title: &'a str,
    pub(crate) pub_types: &'a [String],
    pub(crate) retracted: bool,
    pub(crate) retraction_notice: bool,
}

impl Summary {
    /// Builds a record from an ESummary document: padding folded, markup
    /// removed, DOI from ArticleIds or `ELocationID`, PMCID from `pmc`.
    pub fn from_docsum(d: &DocSum) -> Summary {
        let id = |t: &str| {
            d.article_ids
                .iter()
                .find(|(k, v)| k.eq_ignore_ascii_case(t) && !v.is_empty())
                .map(|(_, v)| v.clone())
        };
        let doi = id("doi").or_else(|| doi_from_elocation(&d.elocation_id));
        let has_type = |t: &str| d.pub_types.iter().any(|p| p.eq_ignore_ascii_case(t));
        Summary {
            pmid: d.uid.clone(),
            title: fold_whitespace(&clean_markup(&d.title)),
            authors: d.authors.clone(),
            journal: d.source.clone(),
            full_journal_name: d.full_journal_name.clone(),
            pub_date: dates::pubdate_iso(&d.pub_date),
            pub_date_text: d.pub_date.clone(),
            doi,
            pmcid: id("pmc"),
            pub_types: d.pub_types.clone(),
            retracted: has_type("Retracted Publication"),
            retraction_notice: has_type("Retraction of Publication"),
            pubmed_url: format!("https://pubmed.ncbi.nlm.nih.gov/{}/", d.uid),
        }
    }

    /// The brief view.
    pub(crate) fn brief(&self) -> Brief<'_> {
        Brief {
            pmid: &self.pmid,
            pub_date: &self.pub_date,
            pub_date_text: &self.pub_date_text,
            title: &self.title,
            pub_types: &self.pub_types,
            retracted: self.retracted,
            retraction_notice: self.retraction_notice,
        }
    }
}

/// The `doi:` part of an ESummary `ELocationID` (`pii: S1. doi: 10.1/x`);
/// never a `pii:`.
fn doi_from_elocation(e: &str) -> Option<String> {
    let at = e.to_ascii_lowercase().find("doi:")? + 4;
    let token = e[at..].split_whitespace().next()?.trim_end_matches('.');
    token.starts_with("10.").then(|| token.to_string())
}

/// The date part of `appliedFilters`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppliedDates {
    /// `mindate` sent.
    pub min_date: String,
    /// `maxdate` sent.
    pub max_date: String,
    /// `datetype` sent.
    pub date_type: String,
}

/// Every filter that shaped the search, as applied.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppliedFilters {
    /// Filter clauses.
    #[serde(flatten)]
    pub filters: Filters,
    /// ESearch `field`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Date range, when one applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_range: Option<AppliedDates>,
}

/// The spell suggestion for a zero-hit search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellNote {
    /// The query spell-checked.
    pub original: String,
    /// The suggestion.
    pub corrected: String,
    /// Whether it differs.
    pub has_suggestion: bool,
    /// Whether the search was run again with it.
    pub applied: bool,
}

/// The result, as printed by `-f json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchOutcome {
    /// The query as the caller wrote it.
    pub query: String,
    /// The ESearch `term` sent.
    pub effective_query: String,
    /// PubMed's `QueryTranslation`: what was really searched.
    pub query_translation: Option<String>,
    /// Hits of the translated query.
    pub count: u64,
    /// `retstart` sent.
    pub retstart: u32,
    /// `retmax` sent (after the cut at [`ESEARCH_WINDOW`]).
    pub retmax: u32,
    /// PMIDs of the page, in ESearch order.
    pub pmids: Vec<String>,
    /// Records, in ESearch order (empty for `--detail ids`).
    pub summaries: Vec<Summary>,
    /// PMIDs without a summary, with NCBI's text; `None` when no summaries
    /// were fetched (`--detail ids`, a count, no hits), so none can be
    /// missing; `Some([])` when they were and none is.
    pub missing: Option<Vec<Missing>>,
    /// What PubMed or this tool did to the query.
    pub warnings: Vec<Warning>,
    /// Filters as applied.
    pub applied_filters: AppliedFilters,
    /// The same search on the PubMed website.
    pub search_url: String,
    /// The spell suggestion, when `--spell` ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spell: Option<SpellNote>,
    /// The summaries that came from the local cache (docs/cache.md);
    /// absent when none did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<crate::cache::CacheUse>,
}

/// A request checked and turned into ESearch parameters; no I/O happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// ESearch parameters.
    pub params: EsearchParams,
    /// The normalized user query (what `--spell` checks).
    pub normalized_query: String,
    /// Resolved dates.
    pub dates: DateRange,
    /// Warnings known before any request.
    pub warnings: Vec<Warning>,
    /// Filters as applied.
    pub applied: AppliedFilters,
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(Reason::InvalidArgument, msg)
}

/// Checks a request and builds the ESearch parameters (no request):
/// query clean-up and blank check, filters, dates, field, limits.
///
/// Errors: `blank_query`, `blank_filter`, `invalid_date_range`, and
/// `invalid_argument` for an unknown field, `retstart` over 9,998 or
/// `retmax` over its limit.
pub fn prepare(req: &SearchRequest, today: DateBound) -> Result<Prepared> {
    let normalized = clean_query(&req.query)?;
    let filters = req.filters.clone().without_empty();
    let term = query::compose(&normalized, &filters)?;
    let dates = dates::resolve(&req.dates, today)?;
    let field = search_field(req.field.as_deref())?;
    check_page(req)?;
    let mut warnings: Vec<Warning> = unbalanced_warning(&normalized).into_iter().collect();
    if let Some(note) = &dates.filled {
        warnings.push(Warning::new(WarningKind::DateBoundFilled, note.clone()));
    }
    let (retmax, cut) = within_window(req.retstart, req.retmax);
    warnings.extend(cut);
    let applied = AppliedFilters {
        filters,
        field: field.clone(),
        date_range: dates.bounds.map(|(a, b)| AppliedDates {
            min_date: a.to_string(),
            max_date: b.to_string(),
            date_type: dates.datetype.as_str().into(),
        }),
    };
    Ok(Prepared {
        params: EsearchParams {
            term,
            field,
            retstart: req.retstart,
            retmax,
            sort: req.sort.map(|s| s.ncbi().to_string()),
            dates: dates.bounds.map(|(a, b)| (a.to_string(), b.to_string())),
            datetype: Some(dates.datetype.as_str().into()),
        },
        normalized_query: normalized,
        dates,
        warnings,
        applied,
    })
}

/// The query as sent: length-checked and normalized. Only an exactly empty
/// query means "filters only"; one that is blank after clean-up
/// (`<b></b>`, `&nbsp;`, `[ti]`) is `blank_query`.
fn clean_query(q: &str) -> Result<String> {
    query::check_length(q)?;
    if q.is_empty() {
        return Ok(String::new());
    }
    let normalized = query::normalize(q);
    if query::is_blank(&normalized) {
        return Err(query::blank_query());
    }
    Ok(normalized)
}

/// `--field` as ESearch's `field` name; a blank one is no field, an
/// unknown one `invalid_argument` listing the accepted names.
fn search_field(given: Option<&str>) -> Result<Option<String>> {
    let Some(f) = given.filter(|f| !f.trim().is_empty()) else {
        return Ok(None);
    };
    fields::resolve_search_field(f).map(Some).ok_or_else(|| {
        invalid(format!(
            "unknown search field {f:?}; use one of: {}",
            fields::accepted_search_fields()
        ))
        .with_field(Field::SearchField)
    })
}

/// The page limits, before any request: `retstart` within PubMed's
/// window ([`ESEARCH_WINDOW`] records), `retmax` within a page
/// ([`ESEARCH_MAX_RETMAX`] PMIDs, [`MAX_RETMAX_SUMMARIES`] with summaries). Errors: `invalid_argument` on the field at fault.
fn check_page(req: &SearchRequest) -> Result<()> {
    if req.retstart > ESEARCH_MAX_RETSTART {
        return Err(Error::about(
            Reason::InvalidArgument,
            Field::Retstart,
            Words::new()
                .field(Field::Retstart, "retstart")
                .text(format!(
                    " {} is past PubMed's limit: only the first {} records of a query are served (",
                    req.retstart,
                    thousands(ESEARCH_WINDOW)
                ))
                .field(Field::Retstart, "retstart")
                .text(format!(" ≤ {ESEARCH_MAX_RETSTART})"))
                .cli_only("; narrow the query, e.g. by date, or use --all"),
        ));
    }
    let limit = if req.detail == Detail::Ids {
        ESEARCH_MAX_RETMAX
    } else {
        MAX_RETMAX_SUMMARIES
    };
    if req.retmax > limit {
        let words = Words::new()
            .field(Field::Retmax, "retmax")
            .text(format!(" {} is over the limit of {limit} ", req.retmax));
        return Err(Error::about(
            Reason::InvalidArgument,
            Field::Retmax,
            if req.detail == Detail::Ids {
                words.text("PMIDs per page")
            } else {
                words
                    .text("records with summaries per page")
                    .cli_only(format!(
                        " (use --detail ids for up to {} PMIDs)",
                        thousands(ESEARCH_MAX_RETMAX)
                    ))
            },
        ));
    }
    Ok(())
}

/// `retmax` cut so the page ends at the window's last record
/// ([`ESEARCH_WINDOW`]: PubMed serves no more of a query), with the
/// `window_truncated` warning when it was cut.
fn within_window(retstart: u32, retmax: u32) -> (u32, Option<Warning>) {
    if retstart + retmax <= ESEARCH_WINDOW {
        return (retmax, None);
    }
    let retmax = ESEARCH_WINDOW - retstart;
    let warning = Warning::new(
        WarningKind::WindowTruncated,
        format!(
            "PubMed serves only the first {} records of a query: the page was cut to records {}–{ESEARCH_WINDOW} ({}); `pubmed search --all` returns every PMID of the query",
            thousands(ESEARCH_WINDOW),
            retstart + 1,
            crate::core::text::count(retmax, "record")
        ),
    );
    (retmax, Some(warning))
}

/// Today's date (UTC), for `--reldate`.
pub fn today_utc() -> DateBound {
    let d = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date();
    DateBound::ymd(i32::from(d.year()), d.month() as u8, d.day() as u8)
}

/// The note that comes with zero hits.
pub fn zero_hits_warning() -> Warning {
    Warning::new(
        WarningKind::ZeroHits,
        "no records found; zero hits do not prove there is no literature: check the spelling (pubmed spell or --spell; for agents, pubmed_spell_check), the field tags and the filters",
    )
}

/// The `translated` warning, when PubMed mapped a term of the query to a
/// different concept (a MeSH heading or entry term other than the term as
/// typed): each `from → to` named, and the count said to be the
/// translated query's.
pub fn translated_warning(translations: &[(String, String)]) -> Option<Warning> {
    let mappings = query::concept_mappings(translations);
    if mappings.is_empty() {
        return None;
    }
    let terms: Vec<String> = mappings.iter().map(ToString::to_string).collect();
    Some(Warning {
        kind: WarningKind::Translated,
        message: format!(
            "PubMed searched a different concept than typed: {}; the count is for the translated query, not for the words as typed",
            terms.join("; ")
        ),
        terms: Some(terms),
    })
}

/// The `unbalanced_syntax` warning for a query whose parentheses or double
/// quotes do not pair; it is searched as typed.
pub fn unbalanced_warning(query: &str) -> Option<Warning> {
    query::unbalanced(query).map(|what| {
        Warning::new(
            WarningKind::UnbalancedSyntax,
            format!(
                "the query's parentheses or double quotes do not pair ({what}); it is searched as typed, and PubMed may group it differently than meant"
            ),
        )
    })
}

/// Warnings for NCBI's `<ErrorList>`/`<WarningList>` notes, one per kind
/// with the terms named.
pub fn note_warnings(notes: &[QueryNote]) -> Vec<Warning> {
    let mut kinds: Vec<&str> = Vec::new();
    for n in notes {
        if !kinds.contains(&n.kind.as_str()) {
            kinds.push(&n.kind);
        }
    }
    kinds
        .into_iter()
        .filter_map(|kind| {
            let terms: Vec<String> = notes
                .iter()
                .filter(|n| n.kind == kind)
                .map(|n| n.text.clone())
                .collect();
            let list = terms.join(", ");
            let (k, message) = match kind {
                "FieldNotFound" => (
                    WarningKind::FieldNotFound,
                    format!("PubMed does not know the field {list}: the tag was ignored and the terms were searched in all fields"),
                ),
                "PhraseNotFound" => (
                    WarningKind::PhraseNotFound,
                    format!("PubMed found nothing for {list} and left it out of the search"),
                ),
                "QuotedPhraseNotFound" => (
                    WarningKind::QuotedPhraseNotFound,
                    format!("PubMed found no record with the quoted phrase {list}; it was left out of the search"),
                ),
                "PhraseIgnored" => (
                    WarningKind::PhraseIgnored,
                    format!("PubMed ignored {list} (a stopword or a term it does not search)"),
                ),
                "OutputMessage" if terms.iter().all(|t| t.eq_ignore_ascii_case("No items found.")) => {
                    return None;
                }
                _ => (WarningKind::NcbiMessage, format!("NCBI said: {list}")),
            };
            Some(Warning {
                kind: k,
                message,
                terms: Some(terms),
            })
        })
        .collect()
}

fn search_url(p: &Prepared, sort: Option<Sort>) -> String {
    let mut term = p.params.term.clone();
    if let Some((a, b)) = p.dates.bounds {
        let tag = match p.dates.datetype {
            dates::DateType::Pdat => "Date - Publication",
            dates::DateType::Edat => "Date - Entry",
            dates::DateType::Mdat => "Date - Modification",
        };
        term = format!("({term}) AND (\"{a}\"[{tag}] : \"{b}\"[{tag}])");
    }
    let mut url = url::Url::parse("https://pubmed.ncbi.nlm.nih.gov/").expect("static URL");
    url.query_pairs_mut().append_pair("term", &term);
    if let Some(s) = sort.and_then(Sort::web) {
        url.query_pairs_mut().append_pair("sort", s);
    }
    url.to_string()
}

/// Turns an ESearch answer and the prepared request into an outcome with
/// warnings, before summaries.
fn outcome_from(req: &SearchRequest, p: &Prepared, a: EsearchAnswer) -> SearchOutcome {
    let mut warnings = translated_warning(&a.translations)
        .into_iter()
        .collect::<Vec<_>>();
    warnings.extend(p.warnings.iter().cloned());
    warnings.extend(note_warnings(&a.notes));
    if a.count == 0 {
        warnings.push(zero_hits_warning());
    } else if u64::from(req.retstart) >= a.count {
        warnings.push(Warning::new(
            WarningKind::RetstartPastCount,
            format!(
                "retstart {} is at or past the {} hits: this page is empty",
                req.retstart, a.count
            ),
        ));
    }
    SearchOutcome {
        query: req.query.clone(),
        effective_query: p.params.term.clone(),
        query_translation: a.query_translation,
        count: a.count,
        retstart: p.params.retstart,
        retmax: p.params.retmax,
        pmids: a.ids,
        summaries: Vec::new(),
        missing: None,
        warnings,
        applied_filters: p.applied.clone(),
        search_url: search_url(p, req.sort),
        spell: None,
        cache: None,
    }
}

/// Runs one search: ESearch, then ESummary for the page unless
/// `detail` is `Ids`, then `--spell` on zero hits.
///
/// Errors: the validation errors of [`prepare`] before any request; client
/// errors (an ESearch `<ERROR>` is an error, never zero hits).
pub async fn search(
    client: &Client,
    req: &SearchRequest,
    today: DateBound,
) -> Result<SearchOutcome> {
    let prepared = prepare(req, today)?;
    search_prepared(client, req, &prepared, today).await
}

/// [`search`] for a request already checked: `prepared` is what
/// [`prepare`] returned for `req` and `today` (the CLI checks before it
/// reads the configuration, and does not check twice).
///
/// Errors: client errors.
pub async fn search_prepared(
    client: &Client,
    req: &SearchRequest,
    prepared: &Prepared,
    today: DateBound,
) -> Result<SearchOutcome> {
    search_reporting(client, req, prepared, today, &|_| {}).await
}

/// [`search_prepared`], calling `progress` as each step is answered (MCP
/// progress notifications): once ESearch has answered (`done` 0 of the
/// summaries to come) and once the summaries are in (`done` = `total`).
/// `requests` counts this call's HTTP requests. A search without
/// summaries reports once, 0 of 0.
///
/// Errors: as [`search_prepared`].
pub async fn search_reporting(
    client: &Client,
    req: &SearchRequest,
    prepared: &Prepared,
    today: DateBound,
    progress: &(dyn Fn(super::batch::Progress) + Send + Sync),
) -> Result<SearchOutcome> {
    let before = client.requests_sent();
    let checked;
    let (req, prepared) = if prepared.applied.filters.mesh_terms.is_empty() {
        (req, prepared)
    } else {
        checked = mesh_checked(client, req, prepared, today).await;
        (&checked.0, &checked.1)
    };
    let answer = client.esearch(Db::Pubmed, &prepared.params).await?;
    let mut out = outcome_from(req, prepared, answer);
    let step = |done: usize, total: usize| {
        progress(super::batch::Progress {
            done: done as u64,
            total: Some(total as u64),
            requests: client.requests_sent() - before,
        })
    };
    let n = summary_count(req, &out);
    step(0, n);
    fill_summaries(client, req, &mut out).await?;
    if n > 0 {
        step(n, n);
    }
    if out.count == 0 && req.spell != SpellMode::Off && !prepared.normalized_query.is_empty() {
        // The search succeeded; a failing spell check only costs the hint.
        let s = match super::spell::spell(client, &prepared.normalized_query).await {
            Ok(s) => s,
            Err(e) => {
                out.warnings.push(Warning::new(
                    WarningKind::SpellFailed,
                    format!("the spelling check failed: {} [{}]", e.message, e.reason),
                ));
                return Ok(out);
            }
        };
        let note = SpellNote {
            original: s.original.clone(),
            corrected: s.corrected.clone(),
            has_suggestion: s.has_suggestion,
            applied: req.spell == SpellMode::Apply && s.has_suggestion,
        };
        if note.applied {
            let mut again = req.clone();
            again.query = s.corrected.clone();
            again.spell = SpellMode::Off;
            // The corrected search is the search now: if it fails, so does
            // this one (its reason decides the exit code), never zero hits.
            let mut rerun = Box::pin(search(client, &again, today)).await?;
            rerun.warnings.insert(
                0,
                Warning::new(
                    WarningKind::SpellApplied,
                    format!(
                        "no hits for {:?}; searched the spelling correction {:?} instead",
                        s.original, s.corrected
                    ),
                ),
            );
            rerun.spell = Some(note);
            return Ok(rerun);
        }
        if note.has_suggestion {
            out.warnings.push(Warning::new(
                WarningKind::SpellSuggestion,
                format!(
                    "did you mean {:?}? (run again with --spell=apply to search it)",
                    s.corrected
                ),
            ));
        }
        out.spell = Some(note);
    }
    Ok(out)
}

/// The request and its parameters after the MeSH check of its `--mesh`
/// values (docs/search.md "MeSH check"): a UI is replaced by its record's
/// name (`D009203` → `"Myocardial Infarction"[MeSH Terms]`, an SCR's
/// `[nm]`, a qualifier's `[sh]`); a value that is not a current
/// descriptor's heading gets a `mesh_not_descriptor` warning and stays as
/// typed; a failed lookup is one `mesh_check_failed` warning. Never an
/// error: the search runs in every case.
pub(crate) async fn mesh_checked(
    client: &Client,
    req: &SearchRequest,
    prepared: &Prepared,
    today: DateBound,
) -> (SearchRequest, Prepared) {
    let values = prepared.applied.filters.mesh_terms.clone();
    let checks = match super::mesh::check_headings(client, &values).await {
        Ok(c) => c,
        Err(e) => {
            let mut p = prepared.clone();
            p.warnings.push(Warning::new(
                WarningKind::MeshCheckFailed,
                format!(
                    "the MeSH check of the MeSH terms could not run: {} [{}]; they were searched as typed",
                    e.message, e.reason
                ),
            ));
            return (req.clone(), p);
        }
    };
    let mut again = req.clone();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut warnings = Vec::new();
    for (value, check) in values.iter().zip(checks) {
        match check {
            HeadingCheck::Heading => {}
            HeadingCheck::Named(r) => {
                let name: String = r.name.chars().filter(|c| *c != '"').collect();
                if let Some(m) = again.filters.mesh_terms.iter_mut().find(|m| *m == value) {
                    m.clone_from(&name);
                }
                match r.kind() {
                    RecordKind::Descriptor => {}
                    RecordKind::Supplementary => tags.push((name, "nm".into())),
                    RecordKind::Qualifier => tags.push((name, "sh".into())),
                }
            }
            HeadingCheck::NotDescriptor(closest) => {
                warnings.push(Warning {
                    terms: Some(vec![value.clone()]),
                    ..Warning::new(
                        WarningKind::MeshNotDescriptor,
                        not_descriptor(value, closest.as_ref()),
                    )
                });
            }
        }
    }
    // Re-prepared so the term, the applied filters and the URL all say
    // what is searched; the request was valid, and names keep it so.
    let Ok(mut p) = prepare(&again, today) else {
        let mut p = prepared.clone();
        p.warnings.extend(warnings);
        return (req.clone(), p);
    };
    if !tags.is_empty()
        && let Ok(term) = query::compose_tagged(&p.normalized_query, &p.applied.filters, &tags)
    {
        p.params.term = term;
    }
    p.warnings.extend(warnings);
    (again, p)
}

/// The message of a `mesh_not_descriptor` warning for `value`, naming the
/// closest record when the lookup found one.
pub fn not_descriptor(value: &str, closest: Option<&MeshRecord>) -> String {
    let why = match closest {
        None if crate::core::mesh::is_ui(value) => "MeSH has no record with this UI".to_string(),
        None => {
            "MeSH has no heading or entry term of this name, so it may match nothing".to_string()
        }
        Some(r) if r.kind() == RecordKind::Descriptor => format!(
            "it is an entry term of {:?} ({}), the heading to search",
            r.name, r.ui
        ),
        Some(r) => format!(
            "it names a {} record ({}), searched as {}",
            r.kind().as_str(),
            r.ui,
            crate::core::mesh::clauses(&r.name, r.kind()).mesh
        ),
    };
    format!(
        "{value:?} is not a current MeSH descriptor: {why}; it was searched as typed (check it with `pubmed mesh {value:?}`)"
    )
}

/// How many summaries [`fill_summaries`] asks ESummary for.
fn summary_count(req: &SearchRequest, out: &SearchOutcome) -> usize {
    if req.detail == Detail::Ids {
        return 0;
    }
    req.summary_limit.unwrap_or(usize::MAX).min(out.pmids.len())
}

async fn fill_summaries(
    client: &Client,
    req: &SearchRequest,
    out: &mut SearchOutcome,
) -> Result<()> {
    let n = summary_count(req, out);
    if n == 0 {
        return Ok(());
    }
    let (summaries, missing, cache) = summaries_cached(client, &out.pmids[..n]).await?;
    out.summaries = summaries;
    out.missing = Some(missing);
    out.cache = cache;
    Ok(())
}

/// The PMIDs ESummary answered with an error, as `(PMID, NCBI's text)`.
pub fn missing_from(missing: Vec<(String, String)>) -> Vec<Missing> {
    missing
        .into_iter()
        .map(|(pmid, message)| Missing { pmid, message })
        .collect()
}

/// Records for `pmids` through ESummary (batches of 1,000 by POST, halved
/// when NCBI cannot answer one whole: docs/search.md "Batch sizes"), in `pmids` order, and the PMIDs NCBI has no
/// summary for, with its text. Shared by every operation that shows
/// summaries (`search`, `related`).
///
/// Errors: the client's (an ESummary `<ERROR>` is an error, never "no records").
pub async fn summaries(client: &Client, pmids: &[String]) -> Result<(Vec<Summary>, Vec<Missing>)> {
    let (s, m, _) = summaries_cached(client, pmids).await?;
    Ok((s, m))
}

/// [`summaries`], and how many came from the local cache (docs/cache.md).
///
/// Errors: as [`summaries`].
pub async fn summaries_cached(
    client: &Client,
    pmids: &[String],
) -> Result<(Vec<Summary>, Vec<Missing>, Option<crate::cache::CacheUse>)> {
    let answer = client.esummary(Db::Pubmed, pmids).await?;
    Ok((
        answer.docs.iter().map(Summary::from_docsum).collect(),
        missing_from(answer.missing),
        crate::cache::CacheUse::new(answer.from_cache, answer.cache_oldest),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(q: &str) -> SearchRequest {
        SearchRequest {
            query: q.into(),
            retmax: DEFAULT_RETMAX,
            ..Default::default()
        }
    }

    fn today() -> DateBound {
        DateBound::ymd(2026, 12, 1)
    }

    #[test]
    fn limits_are_checked_before_any_request() {
        let mut r = req("cancer");
        r.retstart = 9999;
        let e = prepare(&r, today()).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert!(e.message.contains("9,999"));
        r.retstart = 9998;
        let p = prepare(&r, today()).unwrap();
        assert_eq!(p.params.retmax, 1);
        assert_eq!(p.warnings[0].kind, WarningKind::WindowTruncated);
        let mut r = req("cancer");
        r.retmax = 1001;
        assert_eq!(
            prepare(&r, today()).unwrap_err().reason,
            Reason::InvalidArgument
        );
        r.detail = Detail::Ids;
        r.retmax = 10_000;
        assert!(prepare(&r, today()).is_ok());
        r.retmax = 10_001;
        assert!(prepare(&r, today()).is_err());
    }

    #[test]
    fn sort_values_are_ncbi_s() {
        assert_eq!(Sort::parse("author").unwrap().ncbi(), "Author");
        assert_eq!(Sort::parse("journal").unwrap().ncbi(), "JournalName");
        assert_eq!(Sort::parse("pub_date").unwrap().ncbi(), "pub_date");
        assert_eq!(Sort::parse("relevance").unwrap().ncbi(), "relevance");
        assert_eq!(Sort::parse("date"), None);
    }

    #[test]
    fn field_is_validated_and_mapped() {
        let mut r = req("cancer");
        r.field = Some("title".into());
        assert_eq!(
            prepare(&r, today()).unwrap().params.field.as_deref(),
            Some("TITL")
        );
        r.field = Some("nosuchfield".into());
        let e = prepare(&r, today()).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert!(e.message.contains("TIAB"), "{}", e.message);
    }

    #[test]
    fn markup_only_query_is_blank() {
        let e = prepare(&req("<b></b>"), today()).unwrap_err();
        assert_eq!(e.reason, Reason::BlankQuery);
        // even with a filter: only an exactly empty query means "filters only"
        for q in ["<b></b>", "&nbsp;", "[ti]", "()"] {
            let mut r = req(q);
            r.filters.author = Some("smith".into());
            assert_eq!(
                prepare(&r, today()).unwrap_err().reason,
                Reason::BlankQuery,
                "{q}"
            );
        }
        let mut r = req("");
        r.filters.author = Some("smith".into());
        assert_eq!(prepare(&r, today()).unwrap().params.term, "smith[Author]");
    }

    #[test]
    fn notes_become_named_warnings() {
        let notes = vec![
            QueryNote {
                kind: "PhraseNotFound".into(),
                text: "abcXYZ".into(),
            },
            QueryNote {
                kind: "FieldNotFound".into(),
                text: "[xx]".into(),
            },
            QueryNote {
                kind: "PhraseNotFound".into(),
                text: "qqq".into(),
            },
            QueryNote {
                kind: "OutputMessage".into(),
                text: "No items found.".into(),
            },
        ];
        let w = note_warnings(&notes);
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].kind, WarningKind::PhraseNotFound);
        assert_eq!(w[0].terms, Some(vec!["abcXYZ".into(), "qqq".into()]));
        assert!(w[0].message.contains("abcXYZ, qqq"));
        assert_eq!(w[1].kind, WarningKind::FieldNotFound);
        assert!(w[1].message.contains("[xx]"));
    }

    #[test]
    fn record_rules() {
        let d = DocSum {
            uid: "1".into(),
            title: "<i>In vivo</i> CO<sub>2</sub> &amp; β-cells\n\t in  mice".into(),
            authors: vec!["Müller K".into(), "SPRINT Investigators".into()],
            source: "J X".into(),
            full_journal_name: "Journal of X".into(),
            pub_date: "1998 Dec-1999 Jan".into(),
            elocation_id: "pii: S0000. doi: 10.1000/xyz.1".into(),
            article_ids: vec![
                ("pubmed".into(), "1".into()),
                ("pmcid".into(), "pmc-id: PMC9;".into()),
                ("pmc".into(), "PMC9".into()),
            ],
            pub_types: vec!["Journal Article".into(), "Retracted Publication".into()],
        };
        let s = Summary::from_docsum(&d);
        assert_eq!(s.title, "In vivo CO2 & β-cells in mice");
        assert_eq!(s.doi.as_deref(), Some("10.1000/xyz.1"));
        assert_eq!(s.pmcid.as_deref(), Some("PMC9"));
        assert_eq!(s.pub_date.as_deref(), Some("1998-12"));
        assert_eq!(s.pub_date_text, "1998 Dec-1999 Jan");
        assert!(s.retracted);
        assert!(!s.retraction_notice);
        assert_eq!(s.pubmed_url, "https://pubmed.ncbi.nlm.nih.gov/1/");
        let mut d2 = d.clone();
        d2.elocation_id = "pii: S0000".into();
        d2.pub_types = vec!["Retraction of Publication".into()];
        let s2 = Summary::from_docsum(&d2);
        assert_eq!(s2.doi, None, "never a pii");
        assert!(s2.retraction_notice && !s2.retracted);
    }
}
