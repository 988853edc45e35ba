//! End-to-end benchmark: the built binary against the fake NCBI
//! (`tests/support`), printing one table of figures next to their targets.
//! Run with `cargo bench --bench e2e` (or `bench/run.sh`). Not a test: the
//! numbers are measured, not asserted.

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use support::cli::pubmed;
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::TestServer;

/// A named benchmark producing one row.
type Bench = (&'static str, Box<dyn Fn() -> Vec<Row>>);

/// One row of the table.
struct Row {
    what: String,
    figures: String,
    target: String,
    met: Option<bool>,
}

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

/// What a paced run cost: requests, 429s received, and wall time against
/// the floor (requests × the 400 ms keyless gap).
struct Paced {
    requests: usize,
    limited: usize,
    floor: Duration,
    ratio: f64,
}

fn paced(server: &TestServer, fake: &FakeNcbi, wall: Duration) -> Paced {
    let requests = server.count();
    let floor = Duration::from_millis(400) * requests as u32;
    Paced {
        requests,
        limited: fake.counters.rate_limited.load(Ordering::SeqCst),
        floor,
        ratio: wall.as_secs_f64() / floor.as_secs_f64(),
    }
}

/// `search --all` of 30,000 hits, default pacing (400 ms gap), against a
/// server answering 429 above 3 requests per second.
fn search_all_30k(corpus: &Corpus) -> Row {
    let fake = FakeNcbi::rate_limited(corpus.clone());
    let server = start(&fake);
    let t0 = Instant::now();
    let run = pubmed(&["search", "hits30000", "--all"])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "")
        .run();
    let (wall, lines) = (t0.elapsed(), run.stdout.lines().count());
    let Paced {
        requests,
        limited,
        floor,
        ratio,
    } = paced(&server, &fake, wall);
    Row {
        what: "search --all, 30,000 hits, 3 req/s server".into(),
        figures: format!(
            "{lines} PMIDs, {requests} requests, {:.2} s wall, floor {:.2} s, {ratio:.2}× floor, {limited} × 429, max {} req in 1 s",
            wall.as_secs_f64(),
            floor.as_secs_f64(),
            server.max_per_second()
        ),
        target: "≤ 1.1× floor, ≤ 8 requests".into(),
        met: Some(run.code == 0 && lines == 30_000 && ratio <= 1.1 && requests <= 8),
    }
}

/// The `k`-th line of a mixed ID file: a PMID, PMCID or DOI (type by a
/// hash of `k`, so types interleave irregularly), all of one article of the
/// fake's synthetic PMC set.
fn mixed_id(k: u64) -> (usize, String) {
    let pmid = 1_000_000 + k;
    let t = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) as usize % 3;
    let id = match t {
        0 => pmid.to_string(),
        1 => format!("PMC{}", pmid + support::fake_ncbi::PMC_OFFSET),
        _ => format!("10.5555/pmid.{pmid}"),
    };
    (t, id)
}

/// A file of `n` mixed IDs and the fewest requests converting it takes:
/// per ID type, ceil(n / 200).
fn mixed_file(dir: &std::path::Path, n: u64) -> (String, usize) {
    let path = dir.join(format!("mixed-{n}.txt"));
    let mut counts = [0usize; 3];
    let mut text = String::new();
    for k in 0..n {
        let (t, id) = mixed_id(k);
        counts[t] += 1;
        text.push_str(&id);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    let min = counts.iter().map(|c| c.div_ceil(200)).sum();
    (path.to_str().unwrap().to_string(), min)
}

/// Peak RSS in MB of `pubmed ARGS… --cache off`, paced as a user runs it,
/// against a fresh 3 req/s server: the figure beside a row's default
/// (cache on), so the cache's share of the memory is measured, not guessed.
fn peak_mb_cache_off(args: &[&str]) -> f64 {
    let fake = FakeNcbi::rate_limited(Corpus::default());
    let server = start(&fake);
    let mut args = args.to_vec();
    args.extend(["--cache", "off"]);
    let run = pubmed(&args)
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "")
        .env("PUBMED_DEADLINE_S", "60")
        .measure_rss()
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0
}

/// `convert` of 10,000 mixed PMIDs/PMCIDs/DOIs, default pacing, against a
/// 3 req/s server: requests against the minimum, wall against the
/// minimum × 400 ms.
fn convert_10k() -> Row {
    let dir = tempfile::tempdir().unwrap();
    let (input, min) = mixed_file(dir.path(), 10_000);
    let fake = FakeNcbi::rate_limited(Corpus::default());
    let server = start(&fake);
    let t0 = Instant::now();
    let run = pubmed(&["convert", "--input", &input, "--to", "pmcid"])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "")
        .measure_rss()
        .run();
    let (wall, lines) = (t0.elapsed(), run.stdout.lines().count());
    let Paced {
        requests, limited, ..
    } = paced(&server, &fake, wall);
    let floor = Duration::from_millis(400) * min as u32;
    let ratio = wall.as_secs_f64() / floor.as_secs_f64();
    let off = peak_mb_cache_off(&["convert", "--input", &input, "--to", "pmcid"]);
    Row {
        what: "convert 10,000 mixed IDs, 3 req/s server".into(),
        figures: format!(
            "{lines} lines, {requests} requests (minimum {min}), {:.2} s wall, minimum × 0.4 s = {:.2} s, {ratio:.3}×, {limited} × 429, peak RSS {:.1} MB ({off:.1} MB with `--cache off`)",
            wall.as_secs_f64(),
            floor.as_secs_f64(),
            run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0
        ),
        target: "requests ≤ 1.02× minimum, wall ≤ 1.05× minimum × 0.4 s, 0 × 429".into(),
        met: Some(
            run.code == 0
                && lines == 10_000
                && requests as f64 <= 1.02 * min as f64
                && ratio <= 1.05
                && limited == 0,
        ),
    }
}

/// `convert` of 1,000,000 mixed IDs, no pacing, no rate limit: requests
/// against the minimum, peak RSS.
fn convert_1m_rss() -> Row {
    let dir = tempfile::tempdir().unwrap();
    let (input, min) = mixed_file(dir.path(), 1_000_000);
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let t0 = Instant::now();
    let run = pubmed(&["convert", "--input", &input])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "0")
        .env("PUBMED_DEADLINE_S", "60")
        .measure_rss()
        .run();
    let wall = t0.elapsed();
    let records = run.stdout.lines().count().saturating_sub(1);
    let mb = run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0;
    let requests = server.count();
    Row {
        what: "convert 1,000,000 mixed IDs, no pacing".into(),
        figures: format!(
            "{records} records, {requests} requests (minimum {min}), {:.1} s wall, peak RSS {mb:.1} MB",
            wall.as_secs_f64()
        ),
        target: "requests ≤ 1.02× minimum, peak RSS < 30 MB".into(),
        met: Some(
            run.code == 0
                && records == 1_000_000
                && requests as f64 <= 1.02 * min as f64
                && mb > 0.0
                && mb < 30.0,
        ),
    }
}

/// `convert --input -` fed by a pipe writing 50 mixed IDs a second for
/// 10 s, default pacing, 3 req/s server: how long after its ID was written
/// each record came out.
fn convert_slow_producer() -> Row {
    use std::io::{BufRead, Write};
    let fake = FakeNcbi::rate_limited(Corpus::default());
    let server = start(&fake);
    let mut p = pubmed(&["convert", "--input", "-", "--to", "pmcid"])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "");
    p.cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut child = p.cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let n = 500u64;
    let writer = std::thread::spawn(move || {
        let t0 = Instant::now();
        let mut written = Vec::new();
        for k in 0..n {
            let due = t0 + Duration::from_millis(20 * k);
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
            writeln!(stdin, "{}", mixed_id(k).1).unwrap();
            stdin.flush().unwrap();
            written.push(Instant::now());
        }
        written
    });
    let arrived: Vec<Instant> = std::io::BufReader::new(stdout)
        .lines()
        .map(|l| {
            l.unwrap();
            Instant::now()
        })
        .collect();
    let written = writer.join().unwrap();
    let ok = child.wait().unwrap().success();
    let lags: Vec<Duration> = arrived
        .iter()
        .zip(&written)
        .map(|(a, w)| a.saturating_duration_since(*w))
        .collect();
    let worst = lags.iter().max().copied().unwrap_or_default();
    let mut sorted = lags.clone();
    sorted.sort();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or_default();
    Row {
        what: "convert, a pipe writing 50 mixed IDs/s for 10 s, 3 req/s server".into(),
        figures: format!(
            "{} records, {} requests, lag median {:.2} s, worst {:.2} s, {} × 429",
            arrived.len(),
            server.count(),
            median.as_secs_f64(),
            worst.as_secs_f64(),
            fake.counters.rate_limited.load(Ordering::SeqCst)
        ),
        target: "every record within 2 s of its ID".into(),
        met: Some(ok && arrived.len() == n as usize && worst <= Duration::from_secs(2)),
    }
}

/// `search hits200000 --all --detail brief -f ndjson`, default pacing, 3
/// req/s server: ESearch and ESummary requests, peak RSS, wall against
/// requests × 400 ms.
fn search_all_200k_summaries(corpus: &Corpus) -> Row {
    let fake = FakeNcbi::rate_limited(corpus.clone());
    let server = start(&fake);
    let t0 = Instant::now();
    let run = pubmed(&[
        "search",
        "hits200000",
        "--all",
        "--detail",
        "brief",
        "-f",
        "ndjson",
    ])
    .server(&server)
    .env("PUBMED_REQUEST_GAP_MS", "")
    .env("PUBMED_DEADLINE_S", "120")
    .measure_rss()
    .run();
    let (wall, lines) = (t0.elapsed(), run.stdout.lines().count());
    let Paced {
        requests,
        limited,
        floor,
        ratio,
    } = paced(&server, &fake, wall);
    let esearch = fake.counters.esearch.load(Ordering::SeqCst);
    let esummary = fake.counters.esummary.load(Ordering::SeqCst);
    let mb = run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0;
    Row {
        what: "search hits200000 --all --detail brief -f ndjson, 3 req/s server".into(),
        figures: format!(
            "{lines} records, {esearch} ESearch + {esummary} ESummary = {requests} requests, {:.1} s wall, requests × 0.4 s = {:.1} s, {ratio:.3}×, {limited} × 429, peak RSS {mb:.1} MB",
            wall.as_secs_f64(),
            floor.as_secs_f64()
        ),
        target: "≤ 26 ESearch + 200 ESummary, RSS < 64 MB, wall ≤ 1.1× requests × 0.4 s".into(),
        met: Some(
            run.code == 0
                && lines == 200_000
                && esearch <= 26
                && esummary <= 200
                && mb > 0.0
                && mb < 64.0
                && ratio <= 1.1,
        ),
    }
}

/// `fetch` of 100,000 PMIDs (a file of the synthetic corpus's PMIDs),
/// default pacing, against a 3 req/s server, NDJSON out.
fn fetch_100k() -> Row {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pmids.txt");
    let text: String = (0..100_000u64)
        .map(|i| format!("{}\n", 2_000_000 + i * 37))
        .collect();
    std::fs::write(&path, text).unwrap();
    let fake = FakeNcbi::rate_limited(Corpus::default());
    let server = start(&fake);
    let t0 = Instant::now();
    let run = pubmed(&["fetch", "--input", path.to_str().unwrap(), "-f", "ndjson"])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "")
        .env("PUBMED_DEADLINE_S", "60")
        .measure_rss()
        .run();
    let wall = t0.elapsed();
    let written = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("{\"pmid\":") && !l.contains("\"error\":"))
        .count();
    let Paced {
        requests,
        limited,
        floor,
        ratio,
    } = paced(&server, &fake, wall);
    let mb = run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0;
    let off = peak_mb_cache_off(&["fetch", "--input", path.to_str().unwrap(), "-f", "ndjson"]);
    Row {
        what: "fetch 100,000 PMIDs, 3 req/s server".into(),
        figures: format!(
            "{written} records, {requests} requests, {:.2} s wall, floor {:.2} s, {ratio:.3}× floor, {limited} × 429, peak RSS {mb:.1} MB ({off:.1} MB with `--cache off`)",
            wall.as_secs_f64(),
            floor.as_secs_f64()
        ),
        target: "≤ 1.1× floor, peak RSS < 64 MB".into(),
        met: Some(run.code == 0 && written == 100_000 && ratio <= 1.1 && mb > 0.0 && mb < 64.0),
    }
}

/// `fulltext` of 1,000 PMCIDs (copies of a real 117 kB PLoS ONE article),
/// default pacing, NDJSON out: requests, time against the floor
/// ((requests − 1) × the client's 400 ms keyless gap), peak RSS.
fn fulltext_1k() -> Row {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pmcids.txt");
    let text: String = (0..1_000u64)
        .map(|i| format!("PMC{}\n", 5_000_000 + i))
        .collect();
    std::fs::write(&path, text).unwrap();
    let server = TestServer::start(|r| {
        let ids: Vec<String> = r
            .param("id")
            .unwrap_or_default()
            .split(',')
            .map(str::to_string)
            .collect();
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        support::server::Reply::xml(support::fake_ncbi::pmc::efetch_pmc_copies(&ids))
    });
    let t0 = Instant::now();
    let run = pubmed(&[
        "fulltext",
        "--input",
        path.to_str().unwrap(),
        "-f",
        "ndjson",
    ])
    .server(&server)
    .env("PUBMED_REQUEST_GAP_MS", "")
    .env("PUBMED_DEADLINE_S", "60")
    .measure_rss()
    .run();
    let wall = t0.elapsed();
    let written = run
        .stdout
        .lines()
        .filter(|l| !l.contains("\"error\":"))
        .count();
    let requests = server.count();
    // The client's own keyless gap (400 ms between request starts, not
    // NCBI's 3/s): the first request starts at once, each later one a gap on.
    let gap = pubmed::ncbi::Policy::default().gap(false);
    let floor = gap.as_secs_f64() * requests.saturating_sub(1) as f64;
    let ratio = wall.as_secs_f64() / floor.max(f64::EPSILON);
    let mb = run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0;
    Row {
        what: "fulltext 1,000 PMCIDs (117 kB JATS each)".into(),
        figures: format!(
            "{written} articles, {requests} requests, {:.2} s wall, floor {floor:.2} s, {ratio:.3}× floor, peak RSS {mb:.1} MB",
            wall.as_secs_f64()
        ),
        target: "≤ 1.1× floor, peak RSS < 64 MB".into(),
        met: Some(run.code == 0 && written == 1_000 && ratio <= 1.1 && mb > 0.0 && mb < 64.0),
    }
}

/// The median wall time of `runs` runs of `f`.
fn median(runs: usize, mut f: impl FnMut() -> bool) -> (Duration, bool) {
    let mut times = Vec::with_capacity(runs);
    let mut ok = true;
    for _ in 0..runs {
        let t0 = Instant::now();
        ok &= f();
        times.push(t0.elapsed());
    }
    times.sort();
    (times[runs / 2], ok)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Per-invocation overhead with pacing off: spell, search, convert of one
/// ID (median of 20 runs), and EDirect's `esearch` on the same server when
/// it is installed.
fn overhead() -> Vec<Row> {
    let mut corpus = Corpus::default();
    corpus.add_uniform("hits300", 300, 1_000_000, 41_000_000, 5);
    let fake = FakeNcbi::new(corpus);
    fake.espell.lock().unwrap().insert(
        "asthmaa OR alergies".into(),
        support::server::fixture("espell_asthmaa_alergies.xml"),
    );
    let server = start(&fake);
    let mut rows = Vec::new();
    let mut search_ms = None;
    for (what, args) in [
        ("spell", vec!["spell", "asthmaa OR alergies"]),
        ("search (ids)", vec!["search", "hits300"]),
        ("convert 1 ID", vec!["convert", "22676651"]),
    ] {
        let (m, ok) = median(20, || pubmed(&args).server(&server).run().code == 0);
        if what.starts_with("search") {
            search_ms = Some(m);
        }
        rows.push(Row {
            what: format!("overhead: {what}, pacing off"),
            figures: format!("median {:.1} ms of 20 runs", ms(m)),
            target: "–".into(),
            met: ok.then_some(true),
        });
    }
    let edirect = std::process::Command::new("esearch")
        .arg("-version")
        .output();
    match (edirect, search_ms) {
        (Ok(out), Some(ours)) if out.status.success() => {
            let base = server.eutils_url();
            let (theirs, ok) = median(20, || {
                std::process::Command::new("esearch")
                    .args(["-base", &base, "-db", "pubmed", "-query", "hits300"])
                    .env("NO_PROXY", "127.0.0.1")
                    .output()
                    .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
            });
            let ratio = theirs.as_secs_f64() / ours.as_secs_f64();
            rows.push(Row {
                what: format!(
                    "overhead: EDirect esearch {} on the same server",
                    String::from_utf8_lossy(&out.stdout).trim()
                ),
                figures: format!(
                    "median {:.1} ms of 20 runs; pubmed search is {ratio:.1}× faster",
                    ms(theirs)
                ),
                target: "pubmed ≥ 10× faster".into(),
                met: Some(ok && ratio >= 10.0),
            });
        }
        _ => rows.push(Row {
            what: "overhead: EDirect esearch".into(),
            figures: "not installed (Debian package ncbi-entrez-direct)".into(),
            target: "pubmed ≥ 10× faster".into(),
            met: None,
        }),
    }
    rows
}

/// Figures of one shared-budget row: requests, 429s, the most in any 1 s,
/// wall time against the floor (requests × 400 ms).
fn budget_figures(server: &TestServer, fake: &FakeNcbi, wall: Duration) -> (String, bool) {
    let Paced {
        requests,
        limited,
        floor,
        ratio,
    } = paced(server, fake, wall);
    let max = server.max_per_second();
    (
        format!(
            "{requests} requests, {limited} × 429, max {max} req in 1 s, {:.2} s wall, floor {:.2} s, {ratio:.2}× floor",
            wall.as_secs_f64(),
            floor.as_secs_f64()
        ),
        limited == 0 && max <= 3,
    )
}

fn budget_corpus() -> Corpus {
    let mut c = Corpus::default();
    c.add_uniform("hits300", 300, 1_000_000, 41_000_000, 3);
    c
}

/// Runs `jobs` on `workers` threads pulling from one queue, as `xargs -P`
/// does; true when every job succeeded.
fn xargs(
    workers: usize,
    jobs: Vec<support::cli::Pubmed>,
    ok: impl Fn(&support::cli::Run) -> bool + Sync,
) -> bool {
    let queue = std::sync::Mutex::new(jobs);
    let good = std::sync::atomic::AtomicBool::new(true);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let Some(job) = queue.lock().unwrap().pop() else {
                        return;
                    };
                    let run = job.run();
                    if !ok(&run) {
                        eprintln!("failed run: exit {}: {}", run.code, run.stderr);
                        good.store(false, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    good.load(Ordering::SeqCst)
}

/// The three rows of issue 13's table with the shared budget (default
/// pacing, one XDG_RUNTIME_DIR, a server answering 429 above 3 requests/s
/// and counting rejected requests too), plus the key's lane next to the
/// keyless one, and what the budget costs per invocation.
fn budget() -> Vec<Row> {
    let mut rows = Vec::new();
    let expected: String = {
        let mut all = budget_corpus().hits("hits300");
        all.reverse();
        all.iter().take(20).map(|p| format!("{p}\n")).collect()
    };

    // A shell loop of 10 `search --count`.
    let fake = FakeNcbi::rate_limited(budget_corpus());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    let mut ok = true;
    for _ in 0..10 {
        let run = pubmed(&["search", "hits300", "--count"])
            .server(&server)
            .default_pacing()
            .shared_budget(dir.path())
            .run();
        ok &= run.code == 0 && run.stdout == "300\n";
    }
    let (figures, met) = budget_figures(&server, &fake, t0.elapsed());
    rows.push(Row {
        what: "shared budget: shell loop of 10 `search --count`".into(),
        figures,
        target: "0 × 429, ≤ 3 in any 1 s, all exit 0".into(),
        met: Some(ok && met),
    });

    // `xargs -P 8`, 24 searches.
    let fake = FakeNcbi::rate_limited(budget_corpus());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let jobs = (0..24)
        .map(|_| {
            pubmed(&["search", "hits300"])
                .server(&server)
                .default_pacing()
                .shared_budget(dir.path())
        })
        .collect();
    let t0 = Instant::now();
    let ok = xargs(8, jobs, |r| r.code == 0 && r.stdout == expected);
    let wall = t0.elapsed();
    let (figures, met) = budget_figures(&server, &fake, wall);
    let ratio = paced(&server, &fake, wall).ratio;
    rows.push(Row {
        what: "shared budget: `xargs -P 8`, 24 searches".into(),
        figures,
        target: "0 × 429, ≤ 3 in any 1 s, ≤ 1.2× floor".into(),
        met: Some(ok && met && ratio <= 1.2),
    });

    // 4 parallel `convert` of 2,500 IDs each.
    let fake = FakeNcbi::rate_limited(Corpus::default());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let jobs = (0..4u64)
        .map(|k| {
            let ids: String = (0..2500)
                .map(|i| format!("{}\n", 100_000 + k * 10_000 + i))
                .collect();
            pubmed(&["convert", "--input", "-", "--to", "pmcid"])
                .server(&server)
                .default_pacing()
                .shared_budget(dir.path())
                .stdin(ids)
        })
        .collect();
    let t0 = Instant::now();
    let ok = xargs(4, jobs, |r| {
        r.code == 0
            && r.stdout.lines().count() == 2500
            && r.stdout.lines().filter(|l| l.starts_with("PMC")).count() >= 2100
    });
    let (figures, met) = budget_figures(&server, &fake, t0.elapsed());
    rows.push(Row {
        what: "shared budget: 4 parallel `convert` of 2,500 IDs".into(),
        figures,
        target: "0 × 429, ≤ 3 in any 1 s, every ID converted".into(),
        met: Some(ok && met),
    });

    // With a key: 24 keyed searches at -P 8 beside 8 keyless ones at -P 2.
    let fake = FakeNcbi::rate_limited(budget_corpus());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let keyed: Vec<_> = (0..24)
        .map(|_| {
            pubmed(&["search", "hits300", "--count"])
                .server(&server)
                .default_pacing()
                .shared_budget(dir.path())
                .env("NCBI_API_KEY", "0123456789abcdef0123456789abcdef0123")
        })
        .collect();
    let keyless: Vec<_> = (0..8)
        .map(|_| {
            pubmed(&["search", "hits300", "--count"])
                .server(&server)
                .default_pacing()
                .shared_budget(dir.path())
        })
        .collect();
    let t0 = Instant::now();
    let count_ok = |r: &support::cli::Run| r.code == 0 && r.stdout == "300\n";
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| xargs(8, keyed, count_ok));
        let b = s.spawn(|| xargs(2, keyless, count_ok));
        (a.join().unwrap(), b.join().unwrap())
    });
    let wall = t0.elapsed();
    let k = server.max_per_second_where(|r| r.param("api_key").is_some());
    let nk = server.max_per_second_where(|r| r.param("api_key").is_none());
    let limited = fake.counters.rate_limited.load(Ordering::SeqCst);
    rows.push(Row {
        what: "shared budget: 24 keyed + 8 keyless searches at once".into(),
        figures: format!(
            "{} requests, {limited} × 429, key lane max {k} req in 1 s, keyless max {nk}, {:.2} s wall",
            server.count(),
            wall.as_secs_f64()
        ),
        target: "0 × 429, key ≤ 10/s, keyless ≤ 3/s".into(),
        met: Some(a && b && limited == 0 && k <= 10 && k > 3 && nk <= 3),
    });

    // The budget's cost per invocation, pacing off.
    let fake = FakeNcbi::new(budget_corpus());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let (on, ok_on) = median(20, || {
        pubmed(&["search", "hits300", "--count"])
            .server(&server)
            .shared_budget(dir.path())
            .run()
            .code
            == 0
    });
    let (off, ok_off) = median(20, || {
        pubmed(&["search", "hits300", "--count"])
            .server(&server)
            .env("PUBMED_SHARED_BUDGET", "0")
            .run()
            .code
            == 0
    });
    rows.push(Row {
        what: "shared budget: cost per `search --count`, pacing off".into(),
        figures: format!(
            "median {:.1} ms with the budget, {:.1} ms without (20 runs each)",
            ms(on),
            ms(off)
        ),
        target: "– (the per-request cost is `cargo bench --bench core budget`)".into(),
        met: (ok_on && ok_off).then_some(true),
    });
    rows
}

/// Issue 25 item 6: `related -f ids` of 50,000 inputs, 100 distinct linked
/// PMIDs each (5,000,000 lines), no pacing; peak RSS. The printed-PMID set
/// was a set of strings (1.0 GB at 50k inputs); now one bit per PMID.
fn related_ids_50k() -> Row {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pmids.txt");
    let inputs: Vec<u64> = (0..50_000u64).map(|i| 1_000_000 + i).collect();
    let text: String = inputs.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let links = |p: u64| -> Vec<(String, Option<u64>)> {
        let base = 30_000_000 + (p - 1_000_000) * 100;
        (0..100).map(|k| ((base + k).to_string(), None)).collect()
    };
    let server = TestServer::start(move |r| {
        let mut sets = Vec::new();
        for (k, v) in &r.params {
            if k != "id" {
                continue;
            }
            for p in v.split(',').filter_map(|p| p.trim().parse::<u64>().ok()) {
                sets.push(support::ncbi::ElinkSet {
                    ids: vec![p.to_string()],
                    linkname: "pubmed_pubmed".into(),
                    links: links(p),
                });
            }
        }
        support::server::Reply::xml(support::ncbi::elink(&sets))
    });
    let t0 = Instant::now();
    let run = pubmed(&[
        "related",
        "--input",
        path.to_str().unwrap(),
        "-f",
        "ids",
        "--retmax",
        "100",
    ])
    .server(&server)
    .env("PUBMED_DEADLINE_S", "120")
    .measure_rss()
    .run();
    let wall = t0.elapsed();
    let lines = run.stdout.lines().count();
    let mb = run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0;
    Row {
        what: "related -f ids, 50,000 inputs × 100 distinct links, no pacing".into(),
        figures: format!(
            "{lines} PMIDs, {} requests, {:.1} s, peak RSS {mb:.1} MB",
            server.count(),
            wall.as_secs_f64()
        ),
        target: "every link once, peak RSS < 64 MB".into(),
        met: Some(run.code == 0 && lines == 5_000_000 && mb > 0.0 && mb < 64.0),
    }
}

/// Issue 25 item 7: `search --all --detail brief` of 200,000 hits against
/// a fake whose summaries are rich (40 authors, a 2,000-character title:
/// about 3.5 KB each as JSON, 2–3× the usual), no pacing; peak RSS.
fn summaries_rich_200k(corpus: &Corpus) -> Row {
    let fake = FakeNcbi::new(corpus.clone());
    let f = fake.clone();
    let server = TestServer::start(move |r| {
        if !r.is("esummary.fcgi") {
            return f.reply(r);
        }
        f.counters.esummary.fetch_add(1, Ordering::SeqCst);
        let docs: Vec<_> = r
            .param("id")
            .unwrap_or_default()
            .split(',')
            .filter_map(|p| p.trim().parse::<u64>().ok())
            .map(|p| {
                let mut d = support::fake_ncbi::synthetic_doc(p);
                d.title = format!("{} {}", d.title, "Rich summary words. ".repeat(100));
                d.authors = (0..40).map(|i| format!("Author{i} Q")).collect();
                d
            })
            .collect();
        support::server::Reply::xml(support::ncbi::esummary(&docs, &[]))
    });
    let t0 = Instant::now();
    let run = pubmed(&[
        "search",
        "hits200000",
        "--all",
        "--detail",
        "brief",
        "-f",
        "ndjson",
    ])
    .server(&server)
    .env("PUBMED_DEADLINE_S", "120")
    .measure_rss()
    .run();
    let wall = t0.elapsed();
    let lines = run.stdout.lines().count();
    let esummary = fake.counters.esummary.load(Ordering::SeqCst);
    let mb = run.peak_rss_kb.unwrap_or(0) as f64 / 1024.0;
    Row {
        what: "search hits200000 --all --detail brief, rich summaries (~3.5 KB), no pacing".into(),
        figures: format!(
            "{lines} records, {esummary} ESummary, {:.1} s, peak RSS {mb:.1} MB",
            wall.as_secs_f64()
        ),
        target: "every record, peak RSS < 64 MB".into(),
        met: Some(run.code == 0 && lines == 200_000 && mb > 0.0 && mb < 64.0),
    }
}

/// Issue 25 item 8: `procs` processes of `search --count` at once with the
/// shared budget and default pacing, while busy threads (2 per core) load
/// the CPU; the gap between request arrivals is measured at the server,
/// which answers 429 above 3 requests per second.
fn pacing_loaded(procs: usize) -> Row {
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let burners: Vec<_> = (0..2 * cores)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    std::hint::black_box(x);
                }
            })
        })
        .collect();
    let fake = FakeNcbi::rate_limited(budget_corpus());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let jobs = (0..procs * 3)
        .map(|_| {
            pubmed(&["search", "hits300", "--count"])
                .server(&server)
                .default_pacing()
                .shared_budget(dir.path())
        })
        .collect();
    let ok = xargs(procs, jobs, |r| r.code == 0 && r.stdout == "300\n");
    stop.store(true, Ordering::Relaxed);
    for b in burners {
        let _ = b.join();
    }
    let mut times: Vec<Instant> = server.requests().iter().map(|r| r.at).collect();
    times.sort();
    let min_gap = times
        .windows(2)
        .map(|w| w[1] - w[0])
        .min()
        .unwrap_or_default();
    let limited = fake.counters.rate_limited.load(Ordering::SeqCst);
    let per_s = server.max_per_second();
    Row {
        what: format!(
            "pacing under CPU load (2 busy threads per core): {procs} processes × 3 `search --count`, shared budget"
        ),
        figures: format!(
            "{} requests, {limited} × 429, at most {per_s} in any 1 s, smallest gap between arrivals {:.0} ms",
            times.len(),
            ms(min_gap)
        ),
        target: "0 × 429, ≤ 3 in any 1 s".into(),
        met: Some(ok && limited == 0 && per_s <= 3),
    }
}

/// `pubmed mcp --http 127.0.0.1:0` against `server`: the child, its URL,
/// and its stderr as it arrives.
struct McpHttp {
    child: tokio::process::Child,
    url: String,
    log: Arc<std::sync::Mutex<Vec<String>>>,
    _home: tempfile::TempDir,
}

const MCP_INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;

impl McpHttp {
    async fn start(server: &TestServer) -> McpHttp {
        use tokio::io::AsyncBufReadExt;
        let home = tempfile::tempdir().unwrap();
        let mut child = support::mcp::command(server, home.path())
            .args(["--http", "127.0.0.1:0"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let log = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (tx, rx) = tokio::sync::oneshot::channel();
        let mut tx = Some(tx);
        let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let log2 = log.clone();
        tokio::spawn(async move {
            while let Ok(Some(l)) = lines.next_line().await {
                if let Some(at) = l.find("http://")
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(l[at..].split_whitespace().next().unwrap().to_string());
                }
                log2.lock().unwrap().push(l);
            }
        });
        let url = tokio::time::timeout(Duration::from_secs(10), rx)
            .await
            .unwrap()
            .unwrap();
        McpHttp {
            child,
            url,
            log,
            _home: home,
        }
    }

    fn log_bytes(&self) -> usize {
        self.log.lock().unwrap().iter().map(|l| l.len() + 1).sum()
    }

    /// `(VmRSS, VmHWM)` of the server in MB.
    fn rss_mb(&self) -> (f64, f64) {
        let pid = self.child.id().unwrap();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kb = |k: &str| -> f64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(k))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap()
                / 1024.0
        };
        (kb("VmRSS:"), kb("VmHWM:"))
    }

    fn post(&self, client: &reqwest::Client, body: &'static str) -> reqwest::RequestBuilder {
        client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body)
    }
}

fn runtime() -> tokio::runtime::Runtime {
    pubmed::ncbi::transport::install_tls_provider();
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Issue 27: 2,000 connections that send half their headers and stay open,
/// then a well-behaved client (rmcp's streamable-HTTP client: initialize and
/// one `pubmed_spell_check` call); the connections are held past the 10 s
/// header timeout. Figures: the client's time to its answer, the server log.
fn mcp_http_half_open() -> Row {
    use rmcp::ServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    let fake = support::mcp::fake();
    let server = start(&fake);
    let rt = runtime();
    rt.block_on(async {
        let http = McpHttp::start(&server).await;
        let addr = http.url.trim_start_matches("http://").trim_end_matches("/mcp").to_string();
        let mut idle = Vec::new();
        for _ in 0..2_000 {
            use tokio::io::AsyncWriteExt;
            let c = tokio::net::TcpStream::connect(&addr);
            if let Ok(Ok(mut s)) = tokio::time::timeout(Duration::from_secs(5), c).await {
                let _ = s.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n").await;
                idle.push(s);
            }
        }
        let t0 = Instant::now();
        let served = tokio::time::timeout(Duration::from_secs(30), async {
            let t = StreamableHttpClientTransport::from_uri(http.url.as_str());
            let c = ().serve(t).await.ok()?;
            let args = serde_json::json!({"query": "asthmaa OR alergies"});
            let p = rmcp::model::CallToolRequestParams::new("pubmed_spell_check")
                .with_arguments(args.as_object().cloned().unwrap());
            let r = c.call_tool(p).await.ok()?;
            Some(r.structured_content?["corrected"] == "asthma OR allergies")
        })
        .await;
        let wait = t0.elapsed();
        let ok = matches!(served, Ok(Some(true)));
        tokio::time::sleep(Duration::from_secs(12).saturating_sub(t0.elapsed())).await;
        let held = idle.len();
        drop(idle);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let log = http.log_bytes();
        Row {
            what: "mcp --http, 2,000 half-open connections".into(),
            figures: format!(
                "{held} opened; client served (initialize + spell check) in {} ms{}; log {log} bytes after 12 s",
                wait.as_millis(),
                if ok { "" } else { " (NOT served)" }
            ),
            target: "served ≤ 2 s, log < 1 MB".into(),
            met: Some(ok && wait <= Duration::from_secs(2) && log < 1_000_000),
        }
    })
}

/// Issue 27: 100,000 `initialize` attempts (16 at a time) in 10 rounds of
/// 10,000, the rounds' sessions ended by `DELETE` between rounds (so 256
/// sessions are created and freed each round, the rest refused with 503).
/// Figures: outcomes, the server's RSS at the end and at its peak.
fn mcp_http_sessions() -> Row {
    let fake = support::mcp::fake();
    let server = start(&fake);
    let rt = runtime();
    rt.block_on(async {
        let http = Arc::new(McpHttp::start(&server).await);
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let (mut ok, mut busy, mut other, mut deleted) = (0usize, 0usize, 0usize, 0usize);
        let t0 = Instant::now();
        for _round in 0..10 {
            let mut tasks = tokio::task::JoinSet::new();
            for w in 0..16 {
                let (http, client) = (http.clone(), client.clone());
                tasks.spawn(async move {
                    let (mut ids, mut busy, mut other) = (Vec::new(), 0, 0);
                    for _ in (w..10_000).step_by(16) {
                        match http.post(&client, MCP_INIT).send().await {
                            Ok(r) if r.status() == 200 => {
                                if let Some(id) = r.headers().get("mcp-session-id") {
                                    ids.push(id.to_str().unwrap().to_string());
                                }
                            }
                            Ok(r) if r.status() == 503 => busy += 1,
                            _ => other += 1,
                        }
                    }
                    (ids, busy, other)
                });
            }
            while let Some(r) = tasks.join_next().await {
                let (ids, b, o) = r.unwrap();
                ok += ids.len();
                busy += b;
                other += o;
                for id in ids {
                    let r = client
                        .delete(&http.url)
                        .header("mcp-session-id", id)
                        .send()
                        .await;
                    deleted += usize::from(r.is_ok_and(|r| r.status() == 200));
                }
            }
        }
        let wall = t0.elapsed();
        let (rss, peak) = http.rss_mb();
        Row {
            what: "mcp --http, 100,000 initialize attempts".into(),
            figures: format!(
                "{ok} sessions (all {deleted} deleted), {busy} refused 503, {other} other; {:.1} s; RSS {rss:.1} MB at the end, peak {peak:.1} MB; log {} bytes",
                wall.as_secs_f64(),
                http.log_bytes()
            ),
            target: "RSS < 200 MB".into(),
            met: Some(peak < 200.0 && other == 0 && ok + busy == 100_000),
        }
    })
}

/// A `fetch` of `ids` sharing the cache in `dir`, pacing as configured;
/// (run, wall time).
fn cached_fetch(
    server: &TestServer,
    dir: &std::path::Path,
    ids: &[u64],
    gap: &str,
) -> (support::cli::Run, Duration) {
    let text: String = ids.iter().map(|p| format!("{p}\n")).collect();
    let t0 = Instant::now();
    let run = pubmed(&["fetch", "--input", "-", "-f", "ndjson"])
        .server(server)
        .env("PUBMED_REQUEST_GAP_MS", gap)
        .env("PUBMED_DEADLINE_S", "60")
        .env("PUBMED_CACHE_DIR", dir.to_str().unwrap())
        .stdin(text)
        .run();
    (run, t0.elapsed())
}

/// The latency the fake adds to model NCBI for a user's first run: one
/// keyless slot (400 ms, 3 requests per second), the floor other rows
/// measure against. A lower bound: NCBI takes longer to answer 1,000 PMIDs.
const NCBI_SLOT: Duration = Duration::from_millis(400);

/// The cache (docs/cache.md): the same 1,000-PMID fetch twice (the first
/// run unpaced against the fake, and with the fake answering at NCBI's
/// pace); a 50 %-cached fetch of 2,000; lookup cost per record and the
/// file's size with 100,000 records.
fn cache_rows() -> Vec<Row> {
    let fake = FakeNcbi::rate_limited(Corpus::default());
    let server = start(&fake);
    let ids: Vec<u64> = (0..1000u64).map(|i| 3_000_000 + i * 7).collect();
    // A user's first run: NCBI answers in its slot.
    let paced = {
        let f = FakeNcbi::new(Corpus::default());
        TestServer::start(move |r| support::server::Reply::Slow(NCBI_SLOT, Box::new(f.reply(r))))
    };
    let paced_dir = tempfile::tempdir().unwrap();
    let (p, tp) = cached_fetch(&paced, paced_dir.path(), &ids, "");
    let dir = tempfile::tempdir().unwrap();
    let (a, t1) = cached_fetch(&server, dir.path(), &ids, "0");
    let n1 = server.count();
    // The second run, five times (the median): process start, the
    // database opened, 1,000 lookups, parsing and writing.
    let mut seconds = Vec::new();
    let mut same = true;
    for _ in 0..5 {
        let (b, t2) = cached_fetch(&server, dir.path(), &ids, "");
        same &= b.code == 0 && b.stdout == a.stdout && b.stdout == p.stdout;
        seconds.push(t2);
    }
    seconds.sort();
    let t2 = seconds[2];
    let n2 = server.count() - n1;
    let pct = |first: Duration| 100.0 * t2.as_secs_f64() / first.as_secs_f64();
    let twice = Row {
        what: "cache: the same 1,000-PMID fetch twice".into(),
        figures: format!(
            "first {n1} request: {:.0} ms unpaced against the fake, {:.0} ms with the fake answering in NCBI's 400 ms slot; second {n2} requests, {:.1} ms (median of 5) = {:.1} % of the unpaced first, {:.1} % of the paced first",
            ms(t1),
            ms(tp),
            ms(t2),
            pct(t1),
            pct(tp)
        ),
        target: "second: 0 requests, < 5 % of the first".into(),
        met: Some(a.code == 0 && p.code == 0 && same && n2 == 0 && pct(tp) < 5.0),
    };
    let half_ids: Vec<u64> = (0..2000u64).map(|i| 6_000_000 + i).collect();
    let even: Vec<u64> = half_ids.iter().copied().filter(|p| p % 2 == 0).collect();
    cached_fetch(&server, dir.path(), &even, "");
    fake.efetch_batches.lock().unwrap().clear();
    let (h, th) = cached_fetch(&server, dir.path(), &half_ids, "");
    let sent = std::mem::take(&mut *fake.efetch_batches.lock().unwrap());
    let odd: Vec<String> = half_ids
        .iter()
        .filter(|p| *p % 2 == 1)
        .map(u64::to_string)
        .collect();
    let flat: Vec<String> = sent.concat();
    let half = Row {
        what: "cache: 2,000 PMIDs, 1,000 cached".into(),
        figures: format!(
            "{} requests for {} PMIDs (exactly the missing: {}), {:.0} ms",
            sent.len(),
            flat.len(),
            flat == odd,
            ms(th)
        ),
        target: "exactly the 1,000 missing, 1 request (EFetch's 1,000)".into(),
        met: Some(h.code == 0 && flat == odd && sent.len() == 1),
    };
    let big = tempfile::tempdir().unwrap();
    let plain = FakeNcbi::new(Corpus::default());
    let server = start(&plain);
    let many: Vec<u64> = (0..100_000u64).map(|i| 2_000_000 + i * 37).collect();
    let (f, tf) = cached_fetch(&server, big.path(), &many, "0");
    let (g, tg) = cached_fetch(&server, big.path(), &many, "0");
    let bytes = std::fs::metadata(big.path().join("cache.sqlite3")).map_or(0, |m| m.len())
        + std::fs::metadata(big.path().join("cache.sqlite3-wal")).map_or(0, |m| m.len());
    let per = tg.as_secs_f64() * 1e6 / 100_000.0;
    let lookup = Row {
        what: "cache: 100,000 records from the cache".into(),
        figures: format!(
            "fetch and store {:.1} s; from the cache {:.1} s = {per:.1} µs per record (lookup, parse, write); {:.1} MB on disk ({:.0} bytes per record)",
            tf.as_secs_f64(),
            tg.as_secs_f64(),
            bytes as f64 / 1e6,
            bytes as f64 / 100_000.0
        ),
        target: "–".into(),
        met: Some(f.code == 0 && g.code == 0 && g.stdout.lines().count() == 100_000),
    };
    vec![twice, half, lookup]
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let corpus = Corpus::synthetic();
    let benches: Vec<Bench> = vec![
        ("overhead", Box::new(overhead)),
        (
            "search_all",
            Box::new({
                let corpus = corpus.clone();
                move || vec![search_all_30k(&corpus)]
            }),
        ),
        (
            "summaries_200k",
            Box::new({
                let corpus = corpus.clone();
                move || vec![search_all_200k_summaries(&corpus)]
            }),
        ),
        (
            "summaries_rich",
            Box::new(move || vec![summaries_rich_200k(&corpus)]),
        ),
        ("related_ids", Box::new(|| vec![related_ids_50k()])),
        (
            "pacing_loaded",
            Box::new(|| vec![pacing_loaded(2), pacing_loaded(16)]),
        ),
        ("convert_10k", Box::new(|| vec![convert_10k()])),
        ("convert_1m", Box::new(|| vec![convert_1m_rss()])),
        ("convert_slow", Box::new(|| vec![convert_slow_producer()])),
        ("fetch_100k", Box::new(|| vec![fetch_100k()])),
        ("fulltext_1k", Box::new(|| vec![fulltext_1k()])),
        ("budget", Box::new(budget)),
        (
            "mcp_http_half_open",
            Box::new(|| vec![mcp_http_half_open()]),
        ),
        ("mcp_http_sessions", Box::new(|| vec![mcp_http_sessions()])),
        ("cache", Box::new(cache_rows)),
    ];
    let mut rows = Vec::new();
    for (name, f) in &benches {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        rows.extend(f());
    }
    println!("| benchmark | figures | target | met |");
    println!("| --- | --- | --- | --- |");
    for r in rows {
        let met = match r.met {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "–",
        };
        println!("| {} | {} | {} | {met} |", r.what, r.figures, r.target);
    }
}
