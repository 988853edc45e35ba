//! Reference lists read into citations for ECitMatch, with no I/O: pipe
//! lines ([`pipe`]), CSV/TSV with named columns ([`delimited`]), BibTeX
//! ([`bibtex`]), RIS ([`ris`])
//! (docs/match.md "Input").

pub mod bibtex;
pub mod delimited;
pub mod pipe;
pub mod ris;

use crate::core::choice::choice;
use crate::core::citmatch::{self, Citation};

choice! {
    /// The form of a reference list (`match --from`).
    pub enum ListKind {
        /// ECitMatch's `journal|year|volume|first_page|author|key|` lines.
        Pipe = "pipe",
        /// CSV with a header row naming the columns.
        Csv = "csv",
        /// TSV with a header row naming the columns.
        Tsv = "tsv",
        /// BibTeX/BibLaTeX: each entry without a `pmid` field.
        Bibtex = "bibtex",
        /// RIS: each record without a PMID (`AN` of digits).
        Ris = "ris",
    }
}

impl ListKind {
    /// The form a file name says (`.csv`, `.tsv`/`.tab`, `.bib`, `.ris`),
    /// else pipe lines.
    pub fn of_path(path: &str) -> ListKind {
        let lower = path.to_lowercase();
        if lower.ends_with(".csv") {
            ListKind::Csv
        } else if lower.ends_with(".tsv") || lower.ends_with(".tab") {
            ListKind::Tsv
        } else if lower.ends_with(".bib") {
            ListKind::Bibtex
        } else if lower.ends_with(".ris") {
            ListKind::Ris
        } else {
            ListKind::Pipe
        }
    }
}

/// Reads `text` as a list of `kind`.
///
/// Errors: a CSV/TSV header without journal and year columns; a BibTeX
/// or RIS file that does not parse.
pub fn read(text: &str, kind: ListKind) -> Result<Vec<Reference>, String> {
    match kind {
        ListKind::Pipe => Ok(pipe::read(text)),
        ListKind::Csv => delimited::read(text, b','),
        ListKind::Tsv => delimited::read(text, b'\t'),
        // Entries with a PMID already have nothing to match.
        ListKind::Bibtex => Ok(bibtex::read(text)?
            .into_iter()
            .filter_map(|e| e.reference)
            .collect()),
        ListKind::Ris => Ok(ris::read(text)?
            .into_iter()
            .filter_map(|e| e.reference)
            .collect()),
    }
}

/// Reads one pipe line (MCP inputs), as [`pipe::read`] reads each line.
pub fn from_line(line: &str) -> Reference {
    Reference {
        raw: line.to_string(),
        citation: citmatch::parse_line(line),
        doi: None,
    }
}

/// One reference of a list: what it is called in the list (the line, or
/// `row N`), and the citation read from it (`None` when it does not read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The reference as the list writes it (the line as written).
    pub raw: String,
    /// The citation, when the reference reads as one.
    pub citation: Option<Citation>,
    /// The reference's DOI as written (BibTeX/RIS `doi`, a CSV `doi`
    /// column), looked up before ECitMatch; `None` when it has none.
    pub doi: Option<String>,
}

/// The surname and initials ECitMatch wants from an author as lists write
/// it: `Mann, B J` / `Mann BJ` / `B. J. Mann` → `mann bj`.
pub fn ecitmatch_author(author: &str) -> String {
    let a = author.trim();
    let (surname, given) = match a.split_once(',') {
        Some((s, g)) => (s.trim().to_string(), g.trim().to_string()),
        None => {
            let words: Vec<&str> = a.split_whitespace().collect();
            match words.as_slice() {
                [] => return String::new(),
                [one] => (one.to_string(), String::new()),
                // `Mann BJ`: a last word of capitals is initials.
                [rest @ .., last] if last.chars().all(|c| c.is_uppercase() || c == '.') => {
                    (rest.join(" "), last.to_string())
                }
                [given @ .., last] => (last.to_string(), given.join(" ")),
            }
        }
    };
    let initials: String = if given
        .chars()
        .all(|c| c.is_uppercase() || c == '.' || c == ' ')
    {
        given.chars().filter(|c| c.is_alphabetic()).collect()
    } else {
        given
            .split([' ', '-', '.'])
            .filter_map(|w| w.chars().next())
            .collect()
    };
    let s = if initials.is_empty() {
        surname
    } else {
        format!("{surname} {initials}")
    };
    s.to_lowercase()
}

/// The first page of a page range (`3248-52` → `3248`, `e1234` kept).
pub fn first_page(pages: &str) -> String {
    pages
        .split(['-', '–', '—', ','])
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_as_ecitmatch_wants_them() {
        assert_eq!(ecitmatch_author("Mann, B J"), "mann bj");
        assert_eq!(ecitmatch_author("Mann BJ"), "mann bj");
        assert_eq!(ecitmatch_author("Barbara J. Mann"), "mann bj");
        assert_eq!(ecitmatch_author("Zhu, Na"), "zhu n");
        assert_eq!(ecitmatch_author(""), "");
    }

    #[test]
    fn first_pages() {
        assert_eq!(first_page("3248-52"), "3248");
        assert_eq!(first_page("727--733"), "727");
        assert_eq!(first_page("e1234"), "e1234");
    }
}
