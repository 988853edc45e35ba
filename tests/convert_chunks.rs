//! Convert chunk formation (docs/convert.md "Chunks"): a request carries
//! 200 IDs of one type whenever that many wait; a partial chunk goes only
//! when a request can start and the input has ended, stalled or kept it
//! waiting about 1 s. Runs the engine on an in-process transport around the
//! fake NCBI's ID Converter, under paused tokio time with NCBI's pacing
//! (400 ms between requests), so the pacer really is the bottleneck.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use proptest::prelude::*;
use pubmed::core::ids::IdType;
use pubmed::ncbi::transport::{HttpRequest, HttpResponse, Method, SendFuture, Transport};
use pubmed::ncbi::{Client, ClientSettings, Policy};
use pubmed::ops::batch::{InputLine, Output};
use pubmed::ops::convert::{ConvertRecord, convert_stream};
use support::fake_ncbi::{Corpus, FakeNcbi, PMC_OFFSET, article};
use support::server::{Reply, Request};
use tokio::time::Instant;

/// NCBI's keyless gap between request starts.
const GAP: Duration = Duration::from_millis(400);
/// IDs per ID Converter request (NCBI's limit).
const CHUNK: usize = 200;

/// The fake NCBI without sockets; records each request's start (tokio time).
struct InProcess {
    fake: Arc<FakeNcbi>,
    starts: Mutex<Vec<Instant>>,
}

impl Transport for InProcess {
    fn send(&self, req: HttpRequest) -> SendFuture<'_> {
        Box::pin(async move {
            self.starts.lock().unwrap().push(Instant::now());
            let path = req.url.splitn(4, '/').nth(3).unwrap_or_default();
            let r = Request {
                method: match req.method {
                    Method::Get => "GET".into(),
                    Method::Post => "POST".into(),
                },
                path: format!("/{path}"),
                params: req.params.clone(),
                headers: Vec::new(),
                at: std::time::Instant::now(),
            };
            let Reply::Full {
                status,
                headers,
                body,
            } = self.fake.reply(&r)
            else {
                panic!("the fake's ID Converter answers in full");
            };
            let header = |n: &str| {
                headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(n))
                    .map(|(_, v)| v.clone())
            };
            Ok(HttpResponse {
                url: req.url,
                status,
                retry_after: header("Retry-After"),
                content_type: header("Content-Type"),
                body: Bytes::from(body),
            })
        })
    }
}

fn client(gap: Duration) -> (Client, Arc<InProcess>, Arc<FakeNcbi>) {
    client_sharing(gap, None)
}

/// [`client`], booking its starts in the shared budget in `budget_dir`.
fn client_sharing(
    gap: Duration,
    budget_dir: Option<std::path::PathBuf>,
) -> (Client, Arc<InProcess>, Arc<FakeNcbi>) {
    let fake = FakeNcbi::new(Corpus::default());
    let transport = Arc::new(InProcess {
        fake: fake.clone(),
        starts: Mutex::new(Vec::new()),
    });
    let client = Client::with_transport(
        ClientSettings {
            idconv_url: "http://127.0.0.1:9/tools/idconv/api/v1/articles/".into(),
            policy: Policy {
                request_gap: Some(gap),
                ..Policy::default()
            },
            budget_dir,
            ..Default::default()
        },
        transport.clone(),
    );
    (client, transport, fake)
}

/// The `k`-th ID of a type (distinct per `k`), as a user writes it.
fn id(t: IdType, k: u64) -> String {
    let pmid = 1_000_000 + k;
    match t {
        IdType::Pmid => pmid.to_string(),
        IdType::Pmcid => format!("PMC{}", pmid + PMC_OFFSET),
        IdType::Doi => format!("10.5555/pmid.{pmid}"),
    }
}

fn fake_type(t: IdType) -> &'static str {
    t.as_str()
}

/// Input lines from type tags: 0–2 an ID of that type (each distinct),
/// 3 a comment, 4 a malformed ID.
fn lines(tags: &[u8]) -> Vec<InputLine> {
    tags.iter()
        .enumerate()
        .map(|(i, tag)| match tag {
            0 => InputLine::Id(id(IdType::Pmid, i as u64)),
            1 => InputLine::Id(id(IdType::Pmcid, i as u64)),
            2 => InputLine::Id(id(IdType::Doi, i as u64)),
            3 => InputLine::Skip,
            _ => InputLine::Id(format!("PMCX{i}")),
        })
        .collect()
}

/// The fewest requests for these lines: per ID type, ceil(n / 200).
fn minimum(tags: &[u8]) -> usize {
    (0u8..3)
        .map(|t| tags.iter().filter(|x| **x == t).count().div_ceil(CHUNK))
        .sum()
}

/// What came out, with the tokio time each record was handed out.
#[derive(Default)]
struct Out {
    records: Vec<(Instant, ConvertRecord)>,
    skipped: usize,
}

async fn run<S>(client: &Client, input: S) -> (Out, u64)
where
    S: futures::Stream<Item = std::io::Result<InputLine>> + Unpin,
{
    let mut out = Out::default();
    let mut sink = |o: Output<'_, ConvertRecord>| {
        match o {
            Output::Record(r) => out.records.push((Instant::now(), r.clone())),
            Output::Skipped => out.skipped += 1,
            Output::Progress(_) | Output::Flush => {}
        }
        Ok(())
    };
    let totals = convert_stream(client, input, None, &mut sink)
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
    (out, totals.requests)
}

/// Every input line is answered once, in order, with the fake's mapping.
fn check_records(input: &[InputLine], out: &Out) {
    let ids: Vec<&String> = input
        .iter()
        .filter_map(|l| match l {
            InputLine::Id(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(out.records.len(), ids.len());
    assert_eq!(
        out.skipped,
        input.iter().filter(|l| **l == InputLine::Skip).count()
    );
    for ((_, r), want) in out.records.iter().zip(&ids) {
        assert_eq!(&&r.requested, want);
        if want.starts_with("PMCX") {
            assert_eq!(
                r.outcome.as_ref().unwrap_err().reason.as_str(),
                "malformed_id"
            );
            continue;
        }
        let t = pubmed::core::ids::detect(want).unwrap().idtype;
        match article(fake_type(t), want) {
            Some((pmid, pmcid, doi)) => {
                assert_eq!(
                    r.get(IdType::Pmid),
                    Some(pmid.to_string().as_str()),
                    "{want}"
                );
                assert_eq!(r.get(IdType::Pmcid), Some(pmcid.as_str()));
                assert_eq!(r.get(IdType::Doi), Some(doi.as_str()));
            }
            None => assert_eq!(
                r.outcome.as_ref().unwrap_err().reason.as_str(),
                "not_in_pmc"
            ),
        }
    }
}

/// Every ID was sent once, in chunks of one type; all but each type's
/// last chunk hold 200.
fn check_batches(fake: &FakeNcbi, tags: &[u8]) {
    let batches = fake.idconv_batches.lock().unwrap().clone();
    for (tag, t) in [(0u8, IdType::Pmid), (1, IdType::Pmcid), (2, IdType::Doi)] {
        let sizes: Vec<usize> = batches
            .iter()
            .filter(|(ty, _)| ty == fake_type(t))
            .map(|(_, ids)| ids.len())
            .collect();
        let n = tags.iter().filter(|x| **x == tag).count();
        assert_eq!(sizes.iter().sum::<usize>(), n, "{t:?}: {sizes:?}");
        if let Some((_, full)) = sizes.split_last() {
            assert!(full.iter().all(|s| *s == CHUNK), "{t:?}: {sizes:?}");
        }
    }
}

/// Runs the engine, paced at NCBI's gap under paused time, on the lines of
/// `tags` all available at once; checks every record; gives the requests
/// made and the fake (for its batches).
fn run_all_available(tags: &[u8]) -> (u64, Arc<FakeNcbi>) {
    let (client, _, fake) = client(GAP);
    let input = lines(tags);
    let (out, requests) = paused().block_on(run(
        &client,
        futures::stream::iter(input.clone().into_iter().map(Ok)),
    ));
    check_records(&input, &out);
    (requests, fake)
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Input all available, any mix and order of types (runs of one type,
    /// interleavings, rare types), comments and malformed lines: exactly
    /// the fewest requests, each record once and in order.
    #[test]
    fn all_available_input_costs_the_minimum(
        tags in prop_oneof![
            prop::collection::vec(0u8..5, 0..1500),
            prop::collection::vec(prop_oneof![8 => Just(0u8), 1 => Just(1), 1 => Just(2)], 0..1500),
            prop::collection::vec((0u8..3, 1usize..400), 0..8)
                .prop_map(|runs| runs.into_iter().flat_map(|(t, n)| vec![t; n]).collect()),
        ]
    ) {
        let (requests, fake) = run_all_available(&tags);
        prop_assert_eq!(requests as usize, minimum(&tags));
        check_batches(&fake, &tags);
    }
}

/// Shuffled type tags: `n` IDs, type `i % 3` at a pseudo-random place.
fn mixed(n: usize, seed: u64) -> Vec<u8> {
    let mut tags: Vec<u8> = (0..n).map(|i| (i % 3) as u8).collect();
    let mut x = seed;
    for i in (1..tags.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        tags.swap(i, (x % (i as u64 + 1)) as usize);
    }
    tags
}

/// 10,000 mixed IDs, more than the reorder buffer holds, paced at 400 ms:
/// the 51 requests of the floor (3,334 + 3,333 + 3,333 IDs), each one gap
/// after the last, so the run takes the floor's 50 gaps.
#[test]
fn ten_thousand_mixed_ids_at_the_floor() {
    let tags = mixed(10_000, 7);
    assert_eq!(minimum(&tags), 17 + 17 + 17);
    let (client, transport, fake) = client(GAP);
    let input = lines(&tags);
    let rt = paused();
    let t0 = rt.block_on(async { Instant::now() });
    let (out, requests) = rt.block_on(run(
        &client,
        futures::stream::iter(input.clone().into_iter().map(Ok)),
    ));
    check_records(&input, &out);
    assert_eq!(requests, 51);
    check_batches(&fake, &tags);
    let starts = transport.starts.lock().unwrap().clone();
    assert_eq!(starts[0], t0, "the first chunk goes at once");
    for w in starts.windows(2) {
        assert_eq!(w[1] - w[0], GAP);
    }
}

/// A producer writing 50 IDs a second (mixed types) for 10 s sees each
/// record within 2 s of writing its ID.
#[test]
fn a_slow_producer_sees_records_within_two_seconds() {
    let tags = mixed(500, 11);
    let (client, _, _) = client(GAP);
    let input = lines(&tags);
    let rt = paused();
    let (out, written) = rt.block_on(async {
        let written = Arc::new(Mutex::new(Vec::new()));
        let w = written.clone();
        let stream = futures::stream::iter(input.clone()).then(move |l| {
            let w = w.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                w.lock().unwrap().push(Instant::now());
                Ok(l)
            }
        });
        let (out, _) = run(&client, Box::pin(stream)).await;
        let written = written.lock().unwrap().clone();
        (out, written)
    });
    check_records(&input, &out);
    let worst = out
        .records
        .iter()
        .zip(&written)
        .map(|((at, _), w)| *at - *w)
        .max()
        .unwrap();
    assert!(worst <= Duration::from_secs(2), "{worst:?}");
}

/// 30 IDs, then a 5 s stall: the 30 go out (one request per type) 250 ms
/// into the stall, not after it; the next 30 after the input ends.
#[test]
fn a_stalled_input_sends_its_partial_chunks() {
    let tags = mixed(60, 3);
    let (client, _, fake) = client(GAP);
    let input = lines(&tags);
    let rt = paused();
    let (out, t0) = rt.block_on(async {
        let t0 = Instant::now();
        let stream = futures::stream::iter(input.clone().into_iter().enumerate()).then(
            |(i, l)| async move {
                if i == 30 {
                    tokio::time::sleep(Duration::from_secs(5)).await;
                }
                Ok(l)
            },
        );
        (run(&client, Box::pin(stream)).await.0, t0)
    });
    check_records(&input, &out);
    for (at, _) in &out.records[..30] {
        let after = *at - t0;
        // 250 ms idle, then three requests 400 ms apart
        assert!(after >= Duration::from_millis(250), "{after:?}");
        assert!(after <= Duration::from_millis(250) + GAP * 2, "{after:?}");
    }
    for (at, _) in &out.records[30..] {
        assert!(*at - t0 >= Duration::from_secs(5));
    }
    let batches = fake.idconv_batches.lock().unwrap();
    let sizes: Vec<usize> = batches.iter().map(|(_, ids)| ids.len()).collect();
    assert_eq!(sizes.len(), 6, "{sizes:?}");
    assert_eq!(sizes.iter().sum::<usize>(), 60);
}

/// A rare DOI at the head of more PMIDs than the reorder buffer holds
/// (20,000 lines): the PMIDs still go 200 per request; only the DOI's
/// chunk, which holds the oldest waiting line, is sent partial to free the
/// buffer.
#[test]
fn a_full_buffer_sends_only_the_chunk_holding_its_oldest_line() {
    let mut tags = vec![2u8];
    tags.extend(std::iter::repeat_n(0u8, 21_000));
    tags.push(2);
    let (requests, fake) = run_all_available(&tags);
    assert_eq!(requests, 105 + 2);
    let batches = fake.idconv_batches.lock().unwrap();
    let dois: Vec<usize> = batches
        .iter()
        .filter(|(t, _)| t == "doi")
        .map(|(_, ids)| ids.len())
        .collect();
    assert_eq!(dois, vec![1, 1]);
    assert!(
        batches
            .iter()
            .filter(|(t, _)| t == "pmid")
            .all(|(_, ids)| ids.len() == CHUNK)
    );
}

/// Up to the reorder buffer's 20,000 lines, any mix costs the minimum:
/// two DOIs and two PMCIDs spread among 19,996 PMIDs go one request per
/// type, however far apart.
#[test]
fn an_input_the_buffer_holds_costs_the_minimum_whatever_its_mix() {
    let mut tags = vec![0u8; 20_000];
    tags[0] = 2;
    tags[5_000] = 1;
    tags[15_000] = 1;
    tags[19_999] = 2;
    let (requests, fake) = run_all_available(&tags);
    assert_eq!(minimum(&tags), 100 + 1 + 1);
    assert_eq!(requests as usize, minimum(&tags));
    check_batches(&fake, &tags);
}

/// The mixes worst for the reorder buffer: a DOI and a PMCID in every
/// `spacing` lines of PMIDs, 80,000 lines in all, so a full buffer's
/// oldest line sits in a small chunk of a rare type. Requests stay within
/// 1.02 × the minimum (the bound for bulk conversion).
#[test]
fn the_worst_mixes_for_the_buffer_stay_within_two_percent() {
    let n = 80_000;
    for spacing in [3_900, 19_000] {
        let mut tags = vec![0u8; n];
        for k in (0..n).step_by(spacing) {
            tags[k] = 2;
            if k + spacing / 2 < n {
                tags[k + spacing / 2] = 1;
            }
        }
        let (requests, _) = run_all_available(&tags);
        let min = minimum(&tags);
        assert!(
            requests as f64 <= 1.02 * min as f64,
            "spacing {spacing}: {requests} requests for a minimum of {min}"
        );
    }
}

/// In real time with pacing off (the test knobs), the input's end makes
/// the partial chunks due at once: a clock read after the check must not
/// leave them waiting forever (a regression of this engine).
#[test]
fn real_time_without_pacing_finishes() {
    let (client, _, _) = client(Duration::ZERO);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let tags = mixed(450, 5);
    let input = lines(&tags);
    let (out, requests) = rt
        .block_on(async {
            tokio::time::timeout(
                Duration::from_secs(20),
                run(
                    &client,
                    futures::stream::iter(input.clone().into_iter().map(Ok)),
                ),
            )
            .await
        })
        .expect("the run ends");
    check_records(&input, &out);
    assert_eq!(requests as usize, minimum(&tags));
}

/// Another `pubmed` process holds the ID Converter's lane of the shared
/// budget (three starts booked, 400 ms apart): a partial chunk that falls
/// due meanwhile is not sealed while it waits for the lane, so the IDs that
/// arrive during the wait join it. Real time (the budget keeps wall-clock
/// times): 3 PMIDs, a 300 ms stall (the chunk falls due at 250 ms), 3 more,
/// the end; one request of 6 when the lane frees at about 1.2 s.
#[test]
fn a_chunk_waiting_for_another_processs_requests_keeps_collecting() {
    let dir = tempfile::tempdir().unwrap();
    let other = pubmed::ncbi::budget::SharedBudget::new(dir.path().to_path_buf(), false, false);
    let (client, _, fake) = client_sharing(GAP, Some(dir.path().to_path_buf()));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tags = [0u8, 0, 0, 0, 0, 0];
    let input = lines(&tags);
    let (out, requests, waited) = rt.block_on(async {
        let lane = pubmed::ncbi::budget::IDCONV_LANE;
        let now = pubmed::ncbi::budget::now_ms();
        for k in 0..3 {
            other
                .book(lane, GAP, now + k * 400, u64::MAX)
                .await
                .expect("the budget is usable")
                .expect("a free slot");
        }
        let t0 = std::time::Instant::now();
        let stream = futures::stream::iter(input.clone().into_iter().enumerate()).then(
            |(i, l)| async move {
                if i == 3 {
                    tokio::time::sleep(Duration::from_millis(300)).await;
                }
                Ok(l)
            },
        );
        let (out, requests) = run(&client, Box::pin(stream)).await;
        (out, requests, t0.elapsed())
    });
    check_records(&input, &out);
    assert_eq!(requests, 1);
    let batches = fake.idconv_batches.lock().unwrap().clone();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].1.len(), 6);
    // The lane's next slot: 800 ms + one gap after the other's first start.
    assert!(waited >= Duration::from_millis(1_150), "{waited:?}");
}
