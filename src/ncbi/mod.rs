//! The NCBI client: HTTP, pacing, retries, deadlines and parsing of NCBI
//! bodies into typed results. It knows nothing about the CLI.

// One module per file of this directory (docs/adding-a-command.md);
// `Client` and `Policy` are also re-exported here.
automod::dir!(pub "src/ncbi");

pub use client::{
    Client, ClientSettings, DEFAULT_EUROPEPMC_URL, DEFAULT_EUTILS_URL, DEFAULT_IDCONV_URL,
    DEFAULT_TOOL, redact_url,
};
pub use db::Db;
pub use policy::{Backoff, Policy};
