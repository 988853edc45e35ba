//! `pubmed mesh` and `pubmed match` end to end: the built binary against a
//! loopback NCBI serving the real MeSH ESummary and ECitMatch captures and
//! bodies built in their shape (tests/support/fake_ncbi/mesh.rs).

use crate::support;

use serde_json::json;
use support::cli::pubmed;
use support::fake_ncbi::mesh::mesh_server;

#[test]
fn mesh_term_lists_descriptors_with_clauses() {
    let server = mesh_server();
    let run = pubmed(&["mesh", "-f", "json", "heart", "attack"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["query"], "heart attack");
    assert_eq!(v["count"], 2);
    let r = &v["records"][0];
    assert_eq!(r["ui"], "D009203");
    assert_eq!(r["name"], "Myocardial Infarction");
    assert_eq!(r["kind"], "descriptor");
    assert_eq!(
        r["entryTerms"],
        json!([
            "Infarction, Myocardial",
            "Heart Attack",
            "Myocardial Infarct",
            "Cardiovascular Stroke"
        ])
    );
    assert_eq!(
        r["treeNumbers"],
        json!(["C14.280.647.500", "C14.907.585.500"])
    );
    assert_eq!(r["allowableQualifiers"][0], "blood");
    assert_eq!(r["allowableQualifiers"].as_array().unwrap().len(), 13);
    assert_eq!(
        r["search"],
        json!({
            "mesh": "\"Myocardial Infarction\"[Mesh]",
            "major": "\"Myocardial Infarction\"[majr]",
            "noExplode": "\"Myocardial Infarction\"[mh:noexp]"
        })
    );
    assert!(r.get("tree").is_none());
    assert_eq!(v["records"][1]["ui"], "D056988");
    assert_eq!(v["records"][1]["yearIntroduced"], "2009");
    // ESearch, then one ESummary: no mapping, no tree, no third request.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2, "{reqs:?}");
    assert!(reqs[0].is("esearch.fcgi"));
    assert_eq!(reqs[0].param("db"), Some("mesh"));
    assert_eq!(reqs[0].param("term"), Some("heart attack"));
    assert_eq!(reqs[0].param("retmax"), Some("5"));
    assert!(reqs[1].is("esummary.fcgi"));
    assert_eq!(reqs[1].param("id"), Some("68009203,68056988"));
    assert_eq!(reqs[1].param("version"), Some("2.0"));
}

#[test]
fn mesh_ui_tree_gives_parents_and_children_per_tree_number() {
    let server = mesh_server();
    let run = pubmed(&["mesh", "-f", "json", "D009203", "--tree"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["records"].as_array().unwrap().len(), 1);
    let tree = &v["records"][0]["tree"];
    assert_eq!(
        tree,
        &json!([
            {
                "treeNumber": "C14.280.647.500",
                "parent": {"ui": "D017202", "name": "Myocardial Ischemia", "treeNumber": "C14.280.647"},
                "children": [
                    {"ui": "D056988", "name": "Anterior Wall Myocardial Infarction", "treeNumber": "C14.280.647.500.093"},
                    {"ui": "D056989", "name": "Inferior Wall Myocardial Infarction", "treeNumber": "C14.280.647.500.187"}
                ]
            },
            {
                "treeNumber": "C14.907.585.500",
                "parent": {"ui": "D007238", "name": "Infarction", "treeNumber": "C14.907.585"},
                "children": [
                    {"ui": "D056988", "name": "Anterior Wall Myocardial Infarction", "treeNumber": "C14.907.585.500.093"},
                    {"ui": "D056989", "name": "Inferior Wall Myocardial Infarction", "treeNumber": "C14.907.585.500.187"}
                ]
            }
        ])
    );
    // A 7-character UI needs no ESearch: the record, then its neighbours.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2, "{reqs:?}");
    assert_eq!(reqs[0].param("id"), Some("68009203"));
    assert_eq!(
        reqs[1].param("id"),
        Some("68017202,68007238,68056988,68056989")
    );
}

/// The real SCR capture: the `@3065` pointer is no tree number, and the
/// descriptor it maps to (`DS_HeadingMappedToList` 68026923) is named.
#[test]
fn mesh_scr_shows_its_mapped_descriptor_not_its_pointer() {
    let server = mesh_server();
    let run = pubmed(&["mesh", "-f", "json", "C414177"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json()["records"][0];
    assert_eq!(r["ui"], "C414177");
    assert_eq!(r["name"], "SLC7A2 protein, human");
    assert_eq!(r["kind"], "supplementary");
    assert_eq!(r["scopeNote"], "RefSeq NM_003046");
    assert_eq!(r["treeNumbers"], json!([]));
    assert_eq!(
        r["previousIndexing"],
        json!(["CALCIUM CHANNELS (2000-2006)"])
    );
    assert_eq!(
        r["mappedTo"],
        json!([{"ui": "D026923", "name": "Cationic Amino Acid Transporter 2"}])
    );
    assert_eq!(
        r["search"],
        json!({"mesh": "\"SLC7A2 protein, human\"[nm]"})
    );
    assert!(!run.stdout.contains("@3065"));
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1].param("id"), Some("68026923"));
}

#[test]
fn mesh_tsv_and_ids() {
    let server = mesh_server();
    let run = pubmed(&["mesh", "-f", "tsv", "D009203"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "ui\tname\tkind\ttree_numbers\tentry_terms\tqualifiers\tyear_introduced\tmapped_to\tsearch\tscope_note\tprevious_indexing"
    );
    let cells: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(cells[0], "D009203");
    assert_eq!(cells[1], "Myocardial Infarction");
    assert_eq!(cells[2], "descriptor");
    assert_eq!(cells[3], "C14.280.647.500; C14.907.585.500");
    assert_eq!(cells[8], "\"Myocardial Infarction\"[Mesh]");
    assert_eq!(lines.len(), 2);

    let run = pubmed(&["mesh", "-f", "ids", "heart attack"])
        .server(&server)
        .run();
    assert_eq!(run.stdout, "D009203\nD056988\n");
}

#[test]
fn mesh_table_shows_the_record() {
    let server = mesh_server();
    let run = pubmed(&["mesh", "-f", "table", "--tree", "D009203"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Myocardial Infarction D009203 (descriptor)\n"),
        "{}",
        run.stdout
    );
    for want in [
        "\"Myocardial Infarction\"[Mesh]",
        "C14.280.647.500, C14.907.585.500",
        "C14.280.647 Myocardial Ischemia (D017202)",
        "C14.280.647.500.093 Anterior Wall Myocardial Infarction",
    ] {
        assert!(run.stdout.contains(want), "{want}: {}", run.stdout);
    }
}

#[test]
fn mesh_unknown_term_is_not_found_with_a_spell_hint() {
    let server = mesh_server();
    let run = pubmed(&["mesh", "-f", "json", "hart atack"])
        .server(&server)
        .run();
    let e = run.failed_with(
        1,
        "ncbi_resource_not_found",
        "MeSH has no record for \"hart atack\"",
    );
    assert!(e["hint"].as_str().unwrap().contains("pubmed spell"), "{e}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn mesh_bad_input_sends_nothing() {
    let server = mesh_server();
    let run = pubmed(&["mesh", "-f", "json", "  "]).server(&server).run();
    run.failed_with(2, "blank_query", "");
    let run = pubmed(&["mesh", "-f", "json", "--max", "21", "asthma"])
        .server(&server)
        .run();
    run.failed_with(2, "invalid_argument", "1 to 20");
    assert_eq!(server.count(), 0);
}

// ---- pubmed match ----

use support::fake_ncbi::mesh::{CAPTURE_BDATA, ecitmatch_answer, server};

const CAPTURE_LINES: &str = "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|\nfake journal|2000|1|1|nobody|ref2|\nn engl j med|2020|382|727|zhu n|Art4|\n";

/// The real ECitMatch capture, asked with the request that produced it:
/// found, invalid journal, found — in input order, one record each.
#[test]
fn match_pipe_lines_reads_the_real_capture() {
    let server = server(|b| ecitmatch_answer(b, &[]));
    let run = pubmed(&["match", "-f", "json", "-"])
        .server(&server)
        .stdin(CAPTURE_LINES)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let recs = v["records"].as_array().unwrap();
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[0]["key"], "Art1");
    assert_eq!(recs[0]["status"], "matched");
    assert_eq!(recs[0]["pmid"], "2014248");
    assert_eq!(recs[0]["method"], "citmatch");
    assert_eq!(recs[1]["key"], "ref2");
    assert_eq!(recs[1]["status"], "not_found");
    assert_eq!(recs[1]["detail"], "INVALID_JOURNAL");
    assert!(recs[1].get("pmid").is_none());
    assert_eq!(recs[2]["pmid"], "31978945");
    assert_eq!(v["totalSubmitted"], 3);
    assert_eq!(v["totalMatched"], 2);
    assert!(
        run.stderr
            .contains("matched 2 of 3 references (1 not_found)"),
        "{}",
        run.stderr
    );
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert!(reqs[0].is("ecitmatch.cgi"));
    assert_eq!(reqs[0].param("db"), Some("pubmed"));
    assert_eq!(reqs[0].param("retmode"), Some("xml"));
    assert_eq!(reqs[0].param("bdata"), Some(CAPTURE_BDATA));
}

#[test]
fn match_ids_keep_lines_aligned_and_tsv_has_every_input() {
    let server = server(|b| ecitmatch_answer(b, &[]));
    let run = pubmed(&["match", "-f", "ids", "-"])
        .server(&server)
        .stdin(CAPTURE_LINES)
        .run();
    assert_eq!(run.stdout, "2014248\n\n31978945\n");
    let run = pubmed(&["match", "-f", "tsv", "-"])
        .server(&server)
        .stdin(CAPTURE_LINES)
        .run();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "input\tkey\tstatus\tpmid\tmethod\tcandidates\tmessage"
    );
    assert_eq!(
        lines[2],
        "fake journal|2000|1|1|nobody|ref2|\tref2\tnot_found\t\t\t\tECitMatch found no article (INVALID_JOURNAL)"
    );
    assert_eq!(lines.len(), 4);
}

/// Ambiguous answers list candidates and are no match; a line that is not
/// a citation is its own record, in place; every input once, in order.
#[test]
fn match_ambiguous_invalid_and_every_input_in_order() {
    let server = server(|b| {
        ecitmatch_answer(
            b,
            &[
                ("j chem phys|2001|1|1", "AMBIGUOUS 11111111,22222222"),
                ("n engl j med|2020|382|727", "31978945"),
            ],
        )
    });
    let input = "j chem phys|2001|1|1|smith j|a|\nnot a citation\nn engl j med|2020|382|727|zhu n|b|\n# comment\nunknown j|1999|2|3|doe j|c|\n";
    let run = pubmed(&["match", "-f", "ndjson", "-"])
        .server(&server)
        .stdin(input)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let st: Vec<&str> = recs.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        st,
        ["ambiguous", "invalid_citation", "matched", "not_found"]
    );
    assert_eq!(recs[0]["candidates"], json!(["11111111", "22222222"]));
    assert!(recs[0].get("pmid").is_none());
    assert_eq!(recs[1]["input"], "not a citation");
    assert_eq!(recs[2]["pmid"], "31978945");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn match_csv_with_named_columns() {
    let server = server(|b| ecitmatch_answer(b, &[]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.csv");
    std::fs::write(
        &path,
        "Key,Journal,Year,Volume,Pages,Author\nArt1,proc natl acad sci u s a,1991,88,3248-52,\"Mann, B J\"\nref2,fake journal,2000,1,1,Nobody\nArt4,n engl j med,2020,382,727-733,\"Zhu, Na\"\n",
    )
    .unwrap();
    let run = pubmed(&["match", "-f", "ids", path.to_str().unwrap()])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "2014248\n\n31978945\n");
    assert_eq!(server.requests()[0].param("bdata"), Some(CAPTURE_BDATA));
}

#[test]
fn match_nothing_matched_exits_1_and_bad_csv_exits_2() {
    let server = server(|b| ecitmatch_answer(b, &[]));
    let run = pubmed(&["match", "-f", "ids", "-"])
        .server(&server)
        .stdin("x j|2000|1|1|a b|k|\n")
        .run();
    assert_eq!(run.code, 1, "{}", run.stderr);
    let run = pubmed(&["match", "-f", "json", "--from", "csv", "-"])
        .server(&server)
        .stdin("a,b\n1,2\n")
        .run();
    run.failed_with(2, "invalid_argument", "journal and year");
}

#[test]
fn match_bibtex_entries_without_a_pmid_read_the_real_capture() {
    let server = server(|b| ecitmatch_answer(b, &[]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.bib");
    std::fs::write(
        &path,
        "% refs\n@article{Art1,\n  author = {Mann, B J and Other, A},\n  journal = {proc natl acad sci u s a},\n  year = 1991,\n  volume = {88},\n  pages = {3248--3252}\n}\n@article{done, journal = {J}, year = {2000}, pmid = {1}}\n@article{ref2, author = {Nobody}, journal = {fake journal}, year = {2000}, volume = {1}, pages = {1}}\n@article{Art4, author = {Zhu, Na}, journal = {n engl j med}, year = {2020}, volume = {382}, pages = {727--733}}\n",
    )
    .unwrap();
    let run = pubmed(&["match", "-f", "ndjson", path.to_str().unwrap()])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(server.requests()[0].param("bdata"), Some(CAPTURE_BDATA));
    let recs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The entry with a `pmid` field is not asked about.
    let got: Vec<(&str, &str)> = recs
        .iter()
        .map(|r| (r["key"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            ("Art1", "matched"),
            ("ref2", "not_found"),
            ("Art4", "matched")
        ]
    );
    assert_eq!(recs[0]["pmid"], "2014248");
    assert_eq!(recs[0]["input"], "@article{Art1}");
    assert_eq!(recs[1]["detail"], "INVALID_JOURNAL");
    assert_eq!(recs[2]["pmid"], "31978945");
}

#[test]
fn match_bib_out_adds_only_pmid_fields_and_never_overwrites() {
    let server = server(|b| ecitmatch_answer(b, &[]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.bib");
    let bib = "% refs\n@article{Art1,\n  author = {Mann, B J},\n  journal = {proc natl acad sci u s a},\n  year = 1991,\n  volume = {88},\n  pages = {3248--3252}\n}\n\n@article{ref2, author = {Nobody}, journal = {fake journal}, year = {2000}, volume = {1}, pages = {1}}\n@article{Art4, author = {Zhu, Na}, journal = {n engl j med}, year = {2020}, volume = {382}, pages = {727--733},\n}\n";
    std::fs::write(&path, bib).unwrap();
    let out = dir.path().join("out.bib");
    let args = [
        "match",
        "-f",
        "ids",
        path.to_str().unwrap(),
        "--bib-out",
        out.to_str().unwrap(),
    ];
    let run = pubmed(&args).server(&server).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "2014248\n\n31978945\n");
    let want = bib
        .replace(
            "pages = {3248--3252}\n}",
            "pages = {3248--3252},\n  pmid = {2014248}\n}",
        )
        .replace(
            "pages = {727--733},\n}",
            "pages = {727--733},\n  pmid = {31978945},\n}",
        );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bib);
    // An existing FILE is refused, left as it was.
    let again = pubmed(&args).server(&server).run();
    assert_ne!(again.code, 0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
}

/// DOI first: the rcrossref ID Converter capture's DOI (10.1038/ng.590 →
/// PMID 20495566, PMC2883744) matches by `doi` with no ECitMatch line; a
/// DOI outside PMC (metapub#23's 10.7164/antibiotics.37.454) is searched
/// as `"…"[doi]`, found nowhere, and its entry goes to ECitMatch with the
/// others — whose request is then exactly the ECitMatch capture's.
#[test]
fn match_doi_first_then_ecitmatch_with_exact_requests() {
    let server = support::fake_ncbi::mesh::match_server(Vec::new());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.bib");
    std::fs::write(
        &path,
        "@article{ng, author = {Plagnol, V}, journal = {Nat Genet}, year = {2010}, doi = {10.1038/ng.590}}\n@article{Art1, author = {Mann, B J}, journal = {proc natl acad sci u s a}, year = 1991, volume = {88}, pages = {3248--3252}}\n@article{ref2, author = {Nobody}, journal = {fake journal}, year = {2000}, volume = {1}, pages = {1}, doi = {10.7164/antibiotics.37.454}}\n@article{Art4, author = {Zhu, Na}, journal = {n engl j med}, year = {2020}, volume = {382}, pages = {727--733}}\n",
    )
    .unwrap();
    let run = pubmed(&["match", "-f", "ndjson", path.to_str().unwrap()])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(&str, &str, &str, &str)> = recs
        .iter()
        .map(|r| {
            (
                r["key"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
                r["pmid"].as_str().unwrap_or(""),
                r["method"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("ng", "matched", "20495566", "doi"),
            ("Art1", "matched", "2014248", "citmatch"),
            ("ref2", "not_found", "", ""),
            ("Art4", "matched", "31978945", "citmatch"),
        ]
    );
    assert_eq!(recs[0]["pmcid"], "PMC2883744");
    assert_eq!(recs[0]["doi"], "10.1038/ng.590");
    assert_eq!(recs[2]["detail"], "INVALID_JOURNAL");
    let reqs = server.requests();
    let paths: Vec<&str> = reqs
        .iter()
        .map(|r| r.path.rsplit('/').find(|p| !p.is_empty()).unwrap())
        .collect();
    assert_eq!(
        paths,
        ["articles", "esearch.fcgi", "ecitmatch.cgi"],
        "{reqs:?}"
    );
    assert_eq!(
        reqs[0].param("ids"),
        Some("10.1038/ng.590,10.7164/antibiotics.37.454")
    );
    assert_eq!(reqs[0].param("idtype"), Some("doi"));
    assert_eq!(
        reqs[1].param("term"),
        Some("\"10.7164/antibiotics.37.454\"[doi]")
    );
    assert_eq!(reqs[2].param("bdata"), Some(CAPTURE_BDATA));
}

/// `--bib-out` adds `pmid`, and the `pmcid` and `doi` found, only where
/// the entry lacks them; every other byte is kept (the ID Converter
/// capture's IDs for 10.1038/ng.590, written as the entry spells its DOI).
#[test]
fn match_bib_out_adds_pmcid_and_doi_found_by_doi() {
    let server = support::fake_ncbi::mesh::match_server(Vec::new());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.bib");
    let bib = "@article{ng,\n  author = {Plagnol, V},\n  doi = {10.1038/NG.590}\n}\n% kept\n@article{Art1, author = {Mann, B J}, journal = {proc natl acad sci u s a}, year = 1991, volume = {88}, pages = {3248--3252}}\n@article{ref2, author = {Nobody}, journal = {fake journal}, year = {2000}, volume = {1}, pages = {1}}\n@article{Art4, author = {Zhu, Na}, journal = {n engl j med}, year = {2020}, volume = {382}, pages = {727--733}, pmcid = {PMC0}}\n";
    std::fs::write(&path, bib).unwrap();
    let out = dir.path().join("out.bib");
    let run = pubmed(&[
        "match",
        "-f",
        "ids",
        path.to_str().unwrap(),
        "--bib-out",
        out.to_str().unwrap(),
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "20495566\n2014248\n\n31978945\n");
    let want = "@article{ng,\n  author = {Plagnol, V},\n  doi = {10.1038/NG.590},\n  pmid = {20495566},\n  pmcid = {PMC2883744}\n}\n% kept\n@article{Art1, author = {Mann, B J}, journal = {proc natl acad sci u s a}, year = 1991, volume = {88}, pages = {3248--3252},\n  pmid = {2014248}}\n@article{ref2, author = {Nobody}, journal = {fake journal}, year = {2000}, volume = {1}, pages = {1}}\n@article{Art4, author = {Zhu, Na}, journal = {n engl j med}, year = {2020}, volume = {382}, pages = {727--733}, pmcid = {PMC0},\n  pmid = {31978945}}\n";
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bib);
}

/// `--bib-out` naming an existing file: exit 2 (`invalid_argument`) before
/// any request, the file untouched.
#[test]
fn match_bib_out_onto_an_existing_file_is_refused_before_any_request() {
    let server = support::fake_ncbi::mesh::match_server(Vec::new());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.bib");
    std::fs::write(
        &path,
        "@article{ng,\n  author = {Plagnol, V},\n  doi = {10.1038/NG.590}\n}\n",
    )
    .unwrap();
    let out = dir.path().join("out.bib");
    std::fs::write(&out, "kept\n").unwrap();
    let run = pubmed(&[
        "match",
        "-f",
        "json",
        path.to_str().unwrap(),
        "--bib-out",
        out.to_str().unwrap(),
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let e: serde_json::Value = serde_json::from_str(run.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(e["error"]["reason"], "invalid_argument", "{}", run.stderr);
    assert!(
        e["error"]["message"].as_str().unwrap().ends_with(
            "out.bib exists: --bib-out/--write-back writes a new file and never replaces one; name another"
        ),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept\n");
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}

/// The kind of entry `i` of the 50-entry list, and what it should gain.
fn entry_50(i: u64) -> (String, Vec<(&'static str, String)>, &'static str) {
    let head = format!("@article{{k{i},\n  title = {{Entry {i}}},\n  author = {{Doe, J}}");
    match i {
        // The ID Converter capture's DOI (rcrossref): PMID and PMCID.
        0 => (
            format!("{head},\n  doi = {{10.1038/ng.590}}\n}}\n"),
            vec![("pmid", "20495566".into()), ("pmcid", "PMC2883744".into())],
            "doi",
        ),
        // In PMC (the fake's synthetic DOIs): PMID and PMCID.
        1..=19 => (
            format!("{head},\n  doi = {{10.5555/pmid.{}}}\n}}\n", 1000 + i),
            // 1001, 1008 and 1015 are multiples of 7: outside PMC, no PMCID.
            [("pmid", (1000 + i).to_string())]
                .into_iter()
                .chain(
                    (!(1000 + i).is_multiple_of(7))
                        .then(|| ("pmcid", format!("PMC{}", 5_001_000 + i))),
                )
                .collect(),
            "doi",
        ),
        // Outside PMC (PMIDs divisible by 7): ESearch `[doi]` finds the PMID.
        20..=24 => (
            format!("{head},\n  doi = {{10.5555/pmid.{}}}\n}}\n", 7 * i),
            vec![("pmid", (7 * i).to_string())],
            "doi",
        ),
        25 => (
            format!(
                "{head},\n  journal = {{j test}},\n  year = {{2000}},\n  volume = {{1}},\n  pages = {{999}}\n}}\n"
            ),
            Vec::new(),
            "ambiguous",
        ),
        26 => (
            format!(
                "{head},\n  journal = {{j test}},\n  year = {{2000}},\n  volume = {{2}},\n  pages = {{999}}\n}}\n"
            ),
            Vec::new(),
            "not_found",
        ),
        _ => (
            format!(
                "{head},\n  journal = {{j test}},\n  year = {{2000}},\n  volume = {{{i}}},\n  pages = {{{i}}}\n}}\n"
            ),
            vec![("pmid", (3_000_000 + i).to_string())],
            "citmatch",
        ),
    }
}

/// 50 BibTeX entries (DOIs in and outside PMC, ECitMatch lines, one
/// ambiguous, one unknown) round-trip: one record per entry in order,
/// only `pmid`/`pmcid` added (the entries have their DOI), in 4 requests.
#[test]
fn match_fifty_bibtex_entries_round_trip() {
    let known: Vec<(String, String)> = (27..50)
        .map(|i| (format!("j test|2000|{i}|{i}"), (3_000_000 + i).to_string()))
        .chain([(
            "j test|2000|1|999".to_string(),
            "AMBIGUOUS 11111111,22222222".to_string(),
        )])
        .collect();
    let server = support::fake_ncbi::mesh::match_server(known);
    let entries: Vec<_> = (0..50).map(entry_50).collect();
    let bib: String = entries.iter().map(|(e, _, _)| e.as_str()).collect();
    let want: String = entries
        .iter()
        .map(|(e, add, _)| {
            if add.is_empty() {
                return e.clone();
            }
            let fields: Vec<String> = add
                .iter()
                .map(|(n, v)| format!("  {n} = {{{v}}}"))
                .collect();
            e.replace("\n}\n", &format!(",\n{}\n}}\n", fields.join(",\n")))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.bib");
    std::fs::write(&path, &bib).unwrap();
    let out = dir.path().join("out.bib");
    let run = pubmed(&[
        "match",
        "-f",
        "ndjson",
        path.to_str().unwrap(),
        "--bib-out",
        out.to_str().unwrap(),
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 50);
    for (i, (r, (_, add, how))) in recs.iter().zip(&entries).enumerate() {
        assert_eq!(r["key"], format!("k{i}"));
        let got = r["method"]
            .as_str()
            .unwrap_or(r["status"].as_str().unwrap());
        assert_eq!(got, *how, "entry {i}: {r}");
        assert_eq!(
            r["pmid"].as_str(),
            add.first().map(|(_, p)| p.as_str()),
            "{i}"
        );
    }
    assert_eq!(recs[25]["candidates"], json!(["11111111", "22222222"]));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bib);
    let paths: Vec<String> = server
        .requests()
        .iter()
        .map(|r| {
            r.path
                .rsplit('/')
                .find(|p| !p.is_empty())
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        paths,
        ["articles", "esearch.fcgi", "esummary.fcgi", "ecitmatch.cgi"]
    );
    assert!(
        run.stderr.contains("matched 48 of 50 references"),
        "{}",
        run.stderr
    );
}

/// RIS: records without a PMID (`AN` of digits, as `fetch -f ris` writes
/// it) are matched, DOI first; `--write-back` adds only `AN` (and `DO`)
/// lines before each matched record's `ER`, CRLF kept, every other byte
/// unchanged; the ECitMatch request is the capture's.
#[test]
fn match_ris_records_and_write_back() {
    let server = support::fake_ncbi::mesh::match_server(Vec::new());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.ris");
    let ris = "TY  - JOUR\r\nTI  - ng\r\nDO  - 10.1038/ng.590\r\nER  - \r\nTY  - JOUR\r\nID  - Art1\r\nAU  - Mann, B J\r\nT2  - proc natl acad sci u s a\r\nPY  - 1991\r\nVL  - 88\r\nSP  - 3248\r\nER  - \r\nTY  - JOUR\r\nAN  - 123\r\nER  - \r\nTY  - JOUR\r\nID  - ref2\r\nAU  - Nobody\r\nT2  - fake journal\r\nPY  - 2000\r\nVL  - 1\r\nSP  - 1\r\nER  - \r\nTY  - JOUR\r\nID  - Art4\r\nAU  - Zhu, Na\r\nJO  - n engl j med\r\nPY  - 2020/02/20\r\nVL  - 382\r\nSP  - 727\r\nEP  - 733\r\nER  - \r\n";
    std::fs::write(&path, ris).unwrap();
    let out = dir.path().join("out.ris");
    let run = pubmed(&[
        "match",
        "-f",
        "ids",
        path.to_str().unwrap(),
        "--write-back",
        out.to_str().unwrap(),
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "20495566\n2014248\n\n31978945\n");
    let reqs = server.requests();
    assert_eq!(reqs.last().unwrap().param("bdata"), Some(CAPTURE_BDATA));
    let want = ris
        .replacen(
            "DO  - 10.1038/ng.590\r\n",
            "DO  - 10.1038/ng.590\r\nAN  - 20495566\r\n",
            1,
        )
        .replacen("SP  - 3248\r\n", "SP  - 3248\r\nAN  - 2014248\r\n", 1)
        .replacen("EP  - 733\r\n", "EP  - 733\r\nAN  - 31978945\r\n", 1);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), ris);
}

/// A server answering `db=mesh` as [`support::fake_ncbi::mesh::reply`] (or with
/// `mesh_status` when set) and PubMed as the shared fake.
fn search_server(mesh_status: Option<u16>) -> support::server::TestServer {
    use support::fake_ncbi::{Corpus, FakeNcbi};
    let fake = FakeNcbi::new(Corpus::default());
    support::server::TestServer::start(move |req| {
        if req.param("db") == Some("mesh") {
            return match mesh_status {
                Some(s) => support::server::Reply::status(s, "text/plain", "MeSH is down"),
                None => support::fake_ncbi::mesh::reply(req, &|_| {
                    support::server::Reply::status(404, "text/plain", "no")
                }),
            };
        }
        fake.reply(req)
    })
}

fn pubmed_term(server: &support::server::TestServer) -> Vec<String> {
    server
        .requests()
        .iter()
        .filter(|r| r.is("esearch.fcgi") && r.param("db") != Some("mesh"))
        .map(|r| r.param("term").unwrap_or_default().to_string())
        .collect()
}

fn mesh_requests(server: &support::server::TestServer) -> Vec<support::server::Request> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.param("db") == Some("mesh"))
        .collect()
}

#[test]
fn search_mesh_ui_searches_the_records_name_with_one_request() {
    let server = search_server(None);
    let run = pubmed(&[
        "search", "", "--mesh", "D009203", "--mesh", "C414177", "-f", "json",
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    // D009203 is Myocardial Infarction; C414177 is the real SCR capture's
    // "SLC7A2 protein, human", which PubMed indexes under [nm].
    let want = "\"Myocardial Infarction\"[MeSH Terms] AND \"SLC7A2 protein, human\"[nm]";
    assert_eq!(pubmed_term(&server), vec![want.to_string()]);
    let v = run.json();
    assert_eq!(v["effectiveQuery"], want);
    assert_eq!(
        v["appliedFilters"]["meshTerms"],
        json!(["Myocardial Infarction", "SLC7A2 protein, human"])
    );
    assert!(
        v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|w| !w["kind"].as_str().unwrap().starts_with("mesh_")),
        "{}",
        v["warnings"]
    );
    // 7-character UIs need no ESearch: one ESummary for both.
    let m = mesh_requests(&server);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].is("esummary.fcgi"));
    assert_eq!(m[0].param("id"), Some("68009203,67414177"));
}

/// `search --all` runs the same check before its first window: the UI is
/// searched as its name in every request, and the entry term's warning is
/// on stderr.
#[test]
fn search_all_checks_mesh_values_like_one_search() {
    let server = search_server(None);
    let run = pubmed(&[
        "search",
        "",
        "--mesh",
        "D009203",
        "--mesh",
        "Heart Attack",
        "--all",
        "-f",
        "ids",
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        pubmed_term(&server),
        vec!["\"Myocardial Infarction\"[MeSH Terms] AND \"Heart Attack\"[MeSH Terms]".to_string()]
    );
    let entry = "\"Heart Attack\" is not a current MeSH descriptor: it is an entry term of \"Myocardial Infarction\" (D009203), the heading to search; it was searched as typed (check it with `pubmed mesh \"Heart Attack\"`)";
    assert!(
        run.stderr.contains(&format!("warning: {entry}")),
        "{}",
        run.stderr
    );
    let m = mesh_requests(&server);
    assert_eq!(m.len(), 2, "one ESearch and one ESummary: {m:?}");
    assert_eq!(m[0].param("term"), Some("\"Heart Attack\"[mh]"));
}

#[test]
fn search_mesh_misspelled_or_entry_term_warns_and_searches_as_typed() {
    let server = search_server(None);
    let args = [
        "search",
        "aspirin",
        "--mesh",
        "Myocardial Infarctoin",
        "--mesh",
        "Heart Attack",
        "--mesh",
        "asthma",
    ];
    let mut json_args = args.to_vec();
    json_args.extend(["-f", "json"]);
    let run = pubmed(&json_args).server(&server).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        pubmed_term(&server),
        vec![
            "(aspirin) AND \"Myocardial Infarctoin\"[MeSH Terms] AND \"Heart Attack\"[MeSH Terms] AND \"asthma\"[MeSH Terms]"
                .to_string()
        ]
    );
    let m = mesh_requests(&server);
    assert_eq!(m.len(), 2, "one ESearch and one ESummary: {m:?}");
    assert_eq!(
        m[0].param("term"),
        Some("\"Myocardial Infarctoin\"[mh] OR \"Heart Attack\"[mh] OR \"asthma\"[mh]")
    );
    assert_eq!(m[1].param("id"), Some("68009203,68001249"));
    let misspelled = "\"Myocardial Infarctoin\" is not a current MeSH descriptor: MeSH has no heading or entry term of this name, so it may match nothing; it was searched as typed (check it with `pubmed mesh \"Myocardial Infarctoin\"`)";
    let entry = "\"Heart Attack\" is not a current MeSH descriptor: it is an entry term of \"Myocardial Infarction\" (D009203), the heading to search; it was searched as typed (check it with `pubmed mesh \"Heart Attack\"`)";
    let v = run.json();
    let w: Vec<&serde_json::Value> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["kind"] == "mesh_not_descriptor")
        .collect();
    assert_eq!(w.len(), 2, "asthma is a heading (case ignored): {w:?}");
    assert_eq!(w[0]["message"], misspelled);
    assert_eq!(w[0]["terms"], json!(["Myocardial Infarctoin"]));
    assert_eq!(w[1]["message"], entry);
    // and on stderr outside JSON
    let mut tsv_args = args.to_vec();
    tsv_args.extend(["-f", "tsv"]);
    let run = pubmed(&tsv_args).server(&server).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("warning: {misspelled}")),
        "{}",
        run.stderr
    );
}

#[test]
fn search_mesh_check_outage_is_a_warning_and_the_search_runs() {
    let server = search_server(Some(400));
    let run = pubmed(&["search", "", "--mesh", "Asthma", "-f", "json"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        pubmed_term(&server),
        vec!["\"Asthma\"[MeSH Terms]".to_string()]
    );
    let v = run.json();
    let w: Vec<&serde_json::Value> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["kind"] == "mesh_check_failed")
        .collect();
    assert_eq!(w.len(), 1, "{}", v["warnings"]);
    let msg = w[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("the MeSH check of the MeSH terms could not run: ")
            && msg.ends_with("; they were searched as typed"),
        "{msg}"
    );
    assert!(v["count"].as_u64().is_some());
}

/// At 100 columns the table never splits a search clause: each of
/// D009203's three clauses and the real SCR capture's `[nm]` clause is
/// whole on one line.
#[test]
fn mesh_table_keeps_each_clause_on_one_line_at_100_columns() {
    let server = mesh_server();
    for (term, clauses) in [
        (
            "D009203",
            vec![
                "\"Myocardial Infarction\"[Mesh]",
                "\"Myocardial Infarction\"[majr]",
                "\"Myocardial Infarction\"[mh:noexp]",
            ],
        ),
        ("C414177", vec!["\"SLC7A2 protein, human\"[nm]"]),
    ] {
        let run = pubmed(&["mesh", "-f", "table", "--tree", term])
            .server(&server)
            .env("COLUMNS", "100")
            .run();
        assert_eq!(run.code, 0, "{}", run.stderr);
        for line in run.stdout.lines() {
            assert!(line.chars().count() <= 100, "{line}");
        }
        for c in clauses {
            assert!(
                run.stdout.lines().any(|l| l.contains(c)),
                "{c} on one line:\n{}",
                run.stdout
            );
        }
    }
}
