//! The engine against a toy operation (no NCBI): order, chunks, dedupe,
//! groups, a local cache, progress, failures and the exit rule, under
//! paused tokio time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::*;
use crate::ncbi::ClientSettings;
use crate::ncbi::transport::{HttpRequest, SendFuture, Transport};
use crate::ops::record::{RecordError, RecordReason};

/// A transport that is never used: the toy operation answers itself.
struct NoNetwork;

impl Transport for NoNetwork {
    fn send(&self, _: HttpRequest) -> SendFuture<'_> {
        Box::pin(async { panic!("the toy operation sends no HTTP request") })
    }
}

fn client() -> Client {
    Client::with_transport(ClientSettings::default(), Arc::new(NoNetwork))
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Toy {
    requested: String,
    outcome: std::result::Result<String, RecordError>,
}

impl Outcome for Toy {
    fn failure(&self) -> Option<Failed<'_>> {
        self.outcome.as_ref().err().map(RecordError::failed)
    }
}

/// Lines are numbers; `n` is in group `n % groups`; the answer of key `n`
/// is `"#n"`; a number at or above `cached_from` is answered locally;
/// keys in `failing` fail their chunk. Each request is logged, and the
/// first requests answer last (later chunks overtake earlier ones).
struct ToyOp {
    client: Client,
    policy: ChunkPolicy,
    groups: u32,
    cached_from: u32,
    failing: Vec<u32>,
    sent: Mutex<Vec<(u32, Vec<u32>)>>,
}

impl ToyOp {
    fn new(policy: ChunkPolicy) -> Self {
        ToyOp {
            client: client(),
            policy,
            groups: 1,
            cached_from: u32::MAX,
            failing: Vec::new(),
            sent: Mutex::new(Vec::new()),
        }
    }

    fn sent(&self) -> Vec<(u32, Vec<u32>)> {
        self.sent.lock().unwrap().clone()
    }
}

impl Op for ToyOp {
    type Line = InputLine;
    type Group = u32;
    type Key = u32;
    type Input = String;
    type Answer = HashMap<u32, String>;
    type Record = Toy;
    type Counts = u64;

    fn client(&self) -> &Client {
        &self.client
    }

    fn policy(&self) -> ChunkPolicy {
        self.policy
    }

    fn check(&self, arg: &str) -> Result<()> {
        arg.parse::<u32>()
            .map(drop)
            .map_err(|_| Error::new(Reason::MalformedId, format!("{arg} is not a number")))
    }

    fn admit(&self, line: InputLine) -> Admit<Self> {
        let InputLine::Id(raw) = line else {
            return Admit::Skip;
        };
        match raw.parse::<u32>() {
            Ok(n) => Admit::Ask {
                group: n % self.groups,
                key: n,
                cost: 1,
                input: raw,
            },
            Err(_) => Admit::Done(Toy {
                outcome: Err(RecordError::new(RecordReason::MalformedId, "not a number")),
                requested: raw,
            }),
        }
    }

    fn cached(&self, _: u32, key: &u32, input: &String) -> Option<(Toy, i64)> {
        (*key >= self.cached_from).then(|| {
            let toy = Toy {
                requested: input.clone(),
                outcome: Ok(format!("cached #{key}")),
            };
            // Fetched at the key's second, so the oldest is the smallest key.
            (toy, i64::from(*key))
        })
    }

    fn request(&self, group: u32, keys: Vec<u32>) -> BoxFuture<'_, Result<Self::Answer>> {
        let nth = {
            let mut sent = self.sent.lock().unwrap();
            sent.push((group, keys.clone()));
            sent.len() as u64
        };
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(1000 / nth)).await;
            if keys.iter().any(|k| self.failing.contains(k)) {
                return Err(Error::new(Reason::NcbiRateLimited, "429").with_retry_after(7));
            }
            Ok(keys.iter().map(|k| (*k, format!("#{k}"))).collect())
        })
    }

    fn record(
        &self,
        requested: String,
        key: &u32,
        answer: std::result::Result<&mut Self::Answer, &Error>,
        last: bool,
    ) -> Toy {
        let outcome = match answer {
            Err(e) => Err(RecordError::request(e)),
            Ok(map) if last => Ok(map.remove(key).expect("every key answered")),
            Ok(map) => Ok(map[key].clone()),
        };
        Toy { requested, outcome }
    }

    fn count(counts: &mut u64, r: &Toy) {
        *counts += u64::from(r.outcome.as_ref().is_ok_and(|s| s.starts_with("cached")));
    }
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

/// Everything the sink saw: records (or `None` for a skipped line) and
/// progress events.
#[derive(Default)]
struct Seen {
    items: Vec<Option<Toy>>,
    progress: Vec<Progress>,
}

fn run_lines(op: &ToyOp, lines: Vec<InputLine>) -> (Seen, Totals<u64>) {
    let mut seen = Seen::default();
    let totals = paused().block_on(async {
        let mut sink = |o: Output<'_, Toy>| {
            match o {
                Output::Record(r) => seen.items.push(Some(r.clone())),
                Output::Skipped => seen.items.push(None),
                Output::Progress(p) => seen.progress.push(p),
                Output::Flush => {}
            }
            Ok(())
        };
        let input = futures::stream::iter(lines.into_iter().map(Ok));
        run(op, input, &mut sink).await.expect("the run ends")
    });
    (seen, totals)
}

fn ids(raw: &[&str]) -> Vec<InputLine> {
    raw.iter()
        .map(|s| match *s {
            "" => InputLine::Skip,
            s => InputLine::Id(s.to_string()),
        })
        .collect()
}

#[test]
fn file_lines() {
    assert_eq!(
        InputLine::from_file_line("\u{FEFF}123\r", true),
        InputLine::Id("123".into())
    );
    assert_eq!(
        InputLine::from_file_line("\u{FEFF}123", false),
        InputLine::Id("\u{FEFF}123".into())
    );
    assert_eq!(
        InputLine::from_file_line("  # note", false),
        InputLine::Skip
    );
    assert_eq!(InputLine::from_file_line(" \t\r", false), InputLine::Skip);
    assert_eq!(
        InputLine::from_file_line("  PMC1  ", false),
        InputLine::Id("PMC1".into())
    );
}

/// 450 distinct keys (each once more later, while its chunk is live), a
/// skipped and a malformed line: chunks of 200, 200 and 50 distinct keys,
/// answered in reverse, handed out in input order, every line once.
#[test]
fn records_come_in_input_order_and_repeats_share_a_chunk() {
    let op = ToyOp::new(ChunkPolicy::simple(200, 4));
    let mut raw: Vec<String> = Vec::new();
    for n in 0..450u32 {
        raw.push(n.to_string());
        if n % 50 == 49 {
            raw.push((n - 10).to_string());
        }
    }
    raw.insert(3, String::new());
    raw.insert(7, "x".into());
    let lines = ids(&raw.iter().map(String::as_str).collect::<Vec<_>>());
    let (seen, totals) = run_lines(&op, lines);
    let sizes: Vec<usize> = op.sent().iter().map(|(_, k)| k.len()).collect();
    assert_eq!(sizes, vec![200, 200, 50]);
    let sent: Vec<u32> = op.sent().into_iter().flat_map(|(_, k)| k).collect();
    assert_eq!(sent, (0..450).collect::<Vec<_>>());
    assert_eq!(seen.items.len(), raw.len());
    for (item, want) in seen.items.iter().zip(&raw) {
        match (item, want.as_str()) {
            (None, "") => {}
            (Some(t), "x") => assert_eq!(
                t.outcome.as_ref().unwrap_err().reason,
                RecordReason::MalformedId
            ),
            (Some(t), n) => {
                assert_eq!(t.requested, n);
                assert_eq!(t.outcome.as_deref(), Ok(format!("#{n}").as_str()));
            }
            (None, w) => panic!("{w} skipped"),
        }
    }
    assert_eq!(totals.submitted, raw.len() as u64 - 1);
    assert_eq!((totals.succeeded, totals.failed), (totals.submitted - 1, 1));
    assert_eq!(totals.by_reason["malformed_id"], 1);
    assert_eq!(totals.exit(), Exit::Success);
}

/// Issue 30's cache: 1,000 inputs of which 900 are answered locally cost
/// one request, for the 100 others.
#[test]
fn inputs_answered_locally_are_not_chunked() {
    let op = ToyOp {
        cached_from: 100,
        ..ToyOp::new(ChunkPolicy::simple(200, 4))
    };
    let raw: Vec<String> = (0..1000u32).map(|n| ((n * 7) % 1000).to_string()).collect();
    let (seen, totals) = run_lines(
        &op,
        ids(&raw.iter().map(String::as_str).collect::<Vec<_>>()),
    );
    let sent = op.sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].1.len(), 100);
    assert_eq!(totals.counts, 900);
    assert_eq!(totals.succeeded, 1000);
    assert_eq!(totals.from_cache, 900);
    assert_eq!(totals.cache_oldest, Some(100));
    let got: Vec<&str> = seen
        .items
        .iter()
        .map(|t| t.as_ref().unwrap().requested.as_str())
        .collect();
    assert_eq!(got, raw);
}

/// Keys of two groups never share a chunk; every answered chunk reports
/// how far the run is, the total once the input has ended.
#[test]
fn groups_have_their_own_chunks_and_progress_counts_records() {
    let op = ToyOp {
        groups: 2,
        ..ToyOp::new(ChunkPolicy::simple(10, 2))
    };
    let raw: Vec<String> = (0..25u32).map(|n| n.to_string()).collect();
    let (seen, _) = run_lines(
        &op,
        ids(&raw.iter().map(String::as_str).collect::<Vec<_>>()),
    );
    for (group, keys) in op.sent() {
        assert!(keys.iter().all(|k| k % 2 == group), "{group}: {keys:?}");
    }
    assert_eq!(op.sent().len(), 4);
    let last = seen.progress.last().unwrap();
    assert_eq!((last.done, last.total), (25, Some(25)));
    assert!(seen.progress.windows(2).all(|w| w[0].done <= w[1].done));
    assert_eq!(seen.progress.len(), 4);
}

/// A stalled input sends its partial chunk after the idle time, not when
/// the input ends.
#[test]
fn a_stalled_input_sends_its_partial_chunk() {
    let op = ToyOp::new(ChunkPolicy::simple(200, 4));
    let sent_at = paused().block_on(async {
        let t0 = Instant::now();
        let lines = futures::stream::iter(ids(&["1", "2", "3"]).into_iter().map(Ok)).chain(
            futures::stream::once(async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                Ok(InputLine::Id("4".into()))
            }),
        );
        let mut first = None;
        let mut sink = |o: Output<'_, Toy>| {
            if let Output::Record(_) = o {
                first.get_or_insert_with(Instant::now);
            }
            Ok(())
        };
        run(&op, Box::pin(lines), &mut sink).await.unwrap();
        first.unwrap() - t0
    });
    assert_eq!(op.sent().len(), 2);
    assert_eq!(op.sent()[0].1, vec![1, 2, 3]);
    // idle 250 ms, then the toy's 1 s answer
    assert_eq!(sent_at, IDLE_FLUSH + Duration::from_secs(1));
}

/// A chunk that fails gives each of its inputs the failure; the first in
/// input order is the run's, with its retry advice, and decides the exit.
#[test]
fn a_failed_chunk_fails_its_inputs_and_the_run() {
    let op = ToyOp {
        failing: vec![12],
        ..ToyOp::new(ChunkPolicy::simple(10, 4))
    };
    let raw: Vec<String> = (0..30u32).map(|n| n.to_string()).collect();
    let (seen, totals) = run_lines(
        &op,
        ids(&raw.iter().map(String::as_str).collect::<Vec<_>>()),
    );
    let failed: Vec<usize> = seen
        .items
        .iter()
        .enumerate()
        .filter(|(_, t)| t.as_ref().unwrap().outcome.is_err())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(failed, (10..20).collect::<Vec<_>>());
    assert_eq!(totals.by_reason["ncbi_rate_limited"], 10);
    let e = totals.failure().unwrap();
    assert_eq!(
        (e.reason, e.retry_after),
        (Reason::NcbiRateLimited, Some(7))
    );
    assert_eq!(totals.exit(), Exit::TempFail);
}

/// IDs given at once are checked first: a bad one fails the call before
/// any request; good ones come back in order.
#[test]
fn collect_checks_every_id_before_any_request() {
    let op = ToyOp::new(ChunkPolicy::simple(200, 4));
    let rt = paused();
    let e = rt
        .block_on(collect(&op, &["1".into(), "x".into()]))
        .unwrap_err();
    assert_eq!(e.reason, Reason::MalformedId);
    assert!(op.sent().is_empty());
    let (records, totals) = rt
        .block_on(collect(&op, &["2".into(), "1".into(), "2".into()]))
        .unwrap();
    let got: Vec<&str> = records
        .iter()
        .map(|r| r.outcome.as_deref().unwrap())
        .collect();
    assert_eq!(got, ["#2", "#1", "#2"]);
    assert_eq!(op.sent(), vec![(0, vec![2, 1])]);
    assert_eq!(totals.submitted, 3);
}

#[test]
fn the_batch_rule() {
    let failure = Error::new(Reason::NcbiUnreachable, "x");
    assert_eq!(exit(None, 3, 1), Exit::Success);
    assert_eq!(exit(None, 3, 0), Exit::NotFound);
    assert_eq!(exit(None, 0, 0), Exit::Success);
    assert_eq!(exit(Some(&failure), 3, 3).code(), 69);
}

/// A key whose last waiting input was handed out while its chunk still
/// lives (a repeat of another of its keys waits behind a later chunk):
/// that key's part of the answer is gone, so a repeat arriving now must go
/// into a new chunk, not wait on the answered one and find nothing there
/// (which `fetch` would report as not found).
#[test]
fn a_repeat_after_its_keys_part_was_taken_is_asked_again() {
    let op = ToyOp::new(ChunkPolicy::simple(3, 2));
    // 1, 2, 3 fill chunk A (sent at 0, answered at 1 s); 4 opens B (sent
    // at 1 s by age, answered at 1.5 s); 2 repeats within A; blank lines
    // keep the input busy; 1 comes again at 1.1 s, after A's answer gave
    // 1 and 3 their records and while B holds the head.
    let mut timed: Vec<(u64, InputLine)> = ids(&["1", "2", "3", "4", "2"])
        .into_iter()
        .map(|l| (0, l))
        .collect();
    timed.extend((0..5).map(|_| (200, InputLine::Skip)));
    timed.push((100, InputLine::Id("1".into())));
    let mut seen = Vec::new();
    paused().block_on(async {
        let input = Box::pin(futures::stream::iter(timed).then(|(ms, line)| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(line)
        }));
        let mut sink = |o: Output<'_, Toy>| {
            if let Output::Record(r) = o {
                seen.push((r.requested.clone(), r.outcome.clone()));
            }
            Ok(())
        };
        run(&op, input, &mut sink).await.expect("the run ends")
    });
    let want: Vec<(String, std::result::Result<String, RecordError>)> =
        ["1", "2", "3", "4", "2", "1"]
            .iter()
            .map(|n| (n.to_string(), Ok(format!("#{n}"))))
            .collect();
    assert_eq!(seen, want);
    let sent: Vec<Vec<u32>> = op.sent().into_iter().map(|(_, k)| k).collect();
    assert_eq!(sent, vec![vec![1, 2, 3], vec![4], vec![1]]);
}
