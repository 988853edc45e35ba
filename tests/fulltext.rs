//! `pubmed fulltext`: the JATS reader on real PMC OA articles (expected
//! values read from the fixtures with Python's ElementTree and from
//! pubmed_parser's own tests), and the binary end to end against a fake
//! PMC (tests/support/fake_ncbi/pmc.rs).

use crate::support;

use pubmed::core::jats::{self, Article, Block, SetItem};
use serde_json::Value;
use support::cli::pubmed;
use support::fake_ncbi::pmc;
use support::server::{TestServer, fixture};

fn article(file: &str) -> Article {
    let mut items = jats::parse_set(&fixture(file)).unwrap();
    assert_eq!(items.len(), 1);
    match items.remove(0) {
        SetItem::Article(a) => *a,
        other => panic!("{other:?}"),
    }
}

fn titles(a: &[jats::Section]) -> Vec<&str> {
    a.iter().map(|s| s.title.as_str()).collect()
}

#[test]
fn plos_one_research_article() {
    let a = article("pmc_oa_pone_0046493.nxml");
    assert_eq!(a.pmcid.as_deref(), Some("PMC3460867"));
    assert_eq!(a.pmid.as_deref(), Some("23029536"));
    // pubmed_parser tests/test_pubmed_oa_parser.py: doi, 58 references, 4 captions.
    assert_eq!(a.doi.as_deref(), Some("10.1371/journal.pone.0046493"));
    assert_eq!(a.references.len(), 58);
    assert_eq!(a.figures.len(), 4);
    assert_eq!(
        a.title,
        "MmPPOX Inhibits Mycobacterium tuberculosis Lipolytic Enzymes Belonging to the Hormone-Sensitive Lipase Family and Alters Mycobacterial Growth"
    );
    assert_eq!(a.article_type.as_deref(), Some("research-article"));
    assert_eq!(a.authors.len(), 9);
    assert_eq!(a.authors[1], "Sadia V. Diomandé");
    assert_eq!(
        titles(&a.sections),
        [
            "Introduction",
            "Materials and Methods",
            "Results",
            "Discussion",
            "Supporting Information"
        ]
    );
    assert_eq!(a.sections[1].kind.as_deref(), Some("materials|methods"));
    assert_eq!(a.sections[1].sections.len(), 10);
    assert_eq!(
        a.sections[1].sections[3].title,
        "Enzymatic activity assays on p-nitrophenyl (pNP) esters"
    );
    let first = a.sections[0].paragraphs().next().unwrap();
    assert!(first.starts_with("According to the World Health Organization (2011; http://www.who.int/tb/en/), tuberculosis remains"));
    assert!(first.ends_with("leading to reactivation of the disease."));
    assert!(
        first.contains("in vivo, during the infection process [2], [3], [4], [5] and in vitro")
    );
    let lic = a.license.as_ref().unwrap();
    assert!(lic.text.starts_with("This is an open-access article distributed under the terms of the Creative Commons Attribution License"));
    // Tables: 3, with spans in the header rows.
    assert_eq!(a.tables.len(), 3);
    let t = &a.tables[0];
    assert_eq!(
        (t.id.as_str(), t.label.as_str()),
        ("pone-0046493-t001", "Table 1")
    );
    assert!(
        t.caption
            .starts_with("Substrate specificity of recombinant Lip-HSL proteins.")
    );
    assert_eq!(t.rows[0][1].colspan, 6);
    assert_eq!(t.rows[1][1].text, "pNP estersb");
    assert!(!t.is_simple());
    let f = &a.figures[0];
    assert_eq!(
        (f.id.as_str(), f.label.as_str()),
        ("pone-0046493-g001", "Figure 1")
    );
    assert!(
        f.caption.starts_with(
            "Chemical structure of inhibitors. Chemical structures of A, THL and B, MmPPOX."
        ),
        "{}",
        f.caption
    );
    let r = &a.references[0];
    assert_eq!(r.pmid.as_deref(), Some("21127999"));
    assert_eq!(a.references.iter().filter(|r| r.pmid.is_some()).count(), 44);
    assert_eq!(
        a.supplements
            .iter()
            .map(|s| s.label.as_str())
            .collect::<Vec<_>>(),
        ["Table S1", "Table S2", "Table S3", "Table S4"]
    );
    assert!(
        a.sections[4]
            .blocks
            .iter()
            .all(|b| matches!(b, Block::Supplement(_)))
    );
}

#[test]
fn bmc_article_license_and_sections() {
    let a = article("pmc_oa_1471_2180_11_174.nxml");
    assert_eq!(a.pmcid.as_deref(), Some("PMC3166277"));
    assert_eq!(a.references.len(), 64);
    assert_eq!(
        (a.figures.len(), a.tables.len(), a.supplements.len()),
        (4, 3, 1)
    );
    assert_eq!(
        titles(&a.sections),
        [
            "Background",
            "Results",
            "Discussion",
            "Conclusions",
            "Appendix A",
            "Appendix B",
            "Methods",
            "Competing interests",
            "Authors' contributions",
            "Supplementary Material"
        ]
    );
    let lic = a.license.unwrap();
    assert_eq!(
        lic.url.as_deref(),
        Some("http://creativecommons.org/licenses/by/2.0")
    );
    assert_eq!(lic.kind.as_deref(), Some("open-access"));
    assert_eq!(
        a.title,
        "Factors influencing lysis time stochasticity in bacteriophage λ"
    );
}

#[test]
fn annals_of_oncology_cc_by_nc() {
    let a = article("pmc_oa_mds526.nxml");
    assert_eq!(a.pmcid.as_deref(), Some("PMC3574550"));
    assert_eq!(a.references.len(), 40);
    assert_eq!(
        (a.figures.len(), a.tables.len(), a.supplements.len()),
        (2, 4, 1)
    );
    assert_eq!(
        titles(&a.sections),
        [
            "introduction",
            "methods",
            "results",
            "discussion",
            "funding",
            "disclosure",
            "Supplementary Material"
        ]
    );
    assert_eq!(titles(&a.sections[1].sections), ["data", "analysis"]);
    assert_eq!(
        a.license.unwrap().url.as_deref(),
        Some("http://creativecommons.org/licenses/by-nc/3.0")
    );
}

#[test]
fn a_set_is_read_article_by_article_with_replies() {
    let body = pmc::efetch_pmc(&["3460867", "1", "3574550"]);
    let items = jats::parse_set(body.as_bytes()).unwrap();
    assert_eq!(items.len(), 3);
    assert!(
        matches!(&items[1], SetItem::Reply { id, error } if id == "1" && error == "The following PMCID is not available: 1")
    );
}

fn server() -> TestServer {
    TestServer::start(pmc::handler)
}

#[test]
fn cli_json_records_in_order_with_reasons() {
    let s = server();
    let run = pubmed(&["fulltext", "-f", "ndjson"])
        .server(&s)
        .stdin("PMC3460867\n21810267\n10.1093/annonc/mds526\nPMC1\n99999999\nabc\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["pmcid"], "PMC3460867");
    assert_eq!(lines[0]["source"], "pmc");
    assert_eq!(lines[0]["sections"][0]["title"], "Introduction");
    assert_eq!(lines[0]["references"].as_array().unwrap().len(), 58);
    assert_eq!(lines[1]["pmcid"], "PMC3166277");
    assert_eq!(
        lines[1]["license"]["url"],
        "http://creativecommons.org/licenses/by/2.0"
    );
    assert_eq!(lines[2]["pmcid"], "PMC3574550");
    assert_eq!(lines[3]["error"]["reason"], "no_open_full_text");
    assert_eq!(lines[4]["error"]["reason"], "not_in_pmc");
    assert!(
        lines[4]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("pubmed fetch")
    );
    assert_eq!(lines[5]["error"]["reason"], "malformed_id");
    // One ID Converter call per ID type, one EFetch per chunk of PMCIDs.
    let reqs = s.requests();
    let efetch: Vec<_> = reqs.iter().filter(|r| r.is("efetch.fcgi")).collect();
    assert!(efetch.iter().all(|r| r.param("db") == Some("pmc")));
    assert_eq!(efetch.len(), 3, "PMCIDs, PMIDs and DOIs are three chunks");
    assert_eq!(
        reqs.iter().filter(|r| r.path.contains("/idconv/")).count(),
        2
    );
}

#[test]
fn cli_markdown_and_section_selection() {
    let s = server();
    let run = pubmed(&["fulltext", "PMC3166277", "--section", "methods"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let md = &run.stdout;
    assert!(
        md.starts_with("# Factors influencing lysis time stochasticity in bacteriophage λ\n"),
        "{}",
        &md[..300]
    );
    assert!(md.contains(
        "License: http://creativecommons.org/licenses/by/2.0 — This is an Open Access article"
    ));
    assert!(md.contains("\n## Methods\n"));
    assert!(md.contains("\n### Bacterial strains\n"));
    assert!(!md.contains("\n## Background\n"));
    let t = pubmed(&["fulltext", "-f", "jats", "PMC3460867"])
        .server(&s)
        .run();
    assert_eq!(
        t.stdout.trim_end(),
        pmc::article_element("pmc_oa_pone_0046493.nxml")
    );
}

#[test]
fn cli_text_underlines_every_heading_by_level() {
    let s = server();
    let run = pubmed(&[
        "fulltext",
        "-f",
        "text",
        "PMC3166277",
        "--section",
        "methods",
    ])
    .server(&s)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let t = &run.stdout;
    // the title `=`, the abstract and top-level sections `-`, their
    // subsections `~`, each line as long as the heading
    let title = "Factors influencing lysis time stochasticity in bacteriophage λ";
    assert!(
        t.starts_with(&format!(
            "{title}\n{}\n\n",
            "=".repeat(title.chars().count())
        )),
        "{}",
        &t[..300]
    );
    assert!(t.contains("\nAbstract\n--------\n\n"));
    assert!(t.contains("\nMethods\n-------\n\n"));
    assert!(t.contains("\nBacterial strains\n~~~~~~~~~~~~~~~~~\n\n"));
    assert!(!t.contains("## "));
}

#[test]
fn cli_only_unavailable_exits_not_found() {
    let s = server();
    let run = pubmed(&["fulltext", "PMC1"]).server(&s).run();
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("no_open_full_text"), "{}", run.stderr);
    assert_ne!(run.code, 0);
}

#[tokio::test]
async fn mcp_tool_keeps_the_budget_and_names_what_is_unavailable() {
    let support::mcp::Session {
        c,
        _home,
        server: _s,
        fake: _f,
    } = support::mcp::session().await;
    let r = support::mcp::call(
        &c,
        "pubmed_fetch_fulltext",
        serde_json::json!({"ids": ["PMC3460867", "PMC1"], "sections": ["results"], "maxCharacters": 3000}),
    )
    .await;
    assert_ne!(r.is_error, Some(true));
    let v = r.structured_content.unwrap();
    let a = &v["articles"][0];
    assert_eq!(a["pmcid"], "PMC3460867");
    assert_eq!(a["truncated"], true);
    assert!(a["text"].as_str().unwrap().chars().count() <= 3000);
    assert!(a["text"].as_str().unwrap().contains("\n## Results\n"));
    assert!(!a["text"].as_str().unwrap().contains("\n## Introduction\n"));
    assert_eq!(v["unavailable"][0]["reason"], "no_open_full_text");
    assert_eq!(v["unavailable"][0]["requested"], "PMC1");
}

#[test]
fn cli_falls_back_to_europe_pmc_when_pmc_has_no_text() {
    let s = server();
    let run = pubmed(&["fulltext", "-f", "ndjson", "PMC2329613", "PMC1"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let a = &lines[0];
    assert_eq!(a["source"], "europepmc");
    assert_eq!(a["pmcid"], "PMC2329613");
    assert_eq!(a["pmid"], "18405359");
    // Section titles as Python's ElementTree reads the fixture's <body>.
    let titles: Vec<&str> = a["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Background",
            "Methods",
            "Results",
            "Discussion",
            "Conclusion",
            "Authors' contributions",
            "Pre-publication history"
        ]
    );
    assert_eq!(
        a["license"]["url"],
        "http://creativecommons.org/licenses/by/2.0"
    );
    // Europe PMC 404: no open text anywhere, with the PMC link.
    assert_eq!(lines[1]["error"]["reason"], "no_open_full_text");
    let msg = lines[1]["error"]["message"].as_str().unwrap();
    assert!(msg.contains("Europe PMC has no full text"), "{msg}");
    assert!(
        msg.contains("https://pmc.ncbi.nlm.nih.gov/articles/PMC1/"),
        "{msg}"
    );
    // One EFetch for both, then one Europe PMC GET each.
    let reqs = s.requests();
    assert_eq!(reqs.iter().filter(|r| r.is("efetch.fcgi")).count(), 1);
    let epmc: Vec<&str> = reqs
        .iter()
        .filter(|r| r.path.contains("/europepmc/"))
        .map(|r| r.path.as_str())
        .collect();
    assert_eq!(epmc.len(), 2);
    assert!(
        epmc.iter()
            .any(|p| p.ends_with("/rest/PMC2329613/fullTextXML"))
    );
}
