//! BibTeX/BibLaTeX lists, parsed with the `biblatex` crate (its raw form,
//! which keeps every entry's place in the file), and the write-back of
//! what was found: `pmid`, `pmcid` and `doi` fields the entry lacks added
//! before its closing brace, every other byte of the file kept
//! (docs/match.md "Output").

use biblatex::{RawBibliography, RawChunk};

use super::{Reference, ecitmatch_author, first_page};
use crate::core::citmatch::Citation;

/// One entry of a list: its reference (`None` when it has a `pmid`
/// already: nothing to match) and where it ends in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BibEntry {
    /// The citation key.
    pub key: String,
    /// The reference to match, when the entry has no `pmid` field.
    pub reference: Option<Reference>,
    /// The byte offset of the entry's closing delimiter.
    pub close: usize,
    /// The entry's field names, lower-cased, in file order.
    pub fields: Vec<String>,
}

impl BibEntry {
    /// The `(name, value)` fields of `found` this entry lacks, in order.
    pub fn missing(&self, found: &[(&str, Option<String>)]) -> Vec<(String, String)> {
        found
            .iter()
            .filter(|(n, _)| !self.fields.iter().any(|f| f == n))
            .filter_map(|(n, v)| Some((n.to_string(), v.clone()?)))
            .collect()
    }
}

fn text(chunks: &[biblatex::Spanned<RawChunk<'_>>]) -> String {
    let s: String = chunks
        .iter()
        .map(|c| match c.v {
            RawChunk::Normal(s) | RawChunk::Abbreviation(s) => s,
        })
        .collect();
    s.chars()
        .filter(|c| !matches!(c, '{' | '}'))
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The byte offset of the delimiter closing the entry whose `@` is at or
/// after `start`: the `}` matching its opening `{` (braces counted), or the
/// first `)` outside braces for `@type(…)`.
fn closing(src: &str, start: usize) -> Option<usize> {
    let open = start + src[start..].find(['{', '('])?;
    let paren = src.as_bytes()[open] == b'(';
    let mut depth = 0usize;
    for (i, b) in src.as_bytes()[open + 1..].iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' if depth == 0 && !paren => return Some(open + 1 + i),
            b'}' => depth -= 1,
            b')' if depth == 0 && paren => return Some(open + 1 + i),
            _ => {}
        }
    }
    None
}

/// Reads the entries of `src`, in file order.
///
/// Errors: the file does not parse as BibTeX (the parser's message).
pub fn read(src: &str) -> Result<Vec<BibEntry>, String> {
    let bib = RawBibliography::parse(src).map_err(|e| format!("not BibTeX: {e:?}"))?;
    let mut out = Vec::new();
    for e in &bib.entries {
        let field = |names: &[&str]| {
            e.v.fields
                .iter()
                .find(|p| names.iter().any(|n| p.key.v.eq_ignore_ascii_case(n)))
                .map(|p| text(&p.value.v))
                .unwrap_or_default()
        };
        let close = closing(src, e.span.start).unwrap_or(e.span.end);
        let key = e.v.key.v.to_string();
        let has_pmid = !field(&["pmid"]).is_empty();
        let year = match field(&["year"]) {
            y if !y.is_empty() => y,
            _ => field(&["date"]).chars().take(4).collect(),
        };
        let authors = field(&["author"]);
        let first = authors.split(" and ").next().unwrap_or_default();
        let citation = Citation {
            journal: field(&["journal", "journaltitle"]),
            year,
            volume: field(&["volume"]),
            first_page: first_page(&field(&["pages"])),
            author: ecitmatch_author(first),
            key: key.clone(),
        };
        out.push(BibEntry {
            reference: (!has_pmid).then(|| Reference {
                raw: format!("@{}{{{key}}}", e.v.kind.v),
                citation: Some(citation),
                doi: Some(field(&["doi"])).filter(|d| !d.is_empty()),
            }),
            key,
            close,
            fields: e.v.fields.iter().map(|p| p.key.v.to_lowercase()).collect(),
        });
    }
    Ok(out)
}

/// `src` with the fields of `found` (entry's closing offset, `(name,
/// value)` pairs) added before each entry's closing delimiter, one per
/// line, every other byte unchanged.
pub fn write_back(src: &str, found: &[(usize, Vec<(String, String)>)]) -> String {
    let mut found: Vec<&(usize, Vec<(String, String)>)> =
        found.iter().filter(|(_, f)| !f.is_empty()).collect();
    found.sort_by_key(|(c, _)| *c);
    let mut out = String::with_capacity(src.len() + found.len() * 64);
    let mut at = 0;
    for (close, fields) in found {
        let before = src[at..*close].trim_end();
        let end = at + before.len();
        out.push_str(&src[at..end]);
        let lines: Vec<String> = fields
            .iter()
            .map(|(n, v)| format!("\n  {n} = {{{v}}}"))
            .collect();
        if before.ends_with(',') {
            out.push_str(&lines.join(","));
            out.push(',');
        } else {
            out.push(',');
            out.push_str(&lines.join(","));
        }
        at = end;
    }
    out.push_str(&src[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIB: &str = "% my refs\n@article{mann1991,\n  author = {Mann, B. J. and Other, A.},\n  journal = {Proc Natl Acad Sci U S A},\n  year = 1991,\n  volume = {88},\n  pages = {3248--3252}\n}\n\n@article{done, title={x}, pmid = {1}, journal={J}, year={2000}}\n";

    #[test]
    fn entries_and_their_citations() {
        let e = read(BIB).unwrap();
        assert_eq!(e.len(), 2);
        let c = e[0].reference.as_ref().unwrap().citation.clone().unwrap();
        assert_eq!(c.journal, "Proc Natl Acad Sci U S A");
        assert_eq!(c.year, "1991");
        assert_eq!(c.first_page, "3248");
        assert_eq!(c.author, "mann bj");
        assert_eq!(c.key, "mann1991");
        assert_eq!(e[1].reference, None);
    }

    #[test]
    fn write_back_adds_only_the_field() {
        let e = read(BIB).unwrap();
        let add = e[0].missing(&[("pmid", Some("2014248".into())), ("pmcid", None)]);
        let out = write_back(BIB, &[(e[0].close, add)]);
        assert_eq!(
            out,
            BIB.replace(
                "pages = {3248--3252}\n}",
                "pages = {3248--3252},\n  pmid = {2014248}\n}"
            )
        );
    }

    #[test]
    fn write_back_adds_only_fields_the_entry_lacks() {
        let bib = "@article{a, doi = {10.1038/NG.590},\n  year = 2010}\n";
        let e = read(bib).unwrap();
        let add = e[0].missing(&[
            ("pmid", Some("20495566".into())),
            ("pmcid", Some("PMC2883744".into())),
            ("doi", Some("10.1038/ng.590".into())),
        ]);
        assert_eq!(
            write_back(bib, &[(e[0].close, add)]),
            "@article{a, doi = {10.1038/NG.590},\n  year = 2010,\n  pmid = {20495566},\n  pmcid = {PMC2883744}}\n"
        );
    }
}
