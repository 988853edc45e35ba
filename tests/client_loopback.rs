//! The real client (reqwest) against a loopback server, in real time.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pubmed::ncbi::{Client, ClientSettings, Db, Policy};
use support::server::{RateLimit, Reply, TestServer, fixture};

fn settings(server: &TestServer, policy: Policy) -> ClientSettings {
    ClientSettings {
        eutils_url: server.eutils_url(),
        idconv_url: server.idconv_url(),
        policy,
        ..Default::default()
    }
}

#[tokio::test]
async fn a_long_query_goes_out_as_post_and_works() {
    // the capture, echoing the term it is asked for in `<Query>` as ESpell does
    let server = TestServer::start(|r| {
        let capture = String::from_utf8(fixture("espell_biopythooon.xml")).unwrap();
        let term = r.param("term").unwrap_or_default();
        Reply::xml(capture.replace(
            "<Query>biopythooon</Query>",
            &format!("<Query>{term}</Query>"),
        ))
    });
    let client = Client::new(settings(&server, Policy::default()));
    let long = format!("biopythooon {}", "cancer ".repeat(360))
        .trim_end()
        .to_string();
    assert!(long.len() >= 2500);
    let answer = client.espell(Db::Pubmed, &long).await.unwrap();
    assert_eq!(answer.corrected_query, "biopython");
    let short = client.espell(Db::Pubmed, "biopythooon").await.unwrap();
    assert_eq!(short.query, "biopythooon");
    let reqs = server.requests();
    assert_eq!(reqs[0].method, "POST");
    assert_eq!(reqs[0].param("term"), Some(long.as_str()));
    assert_eq!(reqs[0].param("db"), Some("pubmed"));
    assert_eq!(reqs[1].method, "GET");
}

/// The one slow test: a server that answers 429 above 3 requests in any
/// second, and a client with default pacing (400 ms without a key).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn default_pacing_never_trips_a_three_per_second_limit() {
    let limited = Arc::new(AtomicUsize::new(0));
    let limit = RateLimit::default();
    let l2 = limited.clone();
    let server = TestServer::start(move |req| {
        if limit.over(req) {
            l2.fetch_add(1, Ordering::SeqCst);
            Reply::too_many()
        } else {
            Reply::xml(fixture("espell_biopythooon.xml"))
        }
    });
    let client = Arc::new(Client::new(settings(&server, Policy::default())));
    let t0 = Instant::now();
    for _ in 0..30 {
        client.espell(Db::Pubmed, "biopythooon").await.unwrap();
    }
    let concurrent: Vec<_> = (0..8)
        .map(|_| {
            let c = client.clone();
            tokio::spawn(async move { c.espell(Db::Pubmed, "biopythooon").await })
        })
        .collect();
    for h in concurrent {
        h.await.unwrap().unwrap();
    }
    let wall = t0.elapsed();
    let n = server.count();
    assert_eq!(n, 38);
    assert_eq!(limited.load(Ordering::SeqCst), 0, "no 429 may be received");
    let max = server.max_per_second();
    assert!(max <= 3, "at most 3 requests in any second, saw {max}");
    let rate = n as f64 / wall.as_secs_f64();
    eprintln!(
        "pacing: {n} requests in {:.2} s = {rate:.2} req/s; max in any 1-s window: {max}",
        wall.as_secs_f64()
    );
    assert!(wall >= Duration::from_millis(400 * 37));
}

/// ESummary for 2,200 PMIDs: three requests of at most 1,000 IDs (POST
/// above 200), 2,200 records back in the caller's order even when NCBI
/// answers a batch in another order.
#[tokio::test]
async fn esummary_batches_of_1000_keep_esearch_order() {
    let server = TestServer::start(|req| {
        let mut docs: Vec<support::ncbi::Doc> = req
            .param("id")
            .unwrap_or_default()
            .split(',')
            .map(support::ncbi::Doc::new)
            .collect();
        docs.reverse();
        Reply::xml(support::ncbi::esummary(&docs, &[]))
    });
    let client = Client::new(settings(
        &server,
        Policy {
            request_gap: Some(Duration::ZERO),
            ..Policy::default()
        },
    ));
    let pmids: Vec<String> = (0..2200)
        .map(|i| (40_000_000 - i * 7).to_string())
        .collect();
    let answer = client.esummary(Db::Pubmed, &pmids).await.unwrap();
    assert_eq!(answer.docs.len(), 2200);
    assert!(answer.missing.is_empty());
    let got: Vec<&str> = answer.docs.iter().map(|d| d.uid.as_str()).collect();
    let want: Vec<&str> = pmids.iter().map(String::as_str).collect();
    assert_eq!(got, want);
    assert_eq!(answer.docs[0].title, format!("Article {}.", pmids[0]));
    let mut reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    reqs.sort_by_key(|r| std::cmp::Reverse(r.param("id").unwrap().len()));
    let sizes: Vec<usize> = reqs
        .iter()
        .map(|r| r.param("id").unwrap().split(',').count())
        .collect();
    assert_eq!(sizes, vec![1000, 1000, 200]);
    // 1,000 IDs: over 200 IDs; 200 IDs of 8 digits: over 2,000 encoded characters.
    let methods: Vec<&str> = reqs.iter().map(|r| r.method.as_str()).collect();
    assert_eq!(methods, vec!["POST", "POST", "POST"]);
    assert!(reqs.iter().all(|r| r.param("version") == Some("2.0")));
}

/// A TLS server on 127.0.0.1 presenting the self-signed certificate in
/// `tests/fixtures/tls/` (issued for `pubmed-test.invalid`); counts the TCP
/// connections it accepts and runs each handshake to its end.
fn self_signed_tls_server() -> (u16, Arc<AtomicUsize>) {
    pubmed::ncbi::transport::install_tls_provider();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls");
    let cert =
        rustls::pki_types::CertificateDer::from(std::fs::read(dir.join("cert.der")).unwrap());
    let key =
        rustls::pki_types::PrivateKeyDer::Pkcs8(std::fs::read(dir.join("key.der")).unwrap().into());
    let config = Arc::new(
        rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(vec![cert], key)
            .unwrap(),
    );
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepts = Arc::new(AtomicUsize::new(0));
    let counted = accepts.clone();
    std::thread::spawn(move || {
        for sock in listener.incoming() {
            let Ok(mut sock) = sock else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            let mut conn = rustls::ServerConnection::new(config.clone()).unwrap();
            while conn.is_handshaking() {
                // The client's alert (unknown CA) ends the handshake here.
                if conn.complete_io(&mut sock).is_err() {
                    break;
                }
            }
        }
    });
    (port, accepts)
}

/// Issue 27: a certificate that does not verify (here self-signed, for
/// another name) is not retried: one connection, then `ncbi_unreachable`
/// naming the host and the certificate problem, with a hint.
#[tokio::test]
async fn a_certificate_that_does_not_verify_is_tried_once() {
    let (port, accepts) = self_signed_tls_server();
    let client = Client::new(ClientSettings {
        eutils_url: format!("https://127.0.0.1:{port}/entrez/eutils/"),
        ..Default::default()
    });
    let e = client.espell(Db::Pubmed, "biopythooon").await.unwrap_err();
    assert_eq!(e.reason, pubmed::error::Reason::NcbiUnreachable);
    assert_eq!(accepts.load(Ordering::SeqCst), 1, "{}", e.message);
    assert!(e.message.contains("ESpell (127.0.0.1)"), "{}", e.message);
    assert!(
        e.message.contains("TLS certificate does not verify")
            && e.message
                .contains("not issued by an authority this machine trusts"),
        "{}",
        e.message
    );
    assert!(e.message.contains("not retried"), "{}", e.message);
    assert!(e.hint().contains("PUBMED_EUTILS_URL"), "{}", e.hint());
}
