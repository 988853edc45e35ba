//! BibTeX/BibLaTeX lists, parsed with the `biblatex` crate (its raw form,
//! which keeps every entry's place in the file), and the write-back of
//! matched PMIDs: a `pmid = {…}` field added before the entry's closing
//! brace, every other byte of the file kept (docs/match.md "Not yet").

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
        // The entry's span may end before or after its closing delimiter.
        let close = if src[..e.span.end].ends_with(['}', ')']) {
            e.span.end - 1
        } else {
            src[e.span.end..]
                .find(['}', ')'])
                .map_or(e.span.end, |i| e.span.end + i)
        };
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
            }),
            key,
            close,
        });
    }
    Ok(out)
}

/// `src` with `pmid = {P}` added to each entry of `found` (entry's closing
/// offset, PMID), every other byte unchanged.
pub fn write_back(src: &str, found: &[(usize, String)]) -> String {
    let mut found: Vec<&(usize, String)> = found.iter().collect();
    found.sort_by_key(|(c, _)| *c);
    let mut out = String::with_capacity(src.len() + found.len() * 24);
    let mut at = 0;
    for (close, pmid) in found {
        let before = src[at..*close].trim_end();
        let end = at + before.len();
        out.push_str(&src[at..end]);
        if before.ends_with(',') {
            out.push_str(&format!("\n  pmid = {{{pmid}}},"));
        } else {
            out.push_str(&format!(",\n  pmid = {{{pmid}}}"));
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
        let out = write_back(BIB, &[(e[0].close, "2014248".into())]);
        assert_eq!(
            out,
            BIB.replace(
                "pages = {3248--3252}\n}",
                "pages = {3248--3252},\n  pmid = {2014248}\n}"
            )
        );
    }
}
