//! Fault injection: with 30% of answers failing (HTTP 5xx, resets, slow
//! answers, bodies cut short; seeded), every command either gives the right
//! answer or exits with the right reason, never loses an ID, and never
//! exceeds NCBI's rate.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi, Faults};
use support::server::{RateLimit, TestServer, fixture};

fn faulty(seed: u64, limit: bool) -> Arc<FakeNcbi> {
    let mut corpus = Corpus::default();
    corpus.add_uniform("hits300", 300, 1_000_000, 41_000_000, 3);
    let fake = FakeNcbi {
        corpus,
        faults: Some(Faults::new(0.3, seed)),
        limit: limit.then(RateLimit::default),
        ..Default::default()
    };
    fake.espell.lock().unwrap().insert(
        "asthmaa OR alergies".into(),
        fixture("espell_asthmaa_alergies.xml"),
    );
    Arc::new(fake)
}

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

/// Success with the expected output, or a failure NCBI's state explains.
fn ok_or_unavailable(run: &Run, what: &str) -> bool {
    match run.code {
        0 => true,
        69 => {
            let reason = run.error_json()["reason"].as_str().unwrap().to_string();
            assert!(
                reason == "ncbi_unreachable" || reason == "ncbi_deadline_exceeded",
                "{what}: {reason}"
            );
            assert_eq!(run.stdout, "", "{what}: no partial answer");
            false
        }
        c => panic!("{what}: exit {c}: {}", run.stderr),
    }
}

fn fast(p: support::cli::Pubmed) -> support::cli::Pubmed {
    p.env("PUBMED_MAX_RETRIES", "6")
        .env("PUBMED_DEADLINE_S", "20")
}

#[test]
fn spell_and_search_under_30_percent_faults() {
    let fake = faulty(42, false);
    let server = start(&fake);
    let expected: Vec<String> = {
        let mut all = fake.corpus.hits("hits300");
        all.reverse();
        all.iter().take(20).map(u64::to_string).collect()
    };
    let mut successes = 0;
    for i in 0..12 {
        let run =
            fast(pubmed(&["spell", "-f", "json", "asthmaa OR alergies"]).server(&server)).run();
        if ok_or_unavailable(&run, &format!("spell #{i}")) {
            assert_eq!(run.json()["corrected"], "asthma OR allergies");
            successes += 1;
        }
        let run = fast(pubmed(&["search", "-f", "json", "hits300"]).server(&server)).run();
        if ok_or_unavailable(&run, &format!("search #{i}")) {
            let v = run.json();
            assert_eq!(v["count"], 300);
            let pmids: Vec<String> = v["pmids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            assert_eq!(pmids, expected);
            let titles: Vec<&str> = v["summaries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["pmid"].as_str().unwrap())
                .collect();
            assert_eq!(
                titles,
                expected.iter().map(String::as_str).collect::<Vec<_>>()
            );
            successes += 1;
        }
    }
    let injected = fake
        .faults
        .as_ref()
        .unwrap()
        .injected
        .load(Ordering::SeqCst);
    assert!(injected >= 5, "faults were injected: {injected}");
    assert!(
        successes >= 20,
        "retries absorb most faults: {successes}/24"
    );
}

#[test]
fn convert_10000_ids_under_faults_keeps_every_id_once() {
    let fake = faulty(7, false);
    let server = start(&fake);
    let ids: Vec<String> = (0..10_000u64)
        .map(|i| match i % 3 {
            0 => (5000 + i).to_string(),
            1 => format!("PMC{}", 5000 + i + support::fake_ncbi::PMC_OFFSET),
            _ => format!("10.5555/pmid.{}", 5000 + i),
        })
        .collect();
    let input = ids.join("\n") + "\n";
    let run = fast(pubmed(&["convert", "--input", "-", "-f", "ndjson"]).server(&server))
        .stdin(input)
        .run();
    assert!(
        run.code == 0 || run.code == 69,
        "exit {}: {}",
        run.code,
        run.stderr
    );
    let records: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 10_000, "one record per ID");
    for (r, id) in records.iter().zip(&ids) {
        assert_eq!(r["requested"], id.as_str(), "in input order");
        let pmid = 5000 + (ids.iter().position(|x| x == id).unwrap() as u64);
        match r.get("error") {
            None => assert_eq!(r["pmid"], pmid.to_string()),
            Some(e) => {
                let reason = e["reason"].as_str().unwrap();
                if pmid.is_multiple_of(7) {
                    assert_eq!(reason, "not_in_pmc");
                } else {
                    assert!(
                        reason == "ncbi_unreachable" || reason == "ncbi_deadline_exceeded",
                        "{id}: {reason}"
                    );
                }
            }
        }
    }
    assert!(
        fake.faults
            .as_ref()
            .unwrap()
            .injected
            .load(Ordering::SeqCst)
            > 5
    );
}

/// Real time with an API key against NCBI-like limits (10/s with the key,
/// 3/s for the keyless ID Converter): faults and retries never push a run
/// over the rate.
#[test]
fn faults_never_push_a_run_over_the_rate() {
    let fake = faulty(9, true);
    let server = start(&fake);
    let ids: String = (20_000..21_000u64).map(|p| format!("{p}\n")).collect();
    let run = pubmed(&["convert", "--input", "-", "--to", "pmcid"])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "")
        .env("NCBI_API_KEY", "k0123456789")
        .env("PUBMED_MAX_RETRIES", "6")
        .env("PUBMED_DEADLINE_S", "20")
        .stdin(ids)
        .run();
    assert!(run.code == 0 || run.code == 69, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 1000);
    assert_eq!(
        fake.counters.rate_limited.load(Ordering::SeqCst),
        0,
        "no 429"
    );
    assert!(
        server.max_per_second() <= 3,
        "keyless: {}",
        server.max_per_second()
    );
    let before = server.count();
    let run = pubmed(&[
        "search", "hits300", "-f", "json", "--retmax", "1000", "--detail", "brief",
    ])
    .server(&server)
    .env("PUBMED_REQUEST_GAP_MS", "")
    .env("NCBI_API_KEY", "k0123456789")
    .env("PUBMED_MAX_RETRIES", "6")
    .run();
    assert!(server.count() > before);
    assert!(run.code == 0 || run.code == 69, "{}", run.stderr);
    assert_eq!(fake.counters.rate_limited.load(Ordering::SeqCst), 0);
    assert!(server.max_per_second() <= 10);
}
