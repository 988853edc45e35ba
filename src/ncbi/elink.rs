//! ELink (`elink.fcgi?dbfrom=pubmed&db=pubmed&cmd=neighbor&linkname=…`):
//! PubMed's similar articles, citing articles and references, one
//! `<LinkSet>` per input (docs/related.md).
//!
//! Inputs go out as one `id` parameter each: ELink answers repeated `id`s
//! with one LinkSet per input, while a comma-joined `id=a,b` merges every
//! input's links into one list that can no longer be told apart. The answer
//! is read by element (`LinkSet`, `IdList`, `LinkSetDb`, `LinkName`,
//! `Link`, `Id`, `Score`); answers of the other ELink commands (`acheck`,
//! `ncheck`, `llinks`, `prlinks`, `neighbor_history`) are not neighbor lists
//! and are refused as `ncbi_invalid_response`, never read as "no links".

use std::collections::HashMap;

use super::classify::{self, ErrorTextKind, Verdict};
use super::client::Client;
use super::db::Db;
use super::pacer::Lane;
use super::xml::Element;
use crate::core::choice::choice;
use crate::core::text::fold_whitespace;
use crate::error::{Error, Result};

const ENDPOINT: &str = "ELink";

choice! {
    /// Which PubMed links to follow (`--kind`, MCP `kind`).
    #[derive(Default)]
    pub enum LinkKind {
        /// PubMed's similar articles (`pubmed_pubmed`), best match first.
        #[default]
        Similar = "similar",
        /// Articles that cite this one (`pubmed_pubmed_citedin`), from
        /// PubMed's own, PMC-based citation links.
        CitedBy = "cited-by",
        /// Articles this one cites (`pubmed_pubmed_refs`), from the same links.
        References = "references",
    }
}

impl LinkKind {
    /// The ELink `linkname`.
    pub fn linkname(self) -> &'static str {
        match self {
            LinkKind::Similar => "pubmed_pubmed",
            LinkKind::CitedBy => "pubmed_pubmed_citedin",
            LinkKind::References => "pubmed_pubmed_refs",
        }
    }

    /// The databases the link runs between (`dbfrom`, `db`): every kind
    /// links PubMed records to PubMed records.
    pub fn dbs(self) -> (Db, Db) {
        match self {
            LinkKind::Similar | LinkKind::CitedBy | LinkKind::References => {
                (Db::Pubmed, Db::Pubmed)
            }
        }
    }
}

/// One `<Link>`: a linked PMID and, when NCBI sends one (`cmd=neighbor_score`,
/// and every neighbor list before 2013), its `<Score>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The linked PMID (`<Id>`), digits.
    pub pmid: String,
    /// `<Score>`: similarity, larger is closer (the input itself scores 2147483647).
    pub score: Option<u64>,
}

/// One `<LinkSetDb>`: the links of one link name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkSetDb {
    /// `<DbTo>`, e.g. `pubmed`.
    pub db_to: String,
    /// `<LinkName>`, e.g. `pubmed_pubmed_citedin`.
    pub link_name: String,
    /// `<Link>`s in NCBI's order.
    pub links: Vec<Link>,
    /// The `<ERROR>` inside it, if any.
    pub error: Option<String>,
}

/// One `<LinkSet>`: the inputs it answers (`<IdList>`) and their links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkSet {
    /// `<IdList><Id>`s: one per LinkSet when `id` is repeated; several when
    /// NCBI merged inputs; `-1` where ELink marks an ID it did not find.
    pub ids: Vec<String>,
    /// `<LinkSetDb>`s in order.
    pub dbs: Vec<LinkSetDb>,
    /// `<ERROR>` texts directly inside the LinkSet.
    pub errors: Vec<String>,
}

/// A parsed `<eLinkResult>` of `cmd=neighbor`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElinkAnswer {
    /// `<LinkSet>`s in order.
    pub sets: Vec<LinkSet>,
}

fn is_pmid(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && s.bytes().any(|b| b != b'0')
}

fn errors_in(e: &Element) -> Vec<String> {
    e.children_named("ERROR")
        .map(|x| fold_whitespace(&x.text()))
        .filter(|t| !t.is_empty())
        .collect()
}

/// Parses an `eLinkResult` root answering `cmd=neighbor`.
///
/// Errors (a message; the caller reports `ncbi_invalid_response`): another
/// root; a LinkSet of another ELink command (`IdCheckList` of
/// `acheck`/`ncheck`/`lcheck`, `IdUrlList` of `llinks`/`prlinks`,
/// `LinkSetDbHistory`/`WebEnv` of `neighbor_history`); an `<Id>` that is not
/// a PMID; a `<Score>` that is not a whole number.
pub fn parse(root: &Element) -> Result<ElinkAnswer, String> {
    if root.name != "eLinkResult" {
        return Err(format!("expected <eLinkResult>, found <{}>", root.name));
    }
    let mut answer = ElinkAnswer::default();
    for set in root.children_named("LinkSet") {
        for (other, command) in [
            ("IdCheckList", "acheck/ncheck/lcheck"),
            ("IdUrlList", "llinks/prlinks"),
            ("LinkSetDbHistory", "neighbor_history"),
            ("WebEnv", "neighbor_history"),
        ] {
            if set.child(other).is_some() {
                return Err(format!(
                    "a <LinkSet> holds <{other}> (an answer to cmd={command}), not a neighbor list"
                ));
            }
        }
        let ids = set.id_list();
        if let Some(bad) = ids.iter().find(|i| !is_pmid(i) && i.as_str() != "-1") {
            return Err(format!("<IdList> holds {bad:?}, not a PMID"));
        }
        let mut dbs = Vec::new();
        for db in set.children_named("LinkSetDb") {
            let mut links = Vec::new();
            for link in db.children_named("Link") {
                let pmid = link.child_text("Id").unwrap_or_default().trim().to_string();
                if !is_pmid(&pmid) {
                    return Err(format!("a <Link> holds {pmid:?}, not a PMID"));
                }
                let score = match link.child_text("Score") {
                    None => None,
                    Some(s) => Some(
                        s.trim()
                            .parse::<u64>()
                            .map_err(|_| format!("<Score> {s:?} is not a whole number"))?,
                    ),
                };
                links.push(Link { pmid, score });
            }
            dbs.push(LinkSetDb {
                db_to: db.child_text("DbTo").unwrap_or_default().trim().to_string(),
                link_name: db
                    .child_text("LinkName")
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
                links,
                error: errors_in(db).into_iter().next(),
            });
        }
        answer.sets.push(LinkSet {
            ids,
            dbs,
            errors: errors_in(set),
        });
    }
    Ok(answer)
}

/// What ELink said about one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputLinks {
    /// The input's list for the link name asked for, as NCBI sent it
    /// (the input itself and repeats still in it).
    Links(Vec<Link>),
    /// No list: a LinkSet without that link name, an empty one, or no
    /// LinkSet at all. ELink answers an unknown PMID the same way, so the
    /// caller checks that the PMID exists.
    Nothing,
    /// An `<ERROR>` in the input's own LinkSet (an unknown or invalid PMID).
    Error(String),
}

/// One chunk's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElinkChunk {
    /// One entry per requested PMID, in the order given.
    Inputs(Vec<InputLinks>),
    /// ELink refused the request for an ID it did not name (`Invalid uid`,
    /// a not-found text at the top level): split the chunk to find it.
    PerIdError(String),
}

/// The `<ERROR>` texts outside every LinkSet: they fail the whole answer.
fn top_level_errors(root: &Element) -> Vec<String> {
    fn walk(e: &Element, out: &mut Vec<String>) {
        for c in e.elements() {
            if c.name == "ERROR" {
                let t = fold_whitespace(&c.text());
                if !t.is_empty() {
                    out.push(t);
                }
            } else if c.name != "LinkSet" {
                walk(c, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, &mut out);
    out
}

/// True for an error text about the IDs themselves (not found, invalid
/// uid): a fault of one input, not of the request.
fn names_an_id(text: &str) -> bool {
    let t = text.to_lowercase();
    classify::error_text_kind(text) == ErrorTextKind::NotFound
        || t.contains("invalid uid")
        || t.contains("invalid id")
}

/// The UIDs an error text names (`Invalid uid 5 at position 1`, `Invalid
/// uid 123 at position=1`): the word after each `invalid uid`, canonical
/// (leading zeros dropped) when it is a PMID, as written otherwise.
pub fn named_uids(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("invalid uid") {
        rest = &rest[at + "invalid uid".len()..];
        let word: String = rest
            .trim_start_matches([' ', ':', '='])
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != ',' && *c != ';')
            .collect();
        if !word.is_empty() {
            let pmid = word.trim_start_matches('0');
            out.push(if is_pmid(&word) && !pmid.is_empty() {
                pmid.to_string()
            } else {
                word
            });
        }
    }
    out
}

/// Why an answer cannot be matched to the inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchError {
    /// The answer contradicts the request: `ncbi_invalid_response`.
    Invalid(String),
    /// Error texts that concern no one input (or an upstream fault).
    Texts(Vec<String>),
}

/// Matches an answer to the requested PMIDs (canonical, distinct), for
/// `kind`'s link name.
///
/// Errors: [`MatchError::Invalid`] for a LinkSet holding several inputs
/// (merged), an input not asked for, an input answered twice, or links
/// without an `<IdList>`; [`MatchError::Texts`] for an `<ERROR>` in a
/// LinkSet without `<IdList>`, or one of a transient kind in any LinkSet.
pub fn match_inputs(
    answer: &ElinkAnswer,
    requested: &[String],
    kind: LinkKind,
) -> Result<Vec<InputLinks>, MatchError> {
    let index: HashMap<&str, usize> = requested
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut out: Vec<Option<InputLinks>> = vec![None; requested.len()];
    let mut unattributed = Vec::new();
    for set in &answer.sets {
        let db = set.dbs.iter().find(|d| {
            d.link_name == kind.linkname()
                && (d.db_to.is_empty() || d.db_to == kind.dbs().1.as_str())
        });
        let mut errors: Vec<String> = set.errors.clone();
        errors.extend(db.and_then(|d| d.error.clone()));
        if let Some(t) = errors
            .iter()
            .find(|t| classify::error_text_kind(t) == ErrorTextKind::Transient && !names_an_id(t))
        {
            return Err(MatchError::Texts(vec![t.clone()]));
        }
        let id = match set.ids.as_slice() {
            [] => {
                if !errors.is_empty() {
                    unattributed.extend(errors);
                } else if set.dbs.iter().any(|d| !d.links.is_empty()) {
                    return Err(MatchError::Invalid(
                        "a <LinkSet> has links but no <IdList> naming its input".into(),
                    ));
                }
                continue;
            }
            [one] if one == "-1" => continue,
            [one] => one,
            many => {
                return Err(MatchError::Invalid(format!(
                    "ELink merged {} inputs into one <LinkSet>",
                    many.len()
                )));
            }
        };
        let Some(&i) = index.get(id.as_str()) else {
            return Err(MatchError::Invalid(format!(
                "a <LinkSet> answers PMID {id}, which was not asked for"
            )));
        };
        if out[i].is_some() {
            return Err(MatchError::Invalid(format!(
                "PMID {id} is answered by two <LinkSet>s"
            )));
        }
        out[i] = Some(if let Some(e) = errors.into_iter().next() {
            InputLinks::Error(e)
        } else {
            match db {
                Some(d) if !d.links.is_empty() => InputLinks::Links(d.links.clone()),
                _ => InputLinks::Nothing,
            }
        });
    }
    if !unattributed.is_empty() {
        return Err(MatchError::Texts(unattributed));
    }
    Ok(out
        .into_iter()
        .map(|o| o.unwrap_or(InputLinks::Nothing))
        .collect())
}

/// Classifies one ELink answer for `requested` (the client's usual order; an
/// `<ERROR>` outside the LinkSets is the call's, one inside is its input's).
fn classify_answer(
    resp: &super::transport::HttpResponse,
    requested: &[String],
    kind: LinkKind,
) -> Verdict<ElinkChunk> {
    let errors = |root: &Element| {
        let texts = top_level_errors(root);
        (!texts.is_empty()).then_some(Verdict::Done(Err(MatchError::Texts(texts))))
    };
    let v = classify::classify_xml_with(resp, ENDPOINT, errors, |root| {
        parse(root)
            .map(|a| match_inputs(&a, requested, kind))
            .map_err(classify::Refusal::Invalid)
    });
    let texts = match v {
        Verdict::Done(Ok(inputs)) => return Verdict::Done(ElinkChunk::Inputs(inputs)),
        Verdict::Done(Err(MatchError::Invalid(why))) => {
            return Verdict::Fatal(Error::new(
                crate::error::Reason::NcbiInvalidResponse,
                format!("{ENDPOINT} sent an unexpected document: {why}"),
            ));
        }
        Verdict::Done(Err(MatchError::Texts(texts))) => texts,
        Verdict::Fatal(e) => return Verdict::Fatal(e),
        Verdict::Transient {
            text,
            retry_after,
            bad_answer,
        } => {
            return Verdict::Transient {
                text,
                retry_after,
                bad_answer,
            };
        }
        Verdict::RateLimited { retry_after } => return Verdict::RateLimited { retry_after },
    };
    per_id_or(texts)
}

/// Error texts that name IDs become [`ElinkChunk::PerIdError`]; any other
/// is classified like any E-utilities error text.
fn per_id_or(texts: Vec<String>) -> Verdict<ElinkChunk> {
    if texts.iter().all(|t| names_an_id(t)) {
        return Verdict::Done(ElinkChunk::PerIdError(texts.join("; ")));
    }
    classify::verdict_for_error_texts(&texts, ENDPOINT)
}

impl Client {
    /// ELink `cmd=neighbor` for `kind` on `pmids` (canonical, distinct):
    /// `db` and `dbfrom` from [`LinkKind::dbs`], `linkname=…` and one `id`
    /// parameter per PMID,
    /// sent by POST when the list is long (the client's rule).
    ///
    /// Errors: as every E-utilities call (docs/related.md); an answer that is
    /// not a neighbor list, or that does not match the request (merged
    /// inputs, PMIDs not asked for), is `ncbi_invalid_response`; a top-level
    /// `<ERROR>` naming an ID is [`ElinkChunk::PerIdError`], not an error.
    pub async fn elink(&self, kind: LinkKind, pmids: &[String]) -> Result<ElinkChunk> {
        let (from, to) = kind.dbs();
        let mut params = vec![
            ("dbfrom", from.as_str().to_string()),
            ("cmd", "neighbor".to_string()),
            ("linkname", kind.linkname().to_string()),
        ];
        params.extend(pmids.iter().map(|p| ("id", p.clone())));
        let req = self.eutils_request("elink.fcgi", to, params, pmids.len());
        self.execute(ENDPOINT, Lane::Eutils, &req, |resp| {
            classify_answer(&resp, pmids, kind)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ncbi::xml;

    fn root(name: &str) -> Element {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        xml::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn ids(db: &LinkSetDb) -> Vec<&str> {
        db.links.iter().map(|l| l.pmid.as_str()).collect()
    }

    #[test]
    fn every_link_name_of_the_modern_capture() {
        let a = parse(&root("elink_pubmed_neighbor_all_pubmed_linknames.xml")).unwrap();
        assert_eq!(a.sets.len(), 1);
        let set = &a.sets[0];
        assert_eq!(set.ids, vec!["9298984"]);
        let shape: Vec<(&str, usize)> = set
            .dbs
            .iter()
            .map(|d| (d.link_name.as_str(), d.links.len()))
            .collect();
        assert_eq!(
            shape,
            vec![
                ("pubmed_pubmed", 101),
                ("pubmed_pubmed_citedin", 39),
                ("pubmed_pubmed_combined", 5),
                ("pubmed_pubmed_five", 5),
                ("pubmed_pubmed_refs", 56),
                ("pubmed_pubmed_reviews", 1),
                ("pubmed_pubmed_reviews_five", 5),
            ]
        );
        let similar = ids(&set.dbs[0]);
        assert_eq!(&similar[..4], ["9298984", "8794856", "9700164", "7914521"]);
        assert_eq!(&similar[99..], ["11715021", "17333235"]);
        let cited = ids(&set.dbs[1]);
        assert_eq!(&cited[..3], ["38830800", "38188366", "37424454"]);
        assert_eq!(&cited[37..], ["9700166", "9700164"]);
        let refs = ids(&set.dbs[4]);
        assert_eq!(&refs[..3], ["14732139", "8909532", "8898221"]);
        assert_eq!(&refs[54..], ["1406971", "1339459"]);
        assert!(set.dbs.iter().all(|d| d.db_to == "pubmed"));
        assert!(
            set.dbs
                .iter()
                .flat_map(|d| &d.links)
                .all(|l| l.score.is_none())
        );
    }

    #[test]
    fn scores_of_the_2008_capture() {
        let a = parse(&root("elink_pubmed_neighbor_with_scores_2008.xml")).unwrap();
        let db = &a.sets[0].dbs[0];
        assert_eq!(db.link_name, "pubmed_pubmed");
        assert_eq!(db.links.len(), 144);
        let first: Vec<(&str, Option<u64>)> = db.links[..3]
            .iter()
            .map(|l| (l.pmid.as_str(), l.score))
            .collect();
        assert_eq!(
            first,
            vec![
                ("9298984", Some(2147483647)),
                ("8794856", Some(65259341)),
                ("9700164", Some(60347327)),
            ]
        );
        assert!(db.links.iter().all(|l| l.score.is_some()));
        assert_eq!(db.links[143].pmid, "17248312");
    }

    #[test]
    fn two_ids_in_one_merged_link_set() {
        let a = parse(&root("elink_pubmed_neighbor_two_ids_mindate.xml")).unwrap();
        assert_eq!(a.sets.len(), 1);
        assert_eq!(a.sets[0].ids, vec!["11812492", "11774222"]);
        let shape: Vec<(&str, usize)> = a.sets[0]
            .dbs
            .iter()
            .map(|d| (d.link_name.as_str(), d.links.len()))
            .collect();
        assert_eq!(
            shape,
            vec![
                ("pubmed_pubmed", 284),
                ("pubmed_pubmed_citedin", 3),
                ("pubmed_pubmed_combined", 10),
                ("pubmed_pubmed_five", 10),
                ("pubmed_pubmed_reviews", 282),
                ("pubmed_pubmed_reviews_five", 10),
            ]
        );
        assert_eq!(
            ids(&a.sets[0].dbs[1]),
            vec!["18508935", "15780005", "15024419"]
        );
        // Merged inputs cannot be told apart: never read as per-input lists.
        let req = vec!["11812492".to_string(), "11774222".to_string()];
        assert!(matches!(
            match_inputs(&a, &req, LinkKind::Similar),
            Err(MatchError::Invalid(m)) if m.contains("merged 2 inputs")
        ));
    }

    #[test]
    fn other_commands_are_not_neighbor_lists() {
        for (capture, element) in [
            ("elink_pubmed_acheck.xml", "IdCheckList"),
            ("elink_pubmed_ncheck.xml", "IdCheckList"),
            ("elink_pubmed_llinks.xml", "IdUrlList"),
            ("elink_pubmed_prlinks.xml", "IdUrlList"),
        ] {
            let e = parse(&root(capture)).unwrap_err();
            assert!(e.contains(element), "{capture}: {e}");
        }
    }

    #[test]
    fn the_link_name_asked_for_is_the_one_read() {
        let a = parse(&root("elink_pubmed_neighbor_all_pubmed_linknames.xml")).unwrap();
        let req = vec!["9298984".to_string()];
        for (kind, n, first) in [
            (LinkKind::Similar, 101, "9298984"),
            (LinkKind::CitedBy, 39, "38830800"),
            (LinkKind::References, 56, "14732139"),
        ] {
            match &match_inputs(&a, &req, kind).unwrap()[0] {
                InputLinks::Links(l) => {
                    assert_eq!(l.len(), n, "{kind:?}");
                    assert_eq!(l[0].pmid, first);
                }
                other => panic!("{kind:?}: {other:?}"),
            }
        }
    }

    fn body(sets: &str) -> ElinkAnswer {
        parse(&xml::parse(&format!("<eLinkResult>{sets}</eLinkResult>")).unwrap()).unwrap()
    }

    #[test]
    fn inputs_without_a_list_and_per_input_errors() {
        let a = body(
            "<LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>2</Id></IdList></LinkSet>\
             <LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>3</Id></IdList><ERROR>Invalid uid 3</ERROR></LinkSet>\
             <LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>-1</Id></IdList></LinkSet>",
        );
        let req: Vec<String> = ["1", "2", "3"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            match_inputs(&a, &req, LinkKind::Similar).unwrap(),
            vec![
                InputLinks::Nothing,
                InputLinks::Nothing,
                InputLinks::Error("Invalid uid 3".into())
            ]
        );
    }

    #[test]
    fn contradictions_are_invalid() {
        let one = |id: &str| {
            format!(
                "<LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>{id}</Id></IdList><LinkSetDb><DbTo>pubmed</DbTo><LinkName>pubmed_pubmed</LinkName><Link><Id>5</Id></Link></LinkSetDb></LinkSet>"
            )
        };
        let req = vec!["1".to_string()];
        for sets in [
            one("7"),
            format!("{}{}", one("1"), one("1")),
            "<LinkSet><DbFrom>pubmed</DbFrom><LinkSetDb><DbTo>pubmed</DbTo><LinkName>pubmed_pubmed</LinkName><Link><Id>5</Id></Link></LinkSetDb></LinkSet>".into(),
        ] {
            assert!(
                matches!(match_inputs(&body(&sets), &req, LinkKind::Similar), Err(MatchError::Invalid(_))),
                "{sets}"
            );
        }
        for bad in ["<Id>abc</Id>", "<Id></Id>", "<Id>0</Id>"] {
            let x = format!(
                "<eLinkResult><LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>1</Id></IdList><LinkSetDb><LinkName>pubmed_pubmed</LinkName><Link>{bad}</Link></LinkSetDb></LinkSet></eLinkResult>"
            );
            assert!(parse(&xml::parse(&x).unwrap()).is_err(), "{bad}");
        }
        let x = "<eLinkResult><LinkSet><IdList><Id>1</Id></IdList><LinkSetDb><LinkName>pubmed_pubmed</LinkName><Link><Id>2</Id><Score>high</Score></Link></LinkSetDb></LinkSet></eLinkResult>";
        assert!(parse(&xml::parse(x).unwrap()).is_err());
        assert!(parse(&xml::parse("<eSearchResult/>").unwrap()).is_err());
    }

    #[test]
    fn error_texts_by_scope() {
        // A transient text anywhere retries the chunk.
        let a = body(
            "<LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>1</Id></IdList><ERROR>Couldn't resolve #exLinkSrv2, the address table is empty.</ERROR></LinkSet>",
        );
        assert!(matches!(
            match_inputs(&a, &["1".to_string()], LinkKind::Similar),
            Err(MatchError::Texts(_))
        ));
        // Texts naming IDs at the top level mean "split to find it".
        assert!(matches!(
            per_id_or(vec!["Invalid uid 123 at position=1".into()]),
            Verdict::Done(ElinkChunk::PerIdError(_))
        ));
        assert!(matches!(
            per_id_or(vec!["Invalid db name specified: x".into()]),
            Verdict::Fatal(e) if e.reason == crate::error::Reason::InvalidArgument
        ));
        let root = xml::parse(
            "<eLinkResult><ERROR>top</ERROR><LinkSet><ERROR>inner</ERROR></LinkSet></eLinkResult>",
        )
        .unwrap();
        assert_eq!(top_level_errors(&root), vec!["top"]);
    }

    #[test]
    fn uids_named_by_error_texts() {
        assert_eq!(named_uids("Invalid uid 5 at position 1"), vec!["5"]);
        assert_eq!(named_uids("Invalid uid 0123 at position=1"), vec!["123"]);
        assert_eq!(
            named_uids("Invalid uid gwa2_scaffold_1731_16S_1 at position= 0"),
            vec!["gwa2_scaffold_1731_16s_1"]
        );
        assert_eq!(
            named_uids("Invalid uid 7 at position 0; Invalid uid 9 at position 2"),
            vec!["7", "9"]
        );
        assert!(named_uids("cannot get document summary").is_empty());
    }

    #[test]
    fn kinds_round_trip() {
        use crate::core::choice::Choice;
        for k in LinkKind::ALL {
            assert_eq!(LinkKind::parse(k.as_str()), Some(*k));
        }
        assert_eq!(LinkKind::parse("Cited-By"), Some(LinkKind::CitedBy));
        assert_eq!(LinkKind::parse("cited"), None);
        assert_eq!(
            serde_json::to_value(LinkKind::CitedBy).unwrap(),
            serde_json::json!("cited-by")
        );
        assert_eq!(LinkKind::References.linkname(), "pubmed_pubmed_refs");
    }
}
