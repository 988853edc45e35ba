//! `pubmed mcp`: the PubMed tools served over MCP — stdio, or streamable
//! HTTP with `--http` — on the official `rmcp` SDK (pinned to one exact
//! version; all of it stays in this module). On stdio, stdout carries
//! JSON-RPC only; logs go to stderr. The behaviour reference is
//! docs/mcp.md.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode,
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::ncbi::Client;

pub mod http;
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

const INSTRUCTIONS: &str = "PubMed literature tools on NCBI E-utilities. Search with pubmed_search_articles (PubMed query syntax, filters, dates); if it finds nothing, check the query with pubmed_spell_check and search again; read full records (abstract, authors, MeSH, retractions) with pubmed_fetch_articles; turn PMIDs into citations (RIS, BibTeX, CSL-JSON or APA/Vancouver/AMA text) with pubmed_format_citations; follow an article's similar articles, citing articles or references with pubmed_find_related; convert PMIDs, PMCIDs and DOIs with pubmed_convert_ids.";

impl ServerHandler for PubmedServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("pubmed", env!("CARGO_PKG_VERSION"))
                    .with_title("pubmed — PubMed search, spelling, ID conversion, records, citations and related articles"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::tools()))
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
        let work = tools::call(&self.client, name, &args);
        // Over HTTP, a client that goes away mid-call cancels it too.
        let gone = context
            .extensions
            .get::<hyper::http::request::Parts>()
            .and_then(|p| p.extensions.get::<http::Disconnected>())
            .map(|d| d.0.clone())
            .unwrap_or_default();
        tokio::select! {
            result = work => match result {
                Some(r) => Ok(r.into()),
                None => Err(ErrorData::invalid_params(
                    format!(
                        "unknown tool {name:?}; this server has {}",
                        tools::specs().iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
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
        }
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
/// Errors: a transport or protocol failure, as a message.
pub async fn serve(client: Arc<Client>) -> Result<(), String> {
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
            Err(e) => return Err(e.to_string()),
        },
        _ = &mut interrupted => return Ok(()),
    };
    let token = running.cancellation_token();
    tokio::select! {
        quit = running.waiting() => quit.map(|_| ()).map_err(|e| e.to_string()),
        _ = &mut interrupted => {
            token.cancel();
            Ok(())
        }
    }
}

/// A future that resolves on SIGINT or SIGTERM (both end the server the
/// same way: calls in flight are cancelled, exit 0); the handlers are
/// installed at once.
#[cfg(unix)]
pub fn interrupt_listener() -> Result<impl std::future::Future<Output = ()>, String> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut int =
        signal(SignalKind::interrupt()).map_err(|e| format!("cannot listen for SIGINT: {e}"))?;
    let mut term =
        signal(SignalKind::terminate()).map_err(|e| format!("cannot listen for SIGTERM: {e}"))?;
    Ok(async move {
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
        }
    })
}

/// A future that resolves on Ctrl-C.
#[cfg(not(unix))]
pub fn interrupt_listener() -> Result<impl std::future::Future<Output = ()>, String> {
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
