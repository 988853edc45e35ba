//! How a PubMed record becomes a citation (docs/cite.md): its CSL-JSON item
//! (the one mapping behind `fetch -f csl-json` and every formatted reference
//! of `cite`), the retraction note every export carries, name parts, and
//! PubMed's language codes as BCP 47 tags. Pure: no I/O.

use serde_json::{Map, Value, json};

use super::record::{Author, Record, RecordKind};

/// The item `id` (CSL-JSON) and default BibTeX key of a PMID: `pmid12091962`.
pub fn item_id(pmid: &str) -> String {
    format!("pmid{pmid}")
}

/// The CSL item type: `article-journal` for journal articles (`article` for
/// a `Preprint`, `dataset` for a `Dataset`), `book` for a whole book,
/// `chapter` for a part of one.
pub fn csl_type(r: &Record) -> &'static str {
    match r.kind() {
        RecordKind::Book => "book",
        RecordKind::BookChapter => "chapter",
        RecordKind::JournalArticle if has_type(r, "Preprint") => "article",
        RecordKind::JournalArticle if has_type(r, "Dataset") => "dataset",
        RecordKind::JournalArticle => "article-journal",
    }
}

fn has_type(r: &Record, name: &str) -> bool {
    r.pub_types.iter().any(|t| t == name)
}

/// The note every export carries for a retracted article (`RetractionIn`
/// link or `Retracted Publication` type) or a retraction notice
/// (`RetractionOf` link or `Retraction of Publication` type), e.g.
/// `RETRACTED ARTICLE. Retraction in: J Test. 2021 Feb;2(1):3. PMID: 98`.
/// `None` for every other record.
pub fn retraction_note(r: &Record) -> Option<String> {
    let link = |kind: &str| {
        r.comments_corrections
            .iter()
            .find(|c| c.r#type == kind)
            .map(|c| {
                let mut s = c.source.clone().unwrap_or_default();
                if let Some(p) = &c.pmid {
                    if !s.is_empty() {
                        s.push(' ');
                    }
                    s.push_str(&format!("PMID: {p}"));
                }
                s
            })
            .filter(|s| !s.is_empty())
    };
    if r.retracted {
        return Some(match link("RetractionIn") {
            Some(l) => format!("RETRACTED ARTICLE. Retraction in: {l}"),
            None => "RETRACTED ARTICLE (publication type Retracted Publication)".to_string(),
        });
    }
    if r.retraction_notice {
        return Some(match link("RetractionOf") {
            Some(l) => format!("RETRACTION NOTICE. Retraction of: {l}"),
            None => "RETRACTION NOTICE (publication type Retraction of Publication)".to_string(),
        });
    }
    None
}

/// The given name of a person as a citation wants it: `ForeName` (`J
/// Michael`), else the initials one per word (`JM` → `J M`) so styles can
/// abbreviate them; `None` when neither is written.
pub fn given_name(a: &Author) -> Option<String> {
    let fore = a
        .fore_name
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if let Some(f) = fore {
        return Some(f.to_string());
    }
    let initials = a
        .initials
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())?;
    let spaced: Vec<String> = initials
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '.')
        .map(|c| c.to_string())
        .collect();
    (!spaced.is_empty()).then(|| spaced.join(" "))
}

/// How a name is written in a citation: a person's family and given names,
/// or a group (or a name with only one part) written as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameParts {
    /// A person: `LastName`, the given name ([`given_name`]) and `Suffix`.
    Person {
        /// `LastName`.
        family: String,
        /// [`given_name`].
        given: Option<String>,
        /// `Suffix` (`Jr`, `3rd`).
        suffix: Option<String>,
    },
    /// A `CollectiveName`, or a person written with one name only.
    Literal(String),
}

/// The parts of an author's name ([`NameParts`]).
pub fn name_parts(a: &Author) -> NameParts {
    if let Some(c) = a
        .collective_name
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    {
        return NameParts::Literal(c.trim().to_string());
    }
    match a
        .last_name
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        Some(family) => NameParts::Person {
            family: family.to_string(),
            given: given_name(a),
            suffix: a
                .suffix
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        },
        None => NameParts::Literal(a.name.trim().to_string()),
    }
}

/// The page range for citations: written out in full (`113-125`) when the
/// record has one plain range (`113-25`), else as PubMed writes it (`113-25;
/// discussion 126-7`, `e1234`, `026002`).
pub fn full_pages(r: &Record) -> Option<String> {
    let p = r.pages()?;
    let written = p.pages.as_deref().map(str::trim).unwrap_or_default();
    let plain = !written.contains([',', ';', ' ']);
    match (&p.start_page, &p.end_page) {
        (Some(s), Some(e)) if plain => Some(format!("{s}-{e}")),
        _ if !written.is_empty() => Some(written.to_string()),
        (Some(s), None) => Some(s.clone()),
        _ => None,
    }
}

/// PubMed's `Language` codes (ISO 639-2/B, as MEDLINE writes them) as the
/// BCP 47 tags CSL processors read (`eng` → `en`, `ger` → `de`); a code
/// with no two-letter form is kept as written.
pub fn language_tag(code: &str) -> String {
    let c = code.trim().to_ascii_lowercase();
    let tag = match c.as_str() {
        "afr" => "af",
        "alb" => "sq",
        "ara" => "ar",
        "arm" => "hy",
        "aze" => "az",
        "bel" => "be",
        "ben" => "bn",
        "bos" => "bs",
        "bul" => "bg",
        "cat" => "ca",
        "chi" => "zh",
        "cze" => "cs",
        "dan" => "da",
        "dut" => "nl",
        "eng" => "en",
        "epo" => "eo",
        "est" => "et",
        "fin" => "fi",
        "fre" => "fr",
        "geo" => "ka",
        "ger" => "de",
        "gla" => "gd",
        "gle" => "ga",
        "glg" => "gl",
        "gre" => "el",
        "heb" => "he",
        "hin" => "hi",
        "hrv" => "hr",
        "hun" => "hu",
        "ice" => "is",
        "ind" => "id",
        "ita" => "it",
        "jpn" => "ja",
        "kor" => "ko",
        "lat" => "la",
        "lav" => "lv",
        "lit" => "lt",
        "mac" => "mk",
        "mal" => "ml",
        "may" => "ms",
        "nor" => "no",
        "per" => "fa",
        "pol" => "pl",
        "por" => "pt",
        "pus" => "ps",
        "rum" => "ro",
        "rus" => "ru",
        "san" => "sa",
        "slo" => "sk",
        "slv" => "sl",
        "spa" => "es",
        "srp" => "sr",
        "swe" => "sv",
        "tha" => "th",
        "tur" => "tr",
        "ukr" => "uk",
        "urd" => "ur",
        "vie" => "vi",
        "wel" => "cy",
        _ => return c,
    };
    tag.to_string()
}

/// A title as citations want it: PubMed's closing period dropped (styles
/// add their own punctuation), `?`, `!` and `...` kept.
pub fn title(t: &str) -> String {
    let t = t.trim();
    match t.strip_suffix('.') {
        Some(rest) if !rest.ends_with('.') && !rest.is_empty() => rest.to_string(),
        _ => t.to_string(),
    }
}

fn csl_name(a: &Author) -> Value {
    match name_parts(a) {
        NameParts::Literal(l) => json!({ "literal": l }),
        NameParts::Person {
            family,
            given,
            suffix,
        } => {
            let mut m = Map::new();
            m.insert("family".into(), family.into());
            if let Some(g) = given {
                m.insert("given".into(), g.into());
            }
            if let Some(s) = suffix {
                m.insert("suffix".into(), s.into());
            }
            Value::Object(m)
        }
    }
}

/// The CSL season number (1 spring … 4 winter) of a `Season` as PubMed
/// writes it.
fn season_number(s: &str) -> Option<u8> {
    match s.trim().to_ascii_lowercase().as_str() {
        "spring" => Some(1),
        "summer" => Some(2),
        "fall" | "autumn" => Some(3),
        "winter" => Some(4),
        _ => None,
    }
}

/// The CSL-JSON item of a record, valid against the CSL data schema
/// (`csl-data.json`): `id`, `type`, `title`, `author` (`{family, given}` or
/// `{literal}` in PubMed's order), `editor` (books), `issued`
/// (`date-parts` at the precision written, with the season when written),
/// `container-title` (journal or book), `container-title-short` (ISO
/// abbreviation), `volume`, `issue`, `page` ([`full_pages`]), `DOI`,
/// `PMID`, `PMCID`, `URL` (the PubMed page), `ISSN`/`ISBN`, `publisher`,
/// `publisher-place`, `edition`, `collection-title`, `language`,
/// `abstract`, and `note` for retractions ([`retraction_note`]). Absent
/// values are left out, never invented.
pub fn csl_item(r: &Record) -> Map<String, Value> {
    let mut m = Map::new();
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v.filter(|v| !v.trim().is_empty()) {
            m.insert(k.to_string(), Value::String(v));
        }
    };
    put("id", Some(item_id(&r.pmid)));
    put("type", Some(csl_type(r).to_string()));
    put("title", Some(title(&r.title)));
    if let Some(j) = &r.journal {
        put("container-title", Some(j.title.clone()));
        put(
            "container-title-short",
            j.iso_abbreviation.clone().or_else(|| j.medline_ta.clone()),
        );
        put("volume", j.volume.clone());
        put("issue", j.issue.clone());
        put("ISSN", j.issn.clone());
    }
    if let Some(b) = &r.book {
        if r.kind() == RecordKind::BookChapter {
            put("container-title", Some(b.title.clone()));
        }
        put("publisher", b.publisher.clone());
        put("publisher-place", b.publisher_location.clone());
        put("edition", b.edition.clone());
        put("volume", b.volume.clone());
        put("collection-title", b.collection_title.clone());
        put("ISBN", b.isbn.first().cloned());
        put("number", b.report_number.clone());
    }
    put("page", full_pages(r));
    put("DOI", r.doi.clone());
    put("PMID", Some(r.pmid.clone()));
    put("PMCID", r.pmcid.clone());
    put("URL", Some(r.pubmed_url.clone()));
    put("language", r.language.first().map(|l| language_tag(l)));
    put("abstract", r.r#abstract.clone());
    put("note", retraction_note(r));
    if !r.authors.is_empty() {
        m.insert(
            "author".into(),
            Value::Array(r.authors.iter().map(csl_name).collect()),
        );
    }
    if let Some(b) = r
        .book
        .as_ref()
        .filter(|b| b.is_part && !b.authors.is_empty())
    {
        m.insert(
            "container-author".into(),
            Value::Array(b.authors.iter().map(csl_name).collect()),
        );
    }
    if let Some(b) = r.book.as_ref().filter(|b| !b.editors.is_empty()) {
        m.insert(
            "editor".into(),
            Value::Array(b.editors.iter().map(csl_name).collect()),
        );
    }
    let d = &r.date_parts;
    if let Some(y) = d.year {
        let mut parts = vec![Value::from(y)];
        if let Some(mo) = d.month {
            parts.push(mo.into());
            if let Some(day) = d.day {
                parts.push(day.into());
            }
        }
        let mut issued = Map::new();
        issued.insert("date-parts".into(), json!([parts]));
        if d.month.is_none()
            && let Some(s) = d.season.as_deref().and_then(season_number)
        {
            issued.insert("season".into(), s.into());
        }
        m.insert("issued".into(), Value::Object(issued));
    }
    m
}

/// The CSL-JSON item standing in for a PMID with no record, so item N of
/// the output is still input N: `{id, type: "document", PMID, note}` with
/// the reason and message in the note.
pub fn csl_error_item(pmid: &str, reason: &str, message: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("id".into(), item_id(pmid).into());
    m.insert("type".into(), "document".into());
    if !pmid.is_empty() && pmid.bytes().all(|b| b.is_ascii_digit()) {
        m.insert("PMID".into(), pmid.into());
    }
    m.insert(
        "note".into(),
        format!("pubmed: PMID {pmid}: {reason}: {message}").into(),
    );
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::record::{Book, CommentCorrection, DateParts, Journal, Pages};

    fn author(last: &str, fore: Option<&str>, initials: Option<&str>) -> Author {
        Author::person(
            Some(last.into()),
            fore.map(str::to_string),
            initials.map(str::to_string),
            None,
        )
    }

    #[test]
    fn given_names_fall_back_to_spaced_initials() {
        assert_eq!(
            given_name(&author("Olivero", Some("J Michael"), Some("JM"))).as_deref(),
            Some("J Michael")
        );
        assert_eq!(
            given_name(&author("Smith", None, Some("JM"))).as_deref(),
            Some("J M")
        );
        assert_eq!(given_name(&author("Plato", None, None)), None);
        assert_eq!(
            name_parts(&Author::collective("ASPIRE Investigators".into())),
            NameParts::Literal("ASPIRE Investigators".into())
        );
    }

    #[test]
    fn languages_become_bcp47() {
        assert_eq!(language_tag("eng"), "en");
        assert_eq!(language_tag("spa"), "es");
        assert_eq!(language_tag("ger"), "de");
        assert_eq!(language_tag("und"), "und");
    }

    #[test]
    fn seasons_and_months_in_issued() {
        let mut r = Record {
            pmid: "1".into(),
            title: "T.".into(),
            date_parts: DateParts::structured(Some("1990"), None, None, Some("Spring")),
            pubmed_url: "u".into(),
            ..Default::default()
        };
        assert_eq!(
            csl_item(&r)["issued"],
            json!({"date-parts": [[1990]], "season": 1})
        );
        r.date_parts = DateParts::medline("2000 Nov-Dec");
        assert_eq!(csl_item(&r)["issued"], json!({"date-parts": [[2000, 11]]}));
        r.date_parts = DateParts::default();
        assert!(!csl_item(&r).contains_key("issued"));
    }

    #[test]
    fn chapters_name_their_book() {
        let r = Record {
            pmid: "2".into(),
            title: "Chapter.".into(),
            book: Some(Book {
                title: "The Book".into(),
                is_part: true,
                pages: Pages::new(Some("10-9".into()), None, None),
                ..Default::default()
            }),
            pubmed_url: "u".into(),
            ..Default::default()
        };
        let m = csl_item(&r);
        assert_eq!(m["type"], "chapter");
        assert_eq!(m["container-title"], "The Book");
        assert_eq!(m["page"], "10-19");
    }

    #[test]
    fn retraction_notes() {
        let mut r = Record {
            retracted: true,
            comments_corrections: vec![CommentCorrection {
                r#type: "RetractionIn".into(),
                pmid: Some("98".into()),
                source: Some("J Test. 2021 Feb;2(1):3.".into()),
            }],
            journal: Some(Journal::default()),
            ..Default::default()
        };
        assert_eq!(
            retraction_note(&r).as_deref(),
            Some("RETRACTED ARTICLE. Retraction in: J Test. 2021 Feb;2(1):3. PMID: 98")
        );
        r.comments_corrections.clear();
        assert_eq!(
            retraction_note(&r).as_deref(),
            Some("RETRACTED ARTICLE (publication type Retracted Publication)")
        );
        r.retracted = false;
        assert_eq!(retraction_note(&r), None);
    }
}
