//! EFetch `db=pmc`: the JATS XML of PMC articles (docs/fulltext.md
//! "Requests"). One POST per chunk of at most [`PMC_EFETCH_CHUNK`]
//! PMCIDs; the answer is a `<pmc-articleset>` read by [`crate::core::jats`]
//! into one [`PmcEntry`] per article or `<Reply>`.

use std::collections::HashMap;

use super::classify::{self, Verdict};
use super::client::Client;
use super::db::Db;
use super::pacer::Lane;
use super::transport::{HttpResponse, Method};
use crate::core::jats::{self, Article, SetItem};
use crate::error::{Error, Reason, Result};

pub use super::limits::PMC_EFETCH_CHUNK;

const ENDPOINT: &str = "EFetch (db=pmc)";

/// What PMC answered for one PMCID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PmcEntry {
    /// The article; `raw` is its `<article>` element as received, when kept.
    Article {
        /// The parsed article.
        article: Box<Article>,
        /// The element's bytes (`-f jats`).
        raw: Option<String>,
    },
    /// PMC's `<Reply error="…">` for it (`The following PMCID is not
    /// available: …`).
    Unavailable(String),
}

/// A chunk's answer: entries by PMCID (`PMC` + digits); a PMCID left out
/// of PMC's answer has none.
pub type PmcAnswer = HashMap<String, PmcEntry>;

/// Reads an EFetch `db=pmc` body into entries by PMCID.
///
/// Errors: the body does not parse as JATS, or an article carries no
/// PMCID (it cannot be matched to the request).
pub fn parse_answer(body: &[u8], keep_raw: bool) -> std::result::Result<PmcAnswer, String> {
    let mut out = PmcAnswer::new();
    let mut unmatched = 0usize;
    jats::read_set(body, |item, span| match item {
        SetItem::Article(article) => match article.pmcid.clone() {
            Some(id) => {
                let raw = keep_raw.then(|| {
                    String::from_utf8_lossy(&body[span.start..span.end.min(body.len())])
                        .into_owned()
                });
                out.entry(id).or_insert(PmcEntry::Article { article, raw });
            }
            None => unmatched += 1,
        },
        SetItem::Reply { id, error } => {
            let d = id.trim().trim_start_matches("PMC").trim_start_matches('0');
            out.entry(format!("PMC{d}"))
                .or_insert(PmcEntry::Unavailable(error));
        }
    })
    .map_err(|e| e.0)?;
    if unmatched > 0 {
        return Err(format!("{unmatched} article(s) without a PMC article-id"));
    }
    Ok(out)
}

fn classify_pmc(resp: &HttpResponse, keep_raw: bool) -> Verdict<PmcAnswer> {
    if let Some(v) = classify::classify_http(resp, ENDPOINT) {
        return v;
    }
    if let Some(v) = unusable_body(resp, ENDPOINT) {
        return v;
    }
    let head = String::from_utf8_lossy(&resp.body[..resp.body.len().min(512)]).into_owned();
    if head.contains("<eFetchResult") || head.contains("<ERROR>") {
        let text = crate::core::text::strip_markup(&String::from_utf8_lossy(&resp.body));
        return classify::verdict_for_error_texts(&[text.trim().to_string()], ENDPOINT);
    }
    parsed(parse_answer(&resp.body, keep_raw), ENDPOINT)
}

/// The checks a JATS answer's body passes before it is read, shared by
/// PMC and Europe PMC: a status other than 200 is the status's verdict,
/// an empty body is transient (retried). `None`: the body is to be read.
pub(super) fn unusable_body<T>(resp: &HttpResponse, endpoint: &str) -> Option<Verdict<T>> {
    if resp.status != 200 {
        return Some(classify::other_status(resp, endpoint));
    }
    if resp.body.is_empty() {
        return Some(Verdict::Transient {
            text: format!("{endpoint} answered with an empty body"),
            retry_after: None,
            bad_answer: false,
        });
    }
    None
}

/// The verdict on a JATS body read: done, or `ncbi_invalid_response`
/// naming `endpoint` and why it could not be read.
pub(super) fn parsed<T>(read: std::result::Result<T, String>, endpoint: &str) -> Verdict<T> {
    match read {
        Ok(a) => Verdict::Done(a),
        Err(why) => Verdict::Fatal(Error::new(
            Reason::NcbiInvalidResponse,
            format!("{endpoint} sent a body that cannot be read as JATS: {why}"),
        )),
    }
}

impl Client {
    /// The JATS XML of `pmcids` (`PMC` + digits, at most
    /// [`PMC_EFETCH_CHUNK`]) in one EFetch `db=pmc` POST (`id` = the
    /// digits, `retmode=xml`).
    ///
    /// Errors: the client's (`ncbi_unreachable`, `ncbi_rate_limited`, …);
    /// a body that is not JATS is `ncbi_invalid_response`.
    pub async fn efetch_pmc(&self, pmcids: &[String], keep_raw: bool) -> Result<PmcAnswer> {
        let ids: Vec<&str> = pmcids.iter().map(|p| p.trim_start_matches("PMC")).collect();
        let params = vec![("id", ids.join(",")), ("retmode", "xml".to_string())];
        let mut req = self.eutils_request("efetch.fcgi", Db::Pmc, params, ids.len());
        req.method = Method::Post;
        self.execute(ENDPOINT, Lane::Eutils, &req, |resp| {
            classify_pmc(&resp, keep_raw)
        })
        .await
    }
}
