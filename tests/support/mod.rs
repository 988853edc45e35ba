//! Shared test support: a loopback NCBI stand-in and a binary runner.

#![allow(dead_code)]

pub mod cli;
pub mod fake_ncbi;
pub mod mcp;
pub mod ncbi;
pub mod server;
