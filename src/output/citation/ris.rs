//! RIS (`fetch -f ris`, docs/cite.md "RIS"): one record per article in
//! the tag layout reference managers import (`TY  - JOUR` … `ER  - `),
//! each line ended by CR LF as the RIS specification asks, one value per
//! line, no blank line between records.

use std::io::{self, Write};

use crate::core::citation::{NameParts, name_parts, retraction_note};
use crate::core::record::{Author, Record, RecordKind};
use crate::core::text::printable;

/// The line end the RIS specification requires.
pub const CRLF: &str = "\r\n";

/// One tag line: `TAG  - value`, the value on one line (line breaks and
/// tabs become spaces, runs of spaces one); an empty value writes nothing.
fn tag(out: &mut dyn Write, t: &str, value: &str) -> io::Result<()> {
    let v = value.split_whitespace().collect::<Vec<_>>().join(" ");
    if v.is_empty() {
        return Ok(());
    }
    write!(out, "{t}  - {v}{CRLF}")
}

/// The RIS specification allows no asterisk in author, keyword and
/// periodical name fields (Reference Manager reads it as a wildcard).
fn no_star(s: &str) -> String {
    s.replace('*', "")
}

/// An author as RIS writes it: `Last, Given` (`Last, Given, Suffix`), a
/// group by its name.
pub fn ris_name(a: &Author) -> String {
    match name_parts(a) {
        NameParts::Literal(l) => no_star(&l),
        NameParts::Person {
            family,
            given,
            suffix,
        } => {
            let mut s = no_star(&family);
            if let Some(g) = given {
                s.push_str(&format!(", {}", no_star(&g)));
            }
            if let Some(x) = suffix {
                if !s.contains(',') {
                    s.push(',');
                }
                s.push_str(&format!(", {}", no_star(&x)));
            }
            s
        }
    }
}

/// The `TY` of a record: `BOOK` for a whole book, `CHAP` for a part of
/// one, `DATA` for a `Dataset`, `JOUR` for every other article.
pub fn ris_type(r: &Record) -> &'static str {
    match r.kind() {
        RecordKind::Book => "BOOK",
        RecordKind::BookChapter => "CHAP",
        RecordKind::JournalArticle if r.pub_types.iter().any(|t| t == "Dataset") => "DATA",
        RecordKind::JournalArticle => "JOUR",
    }
}

/// `DA` as the specification writes dates, `YYYY/MM/DD/other`, with only
/// the parts PubMed wrote and the season as the "other" part
/// (`1990///Spring`, `2000/11//`, `1976/09/28/`).
pub fn ris_date(r: &Record) -> Option<String> {
    let d = &r.date_parts;
    let y = d.year?;
    let m = d.month.map(|m| format!("{m:02}")).unwrap_or_default();
    let day = d.day.map(|x| format!("{x:02}")).unwrap_or_default();
    let other = if d.month.is_none() {
        d.season.clone().unwrap_or_default()
    } else {
        String::new()
    };
    Some(format!("{y:04}/{m}/{day}/{other}"))
}

/// Writes one record: `TY`, `TI`, `AU` per author in order (groups
/// included), editors (`A2` for a chapter's book, `A3` for a book, as
/// Zotero reads them), `T2` (journal, or a chapter's book), `JO` (ISO
/// abbreviation), `PY`/`DA`, `VL`, `IS`, `SP`/`EP`, `SN`, `PB`, `CY`,
/// `ET`, `LA`, `AB`, `KW` (MeSH headings with their qualifiers, then
/// keywords), `DO`, `AN` (the PMID), `UR`, `N1` (the retraction note),
/// `ER`.
pub fn write_record(out: &mut dyn Write, r: &Record) -> io::Result<()> {
    tag(out, "TY", ris_type(r))?;
    tag(out, "TI", &r.title)?;
    for a in &r.authors {
        tag(out, "AU", &ris_name(a))?;
    }
    if let Some(b) = &r.book {
        let editor_tag = if r.kind() == RecordKind::BookChapter {
            "A2"
        } else {
            "A3"
        };
        for e in &b.editors {
            tag(out, editor_tag, &ris_name(e))?;
        }
        if r.kind() == RecordKind::BookChapter {
            tag(out, "T2", &no_star(&b.title))?;
        }
        if let Some(series) = &b.collection_title {
            tag(out, "T3", series)?;
        }
    }
    if let Some(j) = &r.journal {
        tag(out, "T2", &no_star(&j.title))?;
        if let Some(abbr) = j.iso_abbreviation.as_ref().or(j.medline_ta.as_ref()) {
            tag(out, "JO", &no_star(abbr))?;
        }
    }
    if let Some(y) = r.date_parts.year {
        tag(out, "PY", &format!("{y:04}"))?;
    }
    if let Some(d) = ris_date(r) {
        tag(out, "DA", &d)?;
    }
    let volume = r
        .journal
        .as_ref()
        .and_then(|j| j.volume.clone())
        .or_else(|| r.book.as_ref().and_then(|b| b.volume.clone()));
    tag(out, "VL", volume.as_deref().unwrap_or_default())?;
    if let Some(i) = r.journal.as_ref().and_then(|j| j.issue.as_deref()) {
        tag(out, "IS", i)?;
    }
    if let Some(p) = r.pages() {
        match (&p.start_page, &p.end_page) {
            (Some(s), e) => {
                tag(out, "SP", s)?;
                if let Some(e) = e {
                    tag(out, "EP", e)?;
                }
            }
            (None, _) => tag(out, "SP", p.pages.as_deref().unwrap_or_default())?,
        }
    }
    if let Some(issn) = r.journal.as_ref().and_then(|j| j.issn.as_deref()) {
        tag(out, "SN", issn)?;
    }
    if let Some(b) = &r.book {
        if let Some(isbn) = b.isbn.first() {
            tag(out, "SN", isbn)?;
        }
        tag(out, "PB", b.publisher.as_deref().unwrap_or_default())?;
        tag(
            out,
            "CY",
            b.publisher_location.as_deref().unwrap_or_default(),
        )?;
        tag(out, "ET", b.edition.as_deref().unwrap_or_default())?;
    }
    for l in &r.language {
        tag(out, "LA", l)?;
    }
    if let Some(a) = &r.r#abstract {
        tag(out, "AB", a)?;
    }
    for m in &r.mesh_headings {
        let mut kw = m.descriptor.clone();
        for q in &m.qualifiers {
            kw.push('/');
            kw.push_str(&q.name);
        }
        tag(out, "KW", &no_star(&kw))?;
    }
    for k in &r.keywords {
        tag(out, "KW", &no_star(k))?;
    }
    if let Some(doi) = &r.doi {
        tag(out, "DO", doi)?;
    }
    tag(out, "AN", &r.pmid)?;
    tag(out, "UR", &r.pubmed_url)?;
    if let Some(note) = retraction_note(r) {
        tag(out, "N1", &note)?;
    }
    write!(out, "ER  - {CRLF}")
}

/// The line standing in for a PMID without a record: not a tag line, so
/// readers skip it, and record N of the output is still input N.
pub fn write_error(out: &mut dyn Write, pmid: &str, reason: &str, message: &str) -> io::Result<()> {
    // The PMID and message may quote an input line: no control character
    // (ESC, NUL) leaves raw.
    let text = printable(&format!("# pubmed: PMID {pmid}: {reason}: {message}")).into_owned();
    write!(
        out,
        "{}{CRLF}",
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}
