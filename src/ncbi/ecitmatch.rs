//! ECitMatch (`ecitmatch.cgi`): citations in, one PMID (or `NOT_FOUND`,
//! `AMBIGUOUS`) per citation out, as pipe-delimited text even under
//! `retmode=xml` (docs/match.md "Requests").

use super::classify::{self, Verdict};
use super::client::Client;
use super::db::Db;
use super::limits::ECITMATCH_MAX_CITATIONS;
use super::pacer::Lane;
use super::transport::HttpResponse;
use crate::core::citmatch::{self, AnswerLine, Citation};
use crate::error::{Error, Reason, Result};

const ENDPOINT: &str = "ECitMatch";

/// Classifies one ECitMatch answer for `sent` citations.
fn classify(resp: &HttpResponse, sent: usize) -> Verdict<Vec<AnswerLine>> {
    if let Some(v) = classify::classify_http(resp, ENDPOINT) {
        return v;
    }
    let body = String::from_utf8_lossy(&resp.body);
    if resp.status == 400 {
        return Verdict::Fatal(Error::new(
            Reason::InvalidArgument,
            format!("{ENDPOINT} refused the request (HTTP 400): {}", body.trim()),
        ));
    }
    if resp.status != 200 || body.trim_start().starts_with('<') {
        return Verdict::Transient {
            text: format!(
                "{ENDPOINT} answered HTTP {} without citation lines",
                resp.status
            ),
            retry_after: None,
            bad_answer: resp.status == 200,
        };
    }
    match citmatch::parse_answer(&body) {
        Err(why) => Verdict::Fatal(Error::new(
            Reason::NcbiInvalidResponse,
            format!("{ENDPOINT} sent a line that does not read: {why}"),
        )),
        // One line per citation, or the answer is cut short.
        Ok(lines) if lines.len() != sent => Verdict::Transient {
            text: format!(
                "{ENDPOINT} answered {} lines for {sent} citations",
                lines.len()
            ),
            retry_after: None,
            bad_answer: true,
        },
        Ok(lines) => Verdict::Done(lines),
    }
}

impl Client {
    /// One ECitMatch request for `cs` (at most [`ECITMATCH_MAX_CITATIONS`];
    /// the caller chunks): the answer lines in NCBI's order, one per
    /// citation, each echoing its key.
    ///
    /// Errors: as every E-utilities call (docs/client.md); an answer with a
    /// line that does not read is `ncbi_invalid_response`; one with
    /// another number of lines is retried, then `ncbi_invalid_response`.
    pub async fn ecitmatch(&self, cs: &[Citation]) -> Result<Vec<AnswerLine>> {
        let cs = &cs[..cs.len().min(ECITMATCH_MAX_CITATIONS)];
        let req = self.eutils_request(
            "ecitmatch.cgi",
            Db::Pubmed,
            vec![
                ("retmode", "xml".to_string()),
                ("bdata", citmatch::bdata(cs)),
            ],
            0,
        );
        let sent = cs.len();
        self.execute(ENDPOINT, Lane::Eutils, &req, |resp| classify(&resp, sent))
            .await
    }
}
