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
        for _ in 0..8 {
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
    assert_eq!(recs.len(), 8);
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

/// A fake NCBI whose `asthma` corpus can grow and whose translations can
/// change while it runs.
fn growing(pmids: Vec<u64>) -> (Arc<FakeNcbi>, TestServer) {
    let mut corpus = Corpus::default();
    corpus.queries.insert("asthma".into(), Arc::new(pmids));
    let fake = FakeNcbi::new(corpus);
    let f = fake.clone();
    (fake, TestServer::start(move |r| f.reply(r)))
}

fn strs(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p["pmid"].as_str().unwrap().to_string())
        .collect()
}

/// Issue 30 "done when": a recorded search re-run after PubMed indexed two
/// more articles reports exactly those two, the count then and now, and
/// exit 1; run again before that it is identical, exit 0.
#[test]
fn a_rerun_after_the_corpus_grows_reports_exactly_the_added_pmids() {
    let (fake, s) = growing(vec![1_000_001, 1_000_002, 31_000_000]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("review.jsonl");
    let f = file.to_str().unwrap();
    let run = pubmed(&["search", "asthma", "--record", f, "-f", "ids"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);

    let same = pubmed(&["rerun", f, "-f", "json"]).server(&s).run();
    assert_eq!(same.code, 0, "{}", same.stderr);
    let j = same.json();
    assert_eq!(j["identical"], true);
    assert_eq!(j["searches"][0]["countNow"], 3);
    assert_eq!(j["searches"][0]["added"], serde_json::json!([]));
    assert!(
        same.stderr
            .contains("pubmed: 1 search run again: 0 changed, 1 identical")
    );

    fake.grown
        .lock()
        .unwrap()
        .insert("asthma".into(), vec![35_000_123, 1_000_003]);
    let run = pubmed(&["rerun", f, "--id", "1", "-f", "json"])
        .server(&s)
        .run();
    assert_eq!(run.code, 1, "{}", run.stderr);
    let j = run.json();
    assert_eq!(j["identical"], false);
    let r = &j["searches"][0];
    assert_eq!(r["id"], 1);
    assert_eq!(r["query"], "asthma");
    assert_eq!(r["countThen"], 3);
    assert_eq!(r["countNow"], 5);
    assert_eq!(strs(&r["added"]), ["1000003", "35000123"]);
    assert_eq!(strs(&r["removed"]), Vec::<String>::new());
    assert_eq!(r["translationChanged"], false);
    assert_eq!(r["translationThen"], "asthma[All Fields]");
    // JSON asks for no titles: one ESearch per rerun and no ESummary.
    assert_eq!(fake.esummary_calls.lock().unwrap().len(), 0);

    // The table (a pipe here, as on a terminal) names the added articles,
    // their titles fetched in one ESummary batch.
    let table = pubmed(&["rerun", f, "-f", "table"]).server(&s).run();
    assert_eq!(table.code, 1, "{}", table.stderr);
    let out = &table.stdout;
    assert!(
        out.starts_with("Search on line 1 (changed): asthma\n  recorded "),
        "{out}"
    );
    assert!(
        out.contains(
            "; count then 3, now 5; 2 added, 0 removed\n  PubMed's translation is unchanged\n"
        ),
        "{out}"
    );
    for p in ["1000003", "35000123"] {
        let row = out
            .lines()
            .find(|l| l.contains(p))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            row.contains('+') && row.contains(&format!("Synthetic article {p}")),
            "{row}"
        );
    }
    let calls = fake.esummary_calls.lock().unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].ids, 2);
}

/// A removed PMID (PubMed dropped it): the difference both ways. The
/// record holds the whole set (3 of 3), so the whole set is compared.
#[test]
fn a_rerun_reports_removed_pmids_of_a_page() {
    let (_fake, s) = growing(vec![1_000_001, 1_000_002, 31_000_000]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("review.jsonl");
    let f = file.to_str().unwrap();
    let run = pubmed(&["search", "asthma", "--record", f, "-f", "ids"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (_fake2, s2) = growing(vec![1_000_002, 31_000_000, 32_000_000]);
    let run = pubmed(&["rerun", f, "-f", "json"]).server(&s2).run();
    assert_eq!(run.code, 1, "{}", run.stderr);
    let r = &run.json()["searches"][0];
    assert_eq!(r["scope"], "all");
    assert_eq!(strs(&r["added"]), ["32000000"]);
    assert_eq!(strs(&r["removed"]), ["1000001"]);
    assert_eq!(
        (r["countThen"].as_u64(), r["countNow"].as_u64()),
        (Some(3), Some(3))
    );
}

/// Issue 30 "done when": a changed translation is reported, then and now;
/// the set being the same, the exit status is 0.
#[test]
fn a_changed_translation_is_reported() {
    let (fake, s) = growing(vec![1_000_001, 1_000_002]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("review.jsonl");
    let f = file.to_str().unwrap();
    let run = pubmed(&["search", "asthma", "--record", f, "-f", "ids"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let now = "\"asthma\"[MeSH Terms] OR \"asthma\"[All Fields]";
    fake.translations
        .lock()
        .unwrap()
        .insert("asthma".into(), now.into());
    let run = pubmed(&["rerun", f, "-f", "json"]).server(&s).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json()["searches"][0];
    assert_eq!(r["translationChanged"], true);
    assert_eq!(r["translationThen"], "asthma[All Fields]");
    assert_eq!(r["translationNow"], now);
    let table = pubmed(&["rerun", f]).server(&s).run();
    assert!(
        table.stdout.contains(&format!(
            "  PubMed's translation changed (the usual reason a count moves):\n    then: asthma[All Fields]\n    now:  {now}\n"
        )),
        "{}",
        table.stdout
    );
}

/// Every record by default, in file order; a corrupt line is skipped with
/// a note naming it; `--id` of a line that holds no record is exit 2
/// saying which lines do.
#[test]
fn rerun_takes_every_record_skips_a_corrupt_line_and_checks_id() {
    let (_fake, s) = growing(vec![1_000_001]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("review.jsonl");
    let f = file.to_str().unwrap();
    for _ in 0..2 {
        let run = pubmed(&["search", "asthma", "--record", f, "-f", "ids"])
            .server(&s)
            .run();
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.insert_str(text.find('\n').unwrap() + 1, "{\"cut\": \n");
    std::fs::write(&file, text).unwrap();
    let run = pubmed(&["rerun", f, "-f", "json"]).server(&s).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j = run.json();
    let ids: Vec<u64> = j["searches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [1, 3]);
    assert!(
        run.stderr
            .contains(&format!("pubmed: note: {f}: skipped line 2: ")),
        "{}",
        run.stderr
    );
    let run = pubmed(&["rerun", f, "--id", "7"]).server(&s).run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "--id 7 is out of range: {f} has no search record on line 7"
        )) && run.stderr.contains(&format!("{f} holds records 1, 3")),
        "{}",
        run.stderr
    );
    let run = pubmed(&["rerun", f, "--report", "-f", "json"])
        .server(&s)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// `s` with every `YYYY-MM-DD, HH:MM:SS UTC` (the report's times) as
/// `<TIME>`.
fn mask_times(s: &str) -> String {
    let b = s.as_bytes();
    let shape = b"dddd-dd-dd, dd:dd:dd UTC";
    let fits = |at: usize| {
        at + shape.len() <= b.len()
            && shape.iter().zip(&b[at..]).all(|(w, c)| {
                if *w == b'd' {
                    c.is_ascii_digit()
                } else {
                    w == c
                }
            })
    };
    let (mut out, mut i) = (String::new(), 0);
    while i < b.len() {
        if fits(i) {
            out.push_str("<TIME>");
            i += shape.len();
        } else {
            let c = s[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Issue 30: `rerun --report` writes the PRISMA-S summary, one section per
/// search, compared whole with tests/golden/rerun_report.md (the run's
/// times, version and test server's URL masked). The second search's
/// translation changed and its set grew by one PMID.
#[test]
fn the_report_is_a_prisma_s_summary() {
    let filtered = "(asthma) AND \"Review\"[Publication Type] AND english[Language]";
    let mut corpus = Corpus::default();
    corpus
        .queries
        .insert("asthma".into(), Arc::new(vec![1_000_001, 1_000_002]));
    corpus.queries.insert(
        filtered.into(),
        Arc::new(vec![20_000_001, 20_000_002, 20_000_003]),
    );
    let fake = FakeNcbi::new(corpus);
    let f2 = fake.clone();
    let s = TestServer::start(move |r| f2.reply(r));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("review.jsonl");
    let f = file.to_str().unwrap();
    let searches: [&[&str]; 2] = [
        &[
            "search",
            "asthma",
            "--pubtype",
            "Review",
            "--language",
            "english",
            "--mindate",
            "2020",
            "--maxdate",
            "2024/06",
            "--retmax",
            "100",
        ],
        &["search", "asthma", "--all"],
    ];
    for args in searches {
        let mut args = args.to_vec();
        args.extend(["--record", f, "-f", "ids"]);
        let run = pubmed(&args).server(&s).run();
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    assert_eq!(lines(&file)[0]["effectiveQuery"], filtered);
    fake.translations.lock().unwrap().insert(
        "asthma".into(),
        "\"asthma\"[MeSH Terms] OR \"asthma\"[All Fields]".into(),
    );
    fake.grown
        .lock()
        .unwrap()
        .insert("asthma".into(), vec![1_000_003]);
    let run = pubmed(&["rerun", f, "--report"]).server(&s).run();
    assert_eq!(run.code, 1, "{}", run.stderr);
    let got = mask_times(&run.stdout)
        .replace(env!("CARGO_PKG_VERSION"), "<VERSION>")
        .replace(&s.eutils_url(), "<EUTILS>");
    let golden = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/rerun_report.md");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(golden, &got).unwrap();
    }
    assert_eq!(got, std::fs::read_to_string(golden).unwrap());
    // The digests in it are those of the sets, computed here.
    for set in ["20000001\n20000002\n20000003\n", "1000001\n1000002\n"] {
        let digest: String = sha2::Sha256::digest(set.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert!(got.contains(&format!("SHA-256 `{digest}`")), "{got}");
    }
}

/// Issue 30: MCP `pubmed_search_articles` with `record` appends the page's
/// record to a file of the server's records directory
/// (`PUBMED_MCP_RECORD_DIR`) and says so; a path, or a
/// server without a records directory, is refused before any search.
#[tokio::test]
async fn the_mcp_search_records_only_in_its_records_directory() {
    use serde_json::json;
    use support::mcp::{INIT, INITED, by_id, raw, tool_call};
    let fake = support::mcp::fake();
    let s = support::mcp::start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    std::fs::create_dir(&records).unwrap();
    let d = records.to_str().unwrap();
    let args = |record: &str| json!({"query": "hits300", "maxResults": 300, "detail": "ids", "record": record});
    let good = tool_call(1, "pubmed_search_articles", args("review.jsonl"));
    let up = tool_call(2, "pubmed_search_articles", args("../escape.jsonl"));
    let abs = tool_call(3, "pubmed_search_articles", args("/tmp/abs.jsonl"));
    let (v, ok) = raw(
        &s,
        &[INIT, INITED, &good, &up, &abs],
        &[("PUBMED_MCP_RECORD_DIR", d)],
    )
    .await;
    assert!(ok);
    let sc = &by_id(&v, 1)["result"]["structuredContent"];
    assert_eq!(
        sc["recorded"],
        json!({"file": "review.jsonl", "pmids": 300})
    );
    let recs = lines(&records.join("review.jsonl"));
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["query"], "hits300");
    assert_eq!(recs[0]["count"], 300);
    assert_eq!(recs[0]["complete"], true);
    assert_eq!(recs[0]["pmids"], sc["pmids"]);
    assert_eq!(recs[0]["baseUrl"], s.eutils_url());
    for id in [2, 3] {
        let r = &by_id(&v, id)["result"];
        assert_eq!(r["isError"], true, "{r}");
        assert_eq!(
            r["structuredContent"]["error"]["data"]["reason"], "invalid_argument",
            "{r}"
        );
    }
    assert!(!dir.path().join("escape.jsonl").exists());
    assert_eq!(
        fake.counters
            .esearch
            .load(std::sync::atomic::Ordering::SeqCst),
        1
    );
    // The record file reruns as any other.
    let f = records.join("review.jsonl");
    let run = pubmed(&["rerun", f.to_str().unwrap(), "-f", "json"])
        .server(&s)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);

    let (v, _) = raw(&s, &[INIT, INITED, &good], &[]).await;
    let r = &by_id(&v, 1)["result"];
    assert_eq!(r["isError"], true, "{r}");
    assert!(r.to_string().contains("unknown argument `record`"), "{r}");
}
