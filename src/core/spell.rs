//! Applying ESpell corrections in place: `<SpelledQuery>` is aligned back
//! onto the caller's query and each replacement passes the guards before it
//! is applied. Pure: no I/O.
//!
//! ESpell's `<SpelledQuery>` is not a faithful copy of the query: it leaves
//! out numbers, symbols, parentheses, quotes and wildcards, merges two words
//! into one `<Replaced>`, and splits a word at a hyphen or a digit. So a
//! replacement is applied only where it lines up with exactly one query word
//! (a piece of one, split at a hyphen or digit; or, for a merge, the words
//! it merges), and never moves a byte of the query's syntax. Where ESpell's
//! answer stops lining up with the query, that proposal and every later one
//! are left as written. The rules, with examples: `docs/spell.md`.

use std::collections::HashSet;
use std::ops::Range;

use serde::Serialize;

use super::fields;
use super::text::{fold_whitespace, is_white_space};

/// One child of ESpell's `<SpelledQuery>`, in document order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Segment {
    /// `<Original>`: text ESpell kept (possibly re-cased).
    Original(String),
    /// `<Replaced>`: a replacement for the text between its neighbouring Originals.
    Replaced(String),
}

super::choice::choice! {
    /// Why a proposed correction was kept out; the name is the JSON
    /// `keptBecause` (docs/spell.md "Guards").
    pub enum Guard {
        /// The span lies inside `[...]` (a field tag).
        FieldTag = "field_tag",
        /// The span overlaps the value of an indexed (not free-text) field.
        IndexedField = "indexed_field",
        /// A word is written in capitals (gene symbols, acronyms, operators).
        Capitals = "capitals",
        /// A word contains a digit.
        Digits = "digits",
        /// A word contains a non-ASCII character (in whatever normal form it was typed).
        NonAscii = "non_ascii",
        /// A word is a truncation stem or holds a wildcard (`canc*`).
        Wildcard = "wildcard",
        /// Replacement and span differ only in case.
        CaseOnly = "case_only",
        /// A single letter replaced by another single letter.
        SingleLetter = "single_letter",
        /// ESpell's answer no longer lines up with the query here, so this
        /// proposal (and every later one) is left as written.
        AlignmentLost = "alignment_lost",
    }
}

/// A correction ESpell proposed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Correction {
    /// The caller's text ESpell's answer puts under this replacement. For a
    /// proposal that lost alignment this is only where ESpell's answer points
    /// (it may hold a number or a parenthesis ESpell left out), or empty when
    /// even that is unknown.
    pub from: String,
    /// The replacement: as inserted when applied (capitalised like `from`),
    /// else as ESpell wrote it.
    pub to: String,
    /// Whether it is in `corrected`.
    pub applied: bool,
    /// Why it was kept out, when not applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_because: Option<Guard>,
    /// Byte range of `from` in the query (meaningful only when aligned).
    #[serde(skip)]
    pub span: Range<usize>,
}

/// The query with accepted corrections applied, and every proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The query with accepted corrections applied in place: every byte
    /// outside an applied correction's span is the query's own.
    pub corrected: String,
    /// Every proposal, in query order; those after a loss of alignment last.
    pub corrections: Vec<Correction>,
    /// Byte offset in the query where ESpell's answer stopped lining up with
    /// it (everything from there on is copied as written), if it did.
    pub lost_at: Option<usize>,
}

impl Applied {
    /// True when every segment of ESpell's answer lined up with the query.
    pub fn aligned(&self) -> bool {
        self.lost_at.is_none()
    }
}

/// The most query words one `<Replaced>` may merge.
const MAX_MERGED_WORDS: usize = 4;

/// Query syntax no correction may contain, touch or move.
fn is_syntax(c: char) -> bool {
    matches!(c, '(' | ')' | '[' | ']' | '"')
}

/// Characters of a query word: letters, digits, the joiners `-` and `'`,
/// the wildcard `*`, and anything non-ASCII that is not whitespace (such a
/// word is never corrected, but stays one word).
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '\'' | '*') || (!c.is_ascii() && !is_white_space(c))
}

/// ASCII punctuation that is neither syntax nor part of a word (`,` `&`
/// `+` `/` `:` `.` …): ESpell leaves it out.
fn is_symbol(c: char) -> bool {
    !is_white_space(c) && !is_syntax(c) && !is_word_char(c)
}

fn is_operator(word: &str) -> bool {
    matches!(word, "AND" | "OR" | "NOT")
}

/// A replacement ESpell proposed for a part of the query, lined up.
#[derive(Debug, Clone)]
struct Unit {
    /// The query text replaced.
    span: Range<usize>,
    /// The whole query words the guards judge (the word around a piece;
    /// every word of a merge).
    words: Vec<Range<usize>>,
    /// ESpell's replacement, whitespace folded.
    r: String,
    /// For several words replaced by as many: the query's whitespace between them is kept.
    per_word: bool,
}

/// One step of ESpell's answer: an Original to match, or the Replaced
/// segments between two Originals.
enum Item<'a> {
    Original(&'a str),
    Replaced(Vec<&'a str>),
}

fn items(segments: &[Segment]) -> Vec<Item<'_>> {
    let mut items: Vec<Item<'_>> = Vec::new();
    for seg in segments {
        match seg {
            Segment::Original(t) if t.is_empty() => {}
            Segment::Original(t) => items.push(Item::Original(t)),
            Segment::Replaced(r) => match items.last_mut() {
                Some(Item::Replaced(group)) => group.push(r),
                _ => items.push(Item::Replaced(vec![r])),
            },
        }
    }
    items
}

/// The query, with what alignment and the guards need to know about it.
struct Query<'q> {
    q: &'q str,
    /// Maximal runs of word characters, in order.
    words: Vec<Range<usize>>,
    /// Bracketed field tags.
    brackets: Vec<Range<usize>>,
    /// Values of indexed fields.
    indexed_values: Vec<Range<usize>>,
}

impl<'q> Query<'q> {
    fn new(q: &'q str) -> Query<'q> {
        let mut words = Vec::new();
        let mut start = None;
        for (i, c) in q.char_indices() {
            match (is_word_char(c), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    words.push(s..i);
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            words.push(s..q.len());
        }
        let (brackets, indexed_values) = protected(q);
        Query {
            q,
            words,
            brackets,
            indexed_values,
        }
    }

    /// The word holding byte `pos`, if `pos` is inside one.
    fn word_at(&self, pos: usize) -> Option<Range<usize>> {
        let i = self.words.partition_point(|w| w.end <= pos);
        self.words
            .get(i)
            .filter(|w| w.start <= pos && pos < w.end)
            .cloned()
    }

    /// The whole word `a..b` is, or the word `a..b` is a piece of (split by
    /// ESpell at a hyphen or digit: letters only, bounded by non-letters or
    /// the word's ends). A word with no letter is a number or a symbol
    /// ESpell leaves out: `None`.
    fn word_or_piece(&self, part: Range<usize>) -> Option<Range<usize>> {
        let word = self.word_at(part.start)?;
        if part.end > word.end {
            return None;
        }
        let text = &self.q[part.clone()];
        if word == part {
            return text.chars().any(char::is_alphabetic).then_some(word);
        }
        let before = self.q[..part.start].chars().next_back();
        let after = self.q[part.end..].chars().next();
        let bounded = (part.start == word.start || before.is_some_and(|c| !c.is_alphabetic()))
            && (part.end == word.end || after.is_some_and(|c| !c.is_alphabetic()));
        (bounded && text.chars().all(char::is_alphabetic)).then_some(word)
    }

    /// True when `span` holds a query word with a letter outside a field tag.
    fn holds_words(&self, span: Range<usize>) -> bool {
        let first = self.words.partition_point(|w| w.end <= span.start);
        self.words[first..]
            .iter()
            .take_while(|w| w.start < span.end)
            .any(|w| {
                let start = w.start.max(span.start);
                let end = w.end.min(span.end);
                self.q[start..end].chars().any(char::is_alphabetic)
                    && !self
                        .brackets
                        .iter()
                        .any(|b| b.start <= start && end <= b.end)
            })
    }

    /// The whitespace-separated parts of `span`, trimmed.
    fn parts(&self, span: Range<usize>) -> Vec<Range<usize>> {
        let mut parts = Vec::new();
        let mut start = None;
        for (i, c) in self.q[span.clone()].char_indices() {
            let at = span.start + i;
            match (is_white_space(c), start) {
                (false, None) => start = Some(at),
                (true, Some(s)) => {
                    parts.push(s..at);
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            parts.push(s..span.end);
        }
        parts
    }

    /// The letter-holding word runs of `gap` outside field tags, clipped
    /// to it: what is left of the gap once the numbers, symbols, syntax and
    /// tags ESpell may leave out are set aside.
    fn loose_parts(&self, gap: Range<usize>) -> Vec<Range<usize>> {
        let first = self.words.partition_point(|w| w.end <= gap.start);
        self.words[first..]
            .iter()
            .take_while(|w| w.start < gap.end)
            .map(|w| w.start.max(gap.start)..w.end.min(gap.end))
            .filter(|p| {
                self.q[p.clone()].chars().any(char::is_alphabetic)
                    && !self
                        .brackets
                        .iter()
                        .any(|b| b.start <= p.start && p.end <= b.end)
            })
            .collect()
    }

    /// Lines up the Replaced segments `rs` with the gap `gap` of the query,
    /// or `None` when they cannot be: the gap is empty, holds syntax, a
    /// number or a symbol ESpell left out, or more words than `rs`
    /// account for.
    fn line_up(&self, gap: Range<usize>, rs: &[String]) -> Option<Vec<Unit>> {
        self.line_up_parts(self.parts(gap), rs)
    }

    /// [`Query::line_up`] on the gap's whitespace-separated `parts`.
    fn line_up_parts(&self, parts: Vec<Range<usize>>, rs: &[String]) -> Option<Vec<Unit>> {
        if parts.is_empty() || parts.len() > MAX_MERGED_WORDS.max(rs.len()) {
            return None;
        }
        if rs.len() > 1 {
            // Several Replaced in a row: one word each.
            if parts.len() != rs.len() {
                return None;
            }
            return parts
                .into_iter()
                .zip(rs)
                .map(|(p, r)| {
                    let word = self.word_or_piece(p.clone()).filter(|w| *w == p)?;
                    Some(Unit {
                        span: p,
                        words: vec![word],
                        r: r.clone(),
                        per_word: false,
                    })
                })
                .collect();
        }
        let r = &rs[0];
        if parts.len() == 1 {
            let word = self.word_or_piece(parts[0].clone())?;
            return Some(vec![Unit {
                span: parts[0].clone(),
                words: vec![word],
                r: r.clone(),
                per_word: false,
            }]);
        }
        // A merge (or several words replaced by as many): whole words only,
        // never an operator.
        for p in &parts {
            if self.word_or_piece(p.clone()).as_ref() != Some(p) || is_operator(&self.q[p.clone()])
            {
                return None;
            }
        }
        let span = parts[0].start..parts[parts.len() - 1].end;
        let per_word = r.split(' ').count() == parts.len();
        let words: String = parts
            .iter()
            .map(|p| &self.q[p.clone()])
            .collect::<Vec<_>>()
            .join(" ");
        if !per_word && !merges(&words, r) {
            return None;
        }
        Some(vec![Unit {
            span,
            words: parts,
            r: r.clone(),
            per_word,
        }])
    }

    /// Every way the Replaced segments `rs` at `cursor` can line up before
    /// the next Original `next` (or the end of the query), leftmost first.
    /// Strictly, a gap holds exactly the words replaced; loosely, it may
    /// also hold what ESpell leaves out (such a candidate is not clean).
    fn candidates(
        &self,
        cursor: usize,
        rs: &[String],
        next: Option<&str>,
        loose: bool,
    ) -> Vec<Candidate> {
        let q = self.q;
        let try_gap = |end: usize| -> Option<Candidate> {
            if let Some(units) = self.line_up(cursor..end, rs) {
                return Some(Candidate {
                    end,
                    units,
                    clean: true,
                });
            }
            if !loose {
                return None;
            }
            self.line_up_parts(self.loose_parts(cursor..end), rs)
                .map(|units| Candidate {
                    end,
                    units,
                    clean: false,
                })
        };
        let Some(t) = next else {
            return try_gap(q.len()).into_iter().collect();
        };
        // A longer gap holds more words; past this many runs none can line up.
        let max_runs = MAX_MERGED_WORDS.max(rs.len()) + if loose { 16 } else { 0 };
        let mut found = Vec::new();
        let mut runs = 0;
        let mut in_run = false;
        let mut p = cursor;
        loop {
            if match_at(q, p, t).is_some()
                && let Some(c) = try_gap(p)
            {
                found.push(c);
            }
            let Some(c) = q[p..].chars().next() else {
                break;
            };
            // Strictly, a gap holding this character cannot line up.
            if !loose && (is_syntax(c) || is_symbol(c)) {
                break;
            }
            let space = is_white_space(c);
            if !space && !in_run {
                runs += 1;
                if runs > max_runs {
                    break;
                }
            }
            in_run = !space;
            p += c.len_utf8();
        }
        found
    }

    /// The guard that keeps `u` out, if any.
    fn guard(&self, u: &Unit) -> Option<Guard> {
        let span = &u.span;
        if self.brackets.iter().any(|b| overlaps(b, span)) {
            return Some(Guard::FieldTag);
        }
        if self.indexed_values.iter().any(|v| overlaps(v, span)) {
            return Some(Guard::IndexedField);
        }
        let words: Vec<&str> = u.words.iter().map(|w| &self.q[w.clone()]).collect();
        let in_capitals = |word: &&str| {
            let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
            letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase())
        };
        if words.iter().any(in_capitals) {
            return Some(Guard::Capitals);
        }
        if words.iter().any(|w| w.chars().any(char::is_numeric)) {
            return Some(Guard::Digits);
        }
        if words.iter().any(|w| !w.is_ascii()) {
            return Some(Guard::NonAscii);
        }
        if words.iter().any(|w| w.contains('*')) {
            return Some(Guard::Wildcard);
        }
        let w = &self.q[span.clone()];
        if fold_whitespace(w).to_lowercase() == u.r.to_lowercase() {
            return Some(Guard::CaseOnly);
        }
        let single_letter = |s: &str| {
            let mut cs = s.chars();
            matches!((cs.next(), cs.next()), (Some(c), None) if c.is_alphabetic())
        };
        if single_letter(w) && single_letter(&u.r) {
            return Some(Guard::SingleLetter);
        }
        None
    }

    /// The text `u` puts in place of its span.
    fn insertion(&self, u: &Unit) -> String {
        if !u.per_word {
            return capitalise_like(&self.q[u.span.clone()], &u.r);
        }
        let mut out = String::new();
        let mut last = u.span.start;
        for (word, r) in u.words.iter().zip(u.r.split(' ')) {
            out.push_str(&self.q[last..word.start]);
            out.push_str(&capitalise_like(&self.q[word.clone()], r));
            last = word.end;
        }
        out
    }
}

/// True when `r` is the words of `w` run together (a merge): the same
/// letters and digits, case aside. A merge that also corrects a letter is
/// not taken: it could as well be a correction of the first word alone.
fn merges(w: &str, r: &str) -> bool {
    let compact = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    compact(w) == compact(r)
}

/// ESpell's replacement text, whitespace folded, or `None` when it is not
/// plain words (empty, or holding syntax, a wildcard or an operator), so it
/// could change the query's syntax.
fn replacement(r: &str) -> Option<String> {
    let r = fold_whitespace(r);
    let plain = !r.is_empty()
        && !r.chars().any(|c| is_syntax(c) || c == '*')
        && !r.split(' ').any(is_operator);
    plain.then_some(r)
}

/// Rebuilds `query` from ESpell's segments. Originals match the query
/// case-insensitively, any whitespace run matching any other; the Replaced
/// segments between two Originals must line up with exactly the query words
/// they replace, and each is applied only if no guard holds. Where ESpell's
/// answer stops lining up, or could line up in more than one way, the rest
/// of the query is copied as written and every later proposal is kept with
/// [`Guard::AlignmentLost`]. Never panics; every byte of `corrected` outside
/// an applied span is the query's own.
pub fn apply(query: &str, segments: &[Segment]) -> Applied {
    let qv = Query::new(query);
    let items = items(segments);
    // Replacement texts per item, checked once; a text that is not plain
    // words cannot line up anywhere.
    let texts: Vec<Option<Vec<String>>> = items
        .iter()
        .map(|it| match it {
            Item::Original(_) => Some(Vec::new()),
            Item::Replaced(rs) => rs.iter().map(|r| replacement(r)).collect(),
        })
        .collect();
    let aligner = Aligner {
        q: &qv,
        items: &items,
        texts: &texts,
    };
    let (units, lost) = aligner.align();

    let mut out = String::with_capacity(query.len() + 16);
    let mut corrections = Vec::new();
    let mut last = 0;
    for u in &units {
        let w = &query[u.span.clone()];
        let kept_because = qv.guard(u);
        let to = match kept_because {
            None => qv.insertion(u),
            Some(_) => u.r.clone(),
        };
        out.push_str(&query[last..u.span.start]);
        out.push_str(if kept_because.is_none() { &to } else { w });
        last = u.span.end;
        corrections.push(Correction {
            from: w.to_string(),
            to,
            applied: kept_because.is_none(),
            kept_because,
            span: u.span.clone(),
        });
    }
    out.push_str(&query[last..]);
    if let Some((item, cursor)) = lost {
        corrections.extend(unaligned(query, &items[item..], cursor));
    }
    Applied {
        corrected: out,
        corrections,
        lost_at: lost.map(|(_, cursor)| cursor),
    }
}

/// One way to line up a Replaced group.
#[derive(Debug, Clone)]
struct Candidate {
    /// Where the gap ends (the next Original starts).
    end: usize,
    /// What it replaces.
    units: Vec<Unit>,
    /// The gap holds nothing ESpell left out.
    clean: bool,
}

/// A Replaced group lined up in a full alignment.
#[derive(Debug, Clone)]
struct Choice {
    item: usize,
    start: usize,
    taken: Candidate,
}

struct Aligner<'a, 'q> {
    q: &'a Query<'q>,
    items: &'a [Item<'a>],
    texts: &'a [Option<Vec<String>>],
}

impl Aligner<'_, '_> {
    /// The units to apply (guards still to be checked) and, if alignment
    /// was lost, the item and query offset where.
    ///
    /// ESpell's answer is lined up with the whole query, strictly (every
    /// gap exactly the words replaced) if possible, else loosely (gaps may
    /// hold what ESpell left out). It is lined up twice, preferring the
    /// leftmost and the rightmost gaps: groups are applied up to the first
    /// one that is not clean or where the two disagree (the answer is
    /// ambiguous there). With no full alignment at all, nothing is applied.
    fn align(&self) -> (Vec<Unit>, Option<(usize, usize)>) {
        let (left, right) = match self.full(false, false) {
            Some(left) => {
                let right = self.full(false, true).unwrap_or_else(|| left.clone());
                (left, right)
            }
            None => match self.full(true, false) {
                Some(left) => {
                    let right = self.full(true, true).unwrap_or_else(|| left.clone());
                    (left, right)
                }
                None => return (Vec::new(), self.first_group()),
            },
        };
        let mut units = Vec::new();
        for (l, r) in left.into_iter().zip(right) {
            let spans = |c: &Choice| {
                c.taken
                    .units
                    .iter()
                    .map(|u| u.span.clone())
                    .collect::<Vec<_>>()
            };
            let same = spans(&l) == spans(&r);
            if !l.taken.clean || !same {
                return (units, Some((l.item, l.start)));
            }
            units.extend(l.taken.units);
        }
        (units, None)
    }

    /// Where the first Replaced group starts, walking the Originals before
    /// it (or where one of them fails to match); `None` without a group.
    fn first_group(&self) -> Option<(usize, usize)> {
        let mut cursor = 0;
        for (i, item) in self.items.iter().enumerate() {
            match item {
                Item::Original(t) => match match_at(self.q.q, cursor, t) {
                    Some(end) => cursor = end,
                    None => {
                        let later = self.items[i..]
                            .iter()
                            .any(|it| matches!(it, Item::Replaced(_)));
                        return later.then_some((i, cursor));
                    }
                },
                Item::Replaced(_) => return Some((i, cursor)),
            }
        }
        None
    }

    fn candidates(&self, i: usize, cursor: usize, loose: bool) -> Vec<Candidate> {
        let next = match self.items.get(i + 1) {
            Some(Item::Original(t)) => Some(*t),
            _ => None,
        };
        match &self.texts[i] {
            Some(rs) => self.q.candidates(cursor, rs, next, loose),
            None => Vec::new(),
        }
    }

    /// A way to line up every item that leaves no query word after the
    /// last one, depth first (leftmost or rightmost candidates first),
    /// failed states remembered so none is tried twice.
    fn full(&self, loose: bool, rightmost: bool) -> Option<Vec<Choice>> {
        struct Frame {
            item: usize,
            cursor: usize,
            options: Vec<Candidate>,
            chosen: usize,
        }
        let q = self.q.q;
        let mut failed: HashSet<(usize, usize)> = HashSet::new();
        let mut stack: Vec<Frame> = Vec::new();
        let (mut i, mut cursor) = (0, 0);
        loop {
            let ok = if i == self.items.len() {
                // ESpell's answer covers every word of the query: an
                // alignment that leaves one over has gone wrong somewhere.
                if !self.q.holds_words(cursor..q.len()) {
                    return Some(
                        stack
                            .into_iter()
                            .map(|f| Choice {
                                item: f.item,
                                start: f.cursor,
                                taken: f.options[f.chosen].clone(),
                            })
                            .collect(),
                    );
                }
                false
            } else if failed.contains(&(i, cursor)) {
                false
            } else {
                match &self.items[i] {
                    Item::Original(t) => match match_at(q, cursor, t) {
                        Some(end) => {
                            i += 1;
                            cursor = end;
                            true
                        }
                        None => false,
                    },
                    Item::Replaced(_) => {
                        let mut options = self.candidates(i, cursor, loose);
                        if rightmost {
                            options.reverse();
                        }
                        match options.first().map(|c| c.end) {
                            Some(end) => {
                                stack.push(Frame {
                                    item: i,
                                    cursor,
                                    options,
                                    chosen: 0,
                                });
                                i += 1;
                                cursor = end;
                                true
                            }
                            None => {
                                failed.insert((i, cursor));
                                false
                            }
                        }
                    }
                }
            };
            if ok {
                continue;
            }
            // Back to the latest choice with an option left.
            loop {
                let frame = stack.last_mut()?;
                frame.chosen += 1;
                if let Some(c) = frame.options.get(frame.chosen) {
                    i = frame.item + 1;
                    cursor = c.end;
                    break;
                }
                failed.insert((frame.item, frame.cursor));
                stack.pop();
            }
        }
    }
}

/// The proposals from `items` on, after alignment was lost at `cursor`:
/// none applied. `from` is where ESpell's answer points, found loosely
/// (each Original at its first match ahead), for the reader only.
fn unaligned(q: &str, items: &[Item<'_>], cursor: usize) -> Vec<Correction> {
    let mut out = Vec::new();
    let mut at = Some(cursor);
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::Original(t) => {
                at = at
                    .and_then(|c| find_from(q, c, t))
                    .and_then(|p| match_at(q, p, t));
            }
            Item::Replaced(rs) => {
                let gap = at.map(|c| {
                    let end = match items.get(i + 1) {
                        Some(Item::Original(t)) => find_from(q, c, t).unwrap_or(q.len()),
                        _ => q.len(),
                    };
                    trim_span(q, c..end)
                });
                for (j, r) in rs.iter().enumerate() {
                    let span = match &gap {
                        Some(g) if j == 0 => g.clone(),
                        _ => q.len()..q.len(),
                    };
                    out.push(Correction {
                        from: q[span.clone()].to_string(),
                        to: fold_whitespace(r),
                        applied: false,
                        kept_because: Some(Guard::AlignmentLost),
                        span,
                    });
                }
                at = gap.map(|g| g.end);
            }
        }
    }
    out
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

/// Spans of the query that spell must not touch: bracketed field tags, and
/// the values of indexed fields.
fn protected(q: &str) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
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
    (brackets, indexed_values)
}

/// The value a tag at byte `open` applies to: the quoted phrase or the
/// parenthesised group directly before it, or else the run of words back
/// to the previous capitalised Boolean operator (PubMed reads lower-case
/// ones as words), parenthesis, quote, `]` or the start.
fn value_before(q: &str, open: usize) -> Option<Range<usize>> {
    let head = q[..open].trim_end_matches(is_white_space);
    if let Some(inner) = head.strip_suffix('"') {
        let start = inner.rfind('"').unwrap_or(0);
        return Some(start..head.len());
    }
    if head.ends_with(')') {
        let mut depth = 0usize;
        for (i, c) in head.char_indices().rev() {
            match c {
                ')' => depth += 1,
                '(' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i..head.len());
                    }
                }
                _ => {}
            }
        }
        return Some(0..head.len());
    }
    let boundary = head.rfind(['(', ')', ']', '"']).map_or(0, |i| i + 1);
    let mut start = boundary;
    let mut offset = boundary;
    for word in head[boundary..].split_inclusive(is_white_space) {
        offset += word.len();
        if is_operator(word.trim_end_matches(is_white_space)) {
            start = offset;
        }
    }
    let span = trim_span(q, start..head.len());
    (!span.is_empty()).then_some(span)
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
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

    /// Every row of the spell rules' example table.
    #[test]
    fn example_table_rows() {
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
            assert!(got.aligned(), "query {q:?}");
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
        assert_eq!(
            kept(
                "canc* AND tumr",
                &[o(""), r("cancer"), o(" AND "), r("tumor")]
            ),
            vec![
                ("canc*".into(), Some(Guard::Wildcard)),
                ("tumr".into(), None)
            ]
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
    fn a_parenthesised_value_before_a_tag_is_indexed() {
        let segs = [o("("), r("neoplasms"), o(")[mh] AND "), r("risk")];
        let got = apply("(neoplsms)[mh] AND rsk", &segs);
        assert_eq!(got.corrected, "(neoplsms)[mh] AND risk");
        assert_eq!(got.corrections[0].kept_because, Some(Guard::IndexedField));
        // the whole group, nested parentheses included
        let segs = [o("((a OR "), r("tumor"), o("))[majr]")];
        assert_eq!(
            kept("((a OR tumr))[majr]", &segs),
            vec![("tumr".into(), Some(Guard::IndexedField))]
        );
        // a free-text tag after a group does not protect it
        let segs = [o("("), r("cancer"), o(")[tiab]")];
        assert_eq!(apply("(cancr)[tiab]", &segs).corrected, "(cancer)[tiab]");
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
        assert_eq!(got.lost_at, Some(0));
        assert_eq!(got.corrections[0].kept_because, Some(Guard::AlignmentLost));
        let got = apply("abc def", &[r("abd"), o(" xyz")]);
        assert_eq!(got.corrected, "abc def");
        assert!(!got.aligned());
        // Replaced with nothing left to replace
        let got = apply("abc", &[o("abc"), r("x")]);
        assert_eq!(got.corrected, "abc");
        assert_eq!(got.lost_at, Some(3));
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

    /// ESpell left the parentheses out: `(canser` is no query word, so
    /// alignment is lost there and nothing later is applied.
    #[test]
    fn dropped_parentheses_lose_alignment() {
        let q = "risk AND (canser OR tumr)";
        let got = apply(q, &[o("risk AND "), r("cancer"), o(" OR "), r("tumor")]);
        assert_eq!(got.corrected, q);
        assert_eq!(got.lost_at, Some(9));
        let why: Vec<(&str, &str, Option<Guard>)> = got
            .corrections
            .iter()
            .map(|c| (c.from.as_str(), c.to.as_str(), c.kept_because))
            .collect();
        assert_eq!(
            why,
            vec![
                ("(canser", "cancer", Some(Guard::AlignmentLost)),
                ("tumr)", "tumor", Some(Guard::AlignmentLost)),
            ]
        );
        // Kept in the Originals, the parentheses line up.
        let got = apply(
            q,
            &[o("risk AND ("), r("cancer"), o(" OR "), r("tumor"), o(")")],
        );
        assert_eq!(got.corrected, "risk AND (cancer OR tumor)");
    }

    /// ESpell left `19` out: the gap before the next Original is a number.
    #[test]
    fn a_dropped_number_loses_alignment() {
        let q = "covid 19 vacine efficasy";
        let got = apply(q, &[o("covid "), r("vaccine"), o(" "), r("efficacy")]);
        assert_eq!(got.corrected, q);
        assert_eq!(got.lost_at, Some(6));
        assert!(
            got.corrections
                .iter()
                .all(|c| c.kept_because == Some(Guard::AlignmentLost))
        );
        assert_eq!(got.corrections.len(), 2);
        // Kept in the Originals, 19 lines up and both words are corrected.
        let got = apply(q, &[o("covid 19 "), r("vaccine"), o(" "), r("efficacy")]);
        assert_eq!(got.corrected, "covid 19 vaccine efficacy");
    }

    /// ESpell split `il-6` at the hyphen: the guards judge the whole word.
    #[test]
    fn a_split_word_is_judged_whole() {
        let got = apply("il-6 levls", &[o(""), r("ill"), o("-6 "), r("levels")]);
        assert_eq!(got.corrected, "il-6 levels");
        assert_eq!(
            got.corrections
                .iter()
                .map(|c| (c.from.as_str(), c.kept_because))
                .collect::<Vec<_>>(),
            vec![("il", Some(Guard::Digits)), ("levls", None)]
        );
        // ESpell dropping "-6" instead: the gap is the whole word il-6
        let got = apply("il-6 levls", &[o(""), r("ill"), o(" "), r("levels")]);
        assert_eq!(got.corrected, "il-6 levels");
        assert_eq!(got.corrections[0].kept_because, Some(Guard::Digits));
        // capitals of the whole word: IL-6
        assert_eq!(
            kept("IL-6", &[o(""), r("ill"), o("-6")]),
            vec![("IL".into(), Some(Guard::Capitals))]
        );
        // a piece of a hyphenated word without digits is corrected in place
        assert_eq!(
            apply("anti-inflamatory", &[o("anti-"), r("inflammatory")]).corrected,
            "anti-inflammatory"
        );
        // a piece must end at a hyphen, a digit or the word's end
        let got = apply("brest", &[o(""), r("breast"), o("t")]);
        assert_eq!(got.corrected, "brest");
        assert!(!got.aligned());
    }

    /// One Replaced for two words: both or neither.
    #[test]
    fn merges_apply_to_every_word_or_none() {
        assert_eq!(
            apply("cardio vascular", &[o(""), r("cardiovascular")]).corrected,
            "cardiovascular"
        );
        // the first " " after "cardio" is not where the merge ends
        let segs = [o(""), r("cardiovascular"), o(" "), r("disease")];
        assert_eq!(
            apply("cardio vascular disese", &segs).corrected,
            "cardiovascular disease"
        );
        // a merge with a guarded word keeps both
        let got = apply("cardio Vascular2", &[o(""), r("cardiovascular2")]);
        assert_eq!(got.corrected, "cardio Vascular2");
        assert_eq!(got.corrections[0].from, "cardio Vascular2");
        assert_eq!(got.corrections[0].kept_because, Some(Guard::Digits));
        // a merge that also corrects a letter is not taken
        let got = apply("cardio vasculr", &[o(""), r("cardiovascular")]);
        assert_eq!(got.corrected, "cardio vasculr");
        assert!(!got.aligned());
        // ESpell left out "19": the merge still lines up with exactly its
        // two words (reading "cardio" alone leaves "vascular" uncovered);
        // "disease" stands where the 19 was left out, so it is lost
        let got = apply("cardio vascular 19 disese", &segs);
        assert_eq!(got.corrected, "cardiovascular 19 disese");
        assert_eq!(got.lost_at, Some(16));
        assert_eq!(got.corrections[1].kept_because, Some(Guard::AlignmentLost));
        // "aa canser" merged, then a parenthesis left out: the Original
        // " canser" first matches too early; nothing may be applied
        let q = "aa canser) canser";
        let got = apply(q, &[r("aacanser"), o(" canser")]);
        assert_eq!(got.corrected, q);
        assert_eq!(got.lost_at, Some(0));
        // words that do not run together into r are no merge
        let got = apply("alzhiemer diseese", &[o(""), r("alzheimer")]);
        assert_eq!(got.corrected, "alzhiemer diseese");
        assert!(!got.aligned());
        // an operator is never merged
        let got = apply("heart OR attack", &[o(""), r("heartorattack")]);
        assert_eq!(got.corrected, "heart OR attack");
    }

    #[test]
    fn replacements_never_bring_syntax() {
        for bad in ["cancer)", "\"cancer", "canc*", "a AND b", "[mh]", " "] {
            let got = apply("cancr", &[o(""), r(bad)]);
            assert_eq!(got.corrected, "cancr", "{bad:?}");
            assert!(!got.aligned(), "{bad:?}");
        }
    }

    #[test]
    fn non_ascii_in_any_normal_form() {
        // decomposed ï: i + U+0308
        let q = "nai\u{308}ve cels";
        let got = apply(q, &[o(""), r("naive"), o(" "), r("cells")]);
        assert_eq!(got.corrected, "nai\u{308}ve cells");
        assert_eq!(got.corrections[0].kept_because, Some(Guard::NonAscii));
        // ESpell splitting at the combining mark: still the whole word
        let got = apply(q, &[o(""), r("nao"), o("\u{308}ve "), r("cells")]);
        assert_eq!(got.corrections[0].kept_because, Some(Guard::NonAscii));
        assert_eq!(got.corrected, "nai\u{308}ve cells");
    }

    #[test]
    fn symbols_espell_leaves_out_lose_alignment() {
        for (q, segs) in [
            ("smith, jn", vec![o(""), r("smyth"), o(" jn")]),
            ("r&d fundng", vec![o(""), r("rd"), o(" "), r("funding")]),
            ("tumr+", vec![o(""), r("tumor")]),
            ("tumr. x", vec![o(""), r("tumor"), o(" x")]),
        ] {
            let got = apply(q, &segs);
            assert_eq!(got.corrected, q);
            assert_eq!(got.lost_at, Some(0), "{q}");
        }
        let got = apply("heart & lung diseese", &[o("heart "), r("lungs")]);
        assert_eq!(got.corrected, "heart & lung diseese");
    }
}
