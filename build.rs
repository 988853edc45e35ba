//! Links the `pubmed` binary with `linker/symbol-order.txt`: the functions
//! a typical run executes, laid out together so a run maps fewer 64 KB
//! windows of code (docs/memory.md). Only where rustc links with its own
//! LLD (x86_64 Linux, Rust 1.90 and later, no linker chosen by the user);
//! elsewhere nothing changes. A name the build does not have is skipped
//! silently: a stale file costs memory, never a build.

use std::env;
use std::path::Path;
use std::process::Command;

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
/// since 1.90; a linker set in the configuration or in RUSTFLAGS may not be.
fn rustc_links_with_lld() -> bool {
    let target = env::var("TARGET").unwrap_or_default();
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if target != "x86_64-unknown-linux-gnu"
        || env::var_os("RUSTC_LINKER").is_some()
        || flags.contains("link")
    {
        return false;
    }
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("-vV").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let minor = text
        .lines()
        .find_map(|l| l.strip_prefix("release: 1."))
        .and_then(|v| v.split('.').next()?.parse::<u32>().ok());
    minor.is_some_and(|m| m >= 90)
}
