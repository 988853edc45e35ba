//! Issue 27: the resource `pubmed://database/info`, listed by resources/list
//! and read by resources/read through rmcp's client: PubMed's field tags as
//! the real EInfo capture (`einfo_pubmed.xml`) lists them, and the limits.

use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

use crate::support;
use support::mcp::session;
use support::server::fixture;

const URI: &str = "pubmed://database/info";

#[tokio::test]
async fn database_info_lists_einfos_fields_and_the_limits() {
    let s = session().await;
    let listed = s.c.list_all_resources().await.unwrap();
    let info = listed.iter().find(|r| r.uri == URI).expect("listed");
    assert_eq!(info.mime_type.as_deref(), Some("application/json"));
    let read =
        s.c.read_resource(ReadResourceRequestParams::new(URI))
            .await
            .unwrap();
    let ResourceContents::TextResourceContents {
        text, mime_type, ..
    } = &read.contents[0]
    else {
        panic!("text contents: {read:?}");
    };
    assert_eq!(mime_type.as_deref(), Some("application/json"));
    let v: Value = serde_json::from_str(text).unwrap();
    let fields = v["fields"].as_array().unwrap();
    // as many as the capture's <Field> elements, in its order
    let capture = fixture("einfo_pubmed.xml");
    let capture = String::from_utf8_lossy(&capture);
    assert_eq!(fields.len(), capture.matches("<Field>").count());
    assert_eq!(fields.len(), 50);
    assert_eq!(fields[0]["name"], "ALL");
    let by_name = |n: &str| fields.iter().find(|f| f["name"] == n).unwrap().clone();
    // values of einfo_pubmed.xml, and the bracket tags PubMed's help gives
    assert_eq!(
        by_name("TITL"),
        json!({"name": "TITL", "fullName": "Title", "description": "Words in title of publication",
               "tags": ["ti", "title"], "isDate": false, "hidden": false})
    );
    assert_eq!(
        by_name("MAJR")["description"],
        "MeSH terms of major importance to publication"
    );
    assert_eq!(
        by_name("AFFL")["description"],
        "Author's institutional affiliation and address"
    );
    assert_eq!(by_name("AFFL")["tags"], json!(["ad", "affiliation"]));
    let pdat = by_name("PDAT");
    assert_eq!(pdat["fullName"], "Date - Publication");
    assert_eq!(pdat["isDate"], true);
    assert_eq!(
        pdat["tags"],
        json!(["dp", "pdat", "publication date", "date - publication"])
    );
    assert_eq!(by_name("UID")["hidden"], true);
    assert_eq!(by_name("EPDT")["hidden"], true);
    assert_eq!(by_name("EPDT")["isDate"], true);
    // tags PubMed takes that EInfo does not list
    let other = v["otherTags"].as_array().unwrap();
    assert!(other.contains(&json!(["doi"])), "{other:?}");
    assert!(other.contains(&json!(["ab", "abstract"])), "{other:?}");
    // NCBI's limits (E-utilities documentation)
    let ncbi = &v["limits"]["ncbi"];
    assert_eq!(ncbi["searchWindow"], 9999);
    assert_eq!(ncbi["requestsPerSecondWithoutApiKey"], 3);
    assert_eq!(ncbi["requestsPerSecondWithApiKey"], 10);
    // each tool's limits are those of its input schema in tools/list
    let tools = s.c.list_all_tools().await.unwrap();
    let fetch = tools
        .iter()
        .find(|t| t.name == "pubmed_fetch_articles")
        .unwrap();
    assert_eq!(
        v["limits"]["tools"]["pubmed_fetch_articles"]["pmids"],
        fetch.input_schema["properties"]["pmids"]["maxItems"]
    );
    let search = tools
        .iter()
        .find(|t| t.name == "pubmed_search_articles")
        .unwrap();
    assert_eq!(
        v["limits"]["tools"]["pubmed_search_articles"]["maxResults"],
        search.input_schema["properties"]["maxResults"]["maximum"]
    );
    // the instructions point to it
    let init = s.c.peer_info().unwrap();
    assert!(init.instructions.as_deref().unwrap().contains(URI));
}
