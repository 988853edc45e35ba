//! `pubmed`: PubMed literature queries on NCBI E-utilities, from the command
//! line and over MCP.
//!
//! Layout: [`core`] is pure PubMed knowledge (no I/O); [`ncbi`] is the one
//! client that talks to NCBI; [`ops`] has one module per operation;
//! [`output`] renders results; [`cli`] is the thin command-line adapter.

#![warn(missing_docs)]

pub mod cli;
pub mod config;
pub mod core;
pub mod error;
pub mod mcp;
pub mod ncbi;
pub mod ops;
pub mod output;
