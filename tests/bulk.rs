//! Bulk work at NCBI's floor: ESummary 1,000 PMIDs per request (halved when
//! NCBI cannot answer a chunk whole), against a fake NCBI that enforces
//! ESummary's limits (JSON 500 UIDs, XML 10,000, GET 200 IDs).

use crate::support;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use pubmed::ncbi::transport::{HttpRequest, HttpResponse, SendFuture, Transport, TransportError};
use pubmed::ncbi::{Client, ClientSettings, Db, Policy, efetch};
use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi, SummaryCall, synthetic_doc};
use support::server::{Reply, Request, TestServer, fixture};

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

/// `pubmed ARGS…` against `server`, with a deadline long enough that a slow
/// debug build on a busy machine never halves a chunk for time.
fn bulk(server: &TestServer, args: &[&str]) -> Run {
    pubmed(args)
        .server(server)
        .env("PUBMED_DEADLINE_S", "120")
        .run()
}

fn calls(fake: &FakeNcbi) -> Vec<SummaryCall> {
    fake.esummary_calls.lock().unwrap().clone()
}

/// Attempts the client said it made again (`…; retrying in 1.2 s (attempt
/// 2 of 3)` on stderr): on a loaded machine a 1,000-summary answer can miss
/// the 30 s per-attempt time and be asked again, which is the client's
/// rule, not a change of plan. The request counts below allow exactly
/// these.
fn noted_retries(run: &Run) -> usize {
    run.stderr.matches("; retrying in ").count()
}

/// `sizes` (IDs per request, sorted) is `want` plus `extra` repeats of
/// sizes `want` has: each request planned once, and `extra` asked again.
fn assert_sizes_with_retries(mut sizes: Vec<usize>, want: &[usize], extra: usize, stderr: &str) {
    assert_eq!(sizes.len(), want.len() + extra, "{sizes:?}\n{stderr}");
    for w in want {
        let at = sizes.iter().position(|s| s == w);
        let at = at.unwrap_or_else(|| panic!("no request of {w} IDs in {sizes:?}"));
        sizes.remove(at);
    }
    assert!(sizes.iter().all(|s| want.contains(s)), "{sizes:?}");
}

/// The PMIDs of NDJSON summary lines, each checked against the synthetic
/// record's title; panics on a repeat.
fn ndjson_pmids(run: &Run) -> HashSet<u64> {
    let mut seen = HashSet::new();
    for l in run.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let pmid = v["pmid"].as_str().unwrap();
        assert_eq!(
            v["title"],
            format!("Synthetic article {pmid}: in vivo effects & outcomes."),
            "{l}"
        );
        assert!(seen.insert(pmid.parse().unwrap()), "{pmid} twice");
    }
    seen
}

fn fake_request(method: &str, params: &[(&str, String)]) -> Request {
    Request {
        method: method.into(),
        path: "/entrez/eutils/esummary.fcgi".into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        headers: Vec::new(),
        at: std::time::Instant::now(),
    }
}

fn body(r: &Reply) -> (u16, String) {
    match r {
        Reply::Full { status, body, .. } => (*status, String::from_utf8_lossy(body).into_owned()),
        other => panic!("not a full reply: {other:?}"),
    }
}

/// The fake holds clients to NCBI's limits, so the counts below mean
/// something: JSON ESummary refuses more than 500 UIDs, XML more than
/// 10,000, a GET more than 200 IDs.
#[test]
fn the_fake_enforces_esummary_limits() {
    let fake = FakeNcbi::new(Corpus::default());
    let ids = |n: u64| {
        (1..=n)
            .map(|i| (1000 + i).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let json = |n| {
        fake.reply(&fake_request(
            "POST",
            &[
                ("id", ids(n)),
                ("retmode", "json".into()),
                ("db", "pubmed".into()),
            ],
        ))
    };
    let (status, refused) = body(&json(501));
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&refused).unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("Maximum number of UIDs is 500"),
        "{refused}"
    );
    let (_, ok) = body(&json(500));
    let v: serde_json::Value = serde_json::from_str(&ok).unwrap();
    assert_eq!(v["result"]["uids"].as_array().unwrap().len(), 500);
    assert_eq!(v["result"]["1001"]["source"], "J Test");
    let xml = |n| {
        fake.reply(&fake_request(
            "POST",
            &[("id", ids(n)), ("version", "2.0".into())],
        ))
    };
    assert!(body(&xml(10_001)).1.contains("Too many UIDs"));
    assert_eq!(
        body(&xml(10_000)).1.matches("<DocumentSummary ").count(),
        10_000
    );
    assert_eq!(
        body(&fake.reply(&fake_request("GET", &[("id", ids(201))]))).0,
        414
    );
    assert_eq!(
        body(&fake.reply(&fake_request("GET", &[("id", ids(200))]))).0,
        200
    );
}

/// `--all` with summaries: 1,000 PMIDs per ESummary request, batched
/// across ranges (10,000 hits come in a first window of 9,999 and ranges),
/// all by POST in XML version 2.0, each record once.
#[test]
fn all_summaries_go_1000_per_request_across_ranges() {
    let corpus = Corpus::synthetic();
    for (query, n) in [("hits10000", 10_000usize), ("hits30000", 30_000)] {
        let fake = FakeNcbi::new(corpus.clone());
        let server = start(&fake);
        let run = bulk(
            &server,
            &[
                "search", query, "--all", "--detail", "brief", "-f", "ndjson",
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let want: HashSet<u64> = corpus.hits(query).into_iter().collect();
        assert_eq!(ndjson_pmids(&run), want);
        let calls = calls(&fake);
        assert_eq!(
            calls.len(),
            n / 1000 + noted_retries(&run),
            "{query}: {calls:?}\n{}",
            run.stderr
        );
        for c in &calls {
            assert_eq!(
                c,
                &SummaryCall {
                    method: "POST".into(),
                    json: false,
                    version: Some("2.0".into()),
                    ids: 1000
                }
            );
        }
    }
}

/// Only the run's last batch is partial: 9,999 hits → 9 × 1,000 + 999.
#[test]
fn only_the_last_batch_is_partial() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let server = start(&fake);
    let run = bulk(
        &server,
        &[
            "search", "hits9999", "--all", "--detail", "full", "-f", "ndjson",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(ndjson_pmids(&run).len(), 9999);
    let sizes: Vec<usize> = calls(&fake).iter().map(|c| c.ids).collect();
    let want = [vec![999], vec![1000; 9]].concat();
    assert_sizes_with_retries(sizes, &want, noted_retries(&run), &run.stderr);
}

/// A page of 1,000 summaries (search's largest) is one ESummary request.
#[test]
fn a_page_of_1000_summaries_is_one_request() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let server = start(&fake);
    let run = bulk(
        &server,
        &["search", "hits30000", "--retmax", "1000", "-f", "ndjson"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(ndjson_pmids(&run).len(), 1000);
    let calls = calls(&fake);
    assert_eq!(calls.len(), 1);
    assert_eq!((calls[0].ids, calls[0].method.as_str()), (1000, "POST"));
}

/// NCBI's backend timeout on chunks above 250 IDs: each 1,000 is halved to
/// 500, then 250, which pass — 7 requests per 1,000 — and every record is
/// written once; no chunk is retried whole.
#[test]
fn a_timed_out_chunk_is_halved_until_it_passes() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    *fake.esummary_timeout_above.lock().unwrap() = Some(250);
    let server = start(&fake);
    let run = bulk(
        &server,
        &[
            "search",
            "hits10000",
            "--all",
            "--detail",
            "brief",
            "-f",
            "ndjson",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want: HashSet<u64> = Corpus::synthetic().hits("hits10000").into_iter().collect();
    assert_eq!(ndjson_pmids(&run), want);
    let mut sizes: Vec<usize> = calls(&fake).iter().map(|c| c.ids).collect();
    sizes.sort();
    assert_eq!(
        sizes,
        [vec![250; 40], vec![500; 20], vec![1000; 10]].concat()
    );
}

/// Below 100 IDs a timeout is not the chunk's size: retried as usual, then
/// the PMIDs get an error record with the reason, and the exit code says so.
#[test]
fn a_small_chunk_that_keeps_timing_out_fails_its_pmids_only() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    *fake.esummary_timeout_above.lock().unwrap() = Some(0);
    let server = start(&fake);
    let run = bulk(
        &server,
        &[
            "search", "hits1", "--all", "--detail", "brief", "-f", "ndjson",
        ],
    );
    assert_eq!(run.code, 69, "{}", run.stderr);
    let pmid = Corpus::synthetic().hits("hits1")[0].to_string();
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["pmid"], pmid.as_str());
    assert_eq!(v["error"]["reason"], "ncbi_unreachable");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Status: Timeout"),
        "{v}"
    );
    // PUBMED_MAX_RETRIES=2: three attempts of the one-ID chunk
    assert_eq!(calls(&fake).len(), 3);
}

/// An in-process transport: ESummary answers for the IDs asked, or a body
/// over the client's cap when a request carries more than `cap` IDs.
struct CappedEsummary {
    cap: usize,
    sizes: Mutex<Vec<usize>>,
}

impl Transport for CappedEsummary {
    fn send(&self, req: HttpRequest) -> SendFuture<'_> {
        Box::pin(async move {
            let ids: Vec<String> = req
                .params
                .iter()
                .find(|(k, _)| k == "id")
                .map(|(_, v)| v.split(',').map(str::to_string).collect())
                .unwrap_or_default();
            self.sizes.lock().unwrap().push(ids.len());
            if ids.len() > self.cap {
                return Err(TransportError::TooLarge);
            }
            let docs: Vec<_> = ids
                .iter()
                .map(|i| synthetic_doc(i.parse().unwrap()))
                .collect();
            Ok(HttpResponse {
                url: req.url,
                status: 200,
                retry_after: None,
                content_type: Some("text/xml".into()),
                body: Bytes::from(support::ncbi::esummary(&docs, &[])),
            })
        })
    }
}

/// A body over the cap is never retried whole: the chunk is halved (1,000
/// → 500 → 250) and the records come back complete and in order.
#[tokio::test]
async fn an_oversized_body_halves_the_chunk() {
    let transport = Arc::new(CappedEsummary {
        cap: 300,
        sizes: Mutex::new(Vec::new()),
    });
    let client = Client::with_transport(
        ClientSettings {
            policy: Policy {
                request_gap: Some(Duration::ZERO),
                ..Policy::default()
            },
            ..Default::default()
        },
        transport.clone(),
    );
    let pmids: Vec<String> = (0..1000)
        .map(|i| (30_000_000 + i * 13).to_string())
        .collect();
    let answer = client.esummary(Db::Pubmed, &pmids).await.unwrap();
    let got: Vec<&str> = answer.docs.iter().map(|d| d.uid.as_str()).collect();
    let want: Vec<&str> = pmids.iter().map(String::as_str).collect();
    assert_eq!(got, want);
    assert!(answer.missing.is_empty());
    assert_eq!(
        *transport.sizes.lock().unwrap(),
        vec![1000, 500, 250, 250, 500, 250, 250]
    );
}

/// An in-process EFetch: the synthetic records asked for, or a body over
/// the client's cap when the request holds `big` (whose own record is
/// over the cap). Records the PMIDs of each request.
struct CappedEfetch {
    big: String,
    requests: Mutex<Vec<Vec<String>>>,
}

impl Transport for CappedEfetch {
    fn send(&self, req: HttpRequest) -> SendFuture<'_> {
        Box::pin(async move {
            let ids: Vec<String> = req
                .params
                .iter()
                .find(|(k, _)| k == "id")
                .map(|(_, v)| v.split(',').map(str::to_string).collect())
                .unwrap_or_default();
            self.requests.lock().unwrap().push(ids.clone());
            if ids.contains(&self.big) {
                return Err(TransportError::TooLarge);
            }
            let articles: Vec<_> = ids
                .iter()
                .map(|i| support::fake_ncbi::synthetic_article(i.parse().unwrap()))
                .collect();
            Ok(HttpResponse {
                url: req.url,
                status: 200,
                retry_after: None,
                content_type: Some("text/xml; charset=UTF-8".into()),
                body: Bytes::from(support::ncbi::efetch_set(&articles, &[])),
            })
        })
    }
}

/// Issue 25 item 9: an EFetch answer over the 64 MB cap was halved down to
/// single PMIDs (2n − 1 requests, 15 for 8 PMIDs). Now the chunk goes to
/// single PMIDs at once: the PMID whose own record is over the cap fails
/// alone, each other PMID is in exactly 2 requests, 9 requests in all.
#[tokio::test]
async fn an_efetch_answer_over_the_cap_costs_each_pmid_two_requests() {
    let pmids: Vec<String> = (0..8).map(|i| (31_000_001 + i).to_string()).collect();
    let transport = Arc::new(CappedEfetch {
        big: pmids[5].clone(),
        requests: Mutex::new(Vec::new()),
    });
    let client = Client::with_transport(
        ClientSettings {
            policy: Policy {
                request_gap: Some(Duration::ZERO),
                ..Policy::default()
            },
            ..Default::default()
        },
        transport.clone(),
    );
    let answer = client
        .efetch(Db::Pubmed, &pmids, efetch::Mode::Xml { keep_raw: false })
        .await;
    let requests = transport.requests.lock().unwrap().clone();
    let mut want = vec![pmids.clone()];
    want.extend(pmids.iter().map(|p| vec![p.clone()]));
    assert_eq!(requests, want);
    assert_eq!(requests.len(), 9);
    for p in &pmids {
        let n = requests.iter().filter(|r| r.contains(p)).count();
        assert_eq!(n, 2, "{p}");
        match &answer.entries[p] {
            efetch::Entry::Missing { reason, message } if *p == pmids[5] => {
                assert_eq!(
                    *reason,
                    efetch::MissingReason::Failed(pubmed::error::Reason::NcbiInvalidResponse)
                );
                assert_eq!(message, "EFetch: the answer is larger than 64 MB");
            }
            efetch::Entry::Article { record, .. } => {
                assert_eq!(record.pmid, *p);
                assert_ne!(p, &pmids[5]);
            }
            other => panic!("{p}: {other:?}"),
        }
    }
    assert_eq!(answer.failures.len(), 1);
}

/// ESummary XML (version 2.0) carries every field of the JSON output: each
/// key of the real JSON capture is an element of the real XML capture's
/// document summary, except `uid` (an attribute in XML) and
/// `vernaculartitle` (added to PubMed after the 2012 XML capture).
#[test]
fn esummary_xml_carries_the_fields_of_json() {
    let json: serde_json::Value =
        serde_json::from_slice(&fixture("esummary_json_pubmed_27933103.json")).unwrap();
    let record = json["result"]["27933103"].as_object().unwrap();
    let xml = String::from_utf8(fixture("esummary_v2_pubmed_2012.xml")).unwrap();
    let doc = &xml[xml.find("<DocumentSummary ").unwrap()..xml.find("</DocumentSummary>").unwrap()];
    let elements: HashSet<String> = doc
        .split('<')
        .skip(1)
        .filter(|t| !t.starts_with('/'))
        .map(|t| t.split(['>', ' ', '/']).next().unwrap().to_lowercase())
        .collect();
    let missing: Vec<&String> = record
        .keys()
        .filter(|k| !elements.contains(k.as_str()))
        .collect();
    assert_eq!(missing, vec!["uid", "vernaculartitle"]);
    // … and the fields a record is made of, through the XML path, hold the
    // JSON capture's values.
    let authors: Vec<String> = record["authors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect();
    let id = |t: &str| {
        record["articleids"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["idtype"] == t)
            .map(|a| a["value"].as_str().unwrap().to_string())
    };
    let s = |k: &str| record[k].as_str().unwrap().to_string();
    let d = support::ncbi::Doc {
        uid: s("uid"),
        title: s("title"),
        authors,
        source: s("source"),
        full_journal: s("fulljournalname"),
        pub_date: s("pubdate"),
        pub_types: record["pubtype"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect(),
        doi: id("doi"),
        pmc: id("pmc"),
        elocation: s("elocationid"),
    };
    let root = pubmed::ncbi::xml::parse(&support::ncbi::esummary(&[d], &[])).unwrap();
    let parsed = pubmed::ncbi::esummary::parse(&root).unwrap();
    let summary = pubmed::ops::search::Summary::from_docsum(&parsed.docs[0]);
    assert_eq!(summary.pmid, "27933103");
    assert_eq!(
        summary.title,
        "Programmatic conversion of crystal structures into 3D printable files using Jmol."
    );
    assert_eq!(summary.authors.len(), 8);
    assert_eq!(summary.authors[0], "Scalfani VF");
    assert_eq!(summary.authors[7], "Bara JE");
    assert_eq!(summary.journal, "J Cheminform");
    assert_eq!(summary.full_journal_name, "Journal of cheminformatics");
    assert_eq!(summary.pub_date.as_deref(), Some("2016"));
    assert_eq!(summary.doi.as_deref(), Some("10.1186/s13321-016-0181-z"));
    assert_eq!(summary.pmcid.as_deref(), Some("PMC5122160"));
    assert_eq!(summary.pub_types, vec!["Journal Article"]);
}

// ---------------------------------------------------------------------------
// Resume (`--output FILE --resume`)

fn sidecar(file: &std::path::Path) -> serde_json::Value {
    let mut p = file.as_os_str().to_owned();
    p.push(".pubmed-resume");
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn complete_lines(file: &std::path::Path) -> usize {
    std::fs::read(file)
        .map(|b| b.iter().filter(|c| **c == b'\n').count())
        .unwrap_or(0)
}

/// Starts `pubmed ARGS…` against `server` and kills it with `signal` once
/// FILE holds at least `lines` whole lines (about half the run).
fn kill_at(
    server: &TestServer,
    args: &[&str],
    env: &[(&str, &str)],
    file: &std::path::Path,
    lines: usize,
    signal: &str,
) {
    let mut p = pubmed(args).server(server).env("PUBMED_DEADLINE_S", "120");
    for (k, v) in env {
        p = p.env(k, v);
    }
    p.cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = p.cmd.spawn().unwrap();
    let t0 = std::time::Instant::now();
    while complete_lines(file) < lines {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be killed at {lines} lines"
        );
        assert!(t0.elapsed() < Duration::from_secs(300), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    if signal == "KILL" {
        child.kill().unwrap();
    } else {
        std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
    }
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed run exited {status:?}");
}

/// The lines of a file as a set, checking that none repeats.
fn line_set(file: &std::path::Path) -> HashSet<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut set = HashSet::new();
    for l in text.lines() {
        assert!(set.insert(l.to_string()), "line written twice: {l}");
    }
    assert!(text.ends_with('\n'));
    set
}

/// SIGKILL half-way through `--all` with summaries, a cut last line, then
/// `--resume`: the finished file holds the same lines as an uninterrupted
/// run's, and the resumed run sends only what the file lacks: the ranges
/// left in the checkpoint and ⌈missing PMIDs / 1,000⌉ ESummary requests
/// (10% allowed on top).
#[test]
fn all_with_summaries_resumes_after_sigkill() {
    let corpus = Corpus::synthetic();
    let dir = tempfile::tempdir().unwrap();
    let (file, whole) = (
        dir.path().join("out.ndjson"),
        dir.path().join("whole.ndjson"),
    );
    let (f, w) = (file.to_str().unwrap(), whole.to_str().unwrap());
    let args = |out: &str| -> Vec<String> {
        [
            "search",
            "hits30000",
            "--all",
            "--detail",
            "brief",
            "-f",
            "ndjson",
            "--output",
            out,
        ]
        .map(str::to_string)
        .to_vec()
    };
    let uninterrupted = start(&FakeNcbi::new(corpus.clone()));
    let run = bulk(
        &uninterrupted,
        &args(w).iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "--output leaves stdout alone");
    let total_requests = uninterrupted.count();
    assert_eq!(total_requests, 5 + 30);
    assert_eq!(sidecar(&whole)["complete"], true);

    let first = start(&FakeNcbi::new(corpus.clone()));
    let killed: Vec<String> = args(f);
    kill_at(
        &first,
        &killed.iter().map(String::as_str).collect::<Vec<_>>(),
        &[("PUBMED_REQUEST_GAP_MS", "100")],
        &file,
        15_000,
        "KILL",
    );
    let sent_before_kill = first.count();
    // a write cut short by the kill
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap()
        .write_all(b"{\"pmid\":\"12")
        .unwrap();
    let held = complete_lines(&file);
    let todo = sidecar(&file)["checkpoint"]["todo"]
        .as_array()
        .unwrap()
        .len();
    let remaining = todo + (30_000 - held).div_ceil(1000);
    assert!((15_000..30_000).contains(&held), "{held}");

    let fake = FakeNcbi::new(corpus.clone());
    let second = start(&fake);
    let mut resume_args = killed.clone();
    resume_args.push("--resume".into());
    let run = bulk(
        &second,
        &resume_args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("dropped a cut last line"),
        "{}",
        run.stderr
    );
    assert_eq!(line_set(&file), line_set(&whole));
    let resumed = second.count();
    assert!(
        resumed as f64 <= (remaining as f64 * 1.1).ceil(),
        "resumed run sent {resumed} requests; the file lacked {remaining} (killed run sent {sent_before_kill} of {total_requests})"
    );
    assert_eq!(
        fake.counters
            .esummary
            .load(std::sync::atomic::Ordering::SeqCst),
        (30_000 - held).div_ceil(1000)
    );
    assert_eq!(sidecar(&file)["complete"], true);

    // resuming a complete file sends nothing
    let third = start(&FakeNcbi::new(corpus.clone()));
    let run = bulk(
        &third,
        &resume_args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("nothing to resume"), "{}", run.stderr);
    assert_eq!(third.count(), 0);
    assert_eq!(line_set(&file), line_set(&whole));
}

/// PMIDs only, 250,000 hits (33 ESearch requests): stopped half-way by
/// SIGKILL, and again by SIGINT, then resumed; the resumed run sends the
/// ranges of the checkpoint and nothing else.
#[test]
fn all_ids_resume_after_sigkill_and_sigint() {
    let corpus = Corpus::synthetic();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pmids.txt");
    let f = file.to_str().unwrap();
    let args = ["search", "hits250000", "--all", "--output", f];
    let server = start(&FakeNcbi::new(corpus.clone()));
    kill_at(
        &server,
        &args,
        &[("PUBMED_REQUEST_GAP_MS", "60")],
        &file,
        80_000,
        "KILL",
    );
    kill_at(
        &server,
        &[&args[..], &["--resume"]].concat(),
        &[("PUBMED_REQUEST_GAP_MS", "60")],
        &file,
        160_000,
        "INT",
    );
    let todo = sidecar(&file)["checkpoint"]["todo"]
        .as_array()
        .unwrap()
        .len();
    assert!(todo > 0);
    let fresh = start(&FakeNcbi::new(corpus.clone()));
    let run = bulk(&fresh, &[&args[..], &["--resume"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want: HashSet<String> = corpus
        .hits("hits250000")
        .iter()
        .map(u64::to_string)
        .collect();
    assert_eq!(line_set(&file), want);
    assert!(
        fresh.count() <= todo,
        "{} requests for {todo} ranges",
        fresh.count()
    );
    assert!(
        run.stderr.contains("250000 PMIDs written"),
        "{}",
        run.stderr
    );
}

/// A failed range and failed summaries are what a resumed run asks for
/// again, and only that; in CSV the header is written once.
#[test]
fn failures_are_asked_again_on_resume() {
    let corpus = Corpus::synthetic();
    let dir = tempfile::tempdir().unwrap();
    // a range that failed: the rest is in the file, the range is not
    let file = dir.path().join("ids.txt");
    let f = file.to_str().unwrap();
    let broken = FakeNcbi::new(corpus.clone());
    broken.failing_terms.lock().unwrap().push("AND 1:".into());
    let server = start(&broken);
    let run = bulk(&server, &["search", "hits30000", "--all", "--output", f]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(complete_lines(&file) < 30_000);
    let again = start(&FakeNcbi::new(corpus.clone()));
    let run = bulk(
        &again,
        &["search", "hits30000", "--all", "--output", f, "--resume"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(again.count(), 1, "only the failed range is sent again");
    let want: HashSet<String> = corpus
        .hits("hits30000")
        .iter()
        .map(u64::to_string)
        .collect();
    assert_eq!(line_set(&file), want);

    // summaries that failed: their error rows are replaced
    let csv = dir.path().join("one.csv");
    let c = csv.to_str().unwrap();
    let args = [
        "search", "hits1", "--all", "--detail", "brief", "-f", "csv", "--output", c,
    ];
    let timing_out = FakeNcbi::new(corpus.clone());
    *timing_out.esummary_timeout_above.lock().unwrap() = Some(0);
    let run = bulk(&start(&timing_out), &args);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let failed = std::fs::read_to_string(&csv).unwrap();
    assert!(failed.starts_with("pmid,pub_date,title,pub_types,retracted,error\n"));
    assert!(failed.contains("[ncbi_unreachable]"), "{failed}");
    let healthy = start(&FakeNcbi::new(corpus.clone()));
    let run = bulk(&healthy, &[&args[..], &["--resume"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("1 record failed before"),
        "{}",
        run.stderr
    );
    assert_eq!(healthy.count(), 2, "the one ESearch and the one ESummary");
    let whole = dir.path().join("whole.csv");
    let w = whole.to_str().unwrap();
    bulk(
        &start(&FakeNcbi::new(corpus.clone())),
        &[
            "search", "hits1", "--all", "--detail", "brief", "-f", "csv", "--output", w,
        ],
    );
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}

/// A changed query, detail or format says so and refuses to mix; an
/// unfinished file is never overwritten without --resume; a file pubmed did
/// not write is not resumed.
#[test]
fn resume_refuses_to_mix_runs() {
    let corpus = Corpus::synthetic();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    let f = file.to_str().unwrap();
    let broken = FakeNcbi::new(corpus.clone());
    broken.failing_terms.lock().unwrap().push("AND 1:".into());
    let run = bulk(
        &start(&broken),
        &["search", "hits30000", "--all", "--output", f],
    );
    assert_eq!(run.code, 69);
    let before = std::fs::read(&file).unwrap();
    let server = start(&FakeNcbi::new(corpus.clone()));
    for (args, says) in [
        (
            vec!["search", "hits10000", "--all", "--output", f, "--resume"],
            "term was \"hits30000\", now \"hits10000\"",
        ),
        (
            vec![
                "search",
                "hits30000",
                "--all",
                "-f",
                "ndjson",
                "--output",
                f,
                "--resume",
            ],
            "(format was \\\"ids\\\", now \\\"ndjson\\\")",
        ),
        (
            vec![
                "search",
                "hits30000",
                "--all",
                "--mindate",
                "2020",
                "--maxdate",
                "2021",
                "--output",
                f,
                "--resume",
            ],
            "mindate was \"\", now \"2020\"",
        ),
        (
            vec!["search", "hits30000", "--all", "--output", f],
            "add --resume to continue it",
        ),
    ] {
        let run = bulk(&server, &args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("refusing to mix") || says.contains("--resume"));
    }
    assert_eq!(server.count(), 0);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the file is untouched"
    );
    let foreign = dir.path().join("foreign.txt");
    std::fs::write(&foreign, "123\n").unwrap();
    let run = bulk(
        &server,
        &[
            "search",
            "hits1",
            "--all",
            "--output",
            foreign.to_str().unwrap(),
            "--resume",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not written by"), "{}", run.stderr);
    // --resume needs --output, --output needs --all
    assert_eq!(
        bulk(&server, &["search", "hits1", "--all", "--resume"]).code,
        2
    );
    assert_eq!(bulk(&server, &["search", "hits1", "--output", f]).code, 2);
    assert_eq!(server.count(), 0);
}

// ---------------------------------------------------------------------------
// fetch --output FILE --resume

/// 10,000 input lines for `fetch`: a comment, PMIDs, one PubMed does not
/// have (99,000,005: `not_found`) and one malformed (`12x`).
fn fetch_input(dir: &std::path::Path) -> std::path::PathBuf {
    let mut text = String::from("# PMIDs to fetch\n");
    for i in 1..=10_000u64 {
        match i {
            2_500 => text.push_str("12x\n"),
            4_000 => text.push_str("99000005\n"),
            _ => text.push_str(&format!("{}\n", 20_000_000 + i)),
        }
    }
    let path = dir.join("pmids.txt");
    std::fs::write(&path, text).unwrap();
    path
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn efetch_requests(fake: &FakeNcbi) -> usize {
    fake.counters
        .efetch
        .load(std::sync::atomic::Ordering::SeqCst)
}

/// SIGKILL half-way through `fetch --output FILE` of 10,000 lines, a cut
/// last line, then `--resume`: FILE is byte for byte an uninterrupted
/// run's (the same records in input order), and the resumed run asks
/// EFetch only for the PMIDs FILE lacks, 1,000 per request.
#[test]
fn fetch_resumes_after_sigkill_in_input_order() {
    let corpus = Corpus::synthetic();
    let dir = tempfile::tempdir().unwrap();
    let input = fetch_input(dir.path());
    let (file, whole) = (
        dir.path().join("out.ndjson"),
        dir.path().join("whole.ndjson"),
    );
    let args = |out: &std::path::Path| -> Vec<String> {
        vec![
            "fetch".into(),
            "--input".into(),
            input.to_str().unwrap().into(),
            "-f".into(),
            "ndjson".into(),
            "--output".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let fake = FakeNcbi::new(corpus.clone());
    let uninterrupted = start(&fake);
    let a = args(&whole);
    let run = bulk(&uninterrupted, &strs(&a));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "--output leaves stdout alone");
    assert_eq!(efetch_requests(&fake), 10);
    assert_eq!(sidecar(&whole)["complete"], true);
    let text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(text.lines().count(), 10_000);
    let line = |n: usize| -> serde_json::Value {
        serde_json::from_str(text.lines().nth(n - 1).unwrap()).unwrap()
    };
    assert_eq!(line(1)["pmid"], "20000001");
    assert_eq!(line(2_500)["error"]["reason"], "malformed_id");
    assert_eq!(line(4_000)["error"]["reason"], "not_found");
    assert_eq!(line(10_000)["pmid"], "20010000");

    let killed = args(&file);
    let first = start(&FakeNcbi::new(corpus.clone()));
    kill_at(
        &first,
        &strs(&killed),
        &[("PUBMED_REQUEST_GAP_MS", "300")],
        &file,
        5_000,
        "KILL",
    );
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap()
        .write_all(b"{\"pmid\":\"2001")
        .unwrap();
    let held = complete_lines(&file);
    assert!((5_000..10_000).contains(&held), "{held}");
    let remaining = (10_000 - held).div_ceil(1000);

    let fake = FakeNcbi::new(corpus.clone());
    let second = start(&fake);
    let mut resume_args = killed.clone();
    resume_args.push("--resume".into());
    let run = bulk(&second, &strs(&resume_args));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("dropped a cut last line"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read(&file).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    let resumed = efetch_requests(&fake);
    assert!(
        resumed as f64 <= (remaining as f64 * 1.1).ceil(),
        "resumed run sent {resumed} requests; the file lacked {} records ({remaining} requests)",
        10_000 - held
    );
    let asked: usize = fake
        .efetch_batches
        .lock()
        .unwrap()
        .iter()
        .map(Vec::len)
        .sum();
    // the malformed line is never sent; the rest of what FILE lacked is
    let lacked = 10_000 - held - usize::from(held < 2_500);
    assert_eq!(asked, lacked);
    assert_eq!(sidecar(&file)["complete"], true);

    // resuming the finished file asks for nothing
    let fake = FakeNcbi::new(corpus.clone());
    let third = start(&fake);
    let run = bulk(&third, &strs(&resume_args));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(third.count(), 0);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}

/// A resumed `fetch` whose input differs from the one FILE was written
/// from refuses to mix them (exit 2, nothing sent, FILE untouched); so do
/// `--resume` with a format FILE cannot be read back from and a fresh run
/// over an unfinished FILE.
#[test]
fn fetch_resume_refuses_a_changed_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let file = dir.path().join("out.ndjson");
    std::fs::write(&input, "20000001\n20000002\n20000003\n").unwrap();
    let fake = FakeNcbi::new(Corpus::synthetic());
    let server = start(&fake);
    let (i, f) = (input.to_str().unwrap(), file.to_str().unwrap());
    let run = bulk(
        &server,
        &["fetch", "--input", i, "-f", "ndjson", "--output", f],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // as if killed after two records
    let text = std::fs::read_to_string(&file).unwrap();
    let two: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, &two).unwrap();
    let mut s = sidecar(&file);
    s["complete"] = serde_json::Value::Bool(false);
    std::fs::write(
        dir.path().join("out.ndjson.pubmed-resume"),
        serde_json::to_vec(&s).unwrap(),
    )
    .unwrap();

    std::fs::write(&input, "20000001\n20000009\n20000003\n").unwrap();
    let before = server.count();
    let run = bulk(
        &server,
        &[
            "fetch", "--input", i, "-f", "ndjson", "--output", f, "--resume",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("record 2 is PMID 20000009, in ")
            && run.stderr.contains("it is 20000002"),
        "{}",
        run.stderr
    );
    assert_eq!(server.count(), before);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), two);

    std::fs::write(&input, "20000001\n").unwrap();
    let run = bulk(
        &server,
        &[
            "fetch", "--input", i, "-f", "ndjson", "--output", f, "--resume",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("it has 1 records"), "{}", run.stderr);

    let run = bulk(
        &server,
        &["fetch", "--input", i, "-f", "ndjson", "--output", f],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("add --resume"), "{}", run.stderr);

    let run = bulk(
        &server,
        &[
            "fetch", "--input", i, "-f", "xml", "--output", f, "--resume",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--resume needs -f ndjson"),
        "{}",
        run.stderr
    );
    assert_eq!(server.count(), before);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), two);

    // the same input continues where FILE stopped: one request, for the third
    std::fs::write(&input, "20000001\n20000002\n20000003\n").unwrap();
    let run = bulk(
        &server,
        &[
            "fetch", "--input", i, "-f", "ndjson", "--output", f, "--resume",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(
        fake.efetch_batches.lock().unwrap().last().unwrap(),
        &vec!["20000003".to_string()]
    );
}
