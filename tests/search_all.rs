//! `pubmed search --all` against a fake NCBI that implements `[uid]` ranges,
//! counts and the 9,999-record window on a synthetic corpus.

use crate::support;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::TestServer;

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

fn all(server: &TestServer, query: &str, extra: &[&str]) -> Run {
    let mut args = vec!["search", query, "--all"];
    args.extend_from_slice(extra);
    let mut p = pubmed(&args);
    // The fake builds 9,999-ID pages in a debug build: on a loaded machine one
    // answer can take longer than the runner's default 5 s deadline.
    p.cmd.env("PUBMED_DEADLINE_S", "30");
    p.server(server).run()
}

/// Every PMID written once, and exactly the expected set.
fn assert_exact(run: &Run, expected: &[u64]) {
    let lines: Vec<u64> = run
        .stdout
        .lines()
        .map(|l| l.parse().unwrap_or_else(|_| panic!("not a PMID: {l:?}")))
        .collect();
    let unique: HashSet<u64> = lines.iter().copied().collect();
    assert_eq!(unique.len(), lines.len(), "a PMID was written twice");
    let want: HashSet<u64> = expected.iter().copied().collect();
    assert_eq!(unique.len(), want.len());
    assert!(unique == want, "the PMID sets differ");
}

#[test]
fn every_pmid_once_in_a_bounded_number_of_requests() {
    let corpus = Corpus::synthetic();
    // (hits, ESearch requests): up to 9,999 hits one request; above, the
    // first page plus the planned ranges (top range + ⌈rest / 8,000⌉ below).
    for (n, requests) in [
        (0usize, 1usize),
        (1, 1),
        (9999, 1),
        (10_000, 3),
        (30_000, 5),
        (250_000, 33),
    ] {
        let fake = FakeNcbi::new(corpus.clone());
        let server = start(&fake);
        let query = format!("hits{n}");
        let run = all(&server, &query, &[]);
        assert_eq!(run.code, 0, "{query}: {}", run.stderr);
        let expected = corpus.hits(&query);
        assert_eq!(expected.len(), n);
        assert_exact(&run, &expected);
        assert_eq!(
            fake.counters.esearch.load(Ordering::SeqCst),
            requests,
            "{query}: ESearch requests"
        );
        assert_eq!(fake.counters.esummary.load(Ordering::SeqCst), 0);
        assert_eq!(
            run.stderr.contains("warning"),
            n == 0,
            "{query}: only zero hits warn: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains(&if n == 1 {
                "1 PMID written; the query has 1 hit".to_string()
            } else {
                format!("{n} PMIDs written; the query has {n} hits")
            }),
            "{}",
            run.stderr
        );
        // no range needed a split here: each fits PubMed's window and no
        // two overlap (ranges are inclusive at both ends)
        let mut ranges: Vec<(u64, u64)> = server
            .requests()
            .iter()
            .filter_map(|r| support::fake_ncbi::split_uid_range(r.param("term")?).1)
            .collect();
        ranges.sort();
        for r in &ranges {
            let held = corpus
                .hits(&format!("({query}) AND {}:{}[uid]", r.0, r.1))
                .len();
            assert!(held <= 9999, "{query}: range {r:?} holds {held}");
        }
        for w in ranges.windows(2) {
            assert!(w[0].1 < w[1].0, "{query}: {w:?} overlap");
        }
    }
}

#[test]
fn skewed_corpus_is_bisected_until_every_range_fits() {
    let corpus = Corpus::synthetic();
    let fake = FakeNcbi::new(corpus.clone());
    let server = start(&fake);
    let run = all(&server, "skewed60000", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_exact(&run, &corpus.hits("skewed60000"));
    let n = fake.counters.esearch.load(Ordering::SeqCst);
    assert!(n <= 16, "60,000 skewed hits took {n} requests");
    assert!(n >= 8, "at least ⌈60,000 / 9,999⌉ + 1 requests, saw {n}");
}

#[test]
fn a_failed_range_is_reported_and_the_rest_still_written() {
    let corpus = Corpus::synthetic();
    let fake = FakeNcbi::new(corpus.clone());
    fake.failing_terms.lock().unwrap().push("AND 1:".into());
    let server = start(&fake);
    let run = all(&server, "hits30000", &[]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let line = run
        .stderr
        .lines()
        .find(|l| l.contains("PMID range 1:"))
        .unwrap_or_else(|| panic!("no range failure on stderr: {}", run.stderr));
    assert!(line.contains("[ncbi_unreachable]"), "{line}");
    let hi: u64 = line
        .split("PMID range 1:")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    let expected: Vec<u64> = corpus
        .hits("hits30000")
        .into_iter()
        .filter(|p| *p > hi)
        .collect();
    assert!(expected.len() > 9999 && expected.len() < 30_000);
    assert_exact(&run, &expected);
    // the message gives the query that fetches the failed range again
    let rerun = line
        .split("run the same command with the query '")
        .nth(1)
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or_else(|| panic!("no query to re-run: {line}"));
    assert_eq!(rerun, format!("(hits30000) AND 1:{hi}[uid]"));
    let healthy = start(&FakeNcbi::new(corpus.clone()));
    let again = all(&healthy, rerun, &[]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let missing: Vec<u64> = corpus
        .hits("hits30000")
        .into_iter()
        .filter(|p| *p <= hi)
        .collect();
    assert_exact(&again, &missing);
}

#[test]
fn summaries_stream_as_ndjson() {
    let corpus = Corpus::synthetic();
    let fake = FakeNcbi::new(corpus.clone());
    let server = start(&fake);
    // A deadline long enough that a slow build never halves a chunk for time.
    let run = pubmed(&[
        "search",
        "hits30000",
        "--all",
        "-f",
        "ndjson",
        "--detail",
        "brief",
    ])
    .server(&server)
    .env("PUBMED_DEADLINE_S", "120")
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut seen = HashSet::new();
    for l in run.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let pmid = v["pmid"].as_str().unwrap().to_string();
        assert_eq!(
            v["title"],
            format!("Synthetic article {pmid}: in vivo effects & outcomes.")
        );
        assert!(v.get("authors").is_none(), "brief");
        assert!(seen.insert(pmid), "twice");
    }
    assert_eq!(seen.len(), 30_000);
    // 1,000 PMIDs per ESummary request, batched across ranges: 30,000 / 1,000
    let batches = fake.counters.esummary.load(Ordering::SeqCst);
    assert_eq!(batches, 30, "ESummary requests");
    let ids_only = all(&server, "hits10000", &["-f", "ndjson"]);
    assert_eq!(ids_only.stdout.lines().count(), 10_000);
    assert!(ids_only.stdout.starts_with("{\"pmid\":\""));
}

#[test]
fn filters_and_dates_combine_with_all() {
    let mut corpus = Corpus::synthetic();
    let q = "(hits30000) AND \"Review\"[Publication Type]";
    let hits = corpus.queries["hits30000"].clone();
    corpus.queries.insert(q.into(), hits);
    let fake = FakeNcbi::new(corpus.clone());
    let server = start(&fake);
    let run = all(
        &server,
        "hits30000",
        &[
            "--pubtype",
            "Review",
            "--mindate",
            "2020",
            "--maxdate",
            "2021",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_exact(&run, &corpus.hits(q));
    for r in server.requests() {
        assert_eq!(r.param("mindate"), Some("2020"));
        assert_eq!(r.param("maxdate"), Some("2021"));
        assert_eq!(r.param("datetype"), Some("pdat"));
        assert!(
            r.param("term")
                .unwrap()
                .contains("(hits30000) AND \"Review\"[Publication Type]")
        );
        assert_eq!(r.param("retmax"), Some("9999"));
    }
}

#[test]
fn all_rejects_paging_flags_and_whole_document_formats() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    for extra in [
        &["--retmax", "5"][..],
        &["--retstart", "5"],
        &["--count"],
        &["-f", "json"],
        &["-f", "table"],
    ] {
        let run = all(&server, "hits1", extra);
        assert_eq!(run.code, 2, "{extra:?}: {}", run.stderr);
    }
    assert_eq!(server.count(), 0);
}

/// Real time, default pacing (400 ms) against a 3-per-second limit.
#[test]
fn default_pacing_all_without_a_single_429() {
    let corpus = Corpus::synthetic();
    let fake = FakeNcbi::rate_limited(corpus.clone());
    let server = start(&fake);
    let run = pubmed(&["search", "hits30000", "--all"])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_exact(&run, &corpus.hits("hits30000"));
    assert_eq!(fake.counters.rate_limited.load(Ordering::SeqCst), 0);
    assert!(server.max_per_second() <= 3);
}
