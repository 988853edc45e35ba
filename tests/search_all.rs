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

/// Ctrl-C during `search --all --detail` on a terminal (issue 25): the run
/// exits 130 and the bar's last frame is cleared. The binary runs under a
/// pseudo-terminal (`script`), writing to `--output` so that the terminal
/// holds only stderr; SIGINT is sent once a bar frame has been read, and
/// the terminal's output must end with indicatif's clear of a one-line bar
/// (console's `clear_line`, `"\r\x1b[2K"`, indicatif 0.18
/// `DrawState::draw_to_term` with no lines) and then only the interruption
/// message. Paced at 200 ms a request, the 200,000-hit run would take
/// a minute: it is still running when the signal comes.
#[test]
fn ctrl_c_clears_the_bar_and_exits_130() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.ndjson");
    let bin = env!("CARGO_BIN_EXE_pubmed");
    let p = pubmed(&[])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "200")
        .env("PUBMED_DEADLINE_S", "60");
    let mut cmd = Command::new("script");
    cmd.env_clear();
    for (k, v) in p.cmd.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    // `exec`: the shell becomes pubmed, the one child of `script`.
    let mut child = cmd
        .args([
            "-qfec",
            &format!(
                "exec {bin} search hits200000 --all --detail brief --output {}",
                file.display()
            ),
            "/dev/null",
        ])
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    // A frame: the bar's template ("ranges 1/20  PMIDs 0/200,000 …").
    while !String::from_utf8_lossy(&seen).contains("  PMIDs ") {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(bytes) => seen.extend(bytes),
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "no bar drawn in 120 s: {:?}",
                    String::from_utf8_lossy(&seen)
                );
            }
        }
    }
    let children = format!("/proc/{0}/task/{0}/children", child.id());
    let pid = std::fs::read_to_string(&children).unwrap();
    let pid = pid.split_whitespace().next().expect("script has a child");
    assert_eq!(
        std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .unwrap()
            .trim(),
        "pubmed"
    );
    let kill = Command::new("kill").args(["-INT", pid]).status().unwrap();
    assert!(kill.success());
    let exit = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > exit {
            let _ = child.kill();
            panic!("still running 60 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    reader.join().unwrap();
    seen.extend(rx.try_iter().flatten());
    let out = String::from_utf8_lossy(&seen).into_owned();
    assert_eq!(status.code(), Some(130), "{out:?}");
    let clear = "\r\x1b[2K";
    let last_frame = out.rfind("  PMIDs ").unwrap();
    let after = &out[last_frame..];
    let at = after
        .find(clear)
        .unwrap_or_else(|| panic!("the last frame is never cleared: {after:?}"));
    // The frame's own text (padded to the width) up to the clear, then
    // only the message, on the line the bar held.
    assert!(!after[..at].contains('\n'), "{after:?}");
    assert_eq!(
        &after[at + clear.len()..],
        "pubmed: interrupted\r\n",
        "{out:?}"
    );
}
