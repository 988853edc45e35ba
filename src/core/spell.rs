//! Applying ESpell corrections in place (spell.md): `<SpelledQuery>` is
//! aligned back onto the caller's query and each replacement passes six
//! guards before it is applied. Pure: no I/O.

use std::ops::Range;

use serde::Serialize;

use super::fields;
use super::text::is_white_space;

/// One child of ESpell's `<SpelledQuery>`, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// `<Original>`: text ESpell kept (possibly re-cased).
    Original(String),
    /// `<Replaced>`: a replacement for the text between its neighbouring Originals.
    Replaced(String),
}

impl Segment {
    fn text(&self) -> &str {
        match self {
            Segment::Original(t) | Segment::Replaced(t) => t,
        }
    }
}

/// The guard that kept a proposed correction out (spell.md "Guards"); the
/// serialized name is the JSON `keptBecause`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Guard {
    /// 1. The span lies inside `[...]`.
    FieldTag,
    /// 2. The span overlaps the value of an indexed (not free-text) field.
    IndexedField,
    /// 3. A word is written in capitals (gene symbols, acronyms, operators).
    Capitals,
    /// 4. A word contains a digit.
    Digits,
    /// 4. A word contains a non-ASCII letter.
    NonAscii,
    /// 5. Replacement and span differ only in case.
    CaseOnly,
    /// 6. A single letter replaced by another single letter.
    SingleLetter,
}

impl Guard {
    /// The `keptBecause` name, e.g. `indexed_field`.
    pub fn as_str(self) -> &'static str {
        match self {
            Guard::FieldTag => "field_tag",
            Guard::IndexedField => "indexed_field",
            Guard::Capitals => "capitals",
            Guard::Digits => "digits",
            Guard::NonAscii => "non_ascii",
            Guard::CaseOnly => "case_only",
            Guard::SingleLetter => "single_letter",
        }
    }
}

/// A correction ESpell proposed for one aligned span of the query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Correction {
    /// The caller's text that ESpell replaced.
    pub from: String,
    /// The replacement as applied (capitalised like `from` when it was applied).
    pub to: String,
    /// Whether it is in `corrected`.
    pub applied: bool,
    /// The guard that kept it out, when not applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_because: Option<Guard>,
    /// Byte range of `from` in the query.
    #[serde(skip)]
    pub span: Range<usize>,
}

/// The query with accepted corrections applied, and every aligned proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The query with accepted corrections applied in place.
    pub corrected: String,
    /// Every proposal that aligned onto the query, in query order.
    pub corrections: Vec<Correction>,
    /// False when alignment was lost and the rest of the query was copied verbatim.
    pub aligned: bool,
}

/// Rebuilds `query` from ESpell's segments (spell.md "Alignment"): Originals
/// are matched case-insensitively with any whitespace run matching any other;
/// each Replaced is applied only if no guard holds. Never panics; when
/// alignment is lost the rest of the query is copied verbatim.
pub fn apply(query: &str, segments: &[Segment]) -> Applied {
    let protected = Protected::scan(query);
    let mut out = String::with_capacity(query.len() + 16);
    let mut corrections = Vec::new();
    let mut cursor = 0;
    let mut aligned = true;

    for (i, seg) in segments.iter().enumerate() {
        match seg {
            Segment::Original(t) if t.is_empty() => {}
            Segment::Original(t) => match match_at(query, cursor, t) {
                Some(end) => {
                    out.push_str(&query[cursor..end]);
                    cursor = end;
                }
                None => {
                    aligned = false;
                    break;
                }
            },
            Segment::Replaced(r) => {
                let next = segments[i + 1..].iter().find(|s| !s.text().is_empty());
                let span = match next {
                    Some(Segment::Original(t)) => {
                        find_from(query, cursor, t).map(|start| trim_span(query, cursor..start))
                    }
                    _ => next_word(query, cursor),
                };
                let Some(span) = span.filter(|s| !s.is_empty()) else {
                    aligned = false;
                    break;
                };
                if r.trim().is_empty() {
                    aligned = false;
                    break;
                }
                let w = &query[span.clone()];
                let kept_because = guard(&protected, span.clone(), w, r);
                let to = if kept_because.is_none() {
                    capitalise_like(w, r)
                } else {
                    r.clone()
                };
                out.push_str(&query[cursor..span.start]);
                out.push_str(if kept_because.is_none() { &to } else { w });
                cursor = span.end;
                corrections.push(Correction {
                    from: w.to_string(),
                    to,
                    applied: kept_because.is_none(),
                    kept_because,
                    span,
                });
            }
        }
    }
    out.push_str(&query[cursor..]);
    Applied {
        corrected: out,
        corrections,
        aligned,
    }
}

fn eq_ci(a: char, b: char) -> bool {
    a == b || a.to_lowercase().eq(b.to_lowercase())
}

fn ws_len(s: &str) -> usize {
    s.chars()
        .take_while(|c| is_white_space(*c))
        .map(char::len_utf8)
        .sum()
}

/// If `t` matches `q` at byte `pos` (case-insensitive, whitespace run ≈
/// whitespace run; trailing whitespace of `t` may meet the end of `q`),
/// returns the end of the match.
fn match_at(q: &str, pos: usize, t: &str) -> Option<usize> {
    let mut qi = pos;
    let mut tchars = t.chars().peekable();
    while let Some(tc) = tchars.next() {
        if is_white_space(tc) {
            while tchars.peek().is_some_and(|c| is_white_space(*c)) {
                tchars.next();
            }
            let n = ws_len(&q[qi..]);
            if n == 0 && !(qi == q.len() && tchars.peek().is_none()) {
                return None;
            }
            qi += n;
        } else {
            let qc = q[qi..].chars().next()?;
            if !eq_ci(qc, tc) {
                return None;
            }
            qi += qc.len_utf8();
        }
    }
    Some(qi)
}

/// The first byte position at or after `from` where `t` matches.
fn find_from(q: &str, from: usize, t: &str) -> Option<usize> {
    q[from..]
        .char_indices()
        .map(|(i, _)| from + i)
        .chain(std::iter::once(q.len()))
        .find(|&p| match_at(q, p, t).is_some())
}

/// Narrows a span to its non-whitespace core.
fn trim_span(q: &str, span: Range<usize>) -> Range<usize> {
    let s = &q[span.clone()];
    let start = span.start + (s.len() - s.trim_start_matches(is_white_space).len());
    let end = span.end - (s.len() - s.trim_end_matches(is_white_space).len());
    start..end.max(start)
}

/// The next word at or after `from` (leading whitespace skipped): up to
/// whitespace or one of `[ ] ( ) "`.
fn next_word(q: &str, from: usize) -> Option<Range<usize>> {
    let start = from + ws_len(&q[from..]);
    let len: usize = q[start..]
        .chars()
        .take_while(|c| !is_white_space(*c) && !matches!(c, '[' | ']' | '(' | ')' | '"'))
        .map(char::len_utf8)
        .sum();
    Some(start..start + len)
}

/// Spans of the query that spell must not touch: bracketed field tags and
/// the values of indexed fields.
struct Protected {
    brackets: Vec<Range<usize>>,
    indexed_values: Vec<Range<usize>>,
}

impl Protected {
    fn scan(q: &str) -> Protected {
        let mut brackets = Vec::new();
        let mut indexed_values = Vec::new();
        let mut pos = 0;
        while let Some(open) = q[pos..].find('[').map(|i| pos + i) {
            let close = q[open..].find(']').map(|i| open + i);
            let end = close.map_or(q.len(), |c| c + 1);
            brackets.push(open..end);
            let content = &q[open + 1..close.unwrap_or(q.len())];
            if !fields::is_free_text_tag(content)
                && let Some(v) = value_before(q, open)
            {
                indexed_values.push(v);
            }
            pos = end;
        }
        Protected {
            brackets,
            indexed_values,
        }
    }
}

/// The value a tag at byte `open` applies to: the quoted phrase directly
/// before it, or the run of words back to the previous capitalised Boolean
/// operator, parenthesis, `]` or the start.
fn value_before(q: &str, open: usize) -> Option<Range<usize>> {
    let head = q[..open].trim_end_matches(is_white_space);
    if let Some(inner) = head.strip_suffix('"') {
        let start = inner.rfind('"').unwrap_or(0);
        return Some(start..head.len());
    }
    let boundary = head.rfind(['(', ')', ']']).map_or(0, |i| i + 1);
    let mut start = boundary;
    let mut offset = boundary;
    for word in head[boundary..].split_inclusive(is_white_space) {
        offset += word.len();
        if matches!(word.trim_end_matches(is_white_space), "AND" | "OR" | "NOT") {
            start = offset;
        }
    }
    let span = trim_span(q, start..head.len());
    (!span.is_empty()).then_some(span)
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

fn guard(p: &Protected, span: Range<usize>, w: &str, r: &str) -> Option<Guard> {
    if p.brackets.iter().any(|b| overlaps(b, &span)) {
        return Some(Guard::FieldTag);
    }
    if p.indexed_values.iter().any(|v| overlaps(v, &span)) {
        return Some(Guard::IndexedField);
    }
    let words: Vec<&str> = w.split(is_white_space).filter(|s| !s.is_empty()).collect();
    let in_capitals = |word: &&str| {
        let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
        letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase())
    };
    if words.iter().any(in_capitals) {
        return Some(Guard::Capitals);
    }
    if words.iter().any(|w| w.chars().any(|c| c.is_numeric())) {
        return Some(Guard::Digits);
    }
    if words
        .iter()
        .any(|w| w.chars().any(|c| c.is_alphabetic() && !c.is_ascii()))
    {
        return Some(Guard::NonAscii);
    }
    if w.to_lowercase() == r.to_lowercase() {
        return Some(Guard::CaseOnly);
    }
    let single_letter = |s: &str| {
        let mut cs = s.chars();
        matches!((cs.next(), cs.next()), (Some(c), None) if c.is_alphabetic())
    };
    if single_letter(w) && single_letter(r) {
        return Some(Guard::SingleLetter);
    }
    None
}

/// `r` with its first letter capitalised when `w`'s first word is
/// Capitalised and `r` is all lower-case (`Netch` → `Notch`).
fn capitalise_like(w: &str, r: &str) -> String {
    let first = w.split(is_white_space).next().unwrap_or("");
    let mut cs = first.chars();
    let capitalised = cs.next().is_some_and(char::is_uppercase) && cs.all(|c| !c.is_uppercase());
    if capitalised && !r.chars().any(char::is_uppercase) {
        let mut out = String::with_capacity(r.len());
        let mut rc = r.chars();
        if let Some(c) = rc.next() {
            out.extend(c.to_uppercase());
        }
        out.extend(rc);
        out
    } else {
        r.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::Segment::{Original as O, Replaced as R};
    use super::*;

    fn o(s: &str) -> Segment {
        O(s.into())
    }
    fn r(s: &str) -> Segment {
        R(s.into())
    }

    /// Every row of spell.md's example table.
    #[test]
    fn spell_md_examples() {
        let rows: Vec<(&str, Vec<Segment>, &str)> = vec![
            (
                "asthmaa OR alergies",
                vec![o(""), r("asthma"), o(" OR "), r("allergies")],
                "asthma OR allergies",
            ),
            (
                "Netch AND Mus musclus",
                vec![r("notch"), o(" AND mus "), r("musculus")],
                "Notch AND Mus musculus",
            ),
            ("biopythooon", vec![o(""), r("biopython")], "biopython"),
            (
                "alzhiemer diseese treatmnt outcomse",
                vec![
                    o(""),
                    r("alzheimer"),
                    o(" "),
                    r("disease"),
                    o(" "),
                    r("treatment"),
                    o(" "),
                    r("outcomes"),
                ],
                "alzheimer disease treatment outcomes",
            ),
            (
                "agd[mh] AND diabetis",
                vec![o(""), r("aged"), o("[mh] AND "), r("diabetes")],
                "agd[mh] AND diabetes",
            ),
            (
                "reveiw[pt] AND asthma",
                vec![o(""), r("review"), o("[pt] AND asthma")],
                "reveiw[pt] AND asthma",
            ),
            (
                "brest cancr[ti]",
                vec![o(""), r("breast"), o(" "), r("cancer"), o("[ti]")],
                "breast cancer[ti]",
            ),
            (
                "COPD exacerbaton",
                vec![o(""), r("cope"), o(" "), r("exacerbation")],
                "COPD exacerbation",
            ),
            ("q fever", vec![o(""), r("a"), o(" fever")], "q fever"),
            (
                "il-6 levls 2020 sepsiss",
                vec![o("il-6 "), r("levels"), o(" 2020 sepsiss")],
                "il-6 levels 2020 sepsiss",
            ),
            ("cancer", vec![o("cancer")], "cancer"),
        ];
        for (q, segs, want) in rows {
            let got = apply(q, &segs);
            assert_eq!(got.corrected, want, "query {q:?}");
            assert!(got.aligned, "query {q:?}");
        }
    }

    fn kept(q: &str, segs: &[Segment]) -> Vec<(String, Option<Guard>)> {
        apply(q, segs)
            .corrections
            .into_iter()
            .map(|c| (c.from, c.kept_because))
            .collect()
    }

    #[test]
    fn each_guard_names_itself() {
        assert_eq!(
            kept(
                "agd[mh] AND diabetis",
                &[o(""), r("aged"), o("[mh] AND "), r("diabetes")]
            ),
            vec![
                ("agd".into(), Some(Guard::IndexedField)),
                ("diabetis".into(), None)
            ]
        );
        assert_eq!(
            kept("cancer[tiab] AND x", &[o("cancer["), r("tw"), o("] AND x")]),
            vec![("tiab".into(), Some(Guard::FieldTag))]
        );
        assert_eq!(
            kept("COPD exacerbaton", &[r("cope"), o(" "), r("exacerbation")])[0],
            ("COPD".into(), Some(Guard::Capitals))
        );
        assert_eq!(
            kept("covid19 x", &[r("covid"), o(" x")]),
            vec![("covid19".into(), Some(Guard::Digits))]
        );
        assert_eq!(
            kept("naïve x", &[r("naive"), o(" x")]),
            vec![("naïve".into(), Some(Guard::NonAscii))]
        );
        assert_eq!(
            kept("Cancer", &[r("cancer")]),
            vec![("Cancer".into(), Some(Guard::CaseOnly))]
        );
        assert_eq!(
            kept("smith q", &[o("smith "), r("a")]),
            vec![("q".into(), Some(Guard::SingleLetter))]
        );
    }

    #[test]
    fn indexed_values_reach_back_to_operator_paren_or_bracket() {
        // quoted phrase before an indexed tag
        let segs = [o("\"brest cancer\"[mh] OR "), r("tumour")];
        assert_eq!(
            apply("\"brest cancer\"[mh] OR tumor", &segs).corrected,
            "\"brest cancer\"[mh] OR tumour"
        );
        let segs = [o("\""), r("breast"), o(" cancer\"[mh]")];
        assert_eq!(
            kept("\"brest cancer\"[mh]", &segs),
            vec![("brest".into(), Some(Guard::IndexedField))]
        );
        // lower-case "or" is a word, so the author value runs back over it
        let segs = [r("smyth"), o(" or jones[au]")];
        assert_eq!(
            kept("smith or jones[au]", &segs),
            vec![("smith".into(), Some(Guard::IndexedField))]
        );
        // capital OR ends the value
        let segs = [r("heart"), o(" OR jones[au]")];
        assert_eq!(
            apply("hart OR jones[au]", &segs).corrected,
            "heart OR jones[au]"
        );
        // parenthesis ends the value; unknown tags count as indexed
        let segs = [o("(x) "), r("benzo"), o("[a]pyrene")];
        assert_eq!(
            kept("(x) bemzo[a]pyrene", &segs),
            vec![("bemzo".into(), Some(Guard::IndexedField))]
        );
        // free-text tag with a modifier may be corrected
        let segs = [r("breast"), o(" cancer[tiab:~3]")];
        assert_eq!(
            apply("brest cancer[tiab:~3]", &segs).corrected,
            "breast cancer[tiab:~3]"
        );
    }

    #[test]
    fn capitalisation_follows_the_first_word() {
        assert_eq!(apply("Netch", &[r("notch")]).corrected, "Notch");
        assert_eq!(apply("netch", &[r("notch")]).corrected, "notch");
        // r already has capitals: left as ESpell wrote it
        assert_eq!(apply("Brest", &[r("bReast")]).corrected, "bReast");
    }

    #[test]
    fn whitespace_runs_and_case_match_loosely() {
        let segs = [o(""), r("asthma"), o(" or "), r("allergies")];
        assert_eq!(
            apply("asthmaa \t OR  alergies", &segs).corrected,
            "asthma \t OR  allergies"
        );
        // padded query: sent as written, padding kept
        assert_eq!(
            apply("  covd  ", &[o(" "), r("covid"), o(" ")]).corrected,
            "  covid  "
        );
    }

    #[test]
    fn lost_alignment_copies_the_rest() {
        let got = apply("asthmaa OR alergies", &[o("zzz"), r("asthma")]);
        assert_eq!(got.corrected, "asthmaa OR alergies");
        assert!(!got.aligned);
        let got = apply("abc def", &[r("abd"), o(" xyz")]);
        assert_eq!(got.corrected, "abc def");
        assert!(!got.aligned);
        // Replaced with nothing left to replace
        let got = apply("abc", &[o("abc"), r("x")]);
        assert_eq!(got.corrected, "abc");
        assert!(!got.aligned);
        // the 2008 shape: only a Replaced
        assert_eq!(
            apply("biopythooon", &[r("biopython")]).corrected,
            "biopython"
        );
        // a correction only in CorrectedQuery (no segments) is never applied
        assert_eq!(apply("cancr", &[]).corrected, "cancr");
    }

    #[test]
    fn adjacent_replacements_take_one_word_each() {
        let segs = [r("heart"), r("attack")];
        assert_eq!(apply("hart atack", &segs).corrected, "heart attack");
    }
}
