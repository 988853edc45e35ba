//! `pubmed mcp --http [ADDR]`: the same tools over MCP streamable HTTP, on
//! rmcp's own streamable-HTTP service (sessions, SSE, `Host`/`Origin`
//! checks, the body limit), so several agents share one server and one
//! NCBI client with its one rate budget (docs/mcp.md "HTTP").
//!
//! In front of rmcp this adds what a shared server needs: the path
//! (`/mcp`), a bearer token compared in constant time (required off
//! loopback), an `Origin` allow-list (the MCP spec's DNS-rebinding rule),
//! one log line per request on stderr (never the token), and cancellation
//! of a call whose client disconnects before the answer.
//!
//! And what keeps it up under abuse (docs/mcp.md "Limits"): a time limit
//! on request headers and bodies, a cap on connections (at the cap the
//! oldest connection that has not sent a request yet is closed, so
//! half-open connections cannot lock out a client), a cap on sessions, a
//! back-off on accept failures, one rate limit on the log lines a flood
//! repeats (accept failures, session refusals), and JSON-RPC
//! errors (as on stdio) for bodies that are not one JSON-RPC 2.0 message.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body, Frame};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use subtle::ConstantTimeEq;
use tokio::net::TcpListener;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::PubmedServer;
use crate::error::{Error, Reason};
use crate::ncbi::Client;

/// The address served when `--http` is given without one.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8765";
/// The path of the MCP endpoint.
pub const PATH: &str = "/mcp";
/// The largest request body accepted (HTTP 413 above).
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// How long a client may take to send a request's headers (then the
/// connection is closed).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's body (HTTP 408 after).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Open connections at most; at the cap a new one closes the oldest
/// connection that has not sent a request yet (or is itself closed when
/// every connection is in use).
pub const MAX_CONNECTIONS: usize = 512;
/// MCP sessions at most (one per `initialize`); beyond, HTTP 503 with a
/// JSON-RPC error until a session ends (`DELETE`) or expires.
pub const MAX_SESSIONS: usize = 256;
/// An idle session is closed (and its memory freed) after this long.
pub const SESSION_IDLE: Duration = Duration::from_secs(300);
/// Browser origins always accepted: pages served from this machine.
pub const LOOPBACK_ORIGINS: &[&str] = &[
    "http://localhost:*",
    "https://localhost:*",
    "http://127.0.0.1:*",
    "https://127.0.0.1:*",
    "http://[::1]:*",
    "https://[::1]:*",
];

/// How to serve over HTTP.
#[derive(Debug, Clone, Default)]
pub struct HttpOptions {
    /// `host:port` to listen on (`--http ADDR`).
    pub addr: String,
    /// The bearer token clients must send (`--token` / `PUBMED_MCP_TOKEN`);
    /// required when `addr` is not a loopback address.
    pub token: Option<String>,
    /// Browser origins accepted besides [`LOOPBACK_ORIGINS`]
    /// (`--allow-origin`), as `scheme://host[:port|:*]` or `null`.
    pub allow_origins: Vec<String>,
}

/// Fired when the client of an HTTP request goes away before its answer
/// was sent; the tool call then stops as if cancelled. Reaches the handler
/// through the request's `http::request::Parts` extensions.
#[derive(Debug, Clone)]
pub struct Disconnected(pub CancellationToken);

/// A response body that fires [`Disconnected`] when hyper drops it before
/// its end (the client closed the connection mid-answer).
struct Watched {
    inner: BoxBody<Bytes, Infallible>,
    guard: Option<DropGuard>,
}

impl Body for Watched {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled
            && let Some(g) = self.guard.take()
        {
            g.disarm();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

fn plain(status: StatusCode, text: &str) -> Response<BoxBody<Bytes, Infallible>> {
    let mut r = Response::new(Full::new(Bytes::from(text.to_string())).boxed());
    *r.status_mut() = status;
    r
}

/// A JSON-RPC error answer (`id` null unless known) with HTTP `status`,
/// as stdio answers the same message.
fn rpc_error(
    status: StatusCode,
    id: Value,
    code: i64,
    message: &str,
) -> Response<BoxBody<Bytes, Infallible>> {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    r
}

/// A refusal after which the connection is closed: the rest of the body
/// is not read, so the client is told not to reuse the connection.
fn closing(mut r: Response<BoxBody<Bytes, Infallible>>) -> Response<BoxBody<Bytes, Infallible>> {
    r.headers_mut().insert(
        hyper::header::CONNECTION,
        hyper::header::HeaderValue::from_static("close"),
    );
    r
}

/// The refusal of a POST body that is not one JSON-RPC 2.0 message: the
/// JSON-RPC error stdio gives for the same line (-32700 not JSON, -32600 a
/// batch or not JSON-RPC 2.0); `None` for a message.
fn refusal(body: &[u8]) -> Option<Response<BoxBody<Bytes, Infallible>>> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Some(rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                -32700,
                &format!("Parse error: the body is not JSON ({e})"),
            ));
        }
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    match &value {
        Value::Array(_) => Some(rpc_error(
            StatusCode::BAD_REQUEST,
            Value::Null,
            -32600,
            "Invalid Request: batches are not supported (MCP 2025-06-18); send one message per POST",
        )),
        Value::Object(m) if m.get("jsonrpc") == Some(&json!("2.0")) => None,
        _ => Some(rpc_error(
            StatusCode::BAD_REQUEST,
            id,
            -32600,
            "Invalid Request: the body must be one JSON-RPC 2.0 message ({\"jsonrpc\": \"2.0\", ...})",
        )),
    }
}

/// A request body as read.
enum ReadBody {
    /// Within [`MAX_BODY`].
    Whole(Bytes),
    /// Over [`MAX_BODY`]: read on (up to [`DRAIN_MAX`]) without keeping
    /// it, so the client is past sending when the 413 arrives.
    TooBig,
    /// The client broke off.
    Broken,
}

/// The most of an over-large body read (and dropped) before answering.
const DRAIN_MAX: usize = 64 * 1024 * 1024;

async fn read_body(mut body: Incoming) -> ReadBody {
    let mut kept: Vec<u8> = Vec::new();
    let mut seen = 0usize;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            return if seen > MAX_BODY {
                ReadBody::TooBig
            } else {
                ReadBody::Broken
            };
        };
        if let Some(data) = frame.data_ref() {
            seen += data.len();
            if seen <= MAX_BODY {
                kept.extend_from_slice(data);
            } else {
                kept = Vec::new();
                if seen > DRAIN_MAX {
                    return ReadBody::TooBig;
                }
            }
        }
    }
    if seen > MAX_BODY {
        ReadBody::TooBig
    } else {
        ReadBody::Whole(Bytes::from(kept))
    }
}

/// The gate in front of rmcp's service.
struct Gate {
    service: StreamableHttpService<PubmedServer, LocalSessionManager>,
    sessions: Arc<LocalSessionManager>,
    token: Option<String>,
    /// The log of session refusals (a flood of `initialize` at the cap).
    refusals: Mutex<LogLimit>,
}

impl Gate {
    fn authorized(&self, req: &Request<Incoming>) -> bool {
        let Some(want) = &self.token else {
            return true;
        };
        let given = req
            .headers()
            .get(hyper::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, rest) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
            })
            .unwrap_or("");
        bool::from(given.as_bytes().ct_eq(want.as_bytes()))
    }

    async fn handle(&self, req: Request<Incoming>) -> Response<BoxBody<Bytes, Infallible>> {
        if req.uri().path() != PATH {
            return plain(
                StatusCode::NOT_FOUND,
                &format!("Not Found: the MCP endpoint is {PATH}"),
            );
        }
        if !self.authorized(&req) {
            let mut r = rpc_error(
                StatusCode::UNAUTHORIZED,
                Value::Null,
                -32001,
                "Unauthorized: send the header Authorization: Bearer <token> with the token this server was started with (--token or PUBMED_MCP_TOKEN)",
            );
            r.headers_mut().insert(
                hyper::header::WWW_AUTHENTICATE,
                hyper::header::HeaderValue::from_static("Bearer realm=\"pubmed\""),
            );
            return r;
        }
        let session = req
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if req.method() == hyper::Method::DELETE {
            return self.delete(req, session).await;
        }
        if req.method() != hyper::Method::POST {
            return self.forward(req).await;
        }
        // A new session is refused at the cap, before anything is read.
        if session.is_none() && self.sessions.sessions.read().await.len() >= MAX_SESSIONS {
            let mut r = closing(rpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                Value::Null,
                -32000,
                &format!(
                    "Server busy: {MAX_SESSIONS} MCP sessions are open; end yours with DELETE when done, or retry later"
                ),
            ));
            r.headers_mut().insert(
                hyper::header::RETRY_AFTER,
                hyper::header::HeaderValue::from_static("30"),
            );
            r.extensions_mut().insert(SessionRefused);
            return r;
        }
        let (parts, body) = req.into_parts();
        let bytes = match tokio::time::timeout(BODY_TIMEOUT, read_body(body)).await {
            Err(_) => {
                return closing(rpc_error(
                    StatusCode::REQUEST_TIMEOUT,
                    Value::Null,
                    -32600,
                    &format!(
                        "Invalid Request: the body did not arrive within {} s",
                        BODY_TIMEOUT.as_secs()
                    ),
                ));
            }
            Ok(ReadBody::TooBig) => {
                return closing(rpc_error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    Value::Null,
                    -32600,
                    &format!("Invalid Request: the body is larger than {MAX_BODY} bytes"),
                ));
            }
            Ok(ReadBody::Broken) => {
                return closing(plain(StatusCode::BAD_REQUEST, "the body could not be read"));
            }
            Ok(ReadBody::Whole(b)) => b,
        };
        if let Some(r) = refusal(&bytes) {
            return r;
        }
        self.forward(Request::from_parts(parts, Full::new(bytes)))
            .await
    }

    /// `DELETE` of a session: 404 when there is no such session (the MCP
    /// spec), 200 when it was ended (rmcp says 202, which clients such as
    /// the Python SDK log as a failed termination).
    async fn delete(
        &self,
        req: Request<Incoming>,
        session: Option<String>,
    ) -> Response<BoxBody<Bytes, Infallible>> {
        if let Some(id) = &session {
            let known = self
                .sessions
                .sessions
                .read()
                .await
                .contains_key(id.as_str());
            if !known {
                return rpc_error(
                    StatusCode::NOT_FOUND,
                    Value::Null,
                    -32001,
                    "Session not found: it ended or expired; start a new one with initialize",
                );
            }
        }
        let mut r = self.forward(req).await;
        if r.status() == StatusCode::ACCEPTED {
            *r.status_mut() = StatusCode::OK;
        }
        r
    }

    async fn forward<B>(&self, mut req: Request<B>) -> Response<BoxBody<Bytes, Infallible>>
    where
        B: Body + Send + 'static,
        B::Error: std::fmt::Display,
    {
        let gone = CancellationToken::new();
        req.extensions_mut().insert(Disconnected(gone.clone()));
        let resp = self.service.handle(req).await;
        let (parts, body) = resp.into_parts();
        Response::from_parts(
            parts,
            Watched {
                inner: body,
                guard: Some(gone.drop_guard()),
            }
            .boxed(),
        )
    }
}

/// The open connections: how many, and those that have not sent a request
/// yet, oldest first, each with the token that closes it.
#[derive(Default)]
struct Connections {
    open: AtomicUsize,
    next: AtomicU64,
    waiting: Mutex<VecDeque<(u64, CancellationToken)>>,
}

impl Connections {
    fn waiting(&self) -> std::sync::MutexGuard<'_, VecDeque<(u64, CancellationToken)>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Admits a new connection: at the cap, closes the oldest one still
    /// waiting for its first request; `None` when every connection is in
    /// use (the new one is then closed).
    fn admit(&self) -> Option<(u64, CancellationToken)> {
        if self.open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let oldest = self.waiting().pop_front();
            match oldest {
                Some((_, t)) => t.cancel(),
                None => return None,
            }
        }
        self.open.fetch_add(1, Ordering::SeqCst);
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let t = CancellationToken::new();
        self.waiting().push_back((id, t.clone()));
        Some((id, t))
    }

    /// Connection `id` sent a request: it is no longer closed for others.
    fn active(&self, id: u64) {
        let mut w = self.waiting();
        if let Some(at) = w.iter().position(|(i, _)| *i == id) {
            w.remove(at);
        }
    }

    /// Connection `id` is closed.
    fn closed(&self, id: u64) {
        self.active(id);
        self.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The one rate limit on log lines that a flood can repeat (accept
/// failures, session refusals at the cap): at most one line per
/// [`LogLimit::EVERY`]; each line written says how many were not logged
/// since the one before, and [`LogLimit::flush`] reports the rest when the
/// server stops.
#[derive(Debug, Default)]
pub struct LogLimit {
    last: Option<Instant>,
    unlogged: u64,
}

impl LogLimit {
    /// Lines of one kind are written at most this often.
    pub const EVERY: Duration = Duration::from_secs(1);

    /// An event at `now`: `Some(n)` when its line is to be written (`n`
    /// lines were not logged since the last one), `None` when it is
    /// counted only.
    pub fn admit(&mut self, now: Instant) -> Option<u64> {
        if self
            .last
            .is_none_or(|t| now.saturating_duration_since(t) >= Self::EVERY)
        {
            self.last = Some(now);
            Some(std::mem::take(&mut self.unlogged))
        } else {
            self.unlogged += 1;
            None
        }
    }

    /// The lines counted but not written since the last one (then 0).
    pub fn flush(&mut self) -> u64 {
        std::mem::take(&mut self.unlogged)
    }
}

/// The suffix of a rate-limited line: how many like it were not logged.
fn unlogged(n: u64, what: &str) -> String {
    match n {
        0 => String::new(),
        n => format!(" ({n} more {what} not logged since the last report)"),
    }
}

/// Accept failures (e.g. out of file descriptors) are logged through a
/// [`LogLimit`], and each backs off a little so the loop never spins.
#[derive(Default)]
struct AcceptErrors(LogLimit);

impl AcceptErrors {
    async fn failed(&mut self, e: &std::io::Error) {
        if let Some(n) = self.0.admit(Instant::now()) {
            crate::diag!(
                "pubmed mcp: accept failed: {e}{}",
                unlogged(n, "accept failures")
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Marks the HTTP 503 answer to a new session at [`MAX_SESSIONS`]: its log
/// line goes through the refusals' [`LogLimit`].
#[derive(Debug, Clone, Copy)]
struct SessionRefused;

/// An `--allow-origin` without a port names the scheme's default port
/// only (rmcp would take a portless entry for every port, so
/// `https://app.example.org` would admit `https://app.example.org:8443`,
/// another origin); `:*` and explicit ports are kept as given.
fn exact_origin(origin: &str) -> String {
    let o = origin.trim();
    let Some((scheme, rest)) = o.split_once("://") else {
        return o.to_string();
    };
    let host_end = if rest.starts_with('[') {
        rest.find(']').map_or(rest.len(), |i| i + 1)
    } else {
        0
    };
    if rest[host_end..].contains(':') {
        return o.to_string();
    }
    match scheme.to_ascii_lowercase().as_str() {
        "https" => format!("{o}:443"),
        "http" => format!("{o}:80"),
        _ => o.to_string(),
    }
}

fn is_loopback(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback()
}

/// Checks the options: the address parses, and off loopback a token is
/// set. Errors: `invalid_argument` (exit 2) naming the fix.
pub fn check(opts: &HttpOptions) -> Result<SocketAddr, Error> {
    let addr: SocketAddr = opts.addr.parse().map_err(|_| {
        Error::new(
            Reason::InvalidArgument,
            format!(
                "--http {:?} is not an address to listen on; use HOST:PORT with an IP address, e.g. {DEFAULT_ADDR}",
                opts.addr
            ),
        )
    })?;
    if !is_loopback(&addr) && opts.token.as_deref().is_none_or(str::is_empty) {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!(
                "--http {addr} is reachable from other machines: give a bearer token with --token or PUBMED_MCP_TOKEN (or listen on 127.0.0.1)"
            ),
        )
        .with_hint("set PUBMED_MCP_TOKEN to a long random secret (e.g. from `openssl rand -hex 32`) and give it to each client as Authorization: Bearer <token>"));
    }
    Ok(addr)
}

/// The hosts rmcp accepts in `Host`: the loopback names, plus the address
/// listened on when it is a specific one. On an unspecified address
/// (`0.0.0.0`, `::`) the names clients use are unknown, so the `Host`
/// check is off there and the token (required) stands in for it.
fn allowed_hosts(addr: &SocketAddr) -> Option<Vec<String>> {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => return None,
        IpAddr::V6(ip) if ip.is_unspecified() => return None,
        ip if ip.is_loopback() => {}
        ip => hosts.push(ip.to_string()),
    }
    Some(hosts)
}

/// Serves MCP over HTTP until SIGINT or SIGTERM (exit 0). Prints the
/// endpoint's URL on stderr once listening.
///
/// Errors: `invalid_argument` for a bad address or a missing token off
/// loopback; `ncbi_unreachable`-coded (exit 69, unavailable) when the
/// address cannot be bound.
pub async fn serve(client: Arc<Client>, opts: HttpOptions) -> Result<(), Error> {
    let addr = check(&opts)?;
    let interrupted = super::interrupt_listener()?;
    tokio::pin!(interrupted);
    let listener = TcpListener::bind(addr).await.map_err(|e| {
        // the address is the user's to change, not an NCBI outage
        Error::new(
            Reason::InvalidArgument,
            format!("cannot listen on {addr}: {e}"),
        )
        .with_hint("is another server using that port? choose another with --http HOST:PORT")
    })?;
    let local = listener.local_addr().unwrap_or(addr);
    let mut origins: Vec<String> = LOOPBACK_ORIGINS.iter().map(|s| s.to_string()).collect();
    origins.extend(opts.allow_origins.iter().map(|o| exact_origin(o)));
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_max_request_body_bytes(MAX_BODY);
    config = match allowed_hosts(&local) {
        Some(h) => config.with_allowed_hosts(h),
        None => config.disable_allowed_hosts(),
    };
    let stop = config.cancellation_token.clone();
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(SESSION_IDLE);
    let sessions = Arc::new(manager);
    let service = StreamableHttpService::new(
        move || Ok(PubmedServer::new(client.clone())),
        sessions.clone(),
        config,
    );
    let gate = Arc::new(Gate {
        service,
        sessions,
        token: opts.token.filter(|t| !t.is_empty()),
        refusals: Mutex::new(LogLimit::default()),
    });
    let connections = Arc::new(Connections::default());
    let mut accept_errors = AcceptErrors::default();
    crate::diag!(
        "pubmed mcp: serving MCP over streamable HTTP at http://{local}{PATH}{}",
        if gate.token.is_some() {
            " (bearer token required)"
        } else {
            ""
        }
    );
    loop {
        let (sock, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    accept_errors.failed(&e).await;
                    continue;
                }
            },
            _ = &mut interrupted => break,
        };
        let Some((id, evict)) = connections.admit() else {
            drop(sock);
            continue;
        };
        tokio::spawn(connection(
            gate.clone(),
            connections.clone(),
            sock,
            peer,
            id,
            evict,
        ));
    }
    stop.cancel();
    let refused = gate.refusals.lock().map_or(0, |mut l| l.flush());
    if refused > 0 {
        crate::diag!(
            "pubmed mcp: {refused} more session refusals (HTTP 503, {MAX_SESSIONS} sessions open) not logged since the last report"
        );
    }
    let failed = accept_errors.0.flush();
    if failed > 0 {
        crate::diag!("pubmed mcp: {failed} more accept failures not logged since the last report");
    }
    Ok(())
}

/// Serves one accepted connection (HTTP/1.1 through hyper, header timeout
/// [`HEADER_TIMEOUT`]) until it closes or `evict` fires, logging a line per
/// request.
async fn connection(
    gate: Arc<Gate>,
    conns: Arc<Connections>,
    sock: tokio::net::TcpStream,
    peer: std::net::SocketAddr,
    id: u64,
    evict: tokio_util::sync::CancellationToken,
) {
    let conns2 = conns.clone();
    let svc = hyper::service::service_fn(move |req: Request<Incoming>| {
        let gate = gate.clone();
        conns2.active(id);
        async move {
            let started = Instant::now();
            let line = format!("{peer} {} {}", req.method(), req.uri().path());
            let session = req
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .map(|s| format!(" session {s}"))
                .unwrap_or_default();
            let resp = gate.handle(req).await;
            let more = if resp.extensions().get::<SessionRefused>().is_some() {
                gate.refusals
                    .lock()
                    .ok()
                    .and_then(|mut l| l.admit(Instant::now()))
                    .map(|n| unlogged(n, "session refusals"))
            } else {
                Some(String::new())
            };
            if let Some(more) = more {
                crate::diag!(
                    "pubmed mcp: {line} → {} in {} ms{session}{more}",
                    resp.status().as_u16(),
                    started.elapsed().as_millis()
                );
            }
            Ok::<_, Infallible>(resp)
        }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(sock), svc);
    tokio::select! {
        _ = conn => {}
        _ = evict.cancelled() => {}
    }
    conns.closed(id);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(addr: &str, token: Option<&str>) -> HttpOptions {
        HttpOptions {
            addr: addr.into(),
            token: token.map(str::to_string),
            allow_origins: Vec::new(),
        }
    }

    /// One line per second at most; the next line written (or the flush)
    /// counts every event not logged, so none is lost from the count.
    #[test]
    fn the_log_limit_writes_one_line_a_second_and_counts_the_rest() {
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let mut l = LogLimit::default();
        assert_eq!(l.admit(ms(0)), Some(0));
        for i in 1..=999 {
            assert_eq!(l.admit(ms(i)), None, "{i} ms");
        }
        assert_eq!(l.admit(ms(1000)), Some(999));
        assert_eq!(l.admit(ms(1500)), None);
        assert_eq!(l.admit(ms(1999)), None);
        assert_eq!(l.flush(), 2);
        assert_eq!(l.flush(), 0);
        assert_eq!(l.admit(ms(2000)), Some(0));
        // 100,000 events within a second: one line.
        let mut l = LogLimit::default();
        let written = (0..100_000u64)
            .filter(|i| l.admit(t0 + Duration::from_micros(*i * 9)).is_some())
            .count();
        assert_eq!(written, 1);
        assert_eq!(l.flush(), 99_999);
        assert_eq!(unlogged(0, "x"), "");
        assert_eq!(
            unlogged(3, "session refusals"),
            " (3 more session refusals not logged since the last report)"
        );
    }

    #[test]
    fn off_loopback_a_token_is_required() {
        assert!(check(&opts("127.0.0.1:8765", None)).is_ok());
        assert!(check(&opts("[::1]:0", None)).is_ok());
        for a in ["0.0.0.0:8765", "192.0.2.7:80", "[::]:8765"] {
            let e = check(&opts(a, None)).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument);
            assert!(e.message.contains("PUBMED_MCP_TOKEN"), "{}", e.message);
            assert!(check(&opts(a, Some(""))).is_err(), "an empty token is none");
            assert!(check(&opts(a, Some("t0ken"))).is_ok());
        }
        let e = check(&opts("localhost:8765", None)).unwrap_err();
        assert!(e.message.contains("HOST:PORT"), "{}", e.message);
    }

    #[test]
    fn a_portless_origin_is_the_default_port_only() {
        assert_eq!(
            exact_origin("https://app.example.org"),
            "https://app.example.org:443"
        );
        assert_eq!(
            exact_origin("http://app.example.org"),
            "http://app.example.org:80"
        );
        assert_eq!(
            exact_origin("https://app.example.org:8443"),
            "https://app.example.org:8443"
        );
        assert_eq!(
            exact_origin("https://app.example.org:*"),
            "https://app.example.org:*"
        );
        assert_eq!(
            exact_origin("http://[2001:db8::1]"),
            "http://[2001:db8::1]:80"
        );
        assert_eq!(exact_origin("null"), "null");
    }

    #[test]
    fn bodies_that_are_not_one_json_rpc_message_get_json_rpc_errors() {
        assert!(refusal(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_none());
        for (body, status) in [
            (&b"{not json"[..], StatusCode::BAD_REQUEST),
            (
                br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
                StatusCode::BAD_REQUEST,
            ),
            (
                br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
                StatusCode::BAD_REQUEST,
            ),
        ] {
            let r = refusal(body).unwrap();
            assert_eq!(r.status(), status);
            assert_eq!(r.headers()[hyper::header::CONTENT_TYPE], "application/json");
        }
    }

    #[test]
    fn at_the_connection_cap_the_oldest_waiting_connection_is_closed() {
        let c = Connections::default();
        let first: Vec<_> = (0..MAX_CONNECTIONS).map(|_| c.admit().unwrap()).collect();
        // the first connection sends a request; the second is the oldest waiting
        c.active(first[0].0);
        let (_, t) = c.admit().unwrap();
        assert!(!first[0].1.is_cancelled());
        assert!(first[1].1.is_cancelled());
        assert!(!t.is_cancelled());
        c.closed(first[1].0);
        assert_eq!(c.open.load(Ordering::SeqCst), MAX_CONNECTIONS);
        // every connection in use: a new one is refused
        for (id, _) in &first[2..] {
            c.active(*id);
        }
        c.active(MAX_CONNECTIONS as u64);
        assert!(c.admit().is_none());
    }

    #[test]
    fn host_checks_follow_the_address() {
        assert_eq!(
            allowed_hosts(&"127.0.0.1:1".parse().unwrap()).unwrap(),
            vec!["localhost", "127.0.0.1", "::1"]
        );
        assert!(
            allowed_hosts(&"192.0.2.7:1".parse().unwrap())
                .unwrap()
                .contains(&"192.0.2.7".to_string())
        );
        assert_eq!(allowed_hosts(&"0.0.0.0:1".parse().unwrap()), None);
    }
}
