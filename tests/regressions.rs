//! Regression tests for defects found by adversarial testing: each one
//! reproduces the input that broke the tool and asserts the right outcome.

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use support::cli::pubmed;
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::ncbi;
use support::server::{Reply, TestServer, fixture};

fn ids(n: std::ops::Range<u64>) -> Vec<String> {
    n.map(|i| i.to_string()).collect()
}

#[test]
fn a_huge_retry_after_stops_cleanly() {
    let server = TestServer::start(|_| {
        Reply::status(503, "text/plain", "busy").with_header("Retry-After", "18446744073709551615")
    });
    let run = pubmed(&["spell", "-f", "json", "cancr"])
        .server(&server)
        .run();
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    // A Retry-After over 30 s stops the call as ncbi_rate_limited, for a
    // 503 as for a 429 (issue 13 item 3).
    assert_eq!(run.code, 75, "{}", run.stderr);
    assert_eq!(run.error_json()["reason"], "ncbi_rate_limited");
    let server =
        TestServer::start(|_| Reply::too_many().with_header("Retry-After", "18446744073709551615"));
    let run = pubmed(&["convert", "-f", "json", "1"])
        .server(&server)
        .run();
    assert_eq!(run.code, 75, "{}", run.stderr);
    assert!(run.stdout.contains("ncbi_rate_limited"), "{}", run.stdout);
}

#[test]
fn extreme_local_numbers_are_input_errors_not_panics() {
    let server = TestServer::start(|_| Reply::xml(fixture("espell_biopythooon.xml")));
    for args in [
        vec!["--timeout", "1e19", "spell", "x"],
        vec!["--timeout", "-1", "spell", "x"],
    ] {
        let run = pubmed(&args).server(&server).run();
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"));
    }
    let run = pubmed(&["spell", "x"])
        .server(&server)
        .env("PUBMED_DEADLINE_S", "1e19")
        .run();
    assert_eq!(run.code, 2);
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    for n in ["7304485", "4294967295", "800000"] {
        let run = pubmed(&["search", "hits1", "--reldate", n])
            .server(&server)
            .run();
        assert_eq!(run.code, 0, "--reldate {n}: {}", run.stderr);
        let r = server.requests().pop().unwrap();
        assert_eq!(r.param("mindate"), Some("1000"), "--reldate {n}");
    }
    let run = pubmed(&["search", "hits1", "--mindate", "0000"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2);
}

#[test]
fn all_stops_when_counts_never_shrink() {
    // ESearch claims 20,000 hits for every range and always sends the same PMIDs.
    let server = TestServer::start(|_| {
        Reply::xml(ncbi::esearch(
            20_000,
            0,
            &ids(26_000_000..26_009_999),
            "x",
            &[],
            &[],
        ))
    });
    let t0 = Instant::now();
    let run = pubmed(&["search", "x", "--all", "-f", "ndjson"])
        .server(&server)
        .run();
    assert!(t0.elapsed() < Duration::from_secs(30));
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot be split further"),
        "{}",
        run.stderr
    );
    assert!(
        server.count() <= 1 + 16 + 4 * 3,
        "{} requests",
        server.count()
    );
    for r in server.requests() {
        if let Some((lo, hi)) = support::fake_ncbi::split_uid_range(r.param("term").unwrap()).1 {
            assert!(lo <= hi, "inverted range {lo}:{hi}");
        }
    }
}

#[test]
fn ids_output_never_drops_a_pmid_whose_summary_fails() {
    let server = TestServer::start(|req| {
        if req.is("esearch.fcgi") {
            Reply::xml(ncbi::esearch(
                3,
                0,
                &ids(1_000_008..1_000_011),
                "x",
                &[],
                &[],
            ))
        } else {
            Reply::xml(ncbi::esummary(
                &[ncbi::Doc::new("1000008"), ncbi::Doc::new("1000009")],
                &[("1000010", "cannot get document summary")],
            ))
        }
    });
    let run = pubmed(&["search", "x", "--all", "--detail", "brief", "-f", "ids"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "1000008\n1000009\n1000010\n");
    for (format, needle) in [
        (
            "ndjson",
            "{\"error\":{\"message\":\"cannot get document summary\",\"reason\":\"ncbi_resource_not_found\"},\"pmid\":\"1000010\"}",
        ),
        (
            "csv",
            "1000010,,,,,,,,,,,,,no summary: cannot get document summary",
        ),
        ("tsv", "no summary: cannot get document summary"),
        ("table", "(no summary: cannot get document summary)"),
    ] {
        let run = pubmed(&["search", "x", "-q", "-f", format])
            .server(&server)
            .run();
        assert_eq!(run.code, 0);
        assert!(run.stdout.contains(needle), "{format}: {}", run.stdout);
        assert!(run.stdout.contains("1000009"), "{format}");
    }
    let run = pubmed(&[
        "search", "x", "--all", "-f", "ndjson", "--detail", "full", "-q",
    ])
    .server(&server)
    .run();
    assert_eq!(run.stdout.lines().count(), 3);
    let run = pubmed(&[
        "search", "x", "--all", "-f", "csv", "--detail", "brief", "-q",
    ])
    .server(&server)
    .run();
    assert_eq!(
        run.stdout.lines().count(),
        4,
        "header + 3 rows: {}",
        run.stdout
    );
}

#[test]
fn filter_values_cannot_change_the_query() {
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    pubmed(&[
        "search",
        "x",
        "--author",
        "smith) OR (cancer",
        "--language",
        "eng OR fre",
    ])
    .server(&server)
    .run();
    assert_eq!(
        server.requests()[0].param("term"),
        Some("(x) AND \"smith) OR (cancer\"[Author] AND \"eng OR fre\"[Language]")
    );
    let run = pubmed(&["search", "<b></b>", "--author", "smith", "-f", "json"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2);
    assert_eq!(run.error_json()["reason"], "blank_query");
    assert_eq!(server.count(), 1);
}

#[test]
fn a_malformed_url_is_an_input_error_at_once() {
    for url in ["not a url", "ftp://127.0.0.1/x/", "file:///tmp/"] {
        let t0 = Instant::now();
        let run = pubmed(&["--eutils-url", url, "spell", "-f", "json", "x"]).run();
        assert_eq!(run.code, 2, "{url}");
        assert_eq!(run.error_json()["reason"], "invalid_argument");
        // No request can be made; the bound only catches a hang.
        assert!(t0.elapsed() < Duration::from_secs(30));
    }
}

#[test]
fn a_bad_input_file_writes_nothing_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    for (path, needle) in [
        ("/nonexistent/refs.txt".to_string(), "/nonexistent/refs.txt"),
        (dir.path().to_str().unwrap().to_string(), "directory"),
    ] {
        for format in ["json", "tsv", "csv"] {
            let run = pubmed(&["convert", "--input", &path, "-f", format]).run();
            assert_eq!(run.code, 2, "{path} {format}");
            assert_eq!(run.stdout, "", "{path} {format}");
            assert!(run.stderr.contains(needle), "{}", run.stderr);
        }
    }
    let server = TestServer::start(|_| Reply::status(503, "text/plain", "down"));
    let run = pubmed(&["search", "x", "--all", "-f", "csv"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69);
    assert_eq!(run.stdout, "", "no header without data");
}

#[test]
fn convert_streams_for_a_slow_producer() {
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let p = pubmed(&["convert", "--input", "-", "--to", "pmcid"]).server(&server);
    let mut cmd = p.cmd;
    let mut child = cmd.stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let t0 = Instant::now();
    for id in ["22676651", "1", "2"] {
        stdin.write_all(format!("{id}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "a line per ID while stdin stays open");
    }
    // A line per ID answered while stdin is open; the bound catches a hang.
    assert!(t0.elapsed() < Duration::from_secs(60), "{:?}", t0.elapsed());
    drop(stdin);
    assert!(child.wait().unwrap().success());
    // a steady trickle is still sent within about a second
    let p = pubmed(&["convert", "--input", "-", "--to", "pmcid"]).server(&server);
    let mut cmd = p.cmd;
    let mut child = cmd.stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let before = fake.counters.idconv.load(Ordering::SeqCst);
    for i in 0..12 {
        stdin
            .write_all(format!("{}\n", 100 + i).as_bytes())
            .unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }
    assert!(
        fake.counters.idconv.load(Ordering::SeqCst) > before,
        "sent before input ends"
    );
    drop(stdin);
    child.wait().unwrap();
}

#[test]
fn converter_errors_other_than_not_in_pmc_keep_their_meaning() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            r#"{"status":"ok","records":[{"requested-id":"123","status":"error","errmsg":"Internal server error, try again later"}]}"#,
        )
    });
    let run = pubmed(&["convert", "-f", "ndjson", "123"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(
        run.stdout.contains("\"reason\":\"ncbi_unreachable\""),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("not_in_pmc"));
}

#[test]
fn a_world_readable_key_file_and_the_key_flag_warn() {
    let server = TestServer::start(|_| Reply::xml(fixture("espell_biopythooon.xml")));
    let p = pubmed(&["spell", "biopythooon"])
        .server(&server)
        .with_config("api_key = \"secretsecret123\"\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p.config_file(), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let run = p.run();
    assert_eq!(run.code, 0);
    assert!(run.stderr.contains("chmod 600"), "{}", run.stderr);
    assert!(!run.stderr.contains("secretsecret123"));
    let run = pubmed(&["spell", "--api-key", "k0123456789", "biopythooon"])
        .server(&server)
        .run();
    assert!(
        run.stderr.contains("visible to other users"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_query_on_stdin_that_is_not_utf8_is_an_input_error() {
    let run = pubmed(&["spell", "-f", "json", "-"])
        .stdin(vec![0xff, b'\n'])
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.error_json()["reason"], "invalid_argument");
    let run = pubmed(&["search", "-"]).stdin(vec![b'a', 0xfe]).run();
    assert_eq!(run.code, 2);
}

#[test]
fn a_failed_spell_check_keeps_the_search() {
    let server = TestServer::start(|req| {
        if req.is("espell.fcgi") {
            Reply::status(503, "text/plain", "down")
        } else {
            Reply::xml(fixture("esearch_zero_hits_phrase_not_found.xml"))
        }
    });
    let run = pubmed(&["search", "cancr", "--spell", "-f", "json"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["count"], 0);
    let kinds: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"spell_failed"), "{kinds:?}");
}

#[test]
fn garbage_ids_from_esearch_are_an_invalid_response() {
    let server = TestServer::start(|_| {
        Reply::xml(
            "<eSearchResult><Count>3</Count><IdList><Id>abc</Id><Id></Id><Id>1&#10;2</Id></IdList></eSearchResult>",
        )
    });
    let run = pubmed(&["search", "-f", "json", "x"]).server(&server).run();
    assert_eq!(run.code, 69);
    assert_eq!(run.error_json()["reason"], "ncbi_invalid_response");
    assert_eq!(run.stdout, "");
}

#[tokio::test]
async fn an_endless_body_is_cut_off() {
    use pubmed::ncbi::{Client, ClientSettings, Db};
    let big = Arc::new(vec![b' '; pubmed::ncbi::transport::MAX_BODY + 1024]);
    let server = TestServer::start(move |_| Reply::xml(big.to_vec()));
    let client = Client::new(ClientSettings {
        eutils_url: server.eutils_url(),
        ..Default::default()
    });
    let e = client.espell(Db::Pubmed, "x").await.unwrap_err();
    assert_eq!(e.reason, pubmed::error::Reason::NcbiInvalidResponse);
    assert!(e.message.contains("larger than"), "{}", e.message);
    assert_eq!(server.count(), 1, "not retried");
}

#[test]
fn a_pmcid_with_multibyte_letters_is_malformed_not_a_panic() {
    for id in ["éé1", "🫧R.", "ñmc1"] {
        let run = pubmed(&["convert", "--from", "pmcid", "-f", "json", id]).run();
        assert_eq!(run.code, 2, "{id}: {}", run.stderr);
        assert_eq!(run.error_json()["reason"], "malformed_id");
    }
}

#[test]
fn a_wrong_server_url_fails_at_once_and_names_the_url() {
    for (status, body) in [
        (404, "<!DOCTYPE html><html><body>Not Found</body></html>"),
        (501, "<html><body>Unsupported method ('POST')</body></html>"),
        (405, "method not allowed"),
    ] {
        let server = TestServer::start(move |_| Reply::status(status, "text/html", body));
        let t0 = Instant::now();
        let run = pubmed(&["spell", "-f", "json", "x"])
            .server(&server)
            .env("PUBMED_RETRY_BASE_MS", "1000")
            .run();
        assert_eq!(run.code, 2, "HTTP {status}: {}", run.stderr);
        assert_eq!(server.count(), 1, "HTTP {status} is not retried");
        // A retry would wait ≥ 1 s (PUBMED_RETRY_BASE_MS); only a hang bound.
        assert!(t0.elapsed() < Duration::from_secs(30));
        let e = run.error_json();
        assert_eq!(e["reason"], "invalid_argument");
        let msg = e["message"].as_str().unwrap();
        assert!(msg.contains(&format!("HTTP {status}")), "{msg}");
        assert!(msg.contains("/entrez/eutils/espell.fcgi"), "{msg}");
        assert!(!msg.contains("term="), "no query string in messages: {msg}");
        assert_eq!(server.count(), 1);
    }
}

#[test]
fn retries_are_reported_on_stderr_unless_quiet() {
    let server = TestServer::start(|_| Reply::status(503, "text/plain", "busy"));
    let run = pubmed(&["spell", "x"]).server(&server).run();
    assert_eq!(run.code, 69);
    assert!(run.stderr.contains("retrying in"), "{}", run.stderr);
    assert!(run.stderr.contains("attempt 2 of 3"), "{}", run.stderr);
    assert!(
        run.stderr.contains("gave up after 3 attempts"),
        "{}",
        run.stderr
    );
    let run = pubmed(&["spell", "-q", "x"]).server(&server).run();
    assert!(!run.stderr.contains("retrying"), "{}", run.stderr);
    let refused = pubmed(&["spell", "-f", "json", "x"])
        .env("PUBMED_EUTILS_URL", "http://127.0.0.1:9/eutils/")
        .env("PUBMED_MAX_RETRIES", "0")
        .run();
    assert!(
        refused.error_json()["message"]
            .as_str()
            .unwrap()
            .contains("127.0.0.1"),
        "the host is named"
    );
    let one = pubmed(&["spell", "-f", "json", "x"])
        .env("PUBMED_EUTILS_URL", "http://127.0.0.1:9/eutils/")
        .env("PUBMED_MAX_RETRIES", "0")
        .run();
    assert!(
        one.error_json()["message"]
            .as_str()
            .unwrap()
            .contains("after 1 attempt:")
    );
}

#[test]
fn convert_reads_pipes_and_devices_once() {
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let run = pubmed(&["convert", "--input", "/dev/stdin", "--to", "pmcid"])
        .server(&server)
        .stdin("22676651\n1\n2\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    assert!(run.stdout.starts_with("PMC3479421\n"));
    // a line too long to be an ID is one malformed record, not a memory blow-up
    let mut long = "9".repeat(200_000);
    long.push_str("\n22676651\n");
    let run = pubmed(&["convert", "--input", "-", "-f", "ndjson"])
        .server(&server)
        .stdin(long)
        .run();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert!(lines[0].contains("malformed_id"));
    assert!(lines[1].contains("PMC3479421"));
}

#[test]
fn a_closed_stderr_is_not_a_panic() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    for args in [
        vec!["search", "hits10000", "--retmax", "5"],
        vec!["search", "hits10000", "--all"],
        vec!["convert", "22676651"],
    ] {
        let mut p = pubmed(&args).server(&server);
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        p.cmd.stderr(writer);
        let out = p.cmd.stdin(Stdio::null()).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_closed_stdout_in_csv_is_a_quiet_exit_0() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    for args in [
        vec!["search", "hits30000", "--all", "-f", "csv"],
        vec![
            "search",
            "hits30000",
            "--retmax",
            "9999",
            "-f",
            "csv",
            "--detail",
            "ids",
        ],
    ] {
        let p = pubmed(&args).server(&server);
        let mut cmd = p.cmd;
        let mut child = cmd.stdin(Stdio::null()).spawn().unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{stderr}");
    }
}

#[test]
fn an_impossible_count_is_not_planned() {
    let server = TestServer::start(|_| {
        Reply::xml(ncbi::esearch(
            1_000_000_000_000,
            0,
            &ids(10_000_000..10_009_999),
            "x",
            &[],
            &[],
        ))
    });
    let t0 = Instant::now();
    let run = pubmed(&["search", "x", "--all", "-f", "json"])
        .server(&server)
        .run();
    let run = if run.code == 2 {
        pubmed(&["search", "x", "--all"]).server(&server).run()
    } else {
        run
    };
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(
        run.stderr.contains("more than PubMed holds"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    assert!(t0.elapsed() < Duration::from_secs(5));
}

#[test]
fn converter_urls_stay_under_8000_characters() {
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let huge = format!("10.1000/{}", "x".repeat(8000));
    let doi = |i: usize| format!("10.1000/{}{i}", "y".repeat(3400));
    let input = format!("{huge}\n{}\n{}\n22676651\n", doi(1), doi(2));
    let run = pubmed(&[
        "convert",
        "--input",
        "-",
        "-f",
        "ndjson",
        "--email",
        &"e".repeat(700),
    ])
    .server(&server)
    .stdin(input)
    .run();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stderr);
    assert!(
        lines[0].contains("too long for the ID Converter"),
        "{}",
        lines[0]
    );
    for r in server.requests() {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&r.params)
            .finish();
        let len = server.idconv_url().len() + 1 + query.len();
        assert!(len < 8000, "a {len}-character URL");
        assert!(
            !r.param("ids").unwrap().contains(&"x".repeat(100)),
            "the huge DOI is never sent"
        );
    }
}

#[test]
fn pmids_beyond_u64_are_still_written_by_all() {
    let server = TestServer::start(|_| {
        let mut list = ids(1..6);
        list.push("99999999999999999999999".into());
        Reply::xml(ncbi::esearch(6, 0, &list, "x", &[], &[]))
    });
    let run = pubmed(&["search", "x", "--all"]).server(&server).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 6);
    assert!(run.stdout.contains("99999999999999999999999\n"));
}

#[test]
fn delimited_output_keeps_one_record_per_line() {
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let input = "22676651\n1\u{2028}2\n3\u{85}4\n\u{1b}[31m5\n";
    for format in ["tsv", "csv"] {
        let run = pubmed(&["convert", "--input", "-", "-f", format])
            .server(&server)
            .stdin(input)
            .run();
        let text = run.stdout.replace("\r\n", "\n");
        let records: Vec<&str> = text
            .split(['\n', '\r', '\u{2028}', '\u{2029}', '\u{85}'])
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(records.len(), 5, "{format}: header + 4 records: {text:?}");
        assert!(!run.stdout.contains('\u{1b}'), "{format}");
    }
}

#[test]
fn a_repeated_id_in_a_later_chunk_is_not_sent_again() {
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let mut input: String = (1..=201).map(|i| format!("{i}\n")).collect();
    input.push_str("01\n");
    let run = pubmed(&["convert", "--input", "-", "--to", "pmid"])
        .server(&server)
        .stdin(input)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(out.len(), 202);
    assert_eq!(out[201], out[0], "the repeat gets the same answer");
    let sent: usize = fake
        .idconv_batches
        .lock()
        .unwrap()
        .iter()
        .map(|(_, ids)| ids.iter().filter(|i| *i == "1").count())
        .sum();
    assert_eq!(sent, 1);
}

#[test]
fn config_urls_are_checked_when_set() {
    let run = pubmed(&["config", "set", "eutils_url", "notaurl"]).run();
    assert_eq!(run.code, 2);
    let run = pubmed(&["spell", "x", "-f", "json"])
        .with_config("deadline_s = 0\n")
        .env("PUBMED_DEADLINE_S", "")
        .run();
    assert_eq!(run.code, 2);
    assert!(
        run.error_json()["message"]
            .as_str()
            .unwrap()
            .contains("config file"),
        "{}",
        run.stderr
    );
}

/// `--spell=apply`: when the corrected search fails, the search fails with
/// its reason (it used to exit 0 with zero hits and a warning).
#[test]
fn a_failed_corrected_search_fails_the_search() {
    let server = TestServer::start(|req| {
        if req.is("espell.fcgi") {
            Reply::xml(fixture("espell_biopythooon.xml"))
        } else if req.param("term") == Some("biopython") {
            Reply::status(500, "text/plain", "down")
        } else {
            Reply::xml(fixture("esearch_zero_hits_phrase_not_found.xml"))
        }
    });
    let run = pubmed(&["search", "biopythooon", "--spell=apply", "-f", "json"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert_eq!(run.error_json()["reason"], "ncbi_unreachable");
    assert_eq!(run.stdout, "");
}

#[test]
fn a_full_disk_is_exit_74_and_says_the_output_failed() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // no /dev/full on this system
    };
    let run = pubmed(&["search", "hits30000", "--retmax", "9999", "--detail", "ids"])
        .server(&server)
        .stdout_to(full)
        .run();
    assert_eq!(run.code, 74, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("pubmed: error: cannot write the output: No space left on device"),
        "{}",
        run.stderr
    );
}

/// Issue 13 item 5: `pubmed spell $'\xff'` panicked with exit 101 and
/// printed the argument (a key too, with `--api-key`).
#[test]
#[cfg(unix)]
fn a_non_utf8_argument_is_a_usage_error_naming_its_place() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let mut p = pubmed(&["spell"]);
    p.cmd.arg(OsString::from_vec(vec![0xff]));
    let run = p.run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(
        !run.stderr.contains('\u{FFFD}'),
        "the raw byte: {}",
        run.stderr
    );
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "pubmed: error: argument 2 is not valid UTF-8 [invalid_argument]"
    );
    let mut p = pubmed(&["--api-key"]);
    p.cmd
        .arg(OsString::from_vec(b"abcdef0123456789\xff".to_vec()))
        .args(["-f", "json", "spell", "x"]);
    let run = p.run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("abcdef0123456789"), "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    assert_eq!(
        e["message"],
        "argument 2 (the value of --api-key) is not valid UTF-8"
    );
}

/// Issue 13 item 5: `pubmed spell - < /dev/zero` grew without bound.
#[test]
fn an_endless_stdin_query_stops_at_the_length_limit() {
    for command in ["spell", "search"] {
        let p = pubmed(&[command, "-"]);
        let mut cmd = p.cmd;
        cmd.stdin(std::fs::File::open("/dev/zero").unwrap());
        let started = Instant::now();
        let out = cmd.output().unwrap();
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(took < Duration::from_secs(1), "{command} took {took:?}");
        assert!(
            stderr.contains("the query on stdin is longer than 100000 characters"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
    // a query at the limit on stdin is still read whole (and then checked)
    let run = pubmed(&["spell", "-"])
        .stdin(format!("{}\n", "a".repeat(100_001)))
        .run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the query is 100001 characters long; at most 100000 are accepted"),
        "{}",
        run.stderr
    );
}

/// Issue 13 item 5: `-fjson` usage errors came out as text.
#[test]
fn usage_errors_are_json_under_every_spelling_of_the_format() {
    for args in [
        &["-fjson", "search", "x", "--bogus"][..],
        &["-f=json", "search", "x", "--bogus"],
        &["--format=json", "search", "x", "--bogus"],
        &["--format", "json", "search", "x", "--bogus"],
        &["-f", "json", "search", "x", "--bogus"],
        &["search", "x", "--bogus", "-f", "JSON"],
        &["search", "x", "--retmax", "lots", "-fndjson"],
    ] {
        let run = pubmed(args).run();
        assert_eq!(run.code, 2, "{args:?}");
        let e = run.error_json();
        assert_eq!(e["reason"], "invalid_argument", "{args:?}");
        assert_eq!(e["retryable"], false);
        assert!(e["hint"].is_string());
    }
    let run = pubmed(&["-fjson", "search", "x", "--bogus"]).run();
    assert_eq!(
        run.error_json()["message"],
        "unexpected argument '--bogus' found"
    );
    let run = pubmed(&["search", "x", "--bogus"]).run();
    assert!(
        run.stderr
            .starts_with("pubmed: error: unexpected argument '--bogus' found"),
        "{}",
        run.stderr
    );
}

/// Issue 15, first hour: `--spell apply` read `apply` as a query word.
#[test]
fn spell_apply_with_a_space_gets_a_hint() {
    let run = pubmed(&["search", "--spell", "apply", "alzhiemer"]).run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "pubmed: error: `--spell apply` reads \"apply\" as a query word; --spell takes its mode after `=` [invalid_argument]",
            "pubmed: hint: write --spell=apply (or put the query before --spell)",
        ]
    );
}

/// Issue 13 item 6: escape sequences from a query or from NCBI never reach
/// stdout or stderr raw.
#[test]
fn escape_sequences_never_reach_the_terminal() {
    const ESC: char = '\u{1b}';
    let clean = |what: &str, run: &support::cli::Run| {
        for (name, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            assert!(
                !text
                    .chars()
                    .any(|c| c == ESC || c == '\u{9b}' || c == '\u{7}'),
                "{what}: raw control in {name}: {text:?}"
            );
        }
    };
    // from the query: spell's text output and its note, errors quoting input
    let server = TestServer::start(|r| {
        if r.is("espell.fcgi") {
            Reply::xml(ncbi::espell(
                "\u{1b}[31mbiopythooon",
                &[("O", "\u{1b}[31mbio"), ("R", "python\u{1b}[0m\u{7}")],
            ))
        } else if r.is("esearch.fcgi") {
            Reply::xml(ncbi::esearch(
                1,
                0,
                &["31452104".to_string()],
                "q\u{1b}[2J",
                &[("PhraseNotFound", "\u{1b}]0;pwned\u{7}")],
                &[],
            ))
        } else {
            let mut d = ncbi::Doc::new("31452104");
            d.source = "J \u{1b}[5mBlink".into();
            d.authors = vec!["Evil \u{9b}2J".into()];
            Reply::xml(ncbi::esummary(&[d], &[]))
        }
    });
    // A query holding ESC is rejected before any request (issue 25 item
    // 10); the error names the code point, never the raw character.
    for format in ["text", "table", "json"] {
        let run = pubmed(&["spell", "-f", format, "\u{1b}[31mbiopythooon"])
            .server(&server)
            .run();
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("U+001B"), "{}", run.stderr);
        clean(format, &run);
    }
    assert_eq!(server.count(), 0);
    for format in ["table", "tsv", "csv", "ids"] {
        let run = pubmed(&["search", "-f", format, "-v", "q"])
            .server(&server)
            .env("COLUMNS", "200")
            .run();
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        clean(format, &run);
        assert!(
            run.stderr.contains("PubMed found nothing for ]0;pwned and"),
            "{}",
            run.stderr
        );
    }
    let run = pubmed(&["search", "-f", "tsv", "q"]).server(&server).run();
    assert!(run.stdout.contains("\tEvil 2J\t"), "{}", run.stdout);
    assert!(run.stdout.contains("\tJ [5mBlink\t"), "{}", run.stdout);
    let run = pubmed(&["search", "x", "--field", "ti\u{1b}[2J"]).run();
    assert_eq!(run.code, 2);
    clean("--field", &run);
    let run = pubmed(&["convert", "PMC\u{1b}[31m1"]).run();
    assert_eq!(run.code, 2);
    clean("convert argument", &run);

    // from the ID Converter: `--to` lines and records
    let conv = TestServer::start(|_| {
        Reply::json(
            200,
            r#"{"status":"ok","responseDate":"2025-01-01 00:00:00","request":"x","records":[{"requested-id":"10.1038/ng.590","pmcid":"PMC2883744","pmid":20495566,"doi":"10.1038/ng.590\u001b[2J"}]}"#,
        )
    });
    let run = pubmed(&["convert", "10.1038/ng.590", "--to", "doi"])
        .server(&conv)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "10.1038/ng.590 [2J\n");
    // and from a file: the requested ID is echoed in TSV
    let run = pubmed(&["convert", "--input", "-", "-f", "tsv"])
        .server(&conv)
        .stdin("\u{1b}[2J123\n")
        .run();
    clean("convert file", &run);
}

/// Issue 13 item 6: Ctrl-C during a long run exits 130 with every line
/// written whole.
#[test]
#[cfg(unix)]
fn ctrl_c_stops_a_long_run_with_whole_lines_and_exit_130() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let interrupt = |mut cmd: std::process::Command, feed: Option<&str>| {
        let mut child = cmd
            .stdin(if feed.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take();
        if let (Some(s), Some(feed)) = (stdin.as_mut(), feed) {
            s.write_all(feed.as_bytes()).unwrap();
            s.flush().unwrap();
        }
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        let status = std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let mut rest = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut rest).unwrap();
        let done = child.wait_with_output().unwrap();
        drop(stdin);
        (
            done.status.code(),
            first + &String::from_utf8(rest).unwrap(),
            String::from_utf8_lossy(&done.stderr).into_owned(),
        )
    };
    // search --all, paced so that the run lasts seconds
    let p = pubmed(&["search", "hits250000", "--all"])
        .server(&server)
        .env("PUBMED_REQUEST_GAP_MS", "400");
    let (code, stdout, stderr) = interrupt(p.cmd, None);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stdout.ends_with('\n'), "a half-written line");
    assert!(
        stdout
            .lines()
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit())),
        "every line a PMID"
    );
    assert!(
        stdout.lines().count() >= 9_999,
        "the first window was written"
    );
    assert!(stderr.contains("pubmed: interrupted"), "{stderr}");
    // convert reading a pipe that stays open
    let p = pubmed(&["convert", "--input", "-", "--to", "pmcid"]).server(&server);
    let (code, stdout, stderr) = interrupt(p.cmd, Some("PMC3531190\n23193287\n"));
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stdout.ends_with('\n'));
    assert_eq!(stdout.lines().next(), Some("PMC3531190"));
}

/// Issue 15, first hour: the 9,999-record window warning says how to get
/// every PMID.
#[test]
fn the_window_warning_names_all() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let run = pubmed(&[
        "search",
        "hits30000",
        "--retstart",
        "9990",
        "--retmax",
        "20",
    ])
    .server(&server)
    .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 9);
    assert!(
        run.stderr.contains(
            "pubmed: warning: PubMed serves only the first 9,999 records of a query: the page was cut to records 9991–9999 (9 records); `pubmed search --all` returns every PMID of the query"
        ),
        "{}",
        run.stderr
    );
}
