//! MeSH knowledge with no I/O: record IDs (ESummary `uid` ↔ MeSH UI),
//! tree numbers and their parents, the search clauses of a heading, and
//! whether a `--mesh` value names a descriptor (docs/mesh.md).

use serde::Serialize;

/// The kind of a MeSH record, from its UI's letter (`D…`, `C…`, `Q…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    /// A descriptor (main heading), `D…`.
    Descriptor,
    /// A supplementary concept record (SCR), `C…`: a chemical, protocol
    /// or rare disease mapped to descriptors, with no tree number.
    Supplementary,
    /// A qualifier (subheading), `Q…`.
    Qualifier,
}

impl RecordKind {
    /// The kind as JSON and TSV spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Descriptor => "descriptor",
            RecordKind::Supplementary => "supplementary",
            RecordKind::Qualifier => "qualifier",
        }
    }

    /// The kind of the UI `ui` (`D009203`), by its first letter.
    pub fn of_ui(ui: &str) -> Option<RecordKind> {
        match ui.as_bytes().first() {
            Some(b'D') => Some(RecordKind::Descriptor),
            Some(b'C') => Some(RecordKind::Supplementary),
            Some(b'Q') => Some(RecordKind::Qualifier),
            _ => None,
        }
    }
}

/// One tree position of a record (ESummary `DS_IdxLinks/LinksType`): the
/// tree number, the parent's and the children's ESummary UIDs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeLink {
    /// `TreeNum` (`C14.280.647.500`); an SCR's pointer (`@3065`) is kept
    /// here only in [`MeshRecord::links`], never shown as a tree number.
    pub tree_number: String,
    /// `Parent`: the ESummary UID of the heading above (empty at a root).
    pub parent_uid: String,
    /// `Children/int`: the ESummary UIDs of the headings below.
    pub children_uids: Vec<String>,
}

/// A MeSH record as ESummary (`db=mesh`, version 2.0) describes it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeshRecord {
    /// The ESummary UID (`68009203`).
    #[serde(skip)]
    pub uid: String,
    /// The MeSH UI (`D009203`): `DS_MeSHUI`, else derived from `uid`.
    pub ui: String,
    /// The heading: the first `DS_MeshTerms/string`.
    pub name: String,
    /// `DS_ScopeNote` (empty when NCBI gives none).
    pub scope_note: String,
    /// The other `DS_MeshTerms` strings, in NCBI's order.
    pub entry_terms: Vec<String>,
    /// Tree numbers (`DS_IdxLinks/LinksType/TreeNum`), pointers (`@…`) left out.
    pub tree_numbers: Vec<String>,
    /// `DS_Subheading/string`: the qualifiers allowed with the heading.
    pub allowable_qualifiers: Vec<String>,
    /// `DS_YearIntroduced` (empty when NCBI gives none).
    pub year_introduced: String,
    /// `DS_PreviousIndexing/string`.
    pub previous_indexing: Vec<String>,
    /// `DS_SeeRelated/string`.
    pub see_related: Vec<String>,
    /// `DS_HeadingMappedToList/int`: the ESummary UIDs of the descriptors an
    /// SCR maps to.
    #[serde(skip)]
    pub mapped_to_uids: Vec<String>,
    /// Every `LinksType`, pointers included, for `--tree` and mapping.
    #[serde(skip)]
    pub links: Vec<TreeLink>,
}

impl MeshRecord {
    /// The record's kind by its UI (a descriptor when the UI says nothing).
    pub fn kind(&self) -> RecordKind {
        RecordKind::of_ui(&self.ui).unwrap_or(RecordKind::Descriptor)
    }
}

/// A record's UI from its ESummary UID: the first two digits are the
/// letter's ASCII code (`68009203` → `D009203`, `67414177` → `C414177`,
/// `81000188` → `Q000188`). `None` for a UID of another form (NCBI's
/// newer UIDs, whose UI only `DS_MeSHUI` gives).
pub fn ui_from_uid(uid: &str) -> Option<String> {
    let (code, rest) = (uid.get(..2)?, uid.get(2..)?);
    let letter = match code {
        "67" => 'C',
        "68" => 'D',
        "81" => 'Q',
        _ => return None,
    };
    (rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_digit())).then(|| format!("{letter}{rest}"))
}

/// The ESummary UID of a 7-character UI (`D009203` → `68009203`), the
/// inverse of [`ui_from_uid`]; `None` for another form (`D000072669`).
pub fn uid_from_ui(ui: &str) -> Option<String> {
    let rest = ui.get(1..)?;
    let code = match ui.as_bytes().first()? {
        b'C' => "67",
        b'D' => "68",
        b'Q' => "81",
        _ => return None,
    };
    (rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_digit())).then(|| format!("{code}{rest}"))
}

/// True when `s` is written as a MeSH UI: `D`, `C` or `Q` and 6 or 9
/// digits (`D009203`, `D000072669`, `C414177`).
pub fn is_ui(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first(), Some(b'D' | b'C' | b'Q'))
        && matches!(b.len(), 7 | 10)
        && b[1..].iter().all(u8::is_ascii_digit)
}

/// True for an SCR's tree pointer (`@3065`), which is not a tree number.
pub fn is_tree_pointer(t: &str) -> bool {
    t.starts_with('@')
}

/// The tree number above `t` (`C14.280.647.500` → `C14.280.647`); `None`
/// at a tree's top (`C14`) and for a pointer.
pub fn parent_tree_number(t: &str) -> Option<&str> {
    if is_tree_pointer(t) {
        return None;
    }
    t.rsplit_once('.').map(|(p, _)| p)
}

/// True when `child` sits directly below `parent` in a tree.
pub fn is_child_of(child: &str, parent: &str) -> bool {
    parent_tree_number(child) == Some(parent)
}

/// The search clauses of record `name` of `kind`, to paste into a PubMed
/// query: for a descriptor exploded (`"Myocardial Infarction"[Mesh]`),
/// major topic (`[majr]`) and not exploded (`[mh:noexp]`); for an SCR or
/// a qualifier the one tag PubMed indexes it under (`[nm]`, `[sh]`).
/// Quotes inside a name are dropped: PubMed has no escape for them.
pub fn clauses(name: &str, kind: RecordKind) -> Clauses {
    let n: String = name.chars().filter(|c| *c != '"').collect();
    match kind {
        RecordKind::Descriptor => Clauses {
            mesh: format!("\"{n}\"[Mesh]"),
            major: Some(format!("\"{n}\"[majr]")),
            no_explode: Some(format!("\"{n}\"[mh:noexp]")),
        },
        RecordKind::Supplementary => Clauses {
            mesh: format!("\"{n}\"[nm]"),
            major: None,
            no_explode: None,
        },
        RecordKind::Qualifier => Clauses {
            mesh: format!("\"{n}\"[sh]"),
            major: None,
            no_explode: None,
        },
    }
}

/// The search clauses of one record ([`clauses`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Clauses {
    /// `"Name"[Mesh]`: the heading and every heading below it (`[nm]` for
    /// an SCR, `[sh]` for a qualifier).
    pub mesh: String,
    /// `"Name"[majr]`: the heading as a major topic (descriptors only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub major: Option<String>,
    /// `"Name"[mh:noexp]`: the heading alone (descriptors only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_explode: Option<String>,
}

/// The ESearch term that finds the records for `input` in `db=mesh`: a UI
/// as `UI[mhui]`, a name as typed (MeSH's own search maps entry terms).
pub fn search_term(input: &str) -> String {
    let t = input.trim();
    if is_ui(t) {
        format!("{t}[mhui]")
    } else {
        t.to_string()
    }
}

/// True when `name` is the heading of `record` itself (case and blank runs
/// ignored), not one of its entry terms: the check of `search --mesh`.
pub fn names_heading(record: &MeshRecord, name: &str) -> bool {
    fold(&record.name) == fold(name)
}

fn fold(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_and_ui_convert_both_ways() {
        assert_eq!(ui_from_uid("68009203").as_deref(), Some("D009203"));
        assert_eq!(ui_from_uid("67414177").as_deref(), Some("C414177"));
        assert_eq!(ui_from_uid("81000188").as_deref(), Some("Q000188"));
        assert_eq!(ui_from_uid("2016765"), None);
        assert_eq!(ui_from_uid("1000048"), None);
        assert_eq!(uid_from_ui("D009203").as_deref(), Some("68009203"));
        assert_eq!(uid_from_ui("D000072669"), None);
        assert_eq!(uid_from_ui("X009203"), None);
    }

    #[test]
    fn ui_forms() {
        assert!(is_ui("D009203"));
        assert!(is_ui("D000072669"));
        assert!(is_ui("C414177"));
        assert!(!is_ui("d009203"));
        assert!(!is_ui("D00920"));
        assert!(!is_ui("Diabetes"));
        assert_eq!(search_term(" D009203 "), "D009203[mhui]");
        assert_eq!(search_term("heart attack"), "heart attack");
    }

    #[test]
    fn tree_numbers() {
        assert_eq!(parent_tree_number("C14.280.647.500"), Some("C14.280.647"));
        assert_eq!(parent_tree_number("C14"), None);
        assert_eq!(parent_tree_number("@3065"), None);
        assert!(is_child_of("C14.280.647.500", "C14.280.647"));
        assert!(!is_child_of("C14.280.647.500.100", "C14.280.647"));
        assert!(is_tree_pointer("@3065"));
    }

    #[test]
    fn clauses_quote_the_heading() {
        let c = clauses("Myocardial Infarction", RecordKind::Descriptor);
        assert_eq!(c.mesh, "\"Myocardial Infarction\"[Mesh]");
        assert_eq!(c.major.as_deref(), Some("\"Myocardial Infarction\"[majr]"));
        assert_eq!(
            c.no_explode.as_deref(),
            Some("\"Myocardial Infarction\"[mh:noexp]")
        );
        let s = clauses("SLC7A2 protein, human", RecordKind::Supplementary);
        assert_eq!(s.mesh, "\"SLC7A2 protein, human\"[nm]");
        assert_eq!(s.major, None);
    }

    #[test]
    fn heading_check_ignores_case_and_blanks() {
        let r = MeshRecord {
            name: "Myocardial Infarction".into(),
            entry_terms: vec!["Heart Attack".into()],
            ..MeshRecord::default()
        };
        assert!(names_heading(&r, "myocardial  infarction"));
        assert!(!names_heading(&r, "Heart Attack"));
    }
}
