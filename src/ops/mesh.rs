//! `mesh` / `pubmed_lookup_mesh`: MeSH records for a term or a UI, with
//! the clauses to paste into a search, the descriptors an SCR maps to,
//! and (`tree`) each tree position's parent and children (docs/mesh.md).
//! One core for the CLI and the MCP tool.
//!
//! Requests: ESearch `db=mesh` (none for a 7-character UI, whose ESummary
//! UID is known), one ESummary for the records, and one more ESummary for
//! the headings an SCR maps to and, with `tree`, the parents and children.

use std::collections::HashMap;

use serde::Serialize;

use crate::core::mesh::{self, Clauses, MeshRecord, RecordKind};
use crate::error::{Error, Reason, Result};
use crate::ncbi::esearch::EsearchParams;
use crate::ncbi::mesh::MESH_MAX_RECORDS;
use crate::ncbi::{Client, Db};

/// What to look up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshRequest {
    /// A term (`heart attack`) or a UI (`D009203`).
    pub term: String,
    /// Also give each tree position's parent and children.
    pub tree: bool,
    /// Records to show, 1 to [`MESH_MAX_RECORDS`].
    pub max: usize,
}

/// Another heading named by UI and name (a parent, a child, a mapping).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Heading {
    /// The MeSH UI (empty when NCBI gives none).
    pub ui: String,
    /// The heading.
    pub name: String,
    /// Its tree number at this position (parents and children only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree_number: Option<String>,
}

/// One tree position of a descriptor, with the headings above and below.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TreePlace {
    /// The descriptor's tree number here (`C14.280.647.500`).
    pub tree_number: String,
    /// The heading above (none at a tree's top).
    pub parent: Option<Heading>,
    /// The headings below, in NCBI's order.
    pub children: Vec<Heading>,
}

/// One record of the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeshEntry {
    /// The record's fields.
    #[serde(flatten)]
    pub record: MeshRecord,
    /// `descriptor`, `supplementary` or `qualifier`.
    pub kind: RecordKind,
    /// The clauses to paste into a PubMed search (an SCR's is `[nm]`).
    pub search: Clauses,
    /// The descriptors an SCR maps to (empty for a descriptor).
    pub mapped_to: Vec<Heading>,
    /// With `tree`: the descriptor's tree positions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<Vec<TreePlace>>,
}

/// The answer: `{query, count, records}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeshOutcome {
    /// The term or UI as given.
    pub query: String,
    /// Records MeSH holds for it (ESearch `Count`); `records` shows at most
    /// `max` of them.
    pub count: u64,
    /// The records, in MeSH's order.
    pub records: Vec<MeshEntry>,
}

/// Checks a request before any request is sent: a visible term,
/// `max` within 1..=[`MESH_MAX_RECORDS`].
pub fn check(req: &MeshRequest) -> Result<()> {
    crate::ops::spell::check_query(&req.term)?;
    if req.max == 0 || req.max > MESH_MAX_RECORDS {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!("the number of MeSH records must be 1 to {MESH_MAX_RECORDS}"),
        ));
    }
    Ok(())
}

/// The error of a lookup that found nothing: `ncbi_resource_not_found`
/// (exit 1) with the hint to check the spelling.
pub fn none_found(term: &str) -> Error {
    Error::new(
        Reason::NcbiResourceNotFound,
        format!("MeSH has no record for {term:?}"),
    )
    .with_hint(format!(
        "check the spelling (`pubmed spell {term:?}`), try a broader or British/American spelling, or search it as free text ([tiab])"
    ))
}

/// Looks `req.term` up in MeSH.
///
/// Errors: `blank_query`, `invalid_argument` (no request); no record is
/// `ncbi_resource_not_found` ([`none_found`]); client errors otherwise.
pub async fn lookup(client: &Client, req: &MeshRequest) -> Result<MeshOutcome> {
    check(req)?;
    let term = req.term.trim();
    let (count, uids) = match mesh::uid_from_ui(term) {
        Some(uid) => (1, vec![uid]),
        None => {
            let p = EsearchParams {
                term: mesh::search_term(term),
                retmax: req.max as u32,
                ..EsearchParams::default()
            };
            let a = client.esearch(Db::Mesh, &p).await?;
            (a.count, a.ids)
        }
    };
    if uids.is_empty() {
        return Err(none_found(term));
    }
    let records = client.mesh_summaries(&uids).await?;
    if records.is_empty() {
        return Err(none_found(term));
    }
    let others = related_uids(&records, req.tree);
    let others: HashMap<String, MeshRecord> = client
        .mesh_summaries(&others)
        .await?
        .into_iter()
        .map(|r| (r.uid.clone(), r))
        .collect();
    Ok(MeshOutcome {
        query: req.term.clone(),
        count: count.max(records.len() as u64),
        records: records
            .into_iter()
            .map(|r| entry(r, &others, req.tree))
            .collect(),
    })
}

/// The UIDs the answer names beyond `records`: mapped headings, and with
/// `tree` every parent and child, each once, at most
/// [`MESH_MAX_RECORDS`] (in order: mappings, then parents, then children).
pub fn related_uids(records: &[MeshRecord], tree: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |u: &str| {
        if !u.is_empty() && !out.iter().any(|o| o == u) {
            out.push(u.to_string());
        }
    };
    for r in records {
        r.mapped_to_uids.iter().for_each(|u| push(u));
    }
    if tree {
        for r in records {
            for l in r
                .links
                .iter()
                .filter(|l| !mesh::is_tree_pointer(&l.tree_number))
            {
                push(&l.parent_uid);
            }
        }
        for r in records {
            for l in r
                .links
                .iter()
                .filter(|l| !mesh::is_tree_pointer(&l.tree_number))
            {
                l.children_uids.iter().for_each(|u| push(u));
            }
        }
    }
    out.truncate(MESH_MAX_RECORDS);
    out
}

fn heading(
    uid: &str,
    others: &HashMap<String, MeshRecord>,
    tree_number: Option<String>,
) -> Heading {
    match others.get(uid) {
        Some(r) => Heading {
            ui: r.ui.clone(),
            name: r.name.clone(),
            tree_number,
        },
        None => Heading {
            ui: mesh::ui_from_uid(uid).unwrap_or_default(),
            name: String::new(),
            tree_number,
        },
    }
}

/// One entry from a record and the related records by UID (pure).
pub fn entry(record: MeshRecord, others: &HashMap<String, MeshRecord>, tree: bool) -> MeshEntry {
    let mapped_to = record
        .mapped_to_uids
        .iter()
        .map(|u| heading(u, others, None))
        .collect();
    let tree = tree.then(|| {
        record
            .links
            .iter()
            .filter(|l| !l.tree_number.is_empty() && !mesh::is_tree_pointer(&l.tree_number))
            .map(|l| {
                let t = &l.tree_number;
                let parent = mesh::parent_tree_number(t)
                    .map(|p| heading(&l.parent_uid, others, Some(p.to_string())));
                let children = l
                    .children_uids
                    .iter()
                    .map(|u| {
                        let n = others.get(u).and_then(|c| {
                            c.tree_numbers
                                .iter()
                                .find(|ct| mesh::is_child_of(ct, t))
                                .cloned()
                        });
                        heading(u, others, n)
                    })
                    .collect();
                TreePlace {
                    tree_number: t.clone(),
                    parent,
                    children,
                }
            })
            .collect()
    });
    MeshEntry {
        kind: record.kind(),
        search: mesh::clauses(&record.name, record.kind()),
        mapped_to,
        tree,
        record,
    }
}

/// What MeSH says of one `search --mesh` value ([`check_headings`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadingCheck {
    /// The value is the heading of a current descriptor: search it as typed.
    Heading,
    /// The value is a UI; this is its record: search the record's name
    /// under the record's tag ([`mesh::clauses`]).
    Named(MeshRecord),
    /// The value is not a current descriptor's heading (nor a UI MeSH
    /// knows): searched as typed, with the closest record when the lookup
    /// found one (the descriptor whose entry term it is, or the
    /// supplementary concept or qualifier it names).
    NotDescriptor(Option<MeshRecord>),
}

/// The ESearch `db=mesh` term that finds every value's record at once
/// (`"Name"[mh] OR D000072669[mhui]`), and the ESummary UIDs known
/// without it (7-character UIs). `None` when no value needs ESearch.
pub fn heading_lookup(values: &[String]) -> (Option<String>, Vec<String>) {
    let mut clauses: Vec<String> = Vec::new();
    let mut uids: Vec<String> = Vec::new();
    for v in values.iter().map(|v| v.trim()) {
        if mesh::is_ui(v) {
            match mesh::uid_from_ui(v) {
                Some(u) => uids.push(u),
                None => clauses.push(mesh::search_term(v)),
            }
        } else {
            let n: String = v.chars().filter(|c| *c != '"').collect();
            clauses.push(format!("\"{n}\"[mh]"));
        }
    }
    clauses.dedup();
    ((!clauses.is_empty()).then(|| clauses.join(" OR ")), uids)
}

fn folded(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Judges each value against the records the lookup found (pure): a UI
/// is [`HeadingCheck::Named`] by its record (or not known); a name is a
/// [`HeadingCheck::Heading`] when a descriptor's heading is that name
/// (case and blank runs ignored), else the record naming it (heading of
/// another kind, or entry term) is the closest.
pub fn judge_headings(values: &[String], records: &[MeshRecord]) -> Vec<HeadingCheck> {
    values
        .iter()
        .map(|v| {
            let v = v.trim();
            if mesh::is_ui(v) {
                return match records.iter().find(|r| r.ui == v) {
                    Some(r) => HeadingCheck::Named(r.clone()),
                    None => HeadingCheck::NotDescriptor(None),
                };
            }
            let n: String = v.chars().filter(|c| *c != '"').collect();
            let heading = records.iter().find(|r| mesh::names_heading(r, &n));
            match heading {
                Some(r) if r.kind() == RecordKind::Descriptor => HeadingCheck::Heading,
                Some(r) => HeadingCheck::NotDescriptor(Some(r.clone())),
                None => HeadingCheck::NotDescriptor(
                    records
                        .iter()
                        .find(|r| r.entry_terms.iter().any(|t| folded(t) == folded(&n)))
                        .cloned(),
                ),
            }
        })
        .collect()
}

/// Checks `search --mesh` values against MeSH (docs/search.md "MeSH
/// check"): one ESearch `db=mesh` for the names and 10-character UIs
/// together ([`heading_lookup`]; none when every value is a 7-character
/// UI), then ESummary for the records found, [`MESH_MAX_RECORDS`] UIDs a
/// request (one request for up to 20 records). One [`HeadingCheck`] per
/// value, in order.
///
/// Errors: the client's (the caller turns them into a warning: a failed
/// check never fails a search).
pub async fn check_headings(client: &Client, values: &[String]) -> Result<Vec<HeadingCheck>> {
    let (term, mut uids) = heading_lookup(values);
    if let Some(term) = term {
        let p = EsearchParams {
            term,
            retmax: (MESH_MAX_RECORDS * values.len()).min(500) as u32,
            ..EsearchParams::default()
        };
        for id in client.esearch(Db::Mesh, &p).await?.ids {
            if !uids.contains(&id) {
                uids.push(id);
            }
        }
    }
    let mut records = Vec::new();
    for chunk in uids.chunks(MESH_MAX_RECORDS) {
        records.extend(client.mesh_summaries(chunk).await?);
    }
    Ok(judge_headings(values, &records))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(ui: &str, name: &str, entry: &[&str]) -> MeshRecord {
        MeshRecord {
            ui: ui.into(),
            name: name.into(),
            entry_terms: entry.iter().map(|s| s.to_string()).collect(),
            ..MeshRecord::default()
        }
    }

    #[test]
    fn one_esearch_for_names_and_long_uis_none_for_short_uis() {
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            heading_lookup(&v(&["Asthma", "D009203", "D000072669", "Child"])),
            (
                Some("\"Asthma\"[mh] OR D000072669[mhui] OR \"Child\"[mh]".into()),
                vec!["68009203".to_string()]
            )
        );
        assert_eq!(
            heading_lookup(&v(&["D009203", "C414177"])),
            (None, vec!["68009203".to_string(), "67414177".to_string()])
        );
    }

    #[test]
    fn headings_entry_terms_and_unknown_names() {
        let mi = rec("D009203", "Myocardial Infarction", &["Heart Attack"]);
        let scr = rec("C414177", "SLC7A2 protein, human", &[]);
        let records = vec![mi.clone(), scr.clone()];
        let values: Vec<String> = [
            "myocardial  infarction",
            "Heart Attack",
            "Myocardial Infarctoin",
            "D009203",
            "D999999",
            "SLC7A2 protein, human",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            judge_headings(&values, &records),
            vec![
                HeadingCheck::Heading,
                HeadingCheck::NotDescriptor(Some(mi.clone())),
                HeadingCheck::NotDescriptor(None),
                HeadingCheck::Named(mi),
                HeadingCheck::NotDescriptor(None),
                HeadingCheck::NotDescriptor(Some(scr)),
            ]
        );
    }
}
