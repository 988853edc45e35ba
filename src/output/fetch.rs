//! Renders fetched records as they stream out (docs/fetch.md "Formats"):
//! `abstract` (a readable record per article), `medline` and `xml` (NCBI's
//! own bytes per record), `json` (records + totals), `ndjson`, `csv`/`tsv`
//! (one line per record), `table` (in blocks), and the reference-manager
//! exports `ris`, `bibtex` and `csl-json` ([`super::citation`]).

use std::io::{self, Write};

use super::citation::{BibOptions, CitationWriter, Export};
use super::delimited::{write_header, write_rows};
use super::stream::{self, TableBlock, json_record};
use super::table::{Col, write_columns};
use super::{Style, cell, write_json_line};
use crate::core::record::{DateParts, Record, RecordKind};
use crate::core::text::{count, printable, terminal_safe};
use crate::ops::batch::Output;
use crate::ops::fetch::{Article, Fetched, Totals};
use crate::ops::record::RecordError;

formats! {
    /// The formats of `fetch`.
    pub enum FetchFormat {
        Abstract, Medline, Xml, Json, Ndjson, Csv, Tsv, Table, Ris, Bibtex, CslJson,
    }
}

impl super::CommandFormat for FetchFormat {
    const COMMAND: &'static str = "fetch";
    const TERMINAL: Self = FetchFormat::Abstract;
    const PIPE: Self = FetchFormat::Ndjson;
}

/// The CSV/TSV columns: snake_case, as every command's CSV/TSV header
/// (JSON keys are camelCase; docs/fetch.md "Formats").
pub const HEADER: [&str; 12] = [
    "pmid",
    "title",
    "authors",
    "journal",
    "pub_date",
    "doi",
    "pmcid",
    "pub_types",
    "mesh_headings",
    "retracted",
    "abstract",
    "error",
];
/// The prolog written when no EFetch answer gave one (every record failed).
pub const DEFAULT_PROLOG: &str = "<?xml version=\"1.0\" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC \"-//NLM//DTD PubMedArticle, 1st January 2025//EN\" \"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd\">\n";

/// A streaming writer for one run.
pub struct Writer<'a> {
    out: &'a mut dyn Write,
    format: FetchFormat,
    style: Style,
    records: u64,
    xml_open: bool,
    table: TableBlock<Fetched>,
    citation: Option<CitationWriter>,
    /// stdout is a terminal: NCBI's raw bytes go out [`terminal_safe`].
    terminal: bool,
    /// On a terminal, the `abstract` view's lines are wrapped at spaces to
    /// this many columns (`COLUMNS`, else the terminal's width).
    wrap: Option<usize>,
}

/// The journal (or book) name for one-line views: ISO abbreviation,
/// else the NLM abbreviation, else the title.
pub fn source_name(r: &Record) -> String {
    match (&r.journal, &r.book) {
        (Some(j), _) => j
            .iso_abbreviation
            .clone()
            .or_else(|| j.medline_ta.clone())
            .unwrap_or_else(|| j.title.clone()),
        (None, Some(b)) => b.title.clone(),
        _ => String::new(),
    }
}

/// The CSV/TSV cells of a record (see [`HEADER`]).
pub fn cells(f: &Fetched) -> Vec<String> {
    let mut row = vec![String::new(); HEADER.len()];
    row[0] = f.pmid.clone();
    let r = match f.parsed() {
        Ok(r) => r,
        Err(e) => {
            row[11] = format!("{}: {}", e.reason, e.message);
            return row;
        }
    };
    let o = |v: &Option<String>| v.clone().unwrap_or_default();
    row[1] = r.title.clone();
    row[2] = r
        .authors
        .iter()
        .map(|a| a.name.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    row[3] = source_name(r);
    row[4] = r.pub_date.clone().unwrap_or_default();
    row[5] = o(&r.doi);
    row[6] = o(&r.pmcid);
    row[7] = r.pub_types.join("; ");
    row[8] = r
        .mesh_headings
        .iter()
        .map(|m| m.medline_form())
        .collect::<Vec<_>>()
        .join("; ");
    row[9] = r.retracted.to_string();
    row[10] = r.r#abstract.clone().unwrap_or_default();
    row
}

const MONTH_ABBR: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The date as a citation writes it: as written, except a numeric month
/// (`2017 06`) shown by name (`2017 Jun`) and a day without its leading
/// zero (`2020 Sep 04` → `2020 Sep 4`, as NCBI's abstract view writes it).
pub fn citation_date(d: &DateParts) -> String {
    let words: Vec<&str> = d.text.split_whitespace().collect();
    let numeric = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    match (d.year, d.month, words.get(1)) {
        (Some(y), Some(m), Some(w)) if numeric(w) => {
            let mut s = format!("{y} {}", MONTH_ABBR[usize::from(m) - 1]);
            if let Some(day) = d.day {
                s.push_str(&format!(" {day}"));
            }
            s
        }
        (Some(_), Some(_), Some(_)) if d.day.is_some() && words.len() == 3 && numeric(words[2]) => {
            format!("{} {} {}", words[0], words[1], d.day.unwrap_or_default())
        }
        _ => d.text.clone(),
    }
}

/// `2016-10-21` → `2016 Oct 21` (a full ISO date only).
fn iso_as_citation(iso: &str) -> Option<String> {
    let mut p = iso.split('-');
    let (y, m, d) = (p.next()?, p.next()?, p.next()?);
    let m: usize = m.parse().ok().filter(|m| (1..=12).contains(m))?;
    let d: u8 = d.parse().ok()?;
    Some(format!("{y} {} {d}", MONTH_ABBR[m - 1]))
}

fn names(list: &[crate::core::record::Author]) -> String {
    list.iter()
        .map(|a| a.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The citation line of the `abstract` format (`Soc Justice. 1990
/// Spring;17(1):113-25.`, or the book's editors, title and publisher).
pub fn citation_line(r: &Record) -> String {
    let date = citation_date(&r.date_parts);
    if let Some(j) = &r.journal {
        let mut s = format!("{}.", source_name(r));
        if !date.is_empty() {
            s.push_str(&format!(" {date}"));
        }
        let mut vol = j.volume.clone().unwrap_or_default();
        if let Some(i) = &j.issue {
            vol.push_str(&format!("({i})"));
        }
        if !vol.is_empty() {
            s.push_str(&format!(";{vol}"));
        }
        if let Some(p) = &j.pages.pages {
            s.push_str(&format!(":{p}"));
        }
        s.push('.');
        if let Some(doi) = &r.doi {
            s.push_str(&format!(" doi: {doi}."));
        }
        if let Some(e) = r.article_date.as_deref().and_then(iso_as_citation) {
            s.push_str(&format!(" Epub {e}."));
        }
        return s;
    }
    let Some(b) = &r.book else {
        return date;
    };
    let mut s = String::new();
    if r.kind() == RecordKind::BookChapter {
        s.push_str("In: ");
    }
    if !b.editors.is_empty() {
        s.push_str(&format!("{}, editors. ", names(&b.editors)));
    }
    s.push_str(&b.title);
    if b.medium.as_deref() == Some("Internet") {
        s.push_str(" [Internet]");
    }
    s.push('.');
    match (&b.publisher_location, &b.publisher) {
        (Some(l), Some(p)) => s.push_str(&format!(" {l}: {p};")),
        (None, Some(p)) => s.push_str(&format!(" {p};")),
        _ => {}
    }
    if !date.is_empty() {
        s.push_str(&format!(" {date}"));
    }
    s.push('.');
    if let Some(c) = b.location_labels.first() {
        s.push_str(&format!(" {c}."));
    }
    s
}

fn link_label(t: &str) -> Option<&'static str> {
    Some(match t {
        "ErratumIn" => "Erratum in",
        "ErratumFor" => "Erratum for",
        "CommentIn" => "Comment in",
        "CommentOn" => "Comment on",
        "UpdateIn" => "Update in",
        "UpdateOf" => "Update of",
        "RetractionIn" => "Retraction in",
        "RetractionOf" => "Retraction of",
        "ExpressionOfConcernIn" => "Expression of concern in",
        "ExpressionOfConcernFor" => "Expression of concern for",
        "RepublishedIn" => "Republished in",
        "RepublishedFrom" => "Republished from",
        "ReprintIn" => "Reprint in",
        "ReprintOf" => "Reprint of",
        "SummaryForPatientsIn" => "Summary for patients in",
        "OriginalReportIn" => "Original report in",
        _ => return None,
    })
}

/// One record in the `abstract` format: number and citation line, a
/// RETRACTED banner, title (and the original-language title), authors
/// with numbered affiliations, the abstract by section, links to errata,
/// comments and updates, then DOI, PMCID and PMID.
pub fn write_abstract(out: &mut dyn Write, n: u64, f: &Fetched, style: &Style) -> io::Result<()> {
    let r = match f.parsed() {
        Ok(r) => r,
        Err(e) => {
            return writeln!(
                out,
                "{n}. PMID {}: {} [{}]\n",
                printable(&f.pmid),
                e.message,
                e.reason
            );
        }
    };
    writeln!(out, "{n}. {}", printable(&citation_line(r)))?;
    write_retraction_banner(out, r, style)?;
    writeln!(out, "\n{}", style.bold(&printable(&r.title)))?;
    if let Some(v) = &r.vernacular_title {
        writeln!(out, "{}", printable(v))?;
    }
    write_authors(out, r)?;
    for s in &r.abstract_sections {
        match &s.label {
            Some(l) => writeln!(
                out,
                "\n{}: {}",
                style.bold(&printable(l)),
                printable(&s.text)
            )?,
            None => writeln!(out, "\n{}", printable(&s.text))?,
        }
    }
    write_links(out, r)?;
    writeln!(out)?;
    if let Some(d) = &r.doi {
        writeln!(out, "DOI: {}", printable(d))?;
    }
    if let Some(p) = &r.pmcid {
        writeln!(out, "PMCID: {}", printable(p))?;
    }
    writeln!(out, "PMID: {}\n", r.pmid)
}

/// The `RETRACTED ARTICLE.` banner naming the retraction notice, or the
/// `RETRACTION NOTICE.` banner; nothing for other records.
fn write_retraction_banner(out: &mut dyn Write, r: &Record, style: &Style) -> io::Result<()> {
    if r.retracted {
        let why = match r.retraction_link() {
            Some(l) => format!(
                "Retraction in: {}{}",
                l.source.as_deref().unwrap_or("(no source given)"),
                l.pmid
                    .as_ref()
                    .map(|p| format!(" PMID: {p}"))
                    .unwrap_or_default()
            ),
            None => "publication type Retracted Publication".to_string(),
        };
        writeln!(
            out,
            "\n{} {}",
            banner(style, "RETRACTED ARTICLE."),
            printable(&why)
        )
    } else if r.retraction_notice {
        writeln!(out, "\n{}", banner(style, "RETRACTION NOTICE."))
    } else {
        Ok(())
    }
}

/// The authors with numbered affiliation marks (`Bao Y(1)`), a book's
/// editors when it has no authors, then `Author information:` listing each
/// affiliation once, in order of first mention.
fn write_authors(out: &mut dyn Write, r: &Record) -> io::Result<()> {
    let mut affiliations: Vec<&str> = Vec::new();
    if !r.authors.is_empty() {
        let shown: Vec<String> = r
            .authors
            .iter()
            .map(|a| {
                let marks: String = a
                    .affiliations
                    .iter()
                    .map(|aff| {
                        let i = match affiliations.iter().position(|x| x == aff) {
                            Some(i) => i,
                            None => {
                                affiliations.push(aff);
                                affiliations.len() - 1
                            }
                        };
                        format!("({})", i + 1)
                    })
                    .collect();
                format!("{}{marks}", a.name)
            })
            .collect();
        writeln!(out, "\n{}.", printable(&shown.join(", ")))?;
    }
    if let Some(b) = &r.book
        && r.authors.is_empty()
        && !b.editors.is_empty()
    {
        writeln!(out, "\nEditors: {}.", printable(&names(&b.editors)))?;
    }
    if !affiliations.is_empty() {
        writeln!(out, "\nAuthor information:")?;
        for (i, a) in affiliations.iter().enumerate() {
            writeln!(out, "({}){}", i + 1, printable(a))?;
        }
    }
    Ok(())
}

/// Errata, comments, updates and retractions (`CommentsCorrections` with a
/// label), one per line after a blank line.
fn write_links(out: &mut dyn Write, r: &Record) -> io::Result<()> {
    let links: Vec<String> = r
        .comments_corrections
        .iter()
        .filter_map(|c| {
            let label = link_label(&c.r#type)?;
            let mut s = format!("{label}: {}", c.source.as_deref().unwrap_or(""));
            if let Some(p) = &c.pmid {
                s.push_str(&format!(" PMID: {p}"));
            }
            Some(s.trim_end().to_string())
        })
        .collect();
    if !links.is_empty() {
        writeln!(out)?;
        for l in links {
            writeln!(out, "{}", printable(&l))?;
        }
    }
    Ok(())
}

/// The width of `s` on a terminal, ANSI colour sequences not counted.
fn shown_width(s: &str) -> usize {
    let mut w = 0;
    let mut rest = s;
    while let Some(i) = rest.find('\x1b') {
        w += unicode_width::UnicodeWidthStr::width(&rest[..i]);
        rest = &rest[i..];
        rest = rest.find('m').map_or("", |m| &rest[m + 1..]);
    }
    w + unicode_width::UnicodeWidthStr::width(rest)
}

/// `line` wrapped at spaces to `width` columns (a longer word stays
/// whole on its own line, so DOIs and URLs are never split).
pub fn wrap_line(line: &str, width: usize) -> String {
    if shown_width(line.trim_end_matches('\n')) <= width {
        return line.to_string();
    }
    let (body, end) = match line.strip_suffix('\n') {
        Some(b) => (b, "\n"),
        None => (line, ""),
    };
    let mut out = String::with_capacity(line.len() + 8);
    let mut col = 0;
    for word in body.split(' ') {
        let w = shown_width(word);
        if col > 0 && col + 1 + w > width {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += w;
    }
    out.push_str(end);
    out
}

fn banner(style: &Style, text: &str) -> String {
    if style.color {
        format!("\x1b[1;31m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// An XML comment standing in for a record that could not be fetched
/// (`--` cannot appear inside a comment).
fn xml_comment(pmid: &str, e: &RecordError) -> String {
    let text = printable(&format!("pubmed: PMID {pmid}: {}: {}", e.reason, e.message)).into_owned();
    format!("<!-- {} -->", text.replace("--", "- -"))
}

impl<'a> Writer<'a> {
    /// Starts the output (the CSV/TSV header, the JSON opening).
    pub fn begin(
        out: &'a mut dyn Write,
        format: FetchFormat,
        style: Style,
    ) -> io::Result<Writer<'a>> {
        Writer::begin_with(out, format, style, BibOptions::default())
    }

    /// [`Writer::begin`] with the BibTeX options (`--bib-key`,
    /// `--bib-unicode`).
    pub fn begin_with(
        out: &'a mut dyn Write,
        format: FetchFormat,
        style: Style,
        bib: BibOptions,
    ) -> io::Result<Writer<'a>> {
        let export = match format {
            FetchFormat::Ris => Some(Export::Ris),
            FetchFormat::Bibtex => Some(Export::Bibtex),
            FetchFormat::CslJson => Some(Export::CslJson),
            FetchFormat::Abstract
            | FetchFormat::Medline
            | FetchFormat::Xml
            | FetchFormat::Json
            | FetchFormat::Ndjson
            | FetchFormat::Csv
            | FetchFormat::Tsv
            | FetchFormat::Table => None,
        };
        let mut w = Writer {
            out,
            format,
            style,
            records: 0,
            xml_open: false,
            terminal: false,
            wrap: None,
            table: TableBlock::default(),
            citation: export.map(|e| CitationWriter::new(e, bib)),
        };
        if let Some(c) = &mut w.citation {
            c.begin(w.out)?;
        }
        match format {
            FetchFormat::Csv | FetchFormat::Tsv => write_header(w.out, format.into(), &HEADER)?,
            FetchFormat::Json => write!(w.out, "{{\"records\": [")?,
            FetchFormat::Abstract
            | FetchFormat::Medline
            | FetchFormat::Xml
            | FetchFormat::Ndjson
            | FetchFormat::Table
            | FetchFormat::Ris
            | FetchFormat::Bibtex
            | FetchFormat::CslJson => {}
        }
        Ok(w)
    }

    /// Marks stdout as a terminal: `-f medline` and `-f xml` then replace
    /// control characters (but line feed and tab) in NCBI's bytes with
    /// U+FFFD; in a pipe or file they stay byte for byte (docs/fetch.md).
    /// The `abstract` view is then wrapped to the terminal's width (or
    /// `COLUMNS`); in a pipe its lines are whole.
    pub fn on_terminal(&mut self, yes: bool) {
        self.terminal = yes;
        self.wrap = yes
            .then(|| {
                self.style
                    .width
                    .or_else(|| comfy_table::Table::new().width())
            })
            .flatten()
            .map(usize::from)
            .filter(|w| *w >= 20);
    }

    /// NCBI's bytes as they may be written here.
    fn raw<'s>(&self, s: &'s str) -> std::borrow::Cow<'s, str> {
        if self.terminal {
            terminal_safe(s)
        } else {
            std::borrow::Cow::Borrowed(s)
        }
    }

    fn open_xml(&mut self, prolog: Option<&str>) -> io::Result<()> {
        if !self.xml_open {
            self.xml_open = true;
            let prolog = self.raw(prolog.unwrap_or(DEFAULT_PROLOG)).into_owned();
            writeln!(self.out, "{prolog}<PubmedArticleSet>")?;
        }
        Ok(())
    }

    /// Writes one output item.
    pub fn item(&mut self, item: Output<'_, Fetched>) -> io::Result<()> {
        let f = match item {
            Output::Flush => return self.out.flush(),
            Output::Skipped | Output::Progress(_) => return Ok(()),
            Output::Record(f) => f,
        };
        self.records += 1;
        match self.format {
            FetchFormat::Ris | FetchFormat::Bibtex | FetchFormat::CslJson => {
                if let Some(c) = &mut self.citation {
                    return c.record(self.out, f);
                }
            }
            FetchFormat::Ndjson => write_json_line(self.out, f)?,
            FetchFormat::Json => json_record(self.out, self.records, f)?,
            FetchFormat::Csv | FetchFormat::Tsv => {
                write_rows(self.out, self.format.into(), &[cells(f)])?
            }
            FetchFormat::Medline => {
                if let Ok(raw) = f.raw() {
                    write!(self.out, "\n{}", self.raw(raw))?;
                }
            }
            FetchFormat::Xml => {
                let prolog = match &f.outcome {
                    Ok(Article::Xml { prolog, .. }) => prolog.as_deref(),
                    _ => None,
                };
                self.open_xml(prolog)?;
                match f.raw() {
                    Ok(raw) => writeln!(self.out, "{}", self.raw(raw))?,
                    Err(e) => writeln!(self.out, "{}", xml_comment(&f.pmid, e))?,
                }
            }
            FetchFormat::Table => {
                if self.table.push(f.clone(), 1) {
                    self.flush_table()?;
                }
            }
            FetchFormat::Abstract => match self.wrap {
                None => write_abstract(self.out, self.records, f, &self.style)?,
                Some(width) => {
                    let mut buf = Vec::new();
                    write_abstract(&mut buf, self.records, f, &self.style)?;
                    for line in String::from_utf8_lossy(&buf).split_inclusive('\n') {
                        self.out.write_all(wrap_line(line, width).as_bytes())?;
                    }
                }
            },
        }
        Ok(())
    }

    fn flush_table(&mut self) -> io::Result<()> {
        let Some(records) = self.table.take() else {
            return Ok(());
        };
        let mut t = self.style.table();
        t.set_header(vec![
            "PMID",
            "Date",
            "First author",
            "Title",
            "Journal",
            "Note",
        ]);
        for f in records {
            let row = match f.parsed() {
                Ok(r) => vec![
                    r.pmid.clone(),
                    r.pub_date.clone().unwrap_or_default(),
                    r.authors
                        .first()
                        .map(|a| a.name.clone())
                        .unwrap_or_default(),
                    r.title.clone(),
                    source_name(r),
                    if r.retracted {
                        "RETRACTED".to_string()
                    } else if r.retraction_notice {
                        "retraction notice".to_string()
                    } else {
                        String::new()
                    },
                ],
                // the error where the title goes, as `search` does
                Err(e) => vec![
                    f.pmid.clone(),
                    String::new(),
                    String::new(),
                    format!("({}: {})", e.reason, e.message),
                    String::new(),
                    String::new(),
                ],
            };
            t.add_row(row.iter().map(|c| cell(c)).collect::<Vec<_>>());
        }
        let cols = [Col::Id, Col::Id, Col::Text, Col::Wide, Col::Text, Col::Text];
        write_columns(self.out, t, &cols)
    }

    /// Ends the output (the JSON totals, the XML end tag, the last table
    /// block) and flushes.
    pub fn finish(&mut self, totals: &Totals) -> io::Result<()> {
        if let Some(c) = &mut self.citation {
            c.finish(self.out)?;
        }
        if self.format == FetchFormat::Xml {
            self.open_xml(None)?;
            writeln!(self.out, "</PubmedArticleSet>")?;
        }
        self.flush_table()?;
        stream::finish(
            self.out,
            self.format.into(),
            format_args!(
                "\"submitted\": {}, \"found\": {}, \"failed\": {}{}",
                totals.submitted,
                totals.succeeded,
                totals.failed,
                stream::cache_totals(totals)
            ),
        )
    }

    /// Flushes what was written so far (streaming).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Ends an output that stopped early (bad input, Ctrl-C): the table
    /// block so far, the JSON record line ended; see [`stream::abandon`].
    pub fn abandon(&mut self) -> io::Result<()> {
        self.flush_table()?;
        stream::abandon(self.out, self.format.into())
    }
}

/// The stderr summary: counts and failures by reason.
pub fn summary(t: &Totals) -> String {
    let head = format!(
        "{}: {} found, {} failed",
        count(t.submitted, "PMID"),
        t.succeeded,
        t.failed
    );
    stream::summary(head, &t.by_reason, t.requests)
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn abstract_lines_wrap_at_spaces_and_keep_long_words() {
        assert_eq!(wrap_line("short line\n", 20), "short line\n");
        assert_eq!(
            wrap_line("one two three four five\n", 9),
            "one two\nthree\nfour five\n"
        );
        // a DOI longer than the width stays whole on its own line
        assert_eq!(
            wrap_line("doi: 10.1016/j.cryobiol.2001.1042 end", 12),
            "doi:\n10.1016/j.cryobiol.2001.1042\nend"
        );
        // colour sequences take no columns
        assert_eq!(
            wrap_line("\x1b[1mBACKGROUND:\x1b[0m a b", 14),
            "\x1b[1mBACKGROUND:\x1b[0m a\nb"
        );
    }

    /// Issue 25 "first hour": the day was zero-padded (`2020 Sep 04`);
    /// NCBI writes `2020 Sep 4`.
    #[test]
    fn citation_dates_write_the_day_as_ncbi_does() {
        let date = |text: &str, m: Option<u8>, day: Option<u8>| DateParts {
            year: Some(2020),
            month: m,
            day,
            season: None,
            text: text.into(),
        };
        assert_eq!(
            citation_date(&date("2020 Sep 04", Some(9), Some(4))),
            "2020 Sep 4"
        );
        assert_eq!(
            citation_date(&date("2020 09 04", Some(9), Some(4))),
            "2020 Sep 4"
        );
        assert_eq!(
            citation_date(&date("2020 Sep 14", Some(9), Some(14))),
            "2020 Sep 14"
        );
        assert_eq!(citation_date(&date("2020 Sep", Some(9), None)), "2020 Sep");
        assert_eq!(
            citation_date(&date("2020 Spring", None, None)),
            "2020 Spring"
        );
    }
}
