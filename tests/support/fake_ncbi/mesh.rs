//! A fake NCBI for `db=mesh` and ECitMatch: the real captures
//! (tests/fixtures/PROVENANCE.md rows 54 and 55) and bodies built here in
//! their shape — ESearch as `esearch_pubmed_biopython.xml`, ESummary
//! `db=mesh` element for element as `esummary_v2_mesh_2012.xml` (same
//! DOCTYPE, order of `DS_*` fields, tabs) — for records no public capture
//! holds (no public repository stores a descriptor's ESummary or an ESearch
//! on `db=mesh`). Their values are written after NLM's records for D009203
//! Myocardial Infarction and its tree neighbours; being built, they prove
//! parsing and the tree logic, not NCBI's current data.

#![allow(dead_code)]

use super::server::{Reply, Request, TestServer, fixture};

/// A MeSH record for a built ESummary body.
pub struct Rec {
    pub uid: &'static str,
    pub year: &'static str,
    pub scope: &'static str,
    pub terms: &'static [&'static str],
    pub subheadings: &'static [&'static str],
    /// (parent uid, tree number, children uids)
    pub links: &'static [(&'static str, &'static str, &'static [&'static str])],
}

const MI_QUALIFIERS: &[&str] = &[
    "blood",
    "classification",
    "complications",
    "diagnosis",
    "diagnostic imaging",
    "drug therapy",
    "epidemiology",
    "etiology",
    "mortality",
    "pathology",
    "physiopathology",
    "prevention and control",
    "therapy",
];

/// D009203 and the headings `--tree` names.
pub const RECORDS: &[Rec] = &[
    Rec {
        uid: "68009203",
        year: "",
        scope: "NECROSIS of the MYOCARDIUM caused by an obstruction of the blood supply to the heart (CORONARY CIRCULATION).",
        terms: &[
            "Myocardial Infarction",
            "Infarction, Myocardial",
            "Heart Attack",
            "Myocardial Infarct",
            "Cardiovascular Stroke",
        ],
        subheadings: MI_QUALIFIERS,
        links: &[
            ("68017202", "C14.280.647.500", &["68056988", "68056989"]),
            ("68007238", "C14.907.585.500", &["68056988", "68056989"]),
        ],
    },
    Rec {
        uid: "68017202",
        year: "",
        scope: "A disorder of cardiac function caused by insufficient blood flow to the muscle tissue of the heart.",
        terms: &[
            "Myocardial Ischemia",
            "Ischemia, Myocardial",
            "Ischemic Heart Disease",
        ],
        subheadings: &[],
        links: &[("68006331", "C14.280.647", &["68009203"])],
    },
    Rec {
        uid: "68007238",
        year: "",
        scope: "Formation of an infarct, which is NECROSIS in tissue due to local ISCHEMIA resulting from obstruction of BLOOD CIRCULATION, most commonly by a THROMBUS or EMBOLUS.",
        terms: &["Infarction"],
        subheadings: &[],
        links: &[("68014652", "C14.907.585", &["68009203"])],
    },
    Rec {
        uid: "68056988",
        year: "2009",
        scope: "MYOCARDIAL INFARCTION in which the anterior wall of the heart is involved.",
        terms: &["Anterior Wall Myocardial Infarction"],
        subheadings: &[],
        links: &[
            ("68009203", "C14.280.647.500.093", &[]),
            ("68009203", "C14.907.585.500.093", &[]),
        ],
    },
    Rec {
        uid: "68056989",
        year: "2009",
        scope: "MYOCARDIAL INFARCTION in which the inferior wall of the heart is involved.",
        terms: &["Inferior Wall Myocardial Infarction"],
        subheadings: &[],
        links: &[
            ("68009203", "C14.280.647.500.187", &[]),
            ("68009203", "C14.907.585.500.187", &[]),
        ],
    },
    // The headings other tests pass to `search --mesh` (scope notes as
    // NLM's records D001249, D002648, D006801 give them).
    Rec {
        uid: "68001249",
        year: "",
        scope: "A form of bronchial disorder with three distinct components: airway hyper-responsiveness (RESPIRATORY HYPERSENSITIVITY), airway INFLAMMATION, and intermittent AIRWAY OBSTRUCTION.",
        terms: &["Asthma", "Asthma, Bronchial", "Bronchial Asthma"],
        subheadings: &[],
        links: &[("68001982", "C08.127.108", &[])],
    },
    Rec {
        uid: "68002648",
        year: "",
        scope: "A person 6 to 12 years of age. An individual 2 to 5 years old is CHILD, PRESCHOOL.",
        terms: &["Child", "Children"],
        subheadings: &[],
        links: &[("68009273", "M01.060.406", &[])],
    },
    Rec {
        uid: "68006801",
        year: "",
        scope: "Members of the species Homo sapiens.",
        terms: &["Humans", "Human", "Homo sapiens", "Man (Taxonomy)"],
        subheadings: &[],
        links: &[(
            "68015186",
            "B01.050.150.900.649.313.988.400.112.400.400",
            &[],
        )],
    },
    Rec {
        uid: "68026923",
        year: "",
        scope: "A cationic amino acid transporter expressed in the liver and other tissues.",
        terms: &["Cationic Amino Acid Transporter 2"],
        subheadings: &[],
        links: &[],
    },
];

fn list(tag: &str, items: &[&str], elem: &str) -> String {
    if items.is_empty() {
        return format!("\t<{tag}>\n\t</{tag}>\n");
    }
    let mut s = format!("\t<{tag}>\n");
    for i in items {
        s.push_str(&format!("\t\t<{elem}>{i}</{elem}>\n"));
    }
    s.push_str(&format!("\t</{tag}>\n"));
    s
}

/// The `<DocumentSummary>` of `r`, in the capture's element order.
pub fn doc(r: &Rec) -> String {
    let mut s = format!("<DocumentSummary uid=\"{}\">\n", r.uid);
    s.push_str(&format!(
        "\t<DS_YearIntroduced>{}</DS_YearIntroduced>\n",
        r.year
    ));
    s.push_str(&format!("\t<DS_ScopeNote>{}</DS_ScopeNote>\n", r.scope));
    s.push_str("\t<DS_RegistryNumber>0</DS_RegistryNumber>\n");
    s.push_str("\t<DS_HeadingMappedTo></DS_HeadingMappedTo>\n");
    s.push_str(&list("DS_MeshTerms", r.terms, "string"));
    s.push_str(&list("DS_Subheading", r.subheadings, "string"));
    s.push_str(&list("DS_PaPx", &[], "string"));
    s.push_str(&list("DS_PreviousIndexing", &[], "string"));
    s.push_str(&list("DS_SeeRelated", &[], "string"));
    s.push_str(&list("DS_PaList", &[], "string"));
    s.push_str("\t<DS_IdxLinks>\n");
    for (parent, tree, children) in r.links {
        s.push_str(&format!(
            "\t\t<LinksType>\n\t\t\t<Parent>{parent}</Parent>\n\t\t\t<TreeNum>{tree}</TreeNum>\n\t\t\t<Children>\n"
        ));
        for c in *children {
            s.push_str(&format!("\t\t\t\t<int>{c}</int>\n"));
        }
        s.push_str("\t\t\t</Children>\n\t\t</LinksType>\n");
    }
    s.push_str("\t</DS_IdxLinks>\n");
    s.push_str("\t<DS_EntryDate>1999/01/01 00:00</DS_EntryDate>\n");
    s.push_str("\t<DS_RevisionDate>2024/01/01 00:00</DS_RevisionDate>\n");
    s.push_str(&list("DS_HeadingMappedToList", &[], "int"));
    s.push_str("</DocumentSummary>\n");
    s
}

/// The real SCR capture's `<DocumentSummary>` (uid 67414177), byte for byte.
pub fn scr_doc() -> String {
    let body = String::from_utf8(fixture("esummary_v2_mesh_2012.xml")).unwrap();
    let start = body.find("<DocumentSummary ").unwrap();
    let end = body.find("</DocumentSummary>").unwrap() + "</DocumentSummary>\n".len();
    body[start..end].to_string()
}

/// An ESummary `db=mesh` answer for `uids` (unknown ones left out).
pub fn esummary(uids: &[&str]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE eSummaryResult PUBLIC \"-//NLM//DTD eSummaryResult//EN\" \"http://www.ncbi.nlm.nih.gov/entrez/query/DTD/eSummaryDTD/eSummary_mesh.dtd\">\n<eSummaryResult>\n<DocumentSummarySet status=\"OK\">\n",
    );
    for u in uids {
        if *u == "67414177" {
            s.push_str(&scr_doc());
        } else if let Some(r) = RECORDS.iter().find(|r| r.uid == *u) {
            s.push_str(&doc(r));
        }
    }
    s.push_str("\n</DocumentSummarySet>\n</eSummaryResult>\n");
    s
}

/// An ESearch answer with `count` and `ids`, in the modern compact shape.
pub fn esearch(count: usize, ids: &[&str], translation: &str) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<!DOCTYPE eSearchResult PUBLIC \"-//NLM//DTD esearch 20060628//EN\" \"https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd\">\n<eSearchResult><Count>{count}</Count><RetMax>{}</RetMax><RetStart>0</RetStart><IdList>\n",
        ids.len()
    );
    for i in ids {
        s.push_str(&format!("<Id>{i}</Id>\n"));
    }
    s.push_str(&format!(
        "</IdList><TranslationSet/><QueryTranslation>{translation}</QueryTranslation></eSearchResult>\n"
    ));
    s
}

/// ESearch `db=mesh` terms this server knows: (term, ids).
pub const TERMS: &[(&str, &[&str])] = &[
    ("heart attack", &["68009203", "68056988"]),
    ("C414177[mhui]", &["67414177"]),
];

/// The UIDs of an OR of `"Name"[mh]` (a heading or an entry term, case
/// ignored, as MeSH's `[mh]` searches both) and `UI[mhui]` clauses, each
/// once, in clause order: the MeSH check of `search --mesh`.
pub fn tagged_ids(term: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for clause in term.split(" OR ") {
        let found = if let Some(name) = clause.strip_suffix("[mh]") {
            let name = name.trim_matches('"').to_lowercase();
            RECORDS
                .iter()
                .find(|r| r.terms.iter().any(|t| t.to_lowercase() == name))
                .map(|r| r.uid)
                .or_else(|| (name == "slc7a2 protein, human").then_some("67414177"))
        } else if let Some(ui) = clause.strip_suffix("[mhui]") {
            RECORDS
                .iter()
                .find(|r| format!("D{}", &r.uid[2..]) == ui)
                .map(|r| r.uid)
        } else {
            None
        };
        if let Some(u) = found
            && !out.contains(&u)
        {
            out.push(u);
        }
    }
    out
}

/// The handler: ESearch and ESummary on `db=mesh`; ECitMatch by `ecitmatch`.
pub fn reply(req: &Request, ecitmatch: &(dyn Fn(&str) -> Reply + Send + Sync)) -> Reply {
    if req.is("ecitmatch.cgi") {
        return ecitmatch(req.param("bdata").unwrap_or_default());
    }
    if req.param("db") != Some("mesh") {
        return Reply::status(400, "text/plain", "not db=mesh");
    }
    if req.is("esearch.fcgi") {
        let term = req.param("term").unwrap_or_default();
        if let Some((_, ids)) = TERMS.iter().find(|(t, _)| *t == term) {
            return Reply::xml(esearch(ids.len(), ids, term));
        }
        let ids = tagged_ids(term);
        return if ids.is_empty() {
            Reply::xml(fixture("esearch_zero_hits_phrase_not_found.xml"))
        } else {
            Reply::xml(esearch(ids.len(), &ids, term))
        };
    }
    if req.is("esummary.fcgi") {
        let ids: Vec<&str> = req.param("id").unwrap_or_default().split(',').collect();
        return Reply::xml(esummary(&ids));
    }
    Reply::status(404, "text/plain", "unknown")
}

/// A server answering MeSH and ECitMatch (`ecitmatch` answers the bdata).
pub fn server(ecitmatch: impl Fn(&str) -> Reply + Send + Sync + 'static) -> TestServer {
    TestServer::start(move |req| reply(req, &ecitmatch))
}

/// A server answering MeSH only.
pub fn mesh_server() -> TestServer {
    server(|_| Reply::status(404, "text/plain", "no ecitmatch"))
}

/// The `bdata` of the ECitMatch capture's request (PROVENANCE row 54:
/// `+` decoded as spaces, `%0D` as `\r`).
pub const CAPTURE_BDATA: &str = "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|\rfake journal|2000|1|1|nobody|ref2|\rn engl j med|2020|382|727|zhu n|Art4|";

/// Answers a `bdata`: the real capture for its own request; else one line
/// per citation in its shape (the input echoed, the answer appended): a
/// citation whose journal|year|volume|page is in `known` gets its answer,
/// others `NOT_FOUND`.
pub fn ecitmatch_answer(bdata: &str, known: &[(&str, &str)]) -> Reply {
    if bdata == CAPTURE_BDATA {
        return Reply::status(
            200,
            "text/plain",
            fixture("ecitmatch_pubmed_found_and_invalid_journal.txt"),
        );
    }
    let mut body = String::new();
    for line in bdata.split('\r') {
        let f: Vec<&str> = line.split('|').collect();
        let head = f[..4.min(f.len())].join("|");
        let answer = known
            .iter()
            .find(|(k, _)| *k == head)
            .map(|(_, a)| a.to_string())
            .unwrap_or_else(|| "NOT_FOUND".to_string());
        body.push_str(line);
        body.push_str(&answer);
        body.push('\n');
    }
    Reply::status(200, "text/plain", body)
}

/// A server answering ECitMatch by [`ecitmatch_answer`] with `known`, and
/// everything else (the ID Converter, ESearch `[doi]`, ESummary) as
/// [`super::FakeNcbi`] does.
pub fn match_server(known: Vec<(String, String)>) -> TestServer {
    let fake = super::FakeNcbi::new(super::Corpus::default());
    TestServer::start(move |req| {
        if req.is("ecitmatch.cgi") {
            let k: Vec<(&str, &str)> = known
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            return ecitmatch_answer(req.param("bdata").unwrap_or_default(), &k);
        }
        fake.reply(req)
    })
}
