//! ESummary (`esummary.fcgi?db=…&version=2.0`, XML): document summaries
//! (parsed as PubMed's: [`DocSum`]) in chunks of [`ESUMMARY_BATCH`] IDs sent by POST, halved when
//! NCBI cannot answer a chunk whole, returned in the caller's order
//! (docs/search.md "Batch sizes").

use std::collections::HashMap;

use futures::StreamExt;

use super::classify;
use super::client::Client;
use super::db::Db;
use super::halving::{self, Part};
use super::xml::{self, Element};
use crate::core::text::fold_whitespace;
use crate::error::{Error, Reason, Result};

/// IDs per ESummary request. Only JSON output (`retmode=json`) is limited
/// to [`ESUMMARY_JSON_MAX_UIDS`](super::limits::ESUMMARY_JSON_MAX_UIDS);
/// this client asks for XML version 2.0, which carries the same fields
/// (docs/search.md "Batch sizes").
pub use super::limits::ESUMMARY_BATCH;
/// A chunk that timed out is halved while it holds more IDs than this.
pub const MIN_TIMEOUT_SPLIT: usize = 100;
const ENDPOINT: &str = "ESummary";

/// One document summary, values trimmed and whitespace folded, as NCBI
/// wrote them (no markup removal yet). Serialized (JSON) as the cache's
/// [`Kind::Esummary`](crate::cache::Kind::Esummary) entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DocSum {
    /// The PMID (`uid`).
    pub uid: String,
    /// `Title`.
    pub title: String,
    /// `Authors/Author/Name`, in order (collective names included).
    pub authors: Vec<String>,
    /// `Source` (journal abbreviation).
    pub source: String,
    /// `FullJournalName`.
    pub full_journal_name: String,
    /// `PubDate` verbatim (e.g. `2012 Winter`).
    pub pub_date: String,
    /// `ELocationID` (e.g. `doi: 10.1/x. pii: S1`).
    pub elocation_id: String,
    /// `ArticleIds` as (IdType, Value).
    pub article_ids: Vec<(String, String)>,
    /// `PubType/flag` values.
    pub pub_types: Vec<String>,
}

/// ESummary's answer: summaries in the caller's order, and the IDs NCBI
/// answered with an error (or not at all), with its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EsummaryAnswer {
    /// Summaries, in the order the IDs were given.
    pub docs: Vec<DocSum>,
    /// (PMID, NCBI's message) for IDs without a summary.
    pub missing: Vec<(String, String)>,
    /// Summaries answered from the local cache (docs/cache.md), and when
    /// the oldest of them was fetched (Unix seconds).
    pub from_cache: u64,
    /// See `from_cache`.
    pub cache_oldest: Option<i64>,
}

fn text_of(e: &Element, name: &str) -> String {
    e.child_text(name)
        .map(|t| fold_whitespace(&t))
        .unwrap_or_default()
}

fn parse_v2(doc: &Element) -> DocSum {
    let list = |outer: &str, inner: &str, field: Option<&str>| -> Vec<String> {
        doc.child(outer)
            .map(|o| {
                o.children_named(inner)
                    .map(|i| match field {
                        Some(f) => text_of(i, f),
                        None => fold_whitespace(&i.text()),
                    })
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    };
    DocSum {
        uid: doc.attr("uid").unwrap_or_default().trim().to_string(),
        title: text_of(doc, "Title"),
        authors: list("Authors", "Author", Some("Name")),
        source: text_of(doc, "Source"),
        full_journal_name: text_of(doc, "FullJournalName"),
        pub_date: text_of(doc, "PubDate"),
        elocation_id: text_of(doc, "ELocationID"),
        article_ids: doc
            .child("ArticleIds")
            .map(|a| {
                a.children_named("ArticleId")
                    .map(|i| (text_of(i, "IdType"), text_of(i, "Value")))
                    .collect()
            })
            .unwrap_or_default(),
        pub_types: list("PubType", "flag", None),
    }
}

/// ESummary version 1 (`<DocSum>`/`<Item Name=…>`), accepted in case a
/// server answers in it.
fn parse_v1(doc: &Element) -> DocSum {
    let items = |e: &Element, name: &str| -> Vec<Element> {
        e.children_named("Item")
            .filter(|i| i.attr("Name") == Some(name))
            .cloned()
            .collect()
    };
    let one = |name: &str| {
        items(doc, name)
            .first()
            .map(|i| fold_whitespace(&i.text()))
            .unwrap_or_default()
    };
    let list = |name: &str| -> Vec<Element> {
        items(doc, name)
            .first()
            .map(|l| l.children_named("Item").cloned().collect())
            .unwrap_or_default()
    };
    DocSum {
        uid: text_of(doc, "Id"),
        title: one("Title"),
        authors: list("AuthorList")
            .iter()
            .map(|a| fold_whitespace(&a.text()))
            .collect(),
        source: one("Source"),
        full_journal_name: one("FullJournalName"),
        pub_date: one("PubDate"),
        elocation_id: one("ELocationID"),
        article_ids: list("ArticleIds")
            .iter()
            .map(|a| {
                (
                    a.attr("Name").unwrap_or_default().to_string(),
                    fold_whitespace(&a.text()),
                )
            })
            .collect(),
        pub_types: list("PubTypeList")
            .iter()
            .map(|a| fold_whitespace(&a.text()))
            .collect(),
    }
}

/// What [`read`] took out of an ESummary answer as it was read: every
/// `DocumentSummary` of the first `DocumentSummarySet` (v2) and every
/// root-level `DocSum` (v1), parsed, in document order.
#[derive(Debug, Default)]
pub struct Taken {
    /// v2: summaries, and (uid, NCBI's text) of `<DocumentSummary uid><error>`.
    v2: Vec<DocSum>,
    v2_missing: Vec<(String, String)>,
    /// v1 `DocSum`s (used only when the answer has no `DocumentSummarySet`).
    v1: Vec<DocSum>,
}

/// Whether `e` holds an `<ERROR>` with text: such a record is taken and
/// also stays in the tree, so that the answer's `<ERROR>` check
/// (`classify`) sees it.
fn has_error_text(e: &Element) -> bool {
    let mut found = Vec::new();
    e.descendants("ERROR", &mut found);
    found.iter().any(|e| !fold_whitespace(&e.text()).is_empty())
}

/// Reads an ESummary body one record at a time ([`xml::parse_with`]):
/// each `DocumentSummary` (v2) or `DocSum` (v1) is parsed into a
/// [`DocSum`] when it closes and its tree dropped, so an answer of 1,000
/// rich summaries never exists as one tree (docs/search.md "Memory").
/// Returns the rest of the document (root, `<ERROR>`s, records of a second
/// `DocumentSummarySet`, which [`parse`] ignores too, are dropped) and
/// what was taken; [`parse_taken`] finishes the answer exactly as
/// [`parse`] does for the whole tree.
///
/// Errors: as [`xml::parse`].
pub fn read(body: &str) -> Result<(Element, Taken), xml::XmlError> {
    let mut taken = Taken::default();
    let root = xml::parse_with(body, |open, el| {
        let under = |names: &[&str]| {
            open.len() == names.len() && open.iter().zip(names).all(|(e, n)| e.name == *n)
        };
        if el.name == "DocumentSummary" && under(&["eSummaryResult", "DocumentSummarySet"]) {
            // Only the first set counts (as `parse`'s `child`); the open
            // set is not yet a child of the root.
            if open[0].child("DocumentSummarySet").is_none() {
                let uid = el.attr("uid").unwrap_or_default().trim().to_string();
                match el.child("error") {
                    Some(err) => taken.v2_missing.push((uid, fold_whitespace(&err.text()))),
                    None => taken.v2.push(parse_v2(&el)),
                }
            }
        } else if el.name == "DocSum" && under(&["eSummaryResult"]) {
            taken.v1.push(parse_v1(&el));
        } else {
            return Some(el);
        }
        has_error_text(&el).then_some(el)
    })?;
    Ok((root, taken))
}

/// The answer from what [`read`] left and took: [`parse`]'s result for
/// the same body.
///
/// Errors: as [`parse`].
pub fn parse_taken(root: &Element, taken: Taken) -> Result<EsummaryAnswer, String> {
    if root.name != "eSummaryResult" {
        return Err(format!("expected <eSummaryResult>, found <{}>", root.name));
    }
    let mut answer = EsummaryAnswer::default();
    if root.child("DocumentSummarySet").is_some() {
        answer.docs = taken.v2;
        answer.missing = taken.v2_missing;
    } else {
        answer.docs = taken.v1;
    }
    if answer.docs.iter().any(|d| d.uid.is_empty()) {
        return Err("a document summary has no uid".into());
    }
    Ok(answer)
}

/// Parses an `eSummaryResult` root into summaries in document order and
/// per-ID errors (`<DocumentSummary uid><error>…`). The client reads
/// answers with [`read`] and [`parse_taken`] instead, which give the same
/// result without the whole tree; this is their reference in tests.
pub fn parse(root: &Element) -> Result<EsummaryAnswer, String> {
    if root.name != "eSummaryResult" {
        return Err(format!("expected <eSummaryResult>, found <{}>", root.name));
    }
    let mut answer = EsummaryAnswer::default();
    if let Some(set) = root.child("DocumentSummarySet") {
        for doc in set.children_named("DocumentSummary") {
            let uid = doc.attr("uid").unwrap_or_default().trim().to_string();
            match doc.child("error") {
                Some(err) => answer.missing.push((uid, fold_whitespace(&err.text()))),
                None => answer.docs.push(parse_v2(doc)),
            }
        }
    } else {
        answer.docs = root.children_named("DocSum").map(parse_v1).collect();
    }
    if answer.docs.iter().any(|d| d.uid.is_empty()) {
        return Err("a document summary has no uid".into());
    }
    Ok(answer)
}

impl Client {
    /// One ESummary request for `ids` of `db` (POST above 200 IDs). A
    /// top-level "not found" answer gives every ID NCBI's text as missing.
    async fn esummary_once(&self, db: Db, ids: &[String]) -> Result<EsummaryAnswer, (Error, bool)> {
        let req = self.eutils_request(
            "esummary.fcgi",
            db,
            vec![("id", ids.join(",")), ("version", "2.0".to_string())],
            ids.len(),
        );
        let answer = self
            .execute_halvable(ENDPOINT, &req, ids.len(), MIN_TIMEOUT_SPLIT, |resp| {
                classify::classify_xml_streamed(&resp, ENDPOINT, read, parse_taken)
            })
            .await;
        match answer {
            Err((e, _)) if e.reason == Reason::NcbiResourceNotFound => Ok(EsummaryAnswer {
                docs: Vec::new(),
                missing: ids
                    .iter()
                    .map(|id| (id.clone(), e.message.clone()))
                    .collect(),
                ..Default::default()
            }),
            other => other,
        }
    }

    /// Summaries for one chunk of `pmids` of `db` (at most [`ESUMMARY_BATCH`] for
    /// one request; more are sent in one request too), halved when NCBI
    /// times out, the body is over the cap or NCBI refuses the number of
    /// UIDs: the parts in `pmids` order, each with its answer (docs in the
    /// answer's order) or its failure after retries.
    pub async fn esummary_parts(&self, db: Db, pmids: Vec<String>) -> Vec<Part<EsummaryAnswer>> {
        halving::run(
            pmids,
            |ids| async move { self.esummary_once(db, &ids).await },
        )
        .await
    }

    /// Summaries for `pmids` of `db`, in chunks of [`ESUMMARY_BATCH`] (by POST),
    /// kept flowing through the pacer, halved as
    /// [`Client::esummary_parts`] says, and returned in `pmids` order. An
    /// ID NCBI answers with an error, or not at all, is in `missing` with
    /// NCBI's text; it is never dropped silently.
    ///
    /// Errors: the first part that failed after retries and halving.
    pub async fn esummary(&self, db: Db, pmids: &[String]) -> Result<EsummaryAnswer> {
        let cache = self.cache().filter(|_| db == Db::Pubmed);
        let (mut by_uid, wanted, oldest) = match cache {
            Some(c) => from_cache(c, pmids),
            None => (HashMap::new(), pmids.to_vec(), None),
        };
        let from_cache = by_uid.len() as u64;
        // Owned chunks keep this future `Send` (borrowed ones trip rustc's
        // higher-ranked lifetime inference inside MCP handlers).
        let chunks: Vec<Vec<String>> = wanted
            .chunks(ESUMMARY_BATCH)
            .map(<[String]>::to_vec)
            .collect();
        let mut batches = futures::stream::iter(chunks)
            .map(|chunk| self.esummary_parts(db, chunk))
            .buffered(self.settings().policy.max_in_flight.max(1));
        let mut fetched: Vec<DocSum> = Vec::new();
        let mut errors: HashMap<String, String> = HashMap::new();
        while let Some(parts) = batches.next().await {
            for part in parts {
                let b = part.result?;
                fetched.extend(b.docs);
                errors.extend(b.missing);
            }
        }
        // Stored only once every part answered (docs/cache.md "Never
        // stored"), and only the PMIDs asked for.
        if let Some(c) = cache.filter(|c| c.mode().writes()) {
            store(c, &wanted, &fetched);
        }
        by_uid.extend(fetched.into_iter().map(|d| (d.uid.clone(), d)));
        let mut answer = in_order(pmids, by_uid, &errors);
        answer.from_cache = from_cache;
        answer.cache_oldest = oldest;
        Ok(answer)
    }
}

/// The fresh cached summaries of `pmids` by PMID, the PMIDs to ask NCBI
/// for (first occurrences, in order), and when the oldest hit was fetched.
fn from_cache(
    cache: &crate::cache::Cache,
    pmids: &[String],
) -> (HashMap<String, DocSum>, Vec<String>, Option<i64>) {
    let mut hits = HashMap::new();
    let mut wanted = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut oldest: Option<i64> = None;
    for id in pmids {
        if !seen.insert(id.as_str()) {
            continue;
        }
        let doc = cache.get_with(crate::cache::Kind::Esummary, id, |h| {
            serde_json::from_str::<DocSum>(&h.body)
                .ok()
                .filter(|d| d.uid == *id)
        });
        match doc {
            Some((d, at)) => {
                oldest = Some(oldest.map_or(at, |o| o.min(at)));
                hits.insert(id.clone(), d);
            }
            None => wanted.push(id.clone()),
        }
    }
    (hits, wanted, oldest)
}

/// Stores the summaries of `docs` whose PMID was asked for (`wanted`).
fn store(cache: &crate::cache::Cache, wanted: &[String], docs: &[DocSum]) {
    let asked: std::collections::HashSet<&str> = wanted.iter().map(String::as_str).collect();
    let bodies: Vec<(&str, String)> = docs
        .iter()
        .filter(|d| asked.contains(d.uid.as_str()))
        .filter_map(|d| Some((d.uid.as_str(), serde_json::to_string(d).ok()?)))
        .collect();
    cache.put(
        crate::cache::Kind::Esummary,
        bodies.iter().map(|(k, b)| (*k, b.as_str(), None)),
    );
}

/// The answer for `pmids` in their order from summaries by PMID and NCBI's
/// per-ID errors; a PMID with neither is missing with a note.
pub fn in_order(
    pmids: &[String],
    mut by_uid: HashMap<String, DocSum>,
    errors: &HashMap<String, String>,
) -> EsummaryAnswer {
    let mut answer = EsummaryAnswer::default();
    for id in pmids {
        match by_uid.remove(id) {
            Some(d) => answer.docs.push(d),
            None => answer.missing.push((
                id.clone(),
                errors
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| "ESummary returned no summary for this PMID".into()),
            )),
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ncbi::xml;

    fn body(name: &str) -> String {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    }

    /// A capture read as the client reads it (one record at a time).
    fn capture(name: &str) -> EsummaryAnswer {
        let (root, taken) = read(&body(name)).unwrap();
        parse_taken(&root, taken).unwrap()
    }

    /// The streamed read gives the whole tree's answer and leaves the
    /// same `<ERROR>` texts for the answer's check, on every ESummary XML
    /// capture (v1, v2, per-uid errors, top-level ERRORs).
    #[test]
    fn streamed_read_matches_the_tree_on_every_capture() {
        let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with("esummary") && n.ends_with(".xml"))
            .collect();
        names.sort();
        assert!(names.len() >= 6, "{names:?}");
        for name in &names {
            let text = body(name);
            let tree = xml::parse(&text).unwrap();
            let (left, taken) = read(&text).unwrap();
            assert_eq!(
                crate::ncbi::classify::error_texts(&left),
                crate::ncbi::classify::error_texts(&tree),
                "{name}"
            );
            assert_eq!(parse_taken(&left, taken), parse(&tree), "{name}");
            // The records were taken out, not kept in the tree.
            let mut kept = Vec::new();
            left.descendants("DocumentSummary", &mut kept);
            left.descendants("DocSum", &mut kept);
            assert!(kept.is_empty(), "{name}");
        }
        // The captures' per-uid error and top-level ERRORs, as NCBI wrote them.
        assert_eq!(
            capture("esummary_v2_pmc_with_error_2012.xml").missing,
            vec![("1".to_string(), "cannot get document summary".to_string())]
        );
        let (left, _) = read(&body("esummary_v1_error_invalid_uids.xml")).unwrap();
        assert_eq!(
            crate::ncbi::classify::error_texts(&left),
            vec![
                "Invalid uid gwa2_scaffold_1731_16S_1 at position= 0",
                "Invalid uid asdfadfs at position= 24"
            ]
        );
    }

    /// Records holding an `<ERROR>` stay in the tree for the answer's
    /// check; a second `DocumentSummarySet` is ignored, as by the tree
    /// parse; a record outside `eSummaryResult` is not taken.
    #[test]
    fn streamed_read_keeps_errors_and_ignores_what_parse_ignores() {
        let text = "<eSummaryResult><DocumentSummarySet>\
            <DocumentSummary uid=\"1\"><Title>A</Title></DocumentSummary>\
            <DocumentSummary uid=\"2\"><ERROR>Backend down</ERROR></DocumentSummary>\
            </DocumentSummarySet><DocumentSummarySet>\
            <DocumentSummary uid=\"3\"><Title>C</Title></DocumentSummary>\
            </DocumentSummarySet><DocSum><Id>4</Id></DocSum></eSummaryResult>";
        let tree = xml::parse(text).unwrap();
        let (left, taken) = read(text).unwrap();
        assert_eq!(
            crate::ncbi::classify::error_texts(&left),
            vec!["Backend down"]
        );
        let a = parse_taken(&left, taken).unwrap();
        assert_eq!(a, parse(&tree).unwrap());
        let uids: Vec<&str> = a.docs.iter().map(|d| d.uid.as_str()).collect();
        assert_eq!(uids, ["1", "2"]);
        let mut kept = Vec::new();
        left.descendants("DocumentSummary", &mut kept);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].attr("uid"), Some("2"));
        assert_eq!(a.docs[0].title, "A");

        let other = "<other><DocumentSummarySet><DocumentSummary uid=\"1\"/>\
            </DocumentSummarySet></other>";
        let (left, taken) = read(other).unwrap();
        assert_eq!(left.elements().count(), 1);
        assert_eq!(
            parse_taken(&left, taken),
            Err("expected <eSummaryResult>, found <other>".to_string())
        );
    }

    #[test]
    fn v2_pubmed_capture() {
        let a = capture("esummary_v2_pubmed_2012.xml");
        assert_eq!(a.docs.len(), 2);
        let d = &a.docs[1];
        assert_eq!(d.uid, "22144687");
        assert_eq!(d.title, "GenBank.");
        assert_eq!(
            d.authors,
            vec![
                "Benson DA",
                "Karsch-Mizrachi I",
                "Clark K",
                "Lipman DJ",
                "Ostell J",
                "Sayers EW"
            ]
        );
        assert_eq!(d.source, "Nucleic Acids Res");
        assert_eq!(d.full_journal_name, "Nucleic acids research");
        assert_eq!(d.pub_date, "2012 Jan");
        assert_eq!(d.pub_types, vec!["Journal Article"]);
        assert!(d.article_ids.contains(&("pmc".into(), "PMC3245039".into())));
        assert!(
            d.article_ids
                .contains(&("pmcid".into(), "pmc-id: PMC3245039;".into()))
        );
        assert_eq!(a.docs[0].uid, "5683731");
    }

    #[test]
    fn per_uid_error_is_missing() {
        let a = capture("esummary_v2_pmc_with_error_2012.xml");
        assert_eq!(a.docs.len(), 2);
        assert_eq!(
            a.missing,
            vec![("1".to_string(), "cannot get document summary".to_string())]
        );
    }

    #[test]
    fn v1_capture_parses_the_same_fields() {
        let a = capture("esummary_v1_pubmed.xml");
        assert_eq!(a.docs.len(), 2);
        let d = &a.docs[1];
        assert_eq!(d.uid, "11482001");
        assert_eq!(d.authors, vec!["Mantle D", "Gok MA", "Lennard TW"]);
        assert_eq!(d.pub_types, vec!["Journal Article", "Review"]);
        assert_eq!(d.pub_date, "2001 Jun");
    }
}
