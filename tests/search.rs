//! `pubmed search` end to end: the built binary against a loopback server
//! serving real ESearch/ESummary captures and bodies built in their shape.

use crate::support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use support::cli::{Run, pubmed};
use support::ncbi::{self, Doc};
use support::server::{Reply, Request, TestServer, fixture};

/// A fake PubMed: ESearch answers by term (default: three hits), ESummary
/// answers any PMID from `docs` or a default record, ESpell by term.
#[derive(Clone, Default)]
struct Fake {
    esearch: Arc<Mutex<HashMap<String, String>>>,
    docs: Arc<Mutex<HashMap<String, Doc>>>,
    summary_errors: Arc<Mutex<HashMap<String, String>>>,
    espell: Arc<Mutex<HashMap<String, String>>>,
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

impl Fake {
    fn on_term(&self, term: &str, body: String) -> &Self {
        self.esearch.lock().unwrap().insert(term.into(), body);
        self
    }

    fn doc(&self, d: Doc) -> &Self {
        self.docs.lock().unwrap().insert(d.uid.clone(), d);
        self
    }

    fn reply(&self, req: &Request) -> Reply {
        if req.param("db") == Some("mesh") {
            return support::fake_ncbi::mesh::reply(req, &|_| {
                Reply::status(404, "text/plain", "no")
            });
        }
        if req.is("esearch.fcgi") {
            let term = req.param("term").unwrap_or_default();
            let body = self
                .esearch
                .lock()
                .unwrap()
                .get(term)
                .cloned()
                .unwrap_or_else(|| {
                    ncbi::esearch(3, 0, &ids(&["31", "32", "33"]), "x[All Fields]", &[], &[])
                });
            let num = |k: &str, d: u64| req.param(k).and_then(|v| v.parse().ok()).unwrap_or(d);
            return Reply::xml(ncbi::esearch_page(
                &body,
                num("retstart", 0),
                num("retmax", 20),
            ));
        }
        if req.is("esummary.fcgi") {
            let docs = self.docs.lock().unwrap();
            let errs = self.summary_errors.lock().unwrap();
            let mut found = Vec::new();
            let mut errors = Vec::new();
            for id in req.param("id").unwrap_or_default().split(',') {
                if let Some(e) = errs.get(id) {
                    errors.push((id.to_string(), e.clone()));
                } else {
                    found.push(docs.get(id).cloned().unwrap_or_else(|| Doc::new(id)));
                }
            }
            let errors: Vec<(&str, &str)> = errors
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            return Reply::xml(ncbi::esummary(&found, &errors));
        }
        if req.is("espell.fcgi") {
            let term = req.param("term").unwrap_or_default();
            if let Some(b) = self.espell.lock().unwrap().get(term) {
                return Reply::xml(b.clone());
            }
        }
        Reply::status(404, "text/plain", "unexpected")
    }

    fn start(&self) -> TestServer {
        let me = self.clone();
        TestServer::start(move |r| me.reply(r))
    }
}

fn esearch_requests(s: &TestServer) -> Vec<Request> {
    s.requests()
        .into_iter()
        // PubMed's: the MeSH check of `--mesh` searches `db=mesh` first.
        .filter(|r| r.is("esearch.fcgi") && r.param("db") != Some("mesh"))
        .collect()
}

fn search(server: &TestServer, args: &[&str]) -> Run {
    let mut all = vec!["search"];
    all.extend_from_slice(args);
    pubmed(&all).server(server).run()
}

fn today_minus(days: i64) -> String {
    let d = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date();
    let d = d.checked_sub(jiff::Span::new().days(days)).unwrap();
    format!("{:04}/{:02}/{:02}", d.year(), d.month(), d.day())
}

#[test]
fn date_rules_send_exact_parameters() {
    let today = today_minus(0);
    let month_ago = today_minus(30);
    type Case<'a> = (Vec<&'a str>, Option<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        (vec![], None, "pdat"),
        (
            vec!["--mindate", "2020", "--maxdate", "2021/06"],
            Some(("2020", "2021/06")),
            "pdat",
        ),
        (
            vec![
                "--mindate",
                "2020-3-9",
                "--maxdate",
                "2020.12.31",
                "--datetype",
                "edat",
            ],
            Some(("2020/03/09", "2020/12/31")),
            "edat",
        ),
        (vec!["--mindate", "2020"], Some(("2020", "3000")), "pdat"),
        (
            vec!["--maxdate", "1999/02", "--datetype", "mdat"],
            Some(("1000", "1999/02")),
            "mdat",
        ),
        (vec!["--reldate", "30"], Some((&month_ago, &today)), "pdat"),
        (vec!["--reldate", "0"], None, "pdat"),
        (
            vec!["--reldate", "30", "--mindate", "2000", "--maxdate", "3000"],
            Some((&month_ago, &today)),
            "pdat",
        ),
    ];
    for (args, dates, datetype) in cases {
        let server = Fake::default().start();
        let mut a = vec!["cancer"];
        a.extend(args.iter());
        let run = search(&server, &a);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let r = &esearch_requests(&server)[0];
        assert_eq!(r.param("datetype"), Some(datetype), "{args:?}");
        assert_eq!(
            r.param("mindate").zip(r.param("maxdate")),
            dates,
            "{args:?}"
        );
        assert_eq!(r.param("reldate"), None, "reldate is never sent");
    }
    // a lone bound is filled with a warning
    let server = Fake::default().start();
    let run = search(&server, &["cancer", "--mindate", "2020", "-f", "json"]);
    let w = &run.json()["warnings"][0];
    assert_eq!(w["kind"], "date_bound_filled");
    assert!(w["message"].as_str().unwrap().contains("3000"));
    let run = search(&server, &["cancer", "--maxdate", "2020"]);
    assert!(run.stderr.contains("mindate 1000"), "{}", run.stderr);
}

#[test]
fn invalid_dates_are_rejected_before_any_request() {
    let server = Fake::default().start();
    for (args, needle) in [
        (vec!["--mindate", "2023/02/29"], "2023 is not a leap year"),
        (vec!["--maxdate", "2020/13"], "month 13"),
        (vec!["--mindate", "2021/04/31"], "April 2021 has 30 days"),
        (
            vec!["--mindate", "2021", "--maxdate", "2020"],
            "starts after it ends",
        ),
        (vec!["--mindate", "21/01/01"], "YYYY"),
        (
            vec!["--reldate", "7", "--mindate", "2001", "--maxdate", "2002"],
            "does not overlap",
        ),
    ] {
        let mut a = vec!["cancer", "-f", "json"];
        a.extend(args.iter());
        let run = search(&server, &a);
        assert_eq!(run.code, 2, "{args:?}");
        let e = run.error_json();
        assert_eq!(e["reason"], "invalid_date_range", "{args:?}");
        assert!(
            e["message"].as_str().unwrap().contains(needle),
            "{args:?}: {e}"
        );
    }
    let run = search(&server, &["cancer", "--maxdate", "2020/02/30"]);
    assert!(
        run.stderr.contains("maxdate"),
        "the bound is named: {}",
        run.stderr
    );
    assert_eq!(server.count(), 0);
}

#[test]
fn blank_and_non_blank_queries_of_search_md() {
    let server = Fake::default().start();
    for q in [
        "   ",
        "\u{200B}",
        "&nbsp;",
        "<b></b>",
        "()",
        "[pdat]",
        "[ti][tiab]",
        "[mh:noexp]",
    ] {
        let run = search(&server, &[q, "-f", "json"]);
        assert_eq!(run.code, 2, "{q:?}: {}", run.stderr);
        assert_eq!(run.error_json()["reason"], "blank_query", "{q:?}");
    }
    let run = search(&server, &["-f", "json", ""]);
    assert_eq!(run.error_json()["reason"], "blank_query");
    let run = search(&server, &["-f", "json"]);
    assert_eq!(run.error_json()["reason"], "blank_query");
    assert_eq!(server.count(), 0, "blank queries never reach NCBI");

    for (q, sent) in [
        ("benzo[a]pyrene", "benzo[a]pyrene"),
        ("[18F]", "[18F]"),
        ("AND", "AND"),
        ("2020[pdat]", "2020[pdat]"),
        ("R&amp;D", "R&D"),
        ("R&D", "R&D"),
        ("<i>p53</i> AND p<0.05", "p53 AND p<0.05"),
    ] {
        let server = Fake::default().start();
        let run = search(&server, &[q]);
        assert_eq!(run.code, 0, "{q:?}: {}", run.stderr);
        assert_eq!(
            esearch_requests(&server)[0].param("term"),
            Some(sent),
            "{q:?}"
        );
    }
    // "" with a filter searches the filter alone
    let server = Fake::default().start();
    let run = search(&server, &["", "--mesh", "Asthma", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        esearch_requests(&server)[0].param("term"),
        Some("\"Asthma\"[MeSH Terms]")
    );
    assert_eq!(run.json()["effectiveQuery"], "\"Asthma\"[MeSH Terms]");
}

#[test]
fn filters_compose_the_effective_query() {
    let server = Fake::default().start();
    let run = search(
        &server,
        &[
            "asthma OR wheeze",
            "--author",
            "Smith J",
            "--pubtype",
            "Review",
            "--pubtype",
            "Clinical Trial",
            "--journal",
            "Lancet",
            "--mesh",
            "Child",
            "--mesh",
            "Humans",
            "--language",
            "english",
            "--has-abstract",
            "--free-full-text",
            "--species",
            "humans",
            "-f",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = "(asthma OR wheeze) AND (\"Review\"[Publication Type] OR \"Clinical Trial\"[Publication Type]) AND Smith J[Author] AND \"Lancet\"[Journal] AND \"Child\"[MeSH Terms] AND \"Humans\"[MeSH Terms] AND english[Language] AND hasabstract[text word] AND free full text[filter] AND humans[MeSH Terms]";
    assert_eq!(esearch_requests(&server)[0].param("term"), Some(want));
    let v = run.json();
    assert_eq!(v["effectiveQuery"], want);
    assert_eq!(v["query"], "asthma OR wheeze");
    let f = &v["appliedFilters"];
    assert_eq!(
        f["publicationTypes"],
        serde_json::json!(["Review", "Clinical Trial"])
    );
    assert_eq!(f["author"], "Smith J");
    assert_eq!(f["species"], "humans");
    assert_eq!(f["hasAbstract"], true);
    // a filter with nothing in it
    let run = search(&server, &["x", "--author", " \u{200B} ", "-f", "json"]);
    assert_eq!(run.code, 2);
    let e = run.error_json();
    assert_eq!(e["reason"], "blank_filter");
    assert!(e["message"].as_str().unwrap().contains("author"));
    assert_eq!(esearch_requests(&server).len(), 1);
}

#[test]
fn paging_limits_and_sort() {
    let server = Fake::default().start();
    let run = search(&server, &["cancer", "--retstart", "9999", "-f", "json"]);
    assert_eq!(run.code, 2);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    assert!(e["message"].as_str().unwrap().contains("9,999"), "{e}");
    let run = search(&server, &["cancer", "--retmax", "1001", "-f", "json"]);
    assert_eq!(run.code, 2);
    assert!(
        run.error_json()["message"]
            .as_str()
            .unwrap()
            .contains("1000")
    );
    let run = search(
        &server,
        &["cancer", "--retmax", "1001", "--detail", "brief"],
    );
    assert_eq!(run.code, 2);
    let run = search(&server, &["cancer", "--retmax", "10001", "-f", "ids"]);
    assert_eq!(run.code, 2);
    assert_eq!(server.count(), 0);

    let run = search(
        &server,
        &[
            "cancer",
            "--retstart",
            "9990",
            "--retmax",
            "20",
            "-f",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &esearch_requests(&server)[0];
    assert_eq!(r.param("retstart"), Some("9990"));
    assert_eq!(r.param("retmax"), Some("9"));
    assert_eq!(run.json()["warnings"][0]["kind"], "window_truncated");

    for (sort, sent) in [
        ("relevance", "relevance"),
        ("pub_date", "pub_date"),
        ("author", "Author"),
        ("journal", "JournalName"),
    ] {
        let server = Fake::default().start();
        search(&server, &["cancer", "--sort", sort]);
        assert_eq!(esearch_requests(&server)[0].param("sort"), Some(sent));
    }
    let server = Fake::default().start();
    let run = search(&server, &["cancer", "--retmax", "5", "--retstart", "10"]);
    let r = &esearch_requests(&server)[0];
    assert_eq!(
        (r.param("retmax"), r.param("retstart")),
        (Some("5"), Some("10"))
    );
    assert_eq!(r.param("sort"), None);
    assert_eq!(r.param("db"), Some("pubmed"));
    assert_eq!(run.code, 0);
}

#[test]
fn count_only() {
    let fake = Fake::default();
    fake.on_term(
        "cancer",
        String::from_utf8(fixture("esearch_pubmed_cancer_usehistory.xml")).unwrap(),
    );
    let server = fake.start();
    let run = search(&server, &["cancer", "--count"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "42249\n");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1, "no ESummary for a count");
    assert_eq!(reqs[0].param("retmax"), Some("0"));
    let run = search(&server, &["cancer", "--retmax", "0", "-f", "json"]);
    assert_eq!(run.json()["count"], 42249);
}

#[test]
fn ids_output_is_one_pmid_per_line_without_esummary() {
    let fake = Fake::default();
    fake.on_term(
        "biopython",
        String::from_utf8(fixture("esearch_pubmed_biopython.xml")).unwrap(),
    );
    let server = fake.start();
    // a pipe defaults to ids
    let run = search(&server, &["biopython"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(lines[0], "41282813");
    assert_eq!(lines[19], "37810457");
    assert!(server.requests().iter().all(|r| r.is("esearch.fcgi")));
    assert!(
        run.stderr.contains("63 hits; records 1–20"),
        "{}",
        run.stderr
    );
    let run = search(&server, &["biopython", "-f", "ids", "-q", "--retmax", "20"]);
    assert_eq!(run.stdout.lines().count(), 20);
    assert_eq!(run.stderr, "");
}

/// Issue 25: `search … | pubmed fetch` passed 20 of 249 PMIDs with only
/// the header line as a trace. A short page written to a pipe is a
/// warning naming `--all` and `--retmax`; `-q` keeps it unless the page
/// was asked for (`--retmax`/`--retstart`).
#[test]
fn a_short_page_in_a_pipe_is_a_warning_not_silenced_by_quiet() {
    let fake = Fake::default();
    fake.on_term(
        "biopython",
        String::from_utf8(fixture("esearch_pubmed_biopython.xml")).unwrap(),
    );
    let server = fake.start();
    const WARNING: &str = "pubmed: warning: wrote 20 of 63 PMIDs; pass --all for every PMID, or --retmax N for a larger page\n";
    for args in [
        &["biopython"][..],
        &["biopython", "-q"],
        &["biopython", "-f", "json", "-q"],
        &["biopython", "-f", "tsv", "--detail", "brief", "-q"],
    ] {
        let run = search(&server, args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(run.stderr.ends_with(WARNING), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.matches("warning: wrote").count(), 1);
    }
    assert_eq!(search(&server, &["biopython", "-q"]).stderr, WARNING);
    let run = search(&server, &["biopython", "--retmax", "10"]);
    assert!(
        run.stderr
            .ends_with("pubmed: warning: wrote 10 of 63 PMIDs; pass --all for every PMID, or --retmax N for a larger page\n"),
        "{}",
        run.stderr
    );
    // every hit on the page, or a count: nothing to warn about
    for args in [&["x"][..], &["x", "-f", "json"], &["biopython", "--count"]] {
        let run = search(&server, args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("warning"), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn query_notes_are_named_warnings() {
    let fake = Fake::default();
    fake.on_term(
        "cancer[xyz] AND fleegle",
        ncbi::esearch(
            2,
            0,
            &ids(&["11", "12"]),
            "cancer[All Fields]",
            &[("FieldNotFound", "xyz"), ("PhraseNotFound", "fleegle")],
            &[
                ("QuotedPhraseNotFound", "\"a b c\""),
                ("PhraseIgnored", "the"),
            ],
        ),
    );
    let server = fake.start();
    let run = search(&server, &["cancer[xyz] AND fleegle", "-f", "ids"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, "11\n12\n");
    for needle in ["field xyz", "fleegle", "\"a b c\"", "ignored the"] {
        assert!(run.stderr.contains(needle), "{needle}: {}", run.stderr);
    }
    let run = search(&server, &["cancer[xyz] AND fleegle", "-f", "json"]);
    let kinds: Vec<String> = run.json()["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        vec![
            "field_not_found",
            "phrase_not_found",
            "quoted_phrase_not_found",
            "phrase_ignored"
        ]
    );
    assert_eq!(
        run.json()["warnings"][0]["terms"],
        serde_json::json!(["xyz"])
    );

    // The real capture: an ErrorList that comes with hits.
    let fake = Fake::default();
    fake.on_term(
        "obstetrics[MeSH Terms] OR fleegle[MeSH Terms]",
        String::from_utf8(fixture("esearch_errorlist_with_results_2012.xml")).unwrap(),
    );
    let server = fake.start();
    let run = search(
        &server,
        &[
            "obstetrics[MeSH Terms] OR fleegle[MeSH Terms]",
            "-f",
            "json",
        ],
    );
    let v = run.json();
    assert_eq!(v["count"], 5163);
    assert_eq!(v["pmids"].as_array().unwrap().len(), 20);
    assert_eq!(v["warnings"][0]["kind"], "phrase_not_found");
    assert_eq!(
        v["warnings"][0]["terms"],
        serde_json::json!(["fleegle[MeSH Terms]"])
    );
    assert_eq!(v["queryTranslation"], "\"obstetrics\"[MeSH Terms]");
}

#[test]
fn esearch_error_is_an_error_not_zero_hits() {
    let fake = Fake::default();
    fake.on_term(
        "boom",
        ncbi::eutils_error("eSearchResult", "Search Backend failed: internal error"),
    );
    fake.on_term(
        "capped",
        ncbi::eutils_error(
            "eSearchResult",
            "Search Backend failed: Exception: 'retstart' cannot be larger than 9998. For PubMed, ESearch can only retrieve the first 9,999 records matching the query.",
        ),
    );
    let server = fake.start();
    let run = search(&server, &["boom", "-f", "json"]);
    assert_eq!(run.code, 69, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "ncbi_unreachable");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("Search Backend failed")
    );
    assert_eq!(run.stdout, "");
    assert_eq!(esearch_requests(&server).len(), 3, "retried");
    let run = search(&server, &["capped", "-f", "json"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.error_json()["reason"], "invalid_argument");
}

#[test]
fn zero_hits_note_and_spell() {
    let fake = Fake::default();
    let zero = String::from_utf8(fixture("esearch_zero_hits_phrase_not_found.xml")).unwrap();
    fake.on_term("alzhiemer diseese", zero.clone());
    fake.on_term(
        "alzheimer disease",
        ncbi::esearch(2, 0, &ids(&["41", "42"]), "alzheimer", &[], &[]),
    );
    fake.espell.lock().unwrap().insert(
        "alzhiemer diseese".into(),
        ncbi::espell(
            "alzhiemer diseese",
            &[("O", ""), ("R", "alzheimer"), ("O", " "), ("R", "disease")],
        ),
    );
    let server = fake.start();
    let run = search(&server, &["alzhiemer diseese"]);
    assert_eq!(run.code, 0, "zero hits is a success");
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("zero hits do not prove"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("pubmed spell"), "{}", run.stderr);
    assert!(!run.stderr.contains("No items found"), "{}", run.stderr);
    assert!(server.requests().iter().all(|r| !r.is("espell.fcgi")));

    let run = search(&server, &["alzhiemer diseese", "--spell", "-f", "json"]);
    let v = run.json();
    assert_eq!(v["count"], 0);
    assert_eq!(v["spell"]["corrected"], "alzheimer disease");
    assert_eq!(v["spell"]["applied"], false);
    let run = search(&server, &["alzhiemer diseese", "--spell"]);
    assert!(
        run.stderr.contains("did you mean \"alzheimer disease\""),
        "{}",
        run.stderr
    );

    let run = search(
        &server,
        &["alzhiemer diseese", "--spell=apply", "-f", "json"],
    );
    let v = run.json();
    assert_eq!(v["count"], 2);
    assert_eq!(v["effectiveQuery"], "alzheimer disease");
    assert_eq!(v["pmids"], serde_json::json!(["41", "42"]));
    assert_eq!(v["warnings"][0]["kind"], "spell_applied");
    assert_eq!(v["spell"]["applied"], true);
}

#[test]
fn field_is_validated_and_sent() {
    let server = Fake::default().start();
    let run = search(&server, &["crispr", "--field", "title"]);
    assert_eq!(run.code, 0);
    assert_eq!(esearch_requests(&server)[0].param("field"), Some("TITL"));
    let run = search(&server, &["crispr", "--field", "tiab"]);
    assert_eq!(run.code, 0);
    assert_eq!(esearch_requests(&server)[1].param("field"), Some("TIAB"));
    let run = search(&server, &["crispr", "--field", "bogus", "-f", "json"]);
    assert_eq!(run.code, 2);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    assert!(e["message"].as_str().unwrap().contains("TITL"));
    assert_eq!(esearch_requests(&server).len(), 2);
}

#[test]
fn real_esummary_capture_fields() {
    let fake = Fake::default();
    fake.on_term(
        "genbank",
        ncbi::esearch(2, 0, &ids(&["5683731", "22144687"]), "genbank", &[], &[]),
    );
    let server = {
        let me = fake.clone();
        TestServer::start(move |r| {
            if r.is("esummary.fcgi") {
                assert_eq!(r.param("version"), Some("2.0"));
                Reply::xml(fixture("esummary_v2_pubmed_2012.xml"))
            } else {
                me.reply(r)
            }
        })
    };
    let run = search(&server, &["genbank", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let s = &v["summaries"];
    assert_eq!(s[0]["pmid"], "5683731");
    assert_eq!(s[0]["title"], "An assistive device for smoking.");
    assert_eq!(
        s[0]["authors"],
        serde_json::json!(["Goldberg MJ", "Davis LJ"])
    );
    assert_eq!(s[0]["journal"], "Paraplegia");
    assert_eq!(s[0]["pubDate"], "1968-08");
    assert_eq!(s[0]["pubDateText"], "1968 Aug");
    assert_eq!(s[0]["doi"], "10.1038/sc.1968.18");
    assert_eq!(s[0]["pmcid"], serde_json::Value::Null);
    assert_eq!(s[1]["pmid"], "22144687");
    assert_eq!(s[1]["pmcid"], "PMC3245039");
    assert_eq!(s[1]["doi"], "10.1093/nar/gkr1202");
    assert_eq!(s[1]["pubDate"], "2012-01");
    assert_eq!(s[1]["fullJournalName"], "Nucleic acids research");
    assert_eq!(
        s[1]["pubmedUrl"],
        "https://pubmed.ncbi.nlm.nih.gov/22144687/"
    );
    assert_eq!(s[1]["retracted"], false);
}

fn retracted_fake() -> Fake {
    let fake = Fake::default();
    fake.on_term(
        "x",
        ncbi::esearch(2, 0, &ids(&["7", "8"]), "x[All Fields]", &[], &[]),
    );
    let mut bad = Doc::new("7");
    bad.title = "<i>In vivo</i> CO<sub>2</sub> &amp; &#946;-cells\n\t in  mice".into();
    bad.pub_types = vec!["Journal Article".into(), "Retracted Publication".into()];
    bad.pub_date = "2012 Winter".into();
    bad.pmc = Some("PMC99".into());
    bad.doi = None;
    bad.elocation = "pii: S01. doi: 10.5555/retracted.1".into();
    let mut notice = Doc::new("8");
    notice.pub_types = vec!["Retraction of Publication".into()];
    fake.doc(bad).doc(notice);
    fake
}

#[test]
fn titles_are_clean_and_retractions_flagged_in_every_format() {
    let server = retracted_fake().start();
    let clean = "In vivo CO2 & β-cells in mice";

    let run = search(&server, &["x", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let s = &run.json()["summaries"];
    assert_eq!(s[0]["title"], clean);
    assert_eq!(s[0]["retracted"], true);
    assert_eq!(s[0]["retractionNotice"], false);
    assert_eq!(s[1]["retractionNotice"], true);
    assert_eq!(s[0]["pubDate"], "2012");
    assert_eq!(s[0]["pubDateText"], "2012 Winter");
    assert_eq!(s[0]["pmcid"], "PMC99");
    assert_eq!(s[0]["doi"], "10.5555/retracted.1");

    let run = search(&server, &["x", "-f", "json", "--detail", "brief"]);
    let s = &run.json()["summaries"];
    assert_eq!(s[0]["retracted"], true);
    assert_eq!(s[0]["title"], clean);
    assert!(s[0].get("authors").is_none(), "brief has no authors");

    let run = search(&server, &["x", "-f", "ndjson"]);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["retracted"], true);
    assert_eq!(lines[0]["title"], clean);

    let run = search(&server, &["x", "-f", "table"]);
    assert!(run.stdout.contains("RETRACTED"), "{}", run.stdout);
    assert!(run.stdout.contains("RETRACTION NOTICE"), "{}", run.stdout);
    assert!(run.stdout.contains("Smith J et al."));
    assert!(
        run.stderr.contains("searched as: x[All Fields]"),
        "{}",
        run.stderr
    );

    let run = search(&server, &["x", "-f", "csv"]);
    let mut r = csv::Reader::from_reader(run.stdout.as_bytes());
    let headers = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 2);
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    assert_eq!(&rows[0][col("retracted")], "true");
    assert_eq!(&rows[0][col("title")], clean);
    assert_eq!(&rows[1][col("retraction_notice")], "true");

    let run = search(&server, &["x", "-f", "tsv"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "header + one line per record");
    let head: Vec<&str> = lines[0].split('\t').collect();
    let row: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(head.len(), row.len());
    assert_eq!(
        row[head.iter().position(|h| *h == "retracted").unwrap()],
        "true"
    );
}

#[test]
fn missing_summaries_are_listed() {
    let fake = Fake::default();
    fake.summary_errors
        .lock()
        .unwrap()
        .insert("32".into(), "cannot get document summary".into());
    let server = fake.start();
    let run = search(&server, &["x", "-f", "json"]);
    let v = run.json();
    assert_eq!(v["summaries"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["missing"],
        serde_json::json!([{"pmid": "32", "message": "cannot get document summary"}])
    );
    let run = search(&server, &["x", "-f", "ndjson"]);
    assert!(
        run.stderr.contains("no summary for PMID 32"),
        "{}",
        run.stderr
    );
}

/// The JSON shape documented in README ("JSON output of search"): every
/// field present with its type.
#[test]
fn json_output_has_the_documented_shape() {
    let server = retracted_fake().start();
    let run = search(&server, &["x", "--mindate", "2020", "-f", "json"]);
    let v = run.json();
    let obj = v.as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        vec![
            "appliedFilters",
            "count",
            "effectiveQuery",
            "missing",
            "pmids",
            "query",
            "queryTranslation",
            "retmax",
            "retstart",
            "searchUrl",
            "summaries",
            "warnings"
        ]
    );
    assert!(v["query"].is_string());
    assert!(v["effectiveQuery"].is_string());
    assert!(v["queryTranslation"].is_string());
    assert!(v["count"].is_u64());
    assert_eq!(v["retstart"], 0);
    assert_eq!(v["retmax"], 20);
    assert_eq!(v["pmids"], serde_json::json!(["7", "8"]));
    assert!(v["missing"].as_array().unwrap().is_empty());
    assert_eq!(
        v["searchUrl"],
        "https://pubmed.ncbi.nlm.nih.gov/?term=%28x%29+AND+%28%222020%22%5BDate+-+Publication%5D+%3A+%223000%22%5BDate+-+Publication%5D%29"
    );
    assert_eq!(
        v["appliedFilters"],
        serde_json::json!({"dateRange": {"minDate": "2020", "maxDate": "3000", "dateType": "pdat"}})
    );
    let w = &v["warnings"][0];
    assert!(w["kind"].is_string() && w["message"].is_string());
    let s = v["summaries"][1].as_object().unwrap();
    let mut fields: Vec<&str> = s.keys().map(String::as_str).collect();
    fields.sort();
    assert_eq!(
        fields,
        vec![
            "authors",
            "doi",
            "fullJournalName",
            "journal",
            "pmcid",
            "pmid",
            "pubDate",
            "pubDateText",
            "pubTypes",
            "pubmedUrl",
            "retracted",
            "retractionNotice",
            "title"
        ]
    );
    assert!(s["authors"].is_array() && s["pubTypes"].is_array());
    assert!(s["retracted"].is_boolean() && s["retractionNotice"].is_boolean());
    assert_eq!(s["doi"], "10.1000/test.8");
    assert_eq!(s["pubDate"], "2020-01-15");
}

#[test]
fn search_offers_its_formats_only() {
    let server = Fake::default().start();
    let run = search(&server, &["x", "-f", "text"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--format text"), "{}", run.stderr);
    assert_eq!(server.count(), 0);
}

/// `--spell=apply` searches only corrections that lined up: none when
/// ESpell's answer lost alignment at once, and only those before the loss
/// otherwise.
#[test]
fn spell_apply_never_searches_a_correction_that_lost_alignment() {
    let fake = Fake::default();
    let zero = String::from_utf8(fixture("esearch_zero_hits_phrase_not_found.xml")).unwrap();
    for q in ["covid 19 vacine efficasy", "asthmaa OR alergies 2020"] {
        fake.on_term(q, zero.clone());
    }
    fake.on_term(
        "asthma OR alergies 2020",
        ncbi::esearch(1, 0, &ids(&["51"]), "asthma", &[], &[]),
    );
    fake.espell.lock().unwrap().insert(
        "covid 19 vacine efficasy".into(),
        ncbi::espell(
            "covid 19 vacine efficasy",
            &[
                ("O", "covid "),
                ("R", "vaccine"),
                ("O", " "),
                ("R", "efficacy"),
            ],
        ),
    );
    fake.espell.lock().unwrap().insert(
        "asthmaa OR alergies 2020".into(),
        ncbi::espell(
            "asthmaa OR alergies 2020",
            &[
                ("O", ""),
                ("R", "asthma"),
                ("O", " OR "),
                ("R", "allergies"),
            ],
        ),
    );
    let server = fake.start();
    let run = search(
        &server,
        &["covid 19 vacine efficasy", "--spell=apply", "-f", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["count"], 0);
    assert_eq!(v["spell"]["hasSuggestion"], false);
    assert_eq!(v["spell"]["applied"], false);
    let terms: Vec<String> = esearch_requests(&server)
        .iter()
        .map(|r| r.param("term").unwrap_or_default().to_string())
        .collect();
    assert_eq!(terms, vec!["covid 19 vacine efficasy"]);

    // "allergies" stands where ESpell left "2020" out: only "asthma" is searched.
    let run = search(
        &server,
        &["asthmaa OR alergies 2020", "--spell=apply", "-f", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["effectiveQuery"], "asthma OR alergies 2020");
    assert_eq!(v["pmids"], serde_json::json!(["51"]));
    assert_eq!(v["spell"]["corrected"], "asthma OR alergies 2020");
}

/// `<To>` of PubMed's translation of `heart attack` (the shape of the
/// `cancer` capture: the MeSH heading, its words, the typed words).
const HEART_ATTACK_TO: &str = "\"myocardial infarction\"[MeSH Terms] OR (\"myocardial\"[All Fields] AND \"infarction\"[All Fields]) OR \"myocardial infarction\"[All Fields] OR (\"heart\"[All Fields] AND \"attack\"[All Fields]) OR \"heart attack\"[All Fields]";

fn warning_kinds(v: &serde_json::Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap().to_string())
        .collect()
}

/// PubMed mapping a term to a different concept is said first, with each
/// `from → to`; a term under its own heading, an author name or a journal
/// abbreviation is not a different concept.
#[test]
fn translated_concepts_are_warned_first() {
    let fake = Fake::default();
    fake.on_term(
        "heart attack",
        ncbi::esearch_translated(
            2,
            0,
            &ids(&["61", "62"]),
            &[("heart attack", HEART_ATTACK_TO)],
            HEART_ATTACK_TO,
            &[],
            &[],
        ),
    );
    for (term, file) in [
        ("cancer", "esearch_pubmed_cancer_usehistory.xml"),
        ("PNAS[ta] AND 97[vi]", "esearch_pubmed_pnas_retstart.xml"),
        ("hart rk[author]", "esearch_pubmed_author_usehistory.xml"),
        (
            "stem cells AND hasabstract",
            "esearch_pmc_translationstack.xml",
        ),
    ] {
        fake.on_term(term, String::from_utf8(fixture(file)).unwrap());
    }
    let server = fake.start();
    let run = search(
        &server,
        &["heart attack", "--mindate", "2020", "-f", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(warning_kinds(&v), vec!["translated", "date_bound_filled"]);
    let w = &v["warnings"][0];
    assert_eq!(
        w["terms"],
        serde_json::json!(["heart attack → \"myocardial infarction\"[MeSH Terms]"])
    );
    let msg = w["message"].as_str().unwrap();
    assert!(
        msg.contains("heart attack → \"myocardial infarction\"[MeSH Terms]")
            && msg.contains("the count is for the translated query"),
        "{msg}"
    );
    // human formats: on stderr, first
    let run = search(&server, &["heart attack", "-f", "ids"]);
    assert_eq!(run.stdout, "61\n62\n");
    let first_warning = run.stderr.lines().find(|l| l.contains("warning:"));
    assert!(
        first_warning.is_some_and(|l| l.contains("different concept")),
        "{}",
        run.stderr
    );
    // the real captures
    let run = search(&server, &["cancer", "-f", "json", "--retmax", "5"]);
    let v = run.json();
    assert_eq!(
        v["warnings"][0]["terms"],
        serde_json::json!(["cancer → \"neoplasms\"[MeSH Terms]"])
    );
    for term in [
        "PNAS[ta] AND 97[vi]",
        "hart rk[author]",
        "stem cells AND hasabstract",
    ] {
        let run = search(
            &server,
            &[term, "-f", "json", "--retmax", "6", "--retstart", "6"],
        );
        assert_eq!(run.code, 0, "{term}: {}", run.stderr);
        assert!(
            !warning_kinds(&run.json()).contains(&"translated".to_string()),
            "{term}"
        );
    }
}

#[test]
fn unbalanced_syntax_is_searched_as_typed_with_a_warning() {
    let server = Fake::default().start();
    for (q, what) in [
        ("risk AND (cancer OR tumor", "1 \"(\" not closed"),
        ("a) OR b", "1 \")\" without a \"(\""),
        ("\"breast cancer", "a double quote not closed"),
    ] {
        let run = search(&server, &[q, "-f", "json"]);
        assert_eq!(run.code, 0, "{q}: {}", run.stderr);
        let v = run.json();
        assert_eq!(v["effectiveQuery"], q);
        let w = &v["warnings"][0];
        assert_eq!(w["kind"], "unbalanced_syntax", "{q}");
        assert!(w["message"].as_str().unwrap().contains(what), "{q}: {w}");
        let run = search(&server, &[q, "-f", "ids"]);
        assert!(run.stderr.contains("do not pair"), "{}", run.stderr);
    }
    let run = search(&server, &["(a OR \"b (c\")", "-f", "json"]);
    assert!(!warning_kinds(&run.json()).contains(&"unbalanced_syntax".to_string()));
    let sent: Vec<String> = esearch_requests(&server)
        .iter()
        .map(|r| r.param("term").unwrap_or_default().to_string())
        .collect();
    assert_eq!(sent[0], "risk AND (cancer OR tumor", "searched as typed");
}

/// Every EInfo field name and full name, and the short tags, any case.
#[test]
fn field_accepts_every_einfo_name() {
    let server = Fake::default().start();
    for (value, sent) in [
        ("GRNT", "GRNT"),
        ("Grant", "GRNT"),
        ("grants and funding", "GRNT"),
        ("gr", "GRNT"),
        ("Date - Publication", "PDAT"),
        ("dp", "PDAT"),
        ("MAJR", "MAJR"),
        ("mesh major topic", "MAJR"),
        ("Author - First", "FAUT"),
        ("1au", "FAUT"),
        ("Extended PMID", "EID"),
        ("title/abstract", "TIAB"),
    ] {
        let before = esearch_requests(&server).len();
        let run = search(&server, &["crispr", "--field", value]);
        assert_eq!(run.code, 0, "{value}: {}", run.stderr);
        assert_eq!(
            esearch_requests(&server)[before].param("field"),
            Some(sent),
            "{value}"
        );
    }
}

/// `missing` is null when no summaries were fetched, `[]` when they were
/// and none is missing.
#[test]
fn missing_is_null_without_summaries() {
    let server = Fake::default().start();
    for args in [
        vec!["x", "-f", "json", "--detail", "ids"],
        vec!["x", "-f", "json", "--count"],
        vec!["x", "-f", "json", "--retmax", "0"],
    ] {
        let run = search(&server, &args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(run.json()["missing"], serde_json::Value::Null, "{args:?}");
    }
    let run = search(&server, &["x", "-f", "json"]);
    assert_eq!(run.json()["missing"], serde_json::json!([]));
    // zero hits: nothing to summarise
    let fake = Fake::default();
    fake.on_term(
        "none",
        String::from_utf8(fixture("esearch_zero_hits_phrase_not_found.xml")).unwrap(),
    );
    let server = fake.start();
    let run = search(&server, &["none", "-f", "json"]);
    assert_eq!(run.json()["missing"], serde_json::Value::Null);
}

/// ESearch answers that contradict themselves are retried and, if they
/// persist, `ncbi_invalid_response` — never a short page with exit 0.
#[test]
fn self_contradicting_esearch_answers_are_upstream_faults() {
    let short = ncbi::esearch(5, 0, &ids(&["1", "2"]), "x[All Fields]", &[], &[]);
    let empty = ncbi::esearch(5, 0, &[], "x[All Fields]", &[], &[]);
    let dup = ncbi::esearch(3, 0, &ids(&["7", "8", "7"]), "x[All Fields]", &[], &[]);
    for (name, body) in [("short page", short), ("no IDs", empty), ("duplicate", dup)] {
        let b = body.clone();
        let server = TestServer::start(move |_| Reply::xml(b.clone()));
        let run = search(&server, &["x", "-f", "json", "--detail", "ids"]);
        assert_eq!(run.code, 69, "{name}: {}", run.stderr);
        let e = run.error_json();
        assert_eq!(e["reason"], "ncbi_invalid_response", "{name}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("contradicted itself"),
            "{name}: {e}"
        );
        assert_eq!(run.stdout, "");
        // the same answer twice cannot change: one retry only
        assert_eq!(server.count(), 2, "{name}: retried once");
    }
    // a fault that passes: the second answer is used
    let calls = Arc::new(Mutex::new(0));
    let seen = calls.clone();
    let server = TestServer::start(move |_| {
        let mut n = seen.lock().unwrap();
        *n += 1;
        if *n == 1 {
            Reply::xml(ncbi::esearch(3, 0, &ids(&["1"]), "x", &[], &[]))
        } else {
            Reply::xml(ncbi::esearch(3, 0, &ids(&["1", "2", "3"]), "x", &[], &[]))
        }
    });
    let run = search(&server, &["x", "-f", "ids"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "1\n2\n3\n");
    assert_eq!(server.count(), 2);
    // the last page of a query holds only what is left
    let server =
        TestServer::start(|_| Reply::xml(ncbi::esearch(12, 10, &ids(&["1", "2"]), "x", &[], &[])));
    let run = search(&server, &["x", "-f", "ids", "--retstart", "10"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(server.count(), 1);
}

/// In `--all`, a range whose answers keep contradicting themselves fails
/// with `ncbi_invalid_response` and the run exits non-zero; the other
/// ranges' PMIDs are still written, each once.
#[test]
fn search_all_fails_a_range_whose_pages_are_short() {
    use support::fake_ncbi::{Corpus, FakeNcbi};
    let corpus = Corpus::synthetic();
    let expected = corpus.hits("hits10000");
    let fake = FakeNcbi::new(corpus);
    let f = fake.clone();
    let server = TestServer::start(move |req| {
        let term = req.param("term").unwrap_or_default();
        if req.is("esearch.fcgi") && term.contains(") AND 1:") {
            // The lowest range: Count says thousands, the page holds two.
            return Reply::xml(ncbi::esearch(5000, 0, &ids(&["1", "2"]), "x", &[], &[]));
        }
        f.reply(req)
    });
    let run = pubmed(&["search", "hits10000", "--all"])
        .server(&server)
        .run();
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(
        run.stderr.contains("failed") && run.stderr.contains("[ncbi_invalid_response]"),
        "{}",
        run.stderr
    );
    let written: Vec<u64> = run.stdout.lines().map(|l| l.parse().unwrap()).collect();
    let unique: std::collections::HashSet<u64> = written.iter().copied().collect();
    assert_eq!(unique.len(), written.len(), "a PMID was written twice");
    assert!(written.iter().all(|p| expected.contains(p)));
    assert!(!written.is_empty() && written.len() < expected.len());
    let short_range_requests = server
        .requests()
        .iter()
        .filter(|r| r.param("term").is_some_and(|t| t.contains(") AND 1:")))
        .count();
    // the same short page twice: one retry only (issue 25 item 10)
    assert_eq!(short_range_requests, 2, "retried once, then failed");
}

/// `--all` with summaries follows the batch exit rule: every PMID without
/// its summary is nothing found (exit 1); some found is 0.
#[test]
fn search_all_exit_status_follows_the_batch_rule() {
    let fake = Fake::default();
    for id in ["31", "32", "33"] {
        fake.summary_errors
            .lock()
            .unwrap()
            .insert(id.into(), "cannot get document summary".into());
    }
    let server = fake.start();
    let run = search(
        &server,
        &["x", "--all", "-f", "ndjson", "--detail", "brief"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().count(),
        3,
        "each PMID still has its line"
    );
    fake.summary_errors.lock().unwrap().remove("32");
    let run = search(
        &server,
        &["x", "--all", "-f", "ndjson", "--detail", "brief"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// Issue 25 item 16: a title from NCBI starting `=` went into the CSV raw
/// (a spreadsheet runs it). Prefixed with `'` (OWASP), raw with
/// `PUBMED_RAW_CELLS=1`; a bad value names the variable.
#[test]
fn formula_like_cells_are_prefixed_in_csv_and_tsv_unless_raw() {
    let fake = Fake::default();
    let mut d = Doc::new("31");
    d.title = "=HYPERLINK(\"http://evil.example\",\"click\")".into();
    fake.doc(d);
    let mut d = Doc::new("32");
    d.title = "-omics of @home sequencing".into();
    fake.doc(d);
    let server = fake.start();
    let run = search(&server, &["x", "-f", "csv", "--detail", "brief"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[1].contains(",\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\","),
        "{}",
        run.stdout
    );
    assert!(
        lines[2].contains(",'-omics of @home sequencing,"),
        "{}",
        run.stdout
    );
    let run = search(&server, &["x", "-f", "tsv", "--detail", "brief"]);
    assert!(
        run.stdout
            .lines()
            .nth(1)
            .unwrap()
            .contains("\t'=HYPERLINK("),
        "{}",
        run.stdout
    );
    let run = pubmed(&["search", "x", "-f", "csv", "--detail", "brief"])
        .server(&server)
        .env("PUBMED_RAW_CELLS", "1")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[1].contains(",\"=HYPERLINK("), "{}", run.stdout);
    assert!(
        lines[2].contains(",-omics of @home sequencing,"),
        "{}",
        run.stdout
    );
    let run = pubmed(&["search", "x", "-f", "csv"])
        .server(&server)
        .env("PUBMED_RAW_CELLS", "maybe")
        .run();
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "pubmed: error: PUBMED_RAW_CELLS takes true or false (also on/off, yes/no, 1/0), not \"maybe\" [invalid_argument]\npubmed: hint: set PUBMED_RAW_CELLS to 1 or 0, or unset it\n"
    );
}
