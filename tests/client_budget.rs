//! The request budget shared by every `pubmed` process of a user, tested
//! the way people run it: shell loops, parallel processes and parallel
//! converts with default pacing and one shared `XDG_RUNTIME_DIR`, against a
//! fake NCBI that answers 429 above 3 requests per second (10 with a key)
//! and counts rejected requests too. Cut down from the benchmark rows
//! (`bench/run.sh budget`) to stay cheap in CI.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use support::cli::{Pubmed, Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi, PMC_OFFSET};
use support::server::TestServer;

fn corpus() -> Corpus {
    let mut c = Corpus::default();
    c.add_uniform("hits300", 300, 1_000_000, 41_000_000, 3);
    c
}

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

/// The 20 newest PMIDs of `hits300`, as `pubmed search hits300` prints them.
fn first_page(fake: &FakeNcbi) -> String {
    let mut all = fake.corpus.hits("hits300");
    all.reverse();
    all.iter().take(20).map(|p| format!("{p}\n")).collect()
}

/// Runs every invocation on its own thread at once; results in order.
fn parallel(runs: Vec<Pubmed>) -> Vec<Run> {
    let handles: Vec<_> = runs
        .into_iter()
        .map(|p| std::thread::spawn(move || p.run()))
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

fn limited(fake: &FakeNcbi) -> usize {
    fake.counters.rate_limited.load(Ordering::SeqCst)
}

/// A shell loop of `pubmed search … --count`: each process starts fresh,
/// yet their requests stay 400 ms apart (today's figures without the
/// budget: 13 requests, 3 × 429, 4 in one second).
#[test]
fn a_shell_loop_of_searches_stays_under_the_limit() {
    let fake = FakeNcbi::rate_limited(corpus());
    let server = start(&fake);
    let budget = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    for i in 0..6 {
        let run = pubmed(&["search", "hits300", "--count"])
            .server(&server)
            .default_pacing()
            .shared_budget(budget.path())
            .run();
        assert_eq!(run.code, 0, "run {i}: {}", run.stderr);
        assert_eq!(run.stdout, "300\n");
    }
    assert_eq!(server.count(), 6, "one ESearch each, no retries");
    assert_eq!(limited(&fake), 0, "no 429");
    assert!(server.max_per_second() <= 3, "{}", server.max_per_second());
    assert!(t0.elapsed() >= Duration::from_millis(5 * 400));
    assert!(
        budget.path().join("pubmed-request-budget.json").is_file(),
        "the state file lives in XDG_RUNTIME_DIR"
    );
}

/// Like `xargs -P 6`: 12 searches in 6 parallel streams of processes
/// (today: 161 requests and 113 × 429 for 24 searches at -P 8). Wall time
/// against the floor is a rate: `benches/e2e.rs` (budget rows) measures it.
#[test]
fn parallel_processes_share_one_budget() {
    let fake = FakeNcbi::rate_limited(corpus());
    let server = start(&fake);
    let budget = tempfile::tempdir().unwrap();
    let expected = first_page(&fake);
    let t0 = Instant::now();
    let streams: Vec<_> = (0..6)
        .map(|_| {
            let eutils = server.eutils_url();
            let dir = budget.path().to_path_buf();
            std::thread::spawn(move || {
                (0..2)
                    .map(|_| {
                        pubmed(&["search", "hits300"])
                            .env("PUBMED_EUTILS_URL", &eutils)
                            .default_pacing()
                            .shared_budget(&dir)
                            .run()
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let runs: Vec<Run> = streams
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    for run in &runs {
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, expected);
    }
    let requests = server.count();
    assert_eq!(requests, 12);
    assert_eq!(limited(&fake), 0, "no 429");
    assert!(server.max_per_second() <= 3, "{}", server.max_per_second());
    // Twelve paced requests cannot be faster than their gaps.
    assert!(t0.elapsed() >= Duration::from_millis(400) * 11);
}

/// Four `convert` runs at once share the ID Converter's lane (today: 345
/// requests, 328 × 429, 7,149 of 10,000 IDs failed).
#[test]
fn parallel_converts_share_the_id_converter_lane() {
    let fake = FakeNcbi::rate_limited(Corpus::default());
    let server = start(&fake);
    let budget = tempfile::tempdir().unwrap();
    let inputs: Vec<Vec<u64>> = (0..4u64)
        .map(|k| (0..300).map(|i| 10_000 + k * 1_000 + i).collect())
        .collect();
    let runs = parallel(
        inputs
            .iter()
            .map(|ids| {
                let text: String = ids.iter().map(|p| format!("{p}\n")).collect();
                pubmed(&["convert", "--input", "-", "--to", "pmcid"])
                    .server(&server)
                    .default_pacing()
                    .shared_budget(budget.path())
                    .stdin(text)
            })
            .collect(),
    );
    for (run, ids) in runs.iter().zip(&inputs) {
        assert_eq!(run.code, 0, "{}", run.stderr);
        let want: String = ids
            .iter()
            .map(|p| match p % 7 {
                0 => "\n".to_string(),
                _ => format!("PMC{}\n", p + PMC_OFFSET),
            })
            .collect();
        assert_eq!(run.stdout, want);
    }
    // Each ID asked once, in chunks of at most 200 (two per run, or a few
    // more when a slow machine makes the engine flush a partial chunk).
    let batches = fake.idconv_batches.lock().unwrap().clone();
    let mut asked: Vec<String> = batches.iter().flat_map(|(_, ids)| ids.clone()).collect();
    asked.sort();
    let mut all: Vec<String> = inputs.iter().flatten().map(u64::to_string).collect();
    all.sort();
    assert_eq!(asked, all, "every ID asked exactly once");
    assert!(batches.iter().all(|(_, ids)| ids.len() <= 200));
    assert!(
        (8..=12).contains(&server.count()),
        "{} requests",
        server.count()
    );
    assert_eq!(limited(&fake), 0, "no 429");
    assert!(server.max_per_second() <= 3, "{}", server.max_per_second());
}

/// With a key, the key's lane runs at up to 10 requests/s while keyless
/// processes running at the same time stay at 3/s.
#[test]
fn a_keys_lane_allows_ten_per_second_and_the_keyless_lane_three() {
    let fake = FakeNcbi::rate_limited(corpus());
    let server = start(&fake);
    let budget = tempfile::tempdir().unwrap();
    let key = "0123456789abcdef0123456789abcdef0123";
    let streams: Vec<_> = (0..6)
        .map(|i| {
            let eutils = server.eutils_url();
            let dir = budget.path().to_path_buf();
            let keyed = i < 4;
            std::thread::spawn(move || {
                (0..if keyed { 5 } else { 3 })
                    .map(|_| {
                        let mut p = pubmed(&["search", "hits300", "--count"])
                            .env("PUBMED_EUTILS_URL", &eutils)
                            .default_pacing()
                            .shared_budget(&dir);
                        if keyed {
                            p = p.env("NCBI_API_KEY", key);
                        }
                        p.run()
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for h in streams {
        for run in h.join().unwrap() {
            assert_eq!(run.code, 0, "{}", run.stderr);
            assert_eq!(run.stdout, "300\n");
        }
    }
    let keyed = server.max_per_second_where(|r| r.param("api_key").is_some());
    let keyless = server.max_per_second_where(|r| r.param("api_key").is_none());
    assert_eq!(server.count(), 4 * 5 + 2 * 3);
    assert_eq!(limited(&fake), 0, "no 429");
    assert!(keyed <= 10, "key lane: {keyed} in 1 s");
    assert!(
        keyed > 3,
        "the key lane is not held to the keyless rate: {keyed}"
    );
    assert!(keyless <= 3, "keyless lane: {keyless} in 1 s");
}

/// A 429 seen by one process cools down the others: two processes, the
/// first request of all answered 429, and the second process waits out
/// the cooldown too instead of drawing its own 429.
#[test]
fn one_processs_429_cools_down_all() {
    let fake = FakeNcbi::new(corpus());
    let first = std::sync::atomic::AtomicBool::new(true);
    let f = fake.clone();
    let server = TestServer::start(move |r| {
        if first.swap(false, Ordering::SeqCst) {
            f.counters.rate_limited.fetch_add(1, Ordering::SeqCst);
            support::server::Reply::too_many()
        } else {
            f.reply(r)
        }
    });
    let budget = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    let a = pubmed(&["search", "hits300", "--count"])
        .server(&server)
        .default_pacing()
        .shared_budget(budget.path())
        .run();
    assert_eq!(a.code, 0, "{}", a.stderr);
    let b = pubmed(&["search", "hits300", "--count"])
        .server(&server)
        .default_pacing()
        .shared_budget(budget.path())
        .run();
    assert_eq!(b.code, 0, "{}", b.stderr);
    assert_eq!(limited(&fake), 1);
    assert_eq!(server.count(), 3);
    let at: Vec<Duration> = server
        .requests()
        .iter()
        .map(|r| r.at - server.requests()[0].at)
        .collect();
    // 429 → 1 s cooldown → retry; the other process 400 ms after that.
    assert!(at[1] >= Duration::from_millis(950), "{at:?}");
    assert!(at[2] >= at[1] + Duration::from_millis(350), "{at:?}");
    // Not a rate (a loaded machine is slow): the cooldown ends, no hang.
    assert!(t0.elapsed() < Duration::from_secs(30));
}

/// A state file another program wrote (or a crash cut short) is rebuilt; a
/// lock held by a stuck process delays a request by at most a second.
#[test]
fn a_corrupt_file_is_rebuilt_and_a_held_lock_never_hangs() {
    let fake = FakeNcbi::new(corpus());
    let server = start(&fake);
    let budget = tempfile::tempdir().unwrap();
    let file = budget.path().join("pubmed-request-budget.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, b"{\"lanes\": 42, \xff\xfe").unwrap();
    let run = pubmed(&["search", "hits300", "--count"])
        .server(&server)
        .shared_budget(budget.path())
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        !run.stderr.contains("budget"),
        "a rebuilt file is not worth a note: {}",
        run.stderr
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with(r#"{"format":"pubmed-request-budget/1""#),
        "{text}"
    );
    assert!(text.contains(r#""eutils""#), "{text}");

    let holder = std::fs::File::options().write(true).open(&file).unwrap();
    holder.lock().unwrap();
    let t0 = Instant::now();
    let run = pubmed(&["search", "hits300", "--count"])
        .server(&server)
        .shared_budget(budget.path())
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "300\n");
    // A held lock delays by about a second; a hang would be unbounded.
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    drop(holder);
}

/// A budget directory that cannot be created: the run still works, paced
/// alone, with ONE note on stderr however many requests it makes (and the
/// same line under `-v`).
#[test]
fn an_unusable_directory_falls_back_with_one_note() {
    let fake = FakeNcbi::new(corpus());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "").unwrap();
    let run = pubmed(&["search", "hits300", "-f", "json"])
        .server(&server)
        .shared_budget(&not_a_dir)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["count"], 300);
    assert!(server.count() >= 2, "ESearch and ESummary");
    let notes: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("shared request budget"))
        .collect();
    assert_eq!(notes.len(), 1, "{}", run.stderr);
    assert!(
        notes[0].contains(not_a_dir.to_str().unwrap()),
        "{}",
        notes[0]
    );

    let run = pubmed(&["search", "hits300", "--count", "-v"])
        .server(&server)
        .shared_budget(&not_a_dir)
        .run();
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stderr
            .lines()
            .filter(|l| l.contains("shared request budget"))
            .count(),
        1,
        "{}",
        run.stderr
    );
}

/// `PUBMED_SHARED_BUDGET=0` paces the process alone: no file is written,
/// and `-v` says so; with the budget on, `-v` names the file.
#[test]
fn the_budget_can_be_turned_off() {
    let fake = FakeNcbi::new(corpus());
    let server = start(&fake);
    let budget = tempfile::tempdir().unwrap();
    let run = pubmed(&["search", "hits300", "--count", "-v"])
        .server(&server)
        .shared_budget(budget.path())
        .env("PUBMED_SHARED_BUDGET", "0")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("shared request budget off (shared_budget is off)"),
        "{}",
        run.stderr
    );
    assert!(!budget.path().join("pubmed-request-budget.json").exists());

    let run = pubmed(&["search", "hits300", "--count", "-v"])
        .server(&server)
        .shared_budget(budget.path())
        .run();
    let file = budget.path().join("pubmed-request-budget.json");
    assert!(
        run.stderr.contains(&format!(
            "shared request budget: {} (lane eutils)",
            file.display()
        )),
        "{}",
        run.stderr
    );

    let run = pubmed(&["search", "hits300", "--count"])
        .server(&server)
        .env("PUBMED_SHARED_BUDGET", "maybe")
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
}
