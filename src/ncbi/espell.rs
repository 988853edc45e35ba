//! ESpell (`espell.fcgi?db=pubmed&term=…`): the typed answer and its parser.

use super::client::Client;
use super::xml::Element;
use crate::core::spell::Segment;
use crate::error::Result;

/// ESpell's answer. `corrected_query` is kept for diagnostics only: it is
/// lower-cased as a whole, operators included, and never returned to users.
#[derive(Debug, Clone, PartialEq, Eq)]
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

impl Client {
    /// ESpell for PubMed. `term` is sent as written.
    ///
    /// Errors: an `<ERROR>` with text, an HTML page or a prolog-only body
    /// are retried and end as `ncbi_unreachable`; a body that does not
    /// parse is `ncbi_invalid_response`.
    pub async fn espell(&self, term: &str) -> Result<EspellAnswer> {
        let req = self.eutils_request(
            "espell.fcgi",
            vec![("db", "pubmed".into()), ("term", term.to_string())],
            0,
        );
        self.eutils_xml("ESpell", req, parse).await
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

    #[test]
    fn wrong_root_is_rejected() {
        let root = xml::parse("<eSearchResult/>").unwrap();
        assert!(parse(&root).is_err());
    }
}
