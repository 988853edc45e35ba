//! `pubmed spell` end to end: the built binary against a loopback server
//! replaying real ESpell captures and bodies built in their shape.

use crate::support;

use support::cli::pubmed;
use support::ncbi;
use support::server::{Reply, TestServer, fixture};

fn replay(body: Vec<u8>) -> TestServer {
    TestServer::start(move |_| Reply::xml(body.clone()))
}

#[test]
fn real_captures_give_the_corrected_query() {
    for (file, query, want) in [
        (
            "espell_asthmaa_alergies.xml",
            "asthmaa OR alergies",
            "asthma OR allergies",
        ),
        (
            "espell_netch_mus_musclus.xml",
            "Netch AND Mus musclus",
            "Notch AND Mus musculus",
        ),
        ("espell_biopythooon.xml", "biopythooon", "biopython"),
        ("espell_biopythooon_2008.xml", "biopythooon", "biopython"),
    ] {
        let server = replay(fixture(file));
        let run = pubmed(&["spell", query]).server(&server).run();
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        assert_eq!(run.stdout, format!("{want}\n"), "{file}");
        let reqs = server.requests();
        assert_eq!(reqs.len(), 1);
        assert!(reqs[0].is("/entrez/eutils/espell.fcgi"), "{}", reqs[0].path);
        assert_eq!(reqs[0].param("db"), Some("pubmed"));
        assert_eq!(reqs[0].param("term"), Some(query));
        assert_eq!(reqs[0].param("tool"), Some("pubmed-cli"));
    }
}

#[test]
fn words_are_joined_and_json_lists_corrections() {
    let server = replay(fixture("espell_asthmaa_alergies.xml"));
    let run = pubmed(&["spell", "-f", "json", "asthmaa", "OR", "alergies"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        server.requests()[0].param("term"),
        Some("asthmaa OR alergies")
    );
    let v = run.json();
    assert_eq!(
        v,
        serde_json::json!({
            "original": "asthmaa OR alergies",
            "corrected": "asthma OR allergies",
            "hasSuggestion": true,
            "corrections": [
                {"from": "asthmaa", "to": "asthma", "applied": true},
                {"from": "alergies", "to": "allergies", "applied": true}
            ]
        })
    );
}

/// Every example row of the spell rules' table, and the queries,
/// through the binary.
#[test]
fn spell_md_table_rows() {
    type Row = (
        &'static str,
        Vec<(&'static str, &'static str)>,
        &'static str,
        bool,
    );
    let rows: Vec<Row> = vec![
        (
            "alzhiemer diseese treatmnt outcomse",
            vec![
                ("O", ""),
                ("R", "alzheimer"),
                ("O", " "),
                ("R", "disease"),
                ("O", " "),
                ("R", "treatment"),
                ("O", " "),
                ("R", "outcomes"),
            ],
            "alzheimer disease treatment outcomes",
            true,
        ),
        (
            "agd[mh] AND diabetis",
            vec![
                ("O", ""),
                ("R", "aged"),
                ("O", "[mh] AND "),
                ("R", "diabetes"),
            ],
            "agd[mh] AND diabetes",
            true,
        ),
        (
            "reveiw[pt] AND asthma",
            vec![("O", ""), ("R", "review"), ("O", "[pt] AND asthma")],
            "reveiw[pt] AND asthma",
            false,
        ),
        (
            "brest cancr[ti]",
            vec![
                ("O", ""),
                ("R", "breast"),
                ("O", " "),
                ("R", "cancer"),
                ("O", "[ti]"),
            ],
            "breast cancer[ti]",
            true,
        ),
        (
            "COPD exacerbaton",
            vec![("O", ""), ("R", "cope"), ("O", " "), ("R", "exacerbation")],
            "COPD exacerbation",
            true,
        ),
        (
            "q fever",
            vec![("O", ""), ("R", "a"), ("O", " fever")],
            "q fever",
            false,
        ),
        (
            "il-6 levls 2020 sepsiss",
            vec![("O", "il-6 "), ("R", "levels"), ("O", " 2020 sepsiss")],
            "il-6 levels 2020 sepsiss",
            true,
        ),
        ("cancer", vec![("O", "cancer")], "cancer", false),
        // The queries, with ESpell answers of the shape it gives
        // (numbers, symbols and parentheses left out, words merged, a word
        // split at a hyphen), and what the rules make of them.
        (
            "risk AND (canser OR tumr)",
            vec![
                ("O", "risk AND "),
                ("R", "cancer"),
                ("O", " OR "),
                ("R", "tumor"),
            ],
            "risk AND (canser OR tumr)",
            false,
        ),
        (
            "covid 19 vacine efficasy",
            vec![
                ("O", "covid "),
                ("R", "vaccine"),
                ("O", " "),
                ("R", "efficacy"),
            ],
            "covid 19 vacine efficasy",
            false,
        ),
        (
            "il-6 levls",
            vec![("O", ""), ("R", "ill"), ("O", "-6 "), ("R", "levels")],
            "il-6 levels",
            true,
        ),
        (
            "cardio vascular",
            vec![("O", ""), ("R", "cardiovascular")],
            "cardiovascular",
            true,
        ),
        (
            "canc* AND tumr",
            vec![("O", ""), ("R", "cancer"), ("O", " AND "), ("R", "tumor")],
            "canc* AND tumor",
            true,
        ),
        (
            "(neoplsms)[mh] AND rsk",
            vec![
                ("O", "("),
                ("R", "neoplasms"),
                ("O", ")[mh] AND "),
                ("R", "risk"),
            ],
            "(neoplsms)[mh] AND risk",
            true,
        ),
        (
            "nai\u{308}ve cels",
            vec![("O", ""), ("R", "naive"), ("O", " "), ("R", "cells")],
            "nai\u{308}ve cells",
            true,
        ),
    ];
    let bodies: Vec<(String, String)> = rows
        .iter()
        .map(|(q, segs, _, _)| (q.to_string(), ncbi::espell(q, segs)))
        .collect();
    let server = TestServer::start(move |req| {
        let term = req.param("term").unwrap_or_default();
        let body = bodies
            .iter()
            .find(|(q, _)| q == term)
            .map(|(_, b)| b.clone())
            .expect("unexpected term");
        Reply::xml(body)
    });
    for (query, _, want, has) in &rows {
        let run = pubmed(&["spell", "--format", "json", query])
            .server(&server)
            .run();
        assert_eq!(run.code, 0, "{query}: {}", run.stderr);
        let v = run.json();
        assert_eq!(v["original"], *query);
        assert_eq!(v["corrected"], *want, "{query}");
        assert_eq!(v["hasSuggestion"], *has, "{query}");
    }
    // Guards are named in JSON.
    let run = pubmed(&["spell", "-f", "json", "COPD exacerbaton"])
        .server(&server)
        .run();
    assert_eq!(
        run.json()["corrections"][0],
        serde_json::json!({"from": "COPD", "to": "cope", "applied": false, "keptBecause": "capitals"})
    );
    let run = pubmed(&["spell", "-f", "json", "reveiw[pt] AND asthma"])
        .server(&server)
        .run();
    assert_eq!(run.json()["corrections"][0]["keptBecause"], "indexed_field");
    // The reasons of the queries.
    let reasons = |q: &str| -> Vec<serde_json::Value> {
        let run = pubmed(&["spell", "-f", "json", q]).server(&server).run();
        run.json()["corrections"].as_array().unwrap().clone()
    };
    assert_eq!(
        reasons("risk AND (canser OR tumr)"),
        vec![
            serde_json::json!({"from": "(canser", "to": "cancer", "applied": false, "keptBecause": "alignment_lost"}),
            serde_json::json!({"from": "tumr)", "to": "tumor", "applied": false, "keptBecause": "alignment_lost"}),
        ]
    );
    assert_eq!(
        reasons("il-6 levls"),
        vec![
            serde_json::json!({"from": "il", "to": "ill", "applied": false, "keptBecause": "digits"}),
            serde_json::json!({"from": "levls", "to": "levels", "applied": true}),
        ]
    );
    assert_eq!(
        reasons("canc* AND tumr")[0],
        serde_json::json!({"from": "canc*", "to": "cancer", "applied": false, "keptBecause": "wildcard"})
    );
    assert_eq!(
        reasons("(neoplsms)[mh] AND rsk")[0]["keptBecause"],
        "indexed_field"
    );
    assert_eq!(reasons("nai\u{308}ve cels")[0]["keptBecause"], "non_ascii");
    assert_eq!(
        reasons("cardio vascular"),
        vec![
            serde_json::json!({"from": "cardio vascular", "to": "cardiovascular", "applied": true})
        ]
    );
    let run = pubmed(&["spell", "covid 19 vacine efficasy"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, "covid 19 vacine efficasy\n");
    assert!(
        run.stderr.contains("left \"19 vacine efficasy\" as typed")
            && run.stderr.contains("vaccine, efficacy not applied"),
        "{}",
        run.stderr
    );
    // text output: the note goes to stderr, stdout holds the query alone
    let run = pubmed(&["spell", "COPD exacerbaton"]).server(&server).run();
    assert_eq!(run.stdout, "COPD exacerbation\n");
    assert!(
        run.stderr.contains("exacerbaton → exacerbation"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("COPD (not cope: capitals)"),
        "{}",
        run.stderr
    );
    let run = pubmed(&["spell", "-q", "COPD exacerbaton"])
        .server(&server)
        .run();
    assert_eq!(run.stderr, "");
}

#[test]
fn query_from_stdin() {
    let server = replay(fixture("espell_netch_mus_musclus.xml"));
    let run = pubmed(&["spell", "-"])
        .server(&server)
        .stdin("Netch AND Mus musclus\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "Notch AND Mus musculus\n");
    assert_eq!(
        server.requests()[0].param("term"),
        Some("Netch AND Mus musclus")
    );
}

#[test]
fn table_format_shows_query_and_rows() {
    let server = replay(fixture("espell_asthmaa_alergies.xml"));
    let run = pubmed(&["spell", "-f", "table", "asthmaa OR alergies"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .starts_with("Corrected query: asthma OR allergies\n")
    );
    assert!(run.stdout.contains("alergies"));
    assert!(run.stdout.contains("applied"));
    assert!(!run.stdout.contains('\x1b'), "no colour in a pipe");
}

#[test]
fn blank_inputs_exit_2_without_a_request() {
    let server = replay(fixture("espell_biopythooon.xml"));
    for blank in [
        " ",
        "   \t ",
        "\u{85}",
        "\u{200B}",
        "\u{2060}",
        "\u{AD}",
        "\u{FEFF}",
        "\u{3164}",
        " \u{200B}\u{85} \u{2060}\u{AD}\u{FEFF}\u{3164}\u{A0}",
    ] {
        let run = pubmed(&["spell", "-f", "json", blank])
            .server(&server)
            .run();
        assert_eq!(run.code, 2, "{blank:?}: {}", run.stderr);
        assert_eq!(run.error_json()["reason"], "blank_query", "{blank:?}");
        assert_eq!(run.stdout, "");
        let run = pubmed(&["spell", blank]).server(&server).run();
        assert_eq!(run.code, 2);
        assert!(run.stderr.starts_with("pubmed: error: "), "{}", run.stderr);
    }
    let run = pubmed(&["spell", "-"])
        .server(&server)
        .stdin("\u{200B}\n")
        .run();
    assert_eq!(run.code, 2);
    assert_eq!(server.count(), 0, "a blank query must not reach NCBI");
}

/// Each upstream failure gives client.md's reason and exit code, and
/// nothing on stdout.
#[test]
fn upstream_failures_are_errors_not_empty_answers() {
    let espell_error =
        ncbi::espell_with_error("cancr", &[], "Backend failure: cannot connect to speller");
    let truncated = fixture("espell_biopythooon.xml")[..200].to_vec();
    let cases: Vec<(&str, Reply, &str, i32, usize)> = vec![
        (
            "ERROR with text",
            Reply::xml(espell_error),
            "ncbi_unreachable",
            69,
            3,
        ),
        (
            "HTML page",
            Reply::status(
                200,
                "text/html",
                "<!DOCTYPE html><html><body>Service unavailable</body></html>",
            ),
            "ncbi_unreachable",
            69,
            3,
        ),
        (
            "prolog only",
            Reply::xml(
                "<?xml version=\"1.0\"?>\n<!DOCTYPE eSpellResult PUBLIC \"-//NLM//DTD eSpellResult, 23 November 2004//EN\" \"x\">\n",
            ),
            "ncbi_unreachable",
            69,
            3,
        ),
        (
            "body cut short of Content-Length",
            Reply::CutShort {
                body: truncated.clone(),
                declared: 385,
            },
            "ncbi_unreachable",
            69,
            3,
        ),
        (
            "complete body that does not parse",
            Reply::xml(truncated),
            "ncbi_invalid_response",
            69,
            1,
        ),
        (
            "HTTP 503",
            Reply::status(503, "text/plain", "busy"),
            "ncbi_unreachable",
            69,
            3,
        ),
        (
            "HTTP 404",
            Reply::status(404, "text/plain", "no"),
            "invalid_argument",
            2,
            1,
        ),
        ("connection reset", Reply::Reset, "ncbi_unreachable", 69, 3),
    ];
    for (name, reply, reason, code, requests) in cases {
        let server = TestServer::start(move |_| reply.clone());
        let run = pubmed(&["spell", "-f", "json", "cancr"])
            .server(&server)
            .run();
        assert_eq!(run.code, code, "{name}: {}", run.stderr);
        assert_eq!(run.error_json()["reason"], reason, "{name}");
        assert_eq!(run.stdout, "", "{name}");
        assert_eq!(server.count(), requests, "{name}: attempts");
    }
}

/// An ESpell answer whose `<Query>` is another query (here NCBI's capture
/// for `Netch AND Mus musclus`, to a request for `asthmaa OR alergies`) is
/// never applied: retried, and `ncbi_invalid_response` (exit 69) when every
/// attempt is one (docs/spell.md "Which answer is ours").
/// The last attempt decides the reason: two answers to another query, then
/// a connection closed without an answer, is an unreachable NCBI (the
/// last attempt heard nothing), not an invalid response.
#[test]
fn the_last_attempt_decides_between_invalid_and_unreachable() {
    // two different foreign answers (a repeat would end the call at once)
    let n = std::sync::atomic::AtomicUsize::new(0);
    let server =
        TestServer::start(
            move |_| match n.fetch_add(1, std::sync::atomic::Ordering::SeqCst) {
                0 => Reply::xml(fixture("espell_netch_mus_musclus.xml")),
                1 => Reply::xml(fixture("espell_biopythooon.xml")),
                _ => Reply::Reset,
            },
        );
    let run = pubmed(&["spell", "-f", "json", "asthmaa OR alergies"])
        .server(&server)
        .run();
    run.failed_with(69, "ncbi_unreachable", "gave up after 3 attempts");
    assert_eq!(server.count(), 3);
}

#[test]
fn an_answer_to_another_query_is_an_upstream_fault() {
    let server = replay(fixture("espell_netch_mus_musclus.xml"));
    let run = pubmed(&["spell", "-f", "json", "asthmaa OR alergies"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "ncbi_invalid_response");
    // The same foreign answer twice: retrying cannot change it, so one
    // retry only (PUBMED_MAX_RETRIES=2 in the test runner would allow 3).
    assert_eq!(
        e["message"],
        "gave up after 2 attempts: ESpell answered another request: <Query> is \"Netch AND Mus musclus\", not the query sent (\"asthmaa OR alergies\") (the same answer twice)"
    );
    assert_eq!(run.stdout, "");
    assert_eq!(server.count(), 2);

    // one foreign answer, then ours: the capture's correction
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = calls.clone();
    let server = TestServer::start(move |_| {
        let file = if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            "espell_netch_mus_musclus.xml"
        } else {
            "espell_asthmaa_alergies.xml"
        };
        Reply::xml(fixture(file))
    });
    let run = pubmed(&["spell", "-f", "json", "asthmaa OR alergies"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["corrected"], "asthma OR allergies");
    assert_eq!(server.count(), 2);
}

/// What the captures cannot show NCBI keeping (padding, blank runs, case)
/// does not make an answer foreign: the capture for `Netch AND Mus
/// musclus` answers the same query typed padded and double-spaced, and
/// its corrections land in the query as typed.
#[test]
fn an_echo_differing_only_in_blanks_or_case_is_ours() {
    let server = replay(fixture("espell_netch_mus_musclus.xml"));
    let run = pubmed(&["spell", "-f", "json", " Netch  AND Mus musclus "])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["original"], " Netch  AND Mus musclus ");
    assert_eq!(v["corrected"], " Notch  AND Mus musculus ");
    assert_eq!(server.count(), 1);
}

#[test]
fn closed_port_is_unreachable() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let run = pubmed(&["spell", "-f", "json", "cancr"])
        .env(
            "PUBMED_EUTILS_URL",
            &format!("http://127.0.0.1:{port}/eutils/"),
        )
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "ncbi_unreachable");
    assert_eq!(e["retryable"], true);
    // A refused connection is tried twice, not max_retries + 1 times.
    assert!(e["message"].as_str().unwrap().contains("2 attempts"), "{e}");
    assert_eq!(run.stdout, "");
    // human form: one error line and a hint
    let run = pubmed(&["spell", "cancr"])
        .env(
            "PUBMED_EUTILS_URL",
            &format!("http://127.0.0.1:{port}/eutils/"),
        )
        .run();
    let lines: Vec<&str> = run.stderr.lines().collect();
    let n = lines.len();
    assert!(
        lines[n - 2].starts_with("pubmed: error: "),
        "{}",
        run.stderr
    );
    assert!(lines[n - 2].ends_with("[ncbi_unreachable]"));
    assert!(lines[n - 1].starts_with("pubmed: hint: "));
    assert!(
        lines[..n - 2].iter().all(|l| l.contains("retrying in")),
        "{}",
        run.stderr
    );
}

#[test]
fn verbose_log_redacts_the_api_key() {
    let server = replay(fixture("espell_biopythooon.xml"));
    let secret = "c0ffee5ecret0123456789abcdef";
    let run = pubmed(&["spell", "-v", "biopythooon"])
        .server(&server)
        .env("NCBI_API_KEY", secret)
        .env("NCBI_EMAIL", "me@example.org")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("espell.fcgi"), "{}", run.stderr);
    assert!(run.stderr.contains("api_key=REDACTED"), "{}", run.stderr);
    assert!(!run.stderr.contains(secret));
    assert!(!run.stdout.contains(secret));
    let req = &server.requests()[0];
    assert_eq!(req.param("api_key"), Some(secret), "the key is still sent");
    assert_eq!(req.param("email"), Some("me@example.org"));
    // the flag form, and an error path, never print it either
    let run = pubmed(&["spell", "-v", "--api-key", secret, "biopythooon"])
        .env("PUBMED_EUTILS_URL", "http://127.0.0.1:9/eutils/")
        .run();
    assert_eq!(run.code, 69);
    assert!(!run.stderr.contains(secret), "{}", run.stderr);
}

#[test]
fn format_not_offered_is_a_usage_error() {
    let server = replay(fixture("espell_biopythooon.xml"));
    let run = pubmed(&["spell", "-f", "csv", "x"]).server(&server).run();
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--format csv"), "{}", run.stderr);
    assert_eq!(server.count(), 0);
}

#[test]
fn rate_limited_exits_75_with_retry_after_and_a_key_hint() {
    let server = TestServer::start(|_| Reply::too_many().with_header("Retry-After", "120"));
    let run = pubmed(&["spell", "-f", "json", "cancr"])
        .server(&server)
        .run();
    assert_eq!(run.code, 75, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "ncbi_rate_limited");
    assert_eq!(e["retryAfter"], 120);
    assert_eq!(e["retryable"], true);
    assert_eq!(server.count(), 1);
    let run = pubmed(&["spell", "cancr"]).server(&server).run();
    assert_eq!(run.code, 75);
    assert!(run.stderr.contains("NCBI_API_KEY"), "{}", run.stderr);
}

/// Issue 25 item 10: a query with a control character (BEL, U+0007) was
/// sent, NCBI's XML echo dropped it, and the foreign-answer check retried
/// for a minute. Now it is rejected before any request, naming the
/// character; tab and line breaks stay blanks.
#[test]
fn a_control_character_is_rejected_before_any_request() {
    let server = replay(fixture("espell_asthmaa_alergies.xml"));
    for args in [
        &["spell", "-f", "json", "asthmaa\u{7} OR alergies"][..],
        &["search", "-f", "json", "asthmaa\u{7} OR alergies"][..],
    ] {
        let run = pubmed(args).server(&server).run();
        let e = run.failed_with(
            2,
            "invalid_argument",
            "control character U+0007 at character 8",
        );
        assert_eq!(
            e["message"],
            "the query holds the control character U+0007 at character 8; remove it (tab and line breaks are allowed)",
            "{args:?}"
        );
        assert_eq!(run.stdout, "");
    }
    assert_eq!(server.count(), 0);
    // a tab is a blank: sent, and the echo (blanks folded) is ours
    let run = pubmed(&["spell", "-f", "json", "asthmaa\tOR alergies"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["corrected"], "asthma\tOR allergies");
    assert_eq!(server.count(), 1);
}
