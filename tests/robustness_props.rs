//! Property tests: no panic, whatever the input, in the blank check, ID
//! validation, date parsing, and every NCBI body parser (on arbitrary bytes
//! and on mutated real captures).

use bytes::Bytes;
use proptest::prelude::*;
use pubmed::core::dates::{self, DateBound, DateRequest, DateType};
use pubmed::core::ids::{self, IdType};
use pubmed::core::{query, text};
use pubmed::ncbi::classify::{Verdict, classify_xml};
use pubmed::ncbi::transport::HttpResponse;
use pubmed::ncbi::{esearch, espell, esummary, idconv, xml};

const CAPTURES: &[&[u8]] = &[
    include_bytes!("fixtures/espell_asthmaa_alergies.xml"),
    include_bytes!("fixtures/espell_netch_mus_musclus.xml"),
    include_bytes!("fixtures/esearch_pubmed_biopython.xml"),
    include_bytes!("fixtures/esearch_errorlist_with_results_2012.xml"),
    include_bytes!("fixtures/esearch_pubmed_translationstack_2008.xml"),
    include_bytes!("fixtures/esummary_v2_pubmed_2012.xml"),
    include_bytes!("fixtures/esummary_v2_pmc_with_error_2012.xml"),
    include_bytes!("fixtures/esummary_v1_pubmed.xml"),
    include_bytes!("fixtures/efetch_error_http400_external_viewer_timeout.xml"),
];

const JSON_CAPTURES: &[&[u8]] = &[
    include_bytes!("fixtures/idconv_json_doi_with_versions.json"),
    include_bytes!("fixtures/idconv_json_doi_invalid_article_id.json"),
    include_bytes!("fixtures/idconv_json_error_idtype_mismatch_404.json"),
    include_bytes!("fixtures/http429_rate_limit_exceeded.json"),
];

fn resp(status: u16, body: Vec<u8>) -> HttpResponse {
    HttpResponse {
        url: String::new(),
        status,
        retry_after: None,
        content_type: None,
        body: Bytes::from(body),
    }
}

/// Runs every parser on `body`; only a panic fails.
fn parse_everything(body: &[u8], status: u16) {
    let r = resp(status, body.to_vec());
    let _ = classify_xml(&r, "ESearch", esearch::parse);
    let _ = classify_xml(&r, "ESummary", esummary::parse);
    let _ = pubmed::ncbi::classify::classify_xml_streamed(
        &r,
        "ESummary",
        esummary::read,
        esummary::parse_taken,
    );
    let _ = classify_xml(&r, "ESpell", espell::parse);
    let _ = idconv::classify(&r, pubmed::core::ids::IdType::Pmid, &["1".into()]);
    // ESummary is read one record at a time: the same answer, the same
    // ERROR texts and the same XML errors as the whole tree.
    let text = String::from_utf8_lossy(body);
    match (xml::parse(&text), esummary::read(&text)) {
        (Ok(tree), Ok((left, taken))) => {
            assert_eq!(
                pubmed::ncbi::classify::error_texts(&left),
                pubmed::ncbi::classify::error_texts(&tree)
            );
            assert_eq!(esummary::parse_taken(&left, taken), esummary::parse(&tree));
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("tree {:?} but streamed {:?}", a.is_ok(), b.is_ok()),
    }
    if let Ok(root) = xml::parse(&String::from_utf8_lossy(body)) {
        let _ = esearch::parse(&root);
        let _ = esummary::parse(&root);
        let _ = espell::parse(&root);
    }
}

/// A capture with a few random edits: deletions, insertions, byte flips,
/// truncation.
fn mutated(pool: &'static [&'static [u8]]) -> impl Strategy<Value = Vec<u8>> {
    (
        0..pool.len(),
        prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6),
    )
        .prop_map(move |(i, edits)| {
            let mut b = pool[i].to_vec();
            for (kind, at, byte) in edits {
                if b.is_empty() {
                    break;
                }
                let at = at % b.len();
                match kind % 4 {
                    0 => {
                        b.remove(at);
                    }
                    1 => b.insert(at, byte),
                    2 => b[at] ^= byte | 1,
                    _ => b.truncate(at),
                }
            }
            b
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn parsers_survive_arbitrary_bytes(body in prop::collection::vec(any::<u8>(), 0..600), status in prop_oneof![Just(200u16), Just(400), Just(404), Just(429), Just(503)]) {
        parse_everything(&body, status);
    }

    #[test]
    fn parsers_survive_xml_like_noise(body in "(<[a-zA-Z/!?]{0,3}[a-zA-Z]{0,8}( [a-z]+=\"[^\"]{0,5}\")?/?>|&[a-z#0-9]{0,6};|[^<&]{0,6}){0,40}") {
        parse_everything(body.as_bytes(), 200);
    }

    #[test]
    fn parsers_survive_mutated_captures(body in mutated(CAPTURES)) {
        parse_everything(&body, 200);
    }

    #[test]
    fn converter_survives_mutated_captures(body in mutated(JSON_CAPTURES), status in prop_oneof![Just(200u16), Just(400), Just(404)]) {
        parse_everything(&body, status);
    }

    #[test]
    fn blank_check_never_panics(s in "\\PC{0,40}|[\\[\\]()<>&;# \u{200B}\u{A0}a-z]{0,40}") {
        let n = query::normalize(&s);
        let blank = query::is_blank(&n);
        // anything with a visible letter outside brackets and markup is a search term
        if !s.contains(['[', '<', '&']) && s.chars().any(|c| c.is_alphanumeric()) {
            prop_assert!(!blank, "{s:?}");
        }
        let _ = text::has_visible(&s);
        let _ = text::fold_whitespace(&s);
    }

    #[test]
    fn id_validation_never_panics(s in "\\PC{0,30}|(PMC|pmc|10\\.|0)[0-9a-zA-Z/.,;:()<> -]{0,20}") {
        let detected = ids::detect(&s);
        for t in [IdType::Pmid, IdType::Pmcid, IdType::Doi] {
            if let Ok(c) = ids::validate(t, &s) {
                // the canonical form is valid again and keeps its key
                let again = ids::validate(t, &c.sent).unwrap();
                prop_assert_eq!(again.key, c.key.clone());
                prop_assert!(!c.sent.contains(',') && !c.sent.chars().any(char::is_whitespace));
            }
        }
        if let Ok(c) = detected {
            prop_assert_eq!(ids::answer_key(c.idtype, &c.sent), c.key);
        }
    }

    #[test]
    fn date_rules_never_panic(
        min in prop::option::of("[0-9./-]{0,12}|[0-9]{4}(/[0-9]{1,2}(/[0-9]{1,2})?)?"),
        max in prop::option::of("[0-9./-]{0,12}|[0-9]{4}(/[0-9]{1,2}(/[0-9]{1,2})?)?"),
        rel in prop::option::of(any::<u32>()),
        pubdate in "\\PC{0,20}|[0-9]{4}( [A-Z][a-z]{2,8}( [0-9]{1,2})?)?(-[A-Za-z0-9 ]{0,8})?",
    ) {
        let req = DateRequest { min, max, datetype: DateType::Pdat, reldate: rel };
        if let Ok(r) = dates::resolve(&req, DateBound::ymd(2026, 12, 1))
            && let Some((a, b)) = r.bounds
        {
            prop_assert!(a.first_day() <= b.last_day(), "{a} > {b}");
            prop_assert!(a.year >= 1000);
        }
        if let Some(iso) = dates::pubdate_iso(&pubdate) {
            prop_assert!(iso.len() == 4 || iso.len() == 7 || iso.len() == 10, "{iso}");
        }
    }
}

#[test]
fn real_captures_parse_unmutated() {
    for body in CAPTURES.iter().take(8) {
        let r = resp(200, body.to_vec());
        let ok = match classify_xml(&r, "x", |root| Ok::<_, String>(root.name.clone())) {
            Verdict::Done(_) => true,
            Verdict::Transient { text, .. } => text.contains("error"),
            _ => false,
        };
        assert!(ok, "{}", String::from_utf8_lossy(&body[..80]));
    }
}
