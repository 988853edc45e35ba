//! The shared NCBI client: one per process, used by every command and MCP
//! tool call. It owns pacing, retries and deadlines (client.md) and returns
//! typed results or typed errors.

use std::sync::Arc;
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};
use tokio::time::Instant;

use super::classify::{self, Verdict};
use super::pacer::{Lane, Pacer, PacerConfig};
use super::policy::Policy;
use super::transport::{
    HttpRequest, HttpResponse, Method, ReqwestTransport, Transport, TransportError,
};
use super::xml::Element;
use crate::core::text::count;
use crate::error::{Error, Reason, Result};

/// NCBI's E-utilities base URL.
pub const DEFAULT_EUTILS_URL: &str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/";
/// The PMC ID Converter API.
pub const DEFAULT_IDCONV_URL: &str = "https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/";
/// The `tool` parameter sent when none is configured.
pub const DEFAULT_TOOL: &str = "pubmed-cli";

/// E-utilities switch from GET to POST above this many encoded characters.
const MAX_GET_PARAMS_LEN: usize = 2000;
/// … or above this many IDs in one `id` list.
const MAX_GET_IDS: usize = 200;

/// Where and as whom the client calls NCBI, and its policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientSettings {
    /// E-utilities base URL (`…/eutils/`).
    pub eutils_url: String,
    /// ID Converter URL.
    pub idconv_url: String,
    /// `tool` parameter.
    pub tool: String,
    /// `email` parameter, when configured.
    pub email: Option<String>,
    /// `api_key` parameter (E-utilities only), when configured.
    pub api_key: Option<String>,
    /// Where the API key came from (`--api-key`, `NCBI_API_KEY`, `config
    /// file PATH`), for messages about a key NCBI refuses.
    pub api_key_origin: Option<String>,
    /// Directory of the shared request budget's state file; `None`: no
    /// shared budget (docs/config.md "Shared budget").
    pub budget_dir: Option<std::path::PathBuf>,
    /// Pacing, retries, deadlines.
    pub policy: Policy,
    /// Log each request on stderr (key redacted).
    pub verbose: bool,
    /// Say on stderr when a call is retried or waits out a 429 cooldown.
    pub notes: bool,
}

impl Default for ClientSettings {
    fn default() -> Self {
        ClientSettings {
            eutils_url: DEFAULT_EUTILS_URL.into(),
            idconv_url: DEFAULT_IDCONV_URL.into(),
            tool: DEFAULT_TOOL.into(),
            email: None,
            api_key: None,
            api_key_origin: None,
            budget_dir: None,
            policy: Policy::default(),
            verbose: false,
            notes: false,
        }
    }
}

/// The NCBI client. Cheap to share behind an `Arc`; every request goes
/// through its one pacer.
pub struct Client {
    settings: ClientSettings,
    transport: Arc<dyn Transport>,
    pacer: Pacer,
    sent: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("eutils_url", &self.settings.eutils_url)
            .field("idconv_url", &self.settings.idconv_url)
            .finish_non_exhaustive()
    }
}

fn join_url(base: &str, path: &str) -> String {
    if base.ends_with('/') || path.is_empty() {
        format!("{base}{path}")
    } else {
        format!("{base}/{path}")
    }
}

fn encoded_len(params: &[(String, String)]) -> usize {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish()
        .len()
}

impl Client {
    /// A client over HTTPS (reqwest + rustls).
    pub fn new(settings: ClientSettings) -> Result<Self> {
        let transport = ReqwestTransport::new().map_err(|e| {
            Error::new(
                Reason::NcbiUnreachable,
                format!("cannot start HTTP client: {e}"),
            )
        })?;
        Ok(Self::with_transport(settings, Arc::new(transport)))
    }

    /// A client over any transport (tests use in-process fakes).
    pub fn with_transport(settings: ClientSettings, transport: Arc<dyn Transport>) -> Self {
        let p = &settings.policy;
        let pacer = Pacer::new(PacerConfig {
            gap: p.gap(settings.api_key.is_some()),
            idconv_gap: p.gap(false),
            max_in_flight: p.max_in_flight,
            max_waiting: p.max_waiting,
            cooldown_base: p.retry_base,
            cooldown_cap: p.retry_cap,
        });
        Client {
            settings,
            transport,
            pacer,
            sent: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The settings this client runs with.
    pub fn settings(&self) -> &ClientSettings {
        &self.settings
    }

    /// HTTP requests sent so far (every attempt counts).
    pub fn requests_sent(&self) -> u64 {
        self.sent.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The process's pacer (for progress reporting and tests).
    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }

    /// Builds an E-utilities request: `db=pubmed` callers add their own
    /// parameters; `tool`, `email` and `api_key` are appended. POST when the
    /// encoded parameters exceed 2,000 characters or the ID list 200 IDs.
    pub(crate) fn eutils_request(
        &self,
        endpoint: &str,
        params: Vec<(&str, String)>,
        id_count: usize,
    ) -> HttpRequest {
        let mut params: Vec<(String, String)> = params
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        params.push(("tool".into(), self.settings.tool.clone()));
        if let Some(email) = &self.settings.email {
            params.push(("email".into(), email.clone()));
        }
        if let Some(key) = &self.settings.api_key {
            params.push(("api_key".into(), key.clone()));
        }
        let method = if id_count > MAX_GET_IDS || encoded_len(&params) > MAX_GET_PARAMS_LEN {
            Method::Post
        } else {
            Method::Get
        };
        HttpRequest {
            method,
            url: join_url(&self.settings.eutils_url, endpoint),
            params,
        }
    }

    /// Runs an E-utilities XML call: classification per client.md, then
    /// `parse` on the root element.
    pub(crate) async fn eutils_xml<T>(
        &self,
        endpoint: &str,
        req: HttpRequest,
        parse: impl Fn(&Element) -> Result<T, String>,
    ) -> Result<T> {
        self.execute(endpoint, Lane::Eutils, &req, |resp| {
            classify::classify_xml(&resp, endpoint, &parse)
        })
        .await
    }

    /// A note on stderr when notes are on.
    fn note(&self, msg: std::fmt::Arguments<'_>) {
        if self.settings.notes {
            crate::diag!("pubmed: {msg}");
        }
    }

    fn log_request(&self, req: &HttpRequest, attempt: u32) {
        if !self.settings.verbose {
            return;
        }
        let shown: Vec<String> = req
            .params
            .iter()
            .map(|(k, v)| {
                let v = if k == "api_key" {
                    "REDACTED".to_string()
                } else if v.chars().count() > 200 {
                    let cut: String = v.chars().take(200).collect();
                    format!("{cut}…")
                } else {
                    v.clone()
                };
                format!("{k}={v}")
            })
            .collect();
        let method = match req.method {
            Method::Get => "GET",
            Method::Post => "POST",
        };
        crate::diag!(
            "pubmed: {method} {} {} (attempt {attempt})",
            req.url,
            shown.join("&")
        );
    }

    /// Sends `req` under the pacer (in `lane`) with retries and one total
    /// deadline (client.md "Retries and deadlines"); `classify` turns each
    /// answer into a [`Verdict`].
    pub(crate) async fn execute<T>(
        &self,
        endpoint: &str,
        lane: Lane,
        req: &HttpRequest,
        classify: impl Fn(HttpResponse) -> Verdict<T>,
    ) -> Result<T> {
        let policy = &self.settings.policy;
        let deadline = Instant::now()
            .checked_add(policy.deadline)
            .unwrap_or_else(|| Instant::now() + std::time::Duration::from_secs(86_400));
        let mut backoff = ExponentialBuilder::default()
            .with_min_delay(policy.retry_base)
            .with_max_delay(policy.retry_cap)
            .with_factor(2.0)
            .with_max_times(policy.max_retries as usize)
            .build();
        let deadline_error = || {
            Error::new(
                Reason::NcbiDeadlineExceeded,
                format!(
                    "{endpoint} did not answer within the {}s deadline",
                    policy.deadline.as_secs_f64()
                ),
            )
        };
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let permit = self.pacer.acquire(deadline, lane).await?;
            self.log_request(req, attempt);
            self.sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let now = Instant::now();
            let budget = policy
                .request_timeout
                .min(deadline.saturating_duration_since(now));
            let sent = tokio::time::timeout(budget, self.transport.send(req.clone())).await;
            let started = permit.started;
            drop(permit);
            let verdict = match sent {
                Err(_) if Instant::now() >= deadline => return Err(deadline_error()),
                Err(_) => Verdict::Transient {
                    text: format!("{endpoint} gave no answer within {}s", budget.as_secs_f64()),
                    retry_after: None,
                },
                Ok(Err(TransportError::TooLarge)) => {
                    return Err(Error::new(
                        Reason::NcbiInvalidResponse,
                        format!("{endpoint}: {}", TransportError::TooLarge),
                    ));
                }
                Ok(Err(e)) => Verdict::Transient {
                    text: format!("{endpoint} ({}): {e}", host_of(&req.url)),
                    retry_after: None,
                },
                Ok(Ok(resp)) => classify(resp),
            };
            match verdict {
                Verdict::Done(v) => {
                    self.pacer.note_success();
                    return Ok(v);
                }
                Verdict::Fatal(e) => return Err(e),
                Verdict::RateLimited { retry_after } => {
                    let limited = |why: String| {
                        let mut e = Error::new(Reason::NcbiRateLimited, why);
                        if let Some(ra) = retry_after {
                            e = e.with_retry_after(ra.as_secs().max(1));
                        }
                        e
                    };
                    if let Some(ra) = retry_after
                        && (ra > policy.max_retry_after
                            || Instant::now().checked_add(ra).is_none_or(|t| t > deadline))
                    {
                        return Err(limited(format!(
                            "{endpoint} answered HTTP 429 asking to wait {}s",
                            ra.as_secs()
                        )));
                    }
                    let resume = self.pacer.note_rate_limited(started, retry_after);
                    if backoff.next().is_none() {
                        return Err(limited(format!(
                            "{endpoint} answered HTTP 429 (rate limited) on all {}",
                            count(attempt, "attempt")
                        )));
                    }
                    if resume > deadline {
                        return Err(limited(format!(
                            "{endpoint} answered HTTP 429 and the cooldown outlasts the deadline"
                        )));
                    }
                    self.note(format_args!(
                        "{endpoint} answered HTTP 429 (rate limited); waiting {:.1} s before attempt {} of {}",
                        resume.saturating_duration_since(Instant::now()).as_secs_f64(),
                        attempt + 1,
                        policy.max_retries + 1
                    ));
                }
                Verdict::Transient { text, retry_after } => {
                    let Some(step) = backoff.next() else {
                        return Err(Error::new(
                            Reason::NcbiUnreachable,
                            format!("gave up after {}: {text}", count(attempt, "attempt")),
                        ));
                    };
                    let delay = retry_after.unwrap_or_else(|| jitter(step).min(policy.retry_cap));
                    if Instant::now()
                        .checked_add(delay)
                        .is_none_or(|t| t >= deadline)
                    {
                        return Err(Error::new(
                            Reason::NcbiUnreachable,
                            format!(
                                "gave up after {} (the next wait would pass the deadline): {text}",
                                count(attempt, "attempt")
                            ),
                        ));
                    }
                    self.note(format_args!(
                        "{text}; retrying in {:.1} s (attempt {} of {})",
                        delay.as_secs_f64(),
                        attempt + 1,
                        policy.max_retries + 1
                    ));
                    tokio::time::sleep(delay).await;
                }
            }
        }
    }
}

/// The host of a URL, for messages.
fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| url.to_string())
}

/// ±25% jitter around a backoff step.
fn jitter(step: Duration) -> Duration {
    step.mul_f64(rand::random_range(0.75..=1.25))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_join_with_one_slash() {
        assert_eq!(
            join_url("http://h/e/", "espell.fcgi"),
            "http://h/e/espell.fcgi"
        );
        assert_eq!(
            join_url("http://h/e", "espell.fcgi"),
            "http://h/e/espell.fcgi"
        );
    }

    #[test]
    fn long_requests_go_out_as_post() {
        let c = Client::with_transport(
            ClientSettings::default(),
            Arc::new(ReqwestTransport::new().unwrap()),
        );
        let short = c.eutils_request("esearch.fcgi", vec![("term", "x".into())], 0);
        assert_eq!(short.method, Method::Get);
        let long = c.eutils_request("esearch.fcgi", vec![("term", "x".repeat(2500))], 0);
        assert_eq!(long.method, Method::Post);
        let ids = c.eutils_request("esummary.fcgi", vec![("id", "1,".repeat(201))], 201);
        assert_eq!(ids.method, Method::Post);
    }

    #[test]
    fn jitter_stays_within_a_quarter() {
        for _ in 0..1000 {
            let d = jitter(Duration::from_secs(4));
            assert!(d >= Duration::from_secs(3) && d <= Duration::from_secs(5));
        }
    }
}
