//! The built binary against loopback servers: the API key never goes where
//! it should not (redirects, `Referer`, `-v`), every retried status obeys
//! one wait rule, and failures that waiting cannot fix fail fast.

use crate::support;

use std::time::{Duration, Instant};

use support::cli::pubmed;
use support::server::{Reply, TestServer, fixture};

const KEY: &str = "0123456789abcdef0123456789abcdef0123";

fn espell_ok() -> Reply {
    Reply::xml(fixture("espell_biopythooon.xml"))
}

/// A 301 to another origin is not followed: the other server receives
/// nothing at all (no key in a URL, no `Referer`), and the call stops with
/// a message naming where the redirect pointed.
#[test]
fn a_redirect_to_another_origin_gets_no_key() {
    let other = TestServer::start(|_| espell_ok());
    let to = format!("{}espell.fcgi", other.eutils_url());
    let redirecting = TestServer::start(move |r| {
        let q = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&r.params)
            .finish();
        Reply::status(301, "text/html", "<html>moved</html>")
            .with_header("Location", &format!("{to}?{q}"))
    });
    let run = pubmed(&["spell", "-f", "json", "biopythooon"])
        .server(&redirecting)
        .env("NCBI_API_KEY", KEY)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    let msg = e["message"].as_str().unwrap();
    assert!(msg.contains(&other.addr.to_string()), "{msg}");
    assert!(!run.stderr.contains(KEY), "{}", run.stderr);
    assert_eq!(redirecting.count(), 1, "not retried");
    assert_eq!(other.count(), 0, "the other origin receives nothing");
}

/// A redirect within the same server is followed, and no request carries a
/// `Referer` header.
#[test]
fn a_same_origin_redirect_is_followed_without_referer() {
    let server = TestServer::start(|r| {
        if r.path.starts_with("/old/") {
            let q = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(&r.params)
                .finish();
            Reply::status(301, "text/html", "moved")
                .with_header("Location", &format!("/entrez/eutils/espell.fcgi?{q}"))
        } else {
            espell_ok()
        }
    });
    let run = pubmed(&["spell", "-f", "json", "biopythooon"])
        .env("PUBMED_EUTILS_URL", &format!("http://{}/old/", server.addr))
        .env("NCBI_API_KEY", KEY)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["corrected"], "biopython");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1].path, "/entrez/eutils/espell.fcgi");
    assert!(
        reqs.iter().all(|r| r.header("referer").is_none()),
        "{reqs:?}"
    );
}

/// A server that keeps redirecting within its own site is followed 5 times
/// (docs/client.md "The API key"), then the call stops once with
/// `invalid_argument` and a message that says so once.
#[test]
fn a_same_site_redirect_loop_stops_after_five() {
    let server = TestServer::start(|r| {
        let q = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&r.params)
            .finish();
        Reply::status(302, "text/html", "moved").with_header("Location", &format!("{}?{q}", r.path))
    });
    let run = pubmed(&["spell", "-f", "json", "biopythooon"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    assert_eq!(
        e["message"],
        "ESpell (127.0.0.1) answered with more than 5 redirects within its own site; not followed further"
    );
    assert_eq!(
        server.count(),
        6,
        "the request and 5 redirects followed, not retried"
    );
}

/// A key pasted into `--eutils-url` still works and is redacted in `-v`.
#[test]
fn a_key_in_the_url_is_redacted_in_verbose_output() {
    let server = TestServer::start(|_| espell_ok());
    let url = format!("{}?api_key={KEY}", server.eutils_url());
    let run = pubmed(&["spell", "-v", "--eutils-url", &url, "biopythooon"]).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("api_key=REDACTED"), "{}", run.stderr);
    assert!(!run.stderr.contains(KEY), "{}", run.stderr);
    let reqs = server.requests();
    assert_eq!(reqs[0].path, "/entrez/eutils/espell.fcgi");
    assert_eq!(reqs[0].param("api_key"), Some(KEY));
}

/// 503 with `Retry-After: 45` stops at once as `ncbi_rate_limited`
/// (exit 75, `retryAfter` 45) after one request, with default knobs.
#[test]
fn a_503_asking_for_45_seconds_stops_at_once() {
    let server = TestServer::start(|_| {
        Reply::status(503, "text/plain", "Service Unavailable").with_header("Retry-After", "45")
    });
    let t0 = Instant::now();
    let run = pubmed(&["spell", "-f", "json", "biopythooon"])
        .server(&server)
        .default_pacing()
        .run();
    // "At once": well short of the 45 s asked for, even on a loaded machine.
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    assert_eq!(run.code, 75, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "ncbi_rate_limited");
    assert_eq!(e["retryAfter"], 45);
    assert_eq!(e["retryable"], true);
    assert_eq!(server.count(), 1);
}

/// A host name under `.invalid` (RFC 6761: never resolves) fails in under
/// 5 s with exit 69 after two attempts, with default knobs; the hint names
/// `--timeout`, `PUBMED_EUTILS_URL` and the proxy variables.
#[test]
fn an_unresolvable_host_fails_fast() {
    let t0 = Instant::now();
    let run = pubmed(&["spell", "-f", "json", "biopythooon"])
        .env(
            "PUBMED_EUTILS_URL",
            "http://eutils.pubmed-test.invalid/entrez/eutils/",
        )
        .default_pacing()
        .run();
    let took = t0.elapsed();
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(took < Duration::from_secs(5), "{took:?}");
    let e = run.error_json();
    assert_eq!(e["reason"], "ncbi_unreachable");
    assert!(e["message"].as_str().unwrap().contains("2 attempts"), "{e}");
    let hint = e["hint"].as_str().unwrap();
    for knob in ["--timeout", "PUBMED_EUTILS_URL", "HTTPS_PROXY", "NO_PROXY"] {
        assert!(hint.contains(knob), "{knob}: {hint}");
    }
}

/// A refused connection (nothing listens on the port) fails fast too.
#[test]
fn a_refused_connection_fails_fast() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let t0 = Instant::now();
    let run = pubmed(&["spell", "-v", "biopythooon"])
        .env(
            "PUBMED_EUTILS_URL",
            &format!("http://127.0.0.1:{port}/entrez/eutils/"),
        )
        .default_pacing()
        .run();
    // Fast is two attempts (below); the time is only a no-hang bound.
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(run.stderr.contains("(attempt 2)"), "{}", run.stderr);
    assert!(!run.stderr.contains("(attempt 3)"), "{}", run.stderr);
    assert!(run.stderr.contains("connection refused"), "{}", run.stderr);
}

/// NCBI's HTTP 400 `API key invalid` answer (shaped like its 429 body, and
/// echoing the key): exit 2 after exactly one request, reason
/// `invalid_api_key`, naming where the key came from, never printing it.
#[test]
fn an_invalid_key_fails_in_one_request_naming_its_origin() {
    let server = TestServer::start(|r| {
        let key = r.param("api_key").unwrap_or_default();
        Reply::json(
            400,
            format!(
                r#"{{"error":"API key invalid","api-key":"{key}","type":"invalid","status":"unknown"}}"#
            ),
        )
    });
    let run = pubmed(&["spell", "-f", "json", "biopythooon"])
        .server(&server)
        .default_pacing()
        .env("NCBI_API_KEY", KEY)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(server.count(), 1, "never retried");
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_api_key");
    assert_eq!(e["retryable"], false);
    assert!(
        e["message"].as_str().unwrap().contains("NCBI_API_KEY"),
        "{e}"
    );
    assert!(!run.stderr.contains(KEY), "{}", run.stderr);

    // From the config file: the message names the file.
    let p = pubmed(&["search", "biopython"])
        .server(&server)
        .with_config(&format!("api_key = \"{KEY}\"\n"));
    let path = p.config_file();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let run = p.run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("config file {}", path.display())),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("[invalid_api_key]"), "{}", run.stderr);
    assert!(!run.stderr.contains(KEY), "{}", run.stderr);
    assert_eq!(server.count(), 2);
}

/// `--timeout 0.000001`, a deadline shorter than any request, is the
/// call's deadline (`ncbi_deadline_exceeded`, exit 69, no `retryAfter`),
/// never `queue_full` (exit 75): no queue is to blame (docs/client.md
/// "Pacing").
#[test]
fn a_deadline_shorter_than_any_request_is_deadline_exceeded() {
    let server = TestServer::start(|_| espell_ok());
    let run = pubmed(&["search", "x", "--timeout", "0.000001", "-f", "json"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "ncbi_deadline_exceeded", "{e}");
    assert_eq!(e["retryable"], true);
    assert!(e.get("retryAfter").is_none(), "{e}");
    assert_eq!(run.stdout, "");
}
