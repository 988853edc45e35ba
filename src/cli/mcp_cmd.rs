//! The `mcp` adapter: the MCP server (docs/mcp.md) on stdio or HTTP.

use super::Context;
use crate::error::{Exit, Failure};

use clap::Args;

pub(super) const MCP_EXAMPLES: &str = "\
Examples:
  pubmed mcp                  # started by an MCP client: JSON-RPC on stdin/stdout
  NCBI_API_KEY=… NCBI_EMAIL=me@example.org pubmed mcp
  pubmed mcp --http           # one server for several agents: http://127.0.0.1:8765/mcp
  PUBMED_MCP_TOKEN=… pubmed mcp --http 0.0.0.0:8765   # off loopback a bearer token is required
  Client configuration (e.g. claude_desktop_config.json):
    {\"mcpServers\": {\"pubmed\": {\"command\": \"pubmed\", \"args\": [\"mcp\"],
                                \"env\": {\"NCBI_API_KEY\": \"\"}}}}   # env optional";

/// The `mcp` subcommand's one-line help: the tools it serves, by name.
pub(super) fn mcp_about() -> String {
    format!(
        "Serve the PubMed tools ({}) over MCP: stdio, or streamable HTTP with --http",
        crate::mcp::tools::names()
    )
}

/// `pubmed mcp [--http [ADDR]] [--token TOKEN] [--allow-origin ORIGIN]…`
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve over MCP streamable HTTP at http://ADDR/mcp instead of stdio [default ADDR: 127.0.0.1:8765]
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8765")]
    pub http: Option<String>,
    /// Bearer token HTTP clients must send; required off loopback [env: PUBMED_MCP_TOKEN]
    #[arg(long, value_name = "TOKEN", requires = "http")]
    pub token: Option<String>,
    /// Also accept browser requests from ORIGIN, e.g. `https://app.example.org` or `http://host:*` (repeatable; pages on localhost are always accepted)
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub allow_origin: Vec<String>,
}

/// `pubmed mcp`: the MCP server on stdio, or on HTTP with `--http`.
pub(super) async fn run(a: McpArgs, ctx: &Context) -> Result<Exit, Failure> {
    crate::mcp::init_logging();
    crate::mcp::record::check_dir()?;
    if let Some(addr) = a.http {
        let token = a.token.clone().or_else(|| {
            std::env::var("PUBMED_MCP_TOKEN")
                .ok()
                .filter(|t| !t.is_empty())
        });
        if a.token.is_some() {
            ctx.note("warning: --token is visible to other users in the process list; prefer PUBMED_MCP_TOKEN");
        }
        let opts = crate::mcp::http::HttpOptions {
            addr,
            token,
            allow_origins: a.allow_origin,
        };
        crate::mcp::http::check(&opts)?;
        let client = ctx.client()?;
        crate::mcp::http::serve(client, opts).await?;
        return Ok(Exit::Success);
    }
    let client = ctx.client()?;
    crate::mcp::serve(client).await?;
    Ok(Exit::Success)
}
