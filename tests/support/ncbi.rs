//! NCBI bodies built in code, byte for byte in the structure of the real
//! captures: ESearch like `esearch_pubmed_biopython.xml`, ESummary 2.0 like
//! `esummary_v2_pubmed_2012.xml`, ESummary JSON like
//! `esummary_json_pubmed_27933103.json`.

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

/// A canned ESearch body (a capture or [`esearch`]) as the page a request
/// for `retstart`/`retmax` gets, as
/// ESearch pages: `<RetStart>` echoes `retstart`, and `<IdList>` keeps the
/// first `min(retmax, Count − retstart)` of its IDs (their bytes unchanged).
/// A body holds only one page of IDs; the tests ask for it or for fewer.
pub fn esearch_page(body: &str, retstart: u64, retmax: u64) -> String {
    let count: u64 = body
        .split_once("<Count>")
        .and_then(|(_, r)| r.split_once("</Count>"))
        .and_then(|(c, _)| c.trim().parse().ok())
        .unwrap_or(0);
    let due = retmax.min(count.saturating_sub(retstart)) as usize;
    let mut out = body.to_string();
    if let Some(at) = out.find("<RetStart>")
        && let Some(len) = out[at..].find("</RetStart>")
    {
        out.replace_range(at..at + len, &format!("<RetStart>{retstart}"));
    }
    if let Some(open) = out.find("<IdList>")
        && let Some(close) = out.find("</IdList>")
    {
        let inner = &out[open + "<IdList>".len()..close];
        let mut keep = 0;
        for _ in 0..due {
            match inner[keep..].find("</Id>") {
                Some(i) => keep += i + "</Id>".len(),
                None => break,
            }
        }
        // Whatever followed the last ID (a line break and indent) stays.
        let tail = inner
            .rfind("</Id>")
            .map_or("", |i| &inner[i + "</Id>".len()..]);
        let kept = format!("{}{tail}", &inner[..keep]);
        out.replace_range(open + "<IdList>".len()..close, &kept);
    }
    out
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

const EFETCH_CAPTURE: &str =
    include_str!("../fixtures/efetch_pubmed_vernacular_title_letter_2024.xml");

/// One PubMed article for EFetch answers; `title` and `abstract` are XML
/// content (inline markup allowed, already escaped).
#[derive(Debug, Clone)]
pub struct Article {
    pub pmid: String,
    pub title: String,
    /// `PubDate` children as written, e.g. `[("Year", "2020"), ("Season", "Winter")]`.
    pub pub_date: Vec<(String, String)>,
    /// (LastName, ForeName, Initials).
    pub authors: Vec<(String, String, String)>,
    pub journal_title: String,
    pub iso_abbreviation: String,
    pub volume: String,
    pub issue: String,
    pub medline_pgn: String,
    /// (Label, NlmCategory, text); an empty label means none.
    pub abstract_sections: Vec<(String, String, String)>,
    pub pub_types: Vec<String>,
    pub mesh: Vec<String>,
    /// (RefType, RefSource, PMID).
    pub comments: Vec<(String, String, String)>,
    pub doi: Option<String>,
    pub pmc: Option<String>,
}

impl Article {
    /// A plain journal article with fields derived from the PMID.
    pub fn new(pmid: &str) -> Article {
        Article {
            pmid: pmid.into(),
            title: format!("Article {pmid}."),
            pub_date: vec![
                ("Year".into(), "2020".into()),
                ("Month".into(), "Jan".into()),
                ("Day".into(), "15".into()),
            ],
            authors: vec![
                ("Smith".into(), "Jane".into(), "J".into()),
                ("Doe".into(), "Alex".into(), "A".into()),
            ],
            journal_title: "Journal of testing".into(),
            iso_abbreviation: "J Test".into(),
            volume: "1".into(),
            issue: "1".into(),
            medline_pgn: "1-2".into(),
            abstract_sections: vec![],
            pub_types: vec!["Journal Article".into()],
            mesh: vec!["Humans".into()],
            comments: vec![],
            doi: Some(format!("10.1000/test.{pmid}")),
            pmc: None,
        }
    }
}

/// A `PubmedArticle` element in the compact one-line layout of
/// `efetch_pubmed_vernacular_title_letter_2024.xml`.
pub fn efetch_article(a: &Article) -> String {
    let mut s = format!(
        "<PubmedArticle><MedlineCitation Status=\"MEDLINE\" Owner=\"NLM\"><PMID Version=\"1\">{}</PMID><DateCompleted><Year>2021</Year><Month>01</Month><Day>05</Day></DateCompleted><DateRevised><Year>2021</Year><Month>01</Month><Day>05</Day></DateRevised><Article PubModel=\"Print\"><Journal><ISSN IssnType=\"Print\">0000-0000</ISSN><JournalIssue CitedMedium=\"Print\"><Volume>{}</Volume><Issue>{}</Issue><PubDate>",
        a.pmid,
        esc(&a.volume),
        esc(&a.issue)
    );
    for (k, v) in &a.pub_date {
        s.push_str(&format!("<{k}>{}</{k}>", esc(v)));
    }
    s.push_str(&format!(
        "</PubDate></JournalIssue><Title>{}</Title><ISOAbbreviation>{}</ISOAbbreviation></Journal><ArticleTitle>{}</ArticleTitle><Pagination><MedlinePgn>{}</MedlinePgn></Pagination>",
        esc(&a.journal_title),
        esc(&a.iso_abbreviation),
        a.title,
        esc(&a.medline_pgn)
    ));
    if let Some(doi) = &a.doi {
        s.push_str(&format!(
            "<ELocationID EIdType=\"doi\" ValidYN=\"Y\">{}</ELocationID>",
            esc(doi)
        ));
    }
    if !a.abstract_sections.is_empty() {
        s.push_str("<Abstract>");
        for (label, cat, text) in &a.abstract_sections {
            if label.is_empty() {
                s.push_str(&format!("<AbstractText>{text}</AbstractText>"));
            } else {
                s.push_str(&format!(
                    "<AbstractText Label=\"{}\" NlmCategory=\"{}\">{text}</AbstractText>",
                    esc(label),
                    esc(cat)
                ));
            }
        }
        s.push_str("</Abstract>");
    }
    s.push_str("<AuthorList CompleteYN=\"Y\">");
    for (last, fore, initials) in &a.authors {
        s.push_str(&format!(
            "<Author ValidYN=\"Y\"><LastName>{}</LastName><ForeName>{}</ForeName><Initials>{}</Initials></Author>",
            esc(last),
            esc(fore),
            esc(initials)
        ));
    }
    s.push_str("</AuthorList><Language>eng</Language><PublicationTypeList>");
    for p in &a.pub_types {
        s.push_str(&format!(
            "<PublicationType UI=\"D016428\">{}</PublicationType>",
            esc(p)
        ));
    }
    s.push_str(&format!(
        "</PublicationTypeList></Article><MedlineJournalInfo><Country>United States</Country><MedlineTA>{}</MedlineTA><NlmUniqueID>0000000</NlmUniqueID><ISSNLinking>0000-0000</ISSNLinking></MedlineJournalInfo><CitationSubset>IM</CitationSubset>",
        esc(&a.iso_abbreviation)
    ));
    if !a.comments.is_empty() {
        s.push_str("<CommentsCorrectionsList>");
        for (t, src, pmid) in &a.comments {
            s.push_str(&format!(
                "<CommentsCorrections RefType=\"{}\"><RefSource>{}</RefSource><PMID Version=\"1\">{pmid}</PMID></CommentsCorrections>",
                esc(t),
                esc(src)
            ));
        }
        s.push_str("</CommentsCorrectionsList>");
    }
    if !a.mesh.is_empty() {
        s.push_str("<MeshHeadingList>");
        for m in &a.mesh {
            s.push_str(&format!(
                "<MeshHeading><DescriptorName UI=\"D006801\" MajorTopicYN=\"N\">{}</DescriptorName></MeshHeading>",
                esc(m)
            ));
        }
        s.push_str("</MeshHeadingList>");
    }
    s.push_str(&format!(
        "</MedlineCitation><PubmedData><History><PubMedPubDate PubStatus=\"entrez\"><Year>2020</Year><Month>1</Month><Day>15</Day><Hour>6</Hour><Minute>0</Minute></PubMedPubDate></History><PublicationStatus>ppublish</PublicationStatus><ArticleIdList><ArticleId IdType=\"pubmed\">{}</ArticleId>",
        a.pmid
    ));
    if let Some(doi) = &a.doi {
        s.push_str(&format!(
            "<ArticleId IdType=\"doi\">{}</ArticleId>",
            esc(doi)
        ));
    }
    if let Some(pmc) = &a.pmc {
        s.push_str(&format!(
            "<ArticleId IdType=\"pmc\">{}</ArticleId>",
            esc(pmc)
        ));
    }
    s.push_str("</ArticleIdList></PubmedData></PubmedArticle>");
    s
}

/// An EFetch XML answer: the capture's prolog, one article per line, and a
/// `DeleteCitation` for `deleted` PMIDs.
pub fn efetch_set(articles: &[Article], deleted: &[String]) -> String {
    let mut s = prolog(EFETCH_CAPTURE);
    s.push_str("<PubmedArticleSet>\n");
    for a in articles {
        s.push_str(&efetch_article(a));
        s.push('\n');
    }
    if !deleted.is_empty() {
        s.push_str("<DeleteCitation>");
        for p in deleted {
            s.push_str(&format!("<PMID Version=\"1\">{p}</PMID>"));
        }
        s.push_str("</DeleteCitation>");
    }
    s.push_str("</PubmedArticleSet>");
    s
}

/// One MEDLINE field, wrapped as EFetch wraps them: `TAG - ` padded to
/// six columns, lines of at most 80 characters, 6-space continuations.
fn medline_field(out: &mut String, tag: &str, value: &str) {
    let mut line = format!("{tag:<4}- ");
    let mut first = true;
    for word in value.split_whitespace() {
        if !first && line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line = "      ".to_string();
            first = true;
        }
        if !first {
            line.push(' ');
        }
        line.push_str(word);
        first = false;
    }
    out.push_str(&line);
    out.push('\n');
}

/// Text without markup, entities decoded (the few the builders write).
fn plain(xml: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in xml.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// One MEDLINE record for `a`, in the tag order of
/// `medline_pubmed_multiline_mesh_2014.txt` (no trailing blank line).
pub fn medline_record(a: &Article) -> String {
    let mut s = String::new();
    medline_field(&mut s, "PMID", &a.pmid);
    medline_field(&mut s, "OWN", "NLM");
    medline_field(&mut s, "STAT", "MEDLINE");
    medline_field(&mut s, "IS", "0000-0000 (Print)");
    medline_field(&mut s, "VI", &a.volume);
    medline_field(&mut s, "IP", &a.issue);
    let dp: Vec<String> = a
        .pub_date
        .iter()
        .map(|(k, v)| match (k.as_str(), v.parse::<usize>()) {
            ("Month", Ok(m)) if (1..=12).contains(&m) => MONTHS[m - 1].to_string(),
            _ => v.clone(),
        })
        .collect();
    medline_field(&mut s, "DP", &dp.join(" "));
    medline_field(&mut s, "TI", &plain(&a.title));
    medline_field(&mut s, "PG", &a.medline_pgn);
    if let Some(doi) = &a.doi {
        medline_field(&mut s, "LID", &format!("{doi} [doi]"));
    }
    if !a.abstract_sections.is_empty() {
        let ab: Vec<String> = a
            .abstract_sections
            .iter()
            .map(|(l, _, t)| {
                if l.is_empty() {
                    plain(t)
                } else {
                    format!("{l}: {}", plain(t))
                }
            })
            .collect();
        medline_field(&mut s, "AB", &ab.join(" "));
    }
    for (last, fore, initials) in &a.authors {
        medline_field(&mut s, "FAU", &format!("{last}, {fore}"));
        medline_field(&mut s, "AU", &format!("{last} {initials}"));
    }
    medline_field(&mut s, "LA", "eng");
    for p in &a.pub_types {
        medline_field(&mut s, "PT", p);
    }
    medline_field(&mut s, "PL", "United States");
    medline_field(&mut s, "TA", &a.iso_abbreviation);
    medline_field(&mut s, "JT", &a.journal_title);
    medline_field(&mut s, "JID", "0000000");
    medline_field(&mut s, "SB", "IM");
    for (t, src, pmid) in &a.comments {
        let tag = match t.as_str() {
            "RetractionIn" => "RIN",
            "ErratumIn" => "EIN",
            "CommentIn" => "CIN",
            _ => "CON",
        };
        medline_field(&mut s, tag, &format!("{src} PMID: {pmid}"));
    }
    for m in &a.mesh {
        medline_field(&mut s, "MH", m);
    }
    medline_field(&mut s, "EDAT", "2020/01/15 06:00");
    medline_field(&mut s, "MHDA", "2021/01/06 06:00");
    medline_field(&mut s, "CRDT", "2020/01/15 06:00");
    if let Some(doi) = &a.doi {
        medline_field(&mut s, "AID", &format!("{doi} [doi]"));
    }
    medline_field(&mut s, "PST", "ppublish");
    medline_field(
        &mut s,
        "SO",
        &format!(
            "{}. {};{}({}):{}.",
            a.iso_abbreviation,
            dp.join(" "),
            a.volume,
            a.issue,
            a.medline_pgn
        ),
    );
    s
}

/// An EFetch MEDLINE answer: a leading line break, records separated by a
/// blank line, as the captures.
pub fn medline_set(articles: &[Article]) -> String {
    let records: Vec<String> = articles.iter().map(medline_record).collect();
    format!("\n{}", records.join("\n"))
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// An ESummary JSON answer (`retmode=json`) for `docs`, in the key order of
/// `esummary_json_pubmed_27933103.json`: `header`, then `result` with
/// `uids` and one object per UID.
pub fn esummary_json(docs: &[Doc]) -> String {
    let uids: Vec<String> = docs.iter().map(|d| json_str(&d.uid)).collect();
    let mut s = format!(
        "{{\"header\":{{\"type\":\"esummary\",\"version\":\"0.3\"}},\"result\":{{\"uids\":[{}]",
        uids.join(",")
    );
    for d in docs {
        let authors: Vec<String> = d
            .authors
            .iter()
            .map(|a| {
                format!(
                    "{{\"name\":{},\"authtype\":\"Author\",\"clusterid\":\"\"}}",
                    json_str(a)
                )
            })
            .collect();
        let mut ids = vec![format!(
            "{{\"idtype\":\"pubmed\",\"idtypen\":1,\"value\":{}}}",
            json_str(&d.uid)
        )];
        if let Some(pmc) = &d.pmc {
            ids.push(format!(
                "{{\"idtype\":\"pmc\",\"idtypen\":8,\"value\":{}}}",
                json_str(pmc)
            ));
            ids.push(format!(
                "{{\"idtype\":\"pmcid\",\"idtypen\":5,\"value\":{}}}",
                json_str(&format!("pmc-id: {pmc};"))
            ));
        }
        if let Some(doi) = &d.doi {
            ids.push(format!(
                "{{\"idtype\":\"doi\",\"idtypen\":3,\"value\":{}}}",
                json_str(doi)
            ));
        }
        let pubtypes: Vec<String> = d.pub_types.iter().map(|p| json_str(p)).collect();
        s.push_str(&format!(
            ",{}:{{\"uid\":{},\"pubdate\":{},\"epubdate\":\"\",\"source\":{},\"authors\":[{}],\"lastauthor\":{},\"title\":{},\"volume\":\"1\",\"issue\":\"1\",\"pages\":\"1-2\",\"lang\":[\"eng\"],\"pubtype\":[{}],\"recordstatus\":\"PubMed\",\"articleids\":[{}],\"fulljournalname\":{},\"elocationid\":{},\"sortpubdate\":\"2020/01/15 00:00\"}}",
            json_str(&d.uid),
            json_str(&d.uid),
            json_str(&d.pub_date),
            json_str(&d.source),
            authors.join(","),
            json_str(d.authors.last().map_or("", String::as_str)),
            json_str(&d.title),
            pubtypes.join(","),
            ids.join(","),
            json_str(&d.full_journal),
            json_str(&d.elocation),
        ));
    }
    s.push_str("}}");
    s
}
