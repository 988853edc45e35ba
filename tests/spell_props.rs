//! Property tests of the spell aligner (spell.md): for any query and any
//! ESpell segments, however odd, it never panics and `corrected` equals the
//! query except at spans each justified by one aligned `Replaced`.

use proptest::prelude::*;
use pubmed::core::spell::{Segment, apply};

/// Query text from a small alphabet that exercises tags, quotes,
/// operators, capitals, digits, non-ASCII and Unicode whitespace.
fn query_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("cancer".to_string()),
            Just("Brest".to_string()),
            Just("AND".to_string()),
            Just("or".to_string()),
            Just("[mh]".to_string()),
            Just("[tiab:~3]".to_string()),
            Just("\"".to_string()),
            Just("(".to_string()),
            Just(")".to_string()),
            Just("IL6".to_string()),
            Just("naïve".to_string()),
            Just("q".to_string()),
            Just(" ".to_string()),
            Just("\u{A0}".to_string()),
            Just("\t".to_string()),
            "[a-zA-Zé ]{0,6}",
        ],
        0..12,
    )
    .prop_map(|parts| parts.concat())
}

fn segment_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" ".to_string()),
        Just("cancer".to_string()),
        Just("[mh] AND ".to_string()),
        "[a-zA-Z \\[\\]\"()é]{0,8}",
    ]
}

/// Fully random segment sequences.
fn random_segments() -> impl Strategy<Value = Vec<Segment>> {
    prop::collection::vec(
        (any::<bool>(), segment_text()).prop_map(|(orig, t)| {
            if orig {
                Segment::Original(t)
            } else {
                Segment::Replaced(t)
            }
        }),
        0..8,
    )
}

/// Segments derived from the query the way ESpell builds them: words kept
/// (re-cased) or replaced, separators kept.
fn derived(query: &str, picks: &[(bool, String)]) -> Vec<Segment> {
    let mut segs = vec![Segment::Original(String::new())];
    for (i, word) in query.split(' ').enumerate() {
        if i > 0 {
            segs.push(Segment::Original(" ".into()));
        }
        let (replace, with) = &picks[i % picks.len().max(1)];
        if *replace && !word.is_empty() {
            segs.push(Segment::Replaced(with.clone()));
        } else {
            segs.push(Segment::Original(word.to_lowercase()));
        }
    }
    segs
}

fn check(query: &str, segments: &[Segment]) -> Result<(), TestCaseError> {
    let got = apply(query, segments);
    let replaced: Vec<&str> = segments
        .iter()
        .filter_map(|s| match s {
            Segment::Replaced(r) => Some(r.as_str()),
            Segment::Original(_) => None,
        })
        .collect();
    // Rebuild `corrected` from the query and the applied corrections alone.
    let mut rebuilt = String::new();
    let mut cursor = 0;
    for c in &got.corrections {
        prop_assert!(c.span.start >= cursor, "spans overlap or go backwards");
        prop_assert_eq!(&query[c.span.clone()], c.from.as_str());
        prop_assert!(
            replaced
                .iter()
                .any(|r| r.to_lowercase() == c.to.to_lowercase()),
            "{:?} is not a Replaced segment",
            c.to
        );
        prop_assert_eq!(c.applied, c.kept_because.is_none());
        rebuilt.push_str(&query[cursor..c.span.start]);
        rebuilt.push_str(if c.applied { &c.to } else { &c.from });
        cursor = c.span.end;
    }
    rebuilt.push_str(&query[cursor..]);
    prop_assert_eq!(&rebuilt, &got.corrected);
    if got.corrections.iter().all(|c| !c.applied) {
        prop_assert_eq!(&got.corrected, query);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_segments_never_break_the_query(q in query_strategy(), segs in random_segments()) {
        check(&q, &segs)?;
    }

    #[test]
    fn derived_segments_only_change_replaced_words(
        q in query_strategy(),
        picks in prop::collection::vec((any::<bool>(), "[a-z]{1,8}"), 1..6),
    ) {
        let segs = derived(&q, &picks);
        check(&q, &segs)?;
    }

    #[test]
    fn arbitrary_unicode_never_panics(q in "\\PC{0,40}", segs in prop::collection::vec(("\\PC{0,6}", any::<bool>()), 0..6)) {
        let segs: Vec<Segment> = segs.into_iter().map(|(t, o)| if o { Segment::Original(t) } else { Segment::Replaced(t) }).collect();
        check(&q, &segs)?;
    }
}
