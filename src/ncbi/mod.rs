//! The NCBI client: HTTP, pacing, retries, deadlines and parsing of NCBI
//! bodies into typed results. It knows nothing about the CLI.

pub mod budget;
pub mod classify;
mod client;
pub mod db;
pub mod ecitmatch;
pub mod efetch;
pub mod elink;
pub mod esearch;
pub mod espell;
pub mod esummary;
pub mod europepmc;
pub mod halving;
pub mod idconv;
pub mod limits;
pub mod mesh;
pub mod pacer;
pub mod pmc;
mod policy;
pub mod transport;
pub mod xml;

pub use client::{
    Client, ClientSettings, DEFAULT_EUROPEPMC_URL, DEFAULT_EUTILS_URL, DEFAULT_IDCONV_URL,
    DEFAULT_TOOL, redact_url,
};
pub use db::Db;
pub use policy::{Backoff, Policy};
