//! Europe PMC `fullTextXML`: the JATS of one article by PMCID, asked by
//! `fulltext` when PMC serves no open text of it (docs/fulltext.md
//! "Where the text comes from"). One GET per PMCID
//! (`{europepmc_url}{PMCID}/fullTextXML`), paced on the keyless lane with
//! the ID Converter (Europe PMC never gets the NCBI key).

use super::classify::{self, Verdict};
use super::client::Client;
use super::pacer::Lane;
use super::transport::{HttpRequest, HttpResponse, Method};
use crate::core::jats::{self, Article, SetItem};
use crate::error::Result;

const ENDPOINT: &str = "Europe PMC fullTextXML";

/// What Europe PMC answered for one PMCID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EuropePmcEntry {
    /// The article (with a `<body>`); `raw` its `<article>` element as
    /// received, when kept.
    Article {
        /// The parsed article.
        article: Box<Article>,
        /// The element's bytes (`-f jats`).
        raw: Option<String>,
    },
    /// HTTP 404 (Europe PMC's answer for an article it has no full text
    /// of), or an article without `<body>`: no open text here either.
    NoText,
}

/// Reads a `fullTextXML` body: one `<article>`; its PMCID, when the XML
/// has none, is the one asked for.
///
/// Errors: not JATS, or not exactly one article.
pub fn parse_answer(
    body: &[u8],
    pmcid: &str,
    keep_raw: bool,
) -> std::result::Result<EuropePmcEntry, String> {
    let mut found: Vec<(Box<Article>, Option<String>)> = Vec::new();
    let mut replies = 0usize;
    jats::read_set(body, |item, span| match item {
        SetItem::Article(a) => {
            let raw = keep_raw.then(|| {
                String::from_utf8_lossy(&body[span.start..span.end.min(body.len())]).into_owned()
            });
            found.push((a, raw));
        }
        SetItem::Reply { .. } => replies += 1,
    })
    .map_err(|e| e.0)?;
    if found.len() != 1 || replies > 0 {
        return Err(format!(
            "{} article(s) where one was expected",
            found.len() + replies
        ));
    }
    let (mut article, raw) = found.remove(0);
    if !article.has_body {
        return Ok(EuropePmcEntry::NoText);
    }
    if article.pmcid.is_none() {
        article.pmcid = Some(pmcid.to_string());
    }
    Ok(EuropePmcEntry::Article { article, raw })
}

fn classify_answer(resp: &HttpResponse, pmcid: &str, keep_raw: bool) -> Verdict<EuropePmcEntry> {
    if let Some(v) = classify::classify_http(resp, ENDPOINT) {
        return v;
    }
    if resp.status == 404 {
        return Verdict::Done(EuropePmcEntry::NoText);
    }
    if let Some(v) = super::pmc::unusable_body(resp, ENDPOINT) {
        return v;
    }
    super::pmc::parsed(parse_answer(&resp.body, pmcid, keep_raw), ENDPOINT)
}

impl Client {
    /// Europe PMC's full text of `pmcid` (`PMC` + digits): one GET of
    /// `{europepmc_url}{pmcid}/fullTextXML`, never with the API key.
    ///
    /// Errors: the client's (`ncbi_unreachable`, `ncbi_rate_limited`, …
    /// — the reasons name the upstream, not NCBI alone); a body that is
    /// not one JATS article is `ncbi_invalid_response`.
    pub async fn europepmc_fulltext(&self, pmcid: &str, keep_raw: bool) -> Result<EuropePmcEntry> {
        let base = &self.settings().europepmc_url;
        let sep = if base.ends_with('/') { "" } else { "/" };
        let req = HttpRequest {
            method: Method::Get,
            url: format!("{base}{sep}{pmcid}/fullTextXML"),
            params: Vec::new(),
        };
        self.execute(ENDPOINT, Lane::Idconv, &req, |resp| {
            classify_answer(&resp, pmcid, keep_raw)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn resp(status: u16, body: &str) -> HttpResponse {
        HttpResponse {
            url: String::new(),
            status,
            retry_after: None,
            content_type: Some("application/xml".into()),
            body: Bytes::copy_from_slice(body.as_bytes()),
        }
    }

    #[test]
    fn not_found_is_no_text_and_an_article_is_read() {
        assert!(matches!(
            classify_answer(&resp(404, ""), "PMC1", false),
            Verdict::Done(EuropePmcEntry::NoText)
        ));
        let v = classify_answer(
            &resp(
                200,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><article><body><p>x</p></body></article>",
            ),
            "PMC7",
            true,
        );
        match v {
            Verdict::Done(EuropePmcEntry::Article { article, raw }) => {
                assert_eq!(article.pmcid.as_deref(), Some("PMC7"));
                assert_eq!(
                    raw.as_deref(),
                    Some("<article><body><p>x</p></body></article>")
                );
            }
            _ => panic!("not an article"),
        }
        assert!(matches!(
            classify_answer(&resp(200, "<article><front/></article>"), "PMC7", false),
            Verdict::Done(EuropePmcEntry::NoText)
        ));
        assert!(matches!(
            classify_answer(&resp(200, "<html>"), "PMC7", false),
            Verdict::Fatal(_) | Verdict::Transient { .. }
        ));
        assert!(matches!(
            classify_answer(&resp(503, ""), "PMC7", false),
            Verdict::Transient { .. }
        ));
    }
}
