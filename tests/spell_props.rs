//! Property tests of the spell aligner on PubMed-syntax queries (operators,
//! parentheses, quotes, field tags with modifiers, numbers, symbols,
//! wildcards, hyphenated and non-ASCII words) and ESpell answers derived
//! from them the way ESpell builds them: words kept (re-cased) or replaced,
//! numbers, symbols, parentheses, quotes and tags kept or left out, two
//! words merged into one `<Replaced>`, a word split at a hyphen or digit.
//!
//! For every answer: apart from the words applied corrections replaced,
//! `corrected` is the query byte for byte; each applied correction replaces
//! exactly the text its `<Replaced>` stands for; no word is duplicated or
//! lost; bracket and quote balance is unchanged; nothing panics. An answer
//! that leaves nothing out lines up completely.

use std::ops::Range;

use proptest::prelude::*;
use pubmed::core::spell::{Applied, Guard, Segment, apply};

#[derive(Debug, Clone)]
enum Core {
    Word(String),
    Number(String),
    Operator(String),
    Symbol(String),
}

/// One query term: optional `(`/`"` before, a core, optional `)`, `"`,
/// field tags or a comma after.
#[derive(Debug, Clone)]
struct Term {
    pre: Vec<String>,
    core: Core,
    post: Vec<String>,
    sep: String,
}

fn word() -> impl Strategy<Value = String> {
    let known = prop::sample::select(vec![
        "canser",
        "tumr",
        "brest",
        "cancer",
        "vacine",
        "levls",
        "cardio",
        "vascular",
        "Netch",
        "BRCA1",
        "COPD",
        "il-6",
        "IL-6",
        "covid19",
        "anti-inflamatory",
        "naïve",
        "nai\u{308}ve",
        "β-cell",
        "canc*",
        "neurotox*",
        "q",
        "alzheimer's",
        "or",
    ])
    .prop_map(String::from);
    prop_oneof![
        4 => known,
        2 => "[a-z]{2,9}",
        1 => "[A-Z][a-z]{2,7}",
        1 => "[a-z]{2,5}-[a-z0-9]{1,5}",
    ]
}

fn core() -> impl Strategy<Value = Core> {
    prop_oneof![
        6 => word().prop_map(Core::Word),
        1 => prop::sample::select(vec!["19", "2020", "3", "3.5", "100"])
            .prop_map(|s| Core::Number(s.into())),
        2 => prop::sample::select(vec!["AND", "OR", "NOT"]).prop_map(|s| Core::Operator(s.into())),
        1 => prop::sample::select(vec!["&", "+", "/", "-", ";"]).prop_map(|s| Core::Symbol(s.into())),
    ]
}

fn term() -> impl Strategy<Value = Term> {
    let pre = prop::collection::vec(prop::sample::select(vec!["(", "\""]), 0..3);
    let post = prop::collection::vec(
        prop::sample::select(vec![
            ")",
            "\"",
            "[mh]",
            "[tiab]",
            "[tiab:~3]",
            "[ti]",
            "[au]",
            "[Title/Abstract]",
            "[pt]",
            "[mh:noexp]",
            ",",
        ]),
        0..3,
    );
    let sep = prop::sample::select(vec![" ", " ", " ", " ", "  ", "\t", "\u{A0}"]);
    (pre, core(), post, sep).prop_map(|(pre, core, post, sep)| Term {
        pre: pre.into_iter().map(String::from).collect(),
        core,
        post: post.into_iter().map(String::from).collect(),
        sep: sep.into(),
    })
}

/// Letters and digits, lower-cased: what a merge runs together.
fn compact(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A plausible correction of `w`: its letters, lower-cased, plus an `e`.
fn fix(w: &str) -> String {
    let letters: String = w
        .chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect();
    format!("{letters}e")
}

enum Out {
    Keep(String),
    Replace(String),
}

/// An ESpell answer for `terms`, and the truth: the query, each Replaced
/// with the query span it stands for, and whether anything was left out.
struct Derived {
    query: String,
    segments: Vec<Segment>,
    truth: Vec<(Range<usize>, String)>,
    /// Where in the query ESpell first left something out, outside words.
    first_drop: Option<usize>,
    /// Whether ESpell left anything out (inside words too).
    dropped: bool,
}

/// Pieces of a word split where letters meet non-letters (`il-6` → `il`,
/// `-`, `6`).
fn pieces(w: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut kind = None;
    for (i, c) in w.char_indices() {
        let k = c.is_alphabetic();
        if kind.is_some_and(|prev| prev != k) {
            out.push((start, &w[start..i]));
            start = i;
        }
        kind = Some(k);
    }
    out.push((start, &w[start..]));
    out
}

fn derive(terms: &[Term], dice: &[u8], lower: bool, lead: bool) -> Derived {
    let mut roll = dice.iter().cycle().copied();
    let mut next = move |n: u8| roll.next().unwrap_or(0) % n;
    let mut query = String::new();
    let mut outs: Vec<Out> = Vec::new();
    let mut truth = Vec::new();
    let mut first_drop: Option<usize> = None;
    let mut in_word_drop = false;
    let mut i = 0;
    while i < terms.len() {
        let t = &terms[i];
        let outs_before = outs.len();
        for p in &t.pre {
            if next(5) == 0 {
                first_drop.get_or_insert(query.len());
            } else {
                outs.push(Out::Keep(p.clone()));
            }
            query.push_str(p);
        }
        let start = query.len();
        match &t.core {
            Core::Word(w) => {
                query.push_str(w);
                let merge_with = terms.get(i + 1).filter(|n| {
                    t.post.is_empty() && n.pre.is_empty() && matches!(n.core, Core::Word(_))
                });
                match next(6) {
                    0 | 1 => outs.push(Out::Keep(w.clone())),
                    2 | 3 => {
                        truth.push((start..query.len(), fix(w)));
                        outs.push(Out::Replace(fix(w)));
                    }
                    4 if pieces(w).len() > 1 => {
                        for (at, piece) in pieces(w) {
                            let letters = piece.chars().all(char::is_alphabetic);
                            match (letters, next(3)) {
                                (true, 0) => {
                                    truth.push((start + at..start + at + piece.len(), fix(piece)));
                                    outs.push(Out::Replace(fix(piece)));
                                }
                                // Within a word: the word is still whole
                                // to the aligner (`il-6` without `-6`).
                                (false, 0) => in_word_drop = true,
                                _ => outs.push(Out::Keep(piece.into())),
                            }
                        }
                    }
                    5 if merge_with.is_some() => {
                        let n = merge_with.unwrap_or(t);
                        let Core::Word(w2) = &n.core else {
                            unreachable!()
                        };
                        query.push_str(&t.sep);
                        query.push_str(w2);
                        let r = compact(&format!("{w}{w2}"));
                        truth.push((start..query.len(), r.clone()));
                        outs.push(Out::Replace(r));
                        // The merged term's tags and separator follow.
                        i += 1;
                    }
                    _ => {
                        truth.push((start..query.len(), fix(w)));
                        outs.push(Out::Replace(fix(w)));
                    }
                }
            }
            Core::Number(s) | Core::Symbol(s) => {
                query.push_str(s);
                if next(3) == 0 {
                    first_drop.get_or_insert(start);
                } else {
                    outs.push(Out::Keep(s.clone()));
                }
            }
            Core::Operator(s) => {
                query.push_str(s);
                outs.push(Out::Keep(s.clone()));
            }
        }
        let whole_term_dropped = outs.len() == outs_before;
        let t = &terms[i];
        for p in &t.post {
            if next(6) == 0 {
                first_drop.get_or_insert(query.len());
            } else {
                outs.push(Out::Keep(p.clone()));
            }
            query.push_str(p);
        }
        if i + 1 < terms.len() {
            query.push_str(&t.sep);
            // ESpell leaves out a dropped term's separator too (`covid 19
            // vacine` → `covid `, `vaccine`), or keeps it.
            if whole_term_dropped && next(2) == 0 {
                i += 1;
                continue;
            }
            outs.push(Out::Keep(if next(2) == 0 {
                " ".into()
            } else {
                t.sep.clone()
            }));
        }
        i += 1;
    }
    let mut segments = Vec::new();
    if lead {
        segments.push(Segment::Original(String::new()));
    }
    let mut kept = String::new();
    for o in outs {
        match o {
            Out::Keep(s) => kept.push_str(&s),
            Out::Replace(r) => {
                if !kept.is_empty() {
                    let t = std::mem::take(&mut kept);
                    segments.push(Segment::Original(if lower { t.to_lowercase() } else { t }));
                }
                segments.push(Segment::Replaced(r));
            }
        }
    }
    if !kept.is_empty() {
        segments.push(Segment::Original(if lower {
            kept.to_lowercase()
        } else {
            kept
        }));
    }
    Derived {
        query,
        segments,
        truth,
        dropped: in_word_drop || first_drop.is_some(),
        first_drop,
    }
}

fn balance(s: &str) -> [usize; 5] {
    let n = |c: char| s.chars().filter(|x| *x == c).count();
    [n('('), n(')'), n('['), n(']'), n('"')]
}

fn fold(s: &str) -> String {
    s.split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// What must hold for any answer: `corrected` is the query with exactly
/// the applied spans replaced, spans in order and free of syntax, balance
/// unchanged.
fn check_invariants(query: &str, got: &Applied) -> Result<(), TestCaseError> {
    let mut rebuilt = String::new();
    let mut cursor = 0;
    for c in got.corrections.iter().filter(|c| c.applied) {
        prop_assert!(c.span.start >= cursor, "spans overlap or go backwards");
        prop_assert_eq!(&query[c.span.clone()], c.from.as_str());
        prop_assert!(c.kept_because.is_none());
        for s in [&c.from, &c.to] {
            prop_assert!(
                !s.contains(['(', ')', '[', ']', '"', '*']),
                "syntax in a correction: {:?}",
                c
            );
        }
        rebuilt.push_str(&query[cursor..c.span.start]);
        rebuilt.push_str(&c.to);
        cursor = c.span.end;
    }
    rebuilt.push_str(&query[cursor..]);
    prop_assert_eq!(&rebuilt, &got.corrected);
    prop_assert_eq!(balance(query), balance(&got.corrected));
    for c in &got.corrections {
        prop_assert_eq!(c.applied, c.kept_because.is_none());
    }
    if let Some(at) = got.lost_at {
        // Nothing after the loss is changed.
        prop_assert!(got.corrected.ends_with(&query[at..]));
    }
    Ok(())
}

fn check_derived(d: &Derived) -> Result<(), TestCaseError> {
    let got = apply(&d.query, &d.segments);
    check_invariants(&d.query, &got)?;
    // Each applied correction is one ESpell made, on the very text it
    // stands for.
    for c in got.corrections.iter().filter(|c| c.applied) {
        let truth = d.truth.iter().find(|(span, _)| *span == c.span);
        prop_assert!(
            truth.is_some_and(|(_, r)| fold(r) == fold(&c.to)),
            "{:?} applied to {:?} in {:?} ({:?}), but ESpell replaced {:?}",
            c.to,
            c.from,
            d.query,
            d.segments,
            d.truth
                .iter()
                .map(|(s, r)| (&d.query[s.clone()], r))
                .collect::<Vec<_>>()
        );
    }
    // Past the first thing ESpell left out its answer no longer lines up
    // strictly: nothing there may be applied.
    if let Some(at) = d.first_drop {
        for c in got.corrections.iter().filter(|c| c.applied) {
            prop_assert!(
                c.span.end <= at,
                "{:?} applied at {:?} past what ESpell left out at {} in {:?} ({:?})",
                c.to,
                c.span,
                at,
                d.query,
                d.segments
            );
        }
    }
    if !d.dropped {
        prop_assert!(
            got.aligned(),
            "a faithful answer must line up: {:?} {:?}",
            d.segments,
            got.corrections
        );
        prop_assert!(
            got.corrections
                .iter()
                .all(|c| c.kept_because != Some(Guard::AlignmentLost))
        );
        prop_assert_eq!(got.corrections.len(), d.truth.len());
    }
    Ok(())
}

fn segment_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" ".to_string()),
        Just("cancer".to_string()),
        Just("[mh] AND ".to_string()),
        Just(" OR ".to_string()),
        Just("(".to_string()),
        "[a-zA-Z \\[\\]\"()é*0-9-]{0,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn derived_answers_only_change_what_espell_replaced(
        terms in prop::collection::vec(term(), 1..9),
        dice in prop::collection::vec(any::<u8>(), 1..24),
        lower in any::<bool>(),
        lead in any::<bool>(),
    ) {
        check_derived(&derive(&terms, &dice, lower, lead))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn random_answers_never_break_the_query(
        terms in prop::collection::vec(term(), 0..8),
        segs in prop::collection::vec((any::<bool>(), segment_text()), 0..8),
    ) {
        let q = derive(&terms, &[1], false, false).query;
        let segs: Vec<Segment> = segs
            .into_iter()
            .map(|(orig, t)| if orig { Segment::Original(t) } else { Segment::Replaced(t) })
            .collect();
        check_invariants(&q, &apply(&q, &segs))?;
    }

    #[test]
    fn arbitrary_unicode_never_panics(
        q in "\\PC{0,40}",
        segs in prop::collection::vec(("\\PC{0,6}", any::<bool>()), 0..6),
    ) {
        let segs: Vec<Segment> = segs
            .into_iter()
            .map(|(t, o)| if o { Segment::Original(t) } else { Segment::Replaced(t) })
            .collect();
        check_invariants(&q, &apply(&q, &segs))?;
    }
}

/// The issue's queries, with ESpell answers of the shape it returns, come
/// out as the rules say.
#[test]
fn the_issue_queries() {
    use Segment::{Original as O, Replaced as R};
    let o = |s: &str| O(s.into());
    let r = |s: &str| R(s.into());
    let cases: Vec<(&str, Vec<Segment>, &str)> = vec![
        (
            "risk AND (canser OR tumr)",
            vec![o("risk AND "), r("cancer"), o(" OR "), r("tumor")],
            "risk AND (canser OR tumr)",
        ),
        (
            "covid 19 vacine efficasy",
            vec![o("covid "), r("vaccine"), o(" "), r("efficacy")],
            "covid 19 vacine efficasy",
        ),
        (
            "il-6 levls",
            vec![o(""), r("ill"), o("-6 "), r("levels")],
            "il-6 levels",
        ),
        (
            "cardio vascular",
            vec![o(""), r("cardiovascular")],
            "cardiovascular",
        ),
    ];
    for (q, segs, want) in cases {
        let got = apply(q, &segs);
        assert_eq!(got.corrected, want, "{q}");
    }
}
