//! NCBI bodies built in code, byte for byte in the structure of the real
//! captures: ESearch like `esearch_pubmed_biopython.xml`, ESummary 2.0 like
//! `esummary_v2_pubmed_2012.xml`.

#![allow(dead_code)]

/// The XML declaration and DOCTYPE of a real capture, so generated bodies
/// open exactly as NCBI's do.
fn prolog(capture: &str) -> String {
    let end = capture.find("<!DOCTYPE").expect("captures have a DOCTYPE");
    let end = end + capture[end..].find('\n').expect("one line") + 1;
    capture[..end].to_string()
}

const ESPELL_CAPTURE: &str = include_str!("../fixtures/espell_biopythooon.xml");
const ESEARCH_CAPTURE: &str = include_str!("../fixtures/esearch_pubmed_biopython.xml");
const ESUMMARY_CAPTURE: &str = include_str!("../fixtures/esummary_v2_pubmed_2012.xml");

fn esc(s: &str) -> String {
    // Element text as NCBI writes it: quotes and apostrophes literal.
    quick_xml::escape::partial_escape(s).into_owned()
}

/// An ESpell answer in the shape of the real captures: `segments` are
/// `("O", text)` for `<Original>` and `("R", text)` for `<Replaced>`;
/// `error` fills `<ERROR>` (empty in normal answers). `CorrectedQuery` is
/// lower-cased as a whole, as ESpell does.
pub fn espell_with_error(query: &str, segments: &[(&str, &str)], error: &str) -> String {
    let corrected: String = segments.iter().map(|(_, t)| t.to_lowercase()).collect();
    let spelled: String = segments
        .iter()
        .map(|(kind, t)| {
            let tag = if *kind == "O" { "Original" } else { "Replaced" };
            format!("<{tag}>{}</{tag}>", esc(t))
        })
        .collect();
    let error = if error.is_empty() {
        "<ERROR/>".to_string()
    } else {
        format!("<ERROR>{}</ERROR>", esc(error))
    };
    format!(
        "{}<eSpellResult>\n\t<Database>pubmed</Database>\n\t<Query>{}</Query>\n\t<CorrectedQuery>{}</CorrectedQuery>\n\t<SpelledQuery>{spelled}</SpelledQuery>\n\t{error}\n</eSpellResult>\n",
        prolog(ESPELL_CAPTURE),
        esc(query),
        esc(&corrected)
    )
}

/// A normal ESpell answer (see [`espell_with_error`]).
pub fn espell(query: &str, segments: &[(&str, &str)]) -> String {
    espell_with_error(query, segments, "")
}

/// An ESearch answer (modern compact shape). `errors`/`warnings` are
/// `(element, text)` children of `<ErrorList>`/`<WarningList>`.
pub fn esearch(
    count: u64,
    retstart: u64,
    ids: &[String],
    translation: &str,
    errors: &[(&str, &str)],
    warnings: &[(&str, &str)],
) -> String {
    esearch_translated(count, retstart, ids, &[], translation, errors, warnings)
}

/// [`esearch`] with a `<TranslationSet>` of `(From, To)` pairs, laid out
/// like `esearch_pubmed_pnas_retstart.xml`.
pub fn esearch_translated(
    count: u64,
    retstart: u64,
    ids: &[String],
    set: &[(&str, &str)],
    translation: &str,
    errors: &[(&str, &str)],
    warnings: &[(&str, &str)],
) -> String {
    let mut s = prolog(ESEARCH_CAPTURE);
    s.push_str(&format!(
        "<eSearchResult><Count>{count}</Count><RetMax>{}</RetMax><RetStart>{retstart}</RetStart>",
        ids.len()
    ));
    if ids.is_empty() {
        s.push_str("<IdList/>");
    } else {
        s.push_str("<IdList>\n");
        for id in ids {
            s.push_str(&format!("<Id>{id}</Id>\n"));
        }
        s.push_str("</IdList>");
    }
    if set.is_empty() {
        s.push_str("<TranslationSet/>");
    } else {
        s.push_str("<TranslationSet>");
        for (from, to) in set {
            s.push_str(&format!(
                "<Translation>     <From>{}</From>     <To>{}</To>    </Translation>",
                esc(from),
                esc(to)
            ));
        }
        s.push_str("</TranslationSet>");
    }
    s.push_str(&format!(
        "<QueryTranslation>{}</QueryTranslation>",
        esc(translation)
    ));
    for (list, items) in [("ErrorList", errors), ("WarningList", warnings)] {
        if !items.is_empty() {
            s.push_str(&format!("<{list}>"));
            for (k, t) in items {
                s.push_str(&format!("<{k}>{}</{k}>", esc(t)));
            }
            s.push_str(&format!("</{list}>"));
        }
    }
    s.push_str("</eSearchResult>\n");
    s
}

/// A top-level E-utilities error body: `<ROOT><ERROR>text</ERROR></ROOT>`.
pub fn eutils_error(root: &str, text: &str) -> String {
    format!(
        "{}<{root}>\n\t<ERROR>{}</ERROR>\n</{root}>\n",
        prolog(ESEARCH_CAPTURE).replace("eSearchResult", root),
        esc(text)
    )
}

/// One PubMed document summary.
#[derive(Debug, Clone)]
pub struct Doc {
    pub uid: String,
    pub title: String,
    pub authors: Vec<String>,
    pub source: String,
    pub full_journal: String,
    pub pub_date: String,
    pub pub_types: Vec<String>,
    pub doi: Option<String>,
    pub pmc: Option<String>,
    pub elocation: String,
}

impl Doc {
    /// A plain journal article with predictable fields derived from the PMID.
    pub fn new(uid: &str) -> Doc {
        Doc {
            uid: uid.into(),
            title: format!("Article {uid}."),
            authors: vec!["Smith J".into(), "Doe A".into()],
            source: "J Test".into(),
            full_journal: "Journal of testing".into(),
            pub_date: "2020 Jan 15".into(),
            pub_types: vec!["Journal Article".into()],
            doi: Some(format!("10.1000/test.{uid}")),
            pmc: None,
            elocation: String::new(),
        }
    }
}

fn article_id(kind: &str, n: u8, value: &str) -> String {
    format!(
        "\t\t<ArticleId>\n\t\t\t<IdType>{kind}</IdType>\n\t\t\t<IdTypeN>{n}</IdTypeN>\n\t\t\t<Value>{}</Value>\n\t\t</ArticleId>\n",
        esc(value)
    )
}

/// An ESummary 2.0 answer for `docs`, plus per-UID `<error>` entries.
pub fn esummary(docs: &[Doc], errors: &[(&str, &str)]) -> String {
    let mut s = prolog(ESUMMARY_CAPTURE);
    s.push_str("<eSummaryResult>\n<DocumentSummarySet status=\"OK\">\n");
    for d in docs {
        s.push_str(&format!(
            "<DocumentSummary uid=\"{}\">\n\t<PubDate>{}</PubDate>\n\t<EPubDate></EPubDate>\n\t<Source>{}</Source>\n\t<Authors>\n",
            d.uid,
            esc(&d.pub_date),
            esc(&d.source)
        ));
        for a in &d.authors {
            s.push_str(&format!(
                "\t\t<Author>\n\t\t\t<Name>{}</Name>\n\t\t\t<AuthType>\n\t\t\t\tAuthor\n\t\t\t</AuthType>\n\t\t\t<ClusterID>0</ClusterID>\n\t\t</Author>\n",
                esc(a)
            ));
        }
        s.push_str(&format!(
            "\t</Authors>\n\t<LastAuthor>{}</LastAuthor>\n\t<Title>{}</Title>\n\t<Volume>1</Volume>\n\t<Issue>1</Issue>\n\t<Pages>1-2</Pages>\n\t<Lang>\n\t\t<string>eng</string>\n\t</Lang>\n\t<PubType>\n",
            esc(d.authors.last().map_or("", String::as_str)),
            esc(&d.title)
        ));
        for p in &d.pub_types {
            s.push_str(&format!("\t\t<flag>{}</flag>\n", esc(p)));
        }
        s.push_str("\t</PubType>\n\t<RecordStatus>\n\t\tPubMed - indexed for MEDLINE\n\t</RecordStatus>\n\t<ArticleIds>\n");
        s.push_str(&article_id("pubmed", 1, &d.uid));
        if let Some(doi) = &d.doi {
            s.push_str(&article_id("doi", 3, doi));
        }
        if let Some(pmc) = &d.pmc {
            s.push_str(&article_id("pmc", 8, pmc));
            s.push_str(&article_id("pmcid", 5, &format!("pmc-id: {pmc};")));
        }
        s.push_str(&format!(
            "\t</ArticleIds>\n\t<FullJournalName>{}</FullJournalName>\n\t<ELocationID>{}</ELocationID>\n\t<SortPubDate>2020/01/15 00:00</SortPubDate>\n</DocumentSummary>\n\n",
            esc(&d.full_journal),
            esc(&d.elocation)
        ));
    }
    for (uid, err) in errors {
        s.push_str(&format!(
            "<DocumentSummary uid=\"{uid}\">\n<error>{}</error>\n</DocumentSummary>\n\n",
            esc(err)
        ));
    }
    s.push_str("</DocumentSummarySet>\n</eSummaryResult>\n");
    s
}

const ELINK_CAPTURE: &str = include_str!("../fixtures/elink_pubmed_neighbor_two_ids_mindate.xml");

/// One `<LinkSet>` of an ELink answer: the inputs it answers (`<IdList>`)
/// and, for one link name, the links as (PMID, score). No links: no
/// `<LinkSetDb>`, as ELink answers an input without any.
#[derive(Debug, Clone)]
pub struct ElinkSet {
    pub ids: Vec<String>,
    pub linkname: String,
    pub links: Vec<(String, Option<u64>)>,
}

/// An ELink `cmd=neighbor` answer in the shape of
/// `elink_pubmed_neighbor_two_ids_mindate.xml` (tab-indented; `<Score>`
/// after `<Id>` as in `elink_pubmed_neighbor_with_scores_2008.xml`).
pub fn elink(sets: &[ElinkSet]) -> String {
    let mut s = prolog(ELINK_CAPTURE);
    s.push_str("<eLinkResult>\n");
    for set in sets {
        s.push_str("<LinkSet>\n\t<DbFrom>pubmed</DbFrom>\n\t<IdList>\n");
        for id in &set.ids {
            s.push_str(&format!("\t\t<Id>{}</Id>\n", esc(id)));
        }
        s.push_str("\t</IdList>\n");
        if !set.links.is_empty() {
            s.push_str(&format!(
                "\t<LinkSetDb>\n\t\t<DbTo>pubmed</DbTo>\n\t\t<LinkName>{}</LinkName>\n",
                esc(&set.linkname)
            ));
            for (id, score) in &set.links {
                s.push_str(&format!("\t\t<Link>\n\t\t\t<Id>{id}</Id>\n"));
                if let Some(sc) = score {
                    s.push_str(&format!("\t\t\t<Score>{sc}</Score>\n"));
                }
                s.push_str("\t\t</Link>\n");
            }
            s.push_str("\t</LinkSetDb>\n");
        }
        s.push_str("</LinkSet>\n");
    }
    s.push_str("</eLinkResult>\n");
    s
}

/// The links of one `<LinkSetDb>` (by link name) of a real ELink capture
/// in `tests/fixtures/`, as (PMID, score), in the capture's order.
pub fn capture_links(capture: &str, linkname: &str) -> Vec<(String, Option<u64>)> {
    let path = format!("{}/tests/fixtures/{capture}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let inner = |s: &str, tag: &str| -> Option<String> {
        let open = format!("<{tag}>");
        let at = s.find(&open)? + open.len();
        let end = s[at..].find(&format!("</{tag}>"))? + at;
        Some(s[at..end].trim().to_string())
    };
    text.split("<LinkSetDb>")
        .skip(1)
        .find(|db| inner(db, "LinkName").as_deref() == Some(linkname))
        .map(|db| {
            db.split("<Link>")
                .skip(1)
                .map(|l| {
                    (
                        inner(l, "Id").unwrap(),
                        inner(l, "Score").map(|s| s.parse().unwrap()),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}
