//! `pubmed convert` end to end against a fake PMC ID Converter (and the real
//! Converter captures).

use crate::support;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::{Reply, TestServer, fixture};

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

fn convert(server: &TestServer, args: &[&str]) -> Run {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    pubmed(&all).server(server).run()
}

fn records(run: &Run) -> Vec<serde_json::Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn examples_of_convert_md() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = convert(
        &server,
        &[
            "--from",
            "pmcid",
            "-f",
            "ndjson",
            "PMC3531190",
            "3531190",
            "pmc3531190",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = records(&run);
    assert_eq!(r.len(), 3);
    for (rec, requested) in r.iter().zip(["PMC3531190", "3531190", "pmc3531190"]) {
        assert_eq!(rec["requested"], requested);
        assert_eq!(rec["pmid"], "23193287");
        assert_eq!(rec["pmcid"], "PMC3531190");
        assert_eq!(rec["doi"], "10.5555/example.23193287");
        assert!(rec.get("error").is_none());
    }
    let batches = fake.idconv_batches.lock().unwrap().clone();
    assert_eq!(
        batches,
        vec![("pmcid".to_string(), vec!["PMC3531190".to_string()])]
    );

    // two casings of one DOI and a repeated, zero-padded PMID: one record each
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = convert(
        &server,
        &[
            "-f",
            "ndjson",
            "10.1038/ng.590",
            "10.1038/NG.590",
            "23193287",
            "0023193287",
            "23193287",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = records(&run);
    let requested: Vec<&str> = r.iter().map(|x| x["requested"].as_str().unwrap()).collect();
    assert_eq!(
        requested,
        vec![
            "10.1038/ng.590",
            "10.1038/NG.590",
            "23193287",
            "0023193287",
            "23193287"
        ]
    );
    assert_eq!(r[1]["pmid"], "20495566");
    assert_eq!(
        r[1]["doi"], "10.1038/ng.590",
        "cased as the Converter reports it"
    );
    assert_eq!(r[3]["pmcid"], "PMC3531190");
    let mut batches = fake.idconv_batches.lock().unwrap().clone();
    batches.sort();
    assert_eq!(
        batches,
        vec![
            ("doi".to_string(), vec!["10.1038/ng.590".to_string()]),
            ("pmid".to_string(), vec!["23193287".to_string()]),
        ],
        "one request per type, each canonical ID once, no leading zeros"
    );
    assert!(
        run.stderr.contains("5 IDs: 5 converted, 0 failed"),
        "{}",
        run.stderr
    );
}

#[test]
fn malformed_arguments_exit_2_before_any_request() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    for args in [
        vec!["23193287,37952131"],
        vec!["23193287", "abc"],
        vec!["--from", "pmid", "PMC6063279"],
        vec!["--from", "doi", "23193287"],
        vec!["10.1/a b"],
        // zero is never a PMID or PMCID
        vec!["0"],
        vec!["--from", "pmid", "000"],
        vec!["PMC0"],
        vec!["--from", "pmcid", "pmc000"],
        // whitespace anywhere in an argument, leading and trailing too
        vec![" 23193287"],
        vec!["23193287 "],
        vec!["2319 3287"],
        vec!["--from", "pmcid", "PMC3531190\t"],
        vec!["23193287\u{A0}"],
    ] {
        let mut a = vec!["-f", "json"];
        a.extend(args.iter());
        let run = convert(&server, &a);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        let e = run.error_json();
        assert_eq!(e["reason"], "malformed_id", "{args:?}");
        assert_eq!(run.stdout, "");
    }
    let run = convert(&server, &["-f", "json", "--from", "pmid", "PMC6063279"]);
    assert!(
        run.error_json()["message"]
            .as_str()
            .unwrap()
            .contains("PMC6063279"),
        "the malformed ID is named"
    );
    assert_eq!(server.count(), 0);
}

#[test]
fn file_input_one_record_per_id_line_in_order() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    // 10,000 lines: PMIDs, PMCIDs, DOIs, blank lines, comments, malformed lines.
    let mut lines = Vec::new();
    let mut expect: Vec<Option<String>> = Vec::new(); // expected --to pmcid per line
    for i in 0..10_000u64 {
        let pmid = 1_000 + i;
        let pmcid = |p: u64| format!("PMC{}", p + support::fake_ncbi::PMC_OFFSET);
        let in_pmc = pmid % 7 != 0;
        let (line, want) = match i % 10 {
            0 => ("".to_string(), None),
            1 => (format!("# comment {i}"), None),
            2 => (format!("{pmid},{}", pmid + 1), None),
            3 | 4 => (format!("  {pmid}\r"), in_pmc.then(|| pmcid(pmid))),
            5 | 6 => (pmcid(pmid).to_lowercase(), in_pmc.then(|| pmcid(pmid))),
            7 => (format!("10.5555/PMID.{pmid}"), in_pmc.then(|| pmcid(pmid))),
            8 => ("not-an-id".to_string(), None),
            _ => (format!("0{pmid}"), in_pmc.then(|| pmcid(pmid))),
        };
        lines.push(line);
        expect.push(want);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refs.txt");
    let mut text = String::from("\u{FEFF}");
    text.push_str(&lines.join("\n"));
    text.push('\n');
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();

    let run = convert(&server, &["--input", path, "--to", "pmcid"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out: Vec<&str> = run.stdout.split('\n').collect();
    assert_eq!(out.len(), 10_001, "one output line per input line");
    for (i, want) in expect.iter().enumerate() {
        assert_eq!(out[i], want.as_deref().unwrap_or(""), "line {}", i + 1);
    }

    let run = convert(&server, &["--input", path, "-f", "ndjson"]);
    let recs = records(&run);
    let id_lines: Vec<&String> = lines
        .iter()
        .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .collect();
    assert_eq!(recs.len(), id_lines.len(), "exactly one record per ID line");
    for (rec, line) in recs.iter().zip(&id_lines) {
        assert_eq!(rec["requested"], line.trim(), "in input order, as written");
    }
    let malformed = recs
        .iter()
        .filter(|r| r["error"]["reason"] == "malformed_id")
        .count();
    assert_eq!(malformed, 2000);
    let not_in_pmc: Vec<&serde_json::Value> = recs
        .iter()
        .filter(|r| r["error"]["reason"] == "not_in_pmc")
        .collect();
    assert!(!not_in_pmc.is_empty());
    let pmid_miss = not_in_pmc
        .iter()
        .find(|r| r["requested"] == "01029")
        .unwrap();
    assert_eq!(
        pmid_miss["error"]["message"],
        "not in PMC (Identifier not found in PMC); it may still be in PubMed: pubmed search '1029[pmid]', or convert with --fallback pubmed"
    );
    for (idtype, ids) in fake.idconv_batches.lock().unwrap().iter() {
        assert!(ids.len() <= 200, "{} IDs in one request", ids.len());
        let kinds: std::collections::HashSet<&str> = ids
            .iter()
            .map(|id| {
                if id.starts_with("PMC") {
                    "pmcid"
                } else if id.starts_with("10.") {
                    "doi"
                } else {
                    "pmid"
                }
            })
            .collect();
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), vec![idtype.as_str()]);
    }
    assert!(run.stderr.contains("8000 IDs: "), "{}", run.stderr);
}

#[test]
fn a_failed_chunk_marks_its_ids_and_the_run_completes() {
    let fake = FakeNcbi::new(Corpus::default());
    fake.failing_ids.lock().unwrap().push("1500".into());
    let server = start(&fake);
    let text: String = (1000..3000u64).map(|p| format!("{p}\n")).collect();
    let run = pubmed(&["convert", "--input", "-", "-f", "ndjson"])
        .server(&server)
        .stdin(text)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    let recs = records(&run);
    assert_eq!(recs.len(), 2000);
    let failed: Vec<&serde_json::Value> = recs
        .iter()
        .filter(|r| r["error"]["reason"] == "ncbi_unreachable")
        .collect();
    assert_eq!(failed.len(), 200, "the whole chunk, and only it");
    assert!(failed.iter().any(|r| r["requested"] == "1500"));
    let ok = recs.iter().filter(|r| r.get("error").is_none()).count();
    assert!(ok > 1500);
}

#[test]
fn real_converter_captures() {
    // legacy success: matched by the doi field
    let server =
        TestServer::start(|_| Reply::json(200, fixture("idconv_json_doi_with_versions.json")));
    let run = convert(&server, &["-f", "ndjson", "10.1038/NG.590"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &records(&run)[0];
    assert_eq!(r["requested"], "10.1038/NG.590");
    assert_eq!(r["pmid"], "20495566");
    assert_eq!(r["pmcid"], "PMC2883744");
    let req = &server.requests()[0];
    assert_eq!(req.param("ids"), Some("10.1038/NG.590"));
    assert_eq!(req.param("idtype"), Some("doi"));
    assert_eq!(req.param("format"), Some("json"));
    assert_eq!(req.param("tool"), Some("pubmed-cli"));

    // a per-record error inside status ok: the only input failed on its
    // own, so nothing converted (exit 1, as grep)
    let server =
        TestServer::start(|_| Reply::json(200, fixture("idconv_json_doi_invalid_article_id.json")));
    let run = convert(&server, &["-f", "ndjson", "10.7164/antibiotics.37.454"]);
    assert_eq!(run.code, 1, "nothing converted: {}", run.stderr);
    let r = &records(&run)[0];
    assert_eq!(r["error"]["reason"], "not_in_pmc");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("invalid article id")
    );
    assert!(r["error"]["message"].as_str().unwrap().contains("[doi]"));

    // a top-level rejection of every request: the chunk is split until each
    // ID stands alone (1 + 2 requests), each rejected ID gets its own
    // malformed_id record, and with nothing converted the exit is 1
    let server = TestServer::start(|_| {
        Reply::json(404, fixture("idconv_json_error_idtype_mismatch_404.json"))
    });
    let run = convert(
        &server,
        &["-f", "ndjson", "--from", "doi", "10.1/x", "10.1/y"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let recs = records(&run);
    assert_eq!(recs.len(), 2);
    for (r, id) in recs.iter().zip(["10.1/x", "10.1/y"]) {
        assert_eq!(r["requested"], id);
        assert_eq!(r["error"]["reason"], "malformed_id");
        let m = r["error"]["message"].as_str().unwrap();
        assert!(
            m.contains("ID type 'doi' mismatch for '28371833'") && m.contains("10.<registrant>"),
            "{m}"
        );
    }
    let sent: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.param("ids").unwrap_or_default().to_string())
        .collect();
    assert_eq!(sent, vec!["10.1/x,10.1/y", "10.1/x", "10.1/y"]);
}

/// One ID the Converter rejects never costs the others: the chunk is split
/// to find it, and the requests that costs are counted.
#[test]
fn a_rejected_chunk_is_split_to_find_the_rejected_ids() {
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    // The current service's HTTP 400 shape, not naming the ID.
    let server = TestServer::start(move |req| {
        let ids = req.param("ids").unwrap_or_default();
        if req.path.contains("/idconv/") && ids.split(',').any(|id| id == "5") {
            return Reply::json(
                400,
                r#"{"status":"error","errors":[{"message":"Invalid value for ids","code":"bad_ids"}]}"#,
            );
        }
        f.reply(req)
    });
    let input = ["1", "2", "3", "4", "5", "6", "8", "9"];
    let mut args = vec!["-f", "ndjson", "--from", "pmid"];
    args.extend(input);
    let run = convert(&server, &args);
    assert_eq!(run.code, 0, "per-ID failures only: {}", run.stderr);
    let recs = records(&run);
    assert_eq!(recs.len(), 8);
    for (r, id) in recs.iter().zip(input) {
        assert_eq!(r["requested"], id);
        if id == "5" {
            assert_eq!(r["error"]["reason"], "malformed_id");
            let m = r["error"]["message"].as_str().unwrap();
            assert!(
                m.contains("rejects this PMID: Invalid value for ids"),
                "{m}"
            );
        } else {
            assert!(r.get("error").is_none(), "{r}");
            let pmid: u64 = id.parse().unwrap();
            assert_eq!(r["pmcid"], format!("PMC{}", pmid + 5_000_000));
        }
    }
    // 8 IDs, one rejected: the chunk, both halves, both quarters of the bad
    // half, both eighths of the bad quarter: 1 + 2·log2(8) = 7 requests.
    let sent: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.param("ids").unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        sent,
        vec![
            "1,2,3,4,5,6,8,9",
            "1,2,3,4",
            "5,6,8,9",
            "5,6",
            "5",
            "6",
            "8,9"
        ]
    );
    assert!(run.stderr.contains("7 requests"), "{}", run.stderr);

    // A message that names the ID (the 404 capture's shape) costs one more
    // request: the others are sent again without it.
    let f = fake.clone();
    let server = TestServer::start(move |req| {
        let ids = req.param("ids").unwrap_or_default();
        if req.path.contains("/idconv/") && ids.split(',').any(|id| id == "5") {
            return Reply::json(
                404,
                "{\n \"status\": \"error\",\n \"message\": \"ID%20type%20%27pmid%27%20mismatch%20for%20%275%27\"\n}\n",
            );
        }
        f.reply(req)
    });
    let run = convert(&server, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs = records(&run);
    assert_eq!(recs[4]["error"]["reason"], "malformed_id");
    assert_eq!(recs.iter().filter(|r| r.get("error").is_none()).count(), 7);
    let sent: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.param("ids").unwrap_or_default().to_string())
        .collect();
    assert_eq!(sent, vec!["1,2,3,4,5,6,8,9", "1,2,3,4,6,8,9"]);
}

/// The batch exit rule: 0 when something converted and every failure is
/// per-ID, 1 when every input failed per-ID, else the failed chunk's code.
#[test]
fn batch_exit_status() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    // 14 and 21 are not in PMC in the fake (multiples of 7)
    for (args, code) in [
        (vec!["23193287"], 0),
        (vec!["23193287", "14"], 0),
        (vec!["14"], 1),
        (vec!["14", "21"], 1),
    ] {
        let mut a = vec!["-f", "ndjson"];
        a.extend(args.iter());
        let run = convert(&server, &a);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
    }
    // file input: malformed lines are per-ID failures too
    for (text, code) in [
        ("0\nPMC0\n23193287\n", 0),
        ("0\nabc\n14\n", 1),
        // no ID line at all: the usage error of giving no IDs
        ("# only a comment\n", 2),
    ] {
        let run = pubmed(&["convert", "--input", "-", "-f", "ndjson"])
            .server(&server)
            .stdin(text)
            .run();
        assert_eq!(run.code, code, "{text:?}: {}", run.stderr);
    }
    let run = pubmed(&["convert", "--input", "-", "-f", "ndjson"])
        .server(&server)
        .stdin("0\n000\nPMC0\n")
        .run();
    let recs = records(&run);
    assert!(recs.iter().all(|r| r["error"]["reason"] == "malformed_id"));
    // a failed chunk decides, whatever converted
    fake.failing_ids.lock().unwrap().push("22676651".into());
    let run = convert(&server, &["-f", "ndjson", "22676651", "PMC3531190"]);
    assert_eq!(run.code, 69, "{}", run.stderr);
}

/// Lines of an input file are trimmed; arguments are not (see
/// `malformed_arguments_exit_2_before_any_request`).
#[test]
fn file_lines_are_trimmed() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = pubmed(&["convert", "--input", "-", "-f", "ndjson"])
        .server(&server)
        .stdin("  23193287 \n\tPMC3531190\t\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let recs = records(&run);
    assert_eq!(recs[0]["requested"], "23193287");
    assert_eq!(recs[0]["pmcid"], "PMC3531190");
    assert_eq!(recs[1]["pmid"], "23193287");
}

/// With no argument and a piped stdin, `convert` reads stdin, as `fetch`
/// does (`pubmed search … | pubmed convert --to pmcid`); with no argument
/// and nothing piped (stdin closed) the empty input is exit 2.
#[test]
fn a_piped_stdin_is_the_input_when_no_argument_is_given() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = pubmed(&["convert", "--to", "pmcid"])
        .server(&server)
        .stdin("23193287\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "PMC3531190\n");
    let run = pubmed(&["convert", "--to", "pmcid", "-f", "json"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let err: serde_json::Value = serde_json::from_str(run.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(err["error"]["reason"], "invalid_argument");
    // Issue 25: an empty pipe said "check the arguments".
    assert_eq!(
        err["error"]["message"],
        "stdin was empty: the command before the pipe wrote no IDs (only blank or # comment lines, or nothing)"
    );
    assert_eq!(
        err["error"]["hint"],
        "check the command before `|` (its errors, or zero hits, are on stderr above it)"
    );
    // a file of comments is still the file's fault
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ids.txt");
    std::fs::write(&path, "# none\n\n").unwrap();
    let run = pubmed(&["convert", "--input", path.to_str().unwrap(), "-f", "json"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let err: serde_json::Value = serde_json::from_str(run.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(
        err["error"]["message"],
        "the input holds no IDs (only blank or # comment lines, or nothing)"
    );
}

#[test]
fn legacy_answers_match_by_field_and_no_record_is_reported() {
    let fake = Arc::new(FakeNcbi {
        idconv_legacy: true,
        ..Default::default()
    });
    let server = start(&fake);
    let run = convert(&server, &["-f", "ndjson", "PMC3479421", "22676651", "14"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = records(&run);
    assert_eq!(r[0]["pmid"], "22676651");
    assert_eq!(r[1]["pmcid"], "PMC3479421");
    assert_eq!(r[2]["error"]["reason"], "not_in_pmc");

    // the Converter leaves an ID out of its answer
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            r#"{"status":"ok","records":[{"requested-id":"23193287","pmcid":"PMC3531190","pmid":23193287}]}"#,
        )
    });
    let run = convert(&server, &["-f", "ndjson", "23193287", "99"]);
    let r = records(&run);
    assert_eq!(r[0]["pmcid"], "PMC3531190");
    assert_eq!(r[1]["error"]["reason"], "no_record_returned");
    assert_eq!(run.code, 0);
}

#[test]
fn formats_and_parameters() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = pubmed(&["convert", "-f", "json", "23193287", "14", "PMC3531190"])
        .server(&server)
        .env("NCBI_API_KEY", "secretkey")
        .env("NCBI_EMAIL", "me@example.org")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["submitted"], 3);
    assert_eq!(v["converted"], 2);
    assert_eq!(v["failed"], 1);
    assert_eq!(v["records"].as_array().unwrap().len(), 3);
    assert_eq!(v["records"][1]["error"]["reason"], "not_in_pmc");
    for r in server.requests() {
        assert_eq!(
            r.param("api_key"),
            None,
            "never send api_key to the Converter"
        );
        assert_eq!(r.param("email"), Some("me@example.org"));
        assert_eq!(r.method, "GET");
    }

    // tsv is the pipe default; one line per record, header first
    let run = convert(&server, &["23193287", "14"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "requested\tpmid\tpmcid\tdoi\terror\tmessage");
    assert_eq!(
        lines[1],
        "23193287\t23193287\tPMC3531190\t10.5555/example.23193287\t\t"
    );
    assert!(lines[2].starts_with("14\t\t\t\tnot_in_pmc\t"));
    assert_eq!(lines.len(), 3);

    let run = convert(&server, &["-f", "csv", "10.5555/example.23193287"]);
    let mut r = csv::Reader::from_reader(run.stdout.as_bytes());
    let row = r.records().next().unwrap().unwrap();
    assert_eq!(&row[1], "23193287");

    let run = convert(&server, &["-f", "table", "23193287"]);
    assert!(run.stdout.contains("PMC3531190"));

    let run = convert(&server, &["-f", "ids", "23193287"]);
    assert_eq!(run.code, 2, "ids needs --to");
    let run = convert(&server, &["--to", "doi", "PMC3531190"]);
    assert_eq!(run.stdout, "10.5555/example.23193287\n");
    let run = convert(&server, &[]);
    assert_eq!(run.code, 2);
}

#[test]
fn crlf_bom_and_stdin() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = pubmed(&["convert", "--input", "-", "--to", "pmid"])
        .server(&server)
        .stdin("\u{FEFF}PMC3531190\r\n\r\n# c\r\n10.1038/ng.590\r\n\u{FEFF}1\r\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "23193287\n\n\n20495566\n\n");
    let run = pubmed(&["convert", "--input", "-", "-f", "ndjson"])
        .server(&server)
        .stdin("\u{FEFF}1\n")
        .run();
    assert_eq!(
        records(&run)[0]["requested"],
        "1",
        "a leading BOM is dropped"
    );
    let run = pubmed(&["convert", "--input", "-", "-f", "ndjson"])
        .server(&server)
        .stdin("1\n\u{FEFF}2\n")
        .run();
    assert_eq!(
        records(&run)[1]["error"]["reason"],
        "malformed_id",
        "a BOM elsewhere is malformed"
    );
    assert!(fake.counters.idconv.load(Ordering::SeqCst) >= 2);
    let run = pubmed(&["convert", "--input", "/nonexistent/refs.txt"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("/nonexistent/refs.txt"),
        "{}",
        run.stderr
    );
}

/// Issue 25 "first hour": `convert` rejected the ID forms people paste.
/// They are the ID after the prefix; `requested` keeps the spelling.
#[test]
fn pasted_id_forms_are_accepted() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let pasted = [
        "https://doi.org/10.5555/example.23193287",
        "doi:10.5555/example.23193287",
        "PMID:23193287",
        "PMCID:PMC3531190",
    ];
    let mut args = vec!["-f", "ndjson"];
    args.extend(pasted);
    let run = convert(&server, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = records(&run);
    assert_eq!(r.len(), 4);
    for (rec, requested) in r.iter().zip(pasted) {
        assert_eq!(rec["requested"], requested);
        assert_eq!(rec["pmid"], "23193287", "{rec}");
        assert_eq!(rec["pmcid"], "PMC3531190", "{rec}");
        assert!(rec.get("error").is_none(), "{rec}");
    }
    let mut batches = fake.idconv_batches.lock().unwrap().clone();
    batches.sort();
    assert_eq!(
        batches,
        vec![
            (
                "doi".to_string(),
                vec!["10.5555/example.23193287".to_string()]
            ),
            ("pmcid".to_string(), vec!["PMC3531190".to_string()]),
            ("pmid".to_string(), vec!["23193287".to_string()]),
        ]
    );
    let run = convert(&server, &["--from", "pmid", "doi:10.5555/example.23193287"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("pubmed: error: \"doi:10.5555/example.23193287\" is not a valid PMID"),
        "{}",
        run.stderr
    );
}
