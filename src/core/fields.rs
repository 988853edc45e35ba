//! PubMed search field tags and EInfo field names
//! (`einfo.fcgi?db=pubmed`, `einfo_pubmed.xml`).

/// One PubMed field: its query tags (short and long forms, as written inside
/// `[...]`) and the EInfo `<Name>` ESearch's `field` parameter takes, when
/// EInfo lists one.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// Tag forms accepted inside brackets, lower-case (`ti`, `title`).
    pub tags: &'static [&'static str],
    /// EInfo field name (`TITL`), if EInfo lists the field.
    pub einfo: Option<&'static str>,
}

const fn f(tags: &'static [&'static str], einfo: Option<&'static str>) -> Field {
    Field { tags, einfo }
}

/// PubMed's search field tags, short ↔ long, plus `ab`/`abstract`, which
/// PubMed searches as free text.
pub const FIELDS: &[Field] = &[
    f(&["ad", "affiliation"], Some("AFFL")),
    f(&["all", "all fields"], Some("ALL")),
    f(&["aid", "article identifier"], None),
    f(&["au", "author"], Some("FULL")),
    f(
        &["auid", "author identifier", "author - identifier"],
        Some("AUID"),
    ),
    f(&["book"], Some("BOOK")),
    f(&["cois", "conflict of interest statements"], Some("COIS")),
    f(
        &["cn", "corporate author", "author - corporate"],
        Some("COLN"),
    ),
    f(&["crdt", "create date", "date - create"], Some("CRDT")),
    f(
        &["dcom", "completion date", "date - completion"],
        Some("CDAT"),
    ),
    f(&["ed", "editor"], Some("ED")),
    f(&["edat", "entry date", "date - entry"], Some("EDAT")),
    f(&["filter", "sb", "subset"], Some("FILT")),
    f(
        &["1au", "first author name", "author - first"],
        Some("FAUT"),
    ),
    f(&["fau", "full author name"], None),
    f(&["fir", "full investigator name"], None),
    f(&["gr", "grants and funding"], Some("GRNT")),
    f(&["ir", "investigator"], Some("FINV")),
    f(&["isbn"], Some("ISBN")),
    f(&["ip", "issue"], Some("ISS")),
    f(&["ta", "jour", "journal"], Some("JOUR")),
    f(&["la", "language"], Some("LANG")),
    f(
        &["lastau", "last author name", "author - last"],
        Some("LAUT"),
    ),
    f(&["lid", "location id"], Some("LID")),
    f(&["mhda", "mesh date", "date - mesh"], Some("MHDA")),
    f(&["majr", "mesh major topic"], Some("MAJR")),
    f(&["sh", "mesh subheading"], Some("SUBH")),
    f(&["mh", "mesh", "mesh terms"], Some("MESH")),
    f(
        &["lr", "mdat", "modification date", "date - modification"],
        Some("MDAT"),
    ),
    f(&["jid", "nlm unique id"], None),
    f(&["ot", "other term"], Some("OTRM")),
    f(&["pg", "pagination"], Some("PAGE")),
    f(
        &["ps", "personal name as subject", "subject - personal name"],
        Some("PS"),
    ),
    f(&["pa", "pharmacological action"], Some("PAPX")),
    f(&["pl", "place of publication"], Some("CNTY")),
    f(
        &["dp", "pdat", "publication date", "date - publication"],
        Some("PDAT"),
    ),
    f(&["pt", "ptyp", "publication type"], Some("PTYP")),
    f(&["pubn", "publisher"], Some("PUBN")),
    f(&["si", "secondary source id"], Some("SI")),
    f(&["nm", "supplementary concept"], Some("SUBS")),
    f(&["tw", "text word"], Some("WORD")),
    f(&["ti", "title"], Some("TITL")),
    f(&["tiab", "title/abstract"], Some("TIAB")),
    f(&["ab", "abstract"], None),
    f(&["tt", "transliterated title"], Some("TT")),
    f(&["vi", "volume"], Some("VOL")),
    f(&["pmid", "uid"], Some("UID")),
    f(&["rn", "ec/rn number"], Some("ECNO")),
    f(&["doi"], None),
];

/// One EInfo `<Field>` of PubMed: `Name`, `FullName`, `Description`,
/// `IsDate` and `IsHidden` as EInfo lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EinfoField {
    /// `Name`, what ESearch's `field` parameter takes (`TITL`).
    pub name: &'static str,
    /// `FullName`, the long tag form (`Title`).
    pub full_name: &'static str,
    /// `Description`, NCBI's one-line meaning.
    pub description: &'static str,
    /// `IsDate`: a date field (ranges such as `2020:2024[dp]`).
    pub is_date: bool,
    /// `IsHidden`: EInfo marks it hidden from PubMed's field menu.
    pub hidden: bool,
}

const fn e(
    name: &'static str,
    full_name: &'static str,
    description: &'static str,
    is_date: bool,
    hidden: bool,
) -> EinfoField {
    EinfoField {
        name,
        full_name,
        description,
        is_date,
        hidden,
    }
}

/// EInfo's PubMed search fields as listed in `einfo.fcgi?db=pubmed`
/// (`einfo_pubmed.xml`, build 2025.11.27); a test checks this list
/// against the capture.
pub const EINFO_FIELDS: &[EinfoField] = &[
    e(
        "ALL",
        "All Fields",
        "All terms from all searchable fields",
        false,
        false,
    ),
    e(
        "UID",
        "UID",
        "Unique number assigned to publication",
        false,
        true,
    ),
    e("FILT", "Filter", "Limits the records", false, false),
    e(
        "TITL",
        "Title",
        "Words in title of publication",
        false,
        false,
    ),
    e(
        "MESH",
        "MeSH Terms",
        "Medical Subject Headings assigned to publication",
        false,
        false,
    ),
    e(
        "MAJR",
        "MeSH Major Topic",
        "MeSH terms of major importance to publication",
        false,
        false,
    ),
    e(
        "JOUR",
        "Journal",
        "Journal abbreviation of publication",
        false,
        false,
    ),
    e(
        "AFFL",
        "Affiliation",
        "Author's institutional affiliation and address",
        false,
        false,
    ),
    e(
        "ECNO",
        "EC/RN Number",
        "EC number for enzyme or CAS registry number",
        false,
        false,
    ),
    e(
        "SUBS",
        "Supplementary Concept",
        "CAS chemical name or MEDLINE Substance Name",
        false,
        false,
    ),
    e(
        "PDAT",
        "Date - Publication",
        "Date of publication",
        true,
        false,
    ),
    e(
        "EDAT",
        "Date - Entry",
        "Date publication first accessible through Entrez",
        true,
        false,
    ),
    e(
        "VOL",
        "Volume",
        "Volume number of publication",
        false,
        false,
    ),
    e(
        "PAGE",
        "Pagination",
        "Page number(s) of publication",
        false,
        false,
    ),
    e(
        "PTYP",
        "Publication Type",
        "Type of publication (e.g., review)",
        false,
        false,
    ),
    e("LANG", "Language", "Language of publication", false, false),
    e("ISS", "Issue", "Issue number of publication", false, false),
    e(
        "SUBH",
        "MeSH Subheading",
        "Additional specificity for MeSH term",
        false,
        false,
    ),
    e(
        "SI",
        "Secondary Source ID",
        "Cross-reference from publication to other databases",
        false,
        false,
    ),
    e(
        "MHDA",
        "Date - MeSH",
        "Date publication was indexed with MeSH terms",
        true,
        false,
    ),
    e(
        "TIAB",
        "Title/Abstract",
        "Free text associated with Abstract/Title",
        false,
        false,
    ),
    e(
        "OTRM",
        "Other Term",
        "Other terms associated with publication",
        false,
        false,
    ),
    e(
        "COLN",
        "Author - Corporate",
        "Corporate Author of publication",
        false,
        false,
    ),
    e(
        "CNTY",
        "Place of Publication",
        "Country of publication",
        false,
        true,
    ),
    e(
        "PAPX",
        "Pharmacological Action",
        "MeSH pharmacological action pre-explosions",
        false,
        false,
    ),
    e(
        "GRNT",
        "Grants and Funding",
        "NIH Grant Numbers",
        false,
        false,
    ),
    e(
        "MDAT",
        "Date - Modification",
        "Date of last modification",
        true,
        false,
    ),
    e(
        "CDAT",
        "Date - Completion",
        "Date of completion",
        true,
        false,
    ),
    e("PID", "Publisher ID", "Publisher ID", false, true),
    e(
        "FAUT",
        "Author - First",
        "First Author of publication",
        false,
        false,
    ),
    e(
        "FULL",
        "Author",
        "Full Author Name(s) of publication",
        false,
        false,
    ),
    e(
        "FINV",
        "Investigator",
        "Full name of investigator",
        false,
        false,
    ),
    e(
        "TT",
        "Transliterated Title",
        "Words in transliterated title of publication",
        false,
        false,
    ),
    e(
        "LAUT",
        "Author - Last",
        "Last Author of publication",
        false,
        false,
    ),
    e(
        "PPDT",
        "Print Publication Date",
        "Date of print publication",
        true,
        true,
    ),
    e(
        "EPDT",
        "Electronic Publication Date",
        "Date of Electronic publication",
        true,
        true,
    ),
    e("LID", "Location ID", "ELocation ID", false, false),
    e(
        "CRDT",
        "Date - Create",
        "Date publication first accessible through Entrez",
        true,
        false,
    ),
    e(
        "BOOK",
        "Book",
        "ID of the book that contains the document",
        false,
        false,
    ),
    e("ED", "Editor", "Section's Editor", false, false),
    e("ISBN", "ISBN", "ISBN", false, false),
    e("PUBN", "Publisher", "Publisher's name", false, false),
    e(
        "AUCL",
        "Author Cluster ID",
        "Author Cluster ID",
        false,
        true,
    ),
    e("EID", "Extended PMID", "Extended PMID", false, true),
    e(
        "DSO",
        "DSO",
        "Additional text from the summary",
        false,
        true,
    ),
    e(
        "AUID",
        "Author - Identifier",
        "Author Identifier",
        false,
        false,
    ),
    e(
        "PS",
        "Subject - Personal Name",
        "Personal Name as Subject",
        false,
        false,
    ),
    e(
        "COIS",
        "Conflict of Interest Statements",
        "Conflict of Interest Statements",
        false,
        false,
    ),
    e(
        "WORD",
        "Text Word",
        "Free text associated with publication",
        false,
        false,
    ),
    e(
        "P1DAT",
        "P1DAT",
        "Date publication first accessible through Solr",
        true,
        true,
    ),
];

/// Tags whose values spell correction may touch: the free-text ones.
const FREE_TEXT: &[&str] = &[
    "tiab",
    "ti",
    "ab",
    "tw",
    "all",
    "title/abstract",
    "title",
    "abstract",
    "text word",
    "all fields",
];

/// The tag name of a bracket's content: trimmed, lower-cased, without a
/// `:modifier` (`MH:noexp` → `mh`, `tiab:~3` → `tiab`).
fn tag_name(content: &str) -> String {
    let name = content.split(':').next().unwrap_or("");
    name.trim().to_lowercase()
}

/// True when the bracket content `content` (without `[` `]`) is a known
/// PubMed field tag, short or long, any case, with or without a modifier.
pub fn is_known_tag(content: &str) -> bool {
    let name = tag_name(content);
    FIELDS.iter().any(|f| f.tags.contains(&name.as_str()))
}

/// True when the bracket content is a free-text tag (`[tiab]`, `[Title]`,
/// `[tiab:~3]` …), whose values spell may correct.
pub fn is_free_text_tag(content: &str) -> bool {
    FREE_TEXT.contains(&tag_name(content).as_str())
}

/// Resolves a `--field` value (a tag, a long name, or an EInfo name or full
/// name, any case) to the value sent as ESearch `field`: the EInfo name when
/// there is one, else the tag. `None` when PubMed has no such field.
pub fn resolve_search_field(value: &str) -> Option<String> {
    let v = value.trim().to_lowercase();
    if v.is_empty() {
        return None;
    }
    if let Some(field) = FIELDS.iter().find(|f| f.tags.contains(&v.as_str())) {
        return Some(
            field
                .einfo
                .map_or_else(|| field.tags[0].to_string(), str::to_string),
        );
    }
    if let Some((_, name)) = FIELD_ALIASES.iter().find(|(alias, _)| *alias == v) {
        return Some(name.to_string());
    }
    EINFO_FIELDS
        .iter()
        .find(|f| f.name.to_lowercase() == v || f.full_name.to_lowercase() == v)
        .map(|f| f.name.to_string())
}

/// Names people give a field that are neither its tag, its long form nor
/// its EInfo name: PubMed's help long called `[gr]` "Grant Number".
const FIELD_ALIASES: &[(&str, &str)] = &[("grant", "GRNT"), ("grant number", "GRNT")];

/// The accepted `--field` values, for the `invalid_argument` message.
pub fn accepted_search_fields() -> String {
    let mut names: Vec<&str> = FIELDS.iter().map(|f| f.tags[0]).collect();
    names.extend(EINFO_FIELDS.iter().map(|f| f.name));
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_short_long_and_modifiers() {
        for t in [
            "mh",
            "MeSH Terms",
            "mh:noexp",
            "tiab:~3",
            "PDAT",
            "Date - Publication",
            "ti",
            "1au",
            "sb",
        ] {
            assert!(is_known_tag(t), "{t}");
        }
        for t in ["a", "18F", "", "   ", "foo"] {
            assert!(!is_known_tag(t), "{t}");
        }
        assert!(is_free_text_tag("TIAB:~3"));
        assert!(is_free_text_tag("Title/Abstract"));
        assert!(is_free_text_tag("all fields"));
        assert!(!is_free_text_tag("mh"));
        assert!(!is_free_text_tag("pt"));
    }

    #[test]
    fn search_field_resolution() {
        assert_eq!(resolve_search_field("ti").as_deref(), Some("TITL"));
        assert_eq!(resolve_search_field("Title").as_deref(), Some("TITL"));
        assert_eq!(resolve_search_field("titl").as_deref(), Some("TITL"));
        assert_eq!(resolve_search_field("MeSH Terms").as_deref(), Some("MESH"));
        assert_eq!(
            resolve_search_field("Extended PMID").as_deref(),
            Some("EID")
        );
        assert_eq!(resolve_search_field("doi").as_deref(), Some("doi"));
        assert_eq!(resolve_search_field("nosuch"), None);
        for grant in [
            "GRNT",
            "grnt",
            "Grant",
            "Grants and Funding",
            "gr",
            "GR",
            "grant number",
        ] {
            assert_eq!(
                resolve_search_field(grant).as_deref(),
                Some("GRNT"),
                "{grant}"
            );
        }
        assert_eq!(resolve_search_field(""), None);
    }

    #[test]
    fn einfo_list_matches_the_capture() {
        let xml = include_str!("../../tests/fixtures/einfo_pubmed.xml");
        let fieldlist = &xml[xml.find("<FieldList>").unwrap()..xml.find("</FieldList>").unwrap()];
        // Each <Field> of the capture, element by element.
        let tag = |block: &'static str, t: &str| -> &'static str {
            let open = format!("<{t}>");
            let start = block.find(&open).unwrap() + open.len();
            &block[start..start + block[start..].find(&format!("</{t}>")).unwrap()]
        };
        let fields: Vec<(&str, &str, String, bool, bool)> = fieldlist
            .split("<Field>")
            .skip(1)
            .map(|b| {
                let description = quick_xml::escape::unescape(tag(b, "Description"))
                    .unwrap()
                    .into_owned();
                (
                    tag(b, "Name"),
                    tag(b, "FullName"),
                    description,
                    tag(b, "IsDate") == "Y",
                    tag(b, "IsHidden") == "Y",
                )
            })
            .collect();
        let ours: Vec<(&str, &str, String, bool, bool)> = EINFO_FIELDS
            .iter()
            .map(|f| {
                let d = f.description.to_string();
                (f.name, f.full_name, d, f.is_date, f.hidden)
            })
            .collect();
        assert_eq!(fields, ours);
        let from_capture: Vec<(&str, &str)> = fields.iter().map(|f| (f.0, f.1)).collect();
        // Every field's Name and FullName, any case, is a --field value
        // that goes out as that field's Name.
        for (name, full) in from_capture {
            for v in [
                name.to_string(),
                name.to_lowercase(),
                full.to_string(),
                full.to_uppercase(),
            ] {
                assert_eq!(resolve_search_field(&v).as_deref(), Some(name), "{v}");
            }
        }
        // and every tag, short and long, resolves
        for f in FIELDS {
            for t in f.tags {
                assert!(resolve_search_field(t).is_some(), "{t}");
                assert!(resolve_search_field(&t.to_uppercase()).is_some(), "{t}");
            }
        }
    }
}
