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

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use http_body::{Body, Frame};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
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

/// The gate in front of rmcp's service.
struct Gate {
    service: StreamableHttpService<PubmedServer, LocalSessionManager>,
    token: Option<String>,
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

    async fn handle(&self, mut req: Request<Incoming>) -> Response<BoxBody<Bytes, Infallible>> {
        if req.uri().path() != PATH {
            return plain(
                StatusCode::NOT_FOUND,
                &format!("Not Found: the MCP endpoint is {PATH}"),
            );
        }
        if !self.authorized(&req) {
            let mut r = plain(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: send Authorization: Bearer <token>",
            );
            r.headers_mut().insert(
                hyper::header::WWW_AUTHENTICATE,
                hyper::header::HeaderValue::from_static("Bearer realm=\"pubmed\""),
            );
            return r;
        }
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
    origins.extend(opts.allow_origins.iter().cloned());
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_max_request_body_bytes(MAX_BODY);
    config = match allowed_hosts(&local) {
        Some(h) => config.with_allowed_hosts(h),
        None => config.disable_allowed_hosts(),
    };
    let stop = config.cancellation_token.clone();
    let service = StreamableHttpService::new(
        move || Ok(PubmedServer::new(client.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let gate = Arc::new(Gate {
        service,
        token: opts.token.filter(|t| !t.is_empty()),
    });
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
                    crate::diag!("pubmed mcp: accept failed: {e}");
                    continue;
                }
            },
            _ = &mut interrupted => break,
        };
        let gate = gate.clone();
        tokio::spawn(async move {
            let svc = hyper::service::service_fn(move |req: Request<Incoming>| {
                let gate = gate.clone();
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
                    crate::diag!(
                        "pubmed mcp: {line} → {} in {} ms{session}",
                        resp.status().as_u16(),
                        started.elapsed().as_millis()
                    );
                    Ok::<_, Infallible>(resp)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(sock), svc)
                .await;
        });
    }
    stop.cancel();
    Ok(())
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
