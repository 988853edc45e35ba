//! Driving `pubmed mcp` in tests: the binary with the scrubbed environment
//! of the CLI tests against the fake NCBI, an rmcp client over stdio, and
//! raw JSON-RPC lines.

#![allow(dead_code)]

use std::process::Stdio;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::cli::pubmed;
use super::fake_ncbi::{Corpus, FakeNcbi};
use super::server::{TestServer, fixture};

pub fn fake() -> Arc<FakeNcbi> {
    let mut corpus = Corpus::default();
    corpus.add_uniform("hits300", 300, 1_000_000, 41_000_000, 7);
    let fake = FakeNcbi::new(corpus);
    fake.espell.lock().unwrap().insert(
        "asthmaa OR alergies".into(),
        fixture("espell_asthmaa_alergies.xml"),
    );
    fake
}

pub fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

/// `pubmed mcp` with the scrubbed environment of the CLI tests.
pub fn command(server: &TestServer, home: &std::path::Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_pubmed"));
    cmd.arg("mcp")
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_RUNTIME_DIR", home)
        .env("RUST_BACKTRACE", "0")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("PUBMED_REQUEST_GAP_MS", "0")
        .env("PUBMED_RETRY_BASE_MS", "1")
        .env("PUBMED_MAX_RETRIES", "2")
        .env("PUBMED_DEADLINE_S", "5")
        .env("PUBMED_EUTILS_URL", server.eutils_url())
        .env("PUBMED_IDCONV_URL", server.idconv_url())
        .env("PUBMED_EUROPEPMC_URL", server.europepmc_url());
    cmd
}

/// A fake NCBI, its server, and an rmcp client talking to `pubmed mcp`.
pub struct Session {
    pub fake: Arc<FakeNcbi>,
    pub server: TestServer,
    pub c: RunningService<RoleClient, ()>,
    pub _home: tempfile::TempDir,
}

pub async fn session() -> Session {
    let fake = fake();
    let server = start(&fake);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    Session {
        fake,
        server,
        c,
        _home: home,
    }
}

pub async fn client(server: &TestServer, home: &std::path::Path) -> RunningService<RoleClient, ()> {
    let (transport, _stderr) = TokioChildProcess::builder(command(server, home))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    ().serve(transport).await.unwrap()
}

pub async fn call(
    c: &RunningService<RoleClient, ()>,
    tool: &'static str,
    args: Value,
) -> CallToolResult {
    let args = args.as_object().cloned().unwrap();
    c.call_tool(CallToolRequestParams::new(tool).with_arguments(args))
        .await
        .unwrap()
}

/// `v` without `null` members: MCP leaves unknown fields out where the CLI
/// JSON writes `null`.
pub fn no_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), no_nulls(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(no_nulls).collect()),
        other => other.clone(),
    }
}

pub fn cli_json(server: &TestServer, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let run = pubmed(&all).server(server).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.json()
}

pub const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
pub const INITED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Feeds raw lines to `pubmed mcp` (stdin then closed) and returns every
/// stdout line parsed as JSON, asserting stdout carries JSON only.
pub async fn raw(server: &TestServer, lines: &[&str], env: &[(&str, &str)]) -> (Vec<Value>, bool) {
    let bytes: Vec<Vec<u8>> = lines.iter().map(|l| l.as_bytes().to_vec()).collect();
    raw_bytes(server, &bytes, env).await
}

/// Like `raw`, with lines given as bytes (which need not be UTF-8).
pub async fn raw_bytes(
    server: &TestServer,
    lines: &[Vec<u8>],
    env: &[(&str, &str)],
) -> (Vec<Value>, bool) {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = command(server, home.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        stdin.write_all(l).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
    }
    drop(stdin);
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut v = Vec::new();
    while let Some(l) = out.next_line().await.unwrap() {
        let msg: Value = serde_json::from_str(&l)
            .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {l}"));
        assert_eq!(msg["jsonrpc"], "2.0", "{l}");
        v.push(msg);
    }
    let ok = child.wait().await.unwrap().success();
    (v, ok)
}

pub fn by_id(v: &[Value], id: i64) -> &Value {
    v.iter()
        .find(|m| m["id"] == json!(id))
        .unwrap_or_else(|| panic!("no answer for id {id}: {v:?}"))
}

/// A `pubmed mcp` child driven line by line, with every stdout line kept
/// with its arrival time.
pub struct Live {
    pub child: tokio::process::Child,
    stdin: Option<tokio::process::ChildStdin>,
    lines: tokio::sync::mpsc::UnboundedReceiver<(Value, std::time::Instant)>,
    pub seen: Vec<(Value, std::time::Instant)>,
    _home: tempfile::TempDir,
}

impl Live {
    /// Starts `pubmed mcp` against `server` with extra `env`, and
    /// initializes it.
    pub async fn start(server: &TestServer, env: &[(&str, &str)]) -> Live {
        let home = tempfile::tempdir().unwrap();
        let mut cmd = command(server, home.path());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok(Some(l)) = out.next_line().await {
                let v: Value = serde_json::from_str(&l)
                    .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {l}"));
                if tx.send((v, std::time::Instant::now())).is_err() {
                    break;
                }
            }
        });
        let mut live = Live {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
            _home: home,
        };
        live.send(INIT).await;
        live.answer(0, std::time::Duration::from_secs(10)).await;
        live.send(INITED).await;
        live
    }

    /// Writes one line.
    pub async fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    }

    /// Closes stdin.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The answer to request `id` (and when it came), waiting at most `within`.
    pub async fn answer(
        &mut self,
        id: i64,
        within: std::time::Duration,
    ) -> (Value, std::time::Instant) {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(m) = self.seen.iter().find(|(m, _)| m["id"] == json!(id)) {
                return m.clone();
            }
            match tokio::time::timeout_at(deadline, self.lines.recv()).await {
                Ok(Some(m)) => self.seen.push(m),
                Ok(None) => panic!("stdout closed before an answer to {id}: {:?}", self.seen),
                Err(_) => panic!("no answer to {id} within {within:?}: {:?}", self.seen),
            }
        }
    }

    /// Every line until stdout closes, waiting at most `within`.
    pub async fn drain(&mut self, within: std::time::Duration) {
        let _ = tokio::time::timeout(within, async {
            while let Some(m) = self.lines.recv().await {
                self.seen.push(m);
            }
        })
        .await;
    }

    /// Waits for the exit, at most `within`; `None` if it is still running.
    pub async fn exit(&mut self, within: std::time::Duration) -> Option<std::process::ExitStatus> {
        tokio::time::timeout(within, self.child.wait())
            .await
            .ok()
            .map(Result::unwrap)
    }
}

/// A `tools/call` line.
pub fn tool_call(id: i64, tool: &str, args: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": args}}).to_string()
}

/// A `notifications/cancelled` line for request `id`.
pub fn cancel(id: i64) -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "test"}}).to_string()
}

/// Every string in `v` (keys excluded).
pub fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Panics when an MCP answer speaks CLI: a `--flag`, or a `pubmed`
/// subcommand.
pub fn assert_speaks_mcp(r: &CallToolResult) {
    let mut all = Vec::new();
    if let Some(sc) = &r.structured_content {
        strings(sc, &mut all);
    }
    for c in &r.content {
        if let Some(t) = c.as_text() {
            all.push(t.text.clone());
        }
    }
    for s in all {
        let flag = s
            .match_indices("--")
            .any(|(i, _)| s[i + 2..].starts_with(|c: char| c.is_ascii_lowercase()));
        assert!(!flag, "a CLI flag in an MCP answer: {s}");
        for cmd in [
            "pubmed search",
            "pubmed spell",
            "pubmed convert",
            "pubmed config",
            "pubmed help",
        ] {
            assert!(!s.contains(cmd), "a CLI command in an MCP answer: {s}");
        }
    }
}
