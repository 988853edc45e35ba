//! `pubmed`: PubMed literature queries on NCBI E-utilities, from the command
//! line and over MCP.
//!
//! Layout: [`core`] is pure PubMed knowledge (no I/O); [`ncbi`] is the one
//! client that talks to NCBI; [`ops`] has one module per operation;
//! [`output`] renders results; [`cli`] is the thin command-line adapter.

#![warn(missing_docs)]

/// Writes one line on stderr, ignoring failures: a closed or broken stderr
/// must never turn a note into a panic (`eprintln!` would). The line is
/// [`core::text::printable`]: text quoted from a query or from NCBI cannot
/// drive the terminal or start a line of its own.
macro_rules! diag {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", $crate::core::text::printable(&line));
    }};
}
pub(crate) use diag;

pub mod cache;
pub mod cli;
pub mod config;
pub mod core;
pub mod error;
pub mod mcp;
pub mod ncbi;
pub mod ops;
pub mod output;
