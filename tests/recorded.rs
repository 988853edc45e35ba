//! `search --record FILE` (docs/recorded.md) end to end against the fake
//! NCBI.

use crate::support;

use std::sync::Arc;

use sha2::Digest;
use support::cli::pubmed;
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::TestServer;

fn server(pmids: Vec<u64>) -> TestServer {
    let mut corpus = Corpus::default();
    corpus.queries.insert("asthma".into(), Arc::new(pmids));
    let fake = FakeNcbi::new(corpus);
    TestServer::start(move |r| fake.reply(r))
}

fn lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_recorded_search_holds_what_prisma_s_asks() {
    let s = server(vec![1_000_001, 1_000_002, 31_000_000]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("searches.jsonl");
    let f = file.to_str().unwrap();
    let run = pubmed(&[
        "search", "asthma", "--record", f, "--detail", "ids", "-f", "json",
    ])
    .server(&s)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("recorded the search (3 of 3 PMIDs) in {f}")),
        "{}",
        run.stderr
    );
    let recs = lines(&file);
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r["recordVersion"], 1);
    assert_eq!(r["database"], "PubMed");
    assert_eq!(r["platform"], "NCBI E-utilities (ESearch)");
    assert_eq!(r["baseUrl"], s.eutils_url());
    assert_eq!(r["tool"], format!("pubmed {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(r["query"], "asthma");
    assert_eq!(r["effectiveQuery"], "asthma");
    assert_eq!(r["count"], 3);
    assert_eq!(r["complete"], true);
    let mut pmids: Vec<String> = r["pmids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    pmids.sort_by_key(|p| p.parse::<u64>().unwrap());
    assert_eq!(pmids, ["1000001", "1000002", "31000000"]);
    // sha256 of "1000001\n1000002\n31000000\n"
    let digest: String = sha2::Sha256::digest(b"1000001\n1000002\n31000000\n")
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(r["pmidsSha256"], digest);
    let at = r["recordedAt"].as_str().unwrap();
    assert!(
        at.parse::<jiff::Timestamp>().is_ok() && at.ends_with('Z'),
        "{at}"
    );
    // The search's own output is unchanged by --record.
    assert_eq!(run.json()["count"], 3);
}

#[test]
fn concurrent_writers_lose_no_line() {
    let s = server((0..500u64).map(|i| 2_000_000 + i).collect());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("searches.jsonl");
    let f = file.to_str().unwrap();
    std::thread::scope(|sc| {
        for _ in 0..6 {
            let s = &s;
            sc.spawn(move || {
                let run = pubmed(&[
                    "search", "asthma", "--record", f, "--retmax", "500", "-f", "ids",
                ])
                .server(s)
                .run();
                assert_eq!(run.code, 0, "{}", run.stderr);
            });
        }
    });
    let recs = lines(&file);
    assert_eq!(recs.len(), 6);
    for r in &recs {
        assert_eq!(r["count"], 500);
        assert_eq!(r["pmids"].as_array().unwrap().len(), 500);
    }
}

/// `--all --record`: the whole set, past PubMed's window, in a sidecar
/// (over 10,000 PMIDs) whose `sha256sum` is the record's digest.
#[test]
fn all_records_the_whole_set_in_a_sidecar() {
    let pmids: Vec<u64> = (0..12_000u64).map(|i| 3_000_000 + 7 * i).collect();
    let s = server(pmids.clone());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("searches.jsonl");
    let f = file.to_str().unwrap();
    let run = pubmed(&["search", "asthma", "--all", "--record", f, "-f", "ids"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs = lines(&file);
    let r = &recs[0];
    assert_eq!(r["scope"], "all");
    assert_eq!(r["count"], 12_000);
    assert_eq!(r["pmidCount"], 12_000);
    assert_eq!(r["complete"], true);
    assert!(r.get("pmids").is_none());
    let side = dir.path().join(r["pmidsFile"].as_str().unwrap());
    let text = std::fs::read_to_string(side).unwrap();
    let want: String = pmids.iter().map(|p| format!("{p}\n")).collect();
    assert_eq!(text, want);
    let digest: String = sha2::Sha256::digest(want.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(r["pmidsSha256"], digest);
}

/// A record file on a full disk (a symlink to /dev/full) is exit 74 naming
/// the file, as every output file (issue 25 item 5), and the search's own
/// output is not written: an unrecorded set never looks recorded.
#[test]
fn a_record_file_on_a_full_disk_is_exit_74_naming_it() {
    if !std::path::Path::new("/dev/full").exists() {
        return; // no /dev/full on this system
    }
    let s = server(vec![1_000_001, 1_000_002]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("searches.jsonl");
    std::os::unix::fs::symlink("/dev/full", &file).unwrap();
    let f = file.to_str().unwrap();
    let run = pubmed(&["search", "asthma", "-f", "ids", "--record", f])
        .server(&s)
        .run();
    assert_eq!(run.code, 74, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "pubmed: error: cannot write {f}: No space left on device (os error 28)\n"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "", "no unrecorded output");
}
