//! Property tests of the JATS reader (`core::jats`): mutated real
//! articles and arbitrary bytes never panic, and every `<p>` of a
//! generated body of nested sections, boxed text and quotes comes out as
//! a paragraph (nothing dropped silently).

use crate::support;

use proptest::prelude::*;
use pubmed::core::jats::{self, Section, SetItem};

fn real() -> Vec<u8> {
    support::server::fixture("pmc_oa_1472_6831_8_11.nxml")
}

fn all_paragraphs(s: &[Section], out: &mut Vec<String>) {
    for sec in s {
        out.extend(sec.paragraphs().map(str::to_string));
        all_paragraphs(&sec.sections, out);
    }
}

/// A body of nested containers, each `<p>` a run of words; returns the
/// XML and the paragraph texts in document order.
fn body_of(tree: &[(u8, Vec<String>)]) -> (String, Vec<String>) {
    let mut xml = String::from(
        "<article><front><article-meta><article-id pub-id-type=\"pmc\">1</article-id></article-meta></front><body>",
    );
    let mut texts = Vec::new();
    let mut open: Vec<&str> = Vec::new();
    for (kind, words) in tree {
        match kind % 4 {
            0 => {
                xml.push_str("<sec><title>T</title>");
                open.push("</sec>");
            }
            1 => {
                xml.push_str("<boxed-text>");
                open.push("</boxed-text>");
            }
            2 => {
                xml.push_str("<disp-quote>");
                open.push("</disp-quote>");
            }
            _ => {
                if let Some(c) = open.pop() {
                    xml.push_str(c);
                }
            }
        }
        let text = words.join(" ");
        // Inline markup inside the paragraph must give its text.
        let marked = match words.split_first() {
            Some((first, rest)) if !rest.is_empty() => {
                format!("<italic>{first}</italic> {}", rest.join(" "))
            }
            _ => text.clone(),
        };
        xml.push_str(&format!("<p>{marked}</p>"));
        texts.push(text);
    }
    while let Some(c) = open.pop() {
        xml.push_str(c);
    }
    xml.push_str("</body></article>");
    (xml, texts)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mutated_real_articles_never_panic(cut in 0usize..60_711, len in 0usize..400, junk in prop::collection::vec(any::<u8>(), 0..40)) {
        let mut body = real();
        let at = cut.min(body.len());
        let end = (at + len).min(body.len());
        body.splice(at..end, junk);
        let _ = jats::parse_set(&body);
        let _ = jats::parse_set(&body[..at]);
    }

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = jats::parse_set(&body);
        let mut wrapped = b"<article><body><p>".to_vec();
        wrapped.extend_from_slice(&body);
        wrapped.extend_from_slice(b"</p></body></article>");
        let _ = jats::parse_set(&wrapped);
    }

    #[test]
    fn every_paragraph_comes_out(tree in prop::collection::vec((any::<u8>(), prop::collection::vec("[a-z]{1,8}", 1..6)), 1..24)) {
        let (xml, texts) = body_of(&tree);
        let items = jats::parse_set(xml.as_bytes()).unwrap();
        let SetItem::Article(a) = &items[0] else { panic!("not an article") };
        let mut got = Vec::new();
        all_paragraphs(&a.sections, &mut got);
        // As multisets: a section's own paragraphs come before its
        // subsections in the tree, even those after one in the document
        // (docs/fulltext.md "Reading JATS").
        let mut want = texts;
        got.sort();
        want.sort();
        prop_assert_eq!(got, want, "{}", xml);
    }
}
