//! Regression tests for defects found by adversarial testing: each one
//! reproduces the input that broke the tool and asserts the right outcome.

mod support;

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
    assert_eq!(run.code, 69, "{}", run.stderr);
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
        assert!(t0.elapsed() < Duration::from_secs(3));
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
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
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
    let p = pubmed(&["spell", "x"])
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
    let run = pubmed(&["spell", "--api-key", "k0123456789", "x"])
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
    use pubmed::ncbi::{Client, ClientSettings};
    let big = Arc::new(vec![b' '; pubmed::ncbi::transport::MAX_BODY + 1024]);
    let server = TestServer::start(move |_| Reply::xml(big.to_vec()));
    let client = Client::new(ClientSettings {
        eutils_url: server.eutils_url(),
        ..Default::default()
    })
    .unwrap();
    let e = client.espell("x").await.unwrap_err();
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
        assert!(
            t0.elapsed() < Duration::from_secs(2),
            "HTTP {status} is not retried"
        );
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
