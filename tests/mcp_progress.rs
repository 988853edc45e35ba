//! Issue 27: `notifications/progress` for calls that carry
//! `_meta.progressToken`, received by rmcp's client from `pubmed mcp` on
//! stdio against the fake NCBI. The expected sequences follow from the
//! request sizes and the batch sizes of `src/ncbi/limits.rs` (ESummary and
//! EFetch take up to 1,000 PMIDs a request), and the request counts come
//! from the fake's own counters.

use std::process::Stdio;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ProgressNotificationParam};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

use crate::support;
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::mcp::{command, start};

/// A client that keeps every progress notification it receives.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<ProgressNotificationParam>>>);

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params);
    }
}

struct Progress {
    fake: Arc<FakeNcbi>,
    _server: support::server::TestServer,
    c: RunningService<RoleClient, Recorder>,
    seen: Recorder,
    _home: tempfile::TempDir,
}

async fn session() -> Progress {
    let mut corpus = Corpus::default();
    corpus.add_uniform("hits5000", 5_000, 1_000_000, 41_000_000, 11);
    let fake = FakeNcbi::new(corpus);
    let server = start(&fake);
    let home = tempfile::tempdir().unwrap();
    let (transport, _stderr) = TokioChildProcess::builder(command(&server, home.path()))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let seen = Recorder::default();
    let c = seen.clone().serve(transport).await.unwrap();
    Progress {
        fake,
        _server: server,
        c,
        seen,
        _home: home,
    }
}

impl Progress {
    /// Calls `tool`; the progress notifications it got. rmcp's client puts
    /// a progress token of its own (a counter) in every request's `_meta`,
    /// so every call here carries one.
    async fn call(
        &self,
        tool: &'static str,
        args: Value,
    ) -> (CallToolResult, Vec<ProgressNotificationParam>) {
        self.seen.0.lock().unwrap().clear();
        let p = CallToolRequestParams::new(tool).with_arguments(args.as_object().cloned().unwrap());
        let r = self.c.call_tool(p).await.unwrap();
        // The server sends every notification before the answer; the
        // client's handler may still be running on the last one.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mine: Vec<ProgressNotificationParam> = self.seen.0.lock().unwrap().clone();
        let token = mine.first().map(|n| n.progress_token.clone());
        assert!(
            mine.iter()
                .all(|n| Some(&n.progress_token) == token.as_ref()),
            "one token per call: {mine:?}"
        );
        (r, mine)
    }

    fn requests(&self) -> (usize, usize, usize, usize) {
        let c = &self.fake.counters;
        (
            c.esearch.load(Ordering::SeqCst),
            c.esummary.load(Ordering::SeqCst),
            c.efetch.load(Ordering::SeqCst),
            c.elink.load(Ordering::SeqCst),
        )
    }
}

/// `(progress, total, message)` of each notification.
fn steps(n: &[ProgressNotificationParam]) -> Vec<(f64, Option<f64>, String)> {
    n.iter()
        .map(|p| (p.progress, p.total, p.message.clone().unwrap_or_default()))
        .collect()
}

/// A search for 1,000 of 5,000 hits is one ESearch and one ESummary (up to
/// 1,000 PMIDs a request): one notification as ESearch answers (0 of the
/// 1,000 summaries) and one as the summaries are in.
#[tokio::test]
async fn a_search_of_1000_reports_esearch_then_the_summaries() {
    let s = session().await;
    let (r, n) = s
        .call(
            "pubmed_search_articles",
            json!({"query": "hits5000", "maxResults": 1000}),
        )
        .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(s.requests(), (1, 1, 0, 0));
    assert_eq!(
        steps(&n),
        [
            (0.0, Some(1000.0), "0 records, 1 NCBI request".to_string()),
            (
                1000.0,
                Some(1000.0),
                "1000 records, 2 NCBI requests".to_string()
            ),
        ]
    );
    // detail ids: ESearch only, one notification, 0 of 0
    let (_, n) = s
        .call(
            "pubmed_search_articles",
            json!({"query": "hits5000", "maxResults": 1000, "detail": "ids"}),
        )
        .await;
    assert_eq!(
        steps(&n),
        [(0.0, Some(0.0), "0 records, 1 NCBI request".to_string())]
    );
}

/// related for one PMID is one chunk (ELink, then ESummary for the links):
/// one notification, 1 of 1, naming both requests.
#[tokio::test]
async fn related_reports_its_one_chunk() {
    let s = session().await;
    let (r, n) = s
        .call(
            "pubmed_find_related",
            json!({"pmid": "1234", "kind": "similar"}),
        )
        .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let (_, esummary, _, elink) = s.requests();
    assert_eq!((esummary, elink), (1, 1));
    assert_eq!(
        steps(&n),
        [(1.0, Some(1.0), "1 record, 2 NCBI requests".to_string())]
    );
}

/// cite of 50 PMIDs (its limit) is one EFetch chunk, in every format.
#[tokio::test]
async fn cite_reports_each_chunk_in_every_format() {
    let s = session().await;
    for (i, format) in ["text", "ris", "bibtex", "csl-json"].iter().enumerate() {
        // other PMIDs each time: none comes from the local cache
        let from = 11_700_000 + 100 * i as u64;
        let pmids: Vec<String> = (1..=50).map(|n| (from + n).to_string()).collect();
        let (r, n) = s
            .call(
                "pubmed_format_citations",
                json!({"pmids": pmids, "format": format}),
            )
            .await;
        assert_eq!(r.is_error, Some(false), "{format}: {r:?}");
        assert_eq!(s.requests().2, i + 1, "one EFetch per call");
        assert_eq!(
            steps(&n),
            [(50.0, Some(50.0), "50 records, 1 NCBI request".to_string())],
            "{format}"
        );
    }
}

/// pubmed_fetch_fulltext of two PMCIDs is one chunk: one notification as
/// it completes, 2 of 2 records.
#[tokio::test]
async fn fulltext_reports_its_chunk() {
    let s = session().await;
    let (r, n) = s
        .call(
            "pubmed_fetch_fulltext",
            json!({"ids": ["PMC3460867", "PMC1"], "maxCharacters": 2000}),
        )
        .await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    let st = steps(&n);
    assert_eq!(st.len(), 1, "{st:?}");
    assert_eq!((st[0].0, st[0].1), (2.0, Some(2.0)));
    assert!(st[0].2.starts_with("2 records, "), "{st:?}");
}

/// pubmed_lookup_citation of three references no DOI names is one
/// ECitMatch chunk: one notification as it is answered, 3 of 3 records.
#[tokio::test]
async fn lookup_citation_reports_its_chunk() {
    let s = session().await;
    let (r, n) = s
        .call(
            "pubmed_lookup_citation",
            json!({"citations": [
                "j unknown|2001|1|1|nobody|a|",
                "j unknown|2001|2|2|nobody|b|",
                "j unknown|2001|3|3|nobody|c|"
            ]}),
        )
        .await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    let st = steps(&n);
    assert_eq!(st.len(), 1, "{st:?}");
    assert_eq!((st[0].0, st[0].1), (3.0, Some(3.0)));
}
