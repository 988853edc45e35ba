//! Links the `pubmed` binary with `linker/symbol-order.txt`: the functions
//! a typical run executes, laid out together so a run maps fewer 64 KB
//! windows of code (docs/memory.md). Only where rustc links with its own
//! LLD (x86_64 Linux, Rust 1.90 and later, no linker chosen by the user);
//! elsewhere nothing changes. A name the build does not have is skipped
//! silently: a stale file costs memory, never a build.

use std::env;
use std::path::Path;

const ORDER: &str = "linker/symbol-order.txt";

fn main() {
    println!("cargo::rerun-if-changed={ORDER}");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    let order = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join(ORDER);
    if order.is_file() && rustc_links_with_lld() {
        println!(
            "cargo::rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        println!("cargo::rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}

/// rustc's default linker for x86_64-unknown-linux-gnu is its bundled LLD
/// since 1.90; a linker set in the configuration (`RUSTC_LINKER`) or any
/// link option in RUSTFLAGS may mean another.
fn rustc_links_with_lld() -> bool {
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    env::var("TARGET").is_ok_and(|t| t == "x86_64-unknown-linux-gnu")
        && env::var_os("RUSTC_LINKER").is_none()
        && !flags.contains("link")
        && version_check::is_min_version("1.90.0").unwrap_or(false)
}
