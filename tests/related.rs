//! `pubmed related` end to end against the fake NCBI's ELink (lists derived
//! from the PMID, and the real capture's lists for PMID 9298984), plus
//! properties of the ELink parser on generated and mutated bodies.

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use proptest::prelude::*;
use support::cli::{Run, pubmed};
use support::fake_ncbi::{CAPTURED_PMID, Corpus, ElinkCall, FakeNcbi};
use support::ncbi;
use support::server::TestServer;

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

fn related(server: &TestServer, args: &[&str]) -> Run {
    let mut all = vec!["related"];
    all.extend_from_slice(args);
    pubmed(&all).server(server).run()
}

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

fn calls(fake: &FakeNcbi) -> Vec<ElinkCall> {
    fake.elink_calls.lock().unwrap().clone()
}

fn counts(fake: &FakeNcbi) -> (usize, usize) {
    (
        fake.counters.elink.load(Ordering::SeqCst),
        fake.counters.esummary.load(Ordering::SeqCst),
    )
}

fn capture_ids(linkname: &str) -> Vec<String> {
    ncbi::capture_links("elink_pubmed_neighbor_all_pubmed_linknames.xml", linkname)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

#[test]
fn similar_articles_of_the_captured_pmid_without_itself() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = related(&server, &["9298984"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = lines(&run.stdout);
    // The capture lists 101 PMIDs, the input itself first.
    assert_eq!(out.len(), 100);
    assert_eq!(&out[..3], ["8794856", "9700164", "7914521"]);
    assert_eq!(out[99], "17333235");
    assert!(!out.contains(&"9298984"));
    let c = calls(&fake);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].ids, vec!["9298984"]);
    assert_eq!(c[0].cmd.as_deref(), Some("neighbor"));
    assert_eq!(c[0].linkname.as_deref(), Some("pubmed_pubmed"));
    assert_eq!(c[0].dbfrom.as_deref(), Some("pubmed"));
    assert_eq!(c[0].db.as_deref(), Some("pubmed"));
    assert_eq!(counts(&fake), (1, 0), "no ESummary for PMIDs only");
}

/// `pubmed search … | pubmed related`: with no argument, a piped stdin
/// holds the PMIDs (as for `fetch` and `convert`).
#[test]
fn a_piped_stdin_is_the_input_when_no_argument_is_given() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = pubmed(&["related"])
        .server(&server)
        .stdin("9298984\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = lines(&run.stdout);
    assert_eq!(out.len(), 100);
    assert_eq!(&out[..3], ["8794856", "9700164", "7914521"]);
}

#[test]
fn citing_articles_and_references_use_their_link_names() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    for (kind, linkname, n, first, last) in [
        (
            "cited-by",
            "pubmed_pubmed_citedin",
            39,
            "38830800",
            "9700164",
        ),
        (
            "references",
            "pubmed_pubmed_refs",
            56,
            "14732139",
            "1339459",
        ),
    ] {
        let run = related(&server, &["9298984", "--kind", kind]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let out = lines(&run.stdout);
        assert_eq!(out.len(), n, "{kind}");
        assert_eq!(out[0], first);
        assert_eq!(out[n - 1], last);
        assert_eq!(out, capture_ids(linkname));
        assert_eq!(
            calls(&fake).last().unwrap().linkname.as_deref(),
            Some(linkname)
        );
    }
}

#[test]
fn several_inputs_go_out_as_repeated_ids_in_one_request() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    // Similar lists: 1201 → 1202–1204, 1202 → 1203–1206, 1203 → 1204–1208.
    let run = related(&server, &["1201", "01202", "1203", "1201"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        lines(&run.stdout),
        ["1202", "1203", "1204", "1205", "1206", "1207", "1208"],
        "each linked PMID once, in NCBI's order, input after input"
    );
    let c = calls(&fake);
    assert_eq!(c.len(), 1);
    assert_eq!(
        c[0].ids,
        vec!["1201", "1202", "1203"],
        "one id per PMID, never a, b"
    );
    assert_eq!(c[0].method, "GET");
    assert!(
        run.stderr.contains("4 inputs: 4 with links"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("1 request"), "{}", run.stderr);
}

#[test]
fn every_format_has_its_shape() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let args = ["1201", "1100", "--retmax", "2"];
    // TSV: one row per (source, kind, linked, rank, score); an empty entry row.
    let run = related(&server, &[&args[..], &["-f", "tsv"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        lines(&run.stdout),
        [
            "source_pmid\tkind\tlinked_pmid\trank\tscore\terror\tmessage",
            "1201\tsimilar\t1202\t1\t\t\t",
            "1201\tsimilar\t1203\t2\t\t\t",
            "1100\tsimilar\t\t\t\t\t",
        ]
    );
    assert!(
        run.stderr.contains("PMID 1100 has no similar articles"),
        "{}",
        run.stderr
    );
    // CSV: the same rows.
    let run = related(&server, &[&args[..], &["-f", "csv"]].concat());
    assert_eq!(
        lines(&run.stdout),
        [
            "source_pmid,kind,linked_pmid,rank,score,error,message",
            "1201,similar,1202,1,,,",
            "1201,similar,1203,2,,,",
            "1100,similar,,,,,",
        ]
    );
    // NDJSON: one object per row.
    let run = related(&server, &[&args[..], &["-f", "ndjson"]].concat());
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[1],
        serde_json::json!({"sourcePmid": "1201", "kind": "similar", "linkedPmid": "1203", "rank": 2})
    );
    assert_eq!(rows[2]["linkedPmid"], serde_json::Value::Null);
    assert_eq!(rows[2]["total"], 0);
    // JSON: records and totals; total counts NCBI's list before --retmax.
    let run = related(&server, &[&args[..], &["-f", "json"]].concat());
    let v = run.json();
    assert_eq!(v["kind"], "similar");
    assert_eq!(v["links"][0]["pmid"], "1201");
    assert_eq!(v["links"][0]["total"], 3);
    assert_eq!(v["links"][0]["linked"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["links"][0]["linked"][0],
        serde_json::json!({"pmid": "1202", "rank": 1})
    );
    assert_eq!(v["links"][1]["linked"], serde_json::json!([]));
    assert_eq!(
        (
            &v["submitted"],
            &v["withLinks"],
            &v["withoutLinks"],
            &v["failed"],
            &v["linked"]
        ),
        (&2.into(), &1.into(), &1.into(), &0.into(), &2.into())
    );
    // The input without links was checked in ESummary (it exists): one
    // ELink and one ESummary per run, four runs so far.
    assert_eq!(counts(&fake), (4, 4));
}

#[test]
fn summaries_come_from_esummary_in_one_request() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = related(
        &server,
        &["1201", "1202", "--detail", "brief", "-f", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let first = &v["links"][0]["linked"][0];
    assert_eq!(first["pmid"], "1202");
    // synthetic_doc's title with its markup removed and entities decoded.
    assert_eq!(
        first["summary"]["title"],
        "Synthetic article 1202: in vivo effects & outcomes."
    );
    assert!(first["summary"].get("authors").is_none(), "brief view");
    // 1202–1206 distinct linked PMIDs: one ESummary request.
    assert_eq!(counts(&fake), (1, 1));
    let run = related(
        &server,
        &["1201", "--detail", "full", "-f", "tsv", "--retmax", "1"],
    );
    let rows = lines(&run.stdout);
    assert!(
        rows[0].starts_with("source_pmid\tkind\tlinked_pmid\trank\tscore\tpub_date\t"),
        "{}",
        rows[0]
    );
    assert!(rows[0].ends_with("\tpubmed_url\terror\tmessage"));
    assert!(
        rows[1].contains("https://pubmed.ncbi.nlm.nih.gov/1202/"),
        "{}",
        rows[1]
    );
    // A table shows summaries unasked.
    let run = related(&server, &["1201", "-f", "table"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Synthetic article 1204"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("First author"));
}

#[test]
fn inputs_without_links_unknown_and_malformed_each_get_a_record() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pmids.txt");
    // 1100: no links; 99000002: unknown (empty LinkSet); 99000003: unknown
    // (no LinkSet); abc: malformed; a comment and a blank line.
    std::fs::write(&file, "1201\n# refs\n1100\n\n99000002\nabc\n99000003\n").unwrap();
    let run = related(
        &server,
        &["--input", file.to_str().unwrap(), "-f", "ndjson"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let by_source: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["sourcePmid"].as_str().unwrap().to_string(),
                r["error"]["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("1201", ""),
        ("1201", ""),
        ("1201", ""),
        ("1100", ""),
        ("99000002", "not_found"),
        ("abc", "malformed_id"),
        ("99000003", "not_found"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(by_source, want);
    assert!(
        rows[4]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot get document summary")
    );
    // One ELink for the four PMIDs; one ESummary checks the three without links.
    assert_eq!(counts(&fake), (1, 1));
    assert_eq!(
        calls(&fake)[0].ids,
        vec!["1201", "1100", "99000002", "99000003"]
    );
    assert!(
        run.stderr
            .contains("5 inputs: 1 with links, 1 without, 3 failed"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("malformed_id 1, not_found 2"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("2 requests"), "{}", run.stderr);
}

#[test]
fn exit_status_follows_the_batch_rule() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    // Every input failed on its own: 1.
    let run = related(&server, &["99000002", "99000004"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("error: 99000002: PubMed has no record of PMID 99000002"),
        "{}",
        run.stderr
    );
    // A malformed argument: 2, before any request.
    let before = server.count();
    for bad in ["PMC1", "0", "1,2"] {
        let run = related(&server, &["1201", bad, "-f", "json"]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert_eq!(run.error_json()["reason"], "malformed_id");
        assert_eq!(run.stdout, "");
    }
    assert_eq!(server.count(), before);
    let run = related(&server, &["1201", "--retmax", "0"]);
    assert_eq!(run.code, 2);
    let run = related(&server, &["1201", "--kind", "cites"]);
    assert_eq!(run.code, 2);
    assert_eq!(server.count(), before);
}

#[test]
fn an_elink_error_fails_its_chunk_with_the_right_reason() {
    let fake = FakeNcbi::new(Corpus::default());
    fake.elink_errors.lock().unwrap().insert(
        "1201".into(),
        "Couldn't resolve #exLinkSrv2, the address table is empty.".into(),
    );
    let server = start(&fake);
    let run = related(&server, &["1201", "1202", "-f", "json"]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let v = run.json();
    for r in v["links"].as_array().unwrap() {
        assert_eq!(r["error"]["reason"], "ncbi_unreachable");
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap()
                .contains("exLinkSrv2")
        );
    }
    assert_eq!(v["failed"], 2);
    // The text is transient: retried (PUBMED_MAX_RETRIES=2), 3 attempts.
    assert_eq!(counts(&fake), (3, 0));
    // In the PMID-list format each failed input is one error line on
    // stderr, then the summary: the failure is not reported a third time.
    let run = related(&server, &["1201", "1202"]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("pubmed: error:"))
        .collect();
    assert_eq!(errors.len(), 2, "{}", run.stderr);
    assert!(
        errors[0].starts_with("pubmed: error: 1201: "),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("pubmed: error: 1202: "),
        "{}",
        errors[1]
    );
    assert!(errors.iter().all(|l| l.ends_with("[ncbi_unreachable]")));
    assert_eq!(
        run.stderr.lines().last().unwrap(),
        "pubmed: 2 inputs: 0 with links, 0 without, 2 failed; 0 linked PMIDs listed (ncbi_unreachable 2); 3 requests"
    );
}

#[test]
fn an_error_naming_an_id_is_narrowed_down_to_that_input() {
    let fake = FakeNcbi::new(Corpus::default());
    fake.elink_errors
        .lock()
        .unwrap()
        .insert("1203".into(), "Invalid uid 1203 at position=2".into());
    let server = start(&fake);
    let run = related(&server, &["1201", "1202", "1203", "1204", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let reasons: Vec<&str> = v["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["error"]["reason"].as_str().unwrap_or("ok"))
        .collect();
    assert_eq!(reasons, ["ok", "ok", "not_found", "ok"]);
    let sent: Vec<Vec<String>> = calls(&fake).into_iter().map(|c| c.ids).collect();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    // The message names uid 1203: it gets the error at once and the others
    // are sent again without it (no halving).
    assert_eq!(
        sent,
        vec![
            s(&["1201", "1202", "1203", "1204"]),
            s(&["1201", "1202", "1204"]),
        ]
    );
}

#[test]
fn long_inputs_go_in_chunks_of_200_by_post() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pmids.txt");
    let pmids: Vec<String> = (0..450).map(|i| (20_000_001 + 2 * i).to_string()).collect();
    std::fs::write(&file, pmids.join("\n")).unwrap();
    let run = related(&server, &["--input", file.to_str().unwrap(), "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let got: Vec<&str> = v["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["pmid"].as_str().unwrap())
        .collect();
    assert_eq!(got, pmids.iter().map(String::as_str).collect::<Vec<_>>());
    // chunks may arrive in any order (several are in flight at once)
    let mut c = calls(&fake);
    c.sort_by_key(|c| c.ids.first().and_then(|id| id.parse::<u64>().ok()));
    let shape: Vec<(usize, &str)> = c.iter().map(|c| (c.ids.len(), c.method.as_str())).collect();
    assert_eq!(shape, vec![(200, "POST"), (200, "POST"), (50, "GET")]);
    let sent: Vec<String> = c.into_iter().flat_map(|c| c.ids).collect();
    assert_eq!(sent, pmids);
    // PMIDs divisible by 11 have no links: each is checked once in ESummary,
    // one request per chunk that has any.
    let (elink, esummary) = counts(&fake);
    assert_eq!(elink, 3);
    assert_eq!(esummary, 3);
    assert!(run.stderr.contains("6 requests"), "{}", run.stderr);
}

#[test]
fn scores_are_kept_when_ncbi_sends_them() {
    let fake = Arc::new(FakeNcbi {
        elink_scored: true,
        ..Default::default()
    });
    let server = start(&fake);
    let run = related(
        &server,
        &[&CAPTURED_PMID.to_string(), "--retmax", "2", "-f", "tsv"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // elink_pubmed_neighbor_with_scores_2008.xml: 9298984 (self, 2147483647),
    // 8794856 65259341, 9700164 60347327.
    assert_eq!(
        &lines(&run.stdout)[1..],
        [
            "9298984\tsimilar\t8794856\t1\t65259341\t\t",
            "9298984\tsimilar\t9700164\t2\t60347327\t\t",
        ]
    );
    let run = related(
        &server,
        &[&CAPTURED_PMID.to_string(), "--retmax", "1", "-f", "json"],
    );
    assert_eq!(
        run.json()["links"][0]["linked"][0],
        serde_json::json!({"pmid": "8794856", "rank": 1, "score": 65259341})
    );
    assert_eq!(run.json()["links"][0]["total"], 143);
}

#[test]
fn stdin_input_and_help() {
    let fake = FakeNcbi::new(Corpus::default());
    let server = start(&fake);
    let run = pubmed(&["related", "--input", "-", "--kind", "cited-by"])
        .server(&server)
        .stdin("1201\n1202\n")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    // cited-by: 1 + pmid % 3 PMIDs, pmid + 1,000,000 × i.
    assert_eq!(
        lines(&run.stdout),
        ["1001201", "2001201", "1001202", "2001202", "3001202"]
    );
    let help = pubmed(&["related", "--help"]).run();
    assert_eq!(help.code, 0);
    assert!(
        help.stdout.contains("PMC-based citation"),
        "{}",
        help.stdout
    );
    assert!(help.stdout.contains("lower than other citation indexes"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Generated answers in the captures' shape are read back exactly: one
    /// entry per requested input, each with its own links in order.
    #[test]
    fn generated_answers_round_trip(
        lists in proptest::collection::vec(
            (1u64..50_000_000, proptest::collection::vec((1u64..50_000_000, proptest::option::of(0u64..u32::MAX as u64)), 0..30), any::<bool>()),
            1..20,
        ),
    ) {
        let mut seen = HashMap::new();
        let lists: Vec<_> = lists.into_iter().filter(|(p, _, _)| seen.insert(*p, ()).is_none()).collect();
        let requested: Vec<String> = lists.iter().map(|(p, _, _)| p.to_string()).collect();
        let sets: Vec<ncbi::ElinkSet> = lists
            .iter()
            .filter(|(_, _, present)| *present)
            .map(|(p, links, _)| ncbi::ElinkSet {
                ids: vec![p.to_string()],
                linkname: "pubmed_pubmed_citedin".into(),
                links: links.iter().map(|(l, s)| (l.to_string(), *s)).collect(),
            })
            .collect();
        let body = ncbi::elink(&sets);
        let root = pubmed::ncbi::xml::parse(&body).unwrap();
        let answer = pubmed::ncbi::elink::parse(&root).unwrap();
        let got = pubmed::ncbi::elink::match_inputs(&answer, &requested, pubmed::ncbi::elink::LinkKind::CitedBy).unwrap();
        prop_assert_eq!(got.len(), requested.len());
        for ((_, links, present), g) in lists.iter().zip(&got) {
            match g {
                pubmed::ncbi::elink::InputLinks::Links(l) => {
                    prop_assert!(*present);
                    let ids: Vec<(String, Option<u64>)> = l.iter().map(|x| (x.pmid.clone(), x.score)).collect();
                    let want: Vec<(String, Option<u64>)> = links.iter().map(|(a, s)| (a.to_string(), *s)).collect();
                    prop_assert_eq!(ids, want);
                }
                pubmed::ncbi::elink::InputLinks::Nothing => prop_assert!(!*present || links.is_empty()),
                other => prop_assert!(false, "{:?}", other),
            }
        }
    }

    /// Mutated bodies never panic, and whatever is accepted accounts for
    /// every input exactly once.
    #[test]
    fn mutated_answers_never_lose_an_input(
        n in 1usize..6,
        cuts in proptest::collection::vec((0usize..4000, 0usize..40, "[<>/a-zA-Z0-9 ]{0,12}"), 1..5),
    ) {
        let requested: Vec<String> = (0..n).map(|i| (1000 + i).to_string()).collect();
        let sets: Vec<ncbi::ElinkSet> = requested
            .iter()
            .map(|p| ncbi::ElinkSet {
                ids: vec![p.clone()],
                linkname: "pubmed_pubmed".into(),
                links: vec![(p.clone(), Some(7)), ("5".into(), None)],
            })
            .collect();
        let mut body = ncbi::elink(&sets).into_bytes();
        for (at, len, insert) in cuts {
            let at = at.min(body.len());
            let end = (at + len).min(body.len());
            body.splice(at..end, insert.into_bytes());
        }
        let text = String::from_utf8_lossy(&body);
        if let Ok(root) = pubmed::ncbi::xml::parse(&text)
            && let Ok(answer) = pubmed::ncbi::elink::parse(&root)
            && let Ok(got) = pubmed::ncbi::elink::match_inputs(&answer, &requested, pubmed::ncbi::elink::LinkKind::Similar)
        {
            prop_assert_eq!(got.len(), n);
        }
    }
}
