//! The shared NCBI client: one per process, used by every command and MCP
//! tool call. It owns pacing (with the budget shared by every `pubmed`
//! process), retries and deadlines (docs/client.md) and returns typed
//! results or typed errors.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::budget::{self, SharedBudget};
use super::classify::{self, Refusal, Verdict};
use super::db::Db;
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
/// Europe PMC's REST API (`{base}{PMCID}/fullTextXML`).
pub const DEFAULT_EUROPEPMC_URL: &str = "https://www.ebi.ac.uk/europepmc/webservices/rest/";
/// The `tool` parameter sent when none is configured.
pub const DEFAULT_TOOL: &str = "pubmed-cli";

/// E-utilities switch from GET to POST above this many encoded characters.
const MAX_GET_PARAMS_LEN: usize = 2000;
/// … or above this many IDs in one `id` list.
const MAX_GET_IDS: usize = super::limits::POST_ABOVE_IDS;

/// Where and as whom the client calls NCBI, and its policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientSettings {
    /// E-utilities base URL (`…/eutils/`).
    pub eutils_url: String,
    /// ID Converter URL.
    pub idconv_url: String,
    /// Europe PMC REST base URL (`…/rest/`).
    pub europepmc_url: String,
    /// `tool` parameter.
    pub tool: String,
    /// `email` parameter, when configured.
    pub email: Option<String>,
    /// `api_key` parameter (E-utilities only), when configured.
    pub api_key: Option<String>,
    /// Pacing, retries, deadlines.
    pub policy: Policy,
    /// Log each request on stderr (key redacted).
    pub verbose: bool,
    /// Say on stderr when a call is retried or waits out a 429 cooldown.
    pub notes: bool,
    /// The directory of the request budget shared by every `pubmed`
    /// process of the user (`$XDG_RUNTIME_DIR`, else the cache directory);
    /// `None` paces this process alone (docs/client.md "Shared budget").
    pub budget_dir: Option<PathBuf>,
    /// Where the API key came from, for messages: `"NCBI_API_KEY"`,
    /// `"--api-key"`, `"config file /path"`.
    pub api_key_origin: Option<String>,
}

impl Default for ClientSettings {
    fn default() -> Self {
        ClientSettings {
            eutils_url: DEFAULT_EUTILS_URL.into(),
            idconv_url: DEFAULT_IDCONV_URL.into(),
            europepmc_url: DEFAULT_EUROPEPMC_URL.into(),
            tool: DEFAULT_TOOL.into(),
            email: None,
            api_key: None,
            policy: Policy::default(),
            verbose: false,
            notes: false,
            budget_dir: None,
            api_key_origin: None,
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
    /// The local cache (docs/cache.md), when on.
    cache: Option<Arc<crate::cache::Cache>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("eutils_url", &self.settings.eutils_url)
            .field("idconv_url", &self.settings.idconv_url)
            .finish_non_exhaustive()
    }
}

/// `base` + `path`, with one slash between; a query string in `base` (a
/// key pasted into `--eutils-url`) stays at the end.
fn join_url(base: &str, path: &str) -> String {
    let (base, query) = match base.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (base, None),
    };
    let mut url = if base.ends_with('/') || path.is_empty() {
        format!("{base}{path}")
    } else {
        format!("{base}/{path}")
    };
    if let Some(q) = query {
        url.push('?');
        url.push_str(q);
    }
    url
}

/// True for a parameter that holds the API key.
fn is_key_param(name: &str) -> bool {
    name.eq_ignore_ascii_case("api_key")
}

/// `url` as `-v` and `pubmed config show` show it: `api_key` values in its
/// query and any password replaced by `REDACTED` (docs/client.md).
pub fn redact_url(url: &str) -> String {
    let Ok(mut u) = url::Url::parse(url) else {
        // Not a URL: the text rules (a password, every key value).
        return crate::core::secret::redact_url(url);
    };
    if u.password().is_some() {
        let _ = u.set_password(Some("REDACTED"));
    }
    if u.query().is_some() {
        let pairs: Vec<(String, String)> = u
            .query_pairs()
            .map(|(k, v)| {
                let v = if is_key_param(&k) {
                    "REDACTED".to_string()
                } else {
                    v.into_owned()
                };
                (k.into_owned(), v)
            })
            .collect();
        u.query_pairs_mut().clear().extend_pairs(pairs);
    }
    u.to_string()
}

/// A failed attempt the retry loop may retry.
struct Retry {
    /// HTTP 429: the pacer's cooldown is the wait.
    rate_limited: bool,
    /// What went wrong, for messages.
    text: String,
    /// The `Retry-After` the answer carried.
    retry_after: Option<Duration>,
    /// Waiting cannot fix it (no such host, connection refused): two
    /// attempts at most.
    hopeless: bool,
    /// The answer arrived but cannot be right ([`Verdict::Transient`]).
    bad_answer: bool,
}

/// An answer the call ends with, or a retry.
enum Next<T> {
    /// The call's value.
    Done(T),
    /// An attempt to retry after [`Client::next_wait`].
    Retry(Retry),
}

impl Retry {
    /// A failure worth another attempt; `hopeless` when waiting cannot fix
    /// it (two attempts at most).
    fn transient(text: String, hopeless: bool) -> Retry {
        Retry {
            rate_limited: false,
            text,
            retry_after: None,
            hopeless,
            bad_answer: false,
        }
    }

    /// An attempt that got no answer within `budget`: the end of the call
    /// (`ncbi_deadline_exceeded`) once the call's `deadline` (of `total`)
    /// has passed, else a retry.
    fn timed_out(
        endpoint: &str,
        budget: Duration,
        deadline: Instant,
        total: Duration,
    ) -> Result<Retry> {
        if Instant::now() >= deadline {
            return Err(Error::new(
                Reason::NcbiDeadlineExceeded,
                format!(
                    "{endpoint} did not answer within the {}s deadline",
                    total.as_secs_f64()
                ),
            ));
        }
        Ok(Retry::transient(
            format!("{endpoint} gave no answer within {}s", budget.as_secs_f64()),
            false,
        ))
    }

    /// An attempt whose transport failed before an answer (sent to `url`):
    /// a body over the cap is `ncbi_invalid_response` and a redirect
    /// `invalid_argument` at once (docs/client.md), and so is a certificate
    /// that does not verify (`ncbi_unreachable`); a host that does not
    /// resolve or refuses is a hopeless retry; anything else a retry.
    fn from_transport(endpoint: &str, url: &str, e: TransportError) -> Result<Retry> {
        let host = host_of(url);
        match e {
            TransportError::TooLarge => Err(Error::new(
                Reason::NcbiInvalidResponse,
                format!("{endpoint}: {}", TransportError::TooLarge),
            )),
            TransportError::Redirected(to) => Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "{endpoint} ({host}) redirected to {to}; not followed, so the API key and e-mail stay with the configured server"
                ),
            )
            .with_hint("if the service moved, point --eutils-url / PUBMED_EUTILS_URL (or --idconv-url / PUBMED_IDCONV_URL) at its new address")),
            e @ TransportError::TooManyRedirects => Err(Error::new(
                Reason::InvalidArgument,
                format!("{endpoint} ({host}) answered with {e} within its own site; not followed further"),
            )
            .with_hint("check --eutils-url / PUBMED_EUTILS_URL (or --idconv-url / PUBMED_IDCONV_URL): the server at that address keeps redirecting")),
            e @ TransportError::Certificate(_) => Err(Error::new(
                Reason::NcbiUnreachable,
                format!("{endpoint} ({host}): {e}; not retried (waiting cannot fix a certificate)"),
            )
            .with_hint(CERTIFICATE_HINT)),
            e @ TransportError::Setup(_) => Err(Error::new(
                Reason::Internal,
                format!("{endpoint}: {e}; not retried"),
            )),
            e @ (TransportError::Unresolved(_) | TransportError::Refused(_)) => {
                Ok(Retry::transient(format!("{endpoint} ({host}): {e}"), true))
            }
            e => Ok(Retry::transient(format!("{endpoint} ({host}): {e}"), false)),
        }
    }

    /// An answer's [`Verdict`]: the value, the error that ends the call,
    /// or a retry (a 429, or a transient answer).
    fn from_verdict<T>(endpoint: &str, verdict: Verdict<T>) -> Result<Next<T>> {
        match verdict {
            Verdict::Done(v) => Ok(Next::Done(v)),
            Verdict::Fatal(e) => Err(e),
            Verdict::RateLimited { retry_after } => Ok(Next::Retry(Retry {
                rate_limited: true,
                text: format!("{endpoint} answered HTTP 429 (rate limited)"),
                retry_after,
                hopeless: false,
                bad_answer: false,
            })),
            Verdict::Transient {
                text,
                retry_after,
                bad_answer,
            } => Ok(Next::Retry(Retry {
                bad_answer,
                rate_limited: false,
                text,
                retry_after,
                hopeless: false,
            })),
        }
    }
}

/// The hint for a server whose TLS certificate does not verify.
const CERTIFICATE_HINT: &str = "check that --eutils-url / PUBMED_EUTILS_URL (or --idconv-url / PUBMED_IDCONV_URL) names the real server; a proxy that intercepts TLS needs its authority in the system's trust store; certificates are always verified";

/// The hint for a server that cannot be reached at all.
const UNREACHABLE_HINT: &str = "check the host name and the network: the server URLs come from --eutils-url / PUBMED_EUTILS_URL and --idconv-url / PUBMED_IDCONV_URL; behind a proxy set HTTPS_PROXY (NO_PROXY lists hosts reached directly); on a slow network raise --timeout";

/// Whole seconds to wait, at least 1.
fn ceil_secs(d: Duration) -> u64 {
    (d.as_millis().div_ceil(1000) as u64).max(1)
}

/// The error that ends a retried call (steps 3 and 4 of
/// [`Client::next_wait`]): its retries are used up, or (`past_deadline`)
/// its next wait would end at or past the deadline. A 429 is
/// `ncbi_rate_limited` with the cooldown as `retryAfter`; anything else is
/// `ncbi_unreachable`, with the URL and proxy hint when the retries of a
/// host that does not resolve or refuses are used up.
fn give_up(r: &Retry, attempt: u32, cooldown: Duration, past_deadline: bool) -> Error {
    let tried = count(attempt, "attempt");
    if r.rate_limited {
        let why = if past_deadline {
            format!("{} and the cooldown outlasts the deadline", r.text)
        } else {
            format!("{} on all {tried}", r.text)
        };
        return Error::new(Reason::NcbiRateLimited, why).with_retry_after(ceil_secs(cooldown));
    }
    // A last answer that cannot be right is a bad answer, not silence,
    // whether the retries or the deadline ended the loop.
    let reason = if r.bad_answer {
        Reason::NcbiInvalidResponse
    } else {
        Reason::NcbiUnreachable
    };
    if past_deadline {
        return Error::new(
            reason,
            format!(
                "gave up after {tried} (the next wait would pass the deadline): {}",
                r.text
            ),
        );
    }
    let e = Error::new(reason, format!("gave up after {tried}: {}", r.text));
    if r.hopeless {
        e.with_hint(UNREACHABLE_HINT)
    } else {
        e
    }
}

fn encoded_len(params: &[(String, String)]) -> usize {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish()
        .len()
}

impl Client {
    /// A client over HTTPS (reqwest + rustls), built by its first request.
    pub fn new(settings: ClientSettings) -> Self {
        Self::with_transport(settings, Arc::new(ReqwestTransport::new()))
    }

    /// A client over any transport (tests use in-process fakes). The shared
    /// budget is used when the policy allows it and `budget_dir` is set.
    pub fn with_transport(settings: ClientSettings, transport: Arc<dyn Transport>) -> Self {
        let p = &settings.policy;
        let cfg = PacerConfig {
            gap: p.gap(settings.api_key.is_some()),
            idconv_gap: p.gap(false),
            max_in_flight: p.max_in_flight,
            max_waiting: p.max_waiting,
            cooldown_base: p.retry_base,
            cooldown_cap: p.retry_cap,
        };
        let pacer = match (&settings.budget_dir, p.shared_budget) {
            (Some(dir), true) => Pacer::with_budget(
                cfg,
                Arc::new(SharedBudget::new(
                    dir.clone(),
                    settings.notes,
                    settings.verbose,
                )),
                budget::eutils_lane(settings.api_key.as_deref()),
            ),
            (_, shared) => {
                if settings.verbose {
                    let why = if shared {
                        "no runtime or cache directory"
                    } else {
                        "shared_budget is off"
                    };
                    crate::diag!(
                        "pubmed: shared request budget off ({why}); pacing this process alone"
                    );
                }
                Pacer::new(cfg)
            }
        };
        Client {
            settings,
            transport,
            pacer,
            sent: std::sync::atomic::AtomicU64::new(0),
            cache: None,
        }
    }

    /// This client with the local cache `cache` (docs/cache.md): batch
    /// operations answer cached items without a request.
    pub fn with_cache(mut self, cache: Option<Arc<crate::cache::Cache>>) -> Self {
        self.cache = cache;
        self
    }

    /// The local cache, when on.
    pub fn cache(&self) -> Option<&crate::cache::Cache> {
        self.cache.as_deref()
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

    /// Builds an E-utilities request to `eutil` (`esearch.fcgi`, …) on
    /// database `db`: `db` first, then the caller's parameters, then
    /// `tool`, `email` and `api_key`. POST when the encoded parameters
    /// exceed 2,000 characters or the ID list [`MAX_GET_IDS`] IDs.
    pub(crate) fn eutils_request(
        &self,
        eutil: &str,
        db: Db,
        params: Vec<(&str, String)>,
        id_count: usize,
    ) -> HttpRequest {
        let mut params: Vec<(String, String)> = std::iter::once(("db", db.as_str().to_string()))
            .chain(params)
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
            url: join_url(&self.settings.eutils_url, eutil),
            params,
        }
    }

    /// Runs an E-utilities XML call: classification per docs/client.md, then
    /// `parse` on the root element. A parser may refuse a document as
    /// [`Refusal::Invalid`] (`ncbi_invalid_response` at once), or as
    /// [`Refusal::Inconsistent`] or [`Refusal::Mismatch`]: such an answer
    /// is retried like an outage and, if the last attempt is still one, the
    /// call ends as `ncbi_invalid_response`, never as a result (docs/client.md
    /// "Classifying an answer", step 6).
    pub(crate) async fn eutils_xml_checked<T>(
        &self,
        endpoint: &str,
        req: HttpRequest,
        parse: impl Fn(&Element) -> Result<T, Refusal>,
    ) -> Result<T> {
        self.execute(endpoint, Lane::Eutils, &req, |resp| {
            classify::classify_xml_checked(&resp, endpoint, &parse)
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
                let v = if is_key_param(k) {
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
            redact_url(&req.url),
            shown.join("&")
        );
    }

    /// Sends `req` under the pacer (in `lane`) with retries and one total
    /// deadline (docs/client.md "Retries and deadlines"); `classify` turns
    /// each answer into a [`Verdict`]. Every failed attempt goes through
    /// [`Client::next_wait`].
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
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400));
        let mut attempt = 0u32;
        let mut last_bad: Option<u64> = None;
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
            let mut repeated = false;
            let retry = match sent {
                Err(_) => Retry::timed_out(endpoint, budget, deadline, policy.deadline)?,
                Ok(Err(e)) => Retry::from_transport(endpoint, &req.url, e)?,
                Ok(Ok(resp)) => {
                    let print = fingerprint(&resp);
                    match Retry::from_verdict(endpoint, classify(resp)) {
                        Ok(Next::Done(v)) => {
                            self.pacer.note_success(lane).await;
                            return Ok(v);
                        }
                        Ok(Next::Retry(r)) => {
                            // The same answer that cannot be right, twice:
                            // waiting will not change it (docs/client.md
                            // "Classifying an answer").
                            repeated = r.bad_answer && last_bad == Some(print);
                            last_bad = r.bad_answer.then_some(print);
                            r
                        }
                        Err(e) if e.reason == Reason::InvalidApiKey => {
                            return Err(self.with_key_origin(e));
                        }
                        Err(e) => return Err(e),
                    }
                }
            };
            if repeated {
                return Err(Error::new(
                    Reason::NcbiInvalidResponse,
                    format!(
                        "gave up after {}: {} (the same answer twice)",
                        count(attempt, "attempt"),
                        retry.text
                    ),
                ));
            }
            let resume = self
                .next_wait(lane, &retry, attempt, started, deadline)
                .await?;
            tokio::time::sleep_until(resume).await;
        }
    }

    /// The one wait decision for every retried answer (429 and transient
    /// alike): when to send attempt `attempt + 1`, or the error that ends
    /// the call. In order:
    /// 1. a `Retry-After` over `max_retry_after` or past the deadline stops
    ///    the call as `ncbi_rate_limited` with `retryAfter`;
    /// 2. the wait is the 429 cooldown (shared by every process of the
    ///    budget), else `Retry-After`, else the jittered backoff step;
    /// 3. with the retries used up (two attempts for a host that does not
    ///    resolve or refuses), a 429 is `ncbi_rate_limited`, anything else
    ///    `ncbi_unreachable`;
    /// 4. a wait that would end at or past the deadline stops the same way.
    async fn next_wait(
        &self,
        lane: Lane,
        r: &Retry,
        attempt: u32,
        started: Instant,
        deadline: Instant,
    ) -> Result<Instant> {
        let policy = &self.settings.policy;
        let now = Instant::now();
        let limited = |why: String, wait: Option<Duration>| {
            let e = Error::new(Reason::NcbiRateLimited, why);
            match wait {
                Some(w) => e.with_retry_after(ceil_secs(w)),
                None => e,
            }
        };
        if let Some(ra) = r.retry_after {
            let too_long = ra > policy.max_retry_after;
            if too_long || now.checked_add(ra).is_none_or(|t| t > deadline) {
                if r.rate_limited {
                    // The other requests (and processes) hold off too, for
                    // as long as pubmed ever waits.
                    self.pacer
                        .note_rate_limited(lane, started, Some(ra.min(policy.max_retry_after)))
                        .await;
                }
                let why = if too_long {
                    format!(
                        "more than the {} s pubmed waits",
                        policy.max_retry_after.as_secs()
                    )
                } else {
                    "longer than the call's time left".to_string()
                };
                let e = limited(
                    format!("{} and asked to wait {} s ({why})", r.text, ceil_secs(ra)),
                    Some(ra),
                );
                return Err(if r.rate_limited {
                    e
                } else {
                    e.with_hint(
                        "the server asked to be tried again later: retry after retryAfter seconds",
                    )
                });
            }
        }
        let resume = if r.rate_limited {
            self.pacer
                .note_rate_limited(lane, started, r.retry_after)
                .await
        } else {
            let wait = r
                .retry_after
                .unwrap_or_else(|| policy.backoff().jittered(attempt - 1));
            now.checked_add(wait).unwrap_or(deadline)
        };
        let retries = if r.hopeless {
            policy.max_retries.min(1)
        } else {
            policy.max_retries
        };
        let cooldown = resume.saturating_duration_since(now);
        if attempt > retries || resume >= deadline {
            return Err(give_up(r, attempt, cooldown, attempt <= retries));
        }
        let verb = if r.rate_limited {
            "waiting"
        } else {
            "retrying in"
        };
        self.note(format_args!(
            "{}; {verb} {:.1} s (attempt {} of {})",
            r.text,
            cooldown.as_secs_f64(),
            attempt + 1,
            retries + 1
        ));
        Ok(resume)
    }

    /// `e` (an `invalid_api_key` error) saying where the key came from.
    fn with_key_origin(&self, mut e: Error) -> Error {
        let origin = self.settings.api_key_origin.clone().or_else(|| {
            let in_url = |u: &str| u.to_ascii_lowercase().contains("api_key=");
            in_url(&self.settings.eutils_url).then(|| "the E-utilities URL".to_string())
        });
        if let Some(origin) = origin {
            e.message = format!("{} (the key came from {origin})", e.message);
        }
        e
    }
}

/// A hash of an answer's status and body, to tell an answer that repeats.
fn fingerprint(resp: &HttpResponse) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    resp.status.hash(&mut h);
    resp.body.hash(&mut h);
    h.finish()
}

/// The host of a URL, for messages.
fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27: a last answer cut short (a bad answer) is
    /// `ncbi_invalid_response` whether the retries or the deadline end the
    /// loop; silence stays `ncbi_unreachable` in both.
    #[test]
    fn the_last_answers_verdict_decides_the_reason() {
        let cut = Retry {
            bad_answer: true,
            ..Retry::transient("ESpell answered XML cut short".into(), false)
        };
        let silent = Retry::transient("ESpell gave no answer within 5s".into(), false);
        for past_deadline in [false, true] {
            let e = give_up(&cut, 3, Duration::ZERO, past_deadline);
            assert_eq!(e.reason, Reason::NcbiInvalidResponse, "{past_deadline}");
            assert!(
                e.message.ends_with("ESpell answered XML cut short"),
                "{}",
                e.message
            );
            let e = give_up(&silent, 3, Duration::ZERO, past_deadline);
            assert_eq!(e.reason, Reason::NcbiUnreachable, "{past_deadline}");
        }
    }

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
        let c =
            Client::with_transport(ClientSettings::default(), Arc::new(ReqwestTransport::new()));
        let short = c.eutils_request("esearch.fcgi", Db::Pubmed, vec![("term", "x".into())], 0);
        assert_eq!(short.method, Method::Get);
        let long = c.eutils_request(
            "esearch.fcgi",
            Db::Pubmed,
            vec![("term", "x".repeat(2500))],
            0,
        );
        assert_eq!(long.method, Method::Post);
        let ids = c.eutils_request(
            "esummary.fcgi",
            Db::Pubmed,
            vec![("id", "1,".repeat(201))],
            201,
        );
        assert_eq!(ids.method, Method::Post);
        // The database is a parameter: `db` leads, as the caller names it.
        let mesh = c.eutils_request("esearch.fcgi", Db::Mesh, vec![("term", "x".into())], 0);
        assert_eq!(mesh.params[0], ("db".to_string(), "mesh".to_string()));
        assert_eq!(short.params[0], ("db".to_string(), "pubmed".to_string()));
    }

    #[test]
    fn a_query_in_the_base_url_stays_at_the_end() {
        assert_eq!(
            join_url("http://h/e/?api_key=K1", "esearch.fcgi"),
            "http://h/e/esearch.fcgi?api_key=K1"
        );
    }

    #[test]
    fn keys_in_urls_are_redacted() {
        assert_eq!(
            redact_url("http://h/e/esearch.fcgi?x=1&api_key=SECRET9&API_KEY=S2"),
            "http://h/e/esearch.fcgi?x=1&api_key=REDACTED&API_KEY=REDACTED"
        );
        assert_eq!(
            redact_url("http://user:pw@h/e/esearch.fcgi"),
            "http://user:REDACTED@h/e/esearch.fcgi"
        );
        assert_eq!(
            redact_url("not a url ?api_key=SECRET9"),
            "not a url ?api_key=REDACTED"
        );
        assert_eq!(redact_url("http://h/e/"), "http://h/e/");
    }
}
