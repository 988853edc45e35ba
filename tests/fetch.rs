//! `pubmed fetch`: the EFetch parser on every real capture (values written
//! from the captured XML and MEDLINE text), parser properties, and the
//! binary end to end against loopback servers (the captures, and the fake
//! NCBI's synthetic corpus).

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;

use proptest::prelude::*;
use pubmed::core::record::{Precision, Record, RecordKind};
use pubmed::ncbi::efetch::{self, SplitError};
use serde_json::Value;
use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi, UNKNOWN_FROM};
use support::server::{Reply, TestServer, fixture};

fn text(name: &str) -> String {
    String::from_utf8(fixture(name)).unwrap()
}

/// The records of a capture, by PMID, in document order.
fn records(name: &str) -> Vec<Record> {
    let set = efetch::parse_set(&text(name), false).unwrap();
    assert_eq!(set.unattributed, 0, "{name}");
    set.articles
        .into_iter()
        .map(|(pmid, r, _)| {
            let r = r.unwrap_or_else(|e| panic!("{name} {pmid}: {e}"));
            assert_eq!(r.pmid, pmid);
            r
        })
        .collect()
}

fn one(name: &str) -> Record {
    let mut all = records(name);
    assert_eq!(all.len(), 1, "{name}");
    all.remove(0)
}

// ---------------------------------------------------------------------------
// The parser on the captures

#[test]
fn season_review_and_mesh_majors() {
    // efetch_pubmed_abstract_two_articles.xml: 12091962 and 9997.
    let all = records("efetch_pubmed_abstract_two_articles.xml");
    assert_eq!(all.len(), 2);
    let r = &all[0];
    assert_eq!(r.pmid, "12091962");
    assert_eq!(
        r.title,
        "The treatment of AIDS behind the walls of correctional facilities."
    );
    // <PubDate><Year>1990</Year><Season>Spring</Season></PubDate>
    assert_eq!(r.pub_date.as_deref(), Some("1990"));
    assert_eq!(r.pub_date_text, "1990 Spring");
    assert_eq!(r.date_parts.season.as_deref(), Some("Spring"));
    assert_eq!(r.date_parts.precision(), Precision::Year);
    let j = r.journal.as_ref().unwrap();
    assert_eq!(j.title, "Social justice (San Francisco, Calif.)");
    assert_eq!(j.iso_abbreviation.as_deref(), Some("Soc Justice"));
    assert_eq!(j.issn.as_deref(), Some("1043-1578"));
    assert_eq!(
        (j.volume.as_deref(), j.issue.as_deref()),
        (Some("17"), Some("1"))
    );
    assert_eq!(j.pages.pages.as_deref(), Some("113-25"));
    assert_eq!(j.pages.start_page.as_deref(), Some("113"));
    assert_eq!(j.pages.end_page.as_deref(), Some("125"));
    assert_eq!(r.authors.len(), 1);
    let a = &r.authors[0];
    assert_eq!(a.name, "Olivero JM");
    assert_eq!(a.last_name.as_deref(), Some("Olivero"));
    assert_eq!(a.fore_name.as_deref(), Some("J Michael"));
    assert_eq!(a.initials.as_deref(), Some("JM"));
    assert_eq!(r.pub_types, ["Journal Article", "Review"]);
    assert_eq!(r.language, ["eng"]);
    assert_eq!(r.mesh_headings.len(), 19);
    assert_eq!(
        r.mesh_headings[1].descriptor,
        "Acquired Immunodeficiency Syndrome"
    );
    assert!(r.mesh_headings[1].major);
    assert!(!r.mesh_headings[0].major);
    assert_eq!(r.mesh_headings[18].descriptor, "United States");
    assert_eq!(
        r.keywords,
        ["Health Care and Public Health", "Legal Approach"]
    );
    assert_eq!(r.r#abstract, None);
    assert!(r.abstract_sections.is_empty());
    assert_eq!((r.doi.as_ref(), r.pmcid.as_ref()), (None, None));
    assert!(!r.retracted && !r.retraction_notice);
    assert_eq!(r.kind(), RecordKind::JournalArticle);
    assert_eq!(r.pubmed_url, "https://pubmed.ncbi.nlm.nih.gov/12091962/");

    let r = &all[1];
    assert_eq!(r.pmid, "9997");
    assert_eq!(
        r.title,
        "Magnetic studies of Chromatium flavocytochrome C552. A mechanism for heme-flavin interaction."
    );
    assert_eq!(r.pub_date.as_deref(), Some("1976-09-28"));
    assert_eq!(r.pub_date_text, "1976 Sep 28");
    assert_eq!(r.doi.as_deref(), Some("10.1016/0005-2795(76)90109-4"));
    assert_eq!(r.pii.as_deref(), Some("0005-2795(76)90109-4"));
    let j = r.journal.as_ref().unwrap();
    assert_eq!(j.pages.end_page.as_deref(), Some("191"));
    let chromatium = r
        .mesh_headings
        .iter()
        .find(|m| m.descriptor == "Chromatium")
        .unwrap();
    assert_eq!(chromatium.qualifiers.len(), 1);
    assert_eq!(chromatium.qualifiers[0].name, "enzymology");
    assert!(chromatium.qualifiers[0].major && !chromatium.major);
    assert_eq!(chromatium.medline_form(), "Chromatium/*enzymology");
    let abs = r.r#abstract.as_deref().unwrap();
    assert!(abs.starts_with("Electron paramagnetic resonance and magnetic susceptibility studies of Chromatium flavocytochrome C552"));
    assert!(abs.contains("the two low-spin (S = 1/2) heme irons are distinguishable"));
    assert!(abs.ends_with("indicating the existence of a mechanism for heme-flavin interaction."));
    assert_eq!(r.abstract_sections.len(), 1);
    assert_eq!(r.abstract_sections[0].label, None);
}

#[test]
fn character_references_and_escapes_are_decoded() {
    // efetch_pubmed_two_articles.xml: 11748933 and 11700088.
    let all = records("efetch_pubmed_two_articles.xml");
    let r = &all[0];
    assert_eq!(r.pmid, "11748933");
    assert_eq!(
        r.title,
        "Is cryopreservation a homogeneous process? Ultrastructure and motility of untreated, prefreezing, and postthawed spermatozoa of Diplodus puntazzo (Cetti)."
    );
    // Universit&#xe0; … ; P &lt; 0.001
    assert_eq!(
        r.authors[0].affiliations,
        [
            "Dipartimento di Scienze Ambientali, Università degli Studi della Tuscia, 01100 Viterbo, Italy."
        ]
    );
    assert!(
        r.r#abstract
            .as_deref()
            .unwrap()
            .contains("compared with 24% in the fresh sample (P < 0.001).")
    );
    assert_eq!(r.authors.len(), 8);
    assert_eq!(r.authors[7].name, "Mazzini M");
    assert_eq!(r.pub_date.as_deref(), Some("2001-06"));
    assert_eq!(r.doi.as_deref(), Some("10.1006/cryo.2001.2328"));
    assert_eq!(r.pii.as_deref(), Some("S0011-2240(01)92328-4"));
    let bream = r
        .mesh_headings
        .iter()
        .find(|m| m.descriptor == "Sea Bream")
        .unwrap();
    assert_eq!(bream.qualifiers[0].name, "anatomy & histology");
    assert!(bream.qualifiers[0].major && !bream.qualifiers[1].major);
    let r = &all[1];
    assert_eq!(r.pmid, "11700088");
    assert_eq!(
        r.title,
        "Proton MRI of (13)C distribution by J and chemical shift editing."
    );
    assert_eq!(
        r.journal.as_ref().unwrap().iso_abbreviation.as_deref(),
        Some("J Magn Reson")
    );
    assert_eq!(r.doi.as_deref(), Some("10.1006/jmre.2001.2429"));
    assert_eq!(
        r.authors[0].affiliations,
        ["INFM and Department of Physics, University of L'Aquila, I-67100 L'Aquila, Italy."]
    );
}

#[test]
fn structured_abstract_with_nlm_categories_and_inline_markup() {
    let r = one("efetch_pubmed_structured_abstract_nlmcategory.xml");
    assert_eq!(r.pmid, "28775130");
    let labels: Vec<(Option<&str>, Option<&str>)> = r
        .abstract_sections
        .iter()
        .map(|s| (s.label.as_deref(), s.nlm_category.as_deref()))
        .collect();
    assert_eq!(
        labels,
        [
            (Some("OBJECTIVES"), Some("OBJECTIVE")),
            (Some("METHODS"), Some("METHODS")),
            (Some("RESULTS"), Some("RESULTS")),
            (Some("CONCLUSIONS"), Some("CONCLUSIONS")),
        ]
    );
    // (TSH &gt;4.5 mIU/L) … (0.4-<u>&lt;</u>4.5 mIU/L)
    assert!(r.abstract_sections[1].text.contains(
        "subclinical hypothyroidism (TSH >4.5 mIU/L) compared with normal TSH (0.4-<4.5 mIU/L) and for anti-TPO positivity."
    ));
    // OR<sub>Q3</sub>=4.15 … p<sub>trend</sub> &lt;0.01
    assert!(r.abstract_sections[2].text.contains(
        "(ORQ3=4.15, 95% CI 1.56 to 11.01, ORQ4=4.76, 95% CI 1.53 to 14.82, ptrend <0.01)"
    ));
    assert!(
        r.abstract_sections[2]
            .text
            .ends_with("and positively associated with T4 (ptrend=0.01).")
    );
    let abs = r.r#abstract.unwrap();
    assert!(abs.starts_with(
        "OBJECTIVES: Animal studies suggest that exposure to pesticides may alter thyroid function"
    ));
    assert!(abs.contains(" METHODS: Self-reported lifetime pesticide use was obtained at cohort enrolment (1993-1997)."));
    assert!(abs.ends_with("CONCLUSIONS: Our results suggest that long-term exposure to aldrin, pendimethalin and methyl bromide may alter thyroid function among male pesticide applicators."));
    assert_eq!(r.pub_date.as_deref(), Some("2018-02"));
    assert_eq!(r.doi.as_deref(), Some("10.1136/oemed-2017-104431"));
    assert_eq!(r.pmcid.as_deref(), Some("PMC5771820"));
    assert_eq!(r.pii.as_deref(), Some("oemed-2017-104431"));
    let j = r.journal.unwrap();
    assert_eq!(j.pages.pages.as_deref(), Some("79-89"));
    assert_eq!(j.pages.end_page.as_deref(), Some("89"));
    assert_eq!(r.authors[1].name, "Beane Freeman LE");
    assert_eq!(
        r.authors[2].affiliations,
        [
            "Division of Cancer Epidemiology and Genetics, National Cancer Institute, Rockville, Maryland, USA.",
            "Environmental Working Group, Washington, DC, USA."
        ]
    );
    // 40 `Cites` links are kept as NCBI lists them.
    assert_eq!(
        r.comments_corrections
            .iter()
            .filter(|c| c.r#type == "Cites")
            .count(),
        40
    );
}

#[test]
fn rct_with_a_collective_author_in_place_and_comment_links() {
    let r = one("efetch_pubmed_rct_structured_abstract_commentin.xml");
    assert_eq!(r.pmid, "23121403");
    assert_eq!(
        r.title,
        "Low-dose aspirin for preventing recurrent venous thromboembolism."
    );
    assert_eq!(r.authors.len(), 13);
    assert_eq!(r.authors[0].name, "Brighton TA");
    assert_eq!(
        r.authors[0].affiliations,
        [
            "Department of Haematology, South Eastern Area Laboratory Services (SEALS), Prince of Wales Hospital, Sydney, Australia. aspire@ctc.usyd.edu.au"
        ]
    );
    let last = &r.authors[12];
    assert_eq!(last.name, "ASPIRE Investigators");
    assert_eq!(
        last.collective_name.as_deref(),
        Some("ASPIRE Investigators")
    );
    assert_eq!(last.last_name, None);
    assert_eq!(
        r.pub_types,
        [
            "Journal Article",
            "Multicenter Study",
            "Randomized Controlled Trial",
            "Research Support, Non-U.S. Gov't"
        ]
    );
    let labels: Vec<&str> = r
        .abstract_sections
        .iter()
        .map(|s| s.label.as_deref().unwrap())
        .collect();
    assert_eq!(labels, ["BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"]);
    assert!(r.abstract_sections[0].text.starts_with(
        "Patients who have had a first episode of unprovoked venous thromboembolism have a high ris"
    ));
    assert!(
        r.abstract_sections[3]
            .text
            .ends_with("land Clinical Trials Registry number, ACTRN12605000004662.).")
    );
    let comments: Vec<_> = r
        .comments_corrections
        .iter()
        .filter(|c| c.r#type == "CommentIn")
        .collect();
    assert_eq!(comments.len(), 8);
    assert_eq!(comments[0].pmid.as_deref(), Some("23121404"));
    assert_eq!(
        comments[0].source.as_deref(),
        Some("N Engl J Med. 2012 Nov 22;367(21):2039-41")
    );
    assert_eq!(comments[1].pmid.as_deref(), Some("23165071"));
    assert_eq!(r.pub_date.as_deref(), Some("2012-11-22"));
    let j = r.journal.as_ref().unwrap();
    assert_eq!(j.iso_abbreviation.as_deref(), Some("N Engl J Med"));
    assert_eq!(j.issn.as_deref(), Some("1533-4406"));
    assert_eq!(
        (j.pages.start_page.as_deref(), j.pages.end_page.as_deref()),
        (Some("1979"), Some("1987"))
    );
    // ELocationID doi, also in ArticleIdList
    assert_eq!(r.doi.as_deref(), Some("10.1056/NEJMoa1210384"));
    let aspirin = &r.mesh_headings[0];
    assert_eq!(aspirin.descriptor, "Aspirin");
    assert_eq!(
        aspirin.medline_form(),
        "Aspirin/*administration & dosage/adverse effects/therapeutic use"
    );
}

#[test]
fn guideline_with_erratum_update_and_comment_links() {
    let r = one("efetch_pubmed_guideline_erratum_update.xml");
    assert_eq!(r.pmid, "32887691");
    assert_eq!(r.title, "A living WHO guideline on drugs for covid-19.");
    assert_eq!(r.authors.len(), 85);
    assert_eq!(
        r.authors[1].affiliations,
        ["King\u{2019}s College London, St Thomas\u{2019} Hospital, London, UK"]
    );
    assert_eq!(r.authors[0].affiliations.len(), 4);
    let labels: Vec<(&str, Option<&str>)> = r
        .abstract_sections
        .iter()
        .map(|s| (s.label.as_deref().unwrap(), s.nlm_category.as_deref()))
        .collect();
    assert_eq!(
        labels,
        [
            ("UPDATES", None),
            ("CLINICAL QUESTION", None),
            ("CONTEXT", None),
            ("WHAT IS NEW?", None),
            ("ABOUT THIS GUIDELINE", None),
            ("FUTURE RECOMMENDATIONS", None),
        ]
    );
    assert_eq!(
        r.abstract_sections[1].text,
        "What is the role of drugs in the treatment of patients with covid-19?"
    );
    let links: Vec<(&str, &str)> = r
        .comments_corrections
        .iter()
        .map(|c| (c.r#type.as_str(), c.pmid.as_deref().unwrap()))
        .collect();
    assert_eq!(
        links,
        [
            ("UpdateIn", "33214213"),
            ("UpdateIn", "33789884"),
            ("UpdateIn", "34230027"),
            ("UpdateIn", "34556469"),
            ("CommentIn", "35027394"),
            ("CommentIn", "35236655"),
            ("CommentIn", "35450867"),
            ("ErratumIn", "35470203"),
            ("CommentIn", "36634963"),
        ]
    );
    assert_eq!(
        r.comments_corrections[7].source.as_deref(),
        Some("BMJ. 2022 Apr 25;377:o1045. doi: 10.1136/bmj.o1045.")
    );
    assert_eq!(r.pub_types, ["Journal Article", "Practice Guideline"]);
    assert_eq!(r.grants.len(), 2);
    assert_eq!(r.grants[0].id.as_deref(), Some("001"));
    assert_eq!(
        r.grants[0].agency.as_deref(),
        Some("World Health Organization")
    );
    assert_eq!(r.grants[0].country.as_deref(), Some("International"));
    assert_eq!(r.grants[1].id.as_deref(), Some("RP-2016-07-012"));
    assert_eq!(r.grants[1].country.as_deref(), Some("United Kingdom"));
    assert_eq!(r.pub_date.as_deref(), Some("2020-09-04"));
    assert_eq!(r.article_date.as_deref(), Some("2020-09-04"));
    let j = r.journal.unwrap();
    assert_eq!(j.volume.as_deref(), Some("370"));
    assert_eq!(j.issue, None);
    assert_eq!(j.iso_abbreviation.as_deref(), Some("BMJ"));
    assert_eq!(r.doi.as_deref(), Some("10.1136/bmj.m3379"));
}

#[test]
fn structured_abstract_2025_orcid_without_url_grants_with_empty_country() {
    let r = one("efetch_pubmed_structured_abstract_2025.xml");
    assert_eq!(r.pmid, "35123456");
    assert_eq!(
        r.title,
        "Test-retest reliability for performance-based outcome measures among individuals with arthrogryposis multiplex congenita."
    );
    assert_eq!(r.authors[0].name, "Sions JM");
    assert_eq!(r.authors[0].fore_name.as_deref(), Some("Jaclyn Megan"));
    // <Identifier Source="ORCID">0000-0002-8151-1341</Identifier>
    assert_eq!(r.authors[0].orcid.as_deref(), Some("0000-0002-8151-1341"));
    // aged 10 to 50&#xa0;years: the no-break space is a space in plain text
    assert!(r.abstract_sections[1].text.contains("aged 10 to 50 years"));
    assert_eq!(r.abstract_sections.len(), 4);
    assert_eq!(
        r.keywords[..5],
        [
            "Arthrogryposis",
            "Clubfoot",
            "Gait",
            "Postural balance",
            "Walking speed"
        ]
    );
    assert_eq!(r.grants.len(), 3);
    assert_eq!(r.grants[0].id.as_deref(), Some("T32 HD007490"));
    assert_eq!(r.grants[0].agency.as_deref(), Some("NICHD NIH HHS"));
    assert_eq!(
        r.grants[1].agency.as_deref(),
        Some("Eunice Kennedy Shriver National Institute of Child Health and Human Development")
    );
    assert_eq!(r.grants[1].country, None);
    assert_eq!(
        r.grants[2].id.as_deref(),
        Some("Promotion of Doctoral Studies I/II scholarships")
    );
    // the article's own DOI, never one of its 23 KB of references
    assert_eq!(r.doi.as_deref(), Some("10.1186/s12891-022-05070-w"));
    assert_eq!(r.pmcid.as_deref(), Some("PMC8818254"));
    assert_eq!(r.pii.as_deref(), Some("10.1186/s12891-022-05070-w"));
    let j = r.journal.unwrap();
    assert_eq!(j.pages.pages.as_deref(), Some("121"));
    assert_eq!(j.pages.start_page.as_deref(), Some("121"));
    assert_eq!(j.pages.end_page, None);
    assert_eq!(r.pub_date.as_deref(), Some("2022-02-05"));
}

#[test]
fn book_article_is_a_book_with_publisher_and_editors() {
    let r = one("efetch_pubmed_book_article_2012.xml");
    assert_eq!(r.pmid, "20301295");
    assert_eq!(r.kind(), RecordKind::Book);
    assert_eq!(r.title, "GeneReviews™");
    assert!(r.journal.is_none());
    assert!(r.authors.is_empty());
    let b = r.book.as_ref().unwrap();
    assert_eq!(b.title, "GeneReviews™");
    assert_eq!(
        b.publisher.as_deref(),
        Some("University of Washington, Seattle")
    );
    assert_eq!(b.publisher_location.as_deref(), Some("Seattle (WA)"));
    assert_eq!(b.medium.as_deref(), Some("Internet"));
    assert_eq!(b.accession.as_deref(), Some("NBK1116"));
    assert_eq!(b.beginning_date.as_deref(), Some("1993"));
    assert!(!b.is_part);
    let editors: Vec<&str> = b.editors.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        editors,
        ["Pagon RA", "Bird TD", "Dolan CR", "Stephens K", "Adam MP"]
    );
    assert_eq!(b.editors[0].fore_name.as_deref(), Some("Roberta A"));
    assert_eq!(r.pub_date.as_deref(), Some("1993"));
    assert_eq!(r.pub_date_text, "1993");
    assert_eq!(r.language, ["eng"]);
    let abs = r.r#abstract.as_deref().unwrap();
    assert!(abs.starts_with("GeneReviews are expert-authored, peer-reviewed disease descriptions"));
    assert!(abs.ends_with("and an Illustrated Glossary of genetic counseling and testing terms."));
    assert_eq!(r.pubmed_url, "https://pubmed.ncbi.nlm.nih.gov/20301295/");
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["book"]["publisherLocation"], "Seattle (WA)");
    assert_eq!(json["journal"], Value::Null);
}

#[test]
fn vernacular_title_and_hex_references() {
    let r = one("efetch_pubmed_vernacular_title_letter_2024.xml");
    assert_eq!(r.pmid, "21813142");
    assert_eq!(
        r.title,
        "[Hospitalized surgical patients comanaged by Internal Medicine specialists]."
    );
    assert_eq!(
        r.vernacular_title.as_deref(),
        Some("Pacientes quirúrgicos ingresados: asistencia compartida con Medicina Interna.")
    );
    let names: Vec<&str> = r.authors.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Montero Ruiz E",
            "Gómez Ayerbe C",
            "Pérez Sánchez L",
            "Melgar Molero V"
        ]
    );
    assert_eq!(r.language, ["spa"]);
    assert_eq!(r.pub_types, ["Letter"]);
    assert_eq!(r.r#abstract, None);
    assert_eq!(r.pub_date.as_deref(), Some("2012-02-25"));
    assert_eq!(r.article_date.as_deref(), Some("2011-08-02"));
    assert_eq!(r.doi.as_deref(), Some("10.1016/j.medcli.2011.05.017"));
    assert_eq!(r.pii.as_deref(), Some("S0025-7753(11)00684-1"));
    let internal = r
        .mesh_headings
        .iter()
        .find(|m| m.descriptor == "Internal Medicine")
        .unwrap();
    assert_eq!(
        internal.medline_form(),
        "Internal Medicine/*organization & administration/standards"
    );
    let j = r.journal.unwrap();
    assert_eq!(j.iso_abbreviation.as_deref(), Some("Med Clin (Barc)"));
    assert_eq!(j.pages.pages.as_deref(), Some("177-9"));
    assert_eq!(j.pages.end_page.as_deref(), Some("179"));
}

#[test]
fn collective_name_as_the_only_author() {
    let r = one("efetch_pubmed_collective_author_2024.xml");
    assert_eq!(r.pmid, "21860499");
    assert_eq!(r.title, "Nitrofen.");
    assert_eq!(r.authors.len(), 1);
    assert_eq!(r.authors[0].name, "National Toxicology Program");
    assert_eq!(
        r.authors[0].collective_name.as_deref(),
        Some("National Toxicology Program")
    );
    assert_eq!(r.authors[0].initials, None);
    assert_eq!(r.pub_date.as_deref(), Some("2011"));
    let j = r.journal.unwrap();
    assert_eq!(j.title, "Report on carcinogens : carcinogen profiles");
    assert_eq!(j.volume.as_deref(), Some("12"));
    // <StartPage>296</StartPage><EndPage>297</EndPage><MedlinePgn>296-7</MedlinePgn>
    assert_eq!(j.pages.pages.as_deref(), Some("296-7"));
    assert_eq!(j.pages.end_page.as_deref(), Some("297"));
    assert_eq!(r.doi, None);
}

#[test]
fn orcid_collective_and_mathml() {
    let r = one("efetch_pubmed_orcid_collectivename_mathml_2019.xml");
    assert_eq!(r.pmid, "29963580");
    assert_eq!(
        r.title,
        "Development of a pulmonary imaging biomarker pipeline for phenotyping of chronic lung disease."
    );
    let names: Vec<&str> = r.authors.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Guo F",
            "Capaldi D",
            "Kirby M",
            "Sheikh K",
            "Svenningsen S",
            "McCormack DG",
            "Fenster A",
            "Parraga G",
            "Canadian Respiratory Research Network"
        ]
    );
    // https://orcid.org/0000-0002-4590-7461
    assert_eq!(r.authors[1].orcid.as_deref(), Some("0000-0002-4590-7461"));
    assert_eq!(r.authors[0].orcid, None);
    assert_eq!(r.authors[0].affiliations.len(), 3);
    assert_eq!(
        r.authors[8].collective_name.as_deref(),
        Some("Canadian Respiratory Research Network")
    );
    // <mml:mmultiscripts> He / <mml:mprescripts/> <mml:none/> 3 …: linear
    // TeX in $…$, pandoc 3.9's spelling of each formula
    // (tests/fixtures/mathml_tex_pandoc.json, entries 0 and 1), the text
    // around kept.
    let abs = r.r#abstract.as_deref().unwrap();
    assert!(abs.contains(
        "The software pipelines were generated using C++ and included: (1) inhaled ${{}_{}^{3}{He}}/{{}_{}^{129}{Xe}}\\,{MRI}$ ventilation and apparent diffusion coefficients, (2) CT-MRI coregistration"
    ));
    assert!(abs.contains("(3) ultrashort echo-time ${{}_{}^{1}H}\\,{MRI}$ proton density measurements, (4) free-breathing Fourier-decomposition ${{}_{}^{1}H}\\,{MRI}$ ventilation/perfusion and free-breathing ${{}_{}^{1}H}\\,{MRI}$ specific ventilation, (5)"));
    assert!(abs.ends_with("for point-of-care and high-throughput research."));
    // the article's DOI; its 49 references carry other IDs
    assert_eq!(r.doi.as_deref(), Some("10.1117/1.JMI.5.2.026002"));
    assert_eq!(r.pmcid.as_deref(), Some("PMC6022861"));
    assert_eq!(r.pii.as_deref(), Some("17360RR"));
    assert_eq!(r.pub_date.as_deref(), Some("2018-04"));
    assert_eq!(r.article_date.as_deref(), Some("2018-06-28"));
    assert_eq!(
        r.keywords,
        [
            "asthma",
            "chronic obstructive lung disease",
            "image processing, biomarkers",
            "magnetic resonance imaging",
            "thoracic computed tomography"
        ]
    );
    let j = r.journal.unwrap();
    assert_eq!(j.pages.pages.as_deref(), Some("026002"));
    assert_eq!(
        j.iso_abbreviation.as_deref(),
        Some("J Med Imaging (Bellingham)")
    );
}

#[test]
fn many_affiliations_grants_and_italic_title() {
    let r = one("efetch_pubmed_many_affiliations_grants_2018.xml");
    assert_eq!(r.pmid, "27797938");
    // <i>TERT</i> inside ArticleTitle
    assert_eq!(
        r.title,
        "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer."
    );
    assert_eq!(r.authors.len(), 22);
    let affiliations: usize = r.authors.iter().map(|a| a.affiliations.len()).sum();
    assert_eq!(affiliations, 38);
    let last = &r.authors[21];
    assert_eq!(last.name, "Wolpin BM");
    assert_eq!(
        last.affiliations,
        [
            "Department of Medical Oncology, Dana-Farber Cancer Institute, Boston, Massachusetts, USA.",
            "Department of Medicine, Brigham and Women's Hospital, and Harvard Medical School, Boston, Massachusetts, USA."
        ]
    );
    assert_eq!(r.grants.len(), 35);
    assert_eq!(r.grants[0].id.as_deref(), Some("KL2 TR001100"));
    assert_eq!(r.grants[0].agency.as_deref(), Some("NCATS NIH HHS"));
    assert_eq!(r.grants[0].country.as_deref(), Some("United States"));
    assert_eq!(r.grants[34].id.as_deref(), Some("N01WH22110"));
    // <Month>06</Month>: a numeric month, written as given
    assert_eq!(r.pub_date.as_deref(), Some("2017-06"));
    assert_eq!(r.pub_date_text, "2017 06");
    assert_eq!(r.article_date.as_deref(), Some("2016-10-21"));
    let labels: Vec<&str> = r
        .abstract_sections
        .iter()
        .map(|s| s.label.as_deref().unwrap())
        .collect();
    assert_eq!(labels, ["OBJECTIVE", "DESIGN", "RESULTS", "CONCLUSIONS"]);
    assert!(r.abstract_sections[0].text.contains(
        "genetic variants at the telomerase reverse transcriptase (TERT) gene region have been associated"
    ));
    assert_eq!(r.abstract_sections[0].nlm_category, None);
    assert_eq!(r.keywords, ["PANCREATIC CANCER"]);
    assert_eq!(r.pub_types.len(), 5);
    assert_eq!(r.pub_types[1], "Observational Study");
    let comment = r
        .comments_corrections
        .iter()
        .find(|c| c.r#type == "CommentIn")
        .unwrap();
    assert_eq!(comment.pmid.as_deref(), Some("27920200"));
    assert_eq!(comment.source.as_deref(), Some("Gut. 2017 Jun;66(6):1"));
    assert_eq!(
        r.comments_corrections
            .iter()
            .filter(|c| c.r#type == "Cites")
            .count(),
        48
    );
    assert_eq!(r.doi.as_deref(), Some("10.1136/gutjnl-2016-312510"));
    assert_eq!(r.pmcid.as_deref(), Some("PMC5442267"));
    let j = r.journal.unwrap();
    assert_eq!(j.pages.pages.as_deref(), Some("1116-1122"));
    assert_eq!(j.pages.end_page.as_deref(), Some("1122"));
}

#[test]
fn medline_captures_split_into_ncbi_bytes() {
    let four = text("medline_pubmed_four_records_2008.txt");
    let recs = efetch::split_medline(&four).unwrap();
    let pmids: Vec<&str> = recs.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(pmids, ["16403221", "16377612", "14871861", "14630660"]);
    // Each record is the capture's bytes from its PMID line to its SO line.
    let joined: String = recs.iter().map(|(_, t)| format!("\n{t}")).collect();
    assert_eq!(joined, four);
    assert!(recs[0].1.starts_with("PMID- 16403221\nOWN - NLM\n"));
    assert!(
        recs[0]
            .1
            .ends_with("SO  - BMC Bioinformatics. 2006 Jan 10;7:10.\n")
    );
    // trailing spaces inside continuation lines are kept
    assert!(recs[0].1.contains("The ASTRAL \n      compendium"));
    let one = text("medline_pubmed_multiline_mesh_2014.txt");
    let recs = efetch::split_medline(&one).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].0, "23039619");
    assert_eq!(format!("\n{}", recs[0].1), one);
    assert!(recs[0].1.contains("MH  - High-Intensity Focused Ultrasound Ablation/adverse\n      effects/instrumentation/*methods\n"));
    let orcid = text("medline_pubmed_orcid_grants_2021.txt");
    let recs = efetch::split_medline(&orcid).unwrap();
    assert_eq!(recs[0].0, "33020656");
    assert_eq!(format!("\n{}", recs[0].1), orcid);
}

#[test]
fn bodies_that_are_not_a_set_are_told_apart() {
    assert_eq!(
        efetch::parse_set(
            &text("efetch_error_http400_external_viewer_timeout.xml"),
            false
        )
        .unwrap_err(),
        SplitError::OtherRoot("eFetchResult".into())
    );
    let prolog_only = "<?xml version=\"1.0\" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC \"-//NLM//DTD PubMedArticle, 1st January 2025//EN\" \"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd\">\n";
    assert_eq!(
        efetch::parse_set(prolog_only, false).unwrap_err(),
        SplitError::NoRoot
    );
    let cut = text("efetch_pubmed_two_articles.xml");
    let cut = &cut[..cut.len() / 2];
    // Cut inside the first article: a body cut short (retried), not garbage.
    assert_eq!(
        efetch::parse_set(cut, false).unwrap_err(),
        SplitError::Truncated("PubmedArticle".into())
    );
}

#[test]
fn raw_articles_are_the_captured_bytes() {
    let body = text("efetch_pubmed_two_articles.xml");
    let set = efetch::parse_set(&body, true).unwrap();
    assert!(body[..set.prolog_len].ends_with("pubmed_250101.dtd\">\n"));
    for (_, _, raw) in &set.articles {
        let raw = raw.as_deref().unwrap();
        assert!(raw.starts_with("<PubmedArticle><MedlineCitation"));
        assert!(raw.ends_with("</PubmedArticle>"));
        assert!(body.contains(raw));
    }
}

#[test]
fn deleted_and_unreadable_articles_are_accounted_for() {
    let body = "<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID Version=\"1\">5</PMID></MedlineCitation></PubmedArticle><PubmedArticle><PubmedData/></PubmedArticle><DeleteCitation><PMID Version=\"1\">7</PMID><PMID Version=\"1\">8</PMID></DeleteCitation></PubmedArticleSet>";
    let set = efetch::parse_set(body, false).unwrap();
    assert_eq!(set.deleted, ["7", "8"]);
    assert_eq!(set.unattributed, 1);
    assert_eq!(set.articles.len(), 1);
    assert_eq!(set.articles[0].0, "5");
    assert!(
        set.articles[0]
            .1
            .as_ref()
            .unwrap_err()
            .contains("no <Article>")
    );
}

// ---------------------------------------------------------------------------
// Properties

/// The real captures, cut and mutated: the parser never panics, and every
/// PMID it reports comes from the body.
fn capture_bodies() -> Vec<String> {
    [
        "efetch_pubmed_abstract_two_articles.xml",
        "efetch_pubmed_two_articles.xml",
        "efetch_pubmed_vernacular_title_letter_2024.xml",
        "efetch_pubmed_collective_author_2024.xml",
        "efetch_pubmed_orcid_collectivename_mathml_2019.xml",
    ]
    .iter()
    .map(|n| text(n))
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn parser_never_panics_on_mutated_captures(
        which in 0usize..5,
        cut in 0.0f64..1.0,
        edits in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..6),
    ) {
        let bodies = capture_bodies();
        let mut bytes = bodies[which].clone().into_bytes();
        bytes.truncate((bytes.len() as f64 * cut) as usize + 1);
        for (at, b) in edits {
            let i = ((bytes.len() - 1) as f64 * at) as usize;
            bytes[i] = b;
        }
        let body = String::from_utf8_lossy(&bytes);
        if let Ok(set) = efetch::parse_set(&body, true) {
            for (pmid, _, raw) in &set.articles {
                prop_assert!(body.contains(pmid.as_str()));
                prop_assert!(body.contains(raw.as_deref().unwrap()));
            }
        }
        let _ = efetch::split_medline(&body);
    }

    #[test]
    fn parser_never_panics_on_arbitrary_text(body in "\\PC{0,400}") {
        let _ = efetch::parse_set(&body, true);
        let _ = efetch::split_medline(&body);
    }

    #[test]
    fn every_article_of_a_well_formed_set_is_accounted_for(
        pmids in proptest::collection::vec(1u64..99_999_999, 0..40),
        broken in proptest::collection::vec(any::<bool>(), 40),
    ) {
        // Generated sets: some articles complete, some without <Article>
        // (unreadable): each PMID is either a record or an error, once.
        let mut body = String::from("<PubmedArticleSet>\n");
        for (i, p) in pmids.iter().enumerate() {
            let a = support::ncbi::efetch_article(&support::ncbi::Article::new(&p.to_string()));
            let a = if broken[i] {
                let start = a.find("<Article ").unwrap();
                let end = a.find("</Article>").unwrap() + "</Article>".len();
                format!("{}{}", &a[..start], &a[end..])
            } else {
                a
            };
            body.push_str(&a);
            body.push('\n');
        }
        body.push_str("</PubmedArticleSet>\n");
        let set = efetch::parse_set(&body, false).unwrap();
        prop_assert_eq!(set.unattributed, 0);
        let got: Vec<String> = set.articles.iter().map(|(p, _, _)| p.clone()).collect();
        let want: Vec<String> = pmids.iter().map(u64::to_string).collect();
        prop_assert_eq!(got, want);
        for (i, (_, r, _)) in set.articles.iter().enumerate() {
            prop_assert_eq!(r.is_err(), broken[i]);
        }
    }
}

// ---------------------------------------------------------------------------
// The binary against a server that answers from the captures

/// The captures, served as EFetch would: XML articles by PMID (bytes as
/// captured) and MEDLINE records by PMID; a request for exactly the PMIDs
/// of one capture gets that capture verbatim.
struct Captures {
    prolog: String,
    articles: HashMap<String, String>,
    xml_files: Vec<(String, String)>,
    medline: HashMap<String, String>,
    medline_files: Vec<(String, String)>,
}

const XML_CAPTURES: [&str; 11] = [
    "efetch_pubmed_abstract_two_articles.xml",
    "efetch_pubmed_two_articles.xml",
    "efetch_pubmed_structured_abstract_nlmcategory.xml",
    "efetch_pubmed_rct_structured_abstract_commentin.xml",
    "efetch_pubmed_guideline_erratum_update.xml",
    "efetch_pubmed_structured_abstract_2025.xml",
    "efetch_pubmed_book_article_2012.xml",
    "efetch_pubmed_vernacular_title_letter_2024.xml",
    "efetch_pubmed_collective_author_2024.xml",
    "efetch_pubmed_orcid_collectivename_mathml_2019.xml",
    "efetch_pubmed_many_affiliations_grants_2018.xml",
];
const MEDLINE_CAPTURES: [&str; 3] = [
    "medline_pubmed_four_records_2008.txt",
    "medline_pubmed_multiline_mesh_2014.txt",
    "medline_pubmed_orcid_grants_2021.txt",
];

/// The top-level article elements of a capture and their PMIDs, found by
/// plain string search (independent of the parser under test).
fn capture_articles(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        let starts = ["<PubmedArticle>", "<PubmedBookArticle>"];
        let Some((at, tag)) = starts
            .iter()
            .filter_map(|t| rest.find(t).map(|i| (i, *t)))
            .min()
        else {
            return out;
        };
        let close = format!("</{}", &tag[1..]);
        let end = rest[at..].find(&close).unwrap() + at + close.len();
        let article = &rest[at..end];
        let p = article.find("<PMID Version=\"1\">").unwrap() + 18;
        let pmid = article[p..p + article[p..].find('<').unwrap()].to_string();
        out.push((pmid, article.to_string()));
        rest = &rest[end..];
    }
}

fn captures() -> Captures {
    let mut c = Captures {
        prolog: String::new(),
        articles: HashMap::new(),
        xml_files: Vec::new(),
        medline: HashMap::new(),
        medline_files: Vec::new(),
    };
    for name in XML_CAPTURES {
        let body = text(name);
        let arts = capture_articles(&body);
        let ids: Vec<&str> = arts.iter().map(|(p, _)| p.as_str()).collect();
        c.xml_files.push((ids.join(","), body.clone()));
        for (p, a) in arts {
            c.articles.insert(p, a);
        }
    }
    let first = text(XML_CAPTURES[0]);
    c.prolog = first[..first.find("<PubmedArticleSet>").unwrap()].to_string();
    for name in MEDLINE_CAPTURES {
        let body = text(name);
        let mut ids = Vec::new();
        for rec in body.split("\nPMID- ").skip(1) {
            let pmid = rec[..rec.find('\n').unwrap()].trim().to_string();
            let record = format!("PMID- {}", rec.trim_end_matches('\n'));
            c.medline.insert(pmid.clone(), format!("{record}\n"));
            ids.push(pmid);
        }
        c.medline_files.push((ids.join(","), body));
    }
    c
}

fn capture_server() -> TestServer {
    let c = Arc::new(captures());
    TestServer::start(move |req| {
        if !req.is("efetch.fcgi") {
            return Reply::status(404, "text/plain", "unknown endpoint");
        }
        let id = req.param("id").unwrap_or_default().to_string();
        let ids: Vec<&str> = id.split(',').collect();
        if req.param("rettype") == Some("medline") {
            if let Some((_, body)) = c.medline_files.iter().find(|(k, _)| *k == id) {
                return Reply::status(200, "text/plain", body.clone());
            }
            let recs: Vec<&str> = ids
                .iter()
                .filter_map(|p| c.medline.get(*p))
                .map(String::as_str)
                .collect();
            return Reply::status(200, "text/plain", format!("\n{}", recs.join("\n")));
        }
        if let Some((_, body)) = c.xml_files.iter().find(|(k, _)| *k == id) {
            return Reply::xml(body.clone());
        }
        let mut body = format!("{}<PubmedArticleSet>\n", c.prolog);
        for p in ids {
            if let Some(a) = c.articles.get(p) {
                body.push_str(a);
                body.push('\n');
            }
        }
        body.push_str("</PubmedArticleSet>\n");
        Reply::xml(body)
    })
}

/// `pubmed fetch ARGS…` against `server`, with a 30 s deadline per chunk:
/// a chunk of 1,000 records from a debug build on a loaded machine can take
/// longer than the runner's 5 s.
fn fetch(server: &TestServer, args: &[&str]) -> Run {
    let mut all = vec!["fetch"];
    all.extend_from_slice(args);
    pubmed(&all)
        .server(server)
        .env("PUBMED_DEADLINE_S", "30")
        .run()
}

fn ndjson(run: &Run) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn json_holds_records_and_totals_in_one_post() {
    let server = capture_server();
    let run = fetch(&server, &["12091962", "9997", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["submitted"], 2);
    assert_eq!(v["found"], 2);
    assert_eq!(v["failed"], 0);
    let r = &v["records"];
    assert_eq!(r[0]["pmid"], "12091962");
    assert_eq!(r[0]["pubDate"], "1990");
    assert_eq!(r[0]["pubDateText"], "1990 Spring");
    assert_eq!(r[0]["journal"]["isoAbbreviation"], "Soc Justice");
    assert_eq!(r[0]["journal"]["startPage"], "113");
    assert_eq!(r[0]["authors"][0]["name"], "Olivero JM");
    assert_eq!(
        r[0]["meshHeadings"][1]["descriptor"],
        "Acquired Immunodeficiency Syndrome"
    );
    assert_eq!(r[0]["meshHeadings"][1]["major"], true);
    assert_eq!(r[0]["doi"], Value::Null);
    assert_eq!(r[0]["retracted"], false);
    assert_eq!(r[0]["book"], Value::Null);
    assert_eq!(
        r[0]["pubmedUrl"],
        "https://pubmed.ncbi.nlm.nih.gov/12091962/"
    );
    assert_eq!(r[1]["pmid"], "9997");
    assert_eq!(r[1]["doi"], "10.1016/0005-2795(76)90109-4");
    assert_eq!(r[1]["abstractSections"][0]["label"], Value::Null);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].method, "POST");
    assert_eq!(reqs[0].param("db"), Some("pubmed"));
    assert_eq!(reqs[0].param("retmode"), Some("xml"));
    assert_eq!(reqs[0].param("id"), Some("12091962,9997"));
    assert!(
        run.stderr.contains("2 PMIDs: 2 found, 0 failed; 1 request"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_pmid_efetch_leaves_out_gets_a_not_found_record_in_its_place() {
    let server = capture_server();
    let run = fetch(&server, &["12091962", "99999999", "9997", "-f", "ndjson"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = ndjson(&run);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["pmid"], "12091962");
    assert_eq!(lines[1]["pmid"], "99999999");
    assert_eq!(lines[1]["error"]["reason"], "not_found");
    assert!(
        lines[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not in PubMed")
    );
    assert_eq!(lines[1].as_object().unwrap().len(), 2);
    assert_eq!(lines[2]["pmid"], "9997");
    // every input failed per-ID: exit 1, as grep
    let run = fetch(&server, &["99999999", "-f", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.json()["records"][0]["error"]["reason"], "not_found");
}

#[test]
fn a_malformed_argument_exits_2_before_any_request() {
    let server = capture_server();
    for bad in ["12a", "0", "PMC123", "12,13"] {
        let run = fetch(&server, &["12091962", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert!(run.stderr.contains("[malformed_id]"), "{}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let run = fetch(&server, &["12a", "-f", "json"]);
    assert_eq!(run.error_json()["reason"], "malformed_id");
    // fetch takes PMIDs only: the hint says how to get one from a DOI
    let run = fetch(&server, &["10.1038/ng.590"]);
    assert_eq!(
        run.stderr,
        "pubmed: error: \"10.1038/ng.590\" is not a valid PMID: it is written as a DOI; a PMID is digits, never 0 (leading zeros allowed), e.g. 23193287 [malformed_id]\n\
         pubmed: hint: this command takes PMIDs (digits); turn a PMCID or DOI into its PMID with `pubmed convert ID --to pmid`\n"
    );
    assert_eq!(server.count(), 0);
}

#[test]
fn input_files_skip_blank_and_comment_lines_and_keep_bad_lines_in_place() {
    let server = capture_server();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pmids.txt");
    std::fs::write(
        &path,
        "\u{FEFF}12091962\r\n\r\n# from my notes\r\n  abc  \r\n0009997\r\n\u{FEFF}9997\n",
    )
    .unwrap();
    let run = fetch(
        &server,
        &["--input", path.to_str().unwrap(), "-f", "ndjson"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = ndjson(&run);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["pmid"], "12091962");
    assert_eq!(lines[1]["pmid"], "abc");
    assert_eq!(lines[1]["error"]["reason"], "malformed_id");
    assert_eq!(lines[2]["pmid"], "9997");
    assert_eq!(
        lines[2]["title"],
        "Magnetic studies of Chromatium flavocytochrome C552. A mechanism for heme-flavin interaction."
    );
    // U+FEFF is a byte-order mark only at the start of the file
    assert_eq!(lines[3]["error"]["reason"], "malformed_id");
    // one request, each PMID once
    assert_eq!(server.requests()[0].param("id"), Some("12091962,9997"));
    // stdin: `-`, or a pipe with no arguments
    for args in [vec!["-", "-f", "ndjson"], vec!["-f", "ndjson"]] {
        let mut all = vec!["fetch"];
        all.extend(args);
        let run = pubmed(&all).server(&server).stdin("9997\n12091962\n").run();
        assert_eq!(run.code, 0, "{}", run.stderr);
        let lines = ndjson(&run);
        assert_eq!(lines[0]["pmid"], "9997");
        assert_eq!(lines[1]["pmid"], "12091962");
    }
    let run = fetch(&server, &["--input", "/nonexistent/pmids.txt"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot read /nonexistent/pmids.txt"),
        "{}",
        run.stderr
    );
}

#[test]
fn abstract_format_reads_like_pubmed() {
    let server = capture_server();
    let run = fetch(&server, &["12091962", "-f", "abstract"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "1. Soc Justice. 1990 Spring;17(1):113-25.\n\nThe treatment of AIDS behind the walls of correctional facilities.\n\nOlivero JM.\n\nPMID: 12091962\n\n"
    );
    let run = fetch(&server, &["27797938", "-f", "abstract"]);
    let out = &run.stdout;
    assert!(out.starts_with("1. Gut. 2017 Jun;66(6):1116-1122. doi: 10.1136/gutjnl-2016-312510. Epub 2016 Oct 21.\n\nLeucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.\n\nBao Y(1), Prescott J(1), Yuan C(2)(3), Zhang M(4), Kraft P(2)(5),"), "{out}");
    assert!(out.contains("\nAuthor information:\n(1)Channing Division of Network Medicine, Department of Medicine, Brigham and Women's Hospital, and Harvard Medical School, Boston, Massachusetts, USA.\n(2)Department of Epidemiology, Harvard T.H. Chan School of Public Health, Boston, Massachusetts, USA.\n(3)Department of Medical Oncology, Dana-Farber Cancer Institute, Boston, Massachusetts, USA.\n"), "{out}");
    assert!(out.contains(
        "\n\nOBJECTIVE: Telomere shortening occurs as an early event in pancreatic tumorigenesis"
    ));
    assert!(out.contains("\n\nDESIGN: "));
    assert!(out.contains("\nComment in: Gut. 2017 Jun;66(6):1 PMID: 27920200\n"));
    assert!(
        out.ends_with("\nDOI: 10.1136/gutjnl-2016-312510\nPMCID: PMC5442267\nPMID: 27797938\n\n")
    );
    // a book: editors, title, place and publisher
    let run = fetch(&server, &["20301295", "-f", "abstract"]);
    assert!(run.stdout.starts_with("1. Pagon RA, Bird TD, Dolan CR, Stephens K, Adam MP, editors. GeneReviews™ [Internet]. Seattle (WA): University of Washington, Seattle; 1993.\n\nGeneReviews™\n\nEditors: Pagon RA, Bird TD, Dolan CR, Stephens K, Adam MP.\n\nGeneReviews are expert-authored"), "{}", run.stdout);
    // vernacular title under the title; a missing PMID numbered in place
    let run = fetch(&server, &["99999999", "21813142", "-f", "abstract"]);
    assert!(run.stdout.starts_with("1. PMID 99999999: EFetch returned no record for this PMID: it is not in PubMed [not_found]\n\n2. Med Clin (Barc). 2012 Feb 25;138(4):177-9. doi: 10.1016/j.medcli.2011.05.017. Epub 2011 Aug 2.\n\n[Hospitalized surgical patients comanaged by Internal Medicine specialists].\nPacientes quirúrgicos ingresados: asistencia compartida con Medicina Interna.\n\nMontero Ruiz E, Gómez Ayerbe C, Pérez Sánchez L, Melgar Molero V.\n"), "{}", run.stdout);
}

#[test]
fn medline_is_ncbis_own_bytes() {
    let server = capture_server();
    let run = fetch(&server, &["23039619", "-f", "medline"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, text("medline_pubmed_multiline_mesh_2014.txt"));
    let req = &server.requests()[0];
    assert_eq!(req.param("rettype"), Some("medline"));
    assert_eq!(req.param("retmode"), Some("text"));
    let run = fetch(
        &server,
        &[
            "16403221", "16377612", "14871861", "14630660", "-f", "medline",
        ],
    );
    assert_eq!(run.stdout, text("medline_pubmed_four_records_2008.txt"));
    // a PMID with no record: nothing in the MEDLINE text, a line on stderr,
    // and the exit status of the batch rule
    let run = fetch(&server, &["33020656", "99999999", "-f", "medline"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, text("medline_pubmed_orcid_grants_2021.txt"));
    assert!(run.stderr.contains("pubmed: PMID 99999999: EFetch returned no record for this PMID: it is not in PubMed [not_found]"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("2 PMIDs: 1 found, 1 failed (not_found 1)")
    );
}

#[test]
fn xml_is_one_set_of_the_articles_own_bytes() {
    let server = capture_server();
    let run = fetch(&server, &["12091962", "99999999", "9997", "-f", "xml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let capture = text("efetch_pubmed_abstract_two_articles.xml");
    let prolog = &capture[..capture.find("<PubmedArticleSet>").unwrap()];
    assert!(
        run.stdout
            .starts_with(&format!("{prolog}<PubmedArticleSet>\n"))
    );
    assert!(run.stdout.ends_with("</PubmedArticleSet>\n"));
    for (_, article) in capture_articles(&capture) {
        assert!(run.stdout.contains(&format!("{article}\n")));
    }
    assert!(run.stdout.contains("<!-- pubmed: PMID 99999999: not_found: EFetch returned no record for this PMID: it is not in PubMed -->"));
    let again = efetch::parse_set(&run.stdout, false).unwrap();
    let pmids: Vec<&str> = again.articles.iter().map(|(p, _, _)| p.as_str()).collect();
    assert_eq!(pmids, ["12091962", "9997"]);
}

#[test]
fn csv_and_tsv_have_one_line_per_record() {
    let server = capture_server();
    let run = fetch(&server, &["12091962", "28775130", "99999999", "-f", "csv"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut rd = csv::Reader::from_reader(run.stdout.as_bytes());
    let header: Vec<String> = rd.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(
        header,
        [
            "pmid",
            "title",
            "authors",
            "journal",
            // one spelling with search's CSV (issue 25: it was pubDate)
            "pub_date",
            "doi",
            "pmcid",
            "pub_types",
            "mesh_headings",
            "retracted",
            "abstract",
            "error"
        ]
    );
    let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(&rows[0][0], "12091962");
    assert_eq!(&rows[0][2], "Olivero JM");
    assert_eq!(&rows[0][3], "Soc Justice");
    assert_eq!(&rows[0][4], "1990");
    assert_eq!(&rows[0][7], "Journal Article; Review");
    assert!(
        rows[0][8]
            .starts_with("AIDS Serodiagnosis; *Acquired Immunodeficiency Syndrome; Civil Rights;")
    );
    assert_eq!(&rows[0][9], "false");
    assert_eq!(&rows[1][0], "28775130");
    assert_eq!(&rows[1][5], "10.1136/oemed-2017-104431");
    assert_eq!(&rows[1][6], "PMC5771820");
    assert!(rows[1][10].starts_with("OBJECTIVES: Animal studies"));
    assert_eq!(&rows[2][0], "99999999");
    assert!(rows[2][11].starts_with("not_found: "));
    // one physical line per record (plus the header)
    assert_eq!(run.stdout.lines().count(), 4);
    let run = fetch(&server, &["28775130", "29963580", "-f", "tsv"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    for l in &lines {
        assert_eq!(l.split('\t').count(), 12, "{l}");
    }
    assert!(lines[2].contains("inhaled ${{}_{}^{3}{He}}/{{}_{}^{129}{Xe}}\\,{MRI}$ ventilation"));
}

/// The README's fetch example is what the command prints for the capture,
/// and its list of per-record reasons is the engine's.
#[test]
fn the_readme_shows_what_fetch_prints() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme
        .split("```console\n$ pubmed fetch 12091962 -f abstract\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("README's fetch console block");
    let server = capture_server();
    let run = fetch(&server, &["12091962", "-f", "abstract"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim_end(), block.trim_end());
    let at = readme.find("fetch's per-record reasons:").unwrap();
    let paragraph = readme[at..].split("\n\n").next().unwrap();
    let listed: Vec<&str> = paragraph.split('`').skip(1).step_by(2).collect();
    for r in pubmed::ops::fetch::PER_RECORD_REASONS {
        assert!(listed.contains(&r.as_str()), "{r}: {listed:?}");
    }
}

#[test]
fn table_lists_records_and_errors() {
    let server = capture_server();
    let run = fetch(&server, &["21860499", "99999999", "-f", "table"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for needle in [
        "21860499",
        "National Toxicology Program",
        "Nitrofen.",
        "Rep Carcinog",
        "99999999",
        "not_found",
    ] {
        assert!(run.stdout.contains(needle), "{needle}: {}", run.stdout);
    }
    let run = fetch(&server, &["12091962", "-f", "ids"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--format ids is not available for `fetch`"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------
// The binary against the fake NCBI's synthetic corpus

fn fake_server(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

fn id_file(dir: &std::path::Path, ids: &[u64]) -> String {
    let path = dir.join("pmids.txt");
    let text: String = ids.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn retracted_articles_are_flagged_in_every_format() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    // 9700097 = 97 × 100001: retracted, its notice is PMID 9700098
    let run = fetch(&server, &["9700097", "9700098", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json()["records"];
    assert_eq!(r[0]["retracted"], true);
    assert_eq!(
        r[0]["commentsCorrections"][0],
        serde_json::json!({"type": "RetractionIn", "pmid": "9700098", "source": "J Test. 2021 Feb;2(1):3."})
    );
    assert_eq!(
        r[0]["title"],
        "Synthetic article 9700097: in vivo effects & outcomes."
    );
    assert_eq!(r[1]["retracted"], false);
    let run = fetch(&server, &["9700097", "-f", "abstract"]);
    assert!(
        run.stdout.contains(
            "\n\nRETRACTED ARTICLE. Retraction in: J Test. 2021 Feb;2(1):3. PMID: 9700098\n"
        ),
        "{}",
        run.stdout
    );
    let run = fetch(&server, &["9700097", "-f", "csv"]);
    let row: Vec<String> = csv::Reader::from_reader(run.stdout.as_bytes())
        .records()
        .next()
        .unwrap()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    assert_eq!(row[9], "true");
    assert!(row[7].contains("Retracted Publication"));
    let run = fetch(&server, &["9700097", "-f", "medline"]);
    assert!(
        run.stdout
            .contains("\nRIN - J Test. 2021 Feb;2(1):3. PMID: 9700098\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\nPT  - Retracted Publication\n"));
}

#[test]
fn deleted_citations_are_not_found_records() {
    let fake = FakeNcbi::new(Corpus::default());
    fake.deleted.lock().unwrap().push(5000001);
    let server = fake_server(&fake);
    let run = fetch(&server, &["5000001", "5000002", "-f", "ndjson"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = ndjson(&run);
    assert_eq!(lines[0]["error"]["reason"], "not_found");
    assert!(
        lines[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("DeleteCitation")
    );
    assert_eq!(lines[1]["pmid"], "5000002");
}

#[test]
fn large_inputs_stream_in_order_in_chunks_of_1000() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let dir = tempfile::tempdir().unwrap();
    // 2,500 lines, every 100th a PMID the fake does not have
    let ids: Vec<u64> = (0..2500u64)
        .map(|i| {
            if i % 100 == 7 {
                UNKNOWN_FROM + i
            } else {
                3_000_000 + i * 13
            }
        })
        .collect();
    let input = id_file(dir.path(), &ids);
    let run = fetch(&server, &["--input", &input, "-f", "ndjson"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = ndjson(&run);
    assert_eq!(lines.len(), ids.len());
    for (line, id) in lines.iter().zip(&ids) {
        assert_eq!(line["pmid"], id.to_string());
        assert_eq!(line.get("error").is_some(), *id >= UNKNOWN_FROM, "{line}");
    }
    // Chunks of at most 1000 that together carry each PMID; a partial chunk
    // goes early only when input stalls, and a loaded machine can stall a
    // reader (or slow an answer past the test's 5 s deadline: a retry).
    let batches = fake.efetch_batches.lock().unwrap().clone();
    assert!(batches.iter().all(|b| b.len() <= 1000), "{batches:?}");
    let sent: std::collections::HashSet<&String> = batches.iter().flatten().collect();
    assert_eq!(sent.len(), 2500);
    assert!(
        run.stderr
            .contains("2500 PMIDs: 2475 found, 25 failed (not_found 25)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_chunk_ncbi_times_out_on_is_halved_and_retried() {
    let fake = FakeNcbi::new(Corpus::default());
    *fake.efetch_timeout_above.lock().unwrap() = Some(300);
    let server = fake_server(&fake);
    let ids: Vec<u64> = (0..1000u64).map(|i| 4_000_000 + i).collect();
    // as arguments: no reader that a loaded machine could stall
    let args: Vec<String> = ids.iter().map(u64::to_string).collect();
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["-f", "ndjson"]);
    let run = fetch(&server, &all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = ndjson(&run);
    assert_eq!(lines.len(), 1000);
    assert!(lines.iter().all(|l| l.get("error").is_none()));
    // NCBI's "Status: Timeout" answer is not retried whole: halved at once
    // (1000 → 500 → 250); every PMID went out in a chunk of 250.
    let batches = fake.efetch_batches.lock().unwrap().clone();
    let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
    assert_eq!(sizes.iter().filter(|n| **n == 1000).count(), 1, "{sizes:?}");
    assert!(
        sizes.iter().all(|n| [1000, 500, 250].contains(n)),
        "{sizes:?}"
    );
    let answered: std::collections::HashSet<&String> = batches
        .iter()
        .filter(|b| b.len() == 250)
        .flatten()
        .collect();
    assert_eq!(answered.len(), 1000);
}

#[test]
fn a_chunk_that_fails_gives_its_pmids_error_records_and_the_run_completes() {
    let fake = FakeNcbi::new(Corpus::default());
    fake.failing_efetch.lock().unwrap().push("6001200".into());
    let server = fake_server(&fake);
    let ids: Vec<u64> = (0..1500u64).map(|i| 6_000_000 + i).collect();
    // as arguments: no reader that a loaded machine could stall
    let args: Vec<String> = ids.iter().map(u64::to_string).collect();
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["-f", "ndjson"]);
    let run = fetch(&server, &all);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let lines = ndjson(&run);
    assert_eq!(lines.len(), 1500);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["pmid"], ids[i].to_string());
        if i < 1000 {
            assert!(l.get("error").is_none(), "{l}");
        } else {
            assert_eq!(l["error"]["reason"], "ncbi_unreachable", "{l}");
        }
    }
    assert!(
        run.stderr
            .contains("1500 PMIDs: 1000 found, 500 failed (ncbi_unreachable 500)"),
        "{}",
        run.stderr
    );
}

/// `pubmed search hits20000 --all | pubmed fetch -f ndjson` at NCBI's
/// default pacing against the fake enforcing 3 requests/s: every PMID once,
/// in the order it came down the pipe, in at most ⌈N/200⌉ EFetch requests
/// and without a single 429. `concurrent` runs both processes at once (a
/// shell pipe); otherwise search's output is buffered and then fed to fetch.
fn search_all_into_fetch(concurrent: bool) {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    use std::sync::atomic::Ordering;
    let mut corpus = Corpus::default();
    corpus.add_uniform("hits20000", 20_000, 1_000_000, 41_000_000, 20);
    let fake = FakeNcbi::rate_limited(corpus.clone());
    let server = fake_server(&fake);
    // one machine: both processes draw from one budget (issue 13)
    let budget = tempfile::tempdir().unwrap();
    let search = pubmed(&["search", "hits20000", "--all"])
        .server(&server)
        .shared_budget(budget.path())
        .env("PUBMED_REQUEST_GAP_MS", "")
        .env("PUBMED_DEADLINE_S", "30");
    let fetch = pubmed(&["fetch", "-f", "ndjson"])
        .server(&server)
        .shared_budget(budget.path())
        .env("PUBMED_REQUEST_GAP_MS", "")
        .env("PUBMED_DEADLINE_S", "30");
    let (mut search_cmd, _h1) = (search.cmd, search.home);
    let (mut fetch_cmd, _h2) = (fetch.cmd, fetch.home);
    let t0 = std::time::Instant::now();
    let mut s = search_cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut from = Some(std::io::BufReader::new(s.stdout.take().unwrap()));
    let mut buffered: Vec<String> = Vec::new();
    if !concurrent {
        buffered = from.take().unwrap().lines().map(Result::unwrap).collect();
    }
    if !concurrent {
        // NCBI counts the last second's requests, search's included.
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    let t_fetch = std::time::Instant::now();
    let mut f = fetch_cmd.stdin(Stdio::piped()).spawn().unwrap();
    // The pipe, with a copy of what went through it.
    let mut to = f.stdin.take().unwrap();
    let tee = std::thread::spawn(move || {
        let lines: Box<dyn Iterator<Item = String>> = match from {
            Some(from) => Box::new(from.lines().map(Result::unwrap)),
            None => Box::new(buffered.into_iter()),
        };
        let mut sent = Vec::new();
        for line in lines {
            writeln!(to, "{line}").unwrap();
            sent.push(line);
        }
        sent
    });
    let out = f.wait_with_output().unwrap();
    let (wall, fetch_wall) = (t0.elapsed(), t_fetch.elapsed());
    let search_out = s.wait_with_output().unwrap();
    let sent = tee.join().unwrap();
    assert!(
        search_out.status.success(),
        "{}",
        String::from_utf8_lossy(&search_out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(sent.len(), 20_000);
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            assert!(v.get("error").is_none(), "{v}");
            v["pmid"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(got, sent, "every PMID once, in input order");
    let mut want: Vec<String> = corpus
        .hits("hits20000")
        .iter()
        .map(u64::to_string)
        .collect();
    let mut seen = got.clone();
    want.sort();
    seen.sort();
    assert_eq!(seen, want);
    let efetch = fake.counters.efetch.load(Ordering::SeqCst);
    assert!(
        efetch <= 20_000usize.div_ceil(200),
        "{efetch} EFetch requests"
    );
    assert_eq!(
        fake.counters.rate_limited.load(Ordering::SeqCst),
        0,
        "429s: {stderr}"
    );
    eprintln!(
        "search --all | fetch: 20000 records, {efetch} EFetch + {} ESearch requests, {:.1} s in all, fetch {:.1} s",
        fake.counters.esearch.load(Ordering::SeqCst),
        wall.as_secs_f64(),
        fetch_wall.as_secs_f64()
    );
}

#[test]
fn search_all_then_fetch_at_ncbis_pace() {
    search_all_into_fetch(false);
}

/// Both processes at once share NCBI's 3 requests/s only through the
/// machine-wide budget; without it their two pacers together exceed the
/// limit.
#[test]
fn search_all_piped_into_fetch_at_ncbis_pace() {
    search_all_into_fetch(true);
}

/// An HTTP 200 answer with no bytes to a MEDLINE request is an upstream
/// fault, retried as in XML mode (docs/fetch.md "Requests"), never "no
/// records": an empty answer and then NCBI's capture yield the capture.
#[test]
fn an_empty_medline_body_is_retried_and_then_the_records_come() {
    let capture = text("medline_pubmed_multiline_mesh_2014.txt");
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = calls.clone();
    let server = TestServer::start(move |_| {
        if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Reply::status(200, "text/plain; charset=UTF-8", "")
        } else {
            Reply::status(200, "text/plain; charset=UTF-8", capture.clone())
        }
    });
    let run = fetch(&server, &["23039619", "-f", "medline"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, text("medline_pubmed_multiline_mesh_2014.txt"));
    assert_eq!(server.count(), 2);
    assert!(!run.stderr.contains("not_found"), "{}", run.stderr);
}

/// Issue 25 item 12: NCBI answers a MEDLINE request for unknown PMIDs with
/// no bytes (docs/fetch.md "Unknown PMIDs in MEDLINE mode"); that cost 7
/// attempts and exit 69. An empty body that repeats on its one retry is the
/// answer "no records": each PMID is `not_found`, exit 1, 2 requests.
#[test]
fn an_empty_medline_answer_that_repeats_is_not_found() {
    let server = TestServer::start(|_| Reply::status(200, "text/plain; charset=UTF-8", ""));
    let run = fetch(&server, &["99999998", "99999999", "-f", "medline"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(server.count(), 2);
    assert!(
        run.stderr.contains(
            "pubmed: PMID 99999998: EFetch returned no record for this PMID: it is not in PubMed [not_found]"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("2 PMIDs: 0 found, 2 failed (not_found 2)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("ncbi_unreachable"), "{}", run.stderr);
}

/// Issue 25 item 11: bodies that are not UTF-8, or declare another
/// encoding, were read with replacement characters and exit 0. Now the
/// chunk fails at once (1 request) as `ncbi_invalid_response`.
#[test]
fn a_body_not_in_utf8_fails_its_chunk_as_invalid() {
    let capture = text("efetch_pubmed_two_articles.xml");
    // "Universit\u{e0}" in Latin-1 bytes: 0xE0 then "  " is not UTF-8
    let mut latin1 = capture.clone().into_bytes();
    let at = capture.find("Universit&#xe0;").unwrap() + "Universit".len();
    latin1.splice(at..at + "&#xe0;".len(), [0xE0u8]);
    let declared = capture.replacen(
        "<?xml version=\"1.0\" ?>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>",
        1,
    );
    let cases: Vec<(Vec<u8>, &str, String)> = vec![
        (
            latin1,
            "text/xml; charset=UTF-8",
            format!("EFetch sent a body that is not valid UTF-8 (at byte {at})"),
        ),
        (
            declared.clone().into_bytes(),
            "text/xml",
            "EFetch sent a body in the encoding \"iso-8859-1\"; only UTF-8 is read".into(),
        ),
        (
            capture.clone().into_bytes(),
            "text/xml; charset=windows-1252",
            "EFetch sent a body in the encoding \"windows-1252\"; only UTF-8 is read".into(),
        ),
    ];
    for (body, ctype, message) in cases {
        let server = TestServer::start(move |_| Reply::status(200, ctype, body.clone()));
        let run = fetch(&server, &["11748933", "11700088", "-f", "ndjson"]);
        assert_eq!(run.code, 69, "{ctype}: {}", run.stderr);
        let recs = ndjson(&run);
        assert_eq!(recs.len(), 2);
        for (r, pmid) in recs.iter().zip(["11748933", "11700088"]) {
            assert_eq!(r["pmid"], pmid);
            assert_eq!(r["error"]["reason"], "ncbi_invalid_response", "{r}");
            assert_eq!(r["error"]["message"], message.as_str(), "{r}");
        }
        assert_eq!(server.count(), 1, "{ctype}: not retried");
    }
}

/// Issue 25 item 11: one PMID answered twice with different records was
/// "first wins". Now that PMID is `ncbi_invalid_response`; the other
/// record of the answer is kept, and the same record twice is one record.
#[test]
fn one_pmid_answered_twice_with_different_records_is_invalid() {
    let capture = text("efetch_pubmed_two_articles.xml");
    let start = capture.find("<PubmedArticle>").unwrap();
    let end = capture.find("</PubmedArticle>").unwrap() + "</PubmedArticle>".len();
    let first = &capture[start..end];
    let changed = first.replace("<Volume>42</Volume>", "<Volume>43</Volume>");
    let twice_different = capture.replacen(first, &format!("{first}{changed}"), 1);
    let twice_same = capture.replacen(first, &format!("{first}\n{first}"), 1);
    let server = TestServer::start(move |_| Reply::xml(twice_different.clone()));
    let run = fetch(&server, &["11748933", "11700088", "-f", "ndjson"]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let recs = ndjson(&run);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["pmid"], "11748933");
    assert_eq!(recs[0]["error"]["reason"], "ncbi_invalid_response");
    assert_eq!(
        recs[0]["error"]["message"],
        "EFetch answered this PMID twice with different records"
    );
    assert_eq!(recs[1]["pmid"], "11700088");
    assert_eq!(
        recs[1]["title"],
        "Proton MRI of (13)C distribution by J and chemical shift editing."
    );
    let server = TestServer::start(move |_| Reply::xml(twice_same.clone()));
    let run = fetch(&server, &["11748933", "11700088", "-f", "ndjson"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs = ndjson(&run);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["journal"]["volume"], "42");
}
