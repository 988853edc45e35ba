//! MeSH records from ESummary `db=mesh` (version 2.0 XML, `DS_*` fields):
//! one request, parsed into [`MeshRecord`]s (docs/mesh.md). Finding the
//! UIDs is ESearch on [`Db::Mesh`].

use super::classify::Refusal;
use super::client::Client;
use super::db::Db;
use super::limits::MESH_MAX_RECORDS;
use super::xml::Element;
use crate::core::mesh::{self, MeshRecord, TreeLink};
use crate::core::text::fold_whitespace;
use crate::error::Result;

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

impl Client {
    /// The MeSH records of ESummary `uids` (`db=mesh`, `version=2.0`), one
    /// request of at most [`MESH_MAX_RECORDS`] UIDs (the caller caps), in
    /// NCBI's order; a UID NCBI does not know is absent.
    ///
    /// Errors: as every E-utilities XML call (docs/client.md); a body that
    /// is not a MeSH `eSummaryResult` is `ncbi_invalid_response`.
    pub async fn mesh_summaries(&self, uids: &[String]) -> Result<Vec<MeshRecord>> {
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        let ids = &uids[..uids.len().min(MESH_MAX_RECORDS)];
        let req = self.eutils_request(
            "esummary.fcgi",
            Db::Mesh,
            vec![("id", ids.join(",")), ("version", "2.0".to_string())],
            ids.len(),
        );
        self.eutils_xml_checked("ESummary", req, |root| {
            parse(root).map_err(Refusal::Invalid)
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
