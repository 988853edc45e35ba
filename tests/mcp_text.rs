//! Issue 27: the wording of the tools' text blocks, for the real ESummary
//! records of `esummary_v2_pubmed_2012.xml` (PMIDs 5683731 and 22144687):
//! related lists the authors its description promises, counts of one are
//! singular ("1 result", "1 PMID"), and search points to fetch.

use std::sync::Arc;

use rmcp::model::CallToolResult;
use serde_json::json;

use crate::support;
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::mcp::{call, client};
use support::ncbi::{ElinkSet, elink, esearch};
use support::server::{Reply, TestServer, fixture};

/// The capture's PMIDs, in its order.
const CAPTURED: [&str; 2] = ["5683731", "22144687"];

/// ESummary answers with the real capture; ELink lists both of its PMIDs
/// as similar articles and only 22144687 as a reference; ESearch finds
/// 22144687 alone; the rest is the fake NCBI.
fn start() -> TestServer {
    let fake: Arc<FakeNcbi> = FakeNcbi::new(Corpus::default());
    TestServer::start(move |r| {
        if r.is("esummary.fcgi") {
            return Reply::xml(fixture("esummary_v2_pubmed_2012.xml"));
        }
        if r.is("esearch.fcgi") {
            let ids = [CAPTURED[1].to_string()];
            return Reply::xml(esearch(1, 0, &ids, "GenBank[Title]", &[], &[]));
        }
        if r.is("elink.fcgi") {
            let linkname = r.param("linkname").unwrap_or("pubmed_pubmed").to_string();
            let links: &[&str] = if linkname.ends_with("_refs") {
                &CAPTURED[1..]
            } else {
                &CAPTURED
            };
            return Reply::xml(elink(&[ElinkSet {
                ids: vec!["9298984".into()],
                linkname,
                links: links.iter().map(|p| (p.to_string(), None)).collect(),
            }]));
        }
        fake.reply(r)
    })
}

fn text(r: &CallToolResult) -> String {
    assert_eq!(r.is_error, Some(false), "{r:?}");
    r.content[0].as_text().unwrap().text.clone()
}

#[tokio::test]
async fn related_lists_authors_and_counts_of_one_are_singular() {
    let server = start();
    let home = tempfile::tempdir().unwrap();
    let c = client(&server, home.path()).await;
    let r = call(&c, "pubmed_find_related", json!({"pmid": "9298984"})).await;
    // Title, authors (three, then "et al."), journal (Source), PubDate at
    // its precision, DOI and PMCID (ArticleId doi / pmc) of the capture.
    assert_eq!(
        text(&r),
        "**2 similar articles** for PMID 9298984 (showing 2):\n\
         1. PMID 5683731 — An assistive device for smoking. — Goldberg MJ, Davis LJ (Paraplegia, 1968-08) doi:10.1038/sc.1968.18\n\
         2. PMID 22144687 — GenBank. — Benson DA, Karsch-Mizrachi I, Clark K, et al. (Nucleic Acids Res, 2012-01) doi:10.1093/nar/gkr1202 PMC3245039"
    );
    let r = call(
        &c,
        "pubmed_find_related",
        json!({"pmid": "9298984", "kind": "references"}),
    )
    .await;
    assert!(
        text(&r).starts_with("**1 reference** for PMID 9298984 (showing 1):\n1. PMID 22144687 — "),
        "{}",
        text(&r)
    );
    let r = call(
        &c,
        "pubmed_search_articles",
        json!({"query": "GenBank[ti]"}),
    )
    .await;
    assert_eq!(
        text(&r),
        "**1 result** for `GenBank[ti]`; 1 PMID returned (record 1)\n\
         Searched as: `GenBank[Title]`\n\n\
         1. PMID 22144687 — GenBank. — Benson DA et al. (Nucleic Acids Res, 2012-01) doi:10.1093/nar/gkr1202 PMC3245039"
    );
    let r = call(&c, "pubmed_fetch_articles", json!({"pmids": ["1201"]})).await;
    assert!(
        text(&r).starts_with("Fetched 1 of 1 PMID, one line each"),
        "{}",
        text(&r)
    );
    let r = call(
        &c,
        "pubmed_convert_ids",
        json!({"ids": ["1201"], "idType": "pmid"}),
    )
    .await;
    assert!(text(&r).starts_with("Converted 1 of 1 ID:"), "{}", text(&r));
    // The search description names fetch as the next step.
    let tools = c.list_all_tools().await.unwrap();
    let search = tools
        .iter()
        .find(|t| t.name == "pubmed_search_articles")
        .unwrap();
    let d = search.description.as_deref().unwrap_or_default();
    let first = d.split("\n\n").next().unwrap();
    assert!(
        first.contains("then read the articles with pubmed_fetch_articles"),
        "{first}"
    );
    assert!(!d.contains("pubmed_convert_ids"), "{d}");
    c.cancel().await.unwrap();
}

/// Issue 27 "the same rules": the alias table reaches the newer tools —
/// `query`/`limit` are pubmed_lookup_mesh's `term`/`max`, `pmcids` and
/// `max_characters` pubmed_fetch_fulltext's `ids`/`maxCharacters`.
#[tokio::test]
async fn aliases_reach_mesh_and_fulltext() {
    let support::mcp::Session {
        c,
        _home,
        server: _s,
        fake: _f,
    } = support::mcp::session().await;
    let ours = call(
        &c,
        "pubmed_lookup_mesh",
        json!({"term": "heart attack", "max": 2}),
    )
    .await;
    let alias = call(
        &c,
        "pubmed_lookup_mesh",
        json!({"query": "heart attack", "limit": 2}),
    )
    .await;
    assert_eq!(alias.is_error, Some(false), "{alias:?}");
    assert_eq!(alias.structured_content, ours.structured_content);
    // MeSH's entry term "Heart Attack" is Myocardial Infarction, D009203.
    assert!(
        ours.structured_content
            .unwrap()
            .to_string()
            .contains("D009203")
    );
    let args = |ids: &str, max: &str| {
        let mut m = serde_json::Map::new();
        m.insert(ids.into(), json!(["PMC3460867"]));
        m.insert(max.into(), json!(2000));
        serde_json::Value::Object(m)
    };
    let ours = call(&c, "pubmed_fetch_fulltext", args("ids", "maxCharacters")).await;
    let alias = call(
        &c,
        "pubmed_fetch_fulltext",
        args("pmcids", "max_characters"),
    )
    .await;
    assert_eq!(alias.is_error, Some(false), "{alias:?}");
    assert_eq!(alias.structured_content, ours.structured_content);
    let sc = ours.structured_content.unwrap();
    assert_eq!(sc["articles"][0]["pmcid"], "PMC3460867");
    c.cancel().await.unwrap();
}
