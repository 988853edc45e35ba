//! `pubmed mcp --http` end to end: the built binary serving MCP streamable
//! HTTP on 127.0.0.1, driven by rmcp's HTTP client and by raw HTTP, against
//! the fake NCBI.

use crate::support;

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use support::mcp::{command, fake, start};
use support::server::{Reply, TestServer};
use tokio::io::{AsyncBufReadExt, BufReader};

/// A running `pubmed mcp --http 127.0.0.1:0`, its URL and its stderr.
struct Http {
    child: tokio::process::Child,
    url: String,
    log: Arc<Mutex<Vec<String>>>,
    _home: tempfile::TempDir,
}

impl Http {
    async fn start(server: &TestServer, args: &[&str], env: &[(&str, &str)]) -> Http {
        let home = tempfile::tempdir().unwrap();
        let mut cmd = command(server, home.path());
        cmd.args(["--http", "127.0.0.1:0"]).args(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            // a failing test must not leave the server running
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = tokio::sync::oneshot::channel();
        let mut tx = Some(tx);
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let log2 = log.clone();
        tokio::spawn(async move {
            while let Ok(Some(l)) = lines.next_line().await {
                if let Some(at) = l.find("http://")
                    && let Some(tx) = tx.take()
                {
                    let url = l[at..].split_whitespace().next().unwrap().to_string();
                    let _ = tx.send(url);
                }
                log2.lock().unwrap().push(l);
            }
        });
        let url = tokio::time::timeout(Duration::from_secs(10), rx)
            .await
            .expect("the server says where it listens")
            .unwrap();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
            "{url}"
        );
        Http {
            child,
            url,
            log,
            _home: home,
        }
    }

    async fn client(&self, token: Option<&str>) -> RunningService<RoleClient, ()> {
        pubmed::ncbi::transport::install_tls_provider();
        let mut config = StreamableHttpClientTransportConfig::with_uri(self.url.as_str());
        if let Some(t) = token {
            config = config.auth_header(t);
        }
        ().serve(StreamableHttpClientTransport::from_config(config))
            .await
            .unwrap()
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

async fn call(
    c: &RunningService<RoleClient, ()>,
    tool: &'static str,
    args: Value,
) -> CallToolResult {
    c.call_tool(CallToolRequestParams::new(tool).with_arguments(args.as_object().cloned().unwrap()))
        .await
        .unwrap()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// A raw POST to the endpoint.
fn post(url: &str, body: impl Into<reqwest::Body>) -> reqwest::RequestBuilder {
    pubmed::ncbi::transport::install_tls_provider();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
}

/// Two agents at once on one server: each gets its own answers, and their
/// NCBI requests share one pacer (at least the gap apart).
#[tokio::test]
async fn two_clients_at_once_share_one_server_and_one_ncbi_budget() {
    let fake = fake();
    let server = start(&fake);
    // No cache: a client whose call starts after the other's answer was
    // stored would be answered from it (one request fewer under load).
    let http = Http::start(
        &server,
        &[],
        &[("PUBMED_REQUEST_GAP_MS", "300"), ("PUBMED_CACHE", "off")],
    )
    .await;
    let (a, b) = tokio::join!(http.client(None), http.client(None));
    let run = |c: RunningService<RoleClient, ()>| async move {
        let (s, p, v) = tokio::join!(
            call(
                &c,
                "pubmed_search_articles",
                json!({"query": "hits300", "detail": "ids", "maxResults": 5})
            ),
            call(
                &c,
                "pubmed_spell_check",
                json!({"query": "asthmaa OR alergies"})
            ),
            call(
                &c,
                "pubmed_convert_ids",
                json!({"ids": ["23193287"], "idType": "pmid"})
            ),
        );
        c.cancel().await.unwrap();
        (s, p, v)
    };
    let ((s1, p1, v1), (s2, p2, v2)) = tokio::join!(run(a), run(b));
    for (s, p, v) in [(s1, p1, v1), (s2, p2, v2)] {
        let s = s.structured_content.unwrap();
        assert_eq!(s["totalCount"], 300);
        assert_eq!(s["pmids"].as_array().unwrap().len(), 5);
        assert_eq!(
            p.structured_content.unwrap()["corrected"],
            "asthma OR allergies"
        );
        assert_eq!(
            v.structured_content.unwrap()["records"][0]["pmcid"],
            "PMC3531190"
        );
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 6, "one request per call");
    // The pacer spaces starts per rate-limit lane (E-utilities and the ID
    // Converter are limited apart): 4 E-utilities and 2 Converter requests.
    for lane in ["eutils", "idconv"] {
        let mut at: Vec<Instant> = requests
            .iter()
            .filter(|r| r.lane() == lane)
            .map(|r| r.at)
            .collect();
        assert_eq!(at.len(), if lane == "eutils" { 4 } else { 2 }, "{lane}");
        at.sort();
        for w in at.windows(2) {
            let gap = w[1] - w[0];
            // 300 ms at the client; arrival times at the test server jitter
            // under load, and without one shared pacer the two sessions'
            // requests would arrive together.
            assert!(
                gap >= Duration::from_millis(200),
                "{lane} starts {gap:?} apart: one pacer for both sessions"
            );
        }
    }
    let log = http.log();
    assert!(
        log.iter().filter(|l| l.contains("POST /mcp → 200")).count() >= 8,
        "{log:?}"
    );
}

/// A client that drops its connection mid-call stops that call's work (no
/// more retries reach NCBI), and the server goes on serving others.
#[tokio::test]
async fn a_client_that_disconnects_mid_call_stops_its_work() {
    let fake = fake();
    let f = fake.clone();
    let server = TestServer::start(move |r| {
        if r.is("espell.fcgi") {
            Reply::status(503, "text/plain", "Service Unavailable")
        } else {
            f.reply(r)
        }
    });
    let http = Http::start(
        &server,
        &[],
        &[
            ("PUBMED_MAX_RETRIES", "6"),
            ("PUBMED_RETRY_BASE_MS", "400"),
            ("PUBMED_DEADLINE_S", "60"),
        ],
    )
    .await;
    let other = http.client(None).await;
    // the raw client: initialize, initialized, then a call it abandons
    let init = post(&http.url, INIT).send().await.unwrap();
    assert_eq!(init.status(), 200);
    let session = init.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let _ = init.text().await;
    let done = post(
        &http.url,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .header("mcp-session-id", &session)
    .header("mcp-protocol-version", "2025-06-18")
    .send()
    .await
    .unwrap();
    assert_eq!(done.status(), 202);
    let call_line = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "pubmed_spell_check", "arguments": {"query": "asthma"}}}).to_string();
    let pending = post(&http.url, call_line)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert_eq!(pending.status(), 200);
    let t = Instant::now();
    while server.count() == 0 && t.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(pending); // the connection closes mid-answer
    let dropped = Instant::now();
    // the other session is served meanwhile
    let r = call(
        &other,
        "pubmed_search_articles",
        json!({"query": "hits300", "detail": "ids"}),
    )
    .await;
    assert_eq!(r.structured_content.unwrap()["totalCount"], 300);
    // Without cancellation the retries would go on: attempts at about
    // 0, 0.4, 1.2 and 2.8 s.
    tokio::time::sleep(Duration::from_millis(2500).saturating_sub(dropped.elapsed())).await;
    let spells = server
        .requests()
        .iter()
        .filter(|r| r.is("espell.fcgi"))
        .count();
    assert_eq!(spells, 1, "no retry after the client left");
    other.cancel().await.unwrap();
}

/// A missing or wrong token is 401, a foreign Origin 403, a body over the
/// limit 413 — each logged without the token, none disturbing a session.
#[tokio::test]
async fn bad_tokens_foreign_origins_and_big_bodies_are_refused_without_disturbing_sessions() {
    let token = "s3cret-token-0123456789";
    let fake = fake();
    let server = start(&fake);
    let http = Http::start(
        &server,
        &["--allow-origin", "https://app.example.org"],
        &[("PUBMED_MCP_TOKEN", token)],
    )
    .await;
    assert!(
        http.log()
            .iter()
            .any(|l| l.contains("(bearer token required)"))
    );
    let agent = http.client(Some(token)).await;
    let r = call(
        &agent,
        "pubmed_spell_check",
        json!({"query": "asthmaa OR alergies"}),
    )
    .await;
    assert_eq!(
        r.structured_content.unwrap()["corrected"],
        "asthma OR allergies"
    );

    let r = post(&http.url, INIT).send().await.unwrap();
    assert_eq!(r.status(), 401, "no token");
    assert_eq!(r.headers()["www-authenticate"], "Bearer realm=\"pubmed\"");
    // a body a client shows, saying what to send
    let v: Value = r.json().await.unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Authorization: Bearer <token>"),
        "{v}"
    );
    for auth in [
        "Bearer wrong-token",
        &format!("Basic {token}"),
        &format!("Bearer {token}x"),
        "Bearer ",
    ] {
        let r = post(&http.url, INIT)
            .header("authorization", auth)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401, "{auth}");
    }
    let bearer = format!("Bearer {token}");
    let r = post(&http.url, INIT)
        .header("authorization", &bearer)
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403, "a foreign Origin (DNS rebinding)");
    // issue 27: a portless --allow-origin is the default port only
    for origin in ["https://app.example.org:8443", "http://app.example.org"] {
        let r = post(&http.url, INIT)
            .header("authorization", &bearer)
            .header("origin", origin)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "{origin} is another origin");
    }
    for origin in [
        "http://localhost:5173",
        "https://app.example.org",
        "https://app.example.org:443",
    ] {
        let r = post(&http.url, INIT)
            .header("authorization", &bearer)
            .header("origin", origin)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{origin} is allowed");
    }
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"pubmed_spell_check","arguments":{{"query":"{}"}}}}}}"#,
        "a".repeat(5 * 1024 * 1024)
    );
    let r = post(&http.url, big)
        .header("authorization", &bearer)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413, "over the 4 MiB body limit");
    assert_eq!(
        r.headers()["connection"],
        "close",
        "the client knows not to reuse it"
    );
    let r = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(http.url.replace("/mcp", "/other"))
        .header("authorization", &bearer)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);

    // the session is undisturbed
    let r = call(
        &agent,
        "pubmed_convert_ids",
        json!({"ids": ["23193287"], "idType": "pmid"}),
    )
    .await;
    assert_eq!(
        r.structured_content.unwrap()["records"][0]["pmcid"],
        "PMC3531190"
    );
    agent.cancel().await.unwrap();

    let log = http.log();
    for status in ["→ 401", "→ 403", "→ 413", "→ 404"] {
        assert!(
            log.iter().any(|l| l.contains(status)),
            "{status} logged: {log:?}"
        );
    }
    assert!(
        log.iter().all(|l| !l.contains(token)),
        "the token is never logged: {log:?}"
    );
}

/// Off loopback the server refuses to start without a token (exit 2, no
/// socket opened); SIGTERM ends a running one with exit 0.
#[tokio::test]
async fn a_token_is_required_off_loopback_and_sigterm_ends_the_server() {
    let fake = fake();
    let server = start(&fake);
    let run = support::cli::pubmed(&["mcp", "--http", "0.0.0.0:0"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("PUBMED_MCP_TOKEN"), "{}", run.stderr);
    let run = support::cli::pubmed(&["mcp", "--token", "x"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2, "--token needs --http: {}", run.stderr);

    let mut http = Http::start(&server, &[], &[]).await;
    let c = http.client(None).await;
    let r = call(
        &c,
        "pubmed_spell_check",
        json!({"query": "asthmaa OR alergies"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false));
    let pid = http.child.id().unwrap().to_string();
    let sent = Instant::now();
    assert!(
        std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = tokio::time::timeout(Duration::from_secs(10), http.child.wait())
        .await
        .expect("exits")
        .unwrap();
    assert!(status.success(), "{status:?}");
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "{:?}",
        sent.elapsed()
    );
    drop(c);
}

/// A port already in use is the user's address to change (exit 2,
/// `invalid_argument`), not an NCBI outage (69).
#[test]
fn a_busy_port_is_a_usage_error_not_an_ncbi_outage() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let run = support::cli::pubmed(&["mcp", "--http", &addr]).run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("cannot listen on {addr}"))
            && run.stderr.contains("[invalid_argument]"),
        "{}",
        run.stderr
    );
    drop(busy);
}

/// Issue 27: bodies that are not one JSON-RPC 2.0 message get the
/// JSON-RPC error stdio gives (not HTTP 415 with plain text); `DELETE` of a
/// session ends it with 200, and of an unknown or ended session is 404.
#[tokio::test]
async fn bad_json_is_a_json_rpc_error_and_delete_follows_the_spec() {
    let fake = fake();
    let server = start(&fake);
    let http = Http::start(&server, &[], &[]).await;
    for (body, code, id) in [
        ("{not json", -32700, Value::Null),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            -32600,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
            -32600,
            json!(7),
        ),
    ] {
        let r = post(&http.url, body).send().await.unwrap();
        assert_eq!(r.status(), 400, "{body}");
        assert_eq!(r.headers()["content-type"], "application/json");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["jsonrpc"], "2.0");
        assert_eq!(v["error"]["code"], code, "{body}");
        assert_eq!(v["id"], id, "{body}");
    }
    let r = post(&http.url, INIT).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_string();
    let delete = |sid: String| {
        let url = http.url.clone();
        async move {
            reqwest::Client::builder()
                .no_proxy()
                .build()
                .unwrap()
                .delete(url)
                .header("mcp-session-id", sid)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(delete(sid.clone()).await, 200);
    assert_eq!(delete(sid).await, 404, "already ended");
    assert_eq!(delete("no-such-session".into()).await, 404);
}

/// Issue 27: 2,000 connections that never finish their headers do not
/// keep a well-behaved client from being served, and the log stays small.
#[tokio::test]
async fn half_open_connections_do_not_lock_out_a_client() {
    let fake = fake();
    let server = start(&fake);
    let http = Http::start(&server, &[], &[]).await;
    let addr = http
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_string();
    let mut idle = Vec::new();
    for _ in 0..2_000 {
        if let Ok(Ok(mut s)) = tokio::time::timeout(
            Duration::from_secs(5),
            tokio::net::TcpStream::connect(&addr),
        )
        .await
        {
            use tokio::io::AsyncWriteExt;
            let _ = s
                .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .await;
            idle.push(s);
        }
    }
    assert!(idle.len() > 1_000, "{} connections opened", idle.len());
    let r = tokio::time::timeout(Duration::from_secs(10), post(&http.url, INIT).send())
        .await
        .expect("served while the half-open connections are held")
        .unwrap();
    assert_eq!(r.status(), 200);
    let c = http.client(None).await;
    let r = call(
        &c,
        "pubmed_spell_check",
        json!({"query": "asthmaa OR alergies"}),
    )
    .await;
    assert_eq!(
        r.structured_content.unwrap()["corrected"],
        "asthma OR allergies"
    );
    drop(idle);
    let bytes: usize = http.log().iter().map(|l| l.len() + 1).sum();
    assert!(bytes < 1_000_000, "the log is {bytes} bytes");
}

/// Issue 27: sessions are capped (256); attempts beyond get 503 with a
/// JSON-RPC error, and memory stays bounded. The refusals' log is rate
/// limited (one line a second at most), and the lines written plus the
/// counts they (and the summary at SIGTERM) give of the others are every
/// refusal.
#[tokio::test]
async fn sessions_are_capped_and_memory_stays_bounded() {
    let fake = fake();
    let server = start(&fake);
    let mut http = Http::start(&server, &[], &[]).await;
    let t0 = Instant::now();
    // This test may be the first in its process to build a TLS-capable client.
    pubmed::ncbi::transport::install_tls_provider();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let (mut ok, mut busy) = (0, 0);
    for _ in 0..1_000 {
        let r = client
            .post(&http.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(INIT)
            .send()
            .await
            .unwrap();
        match r.status().as_u16() {
            200 => ok += 1,
            503 => {
                assert_eq!(r.headers()["retry-after"], "30");
                let v: Value = r.json().await.unwrap();
                assert!(
                    v["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains("256 MCP sessions")
                );
                busy += 1;
            }
            s => panic!("status {s}"),
        }
    }
    assert_eq!((ok, busy), (256, 744));
    let pid = http.child.id().unwrap();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(rss_kb < 200 * 1024, "RSS {rss_kb} kB");

    let elapsed = t0.elapsed();
    assert!(
        std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap()
            .success()
    );
    tokio::time::timeout(Duration::from_secs(10), http.child.wait())
        .await
        .expect("exits")
        .unwrap();
    // the reader task takes the last lines after the exit
    let summary = "session refusals (HTTP 503, 256 sessions open) not logged";
    for _ in 0..100 {
        if http.log().iter().any(|l| l.contains(summary)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let log = http.log();
    let refusals: Vec<&String> = log
        .iter()
        .filter(|l| l.contains("POST /mcp → 503"))
        .collect();
    // One line a second at most (the first at once).
    assert!(
        refusals.len() as u64 <= elapsed.as_secs() + 1,
        "{} lines in {elapsed:?}",
        refusals.len()
    );
    let counted = |l: &str| -> u64 {
        l.split(" (")
            .filter_map(|p| p.split_once(" more session refusals"))
            .map(|(n, _)| n.parse::<u64>().unwrap())
            .sum()
    };
    let said: u64 = refusals.iter().map(|l| counted(l)).sum();
    let summary_line = log.iter().find(|l| l.contains(summary));
    let at_stop = summary_line.map_or(0, |l| {
        l.split_whitespace()
            .find_map(|w| w.parse::<u64>().ok())
            .unwrap()
    });
    assert_eq!(
        refusals.len() as u64 + said + at_stop,
        744,
        "{refusals:?} {summary_line:?}"
    );
}
