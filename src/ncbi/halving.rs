//! Halving a chunk of IDs that NCBI could not answer whole, shared by the
//! E-utilities that take ID lists (ESummary, EFetch). A chunk whose request
//! timed out (NCBI's `Status: Timeout`, HTTP 504, no answer in time), whose
//! answer is over the client's body cap, or that NCBI refuses as too many
//! UIDs is split in two and each half sent again; a half that still fails
//! is the failure of its IDs alone (docs/search.md "Batch sizes").

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};

use super::classify::Verdict;
use super::client::Client;
use super::pacer::Lane;
use super::transport::{HttpRequest, HttpResponse, TransportError};
use crate::error::{Error, Reason};

/// True when a transient answer says NCBI (or the wait for it) ran out of
/// time: `Status: Timeout` in an `<ERROR>`, HTTP 504, or no answer within
/// the per-request timeout. A smaller chunk is the better retry.
pub fn is_timeout(text: &str, status: u16) -> bool {
    let t = text.to_ascii_lowercase();
    status == 504
        || t.contains("http 504")
        || t.contains("timeout")
        || t.contains("timed out")
        || t.contains("no answer within")
}

/// True when the client gave up on a chunk of `len` IDs in a way a smaller
/// chunk can avoid: the body was over the cap or NCBI refused the number of
/// UIDs (halved down to one ID), or it ran out of time (halved while the
/// chunk holds more than `min_timeout_split` IDs: below that, time is not
/// the chunk's fault).
pub fn worth_halving(e: &Error, len: usize, min_timeout_split: usize) -> bool {
    let too_large = e.reason == Reason::NcbiInvalidResponse
        && e.message.ends_with(&TransportError::TooLarge.to_string());
    let too_many =
        e.reason == Reason::InvalidArgument && e.message.to_lowercase().contains("too many uids");
    let slow = e.reason == Reason::NcbiDeadlineExceeded
        || (e.reason == Reason::NcbiUnreachable && is_timeout(&e.message, 0));
    ((too_large || too_many) && len > 1) || (slow && len > min_timeout_split)
}

/// The IDs of one part of a chunk and what its request gave.
#[derive(Debug)]
pub struct Part<T> {
    /// The IDs sent, in the chunk's order.
    pub ids: Vec<String>,
    /// The answer, or the part's failure after retries and halving.
    pub result: Result<T, Error>,
}

impl Client {
    /// Sends one chunk's request (`len` IDs) like [`Client::execute`], but
    /// when the chunk holds more than `min_timeout_split` IDs an answer
    /// saying NCBI timed out ends the call at once instead of being retried
    /// whole. The error comes with whether halving the chunk may help.
    pub(crate) async fn execute_halvable<T>(
        &self,
        endpoint: &str,
        req: &HttpRequest,
        len: usize,
        min_timeout_split: usize,
        classify: impl Fn(HttpResponse) -> Verdict<T>,
    ) -> Result<T, (Error, bool)> {
        let may_halve = len > min_timeout_split;
        let timed_out = AtomicBool::new(false);
        let result = self
            .execute(endpoint, Lane::Eutils, req, |resp| {
                let status = resp.status;
                match classify(resp) {
                    Verdict::Transient { text, .. } if may_halve && is_timeout(&text, status) => {
                        timed_out.store(true, Ordering::Relaxed);
                        Verdict::Fatal(Error::new(
                            Reason::NcbiUnreachable,
                            format!("{text} (a chunk of {len} IDs)"),
                        ))
                    }
                    other => other,
                }
            })
            .await;
        result.map_err(|e| {
            let halve =
                timed_out.load(Ordering::Relaxed) || worth_halving(&e, len, min_timeout_split);
            (e, halve)
        })
    }
}

/// Runs `once` on `ids`, halving a part whose error says halving may help
/// (see [`worth_halving`]), first half first, until each part is answered
/// or fails for good. The parts come back in the order of `ids`.
pub async fn run<T, F, Fut>(ids: Vec<String>, mut once: F) -> Vec<Part<T>>
where
    F: FnMut(Vec<String>) -> Fut,
    Fut: Future<Output = Result<T, (Error, bool)>>,
{
    let mut parts = Vec::new();
    // Last in, first out: the first half of a split chunk goes first.
    let mut work = vec![ids];
    while let Some(ids) = work.pop() {
        match once(ids.clone()).await {
            Ok(v) => parts.push(Part { ids, result: Ok(v) }),
            Err((_, true)) if ids.len() > 1 => {
                let (a, b) = ids.split_at(ids.len() / 2);
                work.push(b.to_vec());
                work.push(a.to_vec());
            }
            Err((e, _)) => parts.push(Part {
                ids,
                result: Err(e),
            }),
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halving_is_for_size_time_and_too_many_uids() {
        let large = Error::new(
            Reason::NcbiInvalidResponse,
            format!("ESummary: {}", TransportError::TooLarge),
        );
        assert!(worth_halving(&large, 2, 100));
        assert!(!worth_halving(&large, 1, 100));
        let slow = Error::new(
            Reason::NcbiUnreachable,
            "gave up after 3 attempts: ESummary gave no answer within 30s",
        );
        assert!(worth_halving(&slow, 101, 100));
        assert!(!worth_halving(&slow, 100, 100));
        let deadline = Error::new(Reason::NcbiDeadlineExceeded, "no answer within 60s");
        assert!(worth_halving(&deadline, 500, 100));
        // the JSON limit's text: a server with a lower limit is met by halving
        let many = Error::new(
            Reason::InvalidArgument,
            "ESummary rejected the request: Too many UIDs in request. Maximum number of UIDs is 500 for JSON format output.",
        );
        assert!(worth_halving(&many, 1000, 100));
        let other = Error::new(Reason::InvalidArgument, "Invalid uid 12x");
        assert!(!worth_halving(&other, 1000, 100));
        let down = Error::new(Reason::NcbiUnreachable, "ESummary answered HTTP 503");
        assert!(!worth_halving(&down, 1000, 100));
        // the text of the real EFetch timeout capture, and a 504
        assert!(is_timeout(
            "EFetch reported an error: Error: External viewer error: Empty Response. Bytes read: 0 Status: Timeout",
            400
        ));
        assert!(is_timeout("ESummary answered HTTP 504", 504));
        assert!(!is_timeout("ESummary answered HTTP 502", 502));
    }

    #[test]
    fn parts_are_halved_until_they_pass_and_stay_in_order() {
        let ids: Vec<String> = (1..=10).map(|i| i.to_string()).collect();
        let mut sizes = Vec::new();
        let parts = futures::executor::block_on(run(ids.clone(), |part: Vec<String>| {
            sizes.push(part.len());
            let n = part.len();
            async move {
                if n > 3 {
                    Err((Error::new(Reason::NcbiDeadlineExceeded, "slow"), true))
                } else if part.contains(&"10".to_string()) {
                    Err((Error::new(Reason::NcbiUnreachable, "down"), false))
                } else {
                    Ok(n)
                }
            }
        }));
        // 10 → 5 + 5 → 2 + 3 | 2 + 3
        assert_eq!(sizes, vec![10, 5, 2, 3, 5, 2, 3]);
        let got: Vec<String> = parts.iter().flat_map(|p| p.ids.clone()).collect();
        assert_eq!(got, ids);
        let failed: Vec<&Vec<String>> = parts
            .iter()
            .filter(|p| p.result.is_err())
            .map(|p| &p.ids)
            .collect();
        assert_eq!(
            failed,
            vec![&vec!["8".to_string(), "9".into(), "10".into()]]
        );
    }
}
