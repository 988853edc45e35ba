//! The client's pacing, 429 cooldown, retries and deadlines (client.md),
//! tested deterministically: an in-process transport under paused tokio
//! time, so seconds of policy run in microseconds.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use pubmed::error::Reason;
use pubmed::ncbi::transport::{HttpRequest, HttpResponse, SendFuture, Transport, TransportError};
use pubmed::ncbi::{Client, ClientSettings, Db, Policy};
use tokio::time::Instant;

const ESPELL_OK: &[u8] = include_bytes!("fixtures/espell_biopythooon.xml");

/// What the fake does for one attempt.
#[derive(Clone)]
enum Step {
    Answer {
        status: u16,
        retry_after: Option<String>,
        body: Bytes,
        after: Duration,
    },
    Hang,
    Broken,
    Fail(TransportError),
}

fn ok() -> Step {
    status(200, ESPELL_OK)
}

fn status(code: u16, body: &[u8]) -> Step {
    Step::Answer {
        status: code,
        retry_after: None,
        body: Bytes::copy_from_slice(body),
        after: Duration::ZERO,
    }
}

fn slow(after: Duration) -> Step {
    Step::Answer {
        status: 200,
        retry_after: None,
        body: Bytes::from_static(ESPELL_OK),
        after,
    }
}

fn unavailable(retry_after: &str) -> Step {
    Step::Answer {
        status: 503,
        retry_after: Some(retry_after.into()),
        body: Bytes::from_static(b"Service Unavailable"),
        after: Duration::ZERO,
    }
}

fn too_many(retry_after: Option<&str>) -> Step {
    Step::Answer {
        status: 429,
        retry_after: retry_after.map(str::to_string),
        body: Bytes::from_static(include_bytes!("fixtures/http429_rate_limit_exceeded.json")),
        after: Duration::ZERO,
    }
}

/// An in-process transport: the n-th request gets `script(n)`; it records
/// start times (tokio clock) and the highest concurrency seen.
struct Fake {
    script: Box<dyn Fn(usize) -> Step + Send + Sync>,
    starts: Mutex<Vec<Instant>>,
    methods: Mutex<Vec<HttpRequest>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

impl Fake {
    fn new(script: impl Fn(usize) -> Step + Send + Sync + 'static) -> Arc<Fake> {
        Arc::new(Fake {
            script: Box::new(script),
            starts: Mutex::new(Vec::new()),
            methods: Mutex::new(Vec::new()),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
        })
    }

    fn starts(&self) -> Vec<Instant> {
        self.starts.lock().unwrap().clone()
    }

    fn gaps(&self) -> Vec<Duration> {
        self.starts().windows(2).map(|w| w[1] - w[0]).collect()
    }
}

struct InFlight<'a>(&'a AtomicUsize);
impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Transport for Fake {
    fn send(&self, req: HttpRequest) -> SendFuture<'_> {
        Box::pin(async move {
            let n = {
                let mut s = self.starts.lock().unwrap();
                s.push(Instant::now());
                s.len() - 1
            };
            self.methods.lock().unwrap().push(req);
            let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            self.max_in_flight.fetch_max(now, Ordering::SeqCst);
            let _g = InFlight(&self.in_flight);
            match (self.script)(n) {
                Step::Answer {
                    status,
                    retry_after,
                    body,
                    after,
                } => {
                    tokio::time::sleep(after).await;
                    Ok(HttpResponse {
                        url: "http://fake.invalid/".into(),
                        status,
                        retry_after,
                        content_type: Some("text/xml".into()),
                        body,
                    })
                }
                Step::Hang => std::future::pending().await,
                Step::Broken => Err(TransportError::Broken("connection reset by peer".into())),
                Step::Fail(e) => Err(e),
            }
        })
    }
}

fn client(fake: &Arc<Fake>, api_key: Option<&str>, policy: Policy) -> Arc<Client> {
    let settings = ClientSettings {
        eutils_url: "http://fake.invalid/eutils/".into(),
        api_key: api_key.map(str::to_string),
        policy,
        ..Default::default()
    };
    Arc::new(Client::with_transport(settings, fake.clone()))
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

#[tokio::test(start_paused = true)]
async fn burst_starts_respect_the_gap_without_and_with_a_key() {
    for (key, gap) in [(None, 400), (Some("k"), 110)] {
        let fake = Fake::new(|_| slow(secs(0.05)));
        let c = client(&fake, key, Policy::default());
        let calls: Vec<_> = (0..20)
            .map(|_| {
                let c = c.clone();
                tokio::spawn(async move { c.espell(Db::Pubmed, "biopythooon").await })
            })
            .collect();
        for h in calls {
            assert_eq!(h.await.unwrap().unwrap().segments.len(), 2);
        }
        let gaps = fake.gaps();
        assert_eq!(gaps.len(), 19);
        assert!(
            gaps.iter().all(|g| *g == Duration::from_millis(gap)),
            "key {key:?}: {gaps:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn concurrency_never_exceeds_eight() {
    let fake = Fake::new(|_| slow(secs(10.0)));
    let c = client(&fake, Some("k"), Policy::default());
    let calls: Vec<_> = (0..30)
        .map(|_| {
            let c = c.clone();
            tokio::spawn(async move { c.espell(Db::Pubmed, "biopythooon").await })
        })
        .collect();
    for h in calls {
        h.await.unwrap().unwrap();
    }
    assert_eq!(fake.max_in_flight.load(Ordering::SeqCst), 8);
    assert_eq!(fake.starts().len(), 30);
}

#[tokio::test(start_paused = true)]
async fn consecutive_429s_double_the_cooldown_up_to_15s() {
    let fake = Fake::new(|n| if n < 6 { too_many(None) } else { ok() });
    let c = client(&fake, None, Policy::default());
    let a = c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    assert_eq!(a.corrected_query, "biopython");
    let gaps: Vec<u64> = fake.gaps().iter().map(|g| g.as_millis() as u64).collect();
    assert_eq!(gaps, vec![1000, 2000, 4000, 8000, 15000, 15000]);
}

#[tokio::test(start_paused = true)]
async fn the_streak_resets_on_success() {
    let fake = Fake::new(|n| {
        if n == 0 || n == 2 {
            too_many(None)
        } else {
            ok()
        }
    });
    let c = client(&fake, None, Policy::default());
    c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    let gaps: Vec<u64> = fake.gaps().iter().map(|g| g.as_millis() as u64).collect();
    // 429 → 1 s → ok; next call 400 ms later → 429 → 1 s again (not 2 s)
    assert_eq!(gaps, vec![1000, 400, 1000]);
}

#[tokio::test(start_paused = true)]
async fn retry_after_seconds_and_http_date_are_honoured() {
    let fake = Fake::new(|n| if n == 0 { too_many(Some("3")) } else { ok() });
    let c = client(&fake, None, Policy::default());
    c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    assert_eq!(fake.gaps(), vec![secs(3.0)]);

    // An HTTP date 5 s ahead (whole seconds, wall clock): between 4 and 5 s.
    let date = httpdate::fmt_http_date(std::time::SystemTime::now() + secs(5.0));
    let fake = Fake::new(move |n| if n == 0 { too_many(Some(&date)) } else { ok() });
    let c = client(&fake, None, Policy::default());
    c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    let gap = fake.gaps()[0];
    assert!(gap >= secs(3.9) && gap <= secs(5.0), "{gap:?}");
}

#[tokio::test(start_paused = true)]
async fn long_retry_after_stops_at_once() {
    let fake = Fake::new(|_| too_many(Some("120")));
    let c = client(&fake, None, Policy::default());
    let t0 = Instant::now();
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiRateLimited);
    assert_eq!(e.retry_after, Some(120));
    assert_eq!(fake.starts().len(), 1);
    assert_eq!(Instant::now() - t0, Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn retries_exhausted_on_429_is_rate_limited() {
    let fake = Fake::new(|_| too_many(None));
    let c = client(
        &fake,
        None,
        Policy {
            max_retries: 3,
            ..Policy::default()
        },
    );
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiRateLimited);
    assert_eq!(fake.starts().len(), 4);
    assert!(e.message.contains("4 attempts"), "{}", e.message);
}

#[tokio::test(start_paused = true)]
async fn server_errors_are_retried_seven_times_with_backoff() {
    let fake = Fake::new(|_| status(500, b"oops"));
    let c = client(&fake, None, Policy::default());
    let t0 = Instant::now();
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiUnreachable);
    assert_eq!(e.reason.exit_code(), 69);
    assert_eq!(fake.starts().len(), 7);
    assert!(e.message.contains("7 attempts"), "{}", e.message);
    assert!(e.message.contains("HTTP 500"), "{}", e.message);
    // backoff 1, 2, 4, 8, 15, 15 s, each within ±25% and never above 15 s
    for (k, gap) in fake.gaps().iter().enumerate() {
        let base = [1.0, 2.0, 4.0, 8.0, 15.0, 15.0][k];
        let lo = secs(base * 0.75);
        let hi = secs((base * 1.25).min(15.0));
        assert!(*gap >= lo && *gap <= hi, "gap {k}: {gap:?}");
    }
    assert!(Instant::now() - t0 < secs(60.0));
}

#[tokio::test(start_paused = true)]
async fn caller_errors_are_not_retried() {
    for (code, body, reason) in [
        (501, &b"not implemented"[..], Reason::InvalidArgument),
        (400, &b"bad request"[..], Reason::InvalidArgument),
        (
            200,
            include_bytes!("fixtures/esummary_error_no_id.xml").as_slice(),
            Reason::InvalidArgument,
        ),
        (
            200,
            include_bytes!("fixtures/epost_error_invalid_db.xml").as_slice(),
            Reason::InvalidArgument,
        ),
        (
            200,
            include_bytes!("fixtures/esummary_v1_error_invalid_uids.xml").as_slice(),
            Reason::InvalidArgument,
        ),
        (
            200,
            include_bytes!("fixtures/epost_error_invalid_id.xml").as_slice(),
            Reason::NcbiResourceNotFound,
        ),
    ] {
        let body = body.to_vec();
        let fake = Fake::new(move |_| status(code, &body));
        let c = client(&fake, None, Policy::default());
        let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
        assert_eq!(e.reason, reason, "HTTP {code}: {}", e.message);
        assert_eq!(fake.starts().len(), 1, "HTTP {code} must not be retried");
    }
}

#[tokio::test(start_paused = true)]
async fn transient_400_capture_is_retried() {
    let body = include_bytes!("fixtures/efetch_error_http400_external_viewer_timeout.xml");
    let fake = Fake::new(move |n| if n < 2 { status(400, body) } else { ok() });
    let c = client(&fake, None, Policy::default());
    let a = c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    assert_eq!(a.corrected_query, "biopython");
    assert_eq!(fake.starts().len(), 3);

    // Always failing: the message carries NCBI's text and the count.
    let fake = Fake::new(move |_| status(400, body));
    let c = client(
        &fake,
        None,
        Policy {
            max_retries: 2,
            ..Policy::default()
        },
    );
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiUnreachable);
    assert!(e.message.contains("3 attempts"), "{}", e.message);
    assert!(e.message.contains("External viewer error"), "{}", e.message);
}

#[tokio::test(start_paused = true)]
async fn broken_connections_are_retried() {
    let fake = Fake::new(|n| if n == 0 { Step::Broken } else { ok() });
    let c = client(&fake, None, Policy::default());
    c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    assert_eq!(fake.starts().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn hanging_server_hits_the_deadline_exactly() {
    let fake = Fake::new(|_| Step::Hang);
    let c = client(&fake, None, Policy::default());
    let t0 = Instant::now();
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiDeadlineExceeded);
    assert_eq!(Instant::now() - t0, secs(60.0));
    // 30 s per-request timeout, a backoff, then a second attempt cut at 60 s
    assert_eq!(fake.starts().len(), 2);
    let gap = fake.gaps()[0];
    assert!(gap >= secs(30.75) && gap <= secs(31.25), "{gap:?}");

    // A shorter deadline (`--timeout 2`) is honoured the same way.
    let fake = Fake::new(|_| Step::Hang);
    let c = client(
        &fake,
        None,
        Policy {
            deadline: secs(2.0),
            request_timeout: secs(2.0),
            ..Policy::default()
        },
    );
    let t0 = Instant::now();
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiDeadlineExceeded);
    assert_eq!(Instant::now() - t0, secs(2.0));
}

#[tokio::test(start_paused = true)]
async fn next_backoff_past_the_deadline_gives_up_early() {
    let fake = Fake::new(|_| status(503, b"busy"));
    let c = client(
        &fake,
        None,
        Policy {
            deadline: secs(5.0),
            ..Policy::default()
        },
    );
    let t0 = Instant::now();
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiUnreachable);
    assert!(e.message.contains("deadline"), "{}", e.message);
    assert!(Instant::now() - t0 < secs(5.0));
}

#[tokio::test(start_paused = true)]
async fn the_101st_waiting_call_is_shed() {
    let fake = Fake::new(|_| Step::Hang);
    let c = client(
        &fake,
        None,
        Policy {
            request_gap: Some(Duration::ZERO),
            deadline: secs(1000.0),
            request_timeout: secs(1000.0),
            ..Policy::default()
        },
    );
    let mut calls = Vec::new();
    for _ in 0..108 {
        let c = c.clone();
        calls.push(tokio::spawn(async move {
            c.espell(Db::Pubmed, "biopythooon").await
        }));
    }
    tokio::time::sleep(secs(1.0)).await;
    assert_eq!(fake.starts().len(), 8, "eight in flight");
    assert_eq!(c.pacer().waiting(), 100);
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::QueueFull);
    assert!(e.retry_after.is_some_and(|s| s >= 1), "{e:?}");
    for h in calls {
        h.abort();
    }
}

#[tokio::test(start_paused = true)]
async fn a_call_that_cannot_start_before_its_deadline_is_shed_at_once() {
    let fake = Fake::new(|_| slow(secs(1.0)));
    let c = client(
        &fake,
        None,
        Policy {
            request_gap: Some(secs(1.0)),
            deadline: secs(3.0),
            ..Policy::default()
        },
    );
    let mut calls = Vec::new();
    for _ in 0..5 {
        let c = c.clone();
        calls.push(tokio::spawn(async move {
            c.espell(Db::Pubmed, "biopythooon").await
        }));
    }
    tokio::task::yield_now().await;
    let t0 = Instant::now();
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::QueueFull);
    assert_eq!(Instant::now(), t0, "decided at enqueue");
    assert!(e.retry_after.is_some_and(|s| s >= 4), "{e:?}");
    for h in calls {
        let _ = h.await;
    }
}

#[tokio::test(start_paused = true)]
async fn deadline_while_queued_is_deadline_exceeded() {
    use pubmed::ncbi::pacer::{Lane, Pacer, PacerConfig};
    let pacer = Pacer::new(PacerConfig {
        gap: Duration::ZERO,
        idconv_gap: Duration::ZERO,
        max_in_flight: 1,
        max_waiting: 100,
        cooldown_base: secs(1.0),
        cooldown_cap: secs(15.0),
    });
    let t0 = Instant::now();
    let held = pacer.acquire(t0 + secs(100.0), Lane::Eutils).await.unwrap();
    let e = pacer
        .acquire(t0 + secs(10.0), Lane::Eutils)
        .await
        .unwrap_err();
    assert_eq!(e.reason, Reason::NcbiDeadlineExceeded);
    assert_eq!(Instant::now() - t0, secs(10.0));
    assert!(e.message.contains("waited"), "{}", e.message);
    drop(held);
    assert!(
        pacer
            .acquire(Instant::now() + secs(1.0), Lane::Eutils)
            .await
            .is_ok()
    );
}

fn pacer_with_gap(gap: Duration) -> pubmed::ncbi::pacer::Pacer {
    use pubmed::ncbi::pacer::{Pacer, PacerConfig};
    Pacer::new(PacerConfig {
        gap,
        idconv_gap: gap,
        max_in_flight: 8,
        max_waiting: 100,
        cooldown_base: secs(1.0),
        cooldown_cap: secs(15.0),
    })
}

/// A call whose own deadline is over (or ends before the lane's gap lets it
/// start) with no call waiting ahead is `ncbi_deadline_exceeded`, decided at
/// once and without `retryAfter`: no queue is to blame (docs/client.md
/// "Pacing"). It was `queue_full`, which tells a caller to wait and retry the
/// same too-short deadline.
#[tokio::test(start_paused = true)]
async fn a_deadline_too_short_for_the_call_alone_is_deadline_exceeded() {
    use pubmed::ncbi::pacer::Lane;
    let pacer = pacer_with_gap(secs(1.0));
    let t0 = Instant::now();
    let e = pacer.acquire(t0, Lane::Eutils).await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiDeadlineExceeded);
    assert_eq!(
        e.message,
        "the deadline passed before the request could start"
    );
    assert_eq!(e.retry_after, None);
    assert_eq!(Instant::now(), t0, "decided at once");
    // the lane's gap after a start leaves 1 s; a 1 µs deadline cannot wait it
    let held = pacer.acquire(t0 + secs(10.0), Lane::Eutils).await.unwrap();
    let e = pacer
        .acquire(t0 + Duration::from_micros(1), Lane::Eutils)
        .await
        .unwrap_err();
    assert_eq!(e.reason, Reason::NcbiDeadlineExceeded);
    assert_eq!(
        e.message,
        "the deadline ends before the request's earliest start (1000 ms between requests)"
    );
    assert_eq!(e.retry_after, None);
    assert_eq!(Instant::now(), t0, "decided at once");
    drop(held);
}

/// `queue_full` stays for a start pushed past the deadline by the calls
/// waiting ahead: alone the call would start at 1 s, within its 2.5 s
/// deadline; behind three waiting calls its estimate is 1 + 3 × 1 = 4 s.
#[tokio::test(start_paused = true)]
async fn calls_ahead_pushing_the_start_past_the_deadline_are_queue_full() {
    use pubmed::ncbi::pacer::Lane;
    let pacer = Arc::new(pacer_with_gap(secs(1.0)));
    let t0 = Instant::now();
    let first = pacer.acquire(t0 + secs(100.0), Lane::Eutils).await.unwrap();
    let mut waiting = Vec::new();
    for _ in 0..3 {
        let p = pacer.clone();
        waiting.push(tokio::spawn(async move {
            p.acquire(t0 + secs(100.0), Lane::Eutils).await.map(drop)
        }));
    }
    tokio::task::yield_now().await;
    assert_eq!(pacer.waiting(), 3);
    let e = pacer
        .acquire(t0 + secs(2.5), Lane::Eutils)
        .await
        .unwrap_err();
    assert_eq!(e.reason, Reason::QueueFull);
    assert_eq!(
        e.message,
        "the request could not start within its deadline (3 requests waiting)"
    );
    assert_eq!(e.retry_after, Some(4));
    assert_eq!(Instant::now(), t0, "decided at enqueue");
    drop(first);
    for h in waiting {
        h.await.unwrap().unwrap();
    }
    // with nobody ahead the same deadline is met: the next start is 1 s
    // after the last of the three (at 3 s)
    let t1 = Instant::now();
    assert!(pacer.acquire(t1 + secs(1.5), Lane::Eutils).await.is_ok());
    assert_eq!(Instant::now() - t1, secs(1.0));
}

/// This process's 429 cooldown outlasting the deadline is
/// `ncbi_rate_limited` with `retryAfter` (docs/errors.md), not `queue_full`.
#[tokio::test(start_paused = true)]
async fn a_local_cooldown_past_the_deadline_is_rate_limited() {
    use pubmed::ncbi::pacer::Lane;
    let pacer = pacer_with_gap(Duration::ZERO);
    let t0 = Instant::now();
    pacer
        .note_rate_limited(Lane::Eutils, t0, Some(secs(10.0)))
        .await;
    let e = pacer
        .acquire(t0 + secs(2.0), Lane::Eutils)
        .await
        .unwrap_err();
    assert_eq!(e.reason, Reason::NcbiRateLimited);
    assert_eq!(e.retry_after, Some(10));
    assert_eq!(Instant::now(), t0, "decided at once");
}

/// The ID Converter never gets the API key, so with a key E-utilities
/// calls start 110 ms apart while Converter calls stay 400 ms apart.
#[tokio::test(start_paused = true)]
async fn the_id_converter_is_paced_as_keyless() {
    use pubmed::core::ids::IdType;
    let fake = Fake::new(|_| status(200, br#"{"status":"ok","records":[]}"#));
    let c = client(&fake, Some("k"), Policy::default());
    let calls: Vec<_> = (0..6)
        .map(|_| {
            let c = c.clone();
            tokio::spawn(async move { c.idconv(IdType::Pmid, &["1".to_string()]).await })
        })
        .collect();
    for h in calls {
        assert_eq!(
            h.await.unwrap().unwrap(),
            pubmed::ncbi::idconv::IdconvAnswer::Records(vec![])
        );
    }
    assert!(
        fake.gaps().iter().all(|g| *g == Duration::from_millis(400)),
        "{:?}",
        fake.gaps()
    );
    let reqs = fake.methods.lock().unwrap().clone();
    assert!(
        reqs.iter()
            .all(|r| r.params.iter().all(|(k, _)| k != "api_key"))
    );
}

/// The one wait rule for every retried status: a `Retry-After` over 30 s
/// stops the call at once as `ncbi_rate_limited` with `retryAfter`, for a
/// 503 exactly as for a 429 (never a 45 s wait, never `ncbi_unreachable`).
#[tokio::test(start_paused = true)]
async fn a_retry_after_over_30s_stops_at_once_for_503_and_429() {
    for (step, secs_asked) in [
        (unavailable("45"), 45),
        (unavailable("100"), 100),
        (too_many(Some("45")), 45),
        (too_many(Some("100")), 100),
    ] {
        let fake = Fake::new(move |_| step.clone());
        let c = client(&fake, None, Policy::default());
        let t0 = Instant::now();
        let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
        assert_eq!(e.reason, Reason::NcbiRateLimited, "{}", e.message);
        assert_eq!(e.reason.exit_code(), 75);
        assert_eq!(e.retry_after, Some(secs_asked));
        assert!(
            e.message.contains(&format!("wait {secs_asked} s")),
            "{}",
            e.message
        );
        assert_eq!(fake.starts().len(), 1, "one request");
        assert_eq!(Instant::now() - t0, Duration::ZERO, "stopped at once");
    }
}

/// A `Retry-After` within 30 s but longer than the time left stops at once
/// too; one within both replaces the backoff, for a 503 as for a 429.
#[tokio::test(start_paused = true)]
async fn a_retry_after_past_the_deadline_stops_and_a_short_one_is_waited() {
    let fake = Fake::new(|_| unavailable("20"));
    let short = Policy {
        deadline: secs(10.0),
        request_timeout: secs(10.0),
        ..Policy::default()
    };
    let c = client(&fake, None, short);
    let t0 = Instant::now();
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::NcbiRateLimited);
    assert_eq!(e.retry_after, Some(20));
    assert!(e.message.contains("time left"), "{}", e.message);
    assert_eq!(Instant::now() - t0, Duration::ZERO);

    let fake = Fake::new(|n| if n == 0 { unavailable("3") } else { ok() });
    let c = client(&fake, None, Policy::default());
    assert_eq!(
        c.espell(Db::Pubmed, "biopythooon")
            .await
            .unwrap()
            .corrected_query,
        "biopython"
    );
    assert_eq!(
        fake.gaps(),
        vec![secs(3.0)],
        "Retry-After, not the 1 s backoff"
    );
}

/// A host that does not resolve, or refuses the connection, is tried twice
/// (one backoff step between), not seven times over a minute; the hint
/// names the knobs that fix it.
#[tokio::test(start_paused = true)]
async fn unresolvable_or_refusing_hosts_are_tried_twice() {
    for err in [
        TransportError::Unresolved("failed to lookup address information".into()),
        TransportError::Refused("Connection refused (os error 111)".into()),
    ] {
        let fake = Fake::new(move |_| Step::Fail(err.clone()));
        let c = client(&fake, None, Policy::default());
        let t0 = Instant::now();
        let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
        assert_eq!(e.reason, Reason::NcbiUnreachable);
        assert_eq!(e.reason.exit_code(), 69);
        assert_eq!(fake.starts().len(), 2, "{}", e.message);
        assert!(e.message.contains("2 attempts"), "{}", e.message);
        for knob in ["--timeout", "PUBMED_EUTILS_URL", "HTTPS_PROXY", "NO_PROXY"] {
            assert!(e.hint().contains(knob), "{knob}: {}", e.hint());
        }
        let waited = Instant::now() - t0;
        assert!(waited >= secs(0.75) && waited <= secs(1.25), "{waited:?}");
    }
    // Other connection failures keep the full retry budget.
    let fake = Fake::new(|n| {
        if n < 3 {
            Step::Fail(TransportError::Connect("tls handshake eof".into()))
        } else {
            ok()
        }
    });
    let c = client(&fake, None, Policy::default());
    c.espell(Db::Pubmed, "biopythooon").await.unwrap();
    assert_eq!(fake.starts().len(), 4);
}

/// NCBI's answer to an unknown key (HTTP 400, the same one-line JSON shape
/// as its 429 body, `http429_rate_limit_exceeded.json`, echoing the key)
/// fails after one request as `invalid_api_key`, says where the key came
/// from, and never repeats the key.
#[tokio::test(start_paused = true)]
async fn an_invalid_api_key_fails_at_once_naming_its_origin() {
    let key = "0123456789abcdef0123456789abcdef0123";
    let body = format!(
        r#"{{"error":"API key invalid","api-key":"{key}","type":"invalid","status":"unknown"}}"#
    );
    let fake = Fake::new(move |_| Step::Answer {
        status: 400,
        retry_after: None,
        body: Bytes::from(body.clone()),
        after: Duration::ZERO,
    });
    let settings = ClientSettings {
        eutils_url: "http://fake.invalid/eutils/".into(),
        api_key: Some(key.into()),
        api_key_origin: Some("NCBI_API_KEY".into()),
        ..Default::default()
    };
    let c = Client::with_transport(settings, fake.clone());
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::InvalidApiKey);
    assert_eq!(e.reason.as_str(), "invalid_api_key");
    assert_eq!(e.reason.exit_code(), 2);
    assert!(!e.reason.retryable());
    assert_eq!(fake.starts().len(), 1, "never retried");
    assert!(e.message.contains("API key invalid"), "{}", e.message);
    assert!(e.message.contains("NCBI_API_KEY"), "{}", e.message);
    assert!(!e.message.contains(key) && !e.hint().contains(key));
}

/// A redirect to another site is not followed (the request carries the key):
/// the call stops at once, naming where it pointed.
#[tokio::test(start_paused = true)]
async fn a_cross_site_redirect_stops_the_call() {
    let fake = Fake::new(|_| {
        Step::Fail(TransportError::Redirected(
            "http://elsewhere.invalid/eutils/espell.fcgi".into(),
        ))
    });
    let c = client(&fake, Some("k"), Policy::default());
    let e = c.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, Reason::InvalidArgument);
    assert_eq!(fake.starts().len(), 1);
    assert!(e.message.contains("elsewhere.invalid"), "{}", e.message);
    assert!(e.hint().contains("PUBMED_EUTILS_URL"), "{}", e.hint());
}
