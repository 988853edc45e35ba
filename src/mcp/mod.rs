//! `pubmed mcp`: the PubMed tools served over MCP — stdio, or streamable
//! HTTP with `--http` — on the official `rmcp` SDK (pinned to one exact
//! version; all of it stays in this module). On stdio, stdout carries
//! JSON-RPC only; logs go to stderr. The behaviour reference is
//! docs/mcp.md.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode,
    Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::error::{Error, Reason};
use crate::ncbi::Client;

pub mod http;
pub mod info;
pub mod record;
pub mod reply;
pub mod schema;
pub mod tools;
mod transport;

/// The MCP server: one shared NCBI client (one pacer) for every call.
#[derive(Clone)]
pub struct PubmedServer {
    client: Arc<Client>,
}

impl PubmedServer {
    /// A server over `client`.
    pub fn new(client: Arc<Client>) -> Self {
        PubmedServer { client }
    }
}

impl ServerHandler for PubmedServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build())
            .with_server_info(
                Implementation::new("pubmed", env!("CARGO_PKG_VERSION"))
                    .with_title("pubmed — PubMed search, spelling, ID conversion, records, citations and related articles"),
            )
            .with_instructions(tools::instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::tools()))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(tools::resources()))
    }

    /// An unknown URI is -32002 (the MCP spec's "resource not found").
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match tools::resource(&request.uri) {
            Some(text) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, request.uri.clone()).with_mime_type(
                    if request.uri == info::URI {
                        "application/json"
                    } else {
                        "application/schema+json"
                    },
                ),
            ])
            .into()),
            None => Err(ErrorData::resource_not_found(
                format!("no resource {:?}; resources/list names them", request.uri),
                None,
            )),
        }
    }

    /// Runs a tool. A `notifications/cancelled` for the call (or the end of
    /// the session) fires `context.ct`: the tool's future is dropped there,
    /// and with it its place in the pacer's queue and its HTTP request.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let name = request.name.as_ref();
        // With a progressToken, each answered chunk is a
        // notifications/progress (done and total records).
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<crate::ops::batch::Progress>();
        let mut forwarder = None;
        if let Some(token) = context.meta.get_progress_token() {
            let peer = context.peer.clone();
            forwarder = Some(tokio::spawn(async move {
                while let Some(p) = rx.recv().await {
                    let mut n =
                        rmcp::model::ProgressNotificationParam::new(token.clone(), p.done as f64);
                    if let Some(t) = p.total {
                        n = n.with_total(t as f64);
                    }
                    let n = n.with_message(format!(
                        "{} record{}, {} NCBI request{}",
                        p.done,
                        if p.done == 1 { "" } else { "s" },
                        p.requests,
                        if p.requests == 1 { "" } else { "s" }
                    ));
                    let _ = peer.notify_progress(n).await;
                }
            }));
        }
        let report = move |p: crate::ops::batch::Progress| {
            let _ = tx.send(p);
        };
        let work = tools::call(&self.client, name, &args, &report);
        // Over HTTP, a client that goes away mid-call cancels it too.
        let gone = context
            .extensions
            .get::<hyper::http::request::Parts>()
            .and_then(|p| p.extensions.get::<http::Disconnected>())
            .map(|d| d.0.clone())
            .unwrap_or_default();
        let answer = tokio::select! {
            result = work => match result {
                Some(r) => Ok(r.into()),
                None => Err(ErrorData::invalid_params(
                    format!(
                        "unknown tool {name:?}; this server has {}",
                        tools::names()
                    ),
                    None,
                )),
            },
            _ = context.ct.cancelled() => Err(ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                "the call was cancelled",
                None,
            )),
            _ = gone.cancelled() => Err(ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                "the client disconnected",
                None,
            )),
        };
        // every progress notification goes out before the answer
        drop(report);
        if let Some(f) = forwarder {
            let _ = f.await;
        }
        answer
    }

    /// A known method whose params do not parse (e.g. `tools/call` with
    /// `arguments` that is not an object) is -32602, not "method not found".
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method == "tools/call" || request.method == "tools/list" {
            return Err(ErrorData::invalid_params(
                format!("invalid params for {}", request.method),
                None,
            ));
        }
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("method not found: {}", request.method),
            None,
        ))
    }
}

/// Serves MCP on stdin/stdout until stdin closes (exit 0), SIGINT or
/// SIGTERM.
///
/// Errors: `internal` (exit 70) when the signal handlers cannot be
/// installed or the session ends on a transport or protocol failure:
/// neither is NCBI's nor the caller's input (docs/errors.md).
pub async fn serve(client: Arc<Client>) -> Result<(), Error> {
    // Listen for SIGINT before the first message, so an early one ends the
    // server cleanly too.
    let interrupted = interrupt_listener()?;
    tokio::pin!(interrupted);
    let transport = transport::LineTransport::new(tokio::io::stdin(), tokio::io::stdout());
    let running = tokio::select! {
        started = PubmedServer::new(client).serve(transport) => match started {
            Ok(r) => r,
            // stdin closed (or no client) before `initialize`: nothing to serve.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(stopped(&e)),
        },
        _ = &mut interrupted => return Ok(()),
    };
    let token = running.cancellation_token();
    tokio::select! {
        quit = running.waiting() => quit.map(|_| ()).map_err(|e| stopped(&e)),
        _ = &mut interrupted => {
            token.cancel();
            Ok(())
        }
    }
}

/// The error of a session that ended on a transport or protocol failure.
fn stopped(e: &dyn std::fmt::Display) -> Error {
    Error::new(Reason::Internal, format!("MCP server stopped: {e}"))
}

/// A future that resolves on SIGINT or SIGTERM (both end the server the
/// same way: calls in flight are cancelled, exit 0); the handlers are
/// installed at once.
///
/// Errors: `internal` when a handler cannot be installed.
#[cfg(unix)]
pub fn interrupt_listener() -> Result<impl std::future::Future<Output = ()>, Error> {
    use tokio::signal::unix::{SignalKind, signal};
    let listen = |kind: SignalKind, name: &str| {
        signal(kind)
            .map_err(|e| Error::new(Reason::Internal, format!("cannot listen for {name}: {e}")))
    };
    let mut int = listen(SignalKind::interrupt(), "SIGINT")?;
    let mut term = listen(SignalKind::terminate(), "SIGTERM")?;
    Ok(async move {
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
        }
    })
}

/// A future that resolves on Ctrl-C.
#[cfg(not(unix))]
pub fn interrupt_listener() -> Result<impl std::future::Future<Output = ()>, Error> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// Sends rmcp's `tracing` logs to stderr (never stdout), filtered by
/// `RUST_LOG` (default: errors only).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
