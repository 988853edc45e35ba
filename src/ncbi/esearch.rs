//! ESearch (`esearch.fcgi`, on any [`Db`]): parameters, the typed answer,
//! its parser.

use super::classify::Refusal;
use super::client::Client;
use super::db::Db;
use super::xml::Element;
use crate::error::Result;

/// ESearch parameters (E-utilities names); the database is the call's
/// [`Db`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EsearchParams {
    /// `term`: the composed query.
    pub term: String,
    /// `field`: limits untagged terms to one field (EInfo name).
    pub field: Option<String>,
    /// `retstart`, 0-based.
    pub retstart: u32,
    /// `retmax`; 0 = count only.
    pub retmax: u32,
    /// `sort` as NCBI spells it (`relevance`, `pub_date`, `Author`, `JournalName`).
    pub sort: Option<String>,
    /// `mindate`/`maxdate` (`YYYY[/MM[/DD]]`).
    pub dates: Option<(String, String)>,
    /// `datetype` (`pdat`, `edat`, `mdat`).
    pub datetype: Option<String>,
}

/// A note NCBI attached to the query (`<ErrorList>` or `<WarningList>`
/// child): `kind` is the element name (`PhraseNotFound`), `text` its value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QueryNote {
    /// Element name, e.g. `FieldNotFound`, `OutputMessage`.
    pub kind: String,
    /// The term or message.
    pub text: String,
}

/// ESearch's answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EsearchAnswer {
    /// `<Count>`: hits of the translated query.
    pub count: u64,
    /// `<RetStart>`.
    pub retstart: u64,
    /// `<IdList>` PMIDs in ESearch order.
    pub ids: Vec<String>,
    /// `<QueryTranslation>`.
    pub query_translation: Option<String>,
    /// `<TranslationSet>` (From, To) pairs.
    pub translations: Vec<(String, String)>,
    /// Every child of `<ErrorList>` and `<WarningList>` (warnings, never failures).
    pub notes: Vec<QueryNote>,
}

fn number(root: &Element, name: &str) -> Result<u64, String> {
    let text = root
        .child_text(name)
        .ok_or_else(|| format!("no <{name}>"))?;
    text.trim()
        .parse()
        .map_err(|_| format!("<{name}> is not a number: {text:?}"))
}

/// Parses an `eSearchResult` root (top-level `<ERROR>` was handled before).
pub fn parse(root: &Element) -> Result<EsearchAnswer, String> {
    if root.name != "eSearchResult" {
        return Err(format!("expected <eSearchResult>, found <{}>", root.name));
    }
    let ids = root.id_list();
    if let Some(bad) = ids
        .iter()
        .find(|i| i.is_empty() || !i.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(format!("<Id> {bad:?} is not a PMID"));
    }
    let translations = root
        .child("TranslationSet")
        .map(|s| {
            s.children_named("Translation")
                .map(|t| {
                    (
                        crate::core::text::fold_whitespace(
                            &t.child_text("From").unwrap_or_default(),
                        ),
                        crate::core::text::fold_whitespace(&t.child_text("To").unwrap_or_default()),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let notes = ["ErrorList", "WarningList"]
        .iter()
        .filter_map(|list| root.child(list))
        .flat_map(|list| list.elements())
        .map(|e| QueryNote {
            kind: e.name.clone(),
            text: crate::core::text::fold_whitespace(&e.text()),
        })
        .collect();
    Ok(EsearchAnswer {
        count: number(root, "Count")?,
        retstart: root
            .child_text("RetStart")
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0),
        ids,
        query_translation: root
            .child_text("QueryTranslation")
            .map(|t| crate::core::text::fold_whitespace(&t)),
        translations,
        notes,
    })
}

/// Checks that an answer agrees with itself for the page asked for: the
/// `RetStart` sent echoed, no PMID twice, no `0` (PMIDs start at 1), and
/// exactly as many IDs as `Count` promises on this page,
/// `min(retmax, Count − retstart)`: PubMed never serves a short page, nor
/// one longer than asked for (`docs/search.md`).
pub fn check_consistent(a: &EsearchAnswer, retstart: u32, retmax: u32) -> Result<(), String> {
    if a.retstart != u64::from(retstart) {
        return Err(format!(
            "it answers RetStart {} to a request for retstart {retstart}",
            a.retstart
        ));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = a.ids.iter().find(|id| !seen.insert(id.as_str())) {
        return Err(format!("PMID {dup} is listed twice on one page"));
    }
    if let Some(zero) = a.ids.iter().find(|id| id.bytes().all(|b| b == b'0')) {
        return Err(format!("<Id>{zero}</Id> is not a PMID"));
    }
    let due = u64::from(retmax).min(a.count.saturating_sub(u64::from(retstart)));
    if (a.ids.len() as u64) != due {
        return Err(format!(
            "Count {} with retstart {retstart} and retmax {retmax} promises {due} IDs on this page, but it holds {}",
            a.count,
            a.ids.len()
        ));
    }
    Ok(())
}

impl Client {
    /// Runs ESearch on `db` (the UIDs of the answer are that database's:
    /// PMIDs for [`Db::Pubmed`]).
    ///
    /// Errors: a top-level `<ERROR>` is a failure classified by its text
    /// (e.g. the retstart cap is `invalid_argument`); `<ErrorList>` and
    /// `<WarningList>` are returned as [`EsearchAnswer::notes`], never errors.
    /// An answer that contradicts itself ([`check_consistent`]) is retried
    /// like an outage and, if the last attempt still does, is
    /// `ncbi_invalid_response`: a short page is never a result.
    pub async fn esearch(&self, db: Db, p: &EsearchParams) -> Result<EsearchAnswer> {
        let mut params = vec![
            ("term", p.term.clone()),
            ("retstart", p.retstart.to_string()),
            ("retmax", p.retmax.to_string()),
        ];
        if let Some(f) = &p.field {
            params.push(("field", f.clone()));
        }
        if let Some(s) = &p.sort {
            params.push(("sort", s.clone()));
        }
        if let Some(t) = &p.datetype {
            params.push(("datetype", t.clone()));
        }
        if let Some((min, max)) = &p.dates {
            params.push(("mindate", min.clone()));
            params.push(("maxdate", max.clone()));
        }
        // The cache (docs/cache.md): reused only with `--cache searches`;
        // only an answer that passed every check is stored.
        let key = serde_json::to_string(&params).map(|k| format!("{db:?}:{k}"));
        let cache = self.cache().zip(key.ok());
        let reuse = cache
            .as_ref()
            .filter(|(c, _)| c.mode() == crate::cache::CacheMode::Searches);
        if let Some((a, _)) = reuse.and_then(|(c, k)| {
            c.get_with(crate::cache::Kind::Esearch, k, |h| {
                serde_json::from_str::<EsearchAnswer>(&h.body).ok()
            })
        }) {
            return Ok(a);
        }
        let req = self.eutils_request("esearch.fcgi", db, params, 0);
        let a = self
            .eutils_xml_checked("ESearch", req, |root| {
                let a = parse(root).map_err(Refusal::Invalid)?;
                check_consistent(&a, p.retstart, p.retmax).map_err(Refusal::Inconsistent)?;
                Ok(a)
            })
            .await?;
        if let (Some((c, k)), Ok(body)) = (cache, serde_json::to_string(&a)) {
            c.put(
                crate::cache::Kind::Esearch,
                [(k.as_str(), body.as_str(), None)],
            );
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ncbi::xml;

    fn capture(name: &str) -> EsearchAnswer {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        parse(&xml::parse(&std::fs::read_to_string(path).unwrap()).unwrap()).unwrap()
    }

    #[test]
    fn modern_capture() {
        let a = capture("esearch_pubmed_biopython.xml");
        assert_eq!(a.count, 63);
        assert_eq!(a.ids.len(), 20);
        assert_eq!(a.ids[0], "41282813");
        assert_eq!(a.ids[19], "37810457");
        assert_eq!(
            a.query_translation.as_deref(),
            Some("\"biopython\"[All Fields]")
        );
        assert!(a.notes.is_empty());
    }

    #[test]
    fn paging_and_translation_set() {
        let a = capture("esearch_pubmed_pnas_retstart.xml");
        assert_eq!((a.count, a.retstart, a.ids.len()), (2651, 6, 6));
        assert_eq!(
            a.translations,
            vec![(
                "PNAS[ta]".to_string(),
                "\"Proc Natl Acad Sci U S A\"[Journal:__jid7505876]".to_string()
            )]
        );
    }

    #[test]
    fn errorlist_with_results_is_a_note() {
        let a = capture("esearch_errorlist_with_results_2012.xml");
        assert_eq!(a.count, 5163);
        assert_eq!(a.ids.len(), 20);
        assert_eq!(
            a.notes,
            vec![QueryNote {
                kind: "PhraseNotFound".into(),
                text: "fleegle[MeSH Terms]".into()
            }]
        );
    }

    #[test]
    fn zero_hits_notes_from_both_lists() {
        let a = capture("esearch_zero_hits_phrase_not_found.xml");
        assert_eq!(a.count, 0);
        assert!(a.ids.is_empty());
        let kinds: Vec<&str> = a.notes.iter().map(|n| n.kind.as_str()).collect();
        assert_eq!(kinds, vec!["PhraseNotFound", "OutputMessage"]);
    }

    #[test]
    fn legacy_pretty_printed_capture() {
        let a = capture("esearch_pubmed_translationstack_2008.xml");
        assert_eq!(a.count, 10238);
        assert_eq!(a.ids.len(), 100);
        assert_eq!(a.ids[0], "18411453");
        assert!(
            a.query_translation
                .unwrap()
                .starts_with("((\"neoplasms\"[TIAB]")
        );
    }

    #[test]
    fn ids_must_be_pmids() {
        for bad in [
            "<Id>abc</Id>",
            "<Id></Id>",
            "<Id>1&#10;2</Id>",
            "<Id>-5</Id>",
        ] {
            let body =
                format!("<eSearchResult><Count>1</Count><IdList>{bad}</IdList></eSearchResult>");
            assert!(parse(&xml::parse(&body).unwrap()).is_err(), "{bad}");
        }
    }

    #[test]
    fn short_pages_and_duplicates_contradict_the_count() {
        let a = capture("esearch_pubmed_pnas_retstart.xml");
        assert_eq!(check_consistent(&a, 6, 6), Ok(()));
        // the same page asked with retmax 10 should hold 10
        assert!(
            check_consistent(&a, 6, 10)
                .unwrap_err()
                .contains("promises 10 IDs")
        );
        // near the end of the hits fewer are due: 2651 − 2648 = 3
        let mut end = a.clone();
        end.retstart = 2648;
        end.ids.truncate(3);
        assert_eq!(check_consistent(&end, 2648, 6), Ok(()));
        end.ids = a.ids.clone();
        assert_eq!(
            check_consistent(&end, 2648, 6),
            Err("Count 2651 with retstart 2648 and retmax 6 promises 3 IDs on this page, but it holds 6".into())
        );
        // more IDs than retmax, or another page than the one asked for
        assert!(
            check_consistent(&a, 6, 5)
                .unwrap_err()
                .contains("promises 5 IDs on this page, but it holds 6")
        );
        assert_eq!(
            check_consistent(&a, 0, 6),
            Err("it answers RetStart 6 to a request for retstart 0".into())
        );
        let b = capture("esearch_pubmed_biopython.xml");
        assert_eq!(check_consistent(&b, 0, 20), Ok(()));
        let mut count_only = b.clone();
        count_only.ids.clear();
        assert_eq!(check_consistent(&count_only, 0, 0), Ok(()), "count only");
        assert!(check_consistent(&b, 0, 0).is_err(), "IDs for retmax 0");
        let mut past = count_only.clone();
        past.retstart = 63;
        assert_eq!(check_consistent(&past, 63, 20), Ok(()), "past the hits");
        let mut zero_id = b.clone();
        zero_id.ids[3] = "0".into();
        assert_eq!(
            check_consistent(&zero_id, 0, 20),
            Err("<Id>0</Id> is not a PMID".into())
        );
        let mut dup = b.clone();
        dup.ids[5] = dup.ids[0].clone();
        assert_eq!(
            check_consistent(&dup, 0, 20),
            Err("PMID 41282813 is listed twice on one page".into())
        );
        let mut none = b;
        none.ids.clear();
        assert!(check_consistent(&none, 0, 20).is_err());
        let zero = capture("esearch_zero_hits_phrase_not_found.xml");
        assert_eq!(check_consistent(&zero, 0, 20), Ok(()));
    }

    #[test]
    fn missing_count_is_invalid() {
        let root = xml::parse("<eSearchResult><IdList/></eSearchResult>").unwrap();
        assert!(parse(&root).is_err());
    }
}
