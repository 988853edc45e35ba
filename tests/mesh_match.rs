//! `pubmed mesh` and `pubmed match` end to end: the built binary against a
//! loopback NCBI serving the real MeSH ESummary and ECitMatch captures and
//! bodies built in their shape (tests/support/mesh.rs).

mod support;

use serde_json::json;
use support::cli::pubmed;
use support::mesh::mesh_server;

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
