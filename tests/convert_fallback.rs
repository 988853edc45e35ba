//! `pubmed convert --fallback pubmed` end to end: PMC articles answered by
//! the fake ID Converter, the rest looked up in the fake PubMed (ESummary
//! for PMIDs, one OR-ed ESearch for DOIs), every line accounted for, every
//! request counted.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::TestServer;

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

/// In the fake, PMIDs divisible by 7 are not in PMC; every PMID below
/// 99,000,000 is in PubMed with the DOI 10.5555/pmid.N; 23193287 and
/// 10.1038/ng.590 are the Converter captures' articles.
const MIXED: &str = "23193287\n14\n# a comment\n10.1038/ng.590\n10.5555/pmid.21\n10.9999/nothing\n99000006\nPMC5000014\nabc\n\n28\n10.5555/PMID.35\n";

fn run_mixed(fake: &Arc<FakeNcbi>, server: &TestServer, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ids.txt");
    std::fs::write(&file, MIXED).unwrap();
    let mut args = vec![
        "convert",
        "--input",
        file.to_str().unwrap(),
        "--fallback",
        "pubmed",
    ];
    args.extend_from_slice(extra);
    let _ = fake;
    pubmed(&args).server(server).run()
}

fn counts(fake: &FakeNcbi) -> (usize, usize, usize) {
    (
        fake.counters.idconv.load(Ordering::SeqCst),
        fake.counters.esearch.load(Ordering::SeqCst),
        fake.counters.esummary.load(Ordering::SeqCst),
    )
}

#[test]
fn a_mixed_file_every_line_accounted_for() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = run_mixed(&fake, &server, &["-f", "ndjson"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(String, String, String, String, String)> = recs
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
            (
                s("requested"),
                s("pmid"),
                s("doi"),
                s("source"),
                r["error"]["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let t = |a: &str, b: &str, c: &str, d: &str, e: &str| {
        (
            a.to_string(),
            b.to_string(),
            c.to_string(),
            d.to_string(),
            e.to_string(),
        )
    };
    assert_eq!(
        got,
        vec![
            t(
                "23193287",
                "23193287",
                "10.5555/example.23193287",
                "pmc",
                ""
            ),
            t("14", "14", "10.5555/pmid.14", "pubmed", ""),
            t("10.1038/ng.590", "20495566", "10.1038/ng.590", "pmc", ""),
            t("10.5555/pmid.21", "21", "10.5555/pmid.21", "pubmed", ""),
            t("10.9999/nothing", "", "", "", "not_found"),
            t("99000006", "", "", "", "not_found"),
            t("PMC5000014", "", "", "", "not_in_pmc"),
            t("abc", "", "", "", "malformed_id"),
            t("28", "28", "10.5555/pmid.28", "pubmed", ""),
            t("10.5555/PMID.35", "35", "10.5555/pmid.35", "pubmed", ""),
        ]
    );
    // A PMCID is never invented for an answer from PubMed.
    for r in recs.iter().filter(|r| r["source"] == "pubmed") {
        assert!(r.get("pmcid").is_none_or(serde_json::Value::is_null), "{r}");
    }
    assert!(
        recs[4]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("PubMed has no article with DOI 10.9999/nothing")
    );
    // Converter: one request per ID type (PMIDs, DOIs, PMCIDs); PubMed: one
    // ESearch for the three DOIs, one ESummary for 14, 99000006, 28 and the
    // PMIDs the DOIs found.
    assert_eq!(counts(&fake), (3, 1, 1));
    let terms: Vec<String> = server
        .requests()
        .iter()
        .filter(|r| r.is("esearch.fcgi"))
        .map(|r| r.param("term").unwrap().to_string())
        .collect();
    assert_eq!(
        terms,
        ["\"10.5555/pmid.21\"[doi] OR \"10.9999/nothing\"[doi] OR \"10.5555/pmid.35\"[doi]"]
    );
    assert!(
        run.stderr.contains(
            "10 IDs: 6 converted, 4 failed (malformed_id 1, not_found 2, not_in_pmc 1); 5 requests"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn the_readme_recipe_gives_a_doi_per_line() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = run_mixed(&fake, &server, &["--to", "doi"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // One output line per input line, blank and comment lines included.
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        [
            "10.5555/example.23193287",
            "10.5555/pmid.14",
            "",
            "10.1038/ng.590",
            "10.5555/pmid.21",
            "",
            "",
            "",
            "",
            "",
            "10.5555/pmid.28",
            "10.5555/pmid.35",
        ]
    );
}

#[test]
fn tsv_gains_a_source_column_and_json_totals_count_pubmed_answers() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = run_mixed(&fake, &server, &["-f", "tsv"]);
    let rows: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        rows[0],
        "requested\tpmid\tpmcid\tdoi\terror\tmessage\tsource"
    );
    assert_eq!(rows[2], "14\t14\t\t10.5555/pmid.14\t\t\tpubmed");
    assert_eq!(
        rows[1],
        "23193287\t23193287\tPMC3531190\t10.5555/example.23193287\t\t\tpmc"
    );
    let run = run_mixed(&fake, &server, &["-f", "json"]);
    let v = run.json();
    assert_eq!(
        (&v["submitted"], &v["converted"], &v["failed"]),
        (&10.into(), &6.into(), &4.into())
    );
    // Without --fallback: no lookups in PubMed, and no source column.
    let before = counts(&fake);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ids.txt");
    std::fs::write(&file, MIXED).unwrap();
    let run = pubmed(&["convert", "--input", file.to_str().unwrap(), "-f", "tsv"])
        .server(&server)
        .run();
    assert_eq!(
        run.stdout.lines().next().unwrap(),
        "requested\tpmid\tpmcid\tdoi\terror\tmessage"
    );
    let after = counts(&fake);
    assert_eq!((after.1, after.2), (before.1, before.2));
}

#[test]
fn a_failed_lookup_is_an_error_record_and_the_exit_status() {
    let fake = FakeNcbi::new(Corpus::default());
    // Every ESearch fails: the DOIs' lookups fail after retries.
    fake.failing_terms.lock().unwrap().push("[doi]".into());
    let server = start(&fake);
    let run = run_mixed(&fake, &server, &["-f", "ndjson"]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let recs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 10);
    assert_eq!(recs[3]["error"]["reason"], "ncbi_unreachable");
    assert!(
        recs[3]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("not in PMC; looking it up in PubMed failed")
    );
    // The PMIDs still come from ESummary.
    assert_eq!(recs[1]["source"], "pubmed");
}

/// Issue 25: `--to doi` counts what was asked for. Records found without a
/// DOI (21 from PubMed, 15 from the Converter: NCBI omits `doi`) are
/// "without a DOI", not converted, in the summary and the JSON totals.
#[test]
fn records_without_the_asked_id_are_counted_apart() {
    let fake = FakeNcbi::new(Corpus::default());
    fake.no_doi.lock().unwrap().extend([21, 15]);
    let server = start(&fake);
    let ids = ["23193287", "14", "21", "15", "99000006"];
    let mut args = vec!["convert", "--to", "doi", "--fallback", "pubmed"];
    args.extend_from_slice(&ids);
    let run = pubmed(&args).server(&server).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        ["10.5555/example.23193287", "10.5555/pmid.14", "", "", ""]
    );
    assert!(
        run.stderr
            .contains("5 IDs: 2 converted, 2 without a DOI, 1 failed (not_found 1);"),
        "{}",
        run.stderr
    );
    args.extend_from_slice(&["-f", "json"]);
    let v = pubmed(&args).server(&server).run().json();
    assert_eq!(
        (
            &v["submitted"],
            &v["converted"],
            &v["without_doi"],
            &v["failed"]
        ),
        (&5.into(), &2.into(), &2.into(), &1.into())
    );
    // Without --to nothing is missing: all four found are converted.
    let mut plain = vec!["convert", "--fallback", "pubmed", "-f", "json"];
    plain.extend_from_slice(&ids);
    let v = pubmed(&plain).server(&server).run().json();
    assert_eq!((&v["converted"], v.get("without_doi")), (&4.into(), None));
    // Every record found lacks the DOI: nothing converted, exit 1.
    let run = pubmed(&["convert", "--to", "doi", "--fallback", "pubmed", "21", "15"])
        .server(&server)
        .run();
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("2 IDs: 0 converted, 2 without a DOI, 0 failed;"),
        "{}",
        run.stderr
    );
}
