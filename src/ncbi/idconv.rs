//! The PMC ID Converter (`…/tools/idconv/api/v1/articles/?ids=…&idtype=…&format=json`):
//! request, classification and parsing of its JSON (current and legacy
//! shapes).

use serde_json::Value;

use super::classify::{self, Verdict};
use super::client::Client;
use super::transport::HttpResponse;
use crate::core::ids::IdType;
use crate::error::{Error, Reason, Result};

/// The most IDs the Converter takes per request.
pub use super::limits::IDCONV_MAX_IDS;

/// One answered record. `pmid` is a string whether NCBI sent a number
/// (current service) or a string (legacy).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdconvRecord {
    /// `requested-id` (current service only).
    pub requested_id: Option<String>,
    /// `pmid`.
    pub pmid: Option<String>,
    /// `pmcid`.
    pub pmcid: Option<String>,
    /// `doi`.
    pub doi: Option<String>,
    /// `errmsg` when the record's `status` is `error`.
    pub error: Option<String>,
}

fn string_field(v: &Value, name: &str) -> Option<String> {
    match v.get(name)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A PMID as NCBI may send it: a JSON integer, a digit string, or a
/// float with no fraction (`23193287.0`); anything else is no PMID.
fn pmid_field(v: &Value) -> Option<String> {
    match v.get("pmid")? {
        Value::Number(n) => n.as_u64().map(|p| p.to_string()).or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 1.0 && *f < 1e15)
                .map(|f| (f as u64).to_string())
        }),
        Value::String(s) => {
            let t = s.trim().strip_suffix(".0").unwrap_or(s.trim());
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.to_string())
        }
        _ => None,
    }
}

fn percent_decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("m={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map_or_else(|| s.to_string(), |(_, v)| v.into_owned())
}

/// The error message of a top-level error answer: `{"status":"error",
/// "message":…}` (percent-decoded) or `{"status":"error","errors":[{"message"}]}`.
fn top_level_error(v: &Value) -> Option<String> {
    if v.get("status").and_then(Value::as_str) != Some("error") {
        return None;
    }
    if let Some(m) = v.get("message").and_then(Value::as_str) {
        return Some(percent_decode(m));
    }
    let msgs: Vec<String> = v
        .get("errors")
        .into_iter()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|e| e.get("message").and_then(Value::as_str).map(percent_decode))
        .collect();
    Some(msgs.join("; ")).filter(|m| !m.is_empty())
}

/// A top-level `{"status": "error"}`, with its message when there is one.
fn top_level_error_or_bare(v: &Value) -> Option<String> {
    if v.get("status").and_then(Value::as_str) != Some("error") {
        return None;
    }
    Some(top_level_error(v).unwrap_or_else(|| "no message".into()))
}

/// Parses a successful answer's records.
pub fn parse_records(v: &Value) -> Result<Vec<IdconvRecord>, String> {
    let records = v
        .get("records")
        .and_then(Value::as_array)
        .ok_or("no \"records\" array")?;
    Ok(records
        .iter()
        .map(|r| IdconvRecord {
            requested_id: string_field(r, "requested-id"),
            pmid: pmid_field(r),
            pmcid: string_field(r, "pmcid"),
            doi: string_field(r, "doi"),
            error: (r.get("status").and_then(Value::as_str) == Some("error"))
                .then(|| string_field(r, "errmsg").unwrap_or_else(|| "error".into())),
        })
        .collect())
}

/// The Converter's answer to one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdconvAnswer {
    /// `{"status":"ok","records":[…]}`.
    Records(Vec<IdconvRecord>),
    /// A top-level error rejecting the whole request for its IDs (HTTP 400
    /// `errors` saying the IDs are invalid, or the 404 `message` of an ID
    /// type mismatch naming one), with its decoded message: some ID of the
    /// request is not what `idtype` says.
    Rejected(String),
}

/// True when the Converter's message names `id` in quotes, as in `ID type
/// 'doi' mismatch for '28371833'`.
pub fn message_names(message: &str, id: &str) -> bool {
    let m = message.to_lowercase();
    let id = id.to_lowercase();
    m.contains(&format!("'{id}'")) || m.contains(&format!("\"{id}\""))
}

/// True when a top-level error is about the IDs sent: it names one of them
/// (`ID type 'doi' mismatch for '28371833'`), or says the IDs are invalid
/// or of another type (`Invalid value for ids`). Any other top-level error
/// (`something broke`, no message) is the service's fault, not the input's.
fn is_rejection(message: &str, requested: &[String]) -> bool {
    let m = message.to_lowercase();
    requested.iter().any(|id| message_names(message, id))
        || m.contains("mismatch")
        || (m.contains("invalid") && m.contains("id"))
}

/// A record that contradicts the request: it answers an ID not asked for,
/// or (for PMIDs and PMCIDs) it echoes the requested ID but carries another
/// one of that type.
fn contradiction(idtype: IdType, records: &[IdconvRecord], requested: &[String]) -> Option<String> {
    use crate::core::ids::answer_key;
    let asked: std::collections::HashSet<String> =
        requested.iter().map(|i| answer_key(idtype, i)).collect();
    records.iter().find_map(|r| {
        let req = r.requested_id.as_deref()?;
        let key = answer_key(idtype, req);
        if !asked.is_empty() && !asked.contains(&key) {
            return Some(format!("a record answers {req}, which was not asked for"));
        }
        let own = match idtype {
            IdType::Pmid => r.pmid.as_deref(),
            IdType::Pmcid => r.pmcid.as_deref(),
            IdType::Doi => None,
        };
        match own {
            Some(o) if r.error.is_none() && answer_key(idtype, o) != key => Some(format!(
                "the record for {req} carries {} {o}",
                idtype.as_str().to_uppercase()
            )),
            _ => None,
        }
    })
}

/// Classifies an ID Converter answer to a request for `requested` (IDs of
/// type `idtype`, as sent): HTTP trouble first, then a top-level error
/// object, an E-utilities style `error` text, then the records.
///
/// A top-level error that is about the IDs (`is_rejection`) is
/// [`IdconvAnswer::Rejected`]; any other is `ncbi_invalid_response`, as is
/// a record that contradicts the request (docs/convert.md).
pub fn classify(
    resp: &HttpResponse,
    idtype: IdType,
    requested: &[String],
) -> Verdict<IdconvAnswer> {
    const ENDPOINT: &str = "ID Converter";
    if let Some(v) = classify::classify_http(resp, ENDPOINT) {
        return v;
    }
    let parsed: Result<Value, _> = serde_json::from_slice(&resp.body);
    let v = match parsed {
        Ok(v) => v,
        Err(_) if resp.status == 200 => {
            return Verdict::Fatal(Error::new(
                Reason::NcbiInvalidResponse,
                "the ID Converter sent a body that is not JSON",
            ));
        }
        Err(_) => return classify::other_status(resp, ENDPOINT),
    };
    if let Some(msg) = top_level_error_or_bare(&v) {
        if is_rejection(&msg, requested) {
            return Verdict::Done(IdconvAnswer::Rejected(msg));
        }
        return Verdict::Fatal(Error::new(
            Reason::NcbiInvalidResponse,
            format!(
                "the ID Converter reported an error that names no ID (HTTP {}): {msg}",
                resp.status
            ),
        ));
    }
    if let Some(text) = v.get("error").and_then(Value::as_str) {
        return classify::verdict_for_error_texts(&[text.to_string()], ENDPOINT);
    }
    if resp.status != 200 {
        return classify::other_status(resp, ENDPOINT);
    }
    match parse_records(&v) {
        Ok(r) => match contradiction(idtype, &r, requested) {
            None => Verdict::Done(IdconvAnswer::Records(r)),
            Some(why) => Verdict::Fatal(Error::new(
                Reason::NcbiInvalidResponse,
                format!("the ID Converter sent an answer that contradicts the request: {why}"),
            )),
        },
        Err(why) => Verdict::Fatal(Error::new(
            Reason::NcbiInvalidResponse,
            format!("the ID Converter sent an unexpected answer: {why}"),
        )),
    }
}

impl Client {
    /// Converts up to 200 IDs of one type (canonical forms) with one GET
    /// through the shared pacer; never sends `api_key`.
    ///
    /// Errors: client errors. A rejection of the whole request is an
    /// answer ([`IdconvAnswer::Rejected`]): the caller finds which IDs.
    pub async fn idconv(&self, idtype: IdType, ids: &[String]) -> Result<IdconvAnswer> {
        let mut params = vec![
            ("ids".to_string(), ids.join(",")),
            ("idtype".to_string(), idtype.as_str().to_string()),
            ("format".to_string(), "json".to_string()),
            ("tool".to_string(), self.settings().tool.clone()),
        ];
        if let Some(email) = &self.settings().email {
            params.push(("email".into(), email.clone()));
        }
        let req = super::transport::HttpRequest {
            method: super::transport::Method::Get,
            url: self.settings().idconv_url.clone(),
            params,
        };
        self.execute("ID Converter", super::pacer::Lane::Idconv, &req, |resp| {
            classify(&resp, idtype, ids)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    impl<T> Verdict<T> {
        fn done(self) -> Option<T> {
            match self {
                Verdict::Done(v) => Some(v),
                _ => None,
            }
        }
    }

    fn resp(status: u16, body: &[u8]) -> HttpResponse {
        HttpResponse {
            url: String::new(),
            status,
            retry_after: None,
            content_type: Some("application/json".into()),
            body: Bytes::copy_from_slice(body),
        }
    }

    fn classify_any(resp: &HttpResponse) -> Verdict<IdconvAnswer> {
        classify(resp, IdType::Doi, &[])
    }

    fn capture(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn legacy_success_capture() {
        let Verdict::Done(IdconvAnswer::Records(r)) =
            classify_any(&resp(200, &capture("idconv_json_doi_with_versions.json")))
        else {
            panic!()
        };
        assert_eq!(
            r,
            vec![IdconvRecord {
                requested_id: None,
                pmid: Some("20495566".into()),
                pmcid: Some("PMC2883744".into()),
                doi: Some("10.1038/ng.590".into()),
                error: None
            }]
        );
    }

    #[test]
    fn per_record_error_capture() {
        let Verdict::Done(IdconvAnswer::Records(r)) = classify_any(&resp(
            200,
            &capture("idconv_json_doi_invalid_article_id.json"),
        )) else {
            panic!()
        };
        assert_eq!(r[0].doi.as_deref(), Some("10.7164/antibiotics.37.454"));
        assert_eq!(r[0].error.as_deref(), Some("invalid article id"));
    }

    #[test]
    fn top_level_error_capture_is_a_rejection() {
        let v = classify_any(&resp(
            404,
            &capture("idconv_json_error_idtype_mismatch_404.json"),
        ));
        assert!(
            matches!(&v, Verdict::Done(IdconvAnswer::Rejected(m)) if m == "ID type 'doi' mismatch for '28371833'"),
            "{v:?}"
        );
    }

    #[test]
    fn current_service_shapes() {
        let body = br#"{"status":"ok","responseDate":"2025-01-01 00:00:00","request":"x","records":[{"requested-id":"PMC3531190","pmcid":"PMC3531190","pmid":23193287,"doi":"10.5555/example.23193287"},{"requested-id":"PMC1","status":"error","errmsg":"Identifier not found in PMC"}]}"#;
        let Verdict::Done(IdconvAnswer::Records(r)) = classify_any(&resp(200, body)) else {
            panic!()
        };
        assert_eq!(r[0].pmid.as_deref(), Some("23193287"));
        assert_eq!(r[0].requested_id.as_deref(), Some("PMC3531190"));
        assert_eq!(r[1].error.as_deref(), Some("Identifier not found in PMC"));
        let body = br#"{"status":"error","errors":[{"message":"Invalid value for ids","code":"bad_ids"}]}"#;
        assert_eq!(
            classify_any(&resp(400, body)).done(),
            Some(IdconvAnswer::Rejected("Invalid value for ids".into()))
        );
        // No message, or one about the service rather than the IDs: an
        // upstream fault, never the input's.
        for body in [
            &br#"{"status":"error"}"#[..],
            br#"{"status":"error","message":"something broke"}"#,
        ] {
            let Verdict::Fatal(e) = classify(&resp(200, body), IdType::Pmid, &["23193287".into()])
            else {
                panic!()
            };
            assert_eq!(e.reason, Reason::NcbiInvalidResponse);
        }
        let body = br#"{"status":"ok","records":[{"pmid":23193287.0,"pmcid":"PMC1"},{"pmid":"20495566.0"},{"pmid":"x1"}]}"#;
        let Verdict::Done(IdconvAnswer::Records(r)) = classify_any(&resp(200, body)) else {
            panic!()
        };
        assert_eq!(r[0].pmid.as_deref(), Some("23193287"));
        assert_eq!(r[1].pmid.as_deref(), Some("20495566"));
        assert_eq!(r[2].pmid, None);
        let Verdict::Fatal(e) = classify_any(&resp(200, b"{\"status\":\"ok\",\"rec")) else {
            panic!()
        };
        assert_eq!(e.reason, Reason::NcbiInvalidResponse);
        assert!(matches!(
            classify_any(&resp(503, b"{}")),
            Verdict::Transient { .. }
        ));
        assert!(matches!(
            classify_any(&resp(429, b"{}")),
            Verdict::RateLimited { .. }
        ));
    }
}
