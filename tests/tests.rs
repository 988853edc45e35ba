//! The end-to-end, client and property tests, as one test binary (as
//! ripgrep does): the shared support module and the crate are compiled and
//! linked once, not once per file. Every `tests/*.rs` besides `assets.rs` is
//! a module here — `tests/docs.rs` checks that none is left out.

mod support;

mod bulk;
mod cache;
mod cite;
mod cli;
mod client_budget;
mod client_loopback;
mod client_policy;
mod client_safety;
mod config;
mod convert;
mod convert_chunks;
mod convert_fallback;
mod docs;
mod faults;
mod fetch;
mod fulltext;
mod fulltext_kinds;
mod fulltext_props;
mod hardening;
mod mathml_tex;
mod mcp;
mod mcp_budget;
mod mcp_http;
mod mcp_progress;
mod mcp_resources;
mod mcp_text;
mod mesh_match;
mod outfile;
mod recorded;
mod regressions;
mod related;
mod robustness_props;
mod search;
mod search_all;
mod spell;
mod spell_props;
