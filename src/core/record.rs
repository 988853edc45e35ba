//! The full PubMed record (`pubmed fetch`, docs/fetch.md "The record"): a
//! typed view of one EFetch `PubmedArticle` or `PubmedBookArticle`, and the
//! pure rules used to build it — publication dates at the precision
//! written, page ranges, ORCID iDs, author display names. No I/O; the XML
//! side lives in `ncbi::efetch`.
//!
//! The struct keeps what citation formats need without re-parsing: the
//! date's parts and precision ([`DateParts`]), first and last page
//! ([`Pages`]), a book's publisher, place, edition, editors and chapter,
//! and the record's kind ([`Record::kind`]).

use serde::{Deserialize, Serialize};

use super::dates::days_in_month;

/// One PubMed record. JSON field names are camelCase; absent values are
/// `null` (or `[]` for lists), never invented.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// The PMID (`MedlineCitation/PMID` or `BookDocument/PMID`).
    pub pmid: String,
    /// `ArticleTitle` as plain text (markup dropped, its text kept); for a
    /// whole book without one, the `BookTitle`.
    pub title: String,
    /// `VernacularTitle`: the title in the original language.
    pub vernacular_title: Option<String>,
    /// `title` is the `VernacularTitle` because `ArticleTitle` is empty
    /// (as Zotero's PubMed importer does; docs/fetch.md).
    pub title_from_vernacular: bool,
    /// The abstract as one plain text: sections in order, each as
    /// `LABEL: text` when it has a label, joined by one space (as MEDLINE's
    /// `AB` field). `None` without an abstract.
    pub r#abstract: Option<String>,
    /// `Abstract/AbstractText` sections in order.
    pub abstract_sections: Vec<AbstractSection>,
    /// Authors in PubMed's order, collective names in place.
    pub authors: Vec<Author>,
    /// The journal, for journal articles (`None` for book records).
    pub journal: Option<Journal>,
    /// The publication date as ISO 8601 at the precision written:
    /// `2016 Winter` → `2016`, `2000 Nov-Dec` → `2000-11`, `1976 Sep 28`
    /// → `1976-09-28`. `None` when no year is written.
    pub pub_date: Option<String>,
    /// The publication date as written (`1990 Spring`, `2000 Nov-Dec`).
    pub pub_date_text: String,
    /// The electronic publication date (`ArticleDate DateType="Electronic"`), ISO.
    pub article_date: Option<String>,
    /// The article's own DOI: `ArticleIdList` `doi`, else an `ELocationID`
    /// of type doi; never one from the reference list.
    pub doi: Option<String>,
    /// `ArticleId IdType="pmc"` (`PMC5442267`).
    pub pmcid: Option<String>,
    /// `ArticleId IdType="pii"`, else an `ELocationID` of type pii.
    pub pii: Option<String>,
    /// `Language` codes (`eng`, `spa`).
    pub language: Vec<String>,
    /// `PublicationType` names in order.
    pub pub_types: Vec<String>,
    /// `MeshHeadingList` in order.
    pub mesh_headings: Vec<MeshHeading>,
    /// `Keyword`s of every `KeywordList`, in order.
    pub keywords: Vec<String>,
    /// `GrantList/Grant` in order.
    pub grants: Vec<Grant>,
    /// `CommentsCorrectionsList` in order (errata, comments, updates,
    /// retractions, `Cites`).
    pub comments_corrections: Vec<CommentCorrection>,
    /// A `RetractionIn` link or the `Retracted Publication` type.
    pub retracted: bool,
    /// The record is a retraction notice: a `RetractionOf` link or the
    /// `Retraction of Publication` type.
    pub retraction_notice: bool,
    /// Book details, for `PubmedBookArticle` records (`None` for articles).
    pub book: Option<Book>,
    /// `https://pubmed.ncbi.nlm.nih.gov/PMID/`.
    pub pubmed_url: String,
    /// The parts of the publication date (for citation formats); not in JSON.
    #[serde(skip)]
    pub date_parts: DateParts,
}

/// What kind of work a record describes (RIS `TY`, BibTeX entry type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    /// A journal article (`PubmedArticle`).
    JournalArticle,
    /// A whole book (`PubmedBookArticle` without an `ArticleTitle`).
    Book,
    /// A part of a book (`PubmedBookArticle` with an `ArticleTitle`).
    BookChapter,
}

impl Record {
    /// The record's kind: from `book` and whether it names a chapter.
    pub fn kind(&self) -> RecordKind {
        match &self.book {
            None => RecordKind::JournalArticle,
            Some(b) if b.is_part => RecordKind::BookChapter,
            Some(_) => RecordKind::Book,
        }
    }

    /// The page range, wherever it is written (journal or book).
    pub fn pages(&self) -> Option<&Pages> {
        let p = match (&self.journal, &self.book) {
            (Some(j), _) => &j.pages,
            (None, Some(b)) => &b.pages,
            (None, None) => return None,
        };
        (p.pages.is_some() || p.start_page.is_some()).then_some(p)
    }

    /// The retraction notice this record points to (`RetractionIn`), if any.
    pub fn retraction_link(&self) -> Option<&CommentCorrection> {
        self.comments_corrections
            .iter()
            .find(|c| c.r#type == "RetractionIn")
    }
}

/// One `AbstractText` section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AbstractSection {
    /// The `Label` attribute as written (`OBJECTIVES`, `WHAT IS NEW?`).
    pub label: Option<String>,
    /// The `NlmCategory` attribute (`OBJECTIVE`, `METHODS`, …).
    pub nlm_category: Option<String>,
    /// The section text, plain.
    pub text: String,
}

/// One author (or editor) in PubMed's order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Author {
    /// `LastName Initials` (`Olivero JM`), or the collective name.
    pub name: String,
    /// `LastName`.
    pub last_name: Option<String>,
    /// `ForeName`.
    pub fore_name: Option<String>,
    /// `Initials`.
    pub initials: Option<String>,
    /// `Suffix` (`Jr`, `3rd`).
    pub suffix: Option<String>,
    /// `CollectiveName` (a group author, in place in the list).
    pub collective_name: Option<String>,
    /// `AffiliationInfo/Affiliation`, in order.
    pub affiliations: Vec<String>,
    /// The ORCID iD as `0000-0002-4590-7461` (from `Identifier Source="ORCID"`).
    pub orcid: Option<String>,
}

impl Author {
    /// A personal author from its name parts (display name `Last FM`,
    /// `Last FM Suffix` as MEDLINE's `AU` writes it).
    pub fn person(
        last: Option<String>,
        fore: Option<String>,
        initials: Option<String>,
        suffix: Option<String>,
    ) -> Author {
        let mut name = display_name(last.as_deref(), initials.as_deref(), fore.as_deref());
        // MEDLINE's `AU` keeps the suffix: `Ivanova FT Jr`.
        if let Some(s) = suffix.as_deref().map(str::trim).filter(|s| !s.is_empty())
            && !name.is_empty()
        {
            name.push(' ');
            name.push_str(s);
        }
        Author {
            name,
            last_name: last,
            fore_name: fore,
            initials,
            suffix,
            ..Default::default()
        }
    }

    /// A group author.
    pub fn collective(name: String) -> Author {
        Author {
            name: name.clone(),
            collective_name: Some(name),
            ..Default::default()
        }
    }
}

/// The display name PubMed uses (`Olivero JM`): last name and initials;
/// the fore name when there are no initials; whichever part exists.
pub fn display_name(last: Option<&str>, initials: Option<&str>, fore: Option<&str>) -> String {
    let last = last.filter(|s| !s.is_empty());
    let tail = initials
        .filter(|s| !s.is_empty())
        .or(fore.filter(|s| !s.is_empty()));
    match (last, tail) {
        (Some(l), Some(t)) => format!("{l} {t}"),
        (Some(l), None) => l.to_string(),
        (None, Some(t)) => t.to_string(),
        (None, None) => String::new(),
    }
}

/// A journal article's journal and issue.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Journal {
    /// `Journal/Title` (`Social justice (San Francisco, Calif.)`).
    pub title: String,
    /// `ISOAbbreviation` (`Soc Justice`).
    pub iso_abbreviation: Option<String>,
    /// `MedlineJournalInfo/MedlineTA`, the NLM title abbreviation.
    pub medline_ta: Option<String>,
    /// The first `ISSN`.
    pub issn: Option<String>,
    /// `JournalIssue/Volume`.
    pub volume: Option<String>,
    /// `JournalIssue/Issue`.
    pub issue: Option<String>,
    /// Pages: `pages` (`113-25`), `startPage`, `endPage`.
    #[serde(flatten)]
    pub pages: Pages,
}

/// A page range: `pages` as PubMed writes it (`MedlinePgn`), and the first
/// and last page (`StartPage`/`EndPage`, else read from `MedlinePgn` with
/// the end page written out in full: `113-25` → 113 and 125).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pages {
    /// `MedlinePgn`, else `StartPage-EndPage`.
    pub pages: Option<String>,
    /// The first page.
    pub start_page: Option<String>,
    /// The last page, in full.
    pub end_page: Option<String>,
}

impl Pages {
    /// Builds the range from `MedlinePgn`, `StartPage` and `EndPage` as written.
    pub fn new(medline: Option<String>, start: Option<String>, end: Option<String>) -> Pages {
        let (derived_start, derived_end) =
            medline.as_deref().map(split_pages).unwrap_or((None, None));
        let pages = medline.or_else(|| match (&start, &end) {
            (Some(s), Some(e)) => Some(format!("{s}-{e}")),
            (Some(s), None) => Some(s.clone()),
            _ => None,
        });
        let start_page = start.or(derived_start);
        let end_page = end.or(derived_end);
        Pages {
            pages,
            start_page,
            end_page,
        }
    }
}

/// First and last page of a `MedlinePgn` value (its first range): `113-25`
/// → (`113`, `125`), `1116-1122` → (`1116`, `1122`), `S1-3` → (`S1`,
/// `S3`), `026002` → (`026002`, none). Pure.
pub fn split_pages(pgn: &str) -> (Option<String>, Option<String>) {
    let first = pgn
        .split([',', ';'])
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    if first.is_empty() {
        return (None, None);
    }
    let Some((start, end)) = first.split_once('-') else {
        return (Some(first), None);
    };
    let (start, end) = (start.trim(), end.trim());
    if start.is_empty() {
        return (None, None);
    }
    if end.is_empty() {
        return (Some(start.to_string()), None);
    }
    // `113-25`: the end page repeats only the digits that change.
    let digits_at = start
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit())
        .last()
        .map(|(i, _)| i);
    let full_end = match digits_at {
        Some(i) if end.bytes().all(|b| b.is_ascii_digit()) => {
            let (prefix, digits) = start.split_at(i);
            if end.len() < digits.len() {
                format!("{prefix}{}{end}", &digits[..digits.len() - end.len()])
            } else {
                format!("{prefix}{end}")
            }
        }
        _ => end.to_string(),
    };
    (Some(start.to_string()), Some(full_end))
}

/// A book record's book (`PubmedBookArticle/BookDocument/Book`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Book {
    /// `BookTitle` (`GeneReviews™`).
    pub title: String,
    /// `Publisher/PublisherName`.
    pub publisher: Option<String>,
    /// `Publisher/PublisherLocation` (`Seattle (WA)`).
    pub publisher_location: Option<String>,
    /// `Edition`.
    pub edition: Option<String>,
    /// `Volume`.
    pub volume: Option<String>,
    /// `VolumeTitle`.
    pub volume_title: Option<String>,
    /// `CollectionTitle` (the series).
    pub collection_title: Option<String>,
    /// `Isbn` values.
    pub isbn: Vec<String>,
    /// The book's editors (`Book/AuthorList Type="editors"`), in order.
    pub editors: Vec<Author>,
    /// The book's authors (`Book/AuthorList Type="authors"`), in order. For
    /// a whole book they are also the record's `authors`; for a chapter
    /// they are the book's (CSL `container-author`), apart from the
    /// chapter's own authors.
    pub authors: Vec<Author>,
    /// `Medium` (`Internet`).
    pub medium: Option<String>,
    /// `ReportNumber`.
    pub report_number: Option<String>,
    /// `LocationLabel`s of the part (`Chapter 5`), as written.
    pub location_labels: Vec<String>,
    /// `ArticleId IdType="bookaccession"` (`NBK1116`).
    pub accession: Option<String>,
    /// `BeginningDate`, ISO at its precision.
    pub beginning_date: Option<String>,
    /// `EndingDate`, ISO at its precision.
    pub ending_date: Option<String>,
    /// The record is a part of the book (it has its own `ArticleTitle`).
    pub is_part: bool,
    /// The part's pages (`BookDocument/Pagination`).
    #[serde(flatten)]
    pub pages: Pages,
}

/// One MeSH heading.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeshHeading {
    /// `DescriptorName`.
    pub descriptor: String,
    /// The descriptor's `MajorTopicYN="Y"`.
    pub major: bool,
    /// `QualifierName`s in order.
    pub qualifiers: Vec<MeshQualifier>,
}

impl MeshHeading {
    /// The heading as MEDLINE's `MH` writes it: `*` before each major
    /// topic, qualifiers after `/` (`Chromatium/*enzymology`).
    pub fn medline_form(&self) -> String {
        let star = |major: bool| if major { "*" } else { "" };
        let mut s = format!("{}{}", star(self.major), self.descriptor);
        for q in &self.qualifiers {
            s.push('/');
            s.push_str(star(q.major));
            s.push_str(&q.name);
        }
        s
    }
}

/// One MeSH qualifier.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeshQualifier {
    /// `QualifierName`.
    pub name: String,
    /// `MajorTopicYN="Y"`.
    pub major: bool,
}

/// One grant.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Grant {
    /// `GrantID` (`KL2 TR001100`).
    pub id: Option<String>,
    /// `Agency` (`NCATS NIH HHS`).
    pub agency: Option<String>,
    /// `Country`.
    pub country: Option<String>,
}

/// One `CommentsCorrections` link.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommentCorrection {
    /// `RefType` (`ErratumIn`, `CommentIn`, `UpdateIn`, `RetractionIn`, …).
    pub r#type: String,
    /// The linked record's PMID, when given.
    pub pmid: Option<String>,
    /// `RefSource` (`BMJ. 2022 Apr 25;377:o1045. doi: 10.1136/bmj.o1045.`).
    pub source: Option<String>,
}

/// How much of a date is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Precision {
    /// No year: nothing usable.
    #[default]
    None,
    /// A year (a season counts as only the year).
    Year,
    /// Year and month.
    Month,
    /// Year, month and day.
    Day,
}

/// A publication date's parts as written: the month and day only when
/// they are written (a season or a month range never becomes a month or a
/// day of its own), and the text verbatim.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DateParts {
    /// Four-digit year.
    pub year: Option<i32>,
    /// Month 1–12, when written.
    pub month: Option<u8>,
    /// Day of month, when written (and the month too).
    pub day: Option<u8>,
    /// `Season` (`Spring`, `Winter`) when written.
    pub season: Option<String>,
    /// The date as written: `Year Month Day`/`Year Season` joined with
    /// spaces, or `MedlineDate` verbatim.
    pub text: String,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// A month as PubMed writes it: `Jan`, `January`, `Sept`, `06`, `6`.
pub fn month_number(s: &str) -> Option<u8> {
    let t = s.trim();
    if !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse::<u8>().ok().filter(|m| (1..=12).contains(m));
    }
    let lower = t.to_ascii_lowercase();
    if lower.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| lower.starts_with(m))
        .map(|i| i as u8 + 1)
}

fn four_digit_year(s: &str) -> Option<i32> {
    (s.len() == 4 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

const SEASONS: [&str; 5] = ["spring", "summer", "fall", "autumn", "winter"];

impl DateParts {
    /// A structured date (`PubDate` with `Year`, `Month`, `Day`, `Season`
    /// children), values as written. A month or day that is not a real
    /// calendar value is dropped, never guessed.
    pub fn structured(
        year: Option<&str>,
        month: Option<&str>,
        day: Option<&str>,
        season: Option<&str>,
    ) -> DateParts {
        let text = [year, month, day, season]
            .into_iter()
            .flatten()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let y = year.and_then(|y| four_digit_year(y.trim()));
        // A `Season` that is a month range (`Nov-Dec`) gives its first
        // month, the precision NCBI wrote; a real season gives none.
        let season_month = season
            .and_then(|s| s.split(['-', '/']).next())
            .filter(|w| !SEASONS.contains(&w.trim().to_ascii_lowercase().as_str()))
            .filter(|w| w.trim().len() >= 3)
            .and_then(month_number);
        let m = y.and(month.and_then(month_number).or(season_month));
        let d = match (y, m, day) {
            (Some(y), Some(m), Some(d)) => d
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|d| *d >= 1 && *d <= days_in_month(y, m)),
            _ => None,
        };
        DateParts {
            year: y,
            month: m,
            day: d,
            season: season
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty() && season_month.is_none()),
            text,
        }
    }

    /// A `MedlineDate` (`1998 Dec-1999 Jan`, `2000 Nov-Dec`, `1975-1976`,
    /// `1989 Dec 18-25`, `1977 Summer`): the year, and the first month and
    /// day written right after it; a range never yields a later part.
    pub fn medline(text: &str) -> DateParts {
        let text = text.trim();
        let mut parts = DateParts {
            text: text.to_string(),
            ..Default::default()
        };
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let Some(first) = tokens.first() else {
            return parts;
        };
        let head = first.split('-').next().unwrap_or_default();
        let Some(year) = four_digit_year(head) else {
            // `Spring 2012`: a year written later is still the year.
            parts.year = tokens
                .iter()
                .find_map(|t| four_digit_year(t.trim_matches(|c: char| !c.is_ascii_digit())));
            parts.season = tokens
                .iter()
                .find(|t| SEASONS.contains(&t.to_ascii_lowercase().as_str()))
                .map(|s| s.to_string());
            return parts;
        };
        parts.year = Some(year);
        if first.len() > 4 {
            // `1975-1976`: a range of years.
            return parts;
        }
        let Some(second) = tokens.get(1) else {
            return parts;
        };
        let month_word = second.split('-').next().unwrap_or_default();
        if SEASONS.contains(&month_word.to_ascii_lowercase().as_str()) {
            parts.season = Some(month_word.to_string());
            return parts;
        }
        let Some(m) = month_number(month_word).filter(|_| !month_word.is_empty()) else {
            return parts;
        };
        // A bare number is a day only after a month name, not `1975 12`.
        if month_word.bytes().all(|b| b.is_ascii_digit()) {
            return parts;
        }
        parts.month = Some(m);
        if second.contains('-') {
            return parts;
        }
        if let Some(third) = tokens.get(2) {
            let day_word = third.split('-').next().unwrap_or_default();
            if (1..=2).contains(&day_word.len()) && day_word.bytes().all(|b| b.is_ascii_digit()) {
                parts.day = day_word
                    .parse::<u8>()
                    .ok()
                    .filter(|d| *d >= 1 && *d <= days_in_month(year, m));
            }
        }
        parts
    }

    /// How much of the date is written.
    pub fn precision(&self) -> Precision {
        match (self.year, self.month, self.day) {
            (None, _, _) => Precision::None,
            (Some(_), None, _) => Precision::Year,
            (Some(_), Some(_), None) => Precision::Month,
            (Some(_), Some(_), Some(_)) => Precision::Day,
        }
    }

    /// ISO 8601 at the written precision (`2016`, `2000-11`, `1976-09-28`);
    /// `None` without a year.
    pub fn iso(&self) -> Option<String> {
        let y = self.year?;
        Some(match (self.month, self.day) {
            (Some(m), Some(d)) => format!("{y:04}-{m:02}-{d:02}"),
            (Some(m), None) => format!("{y:04}-{m:02}"),
            _ => format!("{y:04}"),
        })
    }
}

/// An ORCID iD in its plain form (`0000-0002-4590-7461`) from what PubMed
/// writes (`https://orcid.org/…`, `http://orcid.org/…`, the bare iD, or 16
/// characters without hyphens); anything else is kept as written, trimmed.
pub fn normalize_orcid(s: &str) -> String {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let bare = ["https://orcid.org/", "http://orcid.org/", "orcid.org/"]
        .iter()
        .find_map(|p| lower.starts_with(p).then(|| &t[p.len()..]))
        .unwrap_or(t)
        .trim_matches('/');
    let compact: String = bare.chars().filter(|c| *c != '-').collect();
    let well_formed = compact.len() == 16
        && compact
            .char_indices()
            .all(|(i, c)| c.is_ascii_digit() || (i == 15 && (c == 'X' || c == 'x')));
    if well_formed {
        let c = compact.to_ascii_uppercase();
        format!("{}-{}-{}-{}", &c[0..4], &c[4..8], &c[8..12], &c[12..16])
    } else {
        t.to_string()
    }
}

/// The abstract's plain text from its sections: `LABEL: text` joined by
/// one space, as MEDLINE's `AB` field; `None` when every section is empty.
pub fn join_abstract(sections: &[AbstractSection]) -> Option<String> {
    let parts: Vec<String> = sections
        .iter()
        .filter(|s| !s.text.is_empty() || s.label.is_some())
        .map(|s| match &s.label {
            Some(l) if !s.text.is_empty() => format!("{l}: {}", s.text),
            Some(l) => format!("{l}:"),
            None => s.text.clone(),
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The PubMed web address of a PMID.
pub fn pubmed_url(pmid: &str) -> String {
    format!("https://pubmed.ncbi.nlm.nih.gov/{pmid}/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medline_pages_are_written_out() {
        let s = |a: &str, b: Option<&str>| (Some(a.to_string()), b.map(str::to_string));
        assert_eq!(split_pages("113-25"), s("113", Some("125")));
        assert_eq!(split_pages("179-91"), s("179", Some("191")));
        assert_eq!(split_pages("1116-1122"), s("1116", Some("1122")));
        assert_eq!(split_pages("1103-10"), s("1103", Some("1110")));
        assert_eq!(split_pages("026002"), s("026002", None));
        assert_eq!(split_pages("S1-3"), s("S1", Some("S3")));
        assert_eq!(split_pages("e1-e7"), s("e1", Some("e7")));
        assert_eq!(split_pages("iii-iv"), s("iii", Some("iv")));
        assert_eq!(split_pages("99-101"), s("99", Some("101")));
        assert_eq!(
            split_pages("113-25; discussion 126-7"),
            s("113", Some("125"))
        );
        assert_eq!(split_pages(""), (None, None));
        assert_eq!(split_pages("-5"), (None, None));
    }

    #[test]
    fn pages_prefer_the_elements_written() {
        let p = Pages::new(
            Some("113-25".into()),
            Some("113".into()),
            Some("125".into()),
        );
        assert_eq!(p.pages.as_deref(), Some("113-25"));
        assert_eq!(p.end_page.as_deref(), Some("125"));
        let p = Pages::new(None, Some("296".into()), Some("297".into()));
        assert_eq!(p.pages.as_deref(), Some("296-297"));
        let p = Pages::new(Some("1116-1122".into()), None, None);
        assert_eq!(
            (p.start_page.as_deref(), p.end_page.as_deref()),
            (Some("1116"), Some("1122"))
        );
        assert_eq!(Pages::new(None, None, None), Pages::default());
    }

    #[test]
    fn structured_dates_keep_their_precision() {
        let d = DateParts::structured(Some("1990"), None, None, Some("Spring"));
        assert_eq!(
            (d.iso().as_deref(), d.text.as_str()),
            (Some("1990"), "1990 Spring")
        );
        assert_eq!(d.precision(), Precision::Year);
        let d = DateParts::structured(Some("1976"), Some("Sep"), Some("28"), None);
        assert_eq!(d.iso().as_deref(), Some("1976-09-28"));
        assert_eq!(d.text, "1976 Sep 28");
        let d = DateParts::structured(Some("2017"), Some("06"), None, None);
        assert_eq!(d.iso().as_deref(), Some("2017-06"));
        let d = DateParts::structured(Some("2017"), Some("Feb"), Some("31"), None);
        assert_eq!(d.iso().as_deref(), Some("2017-02"));
        let d = DateParts::structured(None, Some("Feb"), None, None);
        assert_eq!(d.iso(), None);
        // PMID 23878845: `<Year>2013</Year><Season>Nov-Dec</Season>`.
        let d = DateParts::structured(Some("2013"), None, None, Some("Nov-Dec"));
        assert_eq!(
            (d.iso().as_deref(), d.season.as_deref()),
            (Some("2013-11"), None)
        );
        assert_eq!(d.text, "2013 Nov-Dec");
        let d = DateParts::structured(Some("2001"), None, None, Some("Fall-Winter"));
        assert_eq!(
            (d.iso().as_deref(), d.season.as_deref()),
            (Some("2001"), Some("Fall-Winter"))
        );
    }

    #[test]
    fn medline_dates_never_invent_a_month_or_day() {
        for (text, iso, season) in [
            ("2000 Nov-Dec", Some("2000-11"), None),
            ("1998 Dec-1999 Jan", Some("1998-12"), None),
            ("1975-1976", Some("1975"), None),
            ("1989 Dec 18-25", Some("1989-12-18"), None),
            ("1977 Summer", Some("1977"), Some("Summer")),
            ("2016 Winter", Some("2016"), Some("Winter")),
            ("1995 Jan 5-19", Some("1995-01-05"), None),
            ("Spring 2012", Some("2012"), Some("Spring")),
            ("2001 Fall-Winter", Some("2001"), Some("Fall")),
            ("1983 12", Some("1983"), None),
            ("", None, None),
            ("n.d.", None, None),
        ] {
            let d = DateParts::medline(text);
            assert_eq!(d.iso().as_deref(), iso, "{text}");
            assert_eq!(d.season.as_deref(), season, "{text}");
            assert_eq!(d.text, text);
        }
    }

    #[test]
    fn months() {
        assert_eq!(month_number("Sept"), Some(9));
        assert_eq!(month_number("December"), Some(12));
        assert_eq!(month_number("06"), Some(6));
        assert_eq!(month_number("13"), None);
        assert_eq!(month_number("Ma"), None);
        assert_eq!(month_number("Winter"), None);
    }

    #[test]
    fn orcid_forms() {
        for (given, want) in [
            (
                "https://orcid.org/0000-0002-4590-7461",
                "0000-0002-4590-7461",
            ),
            (
                "http://orcid.org/0000-0002-4590-7461",
                "0000-0002-4590-7461",
            ),
            ("0000000245907461", "0000-0002-4590-7461"),
            (" 0000-0001-5109-358X ", "0000-0001-5109-358X"),
            ("000000015109358x", "0000-0001-5109-358X"),
            ("not an orcid", "not an orcid"),
        ] {
            assert_eq!(normalize_orcid(given), want, "{given}");
        }
    }

    #[test]
    fn display_names() {
        assert_eq!(
            display_name(Some("Olivero"), Some("JM"), Some("J Michael")),
            "Olivero JM"
        );
        assert_eq!(display_name(Some("Plato"), None, None), "Plato");
        assert_eq!(display_name(Some("Doe"), None, Some("Jane")), "Doe Jane");
        assert_eq!(display_name(None, None, None), "");
        let a = Author::person(
            Some("Wise".into()),
            Some("John Pierce".into()),
            Some("JP".into()),
            Some("Sr".into()),
        );
        assert_eq!(a.name, "Wise JP Sr");
    }

    #[test]
    fn abstract_joins_labels() {
        let s = |l: Option<&str>, t: &str| AbstractSection {
            label: l.map(str::to_string),
            nlm_category: None,
            text: t.into(),
        };
        assert_eq!(
            join_abstract(&[s(Some("BACKGROUND"), "Why."), s(Some("METHODS"), "How.")]).as_deref(),
            Some("BACKGROUND: Why. METHODS: How.")
        );
        assert_eq!(
            join_abstract(&[s(None, "Plain.")]).as_deref(),
            Some("Plain.")
        );
        assert_eq!(join_abstract(&[s(None, "")]), None);
    }
}
