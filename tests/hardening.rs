//! Regression tests for the faults a QA pass found on main: hostile or
//! broken answers and inputs (deep XML, devices as files, generic upstream
//! errors, contradicting pages, control characters, …). Each test sends
//! the input that broke the tool and asserts the documented outcome: the
//! exact reason, exit code and, where there is one, the right value.

use crate::support;

use pubmed::ncbi::efetch;
use pubmed::ops::cite::{CiteStyle, MAX_STYLE_DEPTH};
use support::cli::pubmed;
use support::ncbi::{self, Article};
use support::server::{Reply, TestServer, fixture};

fn text(name: &str) -> String {
    String::from_utf8(fixture(name)).unwrap()
}

fn nested(tag: &str, depth: usize, leaf: &str) -> String {
    format!(
        "{}{leaf}{}",
        format!("<{tag}>").repeat(depth),
        format!("</{tag}>").repeat(depth)
    )
}

// ---------------------------------------------------------------------------
// 1. Deeply nested XML never overflows the stack

#[test]
fn an_esearch_body_nested_60000_deep_is_an_invalid_response() {
    // The modern ESearch layout with 60,000 nested <x> inside <IdList>.
    let body = ncbi::esearch(1, 0, &["1".to_string()], "cancer[All Fields]", &[], &[]).replace(
        "<Id>1</Id>",
        &format!("<Id>1</Id>{}", nested("x", 60_000, "")),
    );
    let server = TestServer::start(move |_| Reply::xml(body.clone()));
    let run = pubmed(&["search", "-f", "json", "cancer"])
        .server(&server)
        .run();
    run.failed_with(
        69,
        "ncbi_invalid_response",
        "nested more than 256 levels deep",
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn an_efetch_title_nested_200000_deep_is_an_invalid_record() {
    let mut deep = Article::new("31000001");
    deep.title = nested("i", 200_000, "Deep.");
    let body = ncbi::efetch_set(&[deep, Article::new("31000002")], &[]);
    let server = TestServer::start(move |_| Reply::xml(body.clone()));
    let run = pubmed(&["fetch", "-f", "ndjson", "31000001", "31000002"])
        .server(&server)
        .run();
    assert!(!run.stderr.contains("overflow"), "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert_eq!(lines[0]["pmid"], "31000001");
    assert_eq!(lines[0]["error"]["reason"], "ncbi_invalid_response");
    // The other article of the same answer is read as usual.
    assert_eq!(lines[1]["pmid"], "31000002");
    assert_eq!(lines[1]["title"], "Article 31000002.");
    assert_eq!(run.code, 69, "{}", run.stderr);
}

fn mini_style(layout: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
<info><title>Deep</title><id>deep</id><updated>2024-01-01T00:00:00+00:00</updated></info>
<citation><layout><text variable="title"/></layout></citation>
<bibliography><layout>{layout}</layout></bibliography>
</style>
"#
    )
}

#[test]
fn a_csl_style_nested_1000_deep_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("deep.csl");
    std::fs::write(
        &deep,
        mini_style(&nested("group", 1000, r#"<text variable="title"/>"#)),
    )
    .unwrap();
    let server = TestServer::start(|_| Reply::status(404, "text/plain", "no"));
    let run = pubmed(&["cite", "21860499", "--style", deep.to_str().unwrap()])
        .server(&server)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "style {}:5: elements nested more than 64 levels deep",
            deep.display()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(server.count(), 0);
    // At the cap (style, bibliography, layout and 61 groups: 64 levels) a
    // style still parses and formats, on a test thread's 2 MiB stack.
    let at_cap = dir.path().join("cap.csl");
    std::fs::write(
        &at_cap,
        mini_style(&nested(
            "group",
            MAX_STYLE_DEPTH - 3,
            r#"<text variable="title"/>"#,
        )),
    )
    .unwrap();
    let style = CiteStyle::resolve(at_cap.to_str().unwrap()).unwrap();
    let record = efetch::parse_set(&text("efetch_pubmed_collective_author_2024.xml"), false)
        .unwrap()
        .articles
        .into_iter()
        .map(|(_, r, _)| r.unwrap())
        .find(|r| r.pmid == "21860499")
        .unwrap();
    assert_eq!(style.format(&record, 1).unwrap().text(), "Nitrofen");
}

// ---------------------------------------------------------------------------
// 2. A style "file" that is a device or a FIFO

#[test]
fn a_style_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("style.csl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for path in ["/dev/zero".to_string(), fifo.display().to_string()] {
        let run = pubmed(&["cite", "21860499", "--style", &path]).run();
        assert_eq!(run.code, 2, "{path}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "style {path} is not a regular file (a directory, device or pipe)"
            )),
            "{path}: {}",
            run.stderr
        );
    }
    // A regular file one byte over the limit.
    let big = dir.path().join("big.csl");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(pubmed::ops::cite::MAX_STYLE_BYTES + 1).unwrap();
    let run = pubmed(&["cite", "21860499", "--style", big.to_str().unwrap()]).run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "style {} is over the limit of 4194304 bytes",
            big.display()
        )),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------
// 3. A generic ID Converter error is the service's fault, not the IDs'

fn ndjson(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn a_converter_error_naming_no_id_is_an_invalid_response_not_malformed_ids() {
    let server = TestServer::start(|_| {
        Reply::json(200, r#"{"status":"error","message":"something broke"}"#)
    });
    let run = pubmed(&[
        "convert", "-f", "ndjson", "--from", "pmid", "23193287", "20495566", "1", "2",
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    let recs = ndjson(&run.stdout);
    assert_eq!(recs.len(), 4);
    for (r, id) in recs.iter().zip(["23193287", "20495566", "1", "2"]) {
        assert_eq!(r["requested"], id);
        assert_eq!(r["error"]["reason"], "ncbi_invalid_response", "{r}");
    }
    // One request: nothing is halved to find an ID the message never named.
    assert_eq!(server.count(), 1);
    // A rejection that says the IDs are invalid is still split to find
    // them (tests/convert.rs, a_rejected_chunk_is_split_to_find_the_rejected_ids).
}

#[test]
fn a_converter_record_carrying_another_pmid_than_requested_is_an_invalid_response() {
    // The current service's record shape, echoing 23193287 but for 99999999.
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            r#"{"status":"ok","responseDate":"2026-12-01 00:00:00","request":"ids=23193287;idtype=pmid;format=json","records":[{"requested-id":"23193287","pmcid":"PMC3531190","pmid":99999999,"doi":"10.5555/example.23193287"}]}"#,
        )
    });
    let run = pubmed(&["convert", "-f", "ndjson", "--from", "pmid", "23193287"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    let recs = ndjson(&run.stdout);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["error"]["reason"], "ncbi_invalid_response");
    assert!(
        recs[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the record for 23193287 carries PMID 99999999"),
        "{}",
        recs[0]
    );
}

// ---------------------------------------------------------------------------
// 4. ESearch pages longer than asked for, or for another page

#[test]
fn esearch_pages_that_hold_too_much_or_another_page_are_retried_then_invalid() {
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases = [
        // Count 2, three IDs.
        (
            ncbi::esearch(2, 0, &ids(&["3", "2", "1"]), "x[All Fields]", &[], &[]),
            "promises 2 IDs on this page, but it holds 3",
        ),
        // RetStart 40 for a request of retstart 0.
        (
            ncbi::esearch(100, 40, &ids(&["3", "2"]), "x[All Fields]", &[], &[]),
            "it answers RetStart 40 to a request for retstart 0",
        ),
        // A zero where a PMID belongs.
        (
            ncbi::esearch(2, 0, &ids(&["5", "0"]), "x[All Fields]", &[], &[]),
            "<Id>0</Id> is not a PMID",
        ),
    ];
    for (body, why) in cases {
        let server = TestServer::start(move |req| {
            if req.is("esearch.fcgi") {
                Reply::xml(body.clone())
            } else {
                Reply::status(404, "text/plain", "no")
            }
        });
        let run = pubmed(&["search", "-f", "json", "--detail", "ids", "x"])
            .server(&server)
            .run();
        run.failed_with(69, "ncbi_invalid_response", why);
        // The same answer twice cannot change: one retry only (issue 25
        // item 10), not PUBMED_MAX_RETRIES=2.
        assert_eq!(server.count(), 2, "{why}");
        assert_eq!(run.stdout, "");
    }
}

// ---------------------------------------------------------------------------
// 5. Control characters from input lines, and NCBI's bytes on a terminal

/// No C0 control but line feed, tab and (RIS's CRLF) carriage return.
fn has_raw_controls(s: &str) -> bool {
    s.chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
}

#[test]
fn input_lines_with_escapes_and_nul_never_reach_ris_bibtex_or_html_raw() {
    let server = TestServer::start(|_| Reply::xml(ncbi::efetch_set(&[], &[])));
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ids.txt");
    std::fs::write(&input, b"12\x1b]0;owned\x07\x1b[2J\n\x009\n").unwrap();
    let path = input.to_str().unwrap();
    for args in [
        vec!["fetch", "-f", "ris", "--input", path],
        vec!["fetch", "-f", "bibtex", "--input", path],
        vec!["cite", "-f", "html", "--input", path],
        vec!["cite", "-f", "text", "--input", path],
    ] {
        let run = pubmed(&args).server(&server).run();
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert!(!has_raw_controls(&run.stdout), "{args:?}: {:?}", run.stdout);
        assert!(!has_raw_controls(&run.stderr), "{args:?}: {:?}", run.stderr);
        // One entry per input line, each saying malformed_id.
        assert_eq!(
            run.stdout.matches("malformed_id").count(),
            2,
            "{args:?}: {}",
            run.stdout
        );
    }
    let run = pubmed(&["cite", "-f", "html", "--input", path])
        .server(&server)
        .run();
    assert!(
        run.stdout.contains("data-pmid=\"12 ]0;owned  [2J\""),
        "{}",
        run.stdout
    );
}

/// Runs `pubmed ARGS…` with stdout on a pseudo-terminal (util-linux
/// `script`), in the scrubbed environment of `support::cli`.
fn on_a_terminal(server: &TestServer, args: &[&str]) -> String {
    let p = pubmed(args).server(server);
    let mut line = String::from("exec");
    for a in std::iter::once(p.cmd.get_program()).chain(p.cmd.get_args()) {
        line.push_str(&format!(
            " '{}'",
            a.to_str().unwrap().replace('\'', "'\\''")
        ));
    }
    line.push_str(" 2>/dev/null");
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"]).env_clear();
    for (k, v) in p.cmd.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    let out = cmd.stdin(std::process::Stdio::null()).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn medline_and_xml_keep_ncbis_bytes_in_a_pipe_and_are_made_safe_on_a_terminal() {
    let mut a = Article::new("31000003");
    // A title holding ESC and BEL: NCBI's bytes, as they would arrive.
    a.title = "Evil \u{1b}]0;owned\u{7} title.".into();
    let medline = ncbi::medline_set(std::slice::from_ref(&a));
    let xml = ncbi::efetch_set(&[a], &[]);
    let server = TestServer::start(move |req| {
        if req.param("rettype") == Some("medline") {
            Reply::status(200, "text/plain", medline.clone())
        } else {
            Reply::xml(xml.clone())
        }
    });
    for format in ["medline", "xml"] {
        let piped = pubmed(&["fetch", "-f", format, "31000003"])
            .server(&server)
            .run();
        assert_eq!(piped.code, 0, "{format}: {}", piped.stderr);
        assert!(
            piped.stdout.contains("Evil \u{1b}]0;owned\u{7} title."),
            "{format} in a pipe is NCBI's bytes: {:?}",
            piped.stdout
        );
        let tty = on_a_terminal(&server, &["fetch", "-f", format, "31000003"]);
        assert!(
            tty.contains("Evil \u{FFFD}]0;owned\u{FFFD} title."),
            "{format} on a terminal: {tty:?}"
        );
        assert!(!tty.contains('\u{1b}'), "{format}: {tty:?}");
    }
}

// ---------------------------------------------------------------------------
// 6. An ELink refusal naming its uid is that input's alone

#[test]
fn an_elink_error_naming_a_uid_not_sent_is_an_invalid_response_not_every_input_not_found() {
    // As the QA fake: every answer is the top-level refusal of uid 5.
    let body = ncbi::eutils_error("eLinkResult", "Invalid uid 5 at position 1");
    let server = TestServer::start(move |_| Reply::xml(body.clone()));
    let run = pubmed(&["related", "-f", "ndjson", "4", "5", "6", "7"])
        .server(&server)
        .run();
    let recs = ndjson(&run.stdout);
    let reasons: Vec<&str> = recs
        .iter()
        .map(|r| r["error"]["reason"].as_str().unwrap())
        .collect();
    // 5 is named; the others, sent again without it, are refused for a uid
    // they do not hold: ELink contradicts the request, and the chunk fails
    // as ncbi_invalid_response (never every input not_found). An answer
    // naming only what was sent narrows to that input: tests/related.rs,
    // an_error_naming_an_id_is_narrowed_down_to_that_input.
    assert_eq!(reasons, ["ncbi_invalid_response"; 4]);
    assert!(
        recs[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ELink refused uid 5, which was not sent"),
        "{}",
        recs[1]
    );
    assert_eq!(run.code, 69, "{}", run.stderr);
    // Two requests, not 2n − 1.
    assert_eq!(server.count(), 2);
}

// ---------------------------------------------------------------------------
// 7. config show never prints a URL's password or api_key

#[test]
fn config_show_redacts_url_passwords_and_api_keys_as_verbose_does() {
    let url = "http://user:s3cret@127.0.0.1:9/entrez/eutils/?api_key=K3Y";
    for format in ["text", "json"] {
        let run = pubmed(&["config", "show", "-f", format])
            .env("PUBMED_EUTILS_URL", url)
            .run();
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(!run.stdout.contains("s3cret"), "{format}: {}", run.stdout);
        assert!(!run.stdout.contains("K3Y"), "{format}: {}", run.stdout);
        assert!(
            run.stdout
                .contains("http://user:REDACTED@127.0.0.1:9/entrez/eutils/?api_key=REDACTED"),
            "{format}: {}",
            run.stdout
        );
    }
}

// ---------------------------------------------------------------------------
// 8. Exit statuses the README documents

#[test]
fn help_and_version_into_a_full_disk_are_exit_74() {
    for arg in ["--help", "--version"] {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            return; // no /dev/full on this system
        };
        let run = pubmed(&[arg]).stdout_to(full).run();
        assert_eq!(run.code, 74, "{arg}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("pubmed: error: cannot write the output: No space left on device"),
            "{arg}: {}",
            run.stderr
        );
    }
    let run = pubmed(&["--version"]).run();
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("pubmed "), "{}", run.stdout);
}

#[test]
fn an_input_with_no_id_line_is_a_usage_error_for_every_batch_command() {
    let server = TestServer::start(|_| Reply::status(404, "text/plain", "no"));
    let dir = tempfile::tempdir().unwrap();
    let comments = dir.path().join("comments-only.txt");
    std::fs::write(&comments, "# only a comment\n\n   \n").unwrap();
    let path = comments.to_str().unwrap();
    for (cmd, what) in [
        ("convert", "IDs"),
        ("related", "PMIDs"),
        ("fetch", "PMIDs"),
        ("cite", "PMIDs"),
    ] {
        let run = pubmed(&[cmd, "--input", path]).server(&server).run();
        assert_eq!(run.code, 2, "{cmd} --input: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "pubmed: error: the input holds no {what} (only blank or # comment lines, or nothing) [invalid_argument]"
            )),
            "{cmd}: {}",
            run.stderr
        );
        if cmd != "cite" {
            let run = pubmed(&[cmd, "-f", "json", "--input", path])
                .server(&server)
                .run();
            assert_eq!(run.code, 2, "{cmd} -f json: {}", run.stderr);
            assert_eq!(run.error_json()["reason"], "invalid_argument", "{cmd}");
        }
        // An empty stdin, read as `-`.
        let run = pubmed(&[cmd, "--input", "-"])
            .server(&server)
            .stdin("")
            .run();
        assert_eq!(run.code, 2, "{cmd} on empty stdin: {}", run.stderr);
    }
    // fetch and cite read a piped stdin without `-`: empty is the same error.
    for cmd in ["fetch", "cite"] {
        let run = pubmed(&[cmd, "-f", if cmd == "fetch" { "json" } else { "text" }])
            .server(&server)
            .stdin("")
            .run();
        assert_eq!(run.code, 2, "{cmd} </dev/null: {}", run.stderr);
    }
    assert_eq!(server.count(), 0);
}

// ---------------------------------------------------------------------------
// 10. A complete HTTP answer whose XML ends inside an open element

#[test]
fn an_efetch_body_cut_after_the_first_article_is_retried_then_invalid() {
    let full = ncbi::efetch_set(&[Article::new("31000011"), Article::new("31000012")], &[]);
    let end = full.find("</PubmedArticle>").unwrap() + "</PubmedArticle>".len();
    let cut = full[..end].to_string();
    // Cut once, then whole: the retry gives both records.
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (c, f, k) = (calls.clone(), full.clone(), cut.clone());
    let server = TestServer::start(move |_| {
        if c.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Reply::xml(k.clone())
        } else {
            Reply::xml(f.clone())
        }
    });
    let run = pubmed(&["fetch", "-f", "ndjson", "31000011", "31000012"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs = ndjson(&run.stdout);
    assert_eq!(recs[0]["title"], "Article 31000011.");
    assert_eq!(recs[1]["title"], "Article 31000012.");
    assert_eq!(server.count(), 2);
    // Always cut the same way: retried once (the same answer twice cannot
    // change, issue 25 item 10), then ncbi_invalid_response for both
    // PMIDs, never a not_found for the one cut off.
    let server = TestServer::start(move |_| Reply::xml(cut.clone()));
    let run = pubmed(&["fetch", "-f", "ndjson", "31000011", "31000012"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    let recs = ndjson(&run.stdout);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["error"]["reason"], "ncbi_invalid_response", "{r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap()
                .contains("EFetch sent a body cut short (it ends inside <PubmedArticleSet>)"),
            "{r}"
        );
    }
    assert_eq!(server.count(), 2);
}

#[test]
fn an_esearch_body_ending_inside_an_element_is_retried_then_invalid() {
    let body = ncbi::esearch(2, 0, &["2".into(), "1".into()], "x[All Fields]", &[], &[]);
    let cut = body[..body.find("</IdList>").unwrap()].to_string();
    let server = TestServer::start(move |_| Reply::xml(cut.clone()));
    let run = pubmed(&["search", "-f", "json", "--detail", "ids", "x"])
        .server(&server)
        .run();
    run.failed_with(
        69,
        "ncbi_invalid_response",
        "ESearch sent a body cut short (it ends inside <IdList>)",
    );
    // the same answer twice: one retry only
    assert_eq!(server.count(), 2);
}

/// A run without `.server()` asks NCBI's real host: the test environment
/// sends that request to a loopback proxy (`support::cli::NO_HOST`), so it
/// never leaves the machine. Here the proxy is a listener that records
/// what it is asked: a CONNECT for eutils.ncbi.nlm.nih.gov:443, and the run
/// fails as unreachable, never as a success.
#[test]
fn a_run_without_a_test_server_never_leaves_loopback() {
    use std::io::{BufRead, BufReader};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy = format!("http://{}", listener.local_addr().unwrap());
    let asked = std::thread::spawn(move || {
        let (conn, _) = listener.accept().unwrap();
        let mut first = String::new();
        BufReader::new(conn).read_line(&mut first).unwrap();
        first
    });
    let run = pubmed(&["search", "asthma", "--count", "-f", "json"])
        .env("HTTPS_PROXY", &proxy)
        .env("PUBMED_MAX_RETRIES", "0")
        .run();
    assert_eq!(
        asked.join().unwrap().trim_end(),
        "CONNECT eutils.ncbi.nlm.nih.gov:443 HTTP/1.1"
    );
    run.failed_with(69, "ncbi_unreachable", "");
}
