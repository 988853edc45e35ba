//! `pubmed mcp` end to end: the built binary driven by rmcp's client over
//! stdio (and by raw lines), against the fake NCBI on 127.0.0.1.

mod support;

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use support::cli::pubmed;
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::{Reply, TestServer, fixture};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn fake() -> Arc<FakeNcbi> {
    let mut corpus = Corpus::default();
    corpus.add_uniform("hits300", 300, 1_000_000, 41_000_000, 7);
    let fake = FakeNcbi::new(corpus);
    fake.espell.lock().unwrap().insert(
        "asthmaa OR alergies".into(),
        fixture("espell_asthmaa_alergies.xml"),
    );
    fake
}

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

/// `pubmed mcp` with the scrubbed environment of the CLI tests.
fn command(server: &TestServer, home: &std::path::Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_pubmed"));
    cmd.arg("mcp")
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("RUST_BACKTRACE", "0")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("PUBMED_REQUEST_GAP_MS", "0")
        .env("PUBMED_RETRY_BASE_MS", "1")
        .env("PUBMED_MAX_RETRIES", "2")
        .env("PUBMED_DEADLINE_S", "5")
        .env("PUBMED_EUTILS_URL", server.eutils_url())
        .env("PUBMED_IDCONV_URL", server.idconv_url());
    cmd
}

/// A fake NCBI, its server, and an rmcp client talking to `pubmed mcp`.
struct Session {
    fake: Arc<FakeNcbi>,
    server: TestServer,
    c: RunningService<RoleClient, ()>,
    _home: tempfile::TempDir,
}

async fn session() -> Session {
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

async fn client(server: &TestServer, home: &std::path::Path) -> RunningService<RoleClient, ()> {
    let (transport, _stderr) = TokioChildProcess::builder(command(server, home))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    ().serve(transport).await.unwrap()
}

async fn call(
    c: &RunningService<RoleClient, ()>,
    tool: &'static str,
    args: Value,
) -> CallToolResult {
    let args = args.as_object().cloned().unwrap();
    c.call_tool(CallToolRequestParams::new(tool).with_arguments(args))
        .await
        .unwrap()
}

fn cli_json(server: &TestServer, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let run = pubmed(&all).server(server).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.json()
}

#[tokio::test]
async fn initialize_and_list_the_tools() {
    let Session {
        fake: _fake,
        server: _server,
        c,
        _home,
    } = session().await;
    let info = c.peer_info().unwrap();
    let si = info.server_info.as_ref().unwrap();
    assert_eq!(si.name, "pubmed");
    assert_eq!(si.version, env!("CARGO_PKG_VERSION"));
    let tools = c.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            "pubmed_convert_ids",
            "pubmed_fetch_articles",
            "pubmed_find_related",
            "pubmed_format_citations",
            "pubmed_search_articles",
            "pubmed_spell_check"
        ]
    );
    for t in &tools {
        let a = t.annotations.as_ref().unwrap();
        assert_eq!(a.read_only_hint, Some(true), "{}", t.name);
        assert_eq!(a.open_world_hint, Some(true), "{}", t.name);
        assert!(t.output_schema.is_some(), "{}", t.name);
        assert!(t.description.as_ref().unwrap().len() > 80, "{}", t.name);
        let input = Value::Object((*t.input_schema).clone());
        assert_eq!(input["additionalProperties"], false, "{}", t.name);
        assert_eq!(input["type"], "object");
    }
    let search = tools
        .iter()
        .find(|t| t.name == "pubmed_search_articles")
        .unwrap();
    let props = search.input_schema["properties"].as_object().unwrap();
    let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        vec![
            "author",
            "dateRange",
            "freeFullText",
            "hasAbstract",
            "journal",
            "language",
            "maxResults",
            "meshTerms",
            "offset",
            "publicationTypes",
            "query",
            "sort",
            "species",
            "summaryCount"
        ]
    );
    assert_eq!(props["maxResults"]["maximum"], 1000);
    assert_eq!(props["offset"]["maximum"], 9998);
    assert_eq!(props["summaryCount"]["maximum"], 50);
    let convert = tools
        .iter()
        .find(|t| t.name == "pubmed_convert_ids")
        .unwrap();
    assert_eq!(convert.input_schema["properties"]["ids"]["maxItems"], 50);
    c.cancel().await.unwrap();
}

/// Every advertised input schema compiles under draft-07 and 2020-12
/// validators and avoids what cli.md rules out; outputs validate against
/// the output schemas.
#[tokio::test]
async fn schemas_are_portable_and_outputs_conform() {
    let Session {
        fake: _fake,
        server: _server,
        c,
        _home,
    } = session().await;
    let tools = c.list_all_tools().await.unwrap();
    fn forbidden(v: &Value, path: &str) {
        match v {
            Value::Object(m) => {
                for k in [
                    "$ref",
                    "$defs",
                    "definitions",
                    "$schema",
                    "anyOf",
                    "oneOf",
                    "allOf",
                ] {
                    assert!(!m.contains_key(k), "{path}: {k}");
                }
                if let Some(Value::Array(_)) = m.get("type") {
                    panic!("{path}: a type array");
                }
                for (k, v) in m {
                    forbidden(v, &format!("{path}/{k}"));
                }
            }
            Value::Array(a) => a.iter().for_each(|v| forbidden(v, path)),
            _ => {}
        }
    }
    let mut outputs = Vec::new();
    for t in &tools {
        let input = Value::Object((*t.input_schema).clone());
        forbidden(&input, &t.name);
        jsonschema::draft7::new(&input).unwrap_or_else(|e| panic!("{}: draft-07: {e}", t.name));
        jsonschema::draft202012::new(&input).unwrap_or_else(|e| panic!("{}: 2020-12: {e}", t.name));
        let out = Value::Object((**t.output_schema.as_ref().unwrap()).clone());
        outputs.push((
            t.name.to_string(),
            jsonschema::draft202012::new(&out).unwrap(),
        ));
    }
    let results = [
        (
            "pubmed_search_articles",
            call(
                &c,
                "pubmed_search_articles",
                json!({"query": "hits300", "summaryCount": 3}),
            )
            .await,
        ),
        (
            "pubmed_spell_check",
            call(
                &c,
                "pubmed_spell_check",
                json!({"query": "asthmaa OR alergies"}),
            )
            .await,
        ),
        (
            "pubmed_convert_ids",
            call(
                &c,
                "pubmed_convert_ids",
                json!({"ids": ["23193287", "14"], "idType": "pmid"}),
            )
            .await,
        ),
        (
            "pubmed_find_related",
            call(
                &c,
                "pubmed_find_related",
                json!({"pmid": "9298984", "kind": "references", "maxResults": 3}),
            )
            .await,
        ),
        (
            "pubmed_fetch_articles",
            call(
                &c,
                "pubmed_fetch_articles",
                json!({"pmids": ["9700097", "99999999"], "includeAffiliations": true}),
            )
            .await,
        ),
    ];
    for (name, r) in results {
        assert_eq!(r.is_error, Some(false), "{name}: {r:?}");
        let sc = r.structured_content.unwrap();
        let (_, v) = outputs.iter().find(|(n, _)| n == name).unwrap();
        assert!(v.is_valid(&sc), "{name}: {sc}");
        assert!(!r.content[0].as_text().unwrap().text.is_empty());
    }
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn tools_return_what_the_cli_returns() {
    let Session {
        fake: _fake,
        server,
        c,
        _home,
    } = session().await;

    // spell: every field, on the real capture
    let r = call(
        &c,
        "pubmed_spell_check",
        json!({"query": "asthmaa OR alergies"}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["corrected"], "asthma OR allergies");
    let cli = cli_json(&server, &["spell", "asthmaa OR alergies"]);
    for f in ["original", "corrected", "hasSuggestion"] {
        assert_eq!(sc[f], cli[f], "{f}");
    }

    // search: pmids, count, effectiveQuery
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "hits300", "maxResults": "5", "offset": 3, "sort": null, "author": ""}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    let cli = cli_json(
        &server,
        &["search", "hits300", "--retmax", "5", "--retstart", "3"],
    );
    assert_eq!(sc["pmids"], cli["pmids"]);
    assert_eq!(sc["pmids"].as_array().unwrap().len(), 5);
    assert_eq!(sc["totalCount"], cli["count"]);
    assert_eq!(sc["totalCount"], 300);
    assert_eq!(sc["effectiveQuery"], cli["effectiveQuery"]);
    assert_eq!(sc["offset"], 3);
    assert_eq!(sc["maxResults"], 5);

    // filters and dates map onto the same request
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "", "meshTerms": ["Asthma"], "publicationTypes": ["Review"], "dateRange": {"minDate": "2020", "maxDate": "2021", "dateType": "edat"}, "species": "humans"}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    let cli = cli_json(
        &server,
        &[
            "search",
            "",
            "--mesh",
            "Asthma",
            "--pubtype",
            "Review",
            "--mindate",
            "2020",
            "--maxdate",
            "2021",
            "--datetype",
            "edat",
            "--species",
            "humans",
        ],
    );
    assert_eq!(sc["effectiveQuery"], cli["effectiveQuery"]);
    assert_eq!(sc["appliedFilters"], cli["appliedFilters"]);
    let last = server
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.is("esearch.fcgi"))
        .unwrap();
    assert_eq!(last.param("datetype"), Some("edat"));

    // summaries: at most summaryCount, same records as the CLI's
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "hits300", "summaryCount": 2}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["pmids"].as_array().unwrap().len(), 20);
    assert_eq!(sc["summaries"].as_array().unwrap().len(), 2);
    let cli = cli_json(&server, &["search", "hits300"]);
    assert_eq!(sc["summaries"][0]["title"], cli["summaries"][0]["title"]);
    assert_eq!(sc["summaries"][1]["pmid"], cli["summaries"][1]["pmid"]);

    // convert: each record's pmid/pmcid/doi and the totals
    let ids = json!(["PMC3531190", "pmc3531190", "PMC5000014", "PMC5001000"]);
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": ids, "idType": "pmcid"}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    let cli = cli_json(
        &server,
        &[
            "convert",
            "--from",
            "pmcid",
            "PMC3531190",
            "pmc3531190",
            "PMC5000014",
            "PMC5001000",
        ],
    );
    let (m, l) = (
        sc["records"].as_array().unwrap(),
        cli["records"].as_array().unwrap(),
    );
    assert_eq!(m.len(), 4);
    for (a, b) in m.iter().zip(l) {
        assert_eq!(a["requestedId"], b["requested"]);
        for f in ["pmid", "pmcid", "doi"] {
            assert_eq!(a.get(f), b.get(f).filter(|v| !v.is_null()), "{f}");
        }
        assert_eq!(a.get("errmsg"), b["error"].get("message"));
    }
    assert_eq!(sc["totalConverted"], cli["converted"]);
    assert_eq!(sc["totalSubmitted"], cli["submitted"]);
    assert_eq!(sc["totalConverted"], 3);
    assert!(m[2]["errmsg"].as_str().unwrap().contains("not in PMC"));
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn validation_failures_never_reach_ncbi() {
    let Session {
        fake: _fake,
        server,
        c,
        _home,
    } = session().await;
    let ids51: Vec<String> = (1..=51).map(|i| i.to_string()).collect();
    let cases = [
        (
            "pubmed_spell_check",
            json!({"query": " \u{200B} "}),
            "blank_query",
            -32007,
        ),
        (
            "pubmed_search_articles",
            json!({"query": "[ti]"}),
            "blank_query",
            -32007,
        ),
        (
            "pubmed_search_articles",
            json!({"query": "x", "author": "  "}),
            "blank_filter",
            -32007,
        ),
        (
            "pubmed_search_articles",
            json!({"query": "x", "dateRange": {"minDate": "2023/02/29"}}),
            "invalid_date_range",
            -32007,
        ),
        (
            "pubmed_search_articles",
            json!({"query": "x", "offset": 9999}),
            "invalid_argument",
            -32602,
        ),
        (
            "pubmed_search_articles",
            json!({"query": "x", "maxResults": 1001}),
            "invalid_argument",
            -32602,
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": ["23193287", "PMC1"], "idType": "pmid"}),
            "malformed_id",
            -32007,
        ),
        // whitespace anywhere in an element is malformed, never trimmed
        (
            "pubmed_convert_ids",
            json!({"ids": [" 23193287"], "idType": "pmid"}),
            "malformed_id",
            -32007,
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": ["PMC3531190 "], "idType": "pmcid"}),
            "malformed_id",
            -32007,
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": ["10.1038/ ng.590"], "idType": "doi"}),
            "malformed_id",
            -32007,
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": ["PMC0"], "idType": "pmcid"}),
            "malformed_id",
            -32007,
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": ids51, "idType": "pmid"}),
            "invalid_argument",
            -32602,
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": [], "idType": "pmid"}),
            "invalid_argument",
            -32602,
        ),
    ];
    for (tool, args, reason, code) in cases {
        let r = call(&c, tool, args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{tool} {args}");
        let sc = r.structured_content.unwrap();
        let e = &sc["error"];
        assert_eq!(e["data"]["reason"], reason, "{tool} {args}");
        assert_eq!(e["code"], code, "{tool} {args}");
        assert!(e["data"]["recovery"]["hint"].is_string());
        assert_eq!(e["data"]["retryable"], false);
        let text: Value = serde_json::from_str(&r.content[0].as_text().unwrap().text).unwrap();
        assert_eq!(text, sc, "the same in text");
    }
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": ["23193287", "PMC1"], "idType": "pmid"}),
    )
    .await;
    assert!(
        r.structured_content.unwrap()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("PMC1")
    );
    // wrong types are JSON-RPC errors
    let args = json!({"query": 42}).as_object().cloned().unwrap();
    let e = c
        .call_tool(CallToolRequestParams::new("pubmed_spell_check").with_arguments(args))
        .await
        .unwrap_err();
    match e {
        rmcp::ServiceError::McpError(e) => assert_eq!(e.code.0, -32602),
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 0, "nothing reached NCBI");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn upstream_failures_are_tool_errors_with_client_md_codes() {
    let fake = fake();
    fake.failing_terms.lock().unwrap().push("boom".into());
    let server = start(&fake);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    let r = call(&c, "pubmed_search_articles", json!({"query": "boom"})).await;
    assert_eq!(r.is_error, Some(true));
    let e = &r.structured_content.unwrap()["error"];
    assert_eq!(e["data"]["reason"], "ncbi_unreachable");
    assert_eq!(e["code"], -32000);
    assert_eq!(e["data"]["retryable"], true);
    assert_eq!(fake.counters.esearch.load(Ordering::SeqCst), 3);
    c.cancel().await.unwrap();
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
const INITED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Feeds raw lines to `pubmed mcp` (stdin then closed) and returns every
/// stdout line parsed as JSON, asserting stdout carries JSON only.
async fn raw(server: &TestServer, lines: &[&str], env: &[(&str, &str)]) -> (Vec<Value>, bool) {
    let bytes: Vec<Vec<u8>> = lines.iter().map(|l| l.as_bytes().to_vec()).collect();
    raw_bytes(server, &bytes, env).await
}

/// Like `raw`, with lines given as bytes (which need not be UTF-8).
async fn raw_bytes(
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

fn by_id(v: &[Value], id: i64) -> &Value {
    v.iter()
        .find(|m| m["id"] == json!(id))
        .unwrap_or_else(|| panic!("no answer for id {id}: {v:?}"))
}

#[tokio::test]
async fn garbage_and_wrong_methods_never_stop_the_server() {
    let fake = fake();
    let server = start(&fake);
    let spell = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"pubmed_spell_check","arguments":{"query":"asthmaa OR alergies"}}}"#;
    let (v, ok) = raw(
        &server,
        &[
            INIT,
            INITED,
            "this is not json",
            "{\"unterminated\": ",
            r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"pubmed_spell_check","arguments":"x"}}"#,
            spell,
        ],
        &[("RUST_LOG", "debug")],
    )
    .await;
    assert!(ok, "exit 0 when stdin closes");
    let parse_errors: Vec<&Value> = v.iter().filter(|m| m["error"]["code"] == -32700).collect();
    assert_eq!(parse_errors.len(), 2);
    assert!(parse_errors.iter().all(|m| m["id"].is_null()));
    assert_eq!(by_id(&v, 2)["error"]["code"], -32601);
    assert_eq!(by_id(&v, 3)["error"]["code"], -32602);
    assert_eq!(by_id(&v, 4)["error"]["code"], -32602);
    let sc = &by_id(&v, 5)["result"]["structuredContent"];
    assert_eq!(sc["corrected"], "asthma OR allergies");
}

#[tokio::test]
async fn debug_logging_keeps_stdout_json_rpc_only() {
    let fake = fake();
    let server = start(&fake);
    let (v, ok) = raw(
        &server,
        &[
            INIT,
            INITED,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"pubmed_search_articles","arguments":{"query":"hits300","summaryCount":2}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pubmed_convert_ids","arguments":{"ids":["23193287"],"idType":"pmid"}}}"#,
        ],
        &[("RUST_LOG", "trace")],
    )
    .await;
    assert!(ok);
    assert_eq!(by_id(&v, 1)["result"]["tools"].as_array().unwrap().len(), 6);
    assert_eq!(
        by_id(&v, 2)["result"]["structuredContent"]["totalCount"],
        300
    );
    assert_eq!(
        by_id(&v, 3)["result"]["structuredContent"]["records"][0]["pmcid"],
        "PMC3531190"
    );
}

#[tokio::test]
async fn closed_stdin_before_initialize_exits_0() {
    let fake = fake();
    let server = start(&fake);
    let (v, ok) = raw(&server, &[], &[]).await;
    assert!(ok);
    assert!(v.is_empty());
}

#[tokio::test]
async fn sigint_ends_the_server_cleanly() {
    let fake = fake();
    let server = start(&fake);
    let home = tempfile::tempdir().unwrap();
    let mut child = command(&server, home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{INIT}\n{INITED}\n").as_bytes())
        .await
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let first: Value = serde_json::from_str(&out.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(first["result"]["serverInfo"]["name"], "pubmed");
    let pid = child.id().unwrap().to_string();
    let kill = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = tokio::time::timeout(std::time::Duration::from_secs(10), child.wait())
        .await
        .expect("exits after SIGINT")
        .unwrap();
    assert!(status.success(), "{status:?}");
    drop(stdin);
}

#[tokio::test]
async fn lines_that_are_not_utf8_or_too_big_for_json_get_errors_and_serving_goes_on() {
    let fake = fake();
    let server = start(&fake);
    let mut latin1 = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pubmed_spell_check","arguments":{"query":"caf"#.to_vec();
    latin1.extend_from_slice(b"\xe9\"}}}");
    let lines: Vec<Vec<u8>> = vec![
        INIT.as_bytes().to_vec(),
        INITED.as_bytes().to_vec(),
        latin1,
        br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pubmed_search_articles","arguments":{"query":"x","maxResults":1e400}}}"#.to_vec(),
        br#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#.to_vec(),
    ];
    let (v, ok) = raw_bytes(&server, &lines, &[]).await;
    assert!(ok);
    let errors: Vec<&Value> = v.iter().filter(|m| m["error"]["code"] == -32700).collect();
    assert_eq!(errors.len(), 2, "{v:?}");
    assert!(
        errors[0]["id"].is_null(),
        "the id of a non-UTF-8 line cannot be read"
    );
    assert_eq!(
        by_id(&v, 7)["error"]["code"],
        -32700,
        "the client waiting on 7 gets an answer"
    );
    assert!(by_id(&v, 8)["result"].is_object(), "serving goes on");
}

#[tokio::test]
async fn calls_in_flight_are_answered_after_stdin_closes() {
    let server = TestServer::start(|_| {
        Reply::Slow(
            std::time::Duration::from_secs(6),
            Box::new(Reply::xml(fixture("espell_asthmaa_alergies.xml"))),
        )
    });
    let spell = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pubmed_spell_check","arguments":{"query":"asthmaa OR alergies"}}}"#;
    let (v, ok) = raw(
        &server,
        &[INIT, INITED, spell],
        &[("PUBMED_DEADLINE_S", "20")],
    )
    .await;
    assert!(ok);
    assert_eq!(
        by_id(&v, 3)["result"]["structuredContent"]["corrected"],
        "asthma OR allergies"
    );
}

#[tokio::test]
async fn error_results_match_the_output_schema_and_arguments_keep_their_spelling() {
    let Session {
        fake: _fake,
        server: _server,
        c,
        _home,
    } = session().await;
    let tools = c.list_all_tools().await.unwrap();
    let schema = |name: &str| {
        let t = tools.iter().find(|t| t.name == name).unwrap();
        jsonschema::draft202012::new(&Value::Object(
            (**t.output_schema.as_ref().unwrap()).clone(),
        ))
        .unwrap()
    };
    for (tool, args) in [
        (
            "pubmed_search_articles",
            json!({"query": "x", "maxResults": -5}),
        ),
        ("pubmed_spell_check", json!({"query": "  "})),
        (
            "pubmed_convert_ids",
            json!({"ids": ["x"], "idType": "pmid"}),
        ),
    ] {
        let r = call(&c, tool, args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{tool} {args}");
        let sc = r.structured_content.unwrap();
        assert!(schema(tool).is_valid(&sc), "{tool}: {sc}");
        assert_eq!(
            sc["error"]["data"]["reason"],
            if tool == "pubmed_convert_ids" {
                "malformed_id"
            } else if tool == "pubmed_spell_check" {
                "blank_query"
            } else {
                "invalid_argument"
            }
        );
    }
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": [" 22676651"], "idType": "pmid"}),
    )
    .await;
    // Whitespace in an element is malformed; the error keeps its spelling.
    assert_eq!(r.is_error, Some(true));
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["error"]["data"]["reason"], "malformed_id");
    let msg = sc["error"]["message"].as_str().unwrap();
    assert!(msg.contains("\" 22676651\""), "{msg}");
    c.cancel().await.unwrap();
}

/// `missing` is null without summaries and `[]` with; PubMed's concept
/// mapping and unbalanced syntax reach `notice` through the warnings.
#[tokio::test]
async fn search_missing_and_notice() {
    let to = "\"myocardial infarction\"[MeSH Terms] OR \"heart attack\"[All Fields]";
    let body = support::ncbi::esearch_translated(
        2,
        0,
        &["61".to_string(), "62".to_string()],
        &[("heart attack", to)],
        to,
        &[],
        &[],
    );
    let server = TestServer::start(move |r| {
        if r.is("esummary.fcgi") {
            let docs: Vec<support::ncbi::Doc> = r
                .param("id")
                .unwrap_or_default()
                .split(',')
                .map(support::ncbi::Doc::new)
                .collect();
            Reply::xml(support::ncbi::esummary(&docs, &[]))
        } else {
            Reply::xml(body.clone())
        }
    });
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "heart attack"}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["missing"], Value::Null);
    let notice = sc["notice"].as_str().unwrap();
    assert!(
        notice.contains("heart attack → \"myocardial infarction\"[MeSH Terms]"),
        "{notice}"
    );
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "heart attack", "summaryCount": 2}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["missing"], json!([]));
    assert_eq!(sc["summaries"].as_array().unwrap().len(), 2);
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "(heart attack"}),
    )
    .await;
    let notice = r.structured_content.unwrap()["notice"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(notice.contains("do not pair"), "{notice}");
    c.cancel().await.unwrap();
}

/// `pubmed_find_related` returns what `pubmed related` returns: the real
/// capture's lists for PMID 9298984, summaries of what it returns, an
/// unknown PMID as an error, a PMID without links as an empty list with a
/// notice.
#[tokio::test]
async fn find_related_matches_the_cli() {
    let Session {
        fake,
        server,
        c,
        _home,
    } = session().await;
    let r = call(
        &c,
        "pubmed_find_related",
        json!({"pmid": "9298984", "kind": "cited-by", "maxResults": "3"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let sc = r.structured_content.unwrap();
    // elink_pubmed_neighbor_all_pubmed_linknames.xml: 39 citing articles.
    assert_eq!(sc["total"], 39);
    assert_eq!(sc["kind"], "cited-by");
    let linked: Vec<&str> = sc["linked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["pmid"].as_str().unwrap())
        .collect();
    assert_eq!(linked, ["38830800", "38188366", "37424454"]);
    assert_eq!(sc["summaries"].as_array().unwrap().len(), 3);
    assert_eq!(sc["summaries"][0]["pmid"], "38830800");
    let cli = cli_json(
        &server,
        &["related", "9298984", "--kind", "cited-by", "--retmax", "3"],
    );
    let cli_linked: Vec<&str> = cli["links"][0]["linked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["pmid"].as_str().unwrap())
        .collect();
    assert_eq!(linked, cli_linked);
    assert_eq!(cli["links"][0]["total"], 39);
    // Similar articles leave the source out; the default is 20.
    let r = call(&c, "pubmed_find_related", json!({"pmid": 9298984})).await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["total"], 100);
    assert_eq!(sc["linked"].as_array().unwrap().len(), 20);
    assert_eq!(sc["linked"][0], json!({"pmid": "8794856", "rank": 1}));
    // No links: an empty list and a notice (PMIDs divisible by 11).
    let r = call(&c, "pubmed_find_related", json!({"pmid": "1100"})).await;
    assert_eq!(r.is_error, Some(false));
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["linked"], json!([]));
    assert_eq!(sc["notice"], "PMID 1100 has no similar articles");
    // Unknown, malformed, out of range.
    let before = fake.counters.elink.load(Ordering::SeqCst);
    for (args, reason) in [
        (json!({"pmid": "99000002"}), "ncbi_resource_not_found"),
        (json!({"pmid": "PMC1"}), "malformed_id"),
        (json!({"pmid": "1", "kind": "cites"}), "invalid_argument"),
        (json!({"pmid": "1", "maxResults": 101}), "invalid_argument"),
        (json!({"pmid": "1", "maxResults": 0}), "invalid_argument"),
    ] {
        let r = call(&c, "pubmed_find_related", args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{args}");
        assert_eq!(
            r.structured_content.unwrap()["error"]["data"]["reason"],
            reason,
            "{args}"
        );
    }
    assert_eq!(fake.counters.elink.load(Ordering::SeqCst), before + 1);
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn fetch_articles_returns_what_fetch_returns() {
    let Session {
        fake,
        server,
        c,
        _home,
    } = session().await;
    // 9700097 is retracted in the fake (notice 9700098); 99999999 is unknown
    let r = call(
        &c,
        "pubmed_fetch_articles",
        json!({"pmids": ["9700097", "99999999", 5000002]}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["notFound"], json!(["99999999"]));
    assert_eq!(sc["failed"], json!([]));
    let articles = sc["articles"].as_array().unwrap();
    assert_eq!(articles.len(), 2);
    assert_eq!(articles[0]["pmid"], "9700097");
    assert_eq!(articles[0]["retracted"], true);
    assert_eq!(articles[1]["pmid"], "5000002");
    let cli = cli_json(&server, &["fetch", "9700097", "5000002"]);
    // nulls are left out of MCP output; affiliations unless asked for
    fn strip(v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(k, v)| !v.is_null() && *k != "affiliations")
                    .map(|(k, v)| (k.clone(), strip(v)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
            other => other.clone(),
        }
    }
    for (i, a) in articles.iter().enumerate() {
        assert_eq!(a, &strip(&cli["records"][i]), "record {i}");
    }
    // the text block holds titles, authors and the abstract in full
    let text = &r.content[0].as_text().unwrap().text;
    assert!(text.starts_with("Fetched 2 of 3 PMIDs."), "{text}");
    assert!(text.contains("## 1. Synthetic article 9700097: in vivo effects & outcomes."));
    assert!(text.contains(
        "**RETRACTED ARTICLE** (retraction notice: J Test. 2021 Feb;2(1):3., PMID 9700098)"
    ));
    assert!(text.contains("Authors: Smith J, Doe A"));
    assert!(text.contains("\nNo abstract.\n"));
    assert!(text.contains("Plain abstract of 5000002."));
    assert!(text.contains("## 2. PMID 99999999: EFetch returned no record for this PMID: it is not in PubMed [not_found]"));
    // leaving parts out
    let r = call(
        &c,
        "pubmed_fetch_articles",
        json!({"pmids": ["9700097"], "includeAbstract": false, "includeMesh": false}),
    )
    .await;
    let a = &r.structured_content.unwrap()["articles"][0];
    assert!(a.get("abstract").is_none() && a.get("abstractSections").is_none());
    assert!(a.get("meshHeadings").is_none() && a.get("keywords").is_none());
    assert!(a["authors"][0].get("affiliations").is_none());
    // bad input never reaches NCBI
    let before = fake.counters.efetch.load(Ordering::SeqCst);
    let pmids201: Vec<String> = (1..=201).map(|i| i.to_string()).collect();
    for (args, reason) in [
        (json!({"pmids": ["12a"]}), "malformed_id"),
        (json!({"pmids": ["0"]}), "malformed_id"),
        (json!({"pmids": []}), "invalid_argument"),
        (json!({"pmids": pmids201}), "invalid_argument"),
    ] {
        let r = call(&c, "pubmed_fetch_articles", args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{args}");
        assert_eq!(
            r.structured_content.unwrap()["error"]["data"]["reason"],
            reason,
            "{args}"
        );
    }
    assert_eq!(fake.counters.efetch.load(Ordering::SeqCst), before);
    // upstream failure is a tool error, never an empty success
    fake.failing_efetch.lock().unwrap().push("5000003".into());
    let r = call(&c, "pubmed_fetch_articles", json!({"pmids": ["5000003"]})).await;
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        r.structured_content.unwrap()["error"]["data"]["reason"],
        "ncbi_unreachable"
    );
    c.cancel().await.unwrap();
}
