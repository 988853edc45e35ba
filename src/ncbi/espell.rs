//! ESpell (`espell.fcgi?db=…&term=…`): the typed answer and its parser.

use super::classify::Refusal;
use super::client::Client;
use super::db::Db;
use super::xml::Element;
use crate::core::spell::Segment;
use crate::core::text::fold_whitespace;
use crate::error::Result;

/// ESpell's answer. `corrected_query` is kept for diagnostics only: it is
/// lower-cased as a whole, operators included, and never returned to users.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EspellAnswer {
    /// `<Query>` as NCBI echoed it.
    pub query: String,
    /// `<CorrectedQuery>`.
    pub corrected_query: String,
    /// `<SpelledQuery>` children in order.
    pub segments: Vec<Segment>,
}

/// Parses an `eSpellResult` root (the `<ERROR>` check is done before).
pub fn parse(root: &Element) -> Result<EspellAnswer, String> {
    if root.name != "eSpellResult" {
        return Err(format!("expected <eSpellResult>, found <{}>", root.name));
    }
    let segments = root
        .child("SpelledQuery")
        .map(|sq| {
            sq.elements()
                .filter_map(|e| match e.name.as_str() {
                    "Original" => Some(Segment::Original(e.text())),
                    "Replaced" => Some(Segment::Replaced(e.text())),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(EspellAnswer {
        query: root.child_text("Query").unwrap_or_default(),
        corrected_query: root.child_text("CorrectedQuery").unwrap_or_default(),
        segments,
    })
}

/// The form of a query two ESpell answers are compared in: whitespace
/// trimmed and each run of it (line breaks, tabs, U+00A0, controls) one
/// space, canonically composed (NFC), lower-cased.
fn comparable(q: &str) -> String {
    let composed = icu_normalizer::ComposingNormalizerBorrowed::new_nfc().normalize(q);
    fold_whitespace(&composed).to_lowercase()
}

/// True when `echoed` (the answer's `<Query>`) is the query `sent`
/// (docs/spell.md "Which answer is ours"). NCBI's captures echo the `term`
/// parameter as it arrived: case kept (`Netch AND Mus musclus`), URL
/// encoding undone (`asthmaa+OR+alergies` comes back `asthmaa OR
/// alergies`), XML-escaped (undone by the parser). What they cannot show
/// (padding and runs of blanks, the Unicode normal form of `naïve`) is
/// allowed to differ, and so is case: the segments are lined up with the
/// query case-insensitively and with any whitespace run matching any other
/// (docs/spell.md "Alignment"), so an answer differing from ours only in
/// those ways lines up exactly as ours would. Anything else, a missing
/// `<Query>` included, is the answer to another query.
pub fn answers(sent: &str, echoed: &str) -> bool {
    sent == echoed || comparable(sent) == comparable(echoed)
}

/// A query as a message shows it: quoted, at most 100 characters.
fn shown(q: &str) -> String {
    let cut: String = q.chars().take(100).collect();
    if cut.len() < q.len() {
        format!("{:?}…", cut)
    } else {
        format!("{cut:?}")
    }
}

impl Client {
    /// ESpell on `db` (PubMed's spelling for [`Db::Pubmed`]). `term` is
    /// sent as written.
    ///
    /// Errors: an `<ERROR>` with text, an HTML page or a prolog-only body
    /// are retried and end as `ncbi_unreachable`; a body that does not
    /// parse is `ncbi_invalid_response`. An answer whose `<Query>` is not
    /// `term` ([`answers`]) is the answer to another request: retried, and
    /// `ncbi_invalid_response` when the last attempt still is one, never
    /// applied (docs/spell.md "Which answer is ours").
    pub async fn espell(&self, db: Db, term: &str) -> Result<EspellAnswer> {
        use crate::cache::Kind;
        // The cache (docs/cache.md): PubMed answers, keyed by the term sent;
        // only an answer that passed every check is stored.
        let cache = self.cache().filter(|_| db == Db::Pubmed);
        let hit = cache.and_then(|c| {
            c.get_with(Kind::Espell, term, |h| {
                serde_json::from_str::<EspellAnswer>(&h.body)
                    .ok()
                    .filter(|a| answers(term, &a.query))
            })
        });
        if let Some((a, _)) = hit {
            return Ok(a);
        }
        let a = self.espell_asked(db, term).await?;
        if let (Some(c), Ok(body)) = (cache, serde_json::to_string(&a)) {
            c.put(Kind::Espell, [(term, body.as_str(), None)]);
        }
        Ok(a)
    }

    async fn espell_asked(&self, db: Db, term: &str) -> Result<EspellAnswer> {
        let req = self.eutils_request("espell.fcgi", db, vec![("term", term.to_string())], 0);
        self.eutils_xml_checked("ESpell", req, |root| {
            let a = parse(root).map_err(Refusal::Invalid)?;
            if !answers(term, &a.query) {
                return Err(Refusal::Mismatch(format!(
                    "<Query> is {}, not the query sent ({})",
                    shown(&a.query),
                    shown(term)
                )));
            }
            Ok(a)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ncbi::xml;

    #[test]
    fn real_capture_segments() {
        let body = include_str!("../../tests/fixtures/espell_asthmaa_alergies.xml");
        let a = parse(&xml::parse(body).unwrap()).unwrap();
        assert_eq!(a.query, "asthmaa OR alergies");
        assert_eq!(a.corrected_query, "asthma or allergies");
        assert_eq!(
            a.segments,
            vec![
                Segment::Original("".into()),
                Segment::Replaced("asthma".into()),
                Segment::Original(" OR ".into()),
                Segment::Replaced("allergies".into()),
            ]
        );
    }

    /// Each capture's `<Query>` against the `term` its request sent
    /// (PROVENANCE: `biopythooon`, `Netch AND Mus musclus`, sent as
    /// `asthmaa+OR+alergies`).
    #[test]
    fn the_captures_answer_the_query_sent() {
        for (body, sent) in [
            (
                include_str!("../../tests/fixtures/espell_asthmaa_alergies.xml"),
                "asthmaa OR alergies",
            ),
            (
                include_str!("../../tests/fixtures/espell_netch_mus_musclus.xml"),
                "Netch AND Mus musclus",
            ),
            (
                include_str!("../../tests/fixtures/espell_biopythooon.xml"),
                "biopythooon",
            ),
            (
                include_str!("../../tests/fixtures/espell_biopythooon_2008.xml"),
                "biopythooon",
            ),
        ] {
            let a = parse(&xml::parse(body).unwrap()).unwrap();
            assert_eq!(a.query, sent);
            assert!(answers(sent, &a.query));
        }
    }

    #[test]
    fn padding_blank_runs_case_and_normal_form_may_differ() {
        let echoed = "Netch AND Mus musclus";
        for sent in [
            "  Netch AND Mus musclus  ",
            "Netch  AND\tMus\u{a0}musclus",
            "netch and mus MUSCLUS",
        ] {
            assert!(answers(sent, echoed), "{sent:?}");
        }
        assert!(answers("nai\u{308}ve cels", "na\u{ef}ve cels"));
    }

    #[test]
    fn another_query_or_none_is_not_ours() {
        let echoed = "Netch AND Mus musclus";
        for sent in [
            "asthmaa OR alergies",
            "Netch AND Mus",
            "Netch AND Mus musclus[mh]",
            "Netch AND Mus musclus*",
            "NetchAND Mus musclus",
        ] {
            assert!(!answers(sent, echoed), "{sent:?}");
        }
        assert!(!answers("biopythooon", ""));
    }

    proptest::proptest! {
        /// Re-spacing and re-casing a query never makes an answer foreign;
        /// a word more always does.
        #[test]
        fn respaced_answers_match_and_extended_ones_do_not(
            words in proptest::collection::vec("[A-Za-z0-9\\[\\]()*\"-]{1,8}", 1..6),
            gaps in proptest::collection::vec("[ \t\n]{1,3}", 6),
            extra in "[a-z]{1,6}",
        ) {
            let sent = words.join(" ");
            let mut echoed = gaps[0].clone();
            for (i, w) in words.iter().enumerate() {
                echoed.push_str(&w.to_uppercase());
                echoed.push_str(&gaps[i + 1]);
            }
            proptest::prop_assert!(answers(&sent, &echoed));
            let longer = format!("{sent} {extra}");
            proptest::prop_assert!(!answers(&longer, &echoed));
        }
    }

    #[test]
    fn wrong_root_is_rejected() {
        let root = xml::parse("<eSearchResult/>").unwrap();
        assert!(parse(&root).is_err());
    }
}
