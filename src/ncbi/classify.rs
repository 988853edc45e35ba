//! Classifying an answer (docs/client.md "Classifying an answer"), in its order:
//! network trouble, 429, 5xx/HTML/prolog-only, `<ERROR>` texts, other 4xx,
//! unparseable bodies.

use std::time::{Duration, SystemTime};

use super::transport::HttpResponse;
use super::xml::{self, Element, XmlError};
use crate::error::{Error, Reason};

/// What the retry loop does with an answer.
#[derive(Debug)]
pub enum Verdict<T> {
    /// A usable answer.
    Done(T),
    /// Try again; `text` says what went wrong, `retry_after` replaces the backoff.
    Transient {
        /// What NCBI or the network said.
        text: String,
        /// A `Retry-After` the answer carried.
        retry_after: Option<Duration>,
        /// An answer arrived but cannot be right (cut short, contradicting
        /// itself, answering another request): if the last attempt is one,
        /// the call ends as `ncbi_invalid_response`, not `ncbi_unreachable`.
        bad_answer: bool,
    },
    /// HTTP 429: hold every start, then try again.
    RateLimited {
        /// The `Retry-After` the answer carried.
        retry_after: Option<Duration>,
    },
    /// Stop now with this error.
    Fatal(Error),
}

/// How an `<ERROR>` (or JSON `error`) text from NCBI is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorTextKind {
    /// The caller's mistake: `invalid_argument`, never retried.
    Caller,
    /// The thing asked for does not exist: `ncbi_resource_not_found`.
    NotFound,
    /// A known or unknown upstream failure: retried.
    Transient,
    /// NCBI rejected the API key (`API key invalid`): `invalid_api_key`,
    /// never retried.
    InvalidApiKey,
}

const CALLER_TEXTS: &[&str] = &[
    "invalid db",
    "neither query_key nor id",
    "cannot be larger than",
    "too many uids",
    "invalid uid",
    "invalid id parameter",
];
const NOT_FOUND_TEXTS: &[&str] = &["cannot get document summary", "not found", "empty id list"];
/// NCBI's answer to a key it does not know: HTTP 400 with
/// `{"error":"API key invalid","api-key":"<the key>",…}`.
const INVALID_KEY_TEXTS: &[&str] = &["api key invalid"];

/// Classifies an NCBI error text, matched case-insensitively. Known transient
/// texts (`External viewer error`, `Status: Timeout`, `temporarily
/// unavailable`, `Couldn't resolve`, `Unable to route`) and unknown ones are
/// both [`ErrorTextKind::Transient`].
pub fn error_text_kind(text: &str) -> ErrorTextKind {
    let t = text.to_lowercase();
    if INVALID_KEY_TEXTS.iter().any(|p| t.contains(p)) {
        ErrorTextKind::InvalidApiKey
    } else if CALLER_TEXTS.iter().any(|p| t.contains(p)) {
        ErrorTextKind::Caller
    } else if NOT_FOUND_TEXTS.iter().any(|p| t.contains(p)) {
        ErrorTextKind::NotFound
    } else {
        ErrorTextKind::Transient
    }
}

/// The longest `Retry-After` taken literally; longer ones count as this
/// (the call stops as `ncbi_rate_limited` either way).
const MAX_RETRY_AFTER: Duration = Duration::from_secs(86_400);

/// Parses `Retry-After`: delta seconds or an HTTP date (a past date is 0),
/// at most one day.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let v = value.trim();
    let wait = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        // Delta seconds; more than u64 holds is just very long.
        v.parse::<u64>()
            .map_or(MAX_RETRY_AFTER, Duration::from_secs)
    } else {
        httpdate::parse_http_date(v)
            .ok()?
            .duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO)
    };
    Some(wait.min(MAX_RETRY_AFTER))
}

/// True for an HTML page where XML or JSON was expected.
pub fn is_html(resp: &HttpResponse) -> bool {
    if resp
        .content_type
        .as_deref()
        .is_some_and(|c| c.to_ascii_lowercase().contains("text/html"))
    {
        return true;
    }
    let head: String = String::from_utf8_lossy(&resp.body[..resp.body.len().min(512)])
        .trim_start()
        .chars()
        .take(15)
        .collect::<String>()
        .to_ascii_lowercase();
    head.starts_with("<!doctype html") || head.starts_with("<html")
}

/// Steps 2–3, shared by every endpoint: 429, 5xx and HTML pages.
pub fn classify_http<T>(resp: &HttpResponse, endpoint: &str) -> Option<Verdict<T>> {
    let retry_after = resp.retry_after.as_deref().and_then(parse_retry_after);
    if resp.status == 429 {
        return Some(Verdict::RateLimited { retry_after });
    }
    if matches!(resp.status, 500 | 502 | 503 | 504) {
        return Some(Verdict::Transient {
            text: format!("{endpoint} answered HTTP {}", resp.status),
            retry_after,
            bad_answer: false,
        });
    }
    // An HTML page is an outage when the status says success or a server
    // error; under another 4xx/501 it is that status's page (step 5).
    if is_html(resp) && (resp.status < 400 || resp.status >= 500) && resp.status != 501 {
        return Some(Verdict::Transient {
            text: format!(
                "{endpoint} answered an HTML page (HTTP {}) instead of data",
                resp.status
            ),
            retry_after,
            bad_answer: false,
        });
    }
    None
}

/// Step 5: another 4xx, or 501 — the request itself is wrong. A 404, 405
/// or 501 usually means the server URL is wrong, so the message names it.
pub fn other_status<T>(resp: &HttpResponse, endpoint: &str) -> Verdict<T> {
    let at = if resp.url.is_empty() {
        String::new()
    } else {
        format!(" at {}", resp.url)
    };
    let check = if matches!(resp.status, 404 | 405 | 501) {
        "; check the server URL (--eutils-url / --idconv-url)"
    } else {
        ""
    };
    Verdict::Fatal(Error::new(
        Reason::InvalidArgument,
        format!(
            "{endpoint} rejected the request (HTTP {}){at}{check}",
            resp.status
        ),
    ))
}

/// The texts of every non-empty `<ERROR>` element, anywhere in the document.
pub fn error_texts(root: &Element) -> Vec<String> {
    let mut found = Vec::new();
    root.descendants("ERROR", &mut found);
    found
        .into_iter()
        .map(|e| crate::core::text::fold_whitespace(&e.text()))
        .filter(|t| !t.is_empty())
        .collect()
}

/// Turns NCBI error texts into a verdict (step 4).
pub fn verdict_for_error_texts<T>(texts: &[String], endpoint: &str) -> Verdict<T> {
    let joined = texts.join("; ");
    let kinds: Vec<ErrorTextKind> = texts.iter().map(|t| error_text_kind(t)).collect();
    if kinds.contains(&ErrorTextKind::InvalidApiKey) {
        // Only NCBI's own text: the body also echoes the key.
        Verdict::Fatal(Error::new(
            Reason::InvalidApiKey,
            format!("{endpoint} rejected the API key: {joined}"),
        ))
    } else if kinds.contains(&ErrorTextKind::Caller) {
        Verdict::Fatal(Error::new(
            Reason::InvalidArgument,
            format!("{endpoint} rejected the request: {joined}"),
        ))
    } else if kinds.contains(&ErrorTextKind::NotFound) {
        Verdict::Fatal(Error::new(
            Reason::NcbiResourceNotFound,
            format!("{endpoint}: {joined}"),
        ))
    } else {
        Verdict::Transient {
            text: format!("{endpoint} reported an error: {joined}"),
            retry_after: None,
            bad_answer: false,
        }
    }
}

/// The words of a transient verdict for a complete HTTP answer whose body
/// ends inside an open element: retried, and `ncbi_invalid_response` when
/// the last attempt is still cut short (docs/client.md).
pub const CUT_SHORT: &str = "sent a body cut short";

/// Why a parser refused a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not what the endpoint documents: `ncbi_invalid_response` at once.
    Invalid(String),
    /// Well-formed but contradicting itself (an ESearch page shorter than its
    /// `Count` promises, duplicate IDs): an upstream fault that may pass, so
    /// it is retried like an outage.
    Inconsistent(String),
    /// Well-formed but the answer to another request (an ESpell `<Query>`
    /// that is not the query sent): treated as [`Refusal::Inconsistent`].
    Mismatch(String),
}

/// Classifies an E-utilities XML answer and, when it is usable, hands its
/// root to `parse`; a `parse` failure is `ncbi_invalid_response`.
pub fn classify_xml<T>(
    resp: &HttpResponse,
    endpoint: &str,
    parse: impl FnOnce(&Element) -> Result<T, String>,
) -> Verdict<T> {
    classify_xml_checked(resp, endpoint, |root| parse(root).map_err(Refusal::Invalid))
}

/// [`classify_xml`] with a parser that may also call a document
/// inconsistent, which is [`Verdict::Transient`].
pub fn classify_xml_checked<T>(
    resp: &HttpResponse,
    endpoint: &str,
    parse: impl FnOnce(&Element) -> Result<T, Refusal>,
) -> Verdict<T> {
    let errors = |root: &Element| {
        let texts = error_texts(root);
        (!texts.is_empty()).then(|| verdict_for_error_texts(&texts, endpoint))
    };
    classify_xml_with(resp, endpoint, errors, parse)
}

/// As [`classify_xml_checked`], with `errors` deciding what the document's
/// `<ERROR>`s mean (step 4; `None`: nothing, parse it). ELink answers one
/// `<LinkSet>` per input and may put an input's own `<ERROR>` inside it:
/// that one is the input's, not the call's.
pub fn classify_xml_with<T>(
    resp: &HttpResponse,
    endpoint: &str,
    errors: impl FnOnce(&Element) -> Option<Verdict<T>>,
    parse: impl FnOnce(&Element) -> Result<T, Refusal>,
) -> Verdict<T> {
    classify_xml_read(
        resp,
        endpoint,
        |body| xml::parse(body).map(|root| (root, ())),
        errors,
        |root, ()| parse(root),
    )
}

/// [`classify_xml`] for a document read by `read` (e.g. with
/// [`xml::parse_with`]): the root it leaves, which the `<ERROR>` check
/// and `parse` see, and what it took out of the tree while reading.
pub fn classify_xml_streamed<S, T>(
    resp: &HttpResponse,
    endpoint: &str,
    read: impl FnOnce(&str) -> Result<(Element, S), XmlError>,
    parse: impl FnOnce(&Element, S) -> Result<T, String>,
) -> Verdict<T> {
    let errors = |root: &Element| {
        let texts = error_texts(root);
        (!texts.is_empty()).then(|| verdict_for_error_texts(&texts, endpoint))
    };
    classify_xml_read(resp, endpoint, read, errors, |root, taken| {
        parse(root, taken).map_err(Refusal::Invalid)
    })
}

fn classify_xml_read<S, T>(
    resp: &HttpResponse,
    endpoint: &str,
    read: impl FnOnce(&str) -> Result<(Element, S), XmlError>,
    errors: impl FnOnce(&Element) -> Option<Verdict<T>>,
    parse: impl FnOnce(&Element, S) -> Result<T, Refusal>,
) -> Verdict<T> {
    if let Some(v) = classify_http(resp, endpoint) {
        return v;
    }
    let body = String::from_utf8_lossy(&resp.body);
    let status_ok = resp.status == 200;
    // E-utilities answer some failures with JSON (`{"error": "…"}`) even
    // when XML was asked for: classify the text (step 4).
    if body.trim_start().starts_with('{')
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(&body)
        && let Some(text) = v.get("error").and_then(serde_json::Value::as_str)
        && (status_ok || resp.status == 400)
    {
        return verdict_for_error_texts(&[text.to_string()], endpoint);
    }
    let doc = read(&body);
    match doc {
        Err(XmlError::NoRoot) if status_ok || resp.status == 400 => Verdict::Transient {
            text: format!("{endpoint} answered with no document (XML prolog only)"),
            retry_after: None,
            bad_answer: false,
        },
        Err(XmlError::Truncated(open)) if status_ok => Verdict::Transient {
            text: format!("{endpoint} {CUT_SHORT} (it ends inside <{open}>)"),
            retry_after: None,
            bad_answer: true,
        },
        Err(XmlError::Malformed(why)) if status_ok => Verdict::Fatal(Error::new(
            Reason::NcbiInvalidResponse,
            format!("{endpoint} sent a body that does not parse: {why}"),
        )),
        Err(_) => other_status(resp, endpoint),
        Ok((root, taken)) => {
            if (status_ok || resp.status == 400)
                && let Some(v) = errors(&root)
            {
                return v;
            }
            if !status_ok {
                return other_status(resp, endpoint);
            }
            match parse(&root, taken) {
                Ok(v) => Verdict::Done(v),
                Err(Refusal::Invalid(why)) => Verdict::Fatal(Error::new(
                    Reason::NcbiInvalidResponse,
                    format!("{endpoint} sent an unexpected document: {why}"),
                )),
                Err(Refusal::Inconsistent(why)) => Verdict::Transient {
                    text: format!("{endpoint} contradicted itself: {why}"),
                    retry_after: None,
                    bad_answer: true,
                },
                Err(Refusal::Mismatch(why)) => Verdict::Transient {
                    text: format!("{endpoint} answered another request: {why}"),
                    retry_after: None,
                    bad_answer: true,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_texts_by_kind() {
        use ErrorTextKind::*;
        assert_eq!(
            error_text_kind("Invalid db name specified: nothing"),
            Caller
        );
        assert_eq!(
            error_text_kind("Neither query_key nor id specified"),
            Caller
        );
        assert_eq!(
            error_text_kind("Search Backend failed: retstart cannot be larger than 9998"),
            Caller
        );
        assert_eq!(
            error_text_kind("Invalid uid gwa2_scaffold_1731_16S_1 at position= 0"),
            Caller
        );
        assert_eq!(error_text_kind("cannot get document summary"), NotFound);
        assert_eq!(error_text_kind("Empty ID list; Nothing to store"), NotFound);
        assert_eq!(
            error_text_kind(
                " Error: External viewer error: Empty Response. Bytes read: 0 Status: Timeout"
            ),
            Transient
        );
        assert_eq!(error_text_kind("something new"), Transient);
    }

    fn resp(status: u16, body: &str) -> HttpResponse {
        HttpResponse {
            url: String::new(),
            status,
            retry_after: None,
            content_type: Some("text/xml".into()),
            body: bytes::Bytes::copy_from_slice(body.as_bytes()),
        }
    }

    #[test]
    fn json_error_bodies_are_classified_by_text() {
        let v: Verdict<()> = classify_xml(
            &resp(200, r#"{"error":"Invalid db name specified: x"}"#),
            "ESearch",
            |_| Ok(()),
        );
        assert!(matches!(v, Verdict::Fatal(e) if e.reason == Reason::InvalidArgument));
        let v: Verdict<()> =
            classify_xml(&resp(200, r#"{"error":"Backend busy"}"#), "ESearch", |_| {
                Ok(())
            });
        assert!(matches!(v, Verdict::Transient { .. }));
        let v: Verdict<()> =
            classify_xml(&resp(200, r#"{"esearchresult":{}}"#), "ESearch", |_| Ok(()));
        assert!(matches!(v, Verdict::Fatal(e) if e.reason == Reason::NcbiInvalidResponse));
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after(" 120 "), Some(Duration::from_secs(120)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(
            parse_retry_after("18446744073709551615"),
            Some(Duration::from_secs(86_400))
        );
        assert_eq!(
            parse_retry_after("99999999999999999999"),
            Some(Duration::from_secs(86_400))
        );
        let future = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(100));
        let d = parse_retry_after(&future).unwrap();
        assert!(
            d > Duration::from_secs(95) && d <= Duration::from_secs(100),
            "{d:?}"
        );
        assert_eq!(parse_retry_after("soon"), None);
    }
}
