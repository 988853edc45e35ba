//! RIS lists: `XX  - value` tag lines, a record from `TY` to `ER`, and the
//! write-back of what was found: `AN` (the PMID, as `fetch -f ris`
//! writes it) and `DO` tag lines the record lacks, added before its `ER`
//! line, every other byte kept (docs/match.md "Input", "Output").

use super::{Reference, ecitmatch_author, first_page};
use crate::core::citmatch::Citation;

/// One record of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RisEntry {
    /// The reference to match, when the record has no PMID (`AN` of digits).
    pub reference: Option<Reference>,
    /// The byte offset of the record's `ER` line.
    pub end: usize,
    /// The line ending of the `ER` line (`\r\n` or `\n`).
    pub eol: &'static str,
    /// The record's tags, in file order.
    pub tags: Vec<String>,
}

impl RisEntry {
    /// The `(tag, value)` lines of `found` this record lacks, in order.
    pub fn missing(&self, found: &[(&str, Option<String>)]) -> Vec<(String, String)> {
        found
            .iter()
            .filter(|(t, _)| !self.tags.iter().any(|x| x == t))
            .filter_map(|(t, v)| Some((t.to_string(), v.clone()?)))
            .collect()
    }
}

/// A tag line's tag and value: two capitals or a capital and a digit,
/// two spaces, `-`, then the value after one space.
fn tag_line(line: &str) -> Option<(&str, &str)> {
    let l = line.trim_end_matches(['\r', '\n']);
    let b = l.as_bytes();
    let ok = b.len() >= 5
        && b[0].is_ascii_uppercase()
        && (b[1].is_ascii_uppercase() || b[1].is_ascii_digit())
        && &l[2..5] == "  -";
    ok.then(|| (&l[..2], l[5..].trim()))
}

/// Reads the records of `src`, in file order.
///
/// Errors: no `TY` record, or a record without its `ER` line.
pub fn read(src: &str) -> Result<Vec<RisEntry>, String> {
    let src_body = src.strip_prefix('\u{FEFF}').unwrap_or(src);
    let mut at = src.len() - src_body.len();
    let mut out = Vec::new();
    let mut open: Option<Vec<(String, String)>> = None;
    for line in src_body.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let Some((tag, value)) = tag_line(line) else {
            continue;
        };
        match (tag, open.as_mut()) {
            ("TY", None) => open = Some(vec![("TY".into(), value.into())]),
            ("TY", Some(_)) => return Err(format!("record {} has no ER line", out.len() + 1)),
            ("ER", Some(_)) => {
                let tags = open.take().unwrap_or_default();
                let eol = if line.ends_with("\r\n") { "\r\n" } else { "\n" };
                out.push(entry(&tags, out.len() + 1, start, eol));
            }
            (_, Some(tags)) => tags.push((tag.into(), value.into())),
            (_, None) => {}
        }
    }
    if open.is_some() {
        return Err(format!("record {} has no ER line", out.len() + 1));
    }
    if out.is_empty() {
        return Err("not RIS: no TY … ER record".into());
    }
    Ok(out)
}

fn entry(tags: &[(String, String)], n: usize, end: usize, eol: &'static str) -> RisEntry {
    let get = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| tags.iter().find(|(t, v)| t == n && !v.is_empty()))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let an = get(&["AN"]);
    let has_pmid = !an.is_empty() && an.bytes().all(|b| b.is_ascii_digit());
    let year: String = get(&["PY", "Y1", "DA"]).chars().take(4).collect();
    let key = match get(&["ID"]) {
        k if k.is_empty() => format!("record{n}"),
        k => k,
    };
    let citation = Citation {
        journal: get(&["T2", "JF", "JO", "J2"]),
        year,
        volume: get(&["VL"]),
        first_page: first_page(&get(&["SP"])),
        author: ecitmatch_author(&get(&["AU", "A1"])),
        key,
    };
    RisEntry {
        reference: (!has_pmid).then(|| Reference {
            raw: format!("record {n}"),
            citation: Some(citation),
            doi: Some(get(&["DO"])).filter(|d| !d.is_empty()),
        }),
        end,
        eol,
        tags: tags.iter().map(|(t, _)| t.clone()).collect(),
    }
}

/// Tag lines to add to one record: its `ER` offset, line ending and the
/// `(tag, value)` pairs.
pub type Additions<'a> = (usize, &'a str, Vec<(String, String)>);

/// `src` with the tag lines of `found` (record's `ER` offset and line
/// ending, `(tag, value)` pairs) added before each record's `ER` line,
/// every other byte unchanged.
pub fn write_back(src: &str, found: &[Additions<'_>]) -> String {
    let mut found: Vec<_> = found.iter().filter(|(_, _, f)| !f.is_empty()).collect();
    found.sort_by_key(|(e, _, _)| *e);
    let mut out = String::with_capacity(src.len() + found.len() * 48);
    let mut at = 0;
    for (end, eol, tags) in found {
        out.push_str(&src[at..*end]);
        for (t, v) in tags {
            out.push_str(&format!("{t}  - {v}{eol}"));
        }
        at = *end;
    }
    out.push_str(&src[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_citations_and_write_back() {
        let ris = "TY  - JOUR\r\nAU  - Mann, B J\r\nT2  - proc natl acad sci u s a\r\nPY  - 1991\r\nVL  - 88\r\nSP  - 3248\r\nEP  - 3252\r\nER  - \r\n\r\nTY  - JOUR\r\nTI  - done\r\nAN  - 2014248\r\nER  - \r\n";
        let e = read(ris).unwrap();
        assert_eq!(e.len(), 2);
        let c = e[0].reference.as_ref().unwrap().citation.clone().unwrap();
        assert_eq!(
            (
                c.journal.as_str(),
                c.year.as_str(),
                c.first_page.as_str(),
                c.author.as_str()
            ),
            ("proc natl acad sci u s a", "1991", "3248", "mann bj")
        );
        assert_eq!(e[1].reference, None);
        let add = e[0].missing(&[("AN", Some("2014248".into())), ("DO", None)]);
        assert_eq!(
            write_back(ris, &[(e[0].end, e[0].eol, add)]),
            ris.replacen("EP  - 3252\r\n", "EP  - 3252\r\nAN  - 2014248\r\n", 1)
        );
        assert!(read("TY  - JOUR\nTI  - x\n").is_err());
        assert!(read("hello\n").is_err());
    }
}
