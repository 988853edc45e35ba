//! `pubmed fulltext` on the kinds of article the issue names, each a real
//! JATS document from public test data (tests/fixtures/PROVENANCE.md,
//! "JATS of each kind"): a case report with figures, a review, an article
//! with MathML and tables, one with supplementary material, a Spanish
//! article, three answers Europe PMC's `fullTextXML` sent, one EFetch
//! `db=pmc` answer (Biopython's capture) and a PMC author manuscript
//! (NIHMS, from nimh-dsst/rtransparent's test data). Expected
//! values are read by hand from the XML (checked with Python's
//! ElementTree: `itertext()` with whitespace folded), never from our output.

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

fn cells(row: &[jats::Cell]) -> Vec<&str> {
    row.iter().map(|c| c.text.as_str()).collect()
}

#[test]
fn case_report_with_five_figures() {
    let a = article("europepmc_ftp_case_report_pmc6358577.xml");
    assert_eq!(a.article_type.as_deref(), Some("case-report"));
    // Europe PMC's `pub-id-type="pmcid"` holds the digits only.
    assert_eq!(a.pmcid.as_deref(), Some("PMC6358577"));
    assert_eq!(a.doi.as_deref(), Some("10.14309/crj.2018.94"));
    assert_eq!(a.pmid, None);
    assert_eq!(
        a.title,
        "Chronic Pancreatitis with Spontaneously Disappearing Calcifications"
    );
    assert_eq!(a.journal.as_deref(), Some("ACG Case Reports Journal"));
    assert_eq!(a.authors.len(), 4);
    assert_eq!(a.authors[0], "Scott Friedberg");
    assert_eq!(
        titles(&a.sections),
        ["Introduction", "Case Report", "Discussion", "Disclosures"]
    );
    assert_eq!(a.sections[0].kind.as_deref(), Some("intro"));
    assert_eq!(a.sections[1].kind, None);
    assert_eq!(
        a.sections[1].paragraphs().nth(1).unwrap(),
        "A Frey procedure was planned, but by the time of surgery the pancreatic duct was found to have spontaneously decompressed to 2–3 mm. Due to the presence of a dense adhesion between the stomach and the anterior surface of the pancreas, a pancreaticogastric fistula was suspected to be the reason for ductal decompression; however, a fistula was not visually confirmed during surgery. A fistulectomy and limited wedge posterior wall gastrectomy was performed, and pathology subsequently confirmed the presence of an intramural fistula. At that time, she also was found to have a splenic vein thrombosis and pseudocyst at the body–tail junction, with the latter resolving spontaneously after a few months."
    );
    // The five figures, all in "Case Report", in order.
    let figs: Vec<(&str, &str)> = a
        .figures
        .iter()
        .map(|f| (f.id.as_str(), f.label.as_str()))
        .collect();
    assert_eq!(
        figs,
        [
            ("F1", "Figure 1"),
            ("F2", "Figure 2"),
            ("F3", "Figure 3"),
            ("F4", "Figure 4"),
            ("F5", "Figure 5")
        ]
    );
    let in_case: Vec<usize> = a.sections[1]
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Figure(i) => Some(*i),
            _ => None,
        })
        .collect();
    assert_eq!(in_case, [0, 1, 2, 3, 4]);
    assert_eq!(
        a.figures[0].caption,
        "Contrast-enhanced axial computed tomography (CT) imaging from 2004 (age 27) showing intraductal calculi (arrow head) and extensive coarse pancreatic parenchymal calcifications (arrows)."
    );
    assert!(a.tables.is_empty());
    assert_eq!(a.references.len(), 7);
    let lic = a.license.unwrap();
    assert_eq!(lic.kind.as_deref(), Some("open-access"));
    assert_eq!(lic.url, None);
    assert_eq!(
        lic.text,
        "This is an open-access article. This work is licensed under a Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International License. To view a copy of this license, visit http://creativecommons.org/licenses/by-nc-nd/4.0/"
    );
}

#[test]
fn review_with_nested_methods_and_an_ali_licence() {
    let a = article("europepmc_review_pmc13249512.xml");
    assert_eq!(a.article_type.as_deref(), Some("review-article"));
    assert_eq!(a.language.as_deref(), Some("en"));
    assert_eq!(a.pmcid.as_deref(), Some("PMC13249512"));
    assert_eq!(a.pmid.as_deref(), Some("42263780"));
    assert_eq!(a.doi.as_deref(), Some("10.1111/aas.70273"));
    assert_eq!(
        a.title,
        "Perioperative Antibiotic Prophylaxis in Burn Patients: Protocol for a Systematic Review"
    );
    assert_eq!(a.authors.len(), 10);
    assert_eq!(a.authors[0], "Gustav Borghegn Blak Christensen");
    assert_eq!(
        titles(&a.sections),
        [
            "Introduction",
            "Objectives",
            "Methods",
            "Discussion",
            "Author Contributions",
            "Funding",
            "Disclosure",
            "Ethics Statement",
            "Conflicts of Interest"
        ]
    );
    let methods = &a.sections[2];
    assert_eq!(methods.kind.as_deref(), Some("methods"));
    assert_eq!(
        titles(&methods.sections),
        [
            "Study Design",
            "Registration",
            "Study Types",
            "Population",
            "Intervention and Comparator",
            "Outcomes",
            "Study Search Strategy",
            "Data Collection and Analysis",
            "Measures of Intervention Effect",
            "Missing Data",
            "Heterogeneity",
            "Publication Bias",
            "Data Analysis",
            "Trial Sequential Analysis",
            "Subgroup Analyses",
            "Certainty of Evidence"
        ]
    );
    assert_eq!(
        titles(&methods.sections[5].sections),
        ["Primary Outcome", "Secondary Outcomes"]
    );
    assert_eq!(
        a.sections[1].paragraphs().next().unwrap(),
        "To evaluate the desirable and undesirable effects of perioperative systemic antibiotic prophylaxis in burn patients compared with placebo or standard care. We hypothesize that the effects of perioperative systemic antibiotic prophylaxis on pre‐specified patient‐important outcomes are uncertain due to limited and heterogeneous evidence."
    );
    // The search strategy table: no label, simple rows.
    assert_eq!(a.tables.len(), 1);
    let t = &a.tables[0];
    assert_eq!((t.id.as_str(), t.label.as_str()), ("jats-table-wrap-1", ""));
    assert_eq!(cells(&t.rows[0]), ["1", "exp Burns/", "65,794"]);
    assert_eq!(cells(&t.rows[2]), ["3", "1 or 2", "176,383"]);
    assert!(t.is_simple());
    assert_eq!(a.references.len(), 27);
    // PMC's current licence shape: no @xlink:href, the URL in <ali:license_ref>.
    let lic = a.license.unwrap();
    assert_eq!(
        lic.url.as_deref(),
        Some("https://creativecommons.org/licenses/by-nc-nd/4.0/")
    );
    assert_eq!(lic.kind, None);
    assert_eq!(
        lic.text,
        "This is an open access article under the terms of the http://creativecommons.org/licenses/by-nc-nd/4.0/ License, which permits use and distribution in any medium, provided the original work is properly cited, the use is non‐commercial and no modifications or adaptations are made."
    );
}

#[test]
fn mathml_in_a_paragraph_and_table_cells() {
    let a = article("europepmc_mathml_tables_pmc13133655.xml");
    assert_eq!(a.pmcid.as_deref(), Some("PMC13133655"));
    assert_eq!(a.pmid.as_deref(), Some("42063337"));
    assert_eq!(
        titles(&a.sections),
        [
            "Introduction",
            "Materials and Methods",
            "Results and Discussion",
            "Conclusions",
            "Author Contributions",
            "Funding",
            "Conflicts of Interest",
            "Supporting information"
        ]
    );
    assert_eq!(a.sections[1].kind.as_deref(), Some("materials-and-methods"));
    // Inline <mml:math> as $TeX$, two <disp-formula>s as their label and
    // $$TeX$$; each formula's TeX is pandoc 3.9's
    // (tests/fixtures/mathml_tex_pandoc.json, entries 0–11 of this file).
    let p = a
        .sections
        .iter()
        .flat_map(|s| std::iter::once(s).chain(s.sections.iter()))
        .flat_map(|s| std::iter::once(s).chain(s.sections.iter()))
        .flat_map(|s| s.paragraphs())
        .find(|p| p.starts_with("The amount of analyte in the gas phase"))
        .unwrap();
    assert_eq!(
        p,
        "The amount of analyte in the gas phase ($C_{g}$), which has an impact on the detection sensitivity, depends on its concentration in the liquid phase as well as its partition coefficient and phase ratio, as described by Equation (1) [23], (1) $$A \\propto C_{g} = \\frac{C_{0}}{K + \\beta}$$ where $A$ is the analyte signal intensity (e.g., peak area in GC–MS) in a given volume of headspace, $C_{g}$ is the gas‐phase concentration of the analyte in headspace, $C_{0}$ is the initial concentration of the analyte in the sample, $K$ the partition coefficient, and $\\beta$ is the phase ratio in the static system (e.g., the vial). In this study, optimization factors were only centered on K, which is described by Equation (2) [23], (2) $$K \\propto \\frac{1}{{p_{i}}^{{^\\circ}} \\cdot \\gamma_{i}}$$ where ${p_{i}}^{{^\\circ}}$ is the vapor pressure (temperature‐ and time‐dependent) and $\\gamma_{i}$ is the activity coefficient (matrix‐composition‐dependent) of the analyte."
    );
    assert_eq!(a.tables.len(), 4);
    let t = &a.tables[0];
    assert_eq!(
        (t.id.as_str(), t.label.as_str(), t.caption.as_str()),
        (
            "rcm70085-tbl-0001",
            "TABLE 1",
            "Physicochemical properties of geosmin and 2‐methylisoborneol."
        )
    );
    assert_eq!(
        cells(&t.rows[0]),
        [
            "Common name",
            "Elemental composition",
            "MW [g·mol−1]",
            "Log P/Kow a",
            "Kh [atm m3·mol−1] b",
            "Boiling point [°C] c",
            "Vapor pressure [atm] b",
            "Aqueous solubility [mg·L−1] b",
            "Odor quality d"
        ]
    );
    assert!(t.rows[0].iter().all(|c| c.header));
    assert_eq!(
        cells(&t.rows[1]),
        [
            "Geosmin",
            "C12H22O",
            "182.30",
            "3.7",
            "6.66 × 10−5",
            "270",
            "5.49 × 10−5",
            "150.2",
            "Musty, earthy, beetroot‐like"
        ]
    );
    assert_eq!(
        cells(&t.rows[2]),
        [
            "2‐MIB",
            "C11H20O",
            "168.28",
            "3.1",
            "5.76 × 10−5",
            "208",
            "6.68 × 10−5",
            "194.5",
            "Moldy, musty"
        ]
    );
    assert!(!t.rows[1][0].header);
    assert_eq!(a.figures.len(), 5);
    assert_eq!(a.figures[0].label, "FIGURE 1");
    assert_eq!(a.supplements.len(), 1);
    assert_eq!(
        a.supplements[0].href.as_deref(),
        Some("RCM-40-e70085-s001.docx")
    );
    assert_eq!(a.references.len(), 45);
    assert_eq!(
        a.license.unwrap().url.as_deref(),
        Some("https://creativecommons.org/licenses/by/4.0/")
    );
}

#[test]
fn supplementary_material_links_in_their_section() {
    let a = article("europepmc_supplementary_pmc6095483.xml");
    assert_eq!(a.pmcid.as_deref(), Some("PMC6095483"));
    assert_eq!(a.doi.as_deref(), Some("10.1371/journal.pntd.0006635"));
    assert_eq!(
        a.title,
        "Human plague associated with Tibetan sheep originates in marmots"
    );
    assert_eq!(
        titles(&a.sections),
        [
            "Introduction",
            "Materials and methods",
            "Results",
            "Discussion",
            "Supporting information"
        ]
    );
    assert_eq!(
        titles(&a.sections[1].sections),
        [
            "Ethics statement",
            "Isolation and identification of Y. pestis",
            "DNA preparation",
            "Genome sequencing and SNP analysis",
            "Nucleotide sequence accession numbers"
        ]
    );
    let supp: Vec<(&str, &str, Option<&str>)> = a
        .supplements
        .iter()
        .map(|s| (s.id.as_str(), s.label.as_str(), s.href.as_deref()))
        .collect();
    assert_eq!(
        supp,
        [
            ("pntd.0006635.s001", "S1 Fig", Some("pntd.0006635.s001.jpg")),
            (
                "pntd.0006635.s002",
                "S1 Table",
                Some("pntd.0006635.s002.doc")
            ),
            (
                "pntd.0006635.s003",
                "S2 Table",
                Some("pntd.0006635.s003.doc")
            ),
            (
                "pntd.0006635.s004",
                "S3 Table",
                Some("pntd.0006635.s004.xlsx")
            ),
        ]
    );
    assert_eq!(
        a.sections[4].blocks,
        [
            Block::Supplement(0),
            Block::Supplement(1),
            Block::Supplement(2),
            Block::Supplement(3)
        ]
    );
    let lic = a.license.unwrap();
    assert_eq!(
        lic.url.as_deref(),
        Some("http://creativecommons.org/licenses/by/4.0/")
    );
    assert_eq!(
        lic.text,
        "This is an open access article distributed under the terms of the Creative Commons Attribution License, which permits unrestricted use, distribution, and reproduction in any medium, provided the original author and source are credited."
    );
}

#[test]
fn spanish_article_without_its_english_translation() {
    let a = article("scielo_spanish_rsp_48_2_0322.xml");
    assert_eq!(a.language.as_deref(), Some("es"));
    assert_eq!(a.article_type.as_deref(), Some("rapid-communication"));
    assert_eq!(
        a.title,
        "Brote de faringo-amigdalítis por estreptococo β-hemolítico grupo A"
    );
    assert_eq!(a.journal.as_deref(), Some("Revista de Saúde Pública"));
    assert_eq!(a.doi.as_deref(), Some("10.1590/S0034-8910.2014048005091"));
    assert_eq!(a.pmcid, None);
    assert_eq!(
        titles(&a.sections),
        ["INTRODUCCIÓN", "MÉTODOS", "RESULTADOS", "DISCUSIÓN"]
    );
    assert_eq!(
        a.sections[1].paragraphs().next().unwrap(),
        "Estudio transversal descriptivo de un brote de faringo-amigdalitis que afectó a 17 comensales, ubicados en una misma mesa, que asistió a una cena en un restaurante, de Barcelona, España, el 13 de julio de 2012, siendo notificado a la Agencia de Salud Pública de Barcelona el 17 de julio del mismo año."
    );
    // The English <sub-article article-type="translation"> is left out:
    // its figure `f01_en` too.
    assert_eq!(a.figures.len(), 1);
    assert_eq!(
        (a.figures[0].id.as_str(), a.figures[0].label.as_str()),
        ("f01", "Figura.")
    );
    assert_eq!(
        a.figures[0].caption,
        "Distribución de casos según la fecha de inicio de los síntomas en un brote de faringo-amigdalítis pultácea por faringitis estreptocócica por estreptococos β-hemolíticos del grupo A (EGA) que afectó a un grupo de comensales en un restaurante. Barcelona, España, julio de 2012."
    );
    let abs = a.abstract_sections[0].paragraphs().next().unwrap();
    assert!(
        abs.starts_with("El objetivo fue describir un brote de faringo-amigdalitis"),
        "{abs}"
    );
    let lic = a.license.unwrap();
    assert_eq!(
        lic.url.as_deref(),
        Some("http://creativecommons.org/licenses/by-nc/3.0/")
    );
    assert_eq!(lic.kind.as_deref(), Some("open-access"));
}

fn ndjson(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn cli_reads_europe_pmc_answers_as_sent() {
    let s = TestServer::start(pmc::handler);
    let run = pubmed(&[
        "fulltext",
        "-f",
        "ndjson",
        "PMC13249512",
        "PMC6095483",
        "PMC13133655",
    ])
    .server(&s)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = ndjson(&run.stdout);
    assert_eq!(v.len(), 3);
    assert!(v.iter().all(|r| r["source"] == "europepmc"));
    assert_eq!(v[0]["pmcid"], "PMC13249512");
    assert_eq!(v[0]["articleType"], "review-article");
    assert_eq!(
        v[0]["license"]["url"],
        "https://creativecommons.org/licenses/by-nc-nd/4.0/"
    );
    assert_eq!(v[0]["sections"][2]["title"], "Methods");
    assert_eq!(
        v[0]["sections"][2]["sections"][5]["sections"][0]["title"],
        "Primary Outcome"
    );
    assert_eq!(v[1]["pmcid"], "PMC6095483");
    let supp = v[1]["supplementary"].as_array().unwrap();
    assert_eq!(supp.len(), 4);
    assert_eq!(supp[3]["href"], "pntd.0006635.s004.xlsx");
    assert_eq!(supp[3]["label"], "S3 Table");
    assert_eq!(
        v[1]["sections"][4]["supplementary"],
        serde_json::json!([
            "pntd.0006635.s001",
            "pntd.0006635.s002",
            "pntd.0006635.s003",
            "pntd.0006635.s004"
        ])
    );
    assert_eq!(v[2]["tables"][0]["rows"][1][0]["text"], "Geosmin");
    // PMC first (one EFetch for the three), then one Europe PMC GET each.
    let reqs = s.requests();
    assert_eq!(reqs.iter().filter(|r| r.is("efetch.fcgi")).count(), 1);
    assert_eq!(
        reqs.iter()
            .filter(|r| r.path.ends_with("/fullTextXML"))
            .count(),
        3
    );
}

#[test]
fn cli_markdown_holds_a_simple_table_and_names_a_spanned_one() {
    let s = TestServer::start(pmc::handler);
    let run = pubmed(&["fulltext", "-f", "markdown", "PMC13133655"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let md = &run.stdout;
    assert!(md.starts_with(
        "# Fast and Sensitive Measurement of Off‐Flavors in Recirculating Aquaculture Systems\n"
    ));
    assert!(md.contains("source: europepmc · PMC13133655 · PMID 42063337"));
    assert!(md.contains(
        "License: https://creativecommons.org/licenses/by/4.0/ — This is an open access article"
    ));
    assert!(
        md.contains("**TABLE 1.** Physicochemical properties of geosmin and 2‐methylisoborneol.")
    );
    assert!(md.contains("| Geosmin | C12H22O | 182.30 | 3.7 |"), "{md}");
    // TABLE 2 has a cell with colspan="2": named, not dropped.
    assert!(md.contains("[TABLE 2: see -f json]"), "{md}");
    assert!(!md.contains("[TABLE 1: see -f json]"));
}

/// The records of the ndjson FILE `path`, parsed.
fn file_records(path: &std::path::Path) -> Vec<Value> {
    ndjson(&std::fs::read_to_string(path).unwrap())
}

#[test]
fn cli_output_file_resumes_after_the_records_it_holds() {
    let s = TestServer::start(pmc::handler);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ids.txt");
    std::fs::write(&input, "PMC3460867\nPMC13249512\nPMC1\n").unwrap();
    let out = dir.path().join("full.ndjson");
    let argv = |extra: &[&str]| {
        let mut v = vec![
            "fulltext",
            "-f",
            "ndjson",
            "--input",
            input.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ];
        v.extend_from_slice(extra);
        v.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    let run = pubmed(&argv(&[]).iter().map(String::as_str).collect::<Vec<_>>())
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "", "the records go to FILE");
    let recs = file_records(&out);
    let requested: Vec<&str> = recs
        .iter()
        .map(|r| r["requested"].as_str().unwrap())
        .collect();
    assert_eq!(requested, ["PMC3460867", "PMC13249512", "PMC1"]);
    assert_eq!(recs[1]["source"], "europepmc");
    assert_eq!(recs[2]["error"]["reason"], "no_open_full_text");

    // Cut FILE after its first record and mark the run unfinished, as an
    // interrupted run leaves it.
    let whole = std::fs::read_to_string(&out).unwrap();
    let first_line = format!("{}\n", whole.lines().next().unwrap());
    std::fs::write(&out, &first_line).unwrap();
    let sidecar = dir.path().join("full.ndjson.pubmed-resume");
    let mut side: Value = serde_json::from_slice(&std::fs::read(&sidecar).unwrap()).unwrap();
    assert_eq!(side["command"], "fulltext");
    side["complete"] = Value::Bool(false);
    std::fs::write(&sidecar, serde_json::to_vec(&side).unwrap()).unwrap();

    // Without --resume: refused, FILE untouched.
    let refused = pubmed(&argv(&[]).iter().map(String::as_str).collect::<Vec<_>>())
        .server(&s)
        .run();
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("--resume"), "{}", refused.stderr);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first_line);

    // --resume with another format is refused before anything is sent.
    let md = pubmed(&[
        "fulltext",
        "-f",
        "markdown",
        "--input",
        input.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--resume",
    ])
    .server(&s)
    .run();
    assert_eq!(md.code, 2, "{}", md.stderr);
    assert!(md.stderr.contains("-f ndjson"), "{}", md.stderr);

    // --resume: the article FILE holds is not asked for again.
    let before = s.requests().len();
    let resumed = pubmed(
        &argv(&["--resume"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
    .server(&s)
    .run();
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let reqs = s.requests();
    let efetch: Vec<_> = reqs[before..]
        .iter()
        .filter(|r| r.is("efetch.fcgi"))
        .collect();
    assert_eq!(efetch.len(), 1);
    let ids = efetch[0].param("id").unwrap_or_default().to_string();
    assert!(!ids.contains("3460867"), "{ids}");
    assert!(ids.contains("13249512") && ids.contains('1'), "{ids}");
    let recs = file_records(&out);
    let requested: Vec<&str> = recs
        .iter()
        .map(|r| r["requested"].as_str().unwrap())
        .collect();
    assert_eq!(requested, ["PMC3460867", "PMC13249512", "PMC1"]);
    let side: Value = serde_json::from_slice(&std::fs::read(&sidecar).unwrap()).unwrap();
    assert_eq!(side["complete"], true);

    // --resume on the finished FILE: nothing is sent, and stderr says FILE
    // is complete (as `search --all --resume` says it), not "0 of 0".
    let before = s.requests().len();
    let again = pubmed(
        &argv(&["--resume"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
    .server(&s)
    .run();
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(s.requests().len(), before);
    assert!(
        again.stderr.contains(&format!(
            "{} is complete (3 IDs); nothing to resume",
            out.display()
        )),
        "{}",
        again.stderr
    );
    assert!(!again.stderr.contains("0 of 0"), "{}", again.stderr);
    assert_eq!(file_records(&out).len(), 3);
}

#[test]
fn cli_output_is_never_the_input() {
    let s = TestServer::start(pmc::handler);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ids.txt");
    std::fs::write(&input, "PMC3460867\n").unwrap();
    let p = input.to_str().unwrap();
    let run = pubmed(&["fulltext", "--input", p, "--output", p])
        .server(&s)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("is the input"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "PMC3460867\n");
    assert!(s.requests().is_empty());
}

#[test]
fn a_real_efetch_pmc_answer_of_a_correction() {
    // Biopython's capture of EFetch db=pmc: the `<pmc-articleset>` frame
    // as PMC sends it, around one article without sections.
    let a = article("efetch_pmc_correction_8435807.xml");
    assert_eq!(a.article_type.as_deref(), Some("correction"));
    assert_eq!(a.pmcid.as_deref(), Some("PMC8435807"));
    assert_eq!(a.pmid.as_deref(), Some("34527728"));
    assert_eq!(a.doi.as_deref(), Some("10.1183/23120541.50193-2021"));
    assert_eq!(a.journal.as_deref(), Some("ERJ Open Research"));
    assert!(a.has_body);
    assert_eq!(a.sections.len(), 1);
    assert_eq!(a.sections[0].title, "");
    assert_eq!(
        a.sections[0].paragraphs().collect::<Vec<_>>(),
        [
            "This article was originally published with an error in table 2. The upper 95% confidence limit of the per cent difference in the primary end-point (diffusing capacity of the lung for nitric oxide) was incorrectly given as 15.1% and has now been corrected to −15.1% in the published article."
        ]
    );
    let lic = a.license.unwrap();
    assert_eq!(
        lic.url.as_deref(),
        Some("https://creativecommons.org/licenses/by-nc/4.0/")
    );
    assert_eq!(
        lic.text,
        "This version is distributed under the terms of the Creative Commons Attribution Non-Commercial Licence 4.0. For commercial reproduction rights and permissions contact permissions@ersnet.org"
    );
}

const MANUSCRIPT: &str = "pmc_author_manuscript_nihms1793594.xml";

#[test]
fn an_nih_author_manuscript_is_labelled_and_read_whole() {
    // PMC's XML of NIHMS1793594: `<?properties manuscript?>` after the
    // start tag and `<article-id pub-id-type="manuscript">`.
    let a = article(MANUSCRIPT);
    assert_eq!(
        a.manuscript,
        Some(jats::Manuscript {
            id: Some("NIHMS1793594".into())
        })
    );
    assert_eq!(a.article_type.as_deref(), Some("research-article"));
    assert_eq!(a.pmcid.as_deref(), Some("PMC9004331"));
    assert_eq!(a.pmid.as_deref(), Some("35419550"));
    assert_eq!(a.doi.as_deref(), Some("10.1016/j.ynirp.2021.100063"));
    assert_eq!(a.journal.as_deref(), Some("Neuroimage. Reports"));
    assert_eq!(
        a.title,
        "Reliability of arterial spin labeling derived cerebral blood flow in periventricular white matter"
    );
    assert_eq!(a.authors.len(), 6);
    assert_eq!(a.authors[0], "Sudipto Dolui");
    assert!(a.has_body);
    // Section labels ("1.", "2.4.1.") are not part of the titles.
    assert_eq!(
        titles(&a.sections),
        [
            "Introduction",
            "Materials and methods",
            "Results",
            "Discussion"
        ]
    );
    assert_eq!(
        titles(&a.sections[1].sections),
        [
            "Cohort",
            "PET/MRI acquisition and processing",
            "PVWM ROI definition from CARDIA data",
            "Data analysis"
        ]
    );
    assert_eq!(
        titles(&a.sections[1].sections[3].sections),
        [
            "Intra-session repeatability of ASL derived CBF",
            "Comparison of ASL CBF values with [15O]-water PET measurements",
            "Measurement of PVWM ATT"
        ]
    );
    assert_eq!(a.sections[3].paragraphs().count(), 6);
    assert_eq!(
        a.sections[3].paragraphs().next().unwrap(),
        "We evaluated CBF in the PVWM ROI using both single and multi PLD ASL acquisitions and demonstrated that it provided comparable test-retest reliability when compared to larger and more conventional ROIs. Furthermore, the correlations between ASL and [15O]-water PET derived PVWM CBFs were comparable to the other ROIs, demonstrating that PVWM CBF can be reliably measured."
    );
    let figs: Vec<&str> = a.figures.iter().map(|f| f.label.as_str()).collect();
    assert_eq!(
        figs,
        ["Fig. 1.", "Fig. 2.", "Fig. 3.", "Fig. 4.", "Fig. 5."]
    );
    assert_eq!(a.tables.len(), 1);
    assert_eq!(a.references.len(), 36);
    let lic = a.license.unwrap();
    assert_eq!(
        lic.url.as_deref(),
        Some("https://creativecommons.org/licenses/by-nc-nd/4.0/")
    );
    assert_eq!(lic.kind, None);
    assert_eq!(
        lic.text,
        "This is an open access article under the CC BY-NC-ND license (http://creativecommons.org/licenses/by-nc-nd/4.0/)."
    );
}

#[test]
fn publisher_versions_are_not_manuscripts() {
    for f in [
        "europepmc_review_pmc13249512.xml",
        "europepmc_ftp_case_report_pmc6358577.xml",
        "efetch_pmc_correction_8435807.xml",
        "pmc_oa_pone_0046493.nxml",
    ] {
        assert_eq!(article(f).manuscript, None, "{f}");
    }
}

#[test]
fn cli_labels_an_author_manuscript_in_json_and_markdown() {
    // The fake PMC's EFetch `db=pmc` frame, the manuscript in it for 9004331.
    let s = TestServer::start(|req: &support::server::Request| {
        if !(req.is("efetch.fcgi") && req.param("db") == Some("pmc")) {
            return pmc::handler(req);
        }
        let mut body = pmc::HEAD.to_string();
        for id in req.param("id").unwrap_or_default().split(',') {
            if id == "9004331" {
                body.push_str(&pmc::article_element(MANUSCRIPT));
            } else {
                let one = pmc::efetch_pmc(&[id]);
                body.push_str(&one[pmc::HEAD.len()..one.len() - "</pmc-articleset>\n".len()]);
            }
        }
        body.push_str("</pmc-articleset>\n");
        support::server::Reply::xml(body)
    });
    let run = pubmed(&["fulltext", "-f", "ndjson", "PMC9004331", "PMC3460867"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = ndjson(&run.stdout);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["source"], "pmc");
    assert_eq!(
        v[0]["manuscript"],
        serde_json::json!({"id": "NIHMS1793594"})
    );
    assert_eq!(v[1]["pmcid"], "PMC3460867");
    assert_eq!(v[1]["manuscript"], Value::Null);
    let md = pubmed(&["fulltext", "-f", "markdown", "PMC9004331"])
        .server(&s)
        .run();
    assert_eq!(md.code, 0, "{}", md.stderr);
    assert!(
        md.stdout.contains(
            "source: pmc · PMC9004331 · PMID 35419550 · DOI 10.1016/j.ynirp.2021.100063 · author manuscript NIHMS1793594\n"
        ),
        "{}",
        md.stdout
    );
}
