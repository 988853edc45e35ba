//! `pubmed mcp` end to end: the built binary driven by rmcp's client over
//! stdio (and by raw lines), against the fake NCBI on 127.0.0.1.

use crate::support;

use std::process::Stdio;
use std::sync::atomic::Ordering;

use serde_json::{Value, json};
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::mcp::*;
use support::server::{Reply, TestServer, fixture};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

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
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    // The served list is the spec list, in its order; these six at least.
    let specs: Vec<&str> = pubmed::mcp::tools::specs().iter().map(|s| s.name).collect();
    assert_eq!(names, specs);
    for name in [
        "pubmed_convert_ids",
        "pubmed_fetch_articles",
        "pubmed_find_related",
        "pubmed_format_citations",
        "pubmed_search_articles",
        "pubmed_spell_check",
    ] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    // The server's instructions name exactly the served tools, each once.
    let instructions = info.instructions.as_deref().unwrap();
    for name in &names {
        assert_eq!(
            instructions.matches(name).count(),
            1,
            "{name}: {instructions}"
        );
    }
    let named = instructions
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("pubmed_"))
        .count();
    assert_eq!(named, names.len(), "{instructions}");
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
            "detail",
            "field",
            "freeFullText",
            "hasAbstract",
            "journal",
            "language",
            "maxResponseCharacters",
            "maxResults",
            "meshTerms",
            "offset",
            "publicationTypes",
            "query",
            "reldate",
            "sort",
            "species",
        ]
    );
    assert_eq!(props["maxResults"]["maximum"], 1000);
    assert_eq!(props["offset"]["maximum"], 9998);
    // `summaryCount` was replaced by `detail` (issue 14): a summary for
    // every PMID returned by default.
    assert!(props.get("summaryCount").is_none());
    assert_eq!(props["detail"]["enum"], json!(["full", "brief", "ids"]));
    assert_eq!(props["detail"]["default"], "full");
    assert_eq!(
        props["dateRange"]["properties"]["dateType"]["enum"],
        json!(["pdat", "edat", "mdat"])
    );
    // every input field is described, and every output field in the
    // tool's output-schema resource (the listed schema validates only)
    for t in &tools {
        fn described(v: &Value, path: &str) {
            if let Some(props) = v.get("properties").and_then(Value::as_object) {
                for (k, p) in props {
                    if path.is_empty() && k == "error" {
                        continue;
                    }
                    assert!(
                        p["description"].as_str().is_some_and(|d| d.len() > 5),
                        "{path}.{k} has no description"
                    );
                    described(p, &format!("{path}.{k}"));
                    if let Some(items) = p.get("items") {
                        described(items, &format!("{path}.{k}[]"));
                    }
                }
            }
        }
        described(
            &Value::Object((*t.input_schema).clone()),
            &format!("{} input", t.name),
        );
        let full = pubmed::mcp::tools::resource(&pubmed::mcp::tools::output_uri(&t.name)).unwrap();
        described(
            &serde_json::from_str(&full).unwrap(),
            &format!("{} output", t.name),
        );
    }
    let convert = tools
        .iter()
        .find(|t| t.name == "pubmed_convert_ids")
        .unwrap();
    assert_eq!(convert.input_schema["properties"]["ids"]["maxItems"], 50);
    c.cancel().await.unwrap();
}

/// Every advertised input schema compiles under draft-07 and 2020-12
/// validators and avoids what docs/mcp.md "Arguments" rules out; outputs validate against
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
    // Each tool's examples (`ToolSpec::examples`), answered by the fake NCBI.
    let mut results = Vec::new();
    for spec in pubmed::mcp::tools::specs() {
        let examples = (spec.examples)();
        assert!(!examples.is_empty(), "{} has no example", spec.name);
        for args in examples {
            results.push((spec.name, call(&c, spec.name, args).await));
        }
    }
    // Every tool served has its output checked against its schema here.
    for t in &tools {
        assert!(
            results.iter().any(|(n, _)| *n == t.name),
            "{} has no call in this test",
            t.name
        );
    }
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

    // summaries: one per PMID returned (detail "full", the default; this
    // replaced `summaryCount`), the same records as the CLI's
    let r = call(&c, "pubmed_search_articles", json!({"query": "hits300"})).await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["pmids"].as_array().unwrap().len(), 20);
    assert_eq!(sc["summaries"].as_array().unwrap().len(), 20);
    assert_eq!(sc["missing"], json!([]));
    let cli = cli_json(&server, &["search", "hits300"]);
    assert_eq!(sc["summaries"], no_nulls(&cli["summaries"]));

    // detail brief and ids, as --detail
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "hits300", "detail": "brief", "maxResults": 4}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    let cli = cli_json(
        &server,
        &["search", "hits300", "--detail", "brief", "--retmax", "4"],
    );
    assert_eq!(sc["summaries"], no_nulls(&cli["summaries"]));
    assert!(sc["summaries"][0].get("authors").is_none());
    let before = server
        .requests()
        .iter()
        .filter(|r| r.is("esummary.fcgi"))
        .count();
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "hits300", "detail": "ids", "maxResults": 4}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["pmids"], cli["pmids"]);
    assert_eq!(sc["summaries"], json!([]));
    assert!(
        sc["missing"].is_null(),
        "no summaries fetched: missing null"
    );
    let after = server
        .requests()
        .iter()
        .filter(|r| r.is("esummary.fcgi"))
        .count();
    assert_eq!(after, before, "detail ids sends no ESummary");

    // field and reldate, as --field and --reldate
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "hits300", "field": "title", "reldate": 30, "dateRange": {"minDate": "2000"}}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    let mcp_req = server
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.is("esearch.fcgi"))
        .unwrap();
    let cli = cli_json(
        &server,
        &[
            "search",
            "hits300",
            "--field",
            "title",
            "--reldate",
            "30",
            "--mindate",
            "2000",
        ],
    );
    let cli_req = server
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.is("esearch.fcgi"))
        .unwrap();
    assert_eq!(mcp_req.param("field"), Some("TITL"));
    for p in ["field", "mindate", "maxdate", "datetype", "term"] {
        assert_eq!(mcp_req.param(p), cli_req.param(p), "{p}");
    }
    assert_eq!(sc["appliedFilters"], cli["appliedFilters"]);
    assert_eq!(sc["appliedFilters"]["field"], "TITL");

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
        assert_eq!(a.get("reason"), b["error"].get("reason"));
    }
    assert_eq!(sc["totalConverted"], cli["converted"]);
    assert_eq!(sc["totalSubmitted"], cli["submitted"]);
    assert_eq!(sc["totalConverted"], 3);
    assert!(m[2]["errmsg"].as_str().unwrap().contains("not in PMC"));
    assert_eq!(m[2]["reason"], "not_in_pmc");
    assert!(m[0].get("reason").is_none(), "no reason on success");
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
    // Wrong types used to be JSON-RPC -32602 errors; since issue 14 (MCP
    // 2025-11-25, SEP-1303) they are isError results the model can read.
    let r = call(&c, "pubmed_spell_check", json!({"query": 42})).await;
    assert_eq!(r.is_error, Some(true));
    let e = &r.structured_content.unwrap()["error"];
    assert_eq!(e["code"], -32602);
    assert_eq!(e["data"]["reason"], "invalid_argument");
    assert_eq!(e["data"]["field"], "query");
    assert_eq!(server.count(), 0, "nothing reached NCBI");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn upstream_failures_are_tool_errors_with_documented_codes() {
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
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"pubmed_search_articles","arguments":{"query":"hits300","maxResults":2}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pubmed_convert_ids","arguments":{"ids":["23193287"],"idType":"pmid"}}}"#,
        ],
        &[("RUST_LOG", "trace")],
    )
    .await;
    assert!(ok);
    assert_eq!(
        by_id(&v, 1)["result"]["tools"].as_array().unwrap().len(),
        pubmed::mcp::tools::specs().len()
    );
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

/// Whether searching `query` warns with `kind`.
async fn warns_with(
    c: &rmcp::service::RunningService<rmcp::service::RoleClient, ()>,
    query: &str,
    kind: &str,
) -> bool {
    let r = call(c, "pubmed_search_articles", json!({"query": query})).await;
    r.structured_content.unwrap()["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["kind"] == kind)
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
    // `detail: "ids"` fetches no summaries: `missing` is null (this replaced
    // `summaryCount: 0`, issue 14)
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "heart attack", "detail": "ids"}),
    )
    .await;
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["missing"], Value::Null);
    let notice = sc["notice"].as_str().unwrap();
    assert!(
        notice.contains("heart attack → \"myocardial infarction\"[MeSH Terms]"),
        "{notice}"
    );
    assert!(
        sc["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["kind"] == "translated")
    );
    // the default, detail "full": a summary for every PMID returned
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "heart attack"}),
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
    assert!(warns_with(&c, "(heart attack", "unbalanced_syntax").await);
    c.cancel().await.unwrap();
}

/// Wrong types, unknown arguments, bad enum values and nested objects of the
/// wrong shape are `isError` results with `invalid_argument`, naming the
/// argument and what it expects (MCP 2025-11-25, SEP-1303); nothing reaches
/// NCBI, and an unknown tool is still a JSON-RPC -32602.
#[tokio::test]
async fn wrong_arguments_are_error_results_naming_the_field() {
    let Session {
        fake: _fake,
        server,
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
    let s = "pubmed_search_articles";
    let cases = [
        (
            s,
            json!({"query": "x", "maxResults": "five"}),
            "maxResults",
            "`maxResults` must be a whole number 0–1000, not a string (\"five\")",
        ),
        (
            s,
            json!({"query": "x", "maxResults": 2.5}),
            "maxResults",
            "`maxResults` must be a whole number 0–1000, not a number (2.5)",
        ),
        (
            s,
            json!({"query": "x", "maxResults": -5}),
            "maxResults",
            "`maxResults` -5 is outside 0–1000",
        ),
        (
            s,
            json!({"query": "x", "maxResults": 1001.0}),
            "maxResults",
            "`maxResults` 1001 is outside 0–1000",
        ),
        (
            s,
            json!({"query": "x", "offset": 9999}),
            "offset",
            "`offset` 9999 is outside 0–9998",
        ),
        (
            s,
            json!({"query": "x", "hasAbstract": 1}),
            "hasAbstract",
            "`hasAbstract` must be true or false",
        ),
        (
            s,
            json!({"query": "x", "meshTerms": "Asthma"}),
            "meshTerms",
            "`meshTerms` must be a list of strings, not a string (\"Asthma\")",
        ),
        (
            s,
            json!({"query": "x", "meshTerms": ["Asthma", 7]}),
            "meshTerms",
            "`meshTerms[1]` must be a string",
        ),
        (
            s,
            json!({"query": "x", "dateRange": "2020"}),
            "dateRange",
            "`dateRange` must be an object with minDate, maxDate, dateType",
        ),
        (
            s,
            json!({"query": "x", "dateRange": {"from": "2020"}}),
            "dateRange.from",
            "unknown argument `dateRange.from` (`dateRange` takes minDate, maxDate, dateType)",
        ),
        (
            s,
            json!({"query": "x", "dateRange": {"minDate": 2020}}),
            "dateRange.minDate",
            "`dateRange.minDate` must be a string",
        ),
        (
            s,
            json!({"query": "x", "dateRange": {"dateType": "year"}}),
            "dateRange.dateType",
            "`dateRange.dateType` \"year\" is not one of \"pdat\", \"edat\", \"mdat\"",
        ),
        (
            s,
            // "date" is an alias of pub_date (issue 27); "newest" is not
            json!({"query": "x", "sort": "newest"}),
            "sort",
            "`sort` \"newest\" is not one of \"relevance\", \"pub_date\", \"author\", \"journal\"",
        ),
        (
            s,
            json!({"query": "x", "detail": "abstract"}),
            "detail",
            "`detail` \"abstract\" is not one of \"full\", \"brief\", \"ids\"",
        ),
        (
            s,
            json!({"query": "x", "species": "plants"}),
            "species",
            "`species` \"plants\" is not one of \"humans\", \"animals\"",
        ),
        (
            s,
            json!({"query": "x", "bogus": 1}),
            "bogus",
            "unknown argument `bogus` (pubmed_search_articles takes query, field, maxResults",
        ),
        (
            s,
            json!({"query": "x", "summaryCount": 3}),
            "summaryCount",
            "`summaryCount` was replaced by `detail`",
        ),
        (s, json!({"maxResults": 5}), "query", "`query` is required"),
        (
            "pubmed_spell_check",
            json!({"query": 42}),
            "query",
            "`query` must be a string, not a number (42)",
        ),
        (
            "pubmed_spell_check",
            json!({}),
            "query",
            "`query` is required",
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": "23193287", "idType": "pmid"}),
            "ids",
            "`ids` must be a list of strings, not a string (\"23193287\")",
        ),
        (
            "pubmed_convert_ids",
            // numeric PMIDs are accepted (issue 27); a fraction is not
            json!({"ids": [23193287.5], "idType": "pmid"}),
            "ids",
            "`ids[0]` must be a string of digits, not a number (23193287.5)",
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": ["23193287"], "idType": "pmids"}),
            "idType",
            "`idType` \"pmids\" is not one of \"pmid\", \"pmcid\", \"doi\"",
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": ["23193287"]}),
            "idType",
            "`idType` is required",
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": [], "idType": "pmid"}),
            "ids",
            "`ids` holds 0 elements; give 1 to 50",
        ),
    ];
    for (tool, args, field, needle) in cases {
        let r = call(&c, tool, args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{tool} {args}");
        let sc = r.structured_content.clone().unwrap();
        let e = &sc["error"];
        assert_eq!(e["code"], -32602, "{args}");
        assert_eq!(e["data"]["reason"], "invalid_argument", "{args}");
        assert_eq!(e["data"]["field"], field, "{args}");
        assert_eq!(e["data"]["retryable"], false);
        let message = e["message"].as_str().unwrap();
        assert!(message.contains(needle), "{args}: {message}");
        assert!(
            e["data"]["recovery"]["hint"]
                .as_str()
                .unwrap()
                .contains(field)
        );
        assert!(schema(tool).is_valid(&sc), "{tool}: {sc}");
        let text: Value = serde_json::from_str(&r.content[0].as_text().unwrap().text).unwrap();
        assert_eq!(text, sc, "the same in text");
        assert_speaks_mcp(&r);
    }
    assert_eq!(server.count(), 0, "nothing reached NCBI");
    // choices are read in any case, as on the command line
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": ["23193287"], "idType": "PMID"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(
        r.structured_content.unwrap()["records"][0]["pmcid"],
        "PMC3531190"
    );
    let args = json!({"query": "x"}).as_object().cloned().unwrap();
    let e = c
        .call_tool(rmcp::model::CallToolRequestParams::new("pubmed_nosuch").with_arguments(args))
        .await
        .unwrap_err();
    match e {
        rmcp::ServiceError::McpError(e) => {
            assert_eq!(e.code.0, -32602);
            assert!(
                e.message.contains("pubmed_search_articles"),
                "{}",
                e.message
            );
        }
        other => panic!("{other:?}"),
    }
    c.cancel().await.unwrap();
}

/// Integer-valued floats are integers; digit strings and `null` are
/// accepted as before.
#[tokio::test]
async fn integer_valued_floats_and_digit_strings_are_integers() {
    let Session {
        fake: _fake,
        server,
        c,
        _home,
    } = session().await;
    let cli = cli_json(
        &server,
        &["search", "hits300", "--retmax", "5", "--detail", "ids"],
    );
    for args in [
        json!({"query": "hits300", "maxResults": 5.0, "offset": -0.0, "detail": "ids"}),
        json!({"query": "hits300", "maxResults": "5", "offset": "0", "detail": "ids"}),
        json!({"query": "hits300", "maxResults": 5, "offset": null, "sort": null, "detail": "ids"}),
    ] {
        let r = call(&c, "pubmed_search_articles", args.clone()).await;
        assert_eq!(r.is_error, Some(false), "{args}: {r:?}");
        let sc = r.structured_content.unwrap();
        assert_eq!(sc["pmids"], cli["pmids"], "{args}");
        assert_eq!(sc["maxResults"], 5);
        assert_eq!(sc["offset"], 0);
    }
    c.cancel().await.unwrap();
}

/// A convert whose upstream failed is an `isError` result with the reason,
/// as the CLI exits 69 for the same input; per-ID failures stay records.
#[tokio::test]
async fn a_convert_outage_is_an_error_result_as_the_cli_exits_non_zero() {
    let fake = fake();
    fake.failing_ids.lock().unwrap().push("23193287".into());
    let server = start(&fake);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": ["23193287", "20495566"], "idType": "pmid"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true), "{r:?}");
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(sc["error"]["data"]["reason"], "ncbi_unreachable");
    assert_eq!(sc["error"]["code"], -32000);
    assert_eq!(sc["error"]["data"]["retryable"], true);
    assert_eq!(sc["totalConverted"], 0);
    let records = sc["records"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    for rec in records {
        assert_eq!(rec["reason"], "ncbi_unreachable");
        assert!(
            rec["errmsg"]
                .as_str()
                .unwrap()
                .contains("gave up after 3 attempts"),
            "{rec}"
        );
    }
    assert_eq!(
        fake.counters.idconv.load(Ordering::SeqCst),
        3,
        "1 + 2 retries"
    );
    let cli = support::cli::pubmed(&["convert", "--from", "pmid", "23193287", "20495566"])
        .server(&server)
        .run();
    assert_eq!(cli.code, 69, "{}", cli.stderr);
    assert_speaks_mcp(&r);

    // per-ID failures (not in PMC) are records, not a failed call
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": ["14", "20495566", "10.1038/ng.590x"], "idType": "pmid"}),
    )
    .await;
    assert_eq!(
        r.is_error,
        Some(true),
        "a DOI is malformed as a PMID: {r:?}"
    );
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": ["14", "20495566"], "idType": "pmid"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(sc["records"][0]["reason"], "not_in_pmc");
    assert_eq!(
        sc["records"][0]["errmsg"],
        "not in PMC (Identifier not found in PMC); it may still be in PubMed: pubmed_search_articles with query \"14[pmid]\""
    );
    assert_eq!(sc["records"][1]["pmcid"], "PMC2883744");
    assert!(sc["records"][1].get("reason").is_none());
    assert_eq!(sc["totalConverted"], 1);
    let text = &r.content[0].as_text().unwrap().text;
    assert!(
        text.contains("14: not in PMC") && text.contains("[not_in_pmc]"),
        "{text}"
    );
    assert_speaks_mcp(&r);
    c.cancel().await.unwrap();
}

/// Messages, warnings and hints name MCP arguments and tools, never CLI
/// flags or commands.
#[tokio::test]
async fn answers_speak_mcp() {
    let Session {
        fake: _fake,
        server: _server,
        c,
        _home,
    } = session().await;
    let s = "pubmed_search_articles";
    for (args, reason, field, message) in [
        (
            json!({"query": "x", "dateRange": {"minDate": "2023/02/29"}}),
            "invalid_date_range",
            Some("dateRange.minDate"),
            "`dateRange.minDate` \"2023/02/29\": 2023 is not a leap year, February has 28 days",
        ),
        (
            json!({"query": "x", "dateRange": {"maxDate": "2023/13"}}),
            "invalid_date_range",
            Some("dateRange.maxDate"),
            "`dateRange.maxDate` \"2023/13\": month 13 is not 01–12",
        ),
        (
            json!({"query": "x", "author": "  "}),
            "blank_filter",
            Some("author"),
            "the `author` filter has no term",
        ),
        (
            json!({"query": "x", "meshTerms": ["Asthma", "<b></b>"]}),
            "blank_filter",
            Some("meshTerms"),
            "the `meshTerms` filter has no term",
        ),
        (
            json!({"query": "x", "field": "nosuchfield"}),
            "invalid_argument",
            Some("field"),
            "unknown search field \"nosuchfield\"; use one of: ",
        ),
        (
            json!({"query": "[ti]"}),
            "blank_query",
            Some("query"),
            "the query has no search term",
        ),
    ] {
        let r = call(&c, s, args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{args}");
        let e = &r.structured_content.as_ref().unwrap()["error"];
        assert_eq!(e["data"]["reason"], reason, "{args}");
        assert_eq!(e["data"]["field"].as_str(), field, "{args}");
        assert!(
            e["message"].as_str().unwrap().starts_with(message),
            "{args}: {}",
            e["message"]
        );
        assert_speaks_mcp(&r);
    }
    let r = call(
        &c,
        s,
        json!({"query": "x", "reldate": 30, "dateRange": {"minDate": "2000", "maxDate": "2001"}}),
    )
    .await;
    let e = &r.structured_content.as_ref().unwrap()["error"];
    assert_eq!(e["data"]["field"], "reldate");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("`reldate` 30 (from "),
        "{e}"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .ends_with("does not overlap 2000 to 2001"),
        "{e}"
    );
    assert!(
        e["data"]["recovery"]["hint"]
            .as_str()
            .unwrap()
            .contains("`dateRange.minDate`")
    );
    assert_speaks_mcp(&r);

    // warnings: kinds as in the CLI JSON, messages in MCP terms
    for (args, kind, message) in [
        (
            json!({"query": "hits300", "dateRange": {"minDate": "2001"}, "detail": "ids"}),
            "date_bound_filled",
            "only `dateRange.minDate` was given; NCBI ignores a lone bound, so `dateRange.maxDate` 3000 was added (2001 to 3000)",
        ),
        (
            json!({"query": "hits300", "dateRange": {"maxDate": "2001"}, "detail": "ids"}),
            "date_bound_filled",
            "only `dateRange.maxDate` was given; NCBI ignores a lone bound, so `dateRange.minDate` 1000 was added (1000 to 2001)",
        ),
        (
            json!({"query": "hits300", "offset": 400}),
            "retstart_past_count",
            "`offset` 400 is at or past the 300 hits: this page is empty",
        ),
        (
            json!({"query": "hits300", "offset": 9990, "detail": "ids"}),
            "window_truncated",
            "PubMed serves only the first 9,999 records of a query: the page was cut to records 9991–9999 (9 PMIDs); narrow the query (e.g. with dateRange or reldate) to reach the others",
        ),
        (
            json!({"query": "nothing"}),
            "zero_hits",
            "no records found; zero hits do not prove there is no literature: check the spelling with pubmed_spell_check, the field tags and the filters, then search again",
        ),
    ] {
        let r = call(&c, s, args.clone()).await;
        assert_eq!(r.is_error, Some(false), "{args}: {r:?}");
        let sc = r.structured_content.clone().unwrap();
        let w = sc["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["kind"] == kind)
            .unwrap_or_else(|| panic!("{args}: no {kind} in {sc}"));
        assert_eq!(w["message"], message, "{args}");
        assert!(sc["notice"].as_str().unwrap().contains(message));
        assert!(r.content[0].as_text().unwrap().text.contains(message));
        assert_speaks_mcp(&r);
    }
    c.cancel().await.unwrap();
}

/// The text block is short but lossless: every PMID returned, the query
/// translation, every warning, DOIs, PMCIDs and retraction flags.
#[tokio::test]
async fn the_search_text_block_is_lossless() {
    let mut corpus = Corpus::default();
    // 38800000 = 97 × 400000: the fake marks it retracted; 38800006 = 7 × …
    // has no PMCID.
    corpus.queries.insert(
        "mixed".into(),
        std::sync::Arc::new(vec![38800000, 38800001, 38800006]),
    );
    corpus.add_uniform("hits300", 300, 1_000_000, 41_000_000, 7);
    let fake = FakeNcbi::new(corpus);
    let server = start(&fake);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "mixed", "dateRange": {"minDate": "1990"}}),
    )
    .await;
    let text = r.content[0].as_text().unwrap().text.clone();
    let sc = r.structured_content.unwrap();
    assert!(
        text.starts_with("**3 results** for `mixed`; PMIDs 1–3 returned (3)"),
        "{text}"
    );
    assert!(text.contains("Searched as: `mixed[All Fields]`"), "{text}");
    assert!(text.contains("[date_bound_filled]"), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(". PMID ")).collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (line, pmid) in lines.iter().zip(sc["pmids"].as_array().unwrap()) {
        let pmid = pmid.as_str().unwrap();
        assert!(
            line.contains(&format!("PMID {pmid} — Synthetic article {pmid}")),
            "{line}"
        );
        assert!(line.contains(&format!("doi:10.5555/pmid.{pmid}")), "{line}");
        assert_eq!(line.contains("**RETRACTED**"), pmid == "38800000", "{line}");
        assert_eq!(line.contains(" PMC"), pmid != "38800006", "{line}");
    }
    // twenty of 300, and PMIDs only with detail ids
    let r = call(&c, "pubmed_search_articles", json!({"query": "hits300"})).await;
    let text = r.content[0].as_text().unwrap().text.clone();
    let sc = r.structured_content.unwrap();
    assert!(text.starts_with("**300 results** for `hits300`; PMIDs 1–20 returned (20)"));
    for p in sc["pmids"].as_array().unwrap() {
        assert!(
            text.contains(&format!("PMID {} — ", p.as_str().unwrap())),
            "{p}"
        );
    }
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "hits300", "detail": "ids", "offset": 20, "maxResults": 30}),
    )
    .await;
    let text = r.content[0].as_text().unwrap().text.clone();
    let sc = r.structured_content.unwrap();
    let ids: Vec<&str> = sc["pmids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 30);
    assert!(text.contains("PMIDs 21–50 returned (30)"), "{text}");
    assert!(
        text.contains(&format!("PMIDs: {}", ids.join(", "))),
        "{text}"
    );
    c.cancel().await.unwrap();
}

/// `notifications/cancelled` stops the call's queued and in-flight work:
/// eight cancelled calls send at most the one request already in flight,
/// and the next call is not held behind them by the pacer.
#[tokio::test]
async fn cancelled_calls_stop_their_work_and_do_not_delay_the_next() {
    let server = TestServer::start(|r| {
        let term = r.param("term").unwrap_or_default().to_string();
        let body = support::ncbi::espell(&term, &[("O", &term)]);
        if term == "fast" {
            Reply::xml(body)
        } else {
            Reply::Slow(
                std::time::Duration::from_secs(30),
                Box::new(Reply::xml(body)),
            )
        }
    });
    // One request start per second: before the fix the ninth call waited
    // behind eight starts (≥ 8 s).
    let mut live = Live::start(
        &server,
        &[
            ("PUBMED_REQUEST_GAP_MS", "1000"),
            ("PUBMED_DEADLINE_S", "60"),
        ],
    )
    .await;
    for id in 1..=8 {
        live.send(&tool_call(
            id,
            "pubmed_spell_check",
            json!({"query": format!("slow {id}")}),
        ))
        .await;
    }
    // let the first one reach the server
    let t = std::time::Instant::now();
    while server.count() == 0 && t.elapsed() < std::time::Duration::from_secs(10) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    for id in 1..=8 {
        live.send(&cancel(id)).await;
    }
    let sent = std::time::Instant::now();
    live.send(&tool_call(
        9,
        "pubmed_spell_check",
        json!({"query": "fast"}),
    ))
    .await;
    let (answer, at) = live.answer(9, std::time::Duration::from_secs(10)).await;
    assert_eq!(answer["result"]["structuredContent"]["corrected"], "fast");
    let waited = at - sent;
    assert!(
        waited < std::time::Duration::from_secs(3),
        "the ninth call waited {waited:?}"
    );
    let slow: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.param("term") != Some("fast"))
        .collect();
    assert_eq!(
        slow.len(),
        1,
        "only the call already in flight reached NCBI: {slow:?}"
    );
    // stdin closes: nothing is owed (the cancelled calls get no answer), so
    // the server exits at once instead of waiting for the slow request.
    live.close();
    let closed = std::time::Instant::now();
    let status = live
        .exit(std::time::Duration::from_secs(10))
        .await
        .expect("exits");
    assert!(status.success());
    assert!(
        closed.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        closed.elapsed()
    );
    live.drain(std::time::Duration::from_secs(1)).await;
    for id in 1..=8 {
        assert!(
            !live.seen.iter().any(|(m, _)| m["id"] == json!(id)),
            "a cancelled call is not answered ({id})"
        );
    }
    assert_eq!(server.count(), 2);
}

/// A request id sent twice is refused at once, the first call is answered,
/// and neither keeps the server alive after stdin closes (it used to wait
/// 180 s).
#[tokio::test]
async fn a_request_id_sent_twice_is_refused_and_never_delays_exit() {
    let server = TestServer::start(|r| {
        let term = r.param("term").unwrap_or_default().to_string();
        Reply::Slow(
            std::time::Duration::from_millis(800),
            Box::new(Reply::xml(support::ncbi::espell(&term, &[("O", &term)]))),
        )
    });
    let mut live = Live::start(&server, &[]).await;
    let call3 = tool_call(3, "pubmed_spell_check", json!({"query": "asthma"}));
    live.send(&call3).await;
    live.send(&call3).await;
    live.close();
    let closed = std::time::Instant::now();
    let status = live
        .exit(std::time::Duration::from_secs(20))
        .await
        .expect("exits");
    assert!(status.success());
    assert!(
        closed.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        closed.elapsed()
    );
    live.drain(std::time::Duration::from_secs(1)).await;
    let answers: Vec<&Value> = live
        .seen
        .iter()
        .map(|(m, _)| m)
        .filter(|m| m["id"] == 3)
        .collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(
        answers[0]["error"]["code"], -32600,
        "the duplicate first, at once"
    );
    assert!(
        answers[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already in use")
    );
    assert_eq!(
        answers[1]["result"]["structuredContent"]["corrected"],
        "asthma"
    );
    assert_eq!(server.count(), 1);
}

/// A call cancelled while its request hangs does not keep the server up
/// once stdin closes.
#[tokio::test]
async fn a_cancelled_call_never_delays_exit() {
    let server = TestServer::start(|_| Reply::Hang);
    let mut live = Live::start(&server, &[("PUBMED_DEADLINE_S", "60")]).await;
    live.send(&tool_call(
        4,
        "pubmed_spell_check",
        json!({"query": "asthma"}),
    ))
    .await;
    let t = std::time::Instant::now();
    while server.count() == 0 && t.elapsed() < std::time::Duration::from_secs(10) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    live.send(&cancel(4)).await;
    live.close();
    let closed = std::time::Instant::now();
    let status = live
        .exit(std::time::Duration::from_secs(20))
        .await
        .expect("exits");
    assert!(status.success());
    assert!(
        closed.elapsed() < std::time::Duration::from_secs(4),
        "{:?}",
        closed.elapsed()
    );
}

/// SIGINT and SIGTERM end the server the same way: exit 0 at once, even
/// with a call in flight.
#[tokio::test]
async fn sigint_and_sigterm_end_the_server_with_a_call_in_flight() {
    for sig in ["-INT", "-TERM"] {
        let server = TestServer::start(|_| Reply::Hang);
        let mut live = Live::start(&server, &[("PUBMED_DEADLINE_S", "60")]).await;
        live.send(&tool_call(
            5,
            "pubmed_spell_check",
            json!({"query": "asthma"}),
        ))
        .await;
        let t = std::time::Instant::now();
        while server.count() == 0 && t.elapsed() < std::time::Duration::from_secs(10) {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let pid = live.child.id().unwrap().to_string();
        let sent = std::time::Instant::now();
        assert!(
            std::process::Command::new("kill")
                .args([sig, &pid])
                .status()
                .unwrap()
                .success()
        );
        let status = live
            .exit(std::time::Duration::from_secs(10))
            .await
            .expect("exits");
        assert!(status.success(), "{sig}: {status:?}");
        assert!(
            sent.elapsed() < std::time::Duration::from_secs(3),
            "{sig}: {:?}",
            sent.elapsed()
        );
    }
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
    let r = call(
        &c,
        "pubmed_find_related",
        json!({"pmid": "1", "kind": "CITED_BY"}),
    )
    .await;
    assert_eq!(
        r.is_error,
        Some(false),
        "choices in any case, - and _ alike: {r:?}"
    );
    assert_eq!(r.structured_content.unwrap()["kind"], "cited-by");
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
        assert_speaks_mcp(&r);
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
    // the facts `pubmed fetch -f json` gives, each once in MCP (the CLI's
    // `abstractSections` as `abstract`, authors as `Last, Fore`, the
    // retraction as `retracted` and `retractionIn`)
    let cli = cli_json(&server, &["fetch", "9700097", "5000002"]);
    for (i, a) in articles.iter().enumerate() {
        let rec = &cli["records"][i];
        for k in ["pmid", "title", "doi", "pubDate", "retracted"] {
            assert_eq!(a[k], rec[k], "record {i} {k}");
        }
        let types: Vec<&Value> = rec["pubTypes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| *t != "Retracted Publication")
            .collect();
        assert_eq!(a["pubTypes"], json!(types), "record {i}");
        assert_eq!(a["journal"]["pages"], rec["journal"]["pages"]);
        match rec["abstractSections"].as_array().unwrap().as_slice() {
            [] => assert!(a.get("abstract").is_none(), "record {i}"),
            _ => assert_eq!(
                a["abstract"],
                no_nulls(&rec["abstractSections"]),
                "record {i}"
            ),
        }
        let names: Vec<String> = rec["authors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                format!(
                    "{}, {}",
                    x["lastName"].as_str().unwrap(),
                    x["foreName"].as_str().unwrap()
                )
            })
            .collect();
        let got: Vec<&str> = a["authors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["name"].as_str().unwrap())
            .collect();
        assert_eq!(got, names, "record {i} authors");
        assert!(a.get("abstractSections").is_none() && a.get("pubmedUrl").is_none());
        assert!(a["authors"][0].get("lastName").is_none());
    }
    let link = cli["records"][0]["commentsCorrections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["type"] == "RetractionIn")
        .unwrap();
    assert_eq!(
        articles[0]["retractionIn"],
        json!({"pmid": link["pmid"], "source": link["source"]})
    );
    // the text block: an index, one line per record
    let text = &r.content[0].as_text().unwrap().text;
    assert!(
        text.starts_with("Fetched 2 of 3 PMIDs, one line each;"),
        "{text}"
    );
    assert!(text.contains(
        "\n1. PMID 9700097 · RETRACTED · Synthetic article 9700097: in vivo effects & outcomes. · Smith J et al. · J Test 1967 · doi:10.5555/pmid.9700097\n"
    ), "{text}");
    assert!(!text.contains("Plain abstract of 5000002."), "{text}");
    assert!(text.contains("\n2. PMID 99999999: EFetch returned no record for this PMID: it is not in PubMed [not_found]"), "{text}");
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

/// EFetch answering from NCBI's own capture of PMIDs 11748933 and 11700088
/// (`efetch_pubmed_two_articles.xml`, [`support::server::efetch_capture_server`]);
/// with `fail`, every EFetch request gets HTTP 500.
fn efetch_capture_server(fail: bool) -> TestServer {
    support::server::efetch_capture_server(&["efetch_pubmed_two_articles.xml".to_string()], fail).0
}

fn error_of(r: &rmcp::model::CallToolResult) -> Value {
    assert_eq!(r.is_error, Some(true), "{r:?}");
    r.structured_content.as_ref().unwrap()["error"].clone()
}

/// pubmed_fetch_articles on a real EFetch answer: the capture's values,
/// the CLI's JSON record for record, and a PMID EFetch left out in notFound.
#[tokio::test]
async fn fetch_articles_reads_a_real_efetch_answer_like_the_cli() {
    let server = efetch_capture_server(false);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    // a PMID as a JSON number, as some clients send it
    let r = call(
        &c,
        "pubmed_fetch_articles",
        json!({"pmids": ["11748933", 11700088, "99999999"], "includeAffiliations": true}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(sc["notFound"], json!(["99999999"]));
    assert_eq!(sc["failed"], json!([]));
    let a = &sc["articles"][0];
    assert_eq!(a["pmid"], "11748933");
    assert_eq!(
        a["title"],
        "Is cryopreservation a homogeneous process? Ultrastructure and motility of untreated, prefreezing, and postthawed spermatozoa of Diplodus puntazzo (Cetti)."
    );
    assert_eq!(a["journal"]["isoAbbreviation"], "Cryobiology");
    assert_eq!(a["journal"]["volume"], "42");
    assert_eq!(a["journal"]["issue"], "4");
    assert_eq!(a["journal"]["pages"], "244-55");
    assert_eq!(a["doi"], "10.1006/cryo.2001.2328");
    assert_eq!(a["pubDate"], "2001-06");
    assert_eq!(a["authors"].as_array().unwrap().len(), 8);
    // `Last, Fore` as the capture gives them
    assert_eq!(a["authors"][0]["name"], "Taddei, A R");
    assert_eq!(
        a["authors"][0]["affiliations"][0],
        "Dipartimento di Scienze Ambientali, Università degli Studi della Tuscia, 01100 Viterbo, Italy."
    );
    assert_eq!(a["retracted"], false);
    assert_eq!(sc["articles"][1]["pmid"], "11700088");
    assert_eq!(sc["articles"][1]["doi"], "10.1006/jmre.2001.2429");
    // 11700088 in full, read by hand from the capture's XML: MedlinePgn
    // as pages, PubDate 2001 Nov, ArticleIds doi and pii, MedlineTA equal
    // to the ISOAbbreviation (left out), no false flags or empty lists;
    // `2001 Nov` is the ISO 2001-11 and English the default language, so
    // neither is repeated.
    let abstract_text = "The sensitivity of (13)C NMR imaging can be considerably favored by detecting the (1)H nuclei bound to (13)C nuclei via scalar J-interaction (X-filter). However, the J-editing approaches have difficulty in discriminating between compounds with similar J-constant as, for example, different glucose metabolites. In such cases, it is almost impossible to get J-edited images of a single-compound distribution, since the various molecules are distinguishable only via their chemical shift. In a recent application of J-editing to high-resolution spectroscopy, it has been shown that a more efficient chemical selectivity could be obtained by utilizing the larger chemical shift range of (13)C. This has been made by introducing frequency-selective (13)C pulses that allow a great capability of indirect chemical separation. Here a double-resonance imaging approach is proposed, based on both J-editing and (13)C chemical shift editing, which achieves a powerful chemical selectivity and is able to produce full maps of specific chemical compounds. Results are presented on a multicompartments sample containing solutions of glucose and lactic and glutamic acid in water.";
    let author = |last: &str, fore: &str| json!({"name": format!("{last}, {fore}")});
    let mut first = author("Casieri", "C");
    first["affiliations"] =
        json!(["INFM and Department of Physics, University of L'Aquila, I-67100 L'Aquila, Italy."]);
    assert_eq!(
        sc["articles"][1],
        json!({
            "pmid": "11700088",
            "title": "Proton MRI of (13)C distribution by J and chemical shift editing.",
            "abstract": [{"text": abstract_text}],
            "authors": [
                first,
                author("Testa", "C"),
                author("Carpinelli", "G"),
                author("Canese", "R"),
                author("Podo", "F"),
                author("De Luca", "F")
            ],
            "journal": {
                "title": "Journal of magnetic resonance (San Diego, Calif. : 1997)",
                "isoAbbreviation": "J Magn Reson",
                "issn": "1090-7807",
                "volume": "153",
                "issue": "1",
                "pages": "117-23"
            },
            "pubDate": "2001-11",
            "doi": "10.1006/jmre.2001.2429",
            "pii": "S1090-7807(01)92429-2",
            "pubTypes": ["Journal Article"],
            "retracted": false
        })
    );
    // the text block: an index, one line per PMID
    let text = &r.content[0].as_text().unwrap().text;
    assert!(
        text.starts_with("Fetched 2 of 3 PMIDs, one line each;"),
        "{text}"
    );
    for needle in [
        "\n1. PMID 11748933 · Is cryopreservation a homogeneous process? Ultrastructure and motility of untreated, prefreezing, and postthawed spermatozoa of Diplodus puntazzo (Cetti). · Taddei AR et al. · Cryobiology 2001 · doi:10.1006/cryo.2001.2328\n",
        "\n2. PMID 11700088 · Proton MRI of (13)C distribution by J and chemical shift editing. · Casieri C et al. · J Magn Reson 2001 · doi:10.1006/jmre.2001.2429\n",
        "\n3. PMID 99999999:",
        "[not_found]",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    assert!(
        !text.contains("This study subdivides"),
        "abstracts are in structuredContent only"
    );
    c.cancel().await.unwrap();
}

/// Wrong input is an isError invalid_argument (or malformed_id) naming
/// the MCP field, before any request; an EFetch outage is an isError with
/// its reason, never an empty success.
#[tokio::test]
async fn fetch_articles_errors_are_results_naming_the_field() {
    let server = efetch_capture_server(false);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    for (args, reason, field) in [
        (json!({"pmids": "11748933"}), "invalid_argument", "pmids"),
        (json!({"pmids": []}), "invalid_argument", "pmids"),
        (json!({"pmids": [true]}), "invalid_argument", "pmids"),
        (json!({"pmids": ["12a"]}), "malformed_id", "pmids"),
        (json!({"pmids": ["0"]}), "malformed_id", "pmids"),
        (
            json!({"pmids": ["1"], "includeAbstract": "yes"}),
            "invalid_argument",
            "includeAbstract",
        ),
        (json!({"pmid": ["1"]}), "invalid_argument", "pmid"),
    ] {
        let e = error_of(&call(&c, "pubmed_fetch_articles", args.clone()).await);
        assert_eq!(e["data"]["reason"], reason, "{args}");
        assert_eq!(e["data"]["field"], field, "{args}");
        let hint = e["data"]["recovery"]["hint"].as_str().unwrap();
        assert!(hint.contains(&format!("`{field}`")), "{args}: {hint}");
        assert!(!hint.contains("idType") && !hint.contains("--"), "{hint}");
    }
    let pmids: Vec<String> = (1..=201).map(|i| i.to_string()).collect();
    let e = error_of(&call(&c, "pubmed_fetch_articles", json!({"pmids": pmids})).await);
    assert_eq!(
        e["message"], "`pmids` holds 201 elements; give 1 to 200",
        "{e}"
    );
    assert_eq!(server.count(), 0, "bad input never reaches NCBI");
    c.cancel().await.unwrap();

    let down = efetch_capture_server(true);
    let c = client(&down, home.path()).await;
    let r = call(&c, "pubmed_fetch_articles", json!({"pmids": ["11748933"]})).await;
    let e = error_of(&r);
    assert_eq!(e["data"]["reason"], "ncbi_unreachable");
    assert_eq!(e["data"]["retryable"], true);
    // the PMID that was not delivered is said, beside the error
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["failed"][0]["pmid"], "11748933");
    assert_eq!(sc["failed"][0]["reason"], "ncbi_unreachable");
    assert_eq!(sc["articles"], json!([]));
    // the CLI exits non-zero for the same input
    let run = support::cli::pubmed(&["fetch", "11748933", "-f", "json"])
        .server(&down)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    c.cancel().await.unwrap();
}

/// pubmed_format_citations on a real EFetch answer: the capture's values
/// in RIS and Vancouver text, `document` byte for byte the CLI's output,
/// a PMID EFetch left out as an error entry in its place.
#[tokio::test]
async fn format_citations_on_a_real_efetch_answer_like_the_cli() {
    let server = efetch_capture_server(false);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    let r = call(
        &c,
        "pubmed_format_citations",
        json!({"pmids": ["11748933", "99999999"], "format": "RIS"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(sc["format"], "ris");
    assert_eq!(sc["notFound"], json!(["99999999"]));
    // the citation once: in document (entry n of document is citations[n])
    assert!(sc["citations"][0].get("citation").is_none());
    let ris = sc["document"].as_str().unwrap();
    for line in [
        "TI  - Is cryopreservation a homogeneous process?",
        "JO  - Cryobiology",
        "VL  - 42",
        "IS  - 4",
        "SP  - 244",
        "DO  - 10.1006/cryo.2001.2328",
        "PY  - 2001",
    ] {
        assert!(ris.contains(line), "{line}: {ris}");
    }
    assert_eq!(sc["citations"][0]["retracted"], false);
    assert_eq!(sc["citations"][1]["pmid"], "99999999");
    assert_eq!(sc["citations"][1]["error"]["reason"], "not_found");
    let cli = support::cli::pubmed(&["fetch", "11748933", "99999999", "-f", "ris"])
        .server(&server)
        .run();
    assert_eq!(sc["document"], cli.stdout);
    assert_eq!(r.content[0].as_text().unwrap().text, cli.stdout);

    let r = call(
        &c,
        "pubmed_format_citations",
        json!({"pmids": ["11748933", "11700088"], "format": "text", "style": "Vancouver"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let sc = r.structured_content.unwrap();
    let lines: Vec<&str> = sc["document"].as_str().unwrap().lines().collect();
    let first = lines[0];
    // Vancouver lists six authors, then "et al."; numbered by position
    assert!(
        first
            .starts_with("1. Taddei AR, Barbato F, Abelli L, Canese S, Moretti F, Rana KJ, et al."),
        "{first}"
    );
    assert!(first.contains("Cryobiology"), "{first}");
    assert!(first.contains("42(4)"), "{first}");
    let second = lines[1];
    assert!(second.starts_with("2. Casieri C, Testa C"), "{second}");
    let cli = support::cli::pubmed(&["cite", "11748933", "11700088", "--style", "vancouver"])
        .server(&server)
        .run();
    assert_eq!(sc["document"], cli.stdout);
    assert_eq!(lines.len(), sc["citations"].as_array().unwrap().len());
    c.cancel().await.unwrap();
}

/// Wrong input names the MCP field (`format`, `style`, `pmids`) before any
/// request; an EFetch outage is an isError with its reason.
#[tokio::test]
async fn format_citations_errors_are_results_naming_the_field() {
    let server = efetch_capture_server(false);
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    for (args, reason, field) in [
        (json!({"pmids": ["1"]}), "invalid_argument", "format"),
        (
            json!({"pmids": ["1"], "format": "endnote"}),
            "invalid_argument",
            "format",
        ),
        (
            json!({"pmids": ["1"], "format": "text", "style": "nope"}),
            "invalid_argument",
            "style",
        ),
        (
            json!({"pmids": ["1"], "format": "text", "style": "/etc/passwd"}),
            "invalid_argument",
            "style",
        ),
        (
            json!({"pmids": ["1"], "format": "text", "style": 5}),
            "invalid_argument",
            "style",
        ),
        (
            json!({"pmids": ["PMC3531190"], "format": "ris"}),
            "malformed_id",
            "pmids",
        ),
    ] {
        let e = error_of(&call(&c, "pubmed_format_citations", args.clone()).await);
        assert_eq!(e["data"]["reason"], reason, "{args}");
        assert_eq!(e["data"]["field"], field, "{args}");
        let msg = e["message"].as_str().unwrap();
        assert!(!msg.contains("--list-styles"), "{msg}");
    }
    let e = error_of(
        &call(
            &c,
            "pubmed_format_citations",
            json!({"pmids": ["1"], "format": "text", "style": "nope"}),
        )
        .await,
    );
    assert!(
        e["data"]["recovery"]["hint"]
            .as_str()
            .unwrap()
            .contains("`style` a bundled style name"),
        "{e}"
    );
    assert_eq!(server.count(), 0, "bad input never reaches NCBI");
    c.cancel().await.unwrap();

    let down = efetch_capture_server(true);
    let c = client(&down, home.path()).await;
    for format in ["text", "bibtex"] {
        let r = call(
            &c,
            "pubmed_format_citations",
            json!({"pmids": ["11748933"], "format": format}),
        )
        .await;
        let e = error_of(&r);
        assert_eq!(e["data"]["reason"], "ncbi_unreachable", "{format}");
        let sc = r.structured_content.unwrap();
        assert_eq!(
            sc["citations"][0]["error"]["reason"], "ncbi_unreachable",
            "{format}"
        );
    }
    c.cancel().await.unwrap();
}

/// Cancelling pubmed_fetch_articles and pubmed_format_citations drops
/// their work: the call whose EFetch request is in flight stops waiting on
/// it, the one queued behind it in the pacer never sends its request, the
/// next call is not delayed, and neither keeps the server alive.
#[tokio::test]
async fn cancelled_fetch_and_citation_calls_stop_their_work() {
    let efetch = String::from_utf8(fixture("efetch_pubmed_two_articles.xml")).unwrap();
    let server = TestServer::start(move |r| {
        if r.is("efetch.fcgi") {
            return Reply::Slow(
                std::time::Duration::from_secs(30),
                Box::new(Reply::xml(efetch.clone())),
            );
        }
        let term = r.param("term").unwrap_or_default().to_string();
        Reply::xml(support::ncbi::espell(&term, &[("O", &term)]))
    });
    let mut live = Live::start(
        &server,
        &[
            ("PUBMED_REQUEST_GAP_MS", "1000"),
            ("PUBMED_DEADLINE_S", "60"),
        ],
    )
    .await;
    live.send(&tool_call(
        1,
        "pubmed_fetch_articles",
        json!({"pmids": ["11748933"]}),
    ))
    .await;
    live.send(&tool_call(
        2,
        "pubmed_format_citations",
        json!({"pmids": ["11700088"], "format": "bibtex"}),
    ))
    .await;
    let t = std::time::Instant::now();
    while server.count() == 0 && t.elapsed() < std::time::Duration::from_secs(10) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    live.send(&cancel(1)).await;
    live.send(&cancel(2)).await;
    let sent = std::time::Instant::now();
    live.send(&tool_call(
        3,
        "pubmed_spell_check",
        json!({"query": "fast"}),
    ))
    .await;
    let (answer, at) = live.answer(3, std::time::Duration::from_secs(10)).await;
    assert_eq!(answer["result"]["structuredContent"]["corrected"], "fast");
    assert!(
        at - sent < std::time::Duration::from_secs(3),
        "{:?}",
        at - sent
    );
    let efetches = server
        .requests()
        .into_iter()
        .filter(|r| r.is("efetch.fcgi"))
        .count();
    assert_eq!(efetches, 1, "the queued citation call never reached NCBI");
    live.close();
    let closed = std::time::Instant::now();
    let status = live
        .exit(std::time::Duration::from_secs(10))
        .await
        .expect("exits");
    assert!(status.success());
    assert!(closed.elapsed() < std::time::Duration::from_secs(5));
    live.drain(std::time::Duration::from_secs(1)).await;
    for id in [1, 2] {
        assert!(
            !live.seen.iter().any(|(m, _)| m["id"] == json!(id)),
            "a cancelled call is not answered ({id})"
        );
    }
}

/// Issue 27: `tools/list` was 47,027 bytes (compact JSON of the result,
/// before this change); the shared error rules are now stated once in the
/// instructions and the field meanings of each output schema moved to a
/// resource, so the list is under half that, and no rule is lost: every
/// shared reason is in the instructions, every output field's description
/// in its resource.
#[tokio::test]
async fn tools_list_is_under_half_its_former_size_and_loses_no_rule() {
    let fake = fake();
    let server = start(&fake);
    let mut lines = vec![INIT.to_string(), INITED.to_string()];
    lines.push(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.into());
    let specs = pubmed::mcp::tools::specs();
    for (i, s) in specs.iter().enumerate() {
        lines.push(format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"resources/read","params":{{"uri":"pubmed://tools/{}/output-schema"}}}}"#,
            10 + i,
            s.name
        ));
    }
    lines.push(
        r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"pubmed://nope"}}"#
            .into(),
    );
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let (v, ok) = raw(&server, &refs, &[]).await;
    assert!(ok);
    let list = serde_json::to_string(&by_id(&v, 1)["result"]).unwrap();
    // 47,027 bytes was measured for the six tools served then; tools added
    // since (fulltext, MeSH, citation matching) stay within a per-tool budget.
    const FORMER: [&str; 6] = [
        "pubmed_search_articles",
        "pubmed_spell_check",
        "pubmed_convert_ids",
        "pubmed_fetch_articles",
        "pubmed_format_citations",
        "pubmed_find_related",
    ];
    let mut former = 0;
    for t in by_id(&v, 1)["result"]["tools"].as_array().unwrap() {
        let bytes = serde_json::to_string(t).unwrap().len();
        assert!(bytes < 8_192, "{} is {bytes} bytes", t["name"]);
        if FORMER.contains(&t["name"].as_str().unwrap()) {
            former += bytes;
        }
    }
    assert!(
        former < 47_027 / 2,
        "the former six tools are {former} bytes"
    );
    assert!(
        !list.contains("Errors come back"),
        "the shared rules are not repeated"
    );
    let instructions = by_id(&v, 0)["result"]["instructions"].as_str().unwrap();
    assert_eq!(
        instructions.matches("Errors come back as results").count(),
        1
    );
    for (r, _) in pubmed::mcp::tools::UPSTREAM_REASONS {
        assert_eq!(instructions.matches(&format!("`{r}`")).count(), 1, "{r}");
        assert!(
            !list.contains(&format!("`{r}` (")),
            "{r} is listed once, in the instructions"
        );
    }
    for (i, s) in specs.iter().enumerate() {
        let text = by_id(&v, 10 + i as i64)["result"]["contents"][0]["text"]
            .as_str()
            .unwrap();
        let schema: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            schema["properties"]["error"]["properties"]["data"]["required"],
            json!(["reason", "retryable"])
        );
        for (k, p) in s.output["properties"].as_object().unwrap() {
            assert_eq!(
                schema["properties"][k]["description"], p["description"],
                "{} {k}",
                s.name
            );
        }
    }
    assert_eq!(by_id(&v, 2)["error"]["code"], -32002);
}

/// Issue 27: the argument spellings agents send (docs/mcp.md "Argument
/// aliases") give the same answer as ours, through the server.
#[tokio::test]
async fn aliases_agents_send_give_the_canonical_answer() {
    let s = support::mcp::session().await;
    let pairs = [
        (
            "pubmed_search_articles",
            json!({"term": "hits300", "retmax": "3", "retstart": 2, "sort": "date", "mindate": "2020", "detail": "ids"}),
            json!({"query": "hits300", "maxResults": 3, "offset": 2, "sort": "pub_date", "dateRange": {"minDate": "2020"}, "detail": "ids"}),
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": [23193287], "idtype": "pmid"}),
            json!({"ids": ["23193287"], "idType": "pmid"}),
        ),
        (
            "pubmed_convert_ids",
            json!({"ids": "[\"23193287\"]", "id_type": "PMID"}),
            json!({"ids": ["23193287"], "idType": "pmid"}),
        ),
    ];
    for (tool, alias, canonical) in pairs {
        let a = call(&s.c, tool, alias.clone()).await;
        let c = call(&s.c, tool, canonical).await;
        assert_ne!(a.is_error, Some(true), "{alias}: {a:?}");
        assert_eq!(a.structured_content, c.structured_content, "{alias}");
    }
    let r = call(
        &s.c,
        "pubmed_convert_ids",
        json!({"ids": [23193287], "idType": "pmid"}),
    )
    .await;
    assert_eq!(
        r.structured_content.unwrap()["records"][0]["pmcid"],
        "PMC3531190"
    );
    // the seed's validation is kept: a packed element is still refused
    let r = call(
        &s.c,
        "pubmed_convert_ids",
        json!({"ids": ["23193287,37952131"], "idType": "pmid"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
}

/// Issue 27: a call with `_meta.progressToken` gets
/// `notifications/progress` as its chunks are answered, all before its
/// answer, with `progress` rising to `total`. 200 PMIDs are one EFetch
/// chunk (up to 1,000), so one notification.
#[tokio::test]
async fn a_fetch_with_a_progress_token_reports_each_chunk() {
    let fake = fake();
    let server = start(&fake);
    let pmids: Vec<String> = (1..=200).map(|n| (11_700_000 + n).to_string()).collect();
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "pubmed_fetch_articles", "arguments": {"pmids": pmids},
        "_meta": {"progressToken": "tok-1"}}})
    .to_string();
    let (v, ok) = raw(&server, &[INIT, INITED, &call], &[]).await;
    assert!(ok);
    let answer_at = v.iter().position(|m| m["id"] == 5).unwrap();
    let progress: Vec<&Value> = v
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .collect();
    assert_eq!(progress.len(), 1, "{progress:?}");
    assert_eq!(
        progress[0]["params"]["message"],
        "200 records, 1 NCBI request"
    );
    let last_at = v
        .iter()
        .rposition(|m| m["method"] == "notifications/progress")
        .unwrap();
    assert!(last_at < answer_at, "progress comes before the answer");
    let mut before = 0.0;
    for p in &progress {
        assert_eq!(p["params"]["progressToken"], "tok-1");
        let done = p["params"]["progress"].as_f64().unwrap();
        assert!(done > before, "{progress:?}");
        before = done;
    }
    assert_eq!(before, 200.0);
    assert_eq!(progress.last().unwrap()["params"]["total"], 200.0);
    // without a token, none
    let plain = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "pubmed_fetch_articles", "arguments": {"pmids": ["11700001"]}}})
    .to_string();
    let (v, _) = raw(&server, &[INIT, INITED, &plain], &[]).await;
    assert!(v.iter().all(|m| m["method"] != "notifications/progress"));
}
