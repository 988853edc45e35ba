//! The local cache (docs/cache.md) end to end: the binary against the fake
//! NCBI, requests counted by the fake server. Two runs share a cache by
//! `PUBMED_CACHE_DIR`.

use crate::support;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi, UNKNOWN_FROM};
use support::server::TestServer;

fn fake_server(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

fn fetch(server: &TestServer, cache: &Path, args: &[String]) -> Run {
    let mut all = vec!["fetch".to_string()];
    all.extend_from_slice(args);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    pubmed(&all)
        .server(server)
        .env("PUBMED_DEADLINE_S", "30")
        .env("PUBMED_CACHE_DIR", cache.to_str().unwrap())
        .run()
}

fn args(ids: &[u64], extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = ids.iter().map(u64::to_string).collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn batches(fake: &FakeNcbi) -> Vec<Vec<String>> {
    std::mem::take(&mut *fake.efetch_batches.lock().unwrap())
}

#[test]
fn the_same_fetch_twice_sends_no_request_the_second_time() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let ids: Vec<u64> = (0..1000u64).map(|i| 3_000_000 + i * 7).collect();
    let a = args(&ids, &["-f", "ndjson"]);
    let first = fetch(&server, cache.path(), &a);
    assert_eq!(first.code, 0, "{}", first.stderr);
    // 1,000 PMIDs: one EFetch request (EFetch's limit is 1,000 per request).
    assert_eq!(server.count(), 1);
    let second = fetch(&server, cache.path(), &a);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert_eq!(server.count(), 1, "the second run sent a request");
    assert_eq!(second.stdout, first.stdout);
    assert_eq!(second.stdout.lines().count(), 1000);
    assert_eq!(
        second.stderr,
        "pubmed: 1000 PMIDs: 1000 found, 0 failed; 0 requests\n"
    );
}

#[test]
fn a_half_cached_fetch_sends_exactly_the_missing_pmids() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let ids: Vec<u64> = (0..2500u64).map(|i| 5_000_000 + i).collect();
    let even: Vec<u64> = ids.iter().copied().filter(|p| p % 2 == 0).collect();
    let run = fetch(&server, cache.path(), &args(&even, &["-f", "ndjson"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // 1,250 PMIDs: 1,000 + 250.
    assert_eq!(server.count(), 2);
    batches(&fake);
    let all = fetch(&server, cache.path(), &args(&ids, &["-f", "ndjson"]));
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(server.count(), 4, "1,250 missing PMIDs: two more requests");
    let sent = batches(&fake);
    assert_eq!(sent.len(), 2);
    let sent: BTreeSet<u64> = sent.iter().flatten().map(|p| p.parse().unwrap()).collect();
    let odd: BTreeSet<u64> = ids.iter().copied().filter(|p| p % 2 == 1).collect();
    assert_eq!(sent, odd);
    // Every input in order, cached or not.
    let pmids: Vec<String> = all
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["pmid"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(pmids, ids.iter().map(u64::to_string).collect::<Vec<_>>());
}

#[test]
fn xml_and_medline_from_the_cache_are_ncbis_bytes() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    for format in ["xml", "medline", "json"] {
        let a = args(&[3_000_013, 3_000_026], &["-f", format]);
        let before = server.count();
        let first = fetch(&server, cache.path(), &a);
        assert_eq!(first.code, 0, "{format}: {}", first.stderr);
        let second = fetch(&server, cache.path(), &a);
        assert_eq!(second.code, 0, "{format}: {}", second.stderr);
        assert_eq!(second.stdout, first.stdout, "{format}");
        // XML and JSON share the XML entries; MEDLINE has its own.
        let want = if format == "json" { 0 } else { 1 };
        assert_eq!(server.count() - before, want, "{format}");
    }
}

#[test]
fn pmids_without_a_record_are_never_stored() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let a = args(&[UNKNOWN_FROM + 1], &["-f", "json"]);
    for n in 1..=2 {
        let run = fetch(&server, cache.path(), &a);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert_eq!(server.count(), n);
    }
}

#[test]
fn modes_off_read_and_refresh() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let a = |mode: &str| args(&[3_000_039], &["-f", "json", "--cache", mode]);
    // off: neither read nor stored.
    assert_eq!(fetch(&server, cache.path(), &a("off")).code, 0);
    assert_eq!(fetch(&server, cache.path(), &a("read")).code, 0);
    assert_eq!(server.count(), 2);
    // refresh: asks NCBI and stores; read then answers.
    assert_eq!(fetch(&server, cache.path(), &a("refresh")).code, 0);
    assert_eq!(fetch(&server, cache.path(), &a("refresh")).code, 0);
    assert_eq!(server.count(), 4);
    assert_eq!(fetch(&server, cache.path(), &a("read")).code, 0);
    assert_eq!(server.count(), 4);
    // PUBMED_CACHE=off.
    let run = pubmed(&["fetch", "3000039", "-f", "json"])
        .server(&server)
        .env("PUBMED_CACHE_DIR", cache.path().to_str().unwrap())
        .env("PUBMED_CACHE", "off")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(server.count(), 5);
    let bad = pubmed(&["fetch", "3000039", "-f", "json"])
        .server(&server)
        .env("PUBMED_CACHE", "sometimes")
        .run();
    bad.failed_with(
        2,
        "invalid_argument",
        "PUBMED_CACHE takes a cache mode (on, searches, read, refresh, off), not \"sometimes\" (cache_mode)",
    );
}

#[test]
fn a_corrupt_cache_file_is_rebuilt_and_the_command_succeeds() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(cache.path().join("cache.sqlite3"), vec![0x5a; 10_000]).unwrap();
    let a = args(&[3_000_052], &["-f", "json"]);
    let run = fetch(&server, cache.path(), &a);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("was not a readable database")
            && run.stderr.contains("starting an empty one"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["records"][0]["pmid"], "3000052");
    let again = fetch(&server, cache.path(), &a);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(
        again.stderr,
        "pubmed: 1 PMID: 1 found, 0 failed; 0 requests\n"
    );
    assert_eq!(server.count(), 1);
}

#[test]
fn concurrent_fetches_share_one_cache() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let sets: Vec<Vec<u64>> = (0..4u64)
        .map(|k| (0..300u64).map(|i| 6_000_000 + k * 1000 + i).collect())
        .collect();
    std::thread::scope(|s| {
        for set in &sets {
            let (server, cache) = (&server, cache.path());
            s.spawn(move || {
                let run = fetch(server, cache, &args(set, &["-f", "ndjson"]));
                assert_eq!(run.code, 0, "{}", run.stderr);
                assert_eq!(
                    run.stderr,
                    "pubmed: 300 PMIDs: 300 found, 0 failed; 1 request\n"
                );
            });
        }
    });
    let before = server.count();
    let all: Vec<u64> = sets.concat();
    let run = fetch(&server, cache.path(), &args(&all, &["-f", "ndjson"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        server.count(),
        before,
        "every record of the four runs was stored"
    );
    assert_eq!(run.stdout.lines().count(), 1200);
}

#[test]
fn cache_path_stats_and_clear() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_str().unwrap();
    let cmd = |a: &[&str]| pubmed(a).env("PUBMED_CACHE_DIR", dir).run();
    let path = cmd(&["cache", "path"]);
    assert_eq!(path.stdout, format!("{dir}/cache.sqlite3\n"));
    assert_eq!(
        fetch(
            &server,
            cache.path(),
            &args(&[3_000_065, 3_000_078], &["-f", "json"])
        )
        .code,
        0
    );
    let stats = cmd(&["cache", "stats", "-f", "json"]);
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    let v = stats.json();
    assert_eq!(v["kinds"][0]["kind"], "efetch_xml");
    assert_eq!(v["kinds"][0]["entries"], 2);
    assert_eq!(v["kinds"][0]["stale"], 0);
    assert_eq!(v["kinds"][0]["ttl_s"], 604_800);
    assert_eq!(v["kinds"][1]["entries"], 0);
    assert_eq!(v["max_bytes"], 1u64 << 30);
    let clear = cmd(&["cache", "clear"]);
    assert_eq!(clear.code, 0, "{}", clear.stderr);
    assert_eq!(
        clear.stderr,
        format!("pubmed: deleted 2 entries from {dir}/cache.sqlite3\n")
    );
    assert_eq!(
        cmd(&["cache", "stats", "-f", "json"]).json()["kinds"][0]["entries"],
        0
    );
}

#[test]
fn verbose_says_what_came_from_the_cache() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let a = args(&[3_000_091, 3_000_104], &["-f", "json", "-v"]);
    assert_eq!(fetch(&server, cache.path(), &a).code, 0);
    let run = fetch(&server, cache.path(), &a);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(": 2 from cache, the oldest fetched 20"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("; 0 stored"), "{}", run.stderr);
}

fn run_in(server: &TestServer, cache: &Path, args: &[&str], stdin: Option<String>) -> Run {
    let mut p = pubmed(args)
        .server(server)
        .env("PUBMED_DEADLINE_S", "30")
        .env("PUBMED_CACHE_DIR", cache.to_str().unwrap());
    if let Some(s) = stdin {
        p = p.stdin(s);
    }
    p.run()
}

fn lines_of(ids: &[u64]) -> String {
    ids.iter().map(|p| format!("{p}\n")).collect()
}

#[test]
fn a_convert_of_1000_ids_with_900_cached_sends_one_request_for_the_100_others() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    // PMIDs the fake has in PMC (not divisible by 7): every one is stored.
    let ids: Vec<u64> = (0..1200u64)
        .map(|i| 30_000_000 + i)
        .filter(|p| p % 7 != 0)
        .take(1000)
        .collect();
    let cmd = ["convert", "--input", "-", "-f", "ndjson"];
    let first = run_in(&server, cache.path(), &cmd, Some(lines_of(&ids[..900])));
    assert_eq!(first.code, 0, "{}", first.stderr);
    // 900 IDs: the Converter takes 200 per request.
    assert_eq!(server.count(), 5);
    fake.idconv_batches.lock().unwrap().clear();
    let all = run_in(&server, cache.path(), &cmd, Some(lines_of(&ids)));
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(server.count(), 6, "one request for the 100 others");
    let sent = std::mem::take(&mut *fake.idconv_batches.lock().unwrap());
    let want: Vec<String> = ids[900..].iter().map(u64::to_string).collect();
    assert_eq!(sent, vec![("pmid".to_string(), want)]);
    // The same records as a run without the cache.
    let off = [&cmd[..], &["--cache", "off"]].concat();
    let fresh = run_in(&server, cache.path(), &off, Some(lines_of(&ids)));
    assert_eq!(all.stdout, fresh.stdout);
    // Records the fake derives: PMCID = PMID + 5,000,000.
    let v: serde_json::Value = serde_json::from_str(all.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(v["pmcid"], format!("PMC{}", ids[0] + 5_000_000));
}

#[test]
fn not_in_pmc_answers_are_never_stored() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    // 30,000,005 = 7 × 4,285,715: not in PMC in the fake.
    let cmd = ["convert", "30000005", "30000003", "-f", "json"];
    for n in 1..=2 {
        let run = run_in(&server, cache.path(), &cmd, None);
        assert_eq!(server.count(), n, "{}", run.stderr);
    }
    let sent = fake.idconv_batches.lock().unwrap().clone();
    assert_eq!(sent[1], ("pmid".to_string(), vec!["30000005".to_string()]));
}

#[test]
fn related_sends_elink_only_for_the_pmids_not_cached() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    // Not divisible by 11: every PMID has similar articles in the fake.
    let ids: Vec<u64> = (0..300u64)
        .map(|i| 20_000_001 + 2 * i)
        .filter(|p| p % 11 != 0)
        .take(250)
        .collect();
    let cmd = ["related", "--input", "-", "-f", "ndjson"];
    let first = run_in(&server, cache.path(), &cmd, Some(lines_of(&ids[..150])));
    assert_eq!(first.code, 0, "{}", first.stderr);
    fake.elink_calls.lock().unwrap().clear();
    let before = server.count();
    let all = run_in(&server, cache.path(), &cmd, Some(lines_of(&ids)));
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(server.count() - before, 1, "{}", all.stderr);
    let calls = fake.elink_calls.lock().unwrap().clone();
    let want: Vec<String> = ids[150..].iter().map(u64::to_string).collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].ids, want);
    let off = [&cmd[..], &["--cache", "off"]].concat();
    let fresh = run_in(&server, cache.path(), &off, Some(lines_of(&ids)));
    assert_eq!(all.stdout, fresh.stdout);
}

#[test]
fn json_totals_say_how_many_records_came_from_the_cache() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let cmd = ["fetch", "3000117", "3000130", "-f", "json"];
    let first = run_in(&server, cache.path(), &cmd, None);
    assert_eq!(first.json().get("cache"), None);
    let second = run_in(&server, cache.path(), &cmd, None).json();
    assert_eq!(second["cache"]["records"], 2);
    let when = second["cache"]["oldest_fetched"].as_str().unwrap();
    let t: jiff::Timestamp = when.parse().unwrap();
    let age = jiff::Timestamp::now().as_second() - t.as_second();
    assert!((0..600).contains(&age), "{when}");
    assert_eq!(second["found"], 2);
}

/// The ID lists of the requests to `endpoint` (e.g. `esummary.fcgi`) from
/// request number `from` on, in arrival order.
fn ids_sent(server: &TestServer, endpoint: &str, from: usize) -> Vec<Vec<String>> {
    server.requests()[from..]
        .iter()
        .filter(|r| r.is(endpoint))
        .map(|r| {
            let ids = r.param("id").unwrap_or_default();
            ids.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

fn corpus_of(name: &str, n: usize) -> (Corpus, Vec<String>) {
    let mut c = Corpus::default();
    c.add_uniform(name, n, 30_000_000, 31_000_000, 7);
    let mut ids: Vec<String> = c.queries[name].iter().map(u64::to_string).collect();
    ids.reverse(); // most recent first, as the fake's ESearch answers
    (c, ids)
}

#[test]
fn search_summaries_are_cached_per_pmid_and_the_search_is_not() {
    let (corpus, ids) = corpus_of("asthma", 40);
    let fake = FakeNcbi::new(corpus);
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let first = run_in(
        &server,
        cache.path(),
        &["search", "asthma", "--retmax", "20", "-f", "json"],
        None,
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.json().get("cache"), None);
    assert_eq!(
        ids_sent(&server, "esummary.fcgi", 0),
        vec![ids[..20].to_vec()]
    );
    let n = server.count();
    let cmd = ["search", "asthma", "--retmax", "40", "-f", "json"];
    let second = run_in(&server, cache.path(), &cmd, None);
    assert_eq!(second.code, 0, "{}", second.stderr);
    // The search is asked again (a question about now); only the 20
    // summaries not cached are.
    assert_eq!(ids_sent(&server, "esearch.fcgi", n).len(), 1);
    assert_eq!(
        ids_sent(&server, "esummary.fcgi", n),
        vec![ids[20..].to_vec()]
    );
    let json = second.json();
    assert_eq!(json["cache"]["records"], 20);
    let got: Vec<&str> = json["summaries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["pmid"].as_str().unwrap())
        .collect();
    assert_eq!(got, ids.iter().map(String::as_str).collect::<Vec<_>>());
    let n = server.count();
    let third = run_in(&server, cache.path(), &cmd, None);
    assert_eq!(ids_sent(&server, "esummary.fcgi", n).len(), 0);
    assert_eq!(third.json()["cache"]["records"], 40);
    let off = run_in(
        &server,
        cache.path(),
        &[&cmd[..], &["--cache", "off"]].concat(),
        None,
    );
    let strip = |mut j: serde_json::Value| {
        j.as_object_mut().unwrap().remove("cache");
        j
    };
    assert_eq!(strip(third.json()), strip(off.json()));
}

#[test]
fn espell_answers_are_cached_and_errors_never_are() {
    use std::sync::atomic::Ordering;
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let error = support::ncbi::espell_with_error(
        "cancr",
        &[],
        "Backend failure: cannot connect to speller",
    );
    fake.espell
        .lock()
        .unwrap()
        .insert("cancr".into(), error.into());
    let failed = run_in(&server, cache.path(), &["spell", "cancr"], None);
    assert_eq!(failed.code, 69, "{}", failed.stderr);
    let asked = fake.counters.espell.load(Ordering::SeqCst);
    assert_eq!(asked, 3, "the client retries an ESpell ERROR");
    let good = support::ncbi::espell("cancr", &[("R", "cancer")]);
    fake.espell
        .lock()
        .unwrap()
        .insert("cancr".into(), good.into());
    // The error was not stored: NCBI is asked again.
    let first = run_in(
        &server,
        cache.path(),
        &["spell", "cancr", "-f", "json"],
        None,
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(fake.counters.espell.load(Ordering::SeqCst), asked + 1);
    let second = run_in(
        &server,
        cache.path(),
        &["spell", "cancr", "-f", "json"],
        None,
    );
    assert_eq!(fake.counters.espell.load(Ordering::SeqCst), asked + 1);
    assert_eq!(second.stdout, first.stdout);
    assert!(first.stdout.contains("cancer"), "{}", first.stdout);
}

/// The MCP server opens the same cache as the CLI (`XDG_CACHE_HOME` of
/// its home): a second fetch of the same PMIDs, in the same server and in
/// a new one, sends no request.
#[tokio::test]
async fn a_second_mcp_fetch_of_the_same_pmids_sends_no_request() {
    use serde_json::json;
    use support::mcp::{call, client, fake, start};
    let fake = fake();
    let server = start(&fake);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    let pmids: Vec<String> = (0..20).map(|n| (9_700_000 + 97 * n).to_string()).collect();
    let first = call(&c, "pubmed_fetch_articles", json!({"pmids": pmids})).await;
    assert_eq!(first.is_error, Some(false));
    assert_eq!(ids_sent(&server, "efetch.fcgi", 0), vec![pmids.clone()]);
    let n = server.count();
    let second = call(&c, "pubmed_fetch_articles", json!({"pmids": pmids})).await;
    assert_eq!(server.count(), n, "the second MCP fetch sent a request");
    let articles =
        |r: &rmcp::model::CallToolResult| r.structured_content.clone().unwrap()["articles"].clone();
    assert_eq!(articles(&second), articles(&first));
    assert_eq!(articles(&second).as_array().unwrap().len(), 20);
    c.cancel().await.unwrap();
    let again = client(&server, home.path()).await;
    let third = call(&again, "pubmed_fetch_articles", json!({"pmids": pmids})).await;
    assert_eq!(
        server.count(),
        n,
        "a new MCP server did not reuse the cache"
    );
    assert_eq!(articles(&third), articles(&first));
}

/// Another process holds the database with an exclusive lock past the
/// busy timeout: one note, the command succeeds without the cache.
#[test]
fn a_locked_cache_database_is_skipped_with_one_note() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let first = fetch(&server, cache.path(), &args(&[3_000_052], &["-f", "json"]));
    assert_eq!(first.code, 0, "{}", first.stderr);
    let lock = rusqlite::Connection::open(cache.path().join("cache.sqlite3")).unwrap();
    lock.pragma_update(None, "locking_mode", "EXCLUSIVE")
        .unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE; UPDATE uses SET used_at = used_at;")
        .unwrap();
    let run = fetch(
        &server,
        cache.path(),
        &args(&[3_000_052, 3_000_053], &["-f", "json"]),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("going on without it").count(),
        1,
        "{}",
        run.stderr
    );
    let json = run.json();
    let pmids: Vec<&str> = json["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["pmid"].as_str().unwrap())
        .collect();
    assert_eq!(pmids, ["3000052", "3000053"]);
    // Without the cache both PMIDs were asked for.
    assert_eq!(batches(&fake).last().unwrap(), &["3000052", "3000053"]);
    drop(lock);
}

/// `PUBMED_CACHE_MAX_BYTES`: the stored bodies stay under a tiny bound.
#[test]
fn a_tiny_size_bound_keeps_the_cache_under_it() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let ids: Vec<u64> = (0..300u64).map(|i| 4_000_000 + i).collect();
    let dir = cache.path().to_str().unwrap();
    let run = pubmed(&["fetch", "-f", "ndjson", "--input", "-"])
        .server(&server)
        .env("PUBMED_CACHE_DIR", dir)
        .env("PUBMED_CACHE_MAX_BYTES", "100000")
        .stdin(lines_of(&ids))
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 300);
    let stats = pubmed(&["cache", "stats", "-f", "json"])
        .env("PUBMED_CACHE_DIR", dir)
        .env("PUBMED_CACHE_MAX_BYTES", "100000")
        .run()
        .json();
    let xml = stats["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "efetch_xml")
        .unwrap()
        .clone();
    let (entries, bytes) = (
        xml["entries"].as_u64().unwrap(),
        xml["bytes"].as_u64().unwrap(),
    );
    assert!(bytes <= 100_000, "{bytes} bytes stored");
    assert!(entries > 0 && entries < 300, "{entries} entries");
    assert_eq!(stats["max_bytes"], 100_000);
    let bad = pubmed(&["fetch", "3000052"])
        .server(&server)
        .env("PUBMED_CACHE_DIR", dir)
        .env("PUBMED_CACHE_MAX_BYTES", "lots")
        .run();
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("PUBMED_CACHE_MAX_BYTES"),
        "{}",
        bad.stderr
    );
}

#[test]
fn esearch_answers_are_reused_only_with_cache_searches() {
    let (corpus, ids) = corpus_of("asthma", 30);
    let fake = FakeNcbi::new(corpus);
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let cmd = ["search", "asthma", "--retmax", "10", "-f", "json"];
    let first = run_in(&server, cache.path(), &cmd, None);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let n = server.count();
    // Default: the search is asked again (its summaries are not).
    let again = run_in(&server, cache.path(), &cmd, None);
    assert_eq!(ids_sent(&server, "esearch.fcgi", n).len(), 1);
    assert_eq!(ids_sent(&server, "esummary.fcgi", n).len(), 0);
    let n = server.count();
    let reuse = run_in(
        &server,
        cache.path(),
        &[&cmd[..], &["--cache", "searches"]].concat(),
        None,
    );
    assert_eq!(reuse.code, 0, "{}", reuse.stderr);
    assert_eq!(server.count(), n, "--cache searches sent a request");
    let json = reuse.json();
    assert_eq!(json["count"], 30);
    let got: Vec<&str> = json["pmids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(
        got,
        ids[..10].iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert_eq!(json["pmids"], again.json()["pmids"]);
}

fn mesh_in(server: &TestServer, cache: &Path, args: &[&str]) -> Run {
    let mut all = vec!["mesh", "-f", "json"];
    all.extend_from_slice(args);
    run_in(server, cache, &all, None)
}

/// The ESummary `id`s sent to db=mesh since request `from`.
fn mesh_summaries_sent(server: &TestServer, from: usize) -> Vec<String> {
    server.requests()[from..]
        .iter()
        .filter(|r| r.is("esummary.fcgi"))
        .map(|r| r.param("id").unwrap_or_default().to_string())
        .collect()
}

/// The real SCR capture (C414177) and a built descriptor with its tree:
/// the second run sends no request and writes the same bytes.
#[test]
fn mesh_records_come_from_the_cache_the_second_time() {
    let server = support::fake_ncbi::mesh::mesh_server();
    let cache = tempfile::tempdir().unwrap();
    for (args, sent) in [
        (&["C414177"][..], &["67414177", "68026923"][..]),
        (
            &["D009203", "--tree"][..],
            &["68009203", "68017202,68007238,68056988,68056989"][..],
        ),
    ] {
        let n = server.count();
        let first = mesh_in(&server, cache.path(), args);
        assert_eq!(first.code, 0, "{args:?}: {}", first.stderr);
        assert_eq!(mesh_summaries_sent(&server, n), sent, "{args:?}");
        let n = server.count();
        let second = mesh_in(&server, cache.path(), args);
        assert_eq!(second.code, 0, "{args:?}: {}", second.stderr);
        assert_eq!(server.count(), n, "{args:?}: the second run sent a request");
        assert_eq!(second.stdout, first.stdout, "{args:?}");
    }
    let v = mesh_in(&server, cache.path(), &["C414177"]).json();
    assert_eq!(v["records"][0]["name"], "SLC7A2 protein, human");
    assert_eq!(v["records"][0]["mappedTo"][0]["ui"], "D026923");
}

/// Per item: a term whose first descriptor is cached asks ESummary only
/// for the other; the term's ESearch (a search) is sent every time.
#[test]
fn a_mesh_term_sends_only_the_uncached_records() {
    let server = support::fake_ncbi::mesh::mesh_server();
    let cache = tempfile::tempdir().unwrap();
    let one = mesh_in(&server, cache.path(), &["D056988"]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(mesh_summaries_sent(&server, 0), ["68056988"]);
    let n = server.count();
    let term = mesh_in(&server, cache.path(), &["heart", "attack"]);
    assert_eq!(term.code, 0, "{}", term.stderr);
    let reqs = server.requests();
    assert_eq!(reqs.len() - n, 2, "{:?}", &reqs[n..]);
    assert!(reqs[n].is("esearch.fcgi"));
    assert_eq!(mesh_summaries_sent(&server, n), ["68009203"]);
    // The same answer as a run without the cache, in MeSH's order.
    let off = mesh_in(
        &server,
        cache.path(),
        &["heart", "attack", "--cache", "off"],
    );
    assert_eq!(off.code, 0, "{}", off.stderr);
    assert_eq!(term.stdout, off.stdout);
    let v = term.json();
    assert_eq!(v["records"].as_array().unwrap().len(), 2);
    assert_eq!(v["records"][0]["ui"], "D009203");
    assert_eq!(v["records"][1]["ui"], "D056988");
}

/// A UI MeSH does not know (an empty answer) is asked again every time.
#[test]
fn an_empty_mesh_answer_is_never_stored() {
    let server = support::fake_ncbi::mesh::mesh_server();
    let cache = tempfile::tempdir().unwrap();
    for n in 1..=2 {
        let run = mesh_in(&server, cache.path(), &["D999999"]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert_eq!(server.count(), n);
    }
}

/// The config file's cache keys (docs/config.md, docs/cache.md): used
/// when no flag or variable says otherwise, checked like every key.
#[test]
fn cache_keys_in_the_config_file() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let conf_dir = tempfile::tempdir().unwrap();
    let conf = conf_dir.path().join("config.toml");
    let dir = cache.path().to_str().unwrap();
    let with_conf = |text: &str, args: &[&str]| {
        std::fs::write(&conf, text).unwrap();
        pubmed(args)
            .server(&server)
            .env("PUBMED_CONFIG", conf.to_str().unwrap())
            .run()
    };
    let keys = format!("cache_dir = {dir:?}\n");
    let fetch = ["fetch", "3000065", "-f", "json"];
    for n in [1, 1] {
        let run = with_conf(&keys, &fetch);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(server.count(), n, "cache_dir from the file");
    }
    assert!(cache.path().join("cache.sqlite3").exists());
    // cache_mode = "off" in the file; --cache beats it.
    let off = format!("{keys}cache_mode = \"off\"\n");
    let fetch2 = ["fetch", "3000078", "-f", "json"];
    assert_eq!(with_conf(&off, &fetch2).code, 0);
    assert_eq!(with_conf(&off, &fetch2).code, 0);
    assert_eq!(server.count(), 3, "cache_mode = off stores nothing");
    let on = [&fetch2[..], &["--cache", "on"]].concat();
    assert_eq!(with_conf(&off, &on).code, 0);
    assert_eq!(with_conf(&off, &on).code, 0);
    assert_eq!(server.count(), 4, "--cache on beats the file");
    // config show lists the keys with their source.
    let show = with_conf(&off, &["config", "show", "-f", "json"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    let v = show.json();
    assert_eq!(v["settings"]["cache_dir"]["value"], dir);
    assert_eq!(v["settings"]["cache_dir"]["source"], "config file");
    assert_eq!(v["settings"]["cache_mode"]["value"], "off");
    assert_eq!(v["settings"]["cache_max_bytes"]["value"], "1073741824");
    assert_eq!(v["settings"]["cache_max_bytes"]["source"], "default");
    // cache stats reads the bound from the file too.
    let stats = with_conf(
        &format!("{keys}cache_max_bytes = 5000000\n"),
        &["cache", "stats", "-f", "json"],
    );
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    assert_eq!(stats.json()["max_bytes"], 5_000_000);
    // A refused value names the file, its line and the key.
    let bad = with_conf(&format!("{keys}cache_max_bytes = \"lots\"\n"), &fetch);
    bad.failed_with(
        2,
        "invalid_argument",
        &format!(
            "config file {} line 2: cache_max_bytes takes a whole number of bytes above 0, not \"lots\"",
            conf.display()
        ),
    );
    let bad = with_conf("cache_mode = \"sometimes\"\n", &fetch);
    bad.failed_with(2, "invalid_argument", "cache_mode takes a cache mode");
    assert_eq!(server.count(), 4);
}

/// A run answered wholly from entries used within the hour writes
/// nothing: the database's bytes are unchanged after it (docs/cache.md
/// "Size"); after two hours the same run marks them (the file changes).
#[test]
fn a_cached_rerun_within_the_hour_writes_nothing() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let file = cache.path().join("cache.sqlite3");
    let ids: Vec<u64> = (0..300u64).map(|i| 3_100_000 + i).collect();
    let a = args(&ids, &["-f", "csv"]);
    assert_eq!(fetch(&server, cache.path(), &a).code, 0);
    let before = std::fs::read(&file).unwrap();
    let again = fetch(&server, cache.path(), &a);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(server.count(), 1);
    assert!(
        std::fs::read(&file).unwrap() == before,
        "a read-only run wrote"
    );
    let db = rusqlite::Connection::open(&file).unwrap();
    db.execute("UPDATE uses SET used_at = used_at - 7200000", [])
        .unwrap();
    drop(db);
    let aged = std::fs::read(&file).unwrap();
    assert_eq!(fetch(&server, cache.path(), &a).code, 0);
    assert!(
        std::fs::read(&file).unwrap() != aged,
        "stale marks were not renewed"
    );
    assert_eq!(server.count(), 1);
}

/// Least recently used goes first (docs/cache.md "Size"): under a bound
/// that holds two records of three, the record looked up since the store
/// survives and the one not used since is evicted. A and B are stored
/// together, so only the lookup orders them (a tie would take A, the
/// smaller key, first).
#[test]
fn a_recent_lookup_survives_eviction() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_str().unwrap();
    let (a, b, c) = ("3000117", "3000130", "3000143");
    let run = |pmids: &[&str], max: Option<u64>| {
        let mut args = vec!["fetch", "-f", "json"];
        args.extend_from_slice(pmids);
        let mut p = pubmed(&args).server(&server).env("PUBMED_CACHE_DIR", dir);
        if let Some(m) = max {
            p = p.env("PUBMED_CACHE_MAX_BYTES", &m.to_string());
        }
        let r = p.run();
        assert_eq!(r.code, 0, "{pmids:?}: {}", r.stderr);
        server.count()
    };
    assert_eq!(run(&[a, b], None), 1);
    let stats = pubmed(&["cache", "stats", "-f", "json"])
        .env("PUBMED_CACHE_DIR", dir)
        .run()
        .json();
    let two = stats["kinds"][0]["bytes"].as_u64().unwrap();
    assert_eq!(stats["kinds"][0]["entries"], 2);
    // Two hours pass: a lookup marks an entry not used within the hour.
    let db = rusqlite::Connection::open(cache.path().join("cache.sqlite3")).unwrap();
    db.execute("UPDATE uses SET used_at = used_at - 7200000", [])
        .unwrap();
    drop(db);
    assert_eq!(run(&[a], None), 1, "A from the cache");
    // Two and a half records: A, B and C do not fit, two of them do.
    let max = two * 5 / 4;
    assert_eq!(run(&[c], Some(max)), 2, "C asked and stored");
    assert_eq!(run(&[a], Some(max)), 2, "A, looked up, survived");
    assert_eq!(run(&[b], Some(max)), 3, "B, not used since, was evicted");
}

/// A record answered from its parsed form in the cache prints as the one
/// parsed from NCBI's XML, in every format of `fetch`; and an entry whose
/// parsed form another parser made (another `pubmed` version) is read
/// from its XML instead, still without a request (docs/cache.md "Parsed
/// records"). 60 synthetic PMIDs: seasons, months and days, structured,
/// plain and missing abstracts, a retracted article.
#[test]
fn records_from_the_cache_print_as_fresh_ones_in_every_format() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let ids: Vec<u64> = (0..60u64).map(|i| 3_000_000 + i * 97 + i % 7).collect();
    for format in [
        "abstract", "json", "ndjson", "csv", "tsv", "table", "ris", "bibtex", "csl-json",
    ] {
        let cache = tempfile::tempdir().unwrap();
        let a = args(&ids, &["-f", format]);
        let fresh = fetch(&server, cache.path(), &a);
        assert_eq!(fresh.code, 0, "{format}: {}", fresh.stderr);
        let before = server.count();
        let parsed = fetch(&server, cache.path(), &a);
        assert_eq!(parsed.code, 0, "{format}: {}", parsed.stderr);
        // JSON's totals say what came from the cache; the records match.
        let same = |a: &str, b: &str| match format {
            "json" => {
                let (a, b): (serde_json::Value, serde_json::Value) = (
                    serde_json::from_str(a).unwrap(),
                    serde_json::from_str(b).unwrap(),
                );
                a["records"] == b["records"] && a["records"].as_array().unwrap().len() == 60
            }
            _ => a == b,
        };
        assert!(
            same(&parsed.stdout, &fresh.stdout),
            "{format} from parsed forms"
        );
        let db = rusqlite::Connection::open(cache.path().join("cache.sqlite3")).unwrap();
        let forms = db
            .execute("UPDATE entries SET form = 'pubmed 0.0.0 record 0'", [])
            .unwrap();
        assert_eq!(forms, 60, "{format}: every record stored its parsed form");
        drop(db);
        let reparsed = fetch(&server, cache.path(), &a);
        assert_eq!(reparsed.code, 0, "{format}: {}", reparsed.stderr);
        assert!(
            same(&reparsed.stdout, &fresh.stdout),
            "{format} from the XML"
        );
        assert_eq!(
            server.count(),
            before,
            "{format}: no request from the cache"
        );
    }
}

/// Bytes on disk of the cache file named `suffix` (`""`, `"-wal"`); 0
/// when absent.
fn disk_bytes(cache: &Path, suffix: &str) -> u64 {
    std::fs::metadata(cache.join(format!("cache.sqlite3{suffix}")))
        .map(|m| m.len())
        .unwrap_or(0)
}

/// Runs of new PMIDs one after another (each a new process, as a user's
/// runs are) keep the WAL file under `journal_size_limit` (16 MiB,
/// docs/cache.md "Size"). Without a checkpoint on close, every new
/// process recovered the WAL as not yet copied, appended to it and copied
/// all of it again: 215 MB of WAL after 50 runs of 1,000 PMIDs, growing by
/// each run's 4.3 MB.
#[test]
fn the_wal_stays_bounded_across_many_runs() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    for run in 0..6u64 {
        let ids: Vec<u64> = (0..1000u64).map(|i| 8_000_000 + run * 1000 + i).collect();
        let r = fetch(&server, cache.path(), &args(&ids, &["-f", "ndjson"]));
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let wal = disk_bytes(cache.path(), "-wal");
    assert!(wal <= 16 << 20, "the WAL is {wal} bytes after 6 runs");
}

/// `cache clear` gives the space back to the file system (docs/cache.md
/// "Size"): the file on disk shrinks, not only its page count. With no
/// checkpoint on close, VACUUM's smaller database stayed in the WAL and
/// the file kept its size.
#[test]
fn cache_clear_shrinks_the_file_on_disk() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    for run in 0..3u64 {
        let ids: Vec<u64> = (0..1000u64).map(|i| 8_100_000 + run * 1000 + i).collect();
        let r = fetch(&server, cache.path(), &args(&ids, &["-f", "ndjson"]));
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    // 3,000 records of about 3 kB each, and their parsed forms.
    assert!(disk_bytes(cache.path(), "") > 5_000_000);
    let dir = cache.path().to_str().unwrap();
    let clear = pubmed(&["cache", "clear"])
        .env("PUBMED_CACHE_DIR", dir)
        .run();
    assert_eq!(clear.code, 0, "{}", clear.stderr);
    assert_eq!(
        clear.stderr,
        format!("pubmed: deleted 3000 entries from {dir}/cache.sqlite3\n")
    );
    let (db, wal) = (
        disk_bytes(cache.path(), ""),
        disk_bytes(cache.path(), "-wal"),
    );
    assert!(
        db + wal < 1_000_000,
        "after clear: {db} bytes of database, {wal} of WAL"
    );
}

/// A cached record that no longer parses (its XML damaged, no parsed form)
/// is fetched again, and `-v` says so: 1 from the cache, 1 stored. The hit
/// was counted (and marked used) before the XML was parsed, so the run
/// said "2 from cache; 1 stored" after 1 request.
#[test]
fn a_cached_record_that_does_not_parse_is_not_counted_as_from_the_cache() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let cache = tempfile::tempdir().unwrap();
    let a = args(&[8_200_001, 8_200_002], &["-f", "ndjson", "-v"]);
    let first = fetch(&server, cache.path(), &a);
    assert_eq!(first.code, 0, "{}", first.stderr);
    {
        let db = rusqlite::Connection::open(cache.path().join("cache.sqlite3")).unwrap();
        let n = db
            .execute(
                "UPDATE entries SET body = CAST('<PubmedArticle><bad' AS BLOB), parsed = NULL WHERE key = '8200002'",
                [],
            )
            .unwrap();
        assert_eq!(n, 1);
    }
    let again = fetch(&server, cache.path(), &a);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.stdout, first.stdout);
    assert_eq!(server.count(), 2);
    assert!(
        again.stderr.contains(": 1 from cache, the oldest fetched ")
            && again.stderr.ends_with("; 1 stored\n"),
        "{}",
        again.stderr
    );
}

/// A parsed form whose record part is valid JSON of the asked PMID, but
/// not as `Record`'s compact serializer writes it, is read from the XML
/// with `-f ndjson` and `-f json` (docs/cache.md "Parsed records"): a
/// line break between two fields made the ndjson record two lines (3
/// records printed as 4 lines, neither a JSON value); a `\ud800` escape (a
/// lone surrogate, which the serializer never writes) printed a record
/// that serde_json, Python's `json` in strict mode and others reject.
/// Expected: the bytes of the same fetch with `--cache off`.
#[test]
fn a_tampered_json_form_is_never_printed_as_it_is() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    let p = "3000097";
    let ids = [3_000_000, 3_000_097, 3_000_194];
    for format in ["ndjson", "json"] {
        let cache = tempfile::tempdir().unwrap();
        let off = fetch(
            &server,
            cache.path(),
            &args(&ids, &["-f", format, "--cache", "off"]),
        );
        assert_eq!(off.code, 0, "{}", off.stderr);
        let a = args(&ids, &["-f", format]);
        assert_eq!(fetch(&server, cache.path(), &a).code, 0);
        let db = rusqlite::Connection::open(cache.path().join("cache.sqlite3")).unwrap();
        let form: Vec<u8> = db
            .query_row("SELECT parsed FROM entries WHERE key = ?1", [p], |r| {
                r.get(0)
            })
            .unwrap();
        let form = String::from_utf8(form).unwrap();
        let dates = form.rsplit_once(",{").unwrap().1;
        for (name, tampered) in [
            ("a line break", form.replacen(',', ",\n", 1)),
            (
                "a lone surrogate",
                format!("[{{\"pmid\":\"{p}\",\"title\":\"\\ud800\"}},{{{dates}"),
            ),
        ] {
            let n = db
                .execute(
                    "UPDATE entries SET parsed = CAST(?1 AS BLOB) WHERE key = ?2",
                    rusqlite::params![tampered, p],
                )
                .unwrap();
            assert_eq!(n, 1);
            let before = server.count();
            let run = fetch(&server, cache.path(), &a);
            assert_eq!(run.code, 0, "{format}, {name}: {}", run.stderr);
            assert_eq!(server.count(), before, "{format}, {name}: from the cache");
            let records = |s: &str| match format {
                "json" => {
                    serde_json::from_str::<serde_json::Value>(s).map(|v| v["records"].to_string())
                }
                _ => Ok(s.to_string()),
            };
            assert_eq!(
                records(&run.stdout).ok(),
                records(&off.stdout).ok(),
                "{format}, {name}"
            );
        }
    }
}

/// A cached ID Converter record or ELink list that no longer decodes is
/// fetched again and not said to come from the cache (`-v`): the lookups
/// of convert and related counted it as a hit before decoding, as fetch
/// did before `Cache::get_with`. Expected: the first run's records, one
/// request for the damaged entry, "1 from cache" of 2.
#[test]
fn convert_and_related_entries_that_do_not_decode_are_not_counted_as_from_the_cache() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = fake_server(&fake);
    // In PMC in the fake (not divisible by 7), with similar articles (not by 11).
    for (cmd, kind) in [("convert", "idconv"), ("related", "elink")] {
        let cache = tempfile::tempdir().unwrap();
        let a = [cmd, "30000001", "30000002", "-f", "ndjson", "-v"];
        let first = run_in(&server, cache.path(), &a, None);
        assert_eq!(first.code, 0, "{}", first.stderr);
        {
            let db = rusqlite::Connection::open(cache.path().join("cache.sqlite3")).unwrap();
            let n = db
                .execute(
                    "UPDATE entries SET body = CAST('{not json' AS BLOB) WHERE kind = ?1 AND key LIKE '%30000002'",
                    [kind],
                )
                .unwrap();
            assert_eq!(n, 1, "{cmd}");
        }
        let before = server.count();
        let again = run_in(&server, cache.path(), &a, None);
        assert_eq!(again.code, 0, "{cmd}: {}", again.stderr);
        assert_eq!(again.stdout, first.stdout, "{cmd}");
        assert_eq!(server.count() - before, 1, "{cmd}: {}", again.stderr);
        assert!(
            again.stderr.contains(": 1 from cache, the oldest fetched "),
            "{cmd}: {}",
            again.stderr
        );
    }
}
