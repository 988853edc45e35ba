//! The HTTP seam: the client's policy (pacing, retries, deadlines) runs above
//! a [`Transport`], so tests can swap reqwest for an in-process fake and run
//! under paused tokio time.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;

/// GET (parameters in the URL) or POST (parameters as a form body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Query-string parameters.
    Get,
    /// `application/x-www-form-urlencoded` body.
    Post,
}

/// One HTTP request: the transport percent-encodes `params`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// GET or POST.
    pub method: Method,
    /// Full URL without query string (`…/esearch.fcgi`).
    pub url: String,
    /// Parameters in order, unencoded.
    pub params: Vec<(String, String)>,
}

/// A complete HTTP answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HttpResponse {
    /// The URL that answered, without its query string (never holds `api_key`).
    pub url: String,
    /// Status code.
    pub status: u16,
    /// The `Retry-After` header, verbatim.
    pub retry_after: Option<String>,
    /// The `Content-Type` header, verbatim.
    pub content_type: Option<String>,
    /// The whole body.
    pub body: Bytes,
}

/// The largest body read; a larger one is not an E-utilities answer (the
/// biggest, 1,000 ESummary records, is a few MB).
pub const MAX_BODY: usize = 64 * 1024 * 1024;

/// A failure below HTTP semantics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// Could not connect (TLS handshake, connect timeout); transient.
    Connect(String),
    /// The server's TLS certificate does not verify (self-signed, unknown
    /// issuer, expired, issued for another host): what the certificate
    /// problem is, in words. Waiting cannot fix it: not retried.
    Certificate(String),
    /// The host name does not resolve; waiting rarely fixes it (tried twice).
    Unresolved(String),
    /// The server (or proxy) refused the connection; tried twice.
    Refused(String),
    /// The connection broke or the body ended before its Content-Length; transient.
    Broken(String),
    /// The body is larger than [`MAX_BODY`]; not retried.
    TooLarge,
    /// The server redirected to another origin (scheme, host, port), given
    /// without its query string. Not followed: the request carries the API
    /// key and e-mail. Not retried.
    Redirected(String),
    /// The server kept redirecting within its own site more than
    /// [`MAX_REDIRECTS`] times (a loop or a misconfigured URL). Not retried.
    TooManyRedirects,
    /// The HTTP client could not be built (the TLS backend did not start):
    /// neither NCBI's fault nor the user's; not retried.
    Setup(String),
}

impl std::fmt::Display for TransportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TransportError::Connect(m) => write!(f, "cannot connect: {m}"),
            TransportError::Certificate(m) => {
                write!(f, "its TLS certificate does not verify: {m}")
            }
            TransportError::Unresolved(m) => write!(f, "the host name does not resolve: {m}"),
            TransportError::Refused(m) => write!(f, "connection refused: {m}"),
            TransportError::Broken(m) => write!(f, "connection broken: {m}"),
            TransportError::TooLarge => {
                write!(f, "the answer is larger than {} MB", MAX_BODY >> 20)
            }
            TransportError::Redirected(to) => write!(f, "redirected to {to}"),
            TransportError::TooManyRedirects => write!(f, "more than {MAX_REDIRECTS} redirects"),
            TransportError::Setup(m) => write!(f, "cannot start the HTTP client: {m}"),
        }
    }
}

/// The future a transport returns.
pub type SendFuture<'a> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, TransportError>> + Send + 'a>>;

/// Sends one request and reads the whole body. Implementations do no retries
/// and no pacing; the client's per-request timeout wraps the future.
pub trait Transport: Send + Sync {
    /// Sends `req`.
    fn send(&self, req: HttpRequest) -> SendFuture<'_>;
}

/// The production transport: reqwest with rustls (TLS verified), a
/// User-Agent naming this tool and version, no `Referer`, and redirects
/// followed only within one origin (docs/client.md "The API key").
#[derive(Debug, Clone, Default)]
pub struct ReqwestTransport {
    /// Built on the first request: a run answered from the cache, or
    /// refused before any request, never reads the system's root
    /// certificates (a few milliseconds and a few hundred file reads).
    http: std::sync::OnceLock<Result<reqwest::Client, String>>,
}

/// Redirects followed within one origin before giving up.
pub const MAX_REDIRECTS: usize = 5;

/// The redirect policy's error for a chain longer than [`MAX_REDIRECTS`],
/// found again in the reqwest error's sources by [`ReqwestTransport`].
#[derive(Debug)]
struct RedirectLoop;

impl std::fmt::Display for RedirectLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "more than {MAX_REDIRECTS} redirects")
    }
}

impl std::error::Error for RedirectLoop {}

/// True when `e` (a reqwest error) was caused by [`RedirectLoop`].
fn is_redirect_loop(e: &reqwest::Error) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if s.is::<RedirectLoop>() {
            return true;
        }
        source = s.source();
    }
    false
}

/// True when a redirect from `from` to `to` keeps the request on the same
/// site: the same origin, or the same host moving from http to https.
pub fn same_site(from: &url::Url, to: &url::Url) -> bool {
    from.origin() == to.origin()
        || (from.scheme() == "http"
            && to.scheme() == "https"
            && from.host_str() == to.host_str()
            && to.port().is_none())
}

/// The parts of a URL safe to show: scheme, host, port and path (no user
/// name, password or query string).
pub fn shown_url(u: &url::Url) -> String {
    let mut u = u.clone();
    u.set_query(None);
    u.set_fragment(None);
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u.to_string()
}

/// Installs rustls's ring provider as the process default, once; a second
/// call changes nothing. reqwest is built without a provider (`Cargo.toml`:
/// no aws-lc-sys C build), so every reqwest client in the process needs this
/// first — tests that make their own clients call it too.
pub fn install_tls_provider() {
    // Err means a provider is already installed: the one we want.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl ReqwestTransport {
    /// A transport whose HTTP client is built by its first request
    /// ([`TransportError::Setup`] when the TLS backend cannot start).
    pub fn new() -> Self {
        Self::default()
    }

    /// The HTTP client, built once.
    fn http(&self) -> Result<&reqwest::Client, TransportError> {
        self.http
            .get_or_init(Self::build)
            .as_ref()
            .map_err(|e| TransportError::Setup(e.clone()))
    }

    /// Builds the HTTP client. Errors when the TLS backend cannot start.
    fn build() -> Result<reqwest::Client, String> {
        let redirects = reqwest::redirect::Policy::custom(|attempt| {
            let from = attempt.previous().last().cloned();
            if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error(RedirectLoop)
            } else if from.is_some_and(|from| same_site(&from, attempt.url())) {
                attempt.follow()
            } else {
                // The 3xx answer comes back; `send` reports where it pointed.
                attempt.stop()
            }
        });
        install_tls_provider();
        reqwest::Client::builder()
            .user_agent(concat!(
                "pubmed-cli/",
                env!("CARGO_PKG_VERSION"),
                " (+https://github.com/pubmed-cli)"
            ))
            .connect_timeout(Duration::from_secs(10))
            .referer(false)
            .redirect(redirects)
            .build()
            .map_err(|e| e.to_string())
    }
}

/// The innermost cause of a reqwest error, which names what really failed
/// (e.g. "connection refused", "end of file before message length reached").
fn root_cause(e: &reqwest::Error) -> String {
    let mut msg = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        msg = s.to_string();
        source = s.source();
    }
    msg
}

/// What is wrong with a certificate rustls refused, in words: rustls
/// names some problems only by their variant (`UnknownIssuer`).
pub fn certificate_problem(c: &rustls::CertificateError) -> String {
    use rustls::CertificateError as C;
    match c {
        C::UnknownIssuer => "it is not issued by an authority this machine trusts (a self-signed certificate, or a proxy that intercepts TLS)".into(),
        C::Expired => "it has expired".into(),
        C::NotValidYet => "it is not valid yet (check the system clock)".into(),
        C::NotValidForName => "it is issued for another host name".into(),
        C::Revoked => "it has been revoked".into(),
        C::BadEncoding => "it cannot be read".into(),
        other => other.to_string(),
    }
}

/// The rustls certificate error behind `s`: `s` itself, or inside
/// `io::Error`s (hyper-util wraps tokio-rustls' `io::Error` in another;
/// `io::Error::source` skips the error it wraps, so each is opened here).
fn certificate_error<'a>(
    s: &'a (dyn std::error::Error + 'static),
) -> Option<&'a rustls::CertificateError> {
    let mut e = s;
    loop {
        if let Some(rustls::Error::InvalidCertificate(c)) = e.downcast_ref::<rustls::Error>() {
            return Some(c);
        }
        match e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => e = inner,
            None => return None,
        }
    }
}

/// Sorts a failed connection: a certificate that does not verify (rustls'
/// `InvalidCertificate` in the source chain), a name that does not resolve
/// (hyper-util's "dns error"), a refused connection, or anything else.
fn connect_error(e: &reqwest::Error) -> TransportError {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if let Some(c) = certificate_error(s) {
            return TransportError::Certificate(certificate_problem(c));
        }
        if s.to_string() == "dns error" {
            return TransportError::Unresolved(root_cause(e));
        }
        if let Some(io) = s.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::ConnectionRefused
        {
            return TransportError::Refused(root_cause(e));
        }
        source = s.source();
    }
    TransportError::Connect(root_cause(e))
}

impl Transport for ReqwestTransport {
    fn send(&self, req: HttpRequest) -> SendFuture<'_> {
        Box::pin(async move {
            let http = self.http()?;
            let builder = match req.method {
                Method::Get => http.get(&req.url).query(&req.params),
                Method::Post => http.post(&req.url).form(&req.params),
            };
            let resp = builder.send().await.map_err(|e| {
                if e.is_connect() {
                    connect_error(&e)
                } else if is_redirect_loop(&e) {
                    TransportError::TooManyRedirects
                } else if e.is_redirect() {
                    TransportError::Redirected(root_cause(&e))
                } else {
                    TransportError::Broken(root_cause(&e))
                }
            })?;
            if resp.status().is_redirection() {
                let to = resp
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| resp.url().join(v).ok())
                    .map_or_else(|| "an unnamed location".into(), |u| shown_url(&u));
                return Err(TransportError::Redirected(to));
            }
            let header = |name: reqwest::header::HeaderName| {
                resp.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            };
            let status = resp.status().as_u16();
            let mut url = resp.url().clone();
            url.set_query(None);
            let retry_after = header(reqwest::header::RETRY_AFTER);
            let content_type = header(reqwest::header::CONTENT_TYPE);
            let mut resp = resp;
            // Sized once from Content-Length (capped): a body grown by
            // doubling holds up to twice its length (a 2.3 MB EFetch
            // answer in a 4 MB buffer) while it is parsed.
            let declared = resp.content_length().unwrap_or(0);
            let mut body = Vec::with_capacity(declared.min(MAX_BODY as u64) as usize);
            while let Some(chunk) = resp
                .chunk()
                .await
                .map_err(|e| TransportError::Broken(root_cause(&e)))?
            {
                if body.len() + chunk.len() > MAX_BODY {
                    return Err(TransportError::TooLarge);
                }
                body.extend_from_slice(&chunk);
            }
            let body = Bytes::from(body);
            Ok(HttpResponse {
                url: url.to_string(),
                status,
                retry_after,
                content_type,
                body,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The HTTP client (and the system's root certificates) is built by
    /// the first request, not before: a run that sends none never reads
    /// them. A refused connection still builds it.
    #[test]
    fn the_http_client_is_built_by_the_first_request() {
        let t = ReqwestTransport::new();
        assert!(t.http.get().is_none());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let sent = rt.block_on(t.send(HttpRequest {
            method: Method::Get,
            url: format!("http://127.0.0.1:{port}/esearch.fcgi"),
            params: vec![],
        }));
        assert!(matches!(sent, Err(TransportError::Refused(_))), "{sent:?}");
        assert!(matches!(t.http.get(), Some(Ok(_))));
    }

    /// hyper-util hands tokio-rustls' `io::Error` on inside another
    /// `io::Error` (seen with reqwest 0.13): the certificate error is found
    /// through both, and nothing else counts as one.
    #[test]
    fn a_certificate_error_is_found_inside_nested_io_errors() {
        use std::io;
        let tls = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let nested = io::Error::other(io::Error::new(io::ErrorKind::InvalidData, tls));
        let c = certificate_error(&nested).unwrap();
        assert_eq!(c, &rustls::CertificateError::UnknownIssuer);
        assert!(certificate_problem(c).contains("not issued by an authority"));
        let other = io::Error::other(io::Error::new(
            io::ErrorKind::InvalidData,
            rustls::Error::DecryptError,
        ));
        assert!(certificate_error(&other).is_none());
        let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
        assert!(certificate_error(&refused).is_none());
        assert_eq!(
            certificate_problem(&rustls::CertificateError::Expired),
            "it has expired"
        );
    }
}
