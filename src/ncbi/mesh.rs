//! MeSH records from ESummary `db=mesh` (version 2.0 XML, `DS_*` fields):
//! one request, parsed into [`MeshRecord`]s (docs/mesh.md). Finding the
//! UIDs is ESearch on [`Db::Mesh`].
//!
//! The local cache (docs/cache.md) keeps NCBI's bytes per UID: one
//! `<DocumentSummary>` element, re-parsed on a hit, so a lookup sends only
//! the UIDs it does not hold.

use std::collections::HashMap;
use std::ops::Range;

use quick_xml::Reader;
use quick_xml::events::Event;
use quick_xml::name::QName;

use super::classify::{self, Refusal};
use super::client::Client;
use super::db::Db;
use super::pacer::Lane;
use super::xml::{self, Element};
use crate::cache::Kind;
use crate::core::mesh::{self, MeshRecord, TreeLink};
use crate::core::text::fold_whitespace;
use crate::error::Result;

/// MeSH records one `pubmed mesh` lookup shows (ESearch `retmax` on
/// `db=mesh`), and UIDs per MeSH ESummary request: this client's choice,
/// not an NCBI limit, well inside
/// [`POST_ABOVE_IDS`](super::limits::POST_ABOVE_IDS) (docs/mesh.md
/// "Requests").
pub const MESH_MAX_RECORDS: usize = 20;

fn strings(doc: &Element, name: &str) -> Vec<String> {
    doc.child(name)
        .map(|l| {
            l.children_named("string")
                .map(|s| fold_whitespace(&s.text()))
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn ints(e: Option<&Element>) -> Vec<String> {
    e.map(|l| {
        l.children_named("int")
            .map(|s| s.text().trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

fn one(doc: &Element, name: &str) -> String {
    doc.child_text(name)
        .map(|s| fold_whitespace(&s))
        .unwrap_or_default()
}

/// One `<DocumentSummary>` of `db=mesh` as a record.
pub fn parse_record(doc: &Element) -> Result<MeshRecord, String> {
    let uid = doc.attr("uid").unwrap_or_default().trim().to_string();
    if uid.is_empty() {
        return Err("a MeSH document summary has no uid".into());
    }
    let ui = match one(doc, "DS_MeSHUI") {
        s if !s.is_empty() => s,
        _ => mesh::ui_from_uid(&uid).unwrap_or_default(),
    };
    let mut terms = strings(doc, "DS_MeshTerms").into_iter();
    let links: Vec<TreeLink> = doc
        .child("DS_IdxLinks")
        .map(|l| {
            l.children_named("LinksType")
                .map(|t| TreeLink {
                    tree_number: t
                        .child_text("TreeNum")
                        .unwrap_or_default()
                        .trim()
                        .to_string(),
                    parent_uid: t
                        .child_text("Parent")
                        .unwrap_or_default()
                        .trim()
                        .to_string(),
                    children_uids: ints(t.child("Children")),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(MeshRecord {
        ui,
        name: terms.next().unwrap_or_default(),
        entry_terms: terms.collect(),
        scope_note: one(doc, "DS_ScopeNote"),
        tree_numbers: links
            .iter()
            .map(|l| l.tree_number.clone())
            .filter(|t| !t.is_empty() && !mesh::is_tree_pointer(t))
            .collect(),
        allowable_qualifiers: strings(doc, "DS_Subheading"),
        year_introduced: one(doc, "DS_YearIntroduced"),
        previous_indexing: strings(doc, "DS_PreviousIndexing"),
        see_related: strings(doc, "DS_SeeRelated"),
        mapped_to_uids: ints(doc.child("DS_HeadingMappedToList")),
        links,
        uid,
    })
}

/// Parses an `eSummaryResult` of `db=mesh`: records in document order; a
/// per-UID `<error>` leaves that UID out (the caller compares UIDs).
pub fn parse(root: &Element) -> Result<Vec<MeshRecord>, String> {
    if root.name != "eSummaryResult" {
        return Err(format!("expected <eSummaryResult>, found <{}>", root.name));
    }
    let Some(set) = root.child("DocumentSummarySet") else {
        return Err("no <DocumentSummarySet>".into());
    };
    set.children_named("DocumentSummary")
        .filter(|d| d.child("error").is_none())
        .map(parse_record)
        .collect()
}

/// The byte ranges of the `<DocumentSummary>` elements directly inside
/// `eSummaryResult/DocumentSummarySet`, in document order, found with a
/// streaming reader; `None` when the body is not well-formed or cut short
/// (nothing is then stored).
pub fn split_summaries(body: &str) -> Option<Vec<Range<usize>>> {
    let mut reader = Reader::from_str(body);
    reader.config_mut().check_end_names = true;
    let mut depth = 0usize;
    let mut out = Vec::new();
    loop {
        let before = reader.buffer_position() as usize;
        match reader.read_event().ok()? {
            Event::Start(e) if depth == 2 && e.name().as_ref() == "DocumentSummary" => {
                reader.read_to_end(QName("DocumentSummary")).ok()?;
                out.push(before..reader.buffer_position() as usize);
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.checked_sub(1)?,
            Event::Eof => return (depth == 0).then_some(out),
            _ => {}
        }
    }
}

/// The record of one cached `<DocumentSummary>` element (NCBI's bytes);
/// `None` when it no longer parses (then it is asked again).
fn cached_record(body: &str) -> Option<MeshRecord> {
    let el = xml::parse(body).ok()?;
    (el.name == "DocumentSummary" && el.child("error").is_none())
        .then(|| parse_record(&el).ok())
        .flatten()
}

/// The (UID, element bytes) of `body`'s summaries worth keeping: asked for,
/// no `<error>`, a readable record (docs/cache.md "Never stored").
fn storable<'a>(body: &'a str, asked: &[String]) -> Vec<(String, &'a str)> {
    split_summaries(body)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|r| {
            let bytes = &body[r];
            let rec = cached_record(bytes)?;
            asked.contains(&rec.uid).then_some((rec.uid, bytes))
        })
        .collect()
}

impl Client {
    /// The MeSH records of ESummary `uids` (`db=mesh`, `version=2.0`), one
    /// request of at most [`MESH_MAX_RECORDS`] UIDs (the caller caps), in
    /// the order of `uids`; a UID NCBI does not know is absent. UIDs the
    /// local cache holds fresh (kind `mesh`, 30 days) are not asked; the
    /// others' summaries are stored once the request succeeded.
    ///
    /// Errors: as every E-utilities XML call (docs/client.md); a body that
    /// is not a MeSH `eSummaryResult` is `ncbi_invalid_response`.
    pub async fn mesh_summaries(&self, uids: &[String]) -> Result<Vec<MeshRecord>> {
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        let ids = &uids[..uids.len().min(MESH_MAX_RECORDS)];
        let cache = self.cache();
        let mut by_uid: HashMap<String, MeshRecord> = HashMap::new();
        if let Some(c) = cache {
            for id in ids {
                if let Some((r, _)) = c.get_with(Kind::Mesh, id, |h| cached_record(&h.body)) {
                    by_uid.insert(id.clone(), r);
                }
            }
        }
        let mut wanted: Vec<String> = Vec::new();
        for id in ids {
            if !by_uid.contains_key(id) && !wanted.contains(id) {
                wanted.push(id.clone());
            }
        }
        let mut extra = Vec::new();
        if !wanted.is_empty() {
            let keep = cache.is_some_and(|c| c.mode().writes());
            let (records, body) = self.mesh_asked(&wanted, keep).await?;
            if let (Some(c), Some(body)) = (cache, body) {
                let items = storable(&body, &wanted);
                c.put(
                    Kind::Mesh,
                    items.iter().map(|(u, b)| (u.as_str(), *b, None)),
                );
            }
            for r in records {
                if wanted.contains(&r.uid) && !by_uid.contains_key(&r.uid) {
                    by_uid.insert(r.uid.clone(), r);
                } else {
                    extra.push(r);
                }
            }
        }
        // The order asked (NCBI answers in that order too), so a run from
        // the cache writes what a run without it writes.
        let mut out: Vec<MeshRecord> = ids.iter().filter_map(|u| by_uid.remove(u)).collect();
        out.extend(extra);
        Ok(out)
    }

    /// One ESummary request for `ids`; with `keep`, the body too (for the
    /// cache).
    async fn mesh_asked(
        &self,
        ids: &[String],
        keep: bool,
    ) -> Result<(Vec<MeshRecord>, Option<String>)> {
        let req = self.eutils_request(
            "esummary.fcgi",
            Db::Mesh,
            vec![("id", ids.join(",")), ("version", "2.0".to_string())],
            ids.len(),
        );
        self.execute("ESummary", Lane::Eutils, &req, |resp| {
            classify::classify_xml_checked(&resp, "ESummary", |root| {
                let records = parse(root).map_err(Refusal::Invalid)?;
                let body = keep.then(|| String::from_utf8_lossy(&resp.body).into_owned());
                Ok((records, body))
            })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ncbi::xml;

    /// The real 2012 capture (tests/fixtures/PROVENANCE.md): an SCR whose
    /// only tree link is a pointer, mapped to one descriptor.
    #[test]
    fn summaries_split_into_ncbis_bytes() {
        let body = include_str!("../../tests/fixtures/esummary_v2_mesh_2012.xml");
        let spans = split_summaries(body).unwrap();
        assert_eq!(spans.len(), 1);
        let el = &body[spans[0].clone()];
        assert!(el.starts_with("<DocumentSummary uid=\"67414177\">"), "{el}");
        assert!(el.ends_with("</DocumentSummary>"), "{el}");
        let r = cached_record(el).unwrap();
        assert_eq!(r, parse(&xml::parse(body).unwrap()).unwrap()[0]);
        assert_eq!(storable(body, &["67414177".to_string()]).len(), 1);
        assert!(storable(body, &["68009203".to_string()]).is_empty());
        // A per-UID error is never kept.
        let err = "<eSummaryResult><DocumentSummarySet status=\"OK\"><DocumentSummary uid=\"1\"><error>cannot get document summary</error></DocumentSummary></DocumentSummarySet></eSummaryResult>";
        assert_eq!(split_summaries(err).unwrap().len(), 1);
        assert!(storable(err, &["1".to_string()]).is_empty());
        assert_eq!(split_summaries("<a><b>"), None);
    }

    #[test]
    fn real_scr_capture() {
        let body = include_str!("../../tests/fixtures/esummary_v2_mesh_2012.xml");
        let r = parse(&xml::parse(body).unwrap()).unwrap();
        assert_eq!(r.len(), 1);
        let r = &r[0];
        assert_eq!(r.uid, "67414177");
        assert_eq!(r.ui, "C414177");
        assert_eq!(r.name, "SLC7A2 protein, human");
        assert_eq!(r.entry_terms.len(), 4);
        assert_eq!(r.entry_terms[0], "hCAT-2 transport protein");
        assert_eq!(r.entry_terms[3], "CAT-2 transporter, human");
        assert_eq!(r.scope_note, "RefSeq NM_003046");
        assert!(r.tree_numbers.is_empty());
        assert_eq!(r.links[0].tree_number, "@3065");
        assert_eq!(r.links[0].parent_uid, "1000048");
        assert_eq!(r.mapped_to_uids, vec!["68026923"]);
        assert_eq!(r.previous_indexing, vec!["CALCIUM CHANNELS (2000-2006)"]);
        assert_eq!(r.year_introduced, "");
        assert!(r.allowable_qualifiers.is_empty());
        assert_eq!(r.kind(), mesh::RecordKind::Supplementary);
    }
}
