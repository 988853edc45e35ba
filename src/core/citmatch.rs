//! ECitMatch's text with no I/O: a citation's `bdata` line
//! (`journal|year|volume|first_page|author|key|`), reading an input line in
//! that form, and reading the answer lines (docs/match.md).

use serde::Serialize;

/// One reference to match, ECitMatch's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Citation {
    /// The journal title or ISO abbreviation (`proc natl acad sci u s a`).
    pub journal: String,
    /// The publication year.
    pub year: String,
    /// The volume.
    pub volume: String,
    /// The first page.
    pub first_page: String,
    /// The first author, `surname initials` (`mann bj`).
    pub author: String,
    /// The caller's key, echoed in the answer (`Art1`).
    pub key: String,
}

/// A field as ECitMatch reads it: `|` and line breaks (its separators)
/// become spaces, blank runs one space, trimmed.
pub fn clean_field(s: &str) -> String {
    s.chars()
        .map(|c| {
            if matches!(c, '|' | '\r' | '\n') {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `bdata` line of `c` (no line break): its six fields, cleaned,
/// each followed by `|`. The key is the caller's; the answer echoes it.
pub fn bdata_line(c: &Citation) -> String {
    [
        &c.journal,
        &c.year,
        &c.volume,
        &c.first_page,
        &c.author,
        &c.key,
    ]
    .iter()
    .map(|f| format!("{}|", clean_field(f)))
    .collect()
}

/// The `bdata` of several citations: lines joined with `\r` (ECitMatch's
/// separator; sent as `%0D`).
pub fn bdata(cs: &[Citation]) -> String {
    cs.iter().map(bdata_line).collect::<Vec<_>>().join("\r")
}

/// Reads an input line in ECitMatch's own form
/// (`journal|year|volume|first_page|author|key|`; the trailing `|` and the
/// key may be left out). `None` when the line has fewer than four fields.
pub fn parse_line(line: &str) -> Option<Citation> {
    let mut f: Vec<&str> = line.trim_end_matches(['\r', '\n']).split('|').collect();
    if f.last() == Some(&"") {
        f.pop();
    }
    if f.len() < 4 || f.len() > 6 {
        return None;
    }
    let get = |i: usize| f.get(i).map(|s| s.trim().to_string()).unwrap_or_default();
    Some(Citation {
        journal: get(0),
        year: get(1),
        volume: get(2),
        first_page: get(3),
        author: get(4),
        key: get(5),
    })
}

/// What ECitMatch answered for one citation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// One PMID.
    Found(String),
    /// No match; NCBI's words after `NOT_FOUND` (`INVALID_JOURNAL`), if any.
    NotFound(String),
    /// Several articles match: the PMIDs NCBI lists, when it lists them.
    Ambiguous(Vec<String>),
}

/// One answer line: the key it echoes and the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerLine {
    /// The key as echoed (the seventh field's predecessor).
    pub key: String,
    /// The answer.
    pub answer: Answer,
}

/// Reads one answer line: the input echoed (`+` as spaces, the author
/// field sometimes dropped) and the answer appended as the 7th field.
/// Errors: a line without 7 fields or with an answer that is none of a
/// PMID, `NOT_FOUND…` and `AMBIGUOUS…`.
pub fn parse_answer_line(line: &str) -> Result<AnswerLine, String> {
    let f: Vec<&str> = line.split('|').collect();
    if f.len() != 7 {
        return Err(format!("expected 7 fields, found {}: {line:?}", f.len()));
    }
    let key = f[5].trim().to_string();
    let a = f[6].trim();
    let answer = if !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()) {
        Answer::Found(a.to_string())
    } else if let Some(rest) = a.strip_prefix("NOT_FOUND") {
        Answer::NotFound(rest.trim_start_matches([';', ' ']).to_string())
    } else if let Some(rest) = a.strip_prefix("AMBIGUOUS") {
        Answer::Ambiguous(candidates(rest))
    } else if a.is_empty() {
        Answer::NotFound(String::new())
    } else {
        return Err(format!("unknown answer {a:?}"));
    };
    Ok(AnswerLine { key, answer })
}

/// The PMIDs in an `AMBIGUOUS` tail: whole-number tokens outside
/// parentheses (a count such as `(2 citations)` is not a PMID).
fn candidates(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in rest.chars().chain(std::iter::once(' ')) {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            d if d.is_ascii_digit() && depth == 0 => {
                cur.push(d);
                continue;
            }
            _ => {}
        }
        if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    out
}

/// Reads a whole answer: one line per citation, blank lines skipped.
/// Errors: the first line that does not read ([`parse_answer_line`]).
pub fn parse_answer(body: &str) -> Result<Vec<AnswerLine>, String> {
    body.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .map(parse_answer_line)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real capture (tests/fixtures/PROVENANCE.md row 54): found, an
    /// invalid journal, found.
    #[test]
    fn real_capture() {
        let body =
            include_str!("../../tests/fixtures/ecitmatch_pubmed_found_and_invalid_journal.txt");
        let a = parse_answer(body).unwrap();
        assert_eq!(
            a,
            vec![
                AnswerLine {
                    key: "Art1".into(),
                    answer: Answer::Found("2014248".into())
                },
                AnswerLine {
                    key: "ref2".into(),
                    answer: Answer::NotFound("INVALID_JOURNAL".into())
                },
                AnswerLine {
                    key: "Art4".into(),
                    answer: Answer::Found("31978945".into())
                },
            ]
        );
    }

    /// The capture's request, as its script sent it (spaces as `+` there).
    #[test]
    fn bdata_of_the_captures_request() {
        let cs = [
            Citation {
                journal: "proc natl acad sci u s a".into(),
                year: "1991".into(),
                volume: "88".into(),
                first_page: "3248".into(),
                author: "mann bj".into(),
                key: "Art1".into(),
            },
            Citation {
                journal: "fake journal".into(),
                year: "2000".into(),
                volume: "1".into(),
                first_page: "1".into(),
                author: "nobody".into(),
                key: "ref2".into(),
            },
        ];
        assert_eq!(
            bdata(&cs),
            "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|\rfake journal|2000|1|1|nobody|ref2|"
        );
    }

    #[test]
    fn separators_in_fields_cannot_shift_columns() {
        let c = Citation {
            journal: "A|B\r\nJournal".into(),
            key: "k".into(),
            ..Citation::default()
        };
        assert_eq!(bdata_line(&c), "A B Journal|||||k|");
    }

    #[test]
    fn input_lines() {
        let c = parse_line("proc natl acad sci u s a|1991|88|3248|mann bj|Art1|").unwrap();
        assert_eq!(c.journal, "proc natl acad sci u s a");
        assert_eq!(c.key, "Art1");
        assert_eq!(parse_line("j|2000|1|1").unwrap().author, "");
        assert_eq!(parse_line("j|2000"), None);
    }

    #[test]
    fn ambiguous_lists_candidates_not_counts() {
        let a = parse_answer_line("j|2000|1|1|x|k|AMBIGUOUS 111,222").unwrap();
        assert_eq!(
            a.answer,
            Answer::Ambiguous(vec!["111".into(), "222".into()])
        );
        let a = parse_answer_line("j|2000|1|1|x|k|AMBIGUOUS (2 citations)").unwrap();
        assert_eq!(a.answer, Answer::Ambiguous(vec![]));
        assert!(parse_answer_line("j|2000|1|1|x|k").is_err());
        assert!(parse_answer_line("j|2000|1|1|x|k|<html>").is_err());
    }
}
