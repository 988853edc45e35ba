//! EFetch (`efetch.fcgi?db=pubmed`, POST): full records as XML
//! (`retmode=xml`) parsed into [`Record`]s, or NCBI's MEDLINE text
//! (`rettype=medline&retmode=text`) kept byte for byte per record
//! (docs/fetch.md).
//!
//! EFetch answers with the records it knows and silently leaves out the
//! others, so every PMID sent gets an [`Entry`] here: the record, or why
//! there is none. A chunk that times out or whose body is over the client's
//! cap is halved and each half tried again; a chunk that still fails gives
//! each of its PMIDs the failure.
//!
//! Parsing follows element names, never a DTD (none is fetched): a body is
//! split into its top-level articles with a streaming reader, each article
//! is read on its own, and inline markup (`<i>`, `<sup>`, `<sub>`, MathML)
//! keeps its text.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use quick_xml::Reader;
use quick_xml::events::Event;

use super::classify::{self, Verdict};
use super::client::Client;
use super::db::Db;
use super::pacer::Lane;
use super::transport::{HttpResponse, Method, TransportError};
use super::xml::{self, Element, Node};
use crate::core::mathml;
use crate::core::record::{
    AbstractSection, Author, Book, CommentCorrection, DateParts, Grant, Journal, MeshHeading,
    MeshQualifier, Pages, Record, join_abstract, normalize_orcid, pubmed_url,
};
use crate::core::text::fold_whitespace;
use crate::error::{Error, Reason, Result};

/// PMIDs per EFetch request. Real records average 5–35 KB of XML (the
/// captures: 3.9–64 KB each, compact), so a chunk is usually 5–35 MB, under
/// the client's 64 MB body cap; a larger one is halved.
pub use super::limits::EFETCH_CHUNK;
/// A chunk that timed out is halved while it holds more PMIDs than this.
pub const MIN_TIMEOUT_SPLIT: usize = 100;
const ENDPOINT: &str = "EFetch";

/// What to ask EFetch for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `retmode=xml`, parsed into records; `keep_raw` keeps each article's
    /// own XML bytes too (for `-f xml`).
    Xml {
        /// Keep the article elements' bytes.
        keep_raw: bool,
    },
    /// `rettype=medline&retmode=text`, NCBI's bytes per record.
    Medline,
}

/// Why a PMID has no record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissingReason {
    /// EFetch left it out of its answer, or listed it in `DeleteCitation`.
    NotFound,
    /// EFetch sent something for it that cannot be read as a record.
    Invalid,
    /// The request for its chunk failed (after retries and halving).
    Failed(Reason),
}

/// What EFetch gave for one PMID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A parsed record, with the article's own XML when kept.
    Article {
        /// The record.
        record: Box<Record>,
        /// The `PubmedArticle`/`PubmedBookArticle` element as NCBI sent it.
        raw: Option<RawXml>,
    },
    /// One MEDLINE record as NCBI sent it: from `PMID- ` to its last line,
    /// each line with its line break.
    Medline(String),
    /// No record, and why.
    Missing {
        /// The reason.
        reason: MissingReason,
        /// A sentence for people.
        message: String,
    },
}

/// One article element's bytes as NCBI sent them: a slice of its answer's
/// body, shared rather than copied, so keeping every article of a chunk
/// (for the cache, `-f xml`) costs no second copy of the body; the body is
/// freed when the last of its slices is dropped.
#[derive(Clone, PartialEq, Eq)]
pub struct RawXml(Bytes);

impl RawXml {
    /// The element's text. Its bytes are a UTF-8 body's slice between
    /// element boundaries, so the check cannot fail.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl From<&str> for RawXml {
    fn from(s: &str) -> Self {
        RawXml(Bytes::copy_from_slice(s.as_bytes()))
    }
}

impl std::fmt::Debug for RawXml {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// EFetch's answer for a list of PMIDs: an entry for every distinct PMID
/// sent (canonical form, no leading zeros).
#[derive(Debug, Clone, Default)]
pub struct EfetchAnswer {
    /// Entries by PMID.
    pub entries: HashMap<String, Entry>,
    /// The text before `<PubmedArticleSet>` in the first XML answer
    /// (declaration and DOCTYPE), for re-emitting NCBI's document.
    pub prolog: Option<Arc<str>>,
    /// Chunk failures after retries and halving, in the order they happened.
    pub failures: Vec<Error>,
}

/// One top-level element of a `PubmedArticleSet`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleSpan {
    /// Element name (`PubmedArticle`, `PubmedBookArticle`, `DeleteCitation`).
    pub name: String,
    /// Byte range of the whole element in the body.
    pub range: std::ops::Range<usize>,
}

/// Why a body is not a `PubmedArticleSet` that can be split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// No root element: only a prolog or nothing.
    NoRoot,
    /// The root is another element (`eFetchResult` with an `ERROR`, …).
    OtherRoot(String),
    /// Not well-formed.
    Malformed(String),
    /// Ends inside an open element: the body was cut short.
    Truncated(String),
}

/// The articles of a `PubmedArticleSet` body, found with a streaming
/// reader (the body is not built into a tree): the prolog's end and each
/// top-level element's byte range, in document order.
///
/// Errors: see [`SplitError`].
pub fn split_set(body: &str) -> std::result::Result<(usize, Vec<ArticleSpan>), SplitError> {
    let mut reader = Reader::from_str(body);
    reader.config_mut().check_end_names = true;
    let malformed = |e: &dyn std::fmt::Display| SplitError::Malformed(e.to_string());
    let mut root_at = None;
    let mut spans = Vec::new();
    let mut closed = false;
    loop {
        let before = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| malformed(&e))?;
        match event {
            Event::Start(e) if root_at.is_none() => {
                let name = e.name().as_ref().to_string();
                if name != "PubmedArticleSet" {
                    return Err(SplitError::OtherRoot(name));
                }
                root_at = Some(before);
            }
            Event::Empty(e) if root_at.is_none() => {
                let name = e.name().as_ref().to_string();
                if name != "PubmedArticleSet" {
                    return Err(SplitError::OtherRoot(name));
                }
                root_at = Some(before);
                closed = true;
            }
            Event::Start(e) if !closed => {
                let name = e.name().as_ref().to_string();
                let end_name = e.name().as_ref().to_string();
                reader
                    .read_to_end(quick_xml::name::QName(&end_name))
                    .map_err(|e| match e {
                        quick_xml::Error::Syntax(_) | quick_xml::Error::IllFormed(_)
                            if reader.buffer_position() as usize >= body.len() =>
                        {
                            SplitError::Truncated(name.clone())
                        }
                        e => malformed(&e),
                    })?;
                spans.push(ArticleSpan {
                    name,
                    range: before..reader.buffer_position() as usize,
                });
            }
            Event::Empty(e) if !closed => {
                spans.push(ArticleSpan {
                    name: e.name().as_ref().to_string(),
                    range: before..reader.buffer_position() as usize,
                });
            }
            Event::End(_) if root_at.is_some() && !closed => closed = true,
            Event::Text(t)
                if !t.xml10_content().trim().is_empty() && (root_at.is_none() || closed) =>
            {
                return Err(SplitError::Malformed(
                    "text outside the root element".into(),
                ));
            }
            Event::Text(_) => {}
            Event::Eof => break,
            Event::Start(_) | Event::Empty(_) | Event::End(_) => {
                return Err(SplitError::Malformed(
                    "content after the root element".into(),
                ));
            }
            Event::CData(_) | Event::GeneralRef(_) if root_at.is_none() || closed => {
                return Err(SplitError::Malformed(
                    "text outside the root element".into(),
                ));
            }
            _ => {}
        }
    }
    match root_at {
        None => Err(SplitError::NoRoot),
        Some(_) if !closed => Err(SplitError::Truncated("PubmedArticleSet".into())),
        Some(at) => Ok((at, spans)),
    }
}

/// The local part of an element name (`mml:math` → `math`).
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The plain text of an element: text of inline markup kept, MathML
/// as linear TeX in `$…$` (`core::mathml`), whitespace folded.
pub fn plain_text(e: &Element) -> String {
    let mut out = String::new();
    collect_plain(e, &mut out);
    fold_whitespace(&out)
}

fn collect_plain(e: &Element, out: &mut String) {
    for n in &e.children {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Element(c) if local(&c.name) == "math" => {
                // Linear TeX, `$…$` (`$$…$$` for display="block"), as
                // `fulltext` writes formulas (docs/fetch.md "The record").
                let m = math_tree(c);
                let tex = mathml::to_tex(&m);
                if !tex.is_empty() {
                    let d = if m.is_display() { "$$" } else { "$" };
                    out.push_str(d);
                    out.push_str(&tex);
                    out.push_str(d);
                }
            }
            Node::Element(c) => collect_plain(c, out),
        }
    }
}

/// An `ncbi::xml` element as the tree `core::mathml` reads.
fn math_tree(e: &Element) -> mathml::Math {
    mathml::Math {
        name: local(&e.name).to_string(),
        attrs: e.attrs.clone(),
        children: e
            .children
            .iter()
            .map(|n| match n {
                Node::Element(c) => mathml::MathChild::El(math_tree(c)),
                Node::Text(t) => mathml::MathChild::Text(t.clone()),
            })
            .collect(),
    }
}

fn opt_text(e: Option<&Element>) -> Option<String> {
    e.map(plain_text).filter(|s| !s.is_empty())
}

fn child_plain(e: &Element, name: &str) -> Option<String> {
    opt_text(e.child(name))
}

fn canonical_pmid(s: &str) -> Option<String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let stripped = t.trim_start_matches('0');
    (!stripped.is_empty()).then(|| stripped.to_string())
}

/// The PMID an article element is about, if it can be read.
pub fn article_pmid(e: &Element) -> Option<String> {
    let direct = match e.name.as_str() {
        "PubmedArticle" => e.child("MedlineCitation").and_then(|m| m.child("PMID")),
        "PubmedBookArticle" => e.child("BookDocument").and_then(|b| b.child("PMID")),
        _ => None,
    };
    if let Some(p) = direct.and_then(|p| canonical_pmid(&p.text())) {
        return Some(p);
    }
    let data = e
        .child("PubmedData")
        .or_else(|| e.child("PubmedBookData"))?;
    data.child("ArticleIdList")?
        .children_named("ArticleId")
        .find(|a| a.attr("IdType") == Some("pubmed"))
        .and_then(|a| canonical_pmid(&a.text()))
}

fn date_of(e: &Element) -> DateParts {
    if let Some(m) = e.child("MedlineDate") {
        return DateParts::medline(&fold_whitespace(&m.text()));
    }
    let t = |n: &str| e.child(n).map(|c| fold_whitespace(&c.text()));
    let (y, m, d, s) = (t("Year"), t("Month"), t("Day"), t("Season"));
    DateParts::structured(y.as_deref(), m.as_deref(), d.as_deref(), s.as_deref())
}

fn author_of(a: &Element) -> Option<Author> {
    if a.attr("ValidYN") == Some("N") {
        return None;
    }
    let mut author = match child_plain(a, "CollectiveName") {
        Some(c) => Author::collective(c),
        None => Author::person(
            child_plain(a, "LastName"),
            child_plain(a, "ForeName").or_else(|| child_plain(a, "FirstName")),
            child_plain(a, "Initials"),
            child_plain(a, "Suffix"),
        ),
    };
    if author.name.is_empty() {
        return None;
    }
    author.affiliations = a
        .children_named("AffiliationInfo")
        .filter_map(|i| child_plain(i, "Affiliation"))
        .chain(
            a.children_named("Affiliation")
                .filter_map(|i| opt_text(Some(i))),
        )
        .collect();
    author.orcid = a
        .children_named("Identifier")
        .find(|i| {
            i.attr("Source")
                .is_some_and(|s| s.eq_ignore_ascii_case("ORCID"))
        })
        .map(|i| normalize_orcid(&i.text()))
        .filter(|s| !s.is_empty());
    Some(author)
}

fn authors_of(list: Option<&Element>) -> Vec<Author> {
    list.map(|l| l.children_named("Author").filter_map(author_of).collect())
        .unwrap_or_default()
}

fn sections_of(abs: Option<&Element>) -> Vec<AbstractSection> {
    let Some(abs) = abs else { return Vec::new() };
    abs.children_named("AbstractText")
        .map(|t| AbstractSection {
            label: t
                .attr("Label")
                .map(fold_whitespace)
                .filter(|s| !s.is_empty()),
            nlm_category: t
                .attr("NlmCategory")
                .map(fold_whitespace)
                .filter(|s| !s.is_empty()),
            text: plain_text(t),
        })
        .filter(|s| !s.text.is_empty() || s.label.is_some())
        .collect()
}

fn pages_of(p: Option<&Element>) -> Pages {
    match p {
        None => Pages::default(),
        Some(p) => Pages::new(
            child_plain(p, "MedlinePgn"),
            child_plain(p, "StartPage"),
            child_plain(p, "EndPage"),
        ),
    }
}

fn texts<'a>(items: impl Iterator<Item = &'a Element>) -> Vec<String> {
    items.filter_map(|e| opt_text(Some(e))).collect()
}

fn mesh_of(list: Option<&Element>) -> Vec<MeshHeading> {
    let Some(list) = list else { return Vec::new() };
    list.children_named("MeshHeading")
        .filter_map(|h| {
            let d = h.child("DescriptorName")?;
            Some(MeshHeading {
                descriptor: plain_text(d),
                major: d.attr("MajorTopicYN") == Some("Y"),
                qualifiers: h
                    .children_named("QualifierName")
                    .map(|q| MeshQualifier {
                        name: plain_text(q),
                        major: q.attr("MajorTopicYN") == Some("Y"),
                    })
                    .collect(),
            })
        })
        .collect()
}

fn grants_of(list: Option<&Element>) -> Vec<Grant> {
    let Some(list) = list else { return Vec::new() };
    list.children_named("Grant")
        .map(|g| Grant {
            id: child_plain(g, "GrantID"),
            agency: child_plain(g, "Agency"),
            country: child_plain(g, "Country"),
        })
        .collect()
}

fn comments_of(list: Option<&Element>) -> Vec<CommentCorrection> {
    let Some(list) = list else { return Vec::new() };
    list.children_named("CommentsCorrections")
        .map(|c| CommentCorrection {
            r#type: c.attr("RefType").unwrap_or_default().trim().to_string(),
            pmid: c.child("PMID").and_then(|p| canonical_pmid(&p.text())),
            source: child_plain(c, "RefSource"),
        })
        .collect()
}

/// (`IdType`, value) of every `ArticleId` in the given lists.
fn article_ids<'a>(lists: impl Iterator<Item = &'a Element>) -> Vec<(String, String)> {
    lists
        .flat_map(|l| l.children_named("ArticleId"))
        .map(|a| {
            (
                a.attr("IdType").unwrap_or_default().to_string(),
                fold_whitespace(&a.text()),
            )
        })
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

/// (`EIdType`, value) of the valid `ELocationID`s.
fn elocations<'a>(items: impl Iterator<Item = &'a Element>) -> Vec<(String, String)> {
    items
        .filter(|e| e.attr("ValidYN") != Some("N"))
        .map(|e| {
            (
                e.attr("EIdType").unwrap_or_default().to_string(),
                fold_whitespace(&e.text()),
            )
        })
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

fn id_of(ids: &[(String, String)], kind: &str) -> Option<String> {
    ids.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(kind))
        .map(|(_, v)| v.clone())
}

fn has_type(pub_types: &[String], t: &str) -> bool {
    pub_types.iter().any(|p| p.eq_ignore_ascii_case(t))
}

/// Fills the fields every kind of record derives the same way.
fn finish(mut r: Record, ids: &[(String, String)], eloc: &[(String, String)]) -> Record {
    r.doi = id_of(ids, "doi").or_else(|| id_of(eloc, "doi"));
    r.pii = id_of(ids, "pii").or_else(|| id_of(eloc, "pii"));
    r.pmcid = id_of(ids, "pmc");
    r.r#abstract = join_abstract(&r.abstract_sections);
    r.pub_date = r.date_parts.iso();
    r.pub_date_text = r.date_parts.text.clone();
    r.retracted = has_type(&r.pub_types, "Retracted Publication")
        || r.comments_corrections
            .iter()
            .any(|c| c.r#type == "RetractionIn");
    r.retraction_notice = has_type(&r.pub_types, "Retraction of Publication")
        || r.comments_corrections
            .iter()
            .any(|c| c.r#type == "RetractionOf");
    r.pubmed_url = pubmed_url(&r.pmid);
    r
}

/// The record's title: `ArticleTitle`, else (empty or absent) the
/// `VernacularTitle`, flagged, as Zotero's PubMed importer does.
fn title_or_vernacular(
    title: Option<String>,
    vernacular: Option<String>,
) -> (String, Option<String>, bool) {
    match title.filter(|t| !t.is_empty()) {
        Some(t) => (t, vernacular, false),
        None => match vernacular {
            Some(v) => (v.clone(), Some(v), true),
            None => (String::new(), None, false),
        },
    }
}

fn parse_journal_article(e: &Element, pmid: String) -> Result<Record, String> {
    let mc = e.child("MedlineCitation").ok_or("no <MedlineCitation>")?;
    let art = mc
        .child("Article")
        .ok_or("no <Article> in <MedlineCitation>")?;
    let journal = art.child("Journal");
    let issue = journal.and_then(|j| j.child("JournalIssue"));
    let mut authors = authors_of(art.child("AuthorList"));
    // Older records hold one affiliation on the article, for the first author.
    if let (Some(aff), Some(first)) = (child_plain(art, "Affiliation"), authors.first_mut())
        && first.affiliations.is_empty()
    {
        first.affiliations.push(aff);
    }
    let ids = article_ids(
        e.child("PubmedData")
            .and_then(|d| d.child("ArticleIdList"))
            .into_iter(),
    );
    let eloc = elocations(art.children_named("ELocationID"));
    let (title, vernacular_title, title_from_vernacular) = title_or_vernacular(
        child_plain(art, "ArticleTitle"),
        child_plain(art, "VernacularTitle"),
    );
    let record = Record {
        pmid,
        title,
        vernacular_title,
        title_from_vernacular,
        abstract_sections: sections_of(art.child("Abstract")),
        authors,
        journal: Some(Journal {
            title: journal
                .and_then(|j| child_plain(j, "Title"))
                .unwrap_or_default(),
            iso_abbreviation: journal.and_then(|j| child_plain(j, "ISOAbbreviation")),
            medline_ta: mc
                .child("MedlineJournalInfo")
                .and_then(|m| child_plain(m, "MedlineTA")),
            issn: journal.and_then(|j| child_plain(j, "ISSN")),
            volume: issue.and_then(|i| child_plain(i, "Volume")),
            issue: issue.and_then(|i| child_plain(i, "Issue")),
            pages: pages_of(art.child("Pagination")),
        }),
        date_parts: issue
            .and_then(|i| i.child("PubDate"))
            .map(date_of)
            .unwrap_or_default(),
        article_date: art
            .children_named("ArticleDate")
            .find(|d| d.attr("DateType").is_none_or(|t| t == "Electronic"))
            .and_then(|d| date_of(d).iso()),
        language: texts(art.children_named("Language")),
        pub_types: art
            .child("PublicationTypeList")
            .map(|l| texts(l.children_named("PublicationType")))
            .unwrap_or_default(),
        mesh_headings: mesh_of(mc.child("MeshHeadingList")),
        keywords: mc
            .children_named("KeywordList")
            .flat_map(|l| texts(l.children_named("Keyword")))
            .collect(),
        grants: grants_of(art.child("GrantList")),
        comments_corrections: comments_of(mc.child("CommentsCorrectionsList")),
        ..Default::default()
    };
    Ok(finish(record, &ids, &eloc))
}

fn parse_book_article(e: &Element, pmid: String) -> Result<Record, String> {
    let doc = e.child("BookDocument").ok_or("no <BookDocument>")?;
    let book = doc.child("Book").ok_or("no <Book> in <BookDocument>")?;
    let book_title = child_plain(book, "BookTitle").unwrap_or_default();
    let chapter_title = child_plain(doc, "ArticleTitle");
    let is_editors = |l: &&Element| l.attr("Type") == Some("editors");
    let editors: Vec<Author> = book
        .children_named("AuthorList")
        .filter(|l| l.attr("Type").is_none_or(|t| t == "editors"))
        .flat_map(|l| authors_of(Some(l)))
        .collect();
    // `Book/AuthorList Type="authors"`: the book's own authors (PMID 26468569).
    let book_authors: Vec<Author> = book
        .children_named("AuthorList")
        .filter(|l| l.attr("Type") == Some("authors"))
        .flat_map(|l| authors_of(Some(l)))
        .collect();
    let mut authors: Vec<Author> = doc
        .children_named("AuthorList")
        .filter(|l| !is_editors(l))
        .flat_map(|l| authors_of(Some(l)))
        .collect();
    if chapter_title.is_none() && authors.is_empty() {
        authors = book_authors.clone();
    }
    let (title, vernacular_title, title_from_vernacular) = title_or_vernacular(
        chapter_title.clone().or_else(|| Some(book_title.clone())),
        child_plain(doc, "VernacularTitle"),
    );
    let ids = article_ids(
        doc.children_named("ArticleIdList").chain(
            e.child("PubmedBookData")
                .and_then(|d| d.child("ArticleIdList")),
        ),
    );
    let eloc = elocations(
        book.children_named("ELocationID")
            .chain(doc.children_named("ELocationID")),
    );
    let publisher = book.child("Publisher");
    let record = Record {
        pmid,
        title,
        vernacular_title,
        title_from_vernacular,
        abstract_sections: sections_of(doc.child("Abstract")),
        authors,
        journal: None,
        date_parts: book.child("PubDate").map(date_of).unwrap_or_default(),
        language: texts(doc.children_named("Language")),
        pub_types: texts(doc.children_named("PublicationType")),
        keywords: doc
            .children_named("KeywordList")
            .flat_map(|l| texts(l.children_named("Keyword")))
            .collect(),
        grants: grants_of(doc.child("GrantList")),
        book: Some(Book {
            title: book_title,
            publisher: publisher.and_then(|p| child_plain(p, "PublisherName")),
            publisher_location: publisher.and_then(|p| child_plain(p, "PublisherLocation")),
            edition: child_plain(book, "Edition"),
            volume: child_plain(book, "Volume"),
            volume_title: child_plain(book, "VolumeTitle"),
            collection_title: child_plain(book, "CollectionTitle"),
            isbn: texts(book.children_named("Isbn")),
            editors,
            authors: book_authors,
            medium: child_plain(book, "Medium"),
            report_number: child_plain(book, "ReportNumber"),
            location_labels: texts(doc.children_named("LocationLabel")),
            accession: id_of(&ids, "bookaccession"),
            beginning_date: book.child("BeginningDate").and_then(|d| date_of(d).iso()),
            ending_date: book.child("EndingDate").and_then(|d| date_of(d).iso()),
            is_part: chapter_title.is_some(),
            pages: pages_of(doc.child("Pagination")),
        }),
        ..Default::default()
    };
    Ok(finish(record, &ids, &eloc))
}

/// Reads one `PubmedArticle` or `PubmedBookArticle` element into a record.
///
/// Errors: a message when the element has no readable PMID or lacks the
/// element the record is built on (`MedlineCitation/Article`,
/// `BookDocument/Book`).
pub fn parse_article(e: &Element) -> Result<Record, String> {
    let pmid = article_pmid(e).ok_or("the article has no readable PMID")?;
    match e.name.as_str() {
        "PubmedArticle" => parse_journal_article(e, pmid),
        "PubmedBookArticle" => parse_book_article(e, pmid),
        other => Err(format!("<{other}> is not a PubMed article")),
    }
}

/// The records of one `PubmedArticleSet` body, in document order.
#[derive(Debug, Clone, Default)]
pub struct ParsedSet {
    /// Byte length of the prolog (text before `<PubmedArticleSet>`).
    pub prolog_len: usize,
    /// (PMID, record or why it could not be read, the element's bytes when
    /// kept) per article whose PMID could be read.
    pub articles: Vec<(String, Result<Record, String>, Option<String>)>,
    /// PMIDs listed in `DeleteCitation`.
    pub deleted: Vec<String>,
    /// Articles without a readable PMID (or that do not parse at all).
    pub unattributed: usize,
}

/// One article of a [`ChunkSet`]: its PMID, the record or why it could not
/// be read, and its element when kept.
type ChunkArticle = (String, Result<Box<Record>, String>, Option<RawXml>);

/// [`ParsedSet`] as a chunk's answer holds it: records boxed as they are
/// read (a chunk's 1,000 are moved into its answer, never copied out of a
/// vector of them) and kept elements as slices of the body ([`RawXml`]).
#[derive(Debug, Clone, Default)]
struct ChunkSet {
    prolog_len: usize,
    articles: Vec<ChunkArticle>,
    deleted: Vec<String>,
    unattributed: usize,
}

/// Parses a whole `PubmedArticleSet` body article by article; with
/// `keep_raw`, each article keeps its element's bytes.
///
/// Errors: [`SplitError`] when the body is not a well-formed
/// `PubmedArticleSet`. A malformed or unreadable article inside a
/// well-formed set is reported in [`ParsedSet`], never an error.
pub fn parse_set(body: &str, keep_raw: bool) -> std::result::Result<ParsedSet, SplitError> {
    let bytes = keep_raw.then(|| Bytes::copy_from_slice(body.as_bytes()));
    let set = read_set(body, bytes.as_ref())?;
    Ok(ParsedSet {
        prolog_len: set.prolog_len,
        articles: set
            .articles
            .into_iter()
            .map(|(pmid, r, raw)| (pmid, r.map(|r| *r), raw.map(|r| r.as_str().to_owned())))
            .collect(),
        deleted: set.deleted,
        unattributed: set.unattributed,
    })
}

/// [`parse_set`] for a chunk's answer: with `raw` (the body's bytes, of
/// which `body` is the text), each article keeps its element as a shared
/// slice of them. Errors: as [`parse_set`].
fn read_set(body: &str, raw: Option<&Bytes>) -> std::result::Result<ChunkSet, SplitError> {
    let (prolog_len, spans) = split_set(body)?;
    let mut set = ChunkSet {
        prolog_len,
        articles: Vec::with_capacity(spans.len()),
        ..Default::default()
    };
    for span in spans {
        let bytes = &body[span.range.clone()];
        let el = match xml::parse(bytes) {
            Ok(el) => el,
            Err(_) => {
                set.unattributed += 1;
                continue;
            }
        };
        if el.name == "DeleteCitation" {
            set.deleted.extend(
                el.children_named("PMID")
                    .filter_map(|p| canonical_pmid(&p.text())),
            );
            continue;
        }
        let Some(pmid) = article_pmid(&el) else {
            set.unattributed += 1;
            continue;
        };
        let record = parse_article(&el).map(Box::new);
        // The same range of the same bytes: `raw` is `body`'s.
        let kept = raw
            .filter(|b| b.len() == body.len())
            .map(|b| RawXml(b.slice(span.range)));
        set.articles.push((pmid, record, kept));
    }
    Ok(set)
}

/// Splits EFetch MEDLINE text into records: (PMID, the record's bytes from
/// `PMID- ` to its last line, line breaks kept). Blank lines separate
/// records.
///
/// Errors: a message when text stands outside a record or a record has no
/// PMID.
pub fn split_medline(body: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in body.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare.trim().is_empty() {
            if let Some(r) = current.take() {
                out.push(r);
            }
            continue;
        }
        if let Some(rest) = bare.strip_prefix("PMID-") {
            if let Some(r) = current.take() {
                out.push(r);
            }
            let pmid = canonical_pmid(rest)
                .ok_or_else(|| format!("a MEDLINE record has no readable PMID: {bare:?}"))?;
            current = Some((pmid, line.to_string()));
            continue;
        }
        match &mut current {
            Some((_, text)) => text.push_str(line),
            None => {
                let shown: String = bare.chars().take(60).collect();
                return Err(format!("text outside a MEDLINE record: {shown:?}"));
            }
        }
    }
    if let Some(r) = current.take() {
        out.push(r);
    }
    Ok(out)
}

/// One chunk's usable answer.
enum ChunkBody {
    Xml(ChunkSet, Arc<str>),
    Medline(Vec<(String, String)>),
}

/// True for NCBI's "nothing to return" error text.
fn is_empty_result(texts: &[String]) -> bool {
    !texts.is_empty()
        && texts
            .iter()
            .all(|t| t.to_ascii_lowercase().contains("empty result"))
}

/// Classifies an error-shaped body (anything but the expected data) per
/// docs/client.md "Classifying an answer"; NCBI's "Empty result" is an answer with no records.
/// `expected` names what the mode asked for (`<PubmedArticleSet>` or MEDLINE text).
fn classify_other(
    resp: &HttpResponse,
    expected: &str,
    empty: impl Fn() -> ChunkBody,
) -> Verdict<ChunkBody> {
    if let Ok(root) = xml::parse(&String::from_utf8_lossy(&resp.body))
        && is_empty_result(&classify::error_texts(&root))
        && (resp.status == 200 || resp.status == 400)
    {
        return Verdict::Done(empty());
    }
    classify::classify_xml(resp, ENDPOINT, |root| {
        Err(format!("expected {expected}, found <{}>", root.name))
    })
}

/// The words of the transient verdict for an HTTP 200 answer with no bytes.
const EMPTY_BODY: &str = "answered HTTP 200 with an empty body";

fn classify_body(resp: &HttpResponse, mode: Mode) -> Verdict<ChunkBody> {
    if let Some(v) = classify::classify_http(resp, ENDPOINT) {
        return v;
    }
    let empty = move || match mode {
        Mode::Xml { .. } => ChunkBody::Xml(ChunkSet::default(), Arc::from("")),
        Mode::Medline => ChunkBody::Medline(Vec::new()),
    };
    let expected = match mode {
        Mode::Xml { .. } => "<PubmedArticleSet>",
        Mode::Medline => "MEDLINE text",
    };
    if resp.status != 200 {
        return classify_other(resp, expected, empty);
    }
    // No bytes at all for a non-empty ID list is never "no records": EFetch
    // frames even an answer without records (a `<PubmedArticleSet>`, or
    // MEDLINE text's leading line break), so nothing came through. Transient
    // in both modes, like a prolog-only XML body (docs/fetch.md "Requests").
    if resp.body.is_empty() {
        return Verdict::Transient {
            text: format!("{ENDPOINT} {EMPTY_BODY}"),
            retry_after: None,
            bad_answer: false,
        };
    }
    let body = match utf8_body(resp) {
        Ok(body) => body,
        Err(why) => {
            return Verdict::Fatal(Error::new(
                Reason::NcbiInvalidResponse,
                format!("{ENDPOINT} sent {why}"),
            ));
        }
    };
    let head = body.trim_start();
    match mode {
        Mode::Medline => {
            if head.starts_with('<') || head.starts_with('{') {
                return classify_other(resp, expected, empty);
            }
            match split_medline(body) {
                Ok(records) => Verdict::Done(ChunkBody::Medline(records)),
                Err(why) => Verdict::Fatal(Error::new(
                    Reason::NcbiInvalidResponse,
                    format!("{ENDPOINT} sent MEDLINE text that does not parse: {why}"),
                )),
            }
        }
        Mode::Xml { keep_raw } => {
            if head.starts_with('{') {
                return classify::classify_xml(resp, ENDPOINT, |_| {
                    Err("expected <PubmedArticleSet>, found JSON".to_string())
                });
            }
            match read_set(body, keep_raw.then_some(&resp.body)) {
                Ok(set) => {
                    let prolog = Arc::from(&body[..set.prolog_len]);
                    Verdict::Done(ChunkBody::Xml(set, prolog))
                }
                Err(SplitError::OtherRoot(_)) => classify_other(resp, expected, empty),
                Err(SplitError::NoRoot) => Verdict::Transient {
                    text: format!("{ENDPOINT} answered with no document (XML prolog only)"),
                    retry_after: None,
                    bad_answer: false,
                },
                Err(SplitError::Truncated(open)) => Verdict::Transient {
                    text: format!(
                        "{ENDPOINT} {} (it ends inside <{open}>)",
                        classify::CUT_SHORT
                    ),
                    retry_after: None,
                    bad_answer: true,
                },
                Err(SplitError::Malformed(why)) => Verdict::Fatal(Error::new(
                    Reason::NcbiInvalidResponse,
                    format!("{ENDPOINT} sent a body that does not parse: {why}"),
                )),
            }
        }
    }
}

/// The encoding a body declares: the `charset` of its `Content-Type`, else
/// the `encoding` of an XML declaration at its start; lower-cased.
fn declared_encoding(resp: &HttpResponse) -> Option<String> {
    let from_type = resp.content_type.as_deref().and_then(|t| {
        t.split(';').skip(1).find_map(|p| {
            let (k, v) = p.split_once('=')?;
            k.trim()
                .eq_ignore_ascii_case("charset")
                .then(|| v.trim().trim_matches('"').to_ascii_lowercase())
        })
    });
    from_type.or_else(|| {
        let head = &resp.body[..resp.body.len().min(200)];
        let head = std::str::from_utf8(head)
            .unwrap_or_else(|e| std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""));
        let decl = head.trim_start().strip_prefix("<?xml")?;
        let decl = &decl[..decl.find("?>")?];
        let at = decl.find("encoding")?;
        let rest = decl[at + "encoding".len()..]
            .trim_start()
            .strip_prefix('=')?;
        let rest = rest.trim_start();
        let quote = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
        let value = &rest[1..];
        Some(value[..value.find(quote)?].to_ascii_lowercase())
    })
}

/// The body as UTF-8, which is what EFetch sends (docs/fetch.md
/// "Requests"). Errors (for `ncbi_invalid_response`): a declared encoding
/// other than UTF-8 (or its ASCII subset), or bytes that are not UTF-8;
/// never read with replacement characters.
fn utf8_body(resp: &HttpResponse) -> std::result::Result<&str, String> {
    if let Some(enc) = declared_encoding(resp)
        && !matches!(enc.as_str(), "utf-8" | "utf8" | "us-ascii" | "ascii")
    {
        return Err(format!(
            "a body in the encoding {enc:?}; only UTF-8 is read"
        ));
    }
    std::str::from_utf8(&resp.body).map_err(|e| {
        format!(
            "a body that is not valid UTF-8 (at byte {})",
            e.valid_up_to()
        )
    })
}

/// True when a transient answer says NCBI ran out of time (`Status:
/// Timeout`, HTTP 504): a smaller chunk is the better retry.
fn is_timeout(text: &str, status: u16) -> bool {
    let t = text.to_ascii_lowercase();
    // A body cut short is as likely a chunk too slow to send whole.
    status == 504
        || text.contains(classify::CUT_SHORT)
        || t.contains("timeout")
        || t.contains("timed out")
        || t.contains("no answer within")
}

/// True when the chunk's answer was over the client's body cap.
fn over_cap(e: &Error) -> bool {
    e.reason == Reason::NcbiInvalidResponse
        && e.message.ends_with(&TransportError::TooLarge.to_string())
}

/// True when the client gave up on a chunk in a way a smaller chunk can
/// avoid: the body was over the cap, or no answer came in time.
fn worth_halving(e: &Error, len: usize) -> bool {
    let too_large = over_cap(e);
    let slow = matches!(e.reason, Reason::NcbiDeadlineExceeded)
        || (e.reason == Reason::NcbiUnreachable && is_timeout(&e.message, 0));
    (too_large && len > 1) || (slow && len > MIN_TIMEOUT_SPLIT)
}

impl Client {
    /// One EFetch request for `pmids` of `db`. When `may_halve`, an answer saying
    /// NCBI timed out ends the call at once (the caller halves the chunk)
    /// instead of being retried whole; the second value is then true.
    async fn efetch_once(
        &self,
        db: Db,
        pmids: &[String],
        mode: Mode,
        may_halve: bool,
    ) -> std::result::Result<ChunkBody, (Error, bool)> {
        let mut params = vec![("id", pmids.join(","))];
        match mode {
            Mode::Xml { .. } => params.push(("retmode", "xml".to_string())),
            Mode::Medline => {
                params.push(("rettype", "medline".to_string()));
                params.push(("retmode", "text".to_string()));
            }
        }
        let mut req = self.eutils_request("efetch.fcgi", db, params, pmids.len());
        // Always a form body: ID lists of any length, one request shape.
        req.method = Method::Post;
        let timed_out = AtomicBool::new(false);
        let empty_medline = AtomicBool::new(false);
        let result = self
            .execute(ENDPOINT, Lane::Eutils, &req, |resp| {
                // MEDLINE mode answers unknown PMIDs with no bytes at all
                // (docs/fetch.md "Unknown PMIDs in MEDLINE mode"): an empty
                // body that repeats is that answer, not an outage.
                if mode == Mode::Medline
                    && resp.status == 200
                    && resp.body.is_empty()
                    && empty_medline.swap(true, Ordering::Relaxed)
                {
                    return Verdict::Done(ChunkBody::Medline(Vec::new()));
                }
                match classify_body(&resp, mode) {
                    Verdict::Transient { text, .. }
                        if may_halve && is_timeout(&text, resp.status) =>
                    {
                        timed_out.store(true, Ordering::Relaxed);
                        Verdict::Fatal(Error::new(
                            Reason::NcbiUnreachable,
                            format!("{text} (a chunk of {} PMIDs)", pmids.len()),
                        ))
                    }
                    other => other,
                }
            })
            .await;
        result.map_err(|e| {
            let halve = timed_out.load(Ordering::Relaxed) || worth_halving(&e, pmids.len());
            (e, halve)
        })
    }

    /// Full records for `pmids` (canonical PMIDs) of `db`, which must hold
    /// PubMed records (`mode` reads `PubmedArticleSet` XML or MEDLINE
    /// text: [`Db::Pubmed`]), in as few EFetch
    /// requests as [`EFETCH_CHUNK`] allows; every distinct PMID gets an
    /// [`Entry`]. A chunk that times out, or whose body is over the cap,
    /// is halved and retried; a chunk that still fails gives its PMIDs
    /// `Missing { reason: Failed(…) }` and its error in `failures`.
    pub async fn efetch(&self, db: Db, pmids: &[String], mode: Mode) -> EfetchAnswer {
        let mut seen = HashSet::new();
        let unique: Vec<String> = pmids
            .iter()
            .filter(|p| seen.insert(p.as_str()))
            .cloned()
            .collect();
        let mut answer = EfetchAnswer::default();
        // Last in, first out: the first half of a split chunk goes first.
        let mut work: Vec<Vec<String>> = unique
            .chunks(EFETCH_CHUNK)
            .rev()
            .map(<[String]>::to_vec)
            .collect();
        while let Some(ids) = work.pop() {
            let may_halve = ids.len() > MIN_TIMEOUT_SPLIT;
            match self.efetch_once(db, &ids, mode, may_halve).await {
                Ok(body) => merge(&mut answer, &ids, body),
                // Over the cap: each PMID alone, so a PMID whose own record
                // is over the cap fails alone and every other costs 2
                // requests, not the 2n-1 of halving down to it (docs/fetch.md
                // "Requests").
                Err((e, true)) if ids.len() > 1 && over_cap(&e) => {
                    work.extend(ids.into_iter().rev().map(|id| vec![id]));
                }
                Err((_, true)) if ids.len() > 1 => {
                    let (a, b) = ids.split_at(ids.len() / 2);
                    work.push(b.to_vec());
                    work.push(a.to_vec());
                }
                Err((e, _)) => {
                    for id in &ids {
                        answer.entries.insert(
                            id.clone(),
                            Entry::Missing {
                                reason: MissingReason::Failed(e.reason),
                                message: e.message.clone(),
                            },
                        );
                    }
                    answer.failures.push(e);
                }
            }
        }
        answer
    }
}

/// Files `entry` under `pmid` unless the answer already held one: the same
/// record twice is kept once; two different records for one PMID is an
/// upstream fault, never "first wins" (docs/fetch.md "What each PMID
/// gets").
fn file_once(got: &mut HashMap<String, Entry>, pmid: String, entry: Entry) {
    use std::collections::hash_map::Entry as Slot;
    match got.entry(pmid) {
        Slot::Vacant(v) => {
            v.insert(entry);
        }
        Slot::Occupied(mut o) => {
            let same = match (o.get(), &entry) {
                (Entry::Article { record: a, .. }, Entry::Article { record: b, .. }) => a == b,
                (a, b) => a == b,
            };
            if !same {
                o.insert(Entry::Missing {
                    reason: MissingReason::Invalid,
                    message: "EFetch answered this PMID twice with different records".into(),
                });
            }
        }
    }
}

/// Files one chunk's answer under the PMIDs it was for; a PMID left out is
/// not found (or, when the answer held records that could not be matched,
/// possibly one of them).
fn merge(answer: &mut EfetchAnswer, ids: &[String], body: ChunkBody) {
    let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let mut extra: Vec<String> = Vec::new();
    let mut unattributed = 0;
    let mut got: HashMap<String, Entry> = HashMap::new();
    match body {
        ChunkBody::Xml(set, prolog) => {
            if answer.prolog.is_none() && !prolog.is_empty() {
                answer.prolog = Some(prolog);
            }
            unattributed = set.unattributed;
            for pmid in set.deleted {
                got.entry(pmid).or_insert_with(|| Entry::Missing {
                    reason: MissingReason::NotFound,
                    message: "PubMed lists this PMID as deleted (EFetch DeleteCitation)".into(),
                });
            }
            for (pmid, record, raw) in set.articles {
                if !wanted.contains(pmid.as_str()) {
                    extra.push(pmid);
                    continue;
                }
                let entry = match record {
                    Ok(record) => Entry::Article { record, raw },
                    Err(why) => Entry::Missing {
                        reason: MissingReason::Invalid,
                        message: format!("EFetch sent a record that cannot be read: {why}"),
                    },
                };
                file_once(&mut got, pmid, entry);
            }
        }
        ChunkBody::Medline(records) => {
            for (pmid, text) in records {
                if !wanted.contains(pmid.as_str()) {
                    extra.push(pmid);
                    continue;
                }
                file_once(&mut got, pmid, Entry::Medline(text));
            }
        }
    }
    for id in ids {
        let entry = got.remove(id).unwrap_or_else(|| {
            if unattributed > 0 || !extra.is_empty() {
                let mut why = String::new();
                if unattributed > 0 {
                    why.push_str(&format!("{unattributed} record(s) without a readable PMID"));
                }
                if !extra.is_empty() {
                    if !why.is_empty() {
                        why.push_str(" and ");
                    }
                    extra.sort();
                    why.push_str(&format!(
                        "records for PMIDs not asked for ({})",
                        extra.join(", ")
                    ));
                }
                Entry::Missing {
                    reason: MissingReason::Invalid,
                    message: format!(
                        "EFetch returned no record under this PMID, but its answer held {why}"
                    ),
                }
            } else {
                Entry::Missing {
                    reason: MissingReason::NotFound,
                    message: "EFetch returned no record for this PMID: it is not in PubMed".into(),
                }
            }
        });
        answer.entries.insert(id.clone(), entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In MEDLINE mode an XML answer is named as not being MEDLINE text
    /// (it used to read "expected <PubmedArticleSet>, found <PubmedArticleSet>").
    #[test]
    fn an_xml_answer_in_medline_mode_says_medline_was_expected() {
        let resp = HttpResponse {
            url: String::new(),
            status: 200,
            retry_after: None,
            content_type: Some("text/xml".into()),
            body: bytes::Bytes::from_static(
                b"<?xml version=\"1.0\" ?>\n<PubmedArticleSet>\n</PubmedArticleSet>\n",
            ),
        };
        let text = match classify_body(&resp, Mode::Medline) {
            Verdict::Fatal(e) => e.to_string(),
            Verdict::Transient { text, .. } => text,
            _ => panic!("an XML body is not MEDLINE records"),
        };
        assert!(
            text.contains("expected MEDLINE text, found <PubmedArticleSet>"),
            "{text}"
        );
    }

    /// An HTTP 200 answer with no bytes is transient in both modes; in
    /// MEDLINE mode it used to be read as "no records" (every PMID
    /// `not_found`). NCBI's framing alone (MEDLINE's leading line break)
    /// is still an answer without records.
    #[test]
    fn an_empty_200_body_is_transient_in_both_modes() {
        let resp = |body: &'static [u8]| HttpResponse {
            url: String::new(),
            status: 200,
            retry_after: None,
            content_type: Some("text/plain; charset=UTF-8".into()),
            body: bytes::Bytes::from_static(body),
        };
        for mode in [Mode::Medline, Mode::Xml { keep_raw: false }] {
            match classify_body(&resp(b""), mode) {
                Verdict::Transient {
                    text, retry_after, ..
                } => {
                    assert_eq!(text, "EFetch answered HTTP 200 with an empty body");
                    assert_eq!(retry_after, None);
                }
                _ => panic!("an empty body is transient ({mode:?})"),
            }
        }
        assert!(matches!(
            classify_body(&resp(b"\n"), Mode::Medline),
            Verdict::Done(ChunkBody::Medline(r)) if r.is_empty()
        ));
    }

    #[test]
    fn split_finds_each_article_and_the_prolog() {
        let body = "<?xml version=\"1.0\" ?>\n<!DOCTYPE PubmedArticleSet>\n<PubmedArticleSet>\n<PubmedArticle><MedlineCitation><PMID>1</PMID></MedlineCitation></PubmedArticle>\n<PubmedBookArticle/>\n<DeleteCitation><PMID>3</PMID></DeleteCitation></PubmedArticleSet>\n";
        let (at, spans) = split_set(body).unwrap();
        assert_eq!(&body[at..at + 18], "<PubmedArticleSet>");
        let names: Vec<&str> = spans.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["PubmedArticle", "PubmedBookArticle", "DeleteCitation"]
        );
        assert_eq!(
            &body[spans[0].range.clone()],
            "<PubmedArticle><MedlineCitation><PMID>1</PMID></MedlineCitation></PubmedArticle>"
        );
        assert_eq!(&body[spans[1].range.clone()], "<PubmedBookArticle/>");
    }

    /// The cache and `-f xml` keep every article's element: as slices of
    /// the answer's own buffer, not a second copy of the body beside it
    /// (README "Benchmarks": fetch's peak RSS).
    #[test]
    fn kept_articles_are_slices_of_the_body_not_copies() {
        let text = include_str!("../../tests/fixtures/efetch_pubmed_two_articles.xml");
        let body = Bytes::from(text);
        let text = std::str::from_utf8(&body).unwrap();
        let set = read_set(text, Some(&body)).unwrap();
        let pmids: Vec<&str> = set.articles.iter().map(|a| a.0.as_str()).collect();
        assert_eq!(pmids, ["11748933", "11700088"]);
        let buffer = body.as_ptr_range();
        for (pmid, record, raw) in &set.articles {
            let raw = raw.as_ref().expect("kept").as_str();
            assert!(raw.starts_with("<PubmedArticle>") && raw.ends_with("</PubmedArticle>"));
            assert!(raw.contains(&format!("<PMID Version=\"1\">{pmid}</PMID>")));
            assert!(text.contains(raw));
            assert!(buffer.contains(&raw.as_ptr()), "PMID {pmid}: a copy");
            assert_eq!(record.as_ref().unwrap().pmid, *pmid);
        }
        let unkept = read_set(text, None).unwrap();
        assert!(unkept.articles.iter().all(|a| a.2.is_none()));
    }

    #[test]
    fn split_rejects_what_is_not_a_whole_set() {
        assert_eq!(
            split_set("<?xml version=\"1.0\"?>\n"),
            Err(SplitError::NoRoot)
        );
        assert_eq!(
            split_set("<eFetchResult><ERROR>x</ERROR></eFetchResult>"),
            Err(SplitError::OtherRoot("eFetchResult".into()))
        );
        // Cut short inside an article, or after one: transient, not malformed.
        assert_eq!(
            split_set("<PubmedArticleSet><PubmedArticle>"),
            Err(SplitError::Truncated("PubmedArticle".into()))
        );
        assert_eq!(
            split_set("<PubmedArticleSet><PubmedArticle></PubmedArticle>"),
            Err(SplitError::Truncated("PubmedArticleSet".into()))
        );
        for bad in [
            "<PubmedArticleSet><PubmedArticle></PubmedBookArticle></PubmedArticleSet>",
            "<PubmedArticleSet></PubmedArticleSet><PubmedArticleSet/>",
            "<PubmedArticleSet></PubmedArticleSet>tail",
        ] {
            assert!(
                matches!(split_set(bad), Err(SplitError::Malformed(_))),
                "{bad}"
            );
        }
        assert_eq!(split_set("<PubmedArticleSet/>").unwrap().1, vec![]);
    }

    #[test]
    fn markup_keeps_its_text() {
        let e = xml::parse(
            "<ArticleTitle>Leucocyte telomere length at the <i>TERT</i> gene, CO<sub>2</sub> &amp; p&lt;0.05 (0.4-<u>&lt;</u>4.5)</ArticleTitle>",
        )
        .unwrap();
        assert_eq!(
            plain_text(&e),
            "Leucocyte telomere length at the TERT gene, CO2 & p<0.05 (0.4-<4.5)"
        );
    }

    #[test]
    fn mathml_is_written_as_linear_tex() {
        let e = xml::parse(
            "<AbstractText>inhaled <mml:math xmlns:mml=\"http://www.w3.org/1998/Math/MathML\">\n  <mml:mrow>\n    <mml:mmultiscripts>\n      <mml:mrow><mml:mi>He</mml:mi></mml:mrow>\n      <mml:mprescripts/>\n      <mml:none/>\n      <mml:mrow><mml:mn>3</mml:mn></mml:mrow>\n    </mml:mmultiscripts>\n    <mml:mo>/</mml:mo>\n    <mml:mtext> </mml:mtext>\n    <mml:mi>MRI</mml:mi>\n    <mml:mfrac><mml:mi>a</mml:mi><mml:mn>2</mml:mn></mml:mfrac>\n  </mml:mrow>\n</mml:math> ventilation</AbstractText>",
        )
        .unwrap();
        // pandoc 3.9 (`-f jats -t latex`) on the same <mml:math>:
        // \({{}_{}^{3}{He}}/{MRI}\frac{a}{2}\)
        assert_eq!(
            plain_text(&e),
            "inhaled ${{}_{}^{3}{He}}/{MRI}\\frac{a}{2}$ ventilation"
        );
    }

    #[test]
    fn medline_text_splits_into_records() {
        let body = "\nPMID- 1\nTI  - One.\n      more\n\nPMID- 002\r\nTI  - Two.\r\n\n";
        let r = split_medline(body).unwrap();
        assert_eq!(
            r,
            vec![
                (
                    "1".to_string(),
                    "PMID- 1\nTI  - One.\n      more\n".to_string()
                ),
                ("2".to_string(), "PMID- 002\r\nTI  - Two.\r\n".to_string()),
            ]
        );
        assert_eq!(split_medline("").unwrap(), vec![]);
        assert!(split_medline("TI  - orphan\n").is_err());
        assert!(split_medline("PMID- x\n").is_err());
    }

    proptest::proptest! {
        /// Whatever a chunk's answer holds — the PMIDs asked for, others,
        /// repeats, deletions, unreadable articles — every PMID sent gets
        /// exactly one entry and nothing else does.
        #[test]
        fn every_pmid_sent_gets_one_entry(
            sent in proptest::collection::hash_set(1u64..60, 0..30),
            answered in proptest::collection::vec((1u64..80, proptest::bool::ANY), 0..40),
            deleted in proptest::collection::vec(1u64..80, 0..5),
            unattributed in 0usize..3,
        ) {
            let ids: Vec<String> = sent.iter().map(u64::to_string).collect();
            let set = ChunkSet {
                prolog_len: 0,
                articles: answered
                    .iter()
                    .map(|(p, ok)| {
                        let r = if *ok { Ok(Box::default()) } else { Err("bad".to_string()) };
                        (p.to_string(), r, None)
                    })
                    .collect(),
                deleted: deleted.iter().map(u64::to_string).collect(),
                unattributed,
            };
            let mut answer = EfetchAnswer::default();
            merge(&mut answer, &ids, ChunkBody::Xml(set, Arc::from("")));
            proptest::prop_assert_eq!(answer.entries.len(), ids.len());
            for id in &ids {
                let n: u64 = id.parse().unwrap();
                let found = answered.iter().find(|(p, _)| *p == n);
                let got = match &answer.entries[id] {
                    Entry::Article { .. } => "article",
                    Entry::Missing { reason: MissingReason::NotFound, .. } => "not found",
                    Entry::Missing { reason: MissingReason::Invalid, .. } => "invalid",
                    _ => "other",
                };
                // What the answer says of n: deleted, a record, an
                // unreadable one; two different sayings are an upstream
                // fault (docs/fetch.md), the same twice is one.
                let mut said: Vec<&str> = answered
                    .iter()
                    .filter(|(p, _)| *p == n)
                    .map(|(_, ok)| if *ok { "article" } else { "invalid" })
                    .collect();
                if deleted.contains(&n) {
                    said.push("not found");
                }
                said.sort();
                said.dedup();
                let want = match (said.as_slice(), found) {
                    ([one], _) => *one,
                    ([_, _, ..], _) => "invalid",
                    ([], _) if unattributed > 0 || answered.iter().any(|(p, _)| !sent.contains(p)) => "invalid",
                    ([], _) => "not found",
                };
                proptest::prop_assert_eq!(got, want, "PMID {}", id);
            }
        }
    }

    #[test]
    fn halving_is_for_size_and_time() {
        let big = Error::new(
            Reason::NcbiInvalidResponse,
            format!("EFetch: {}", TransportError::TooLarge),
        );
        assert!(worth_halving(&big, 2));
        assert!(!worth_halving(&big, 1));
        let slow = Error::new(
            Reason::NcbiUnreachable,
            "gave up after 7 attempts: EFetch gave no answer within 30s",
        );
        assert!(worth_halving(&slow, 1000));
        let slow = Error::new(Reason::NcbiDeadlineExceeded, "EFetch did not answer");
        assert!(worth_halving(&slow, 1000));
        assert!(!worth_halving(&slow, MIN_TIMEOUT_SPLIT));
        let timeout = Error::new(
            Reason::NcbiUnreachable,
            "EFetch reported an error: Error: External viewer error: Empty Response. Bytes read: 0 Status: Timeout",
        );
        assert!(worth_halving(&timeout, 1000));
        let down = Error::new(Reason::NcbiUnreachable, "EFetch answered HTTP 503");
        assert!(!worth_halving(&down, 1000));
    }
}
