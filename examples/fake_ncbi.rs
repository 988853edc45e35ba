//! The tests' fake NCBI (`tests/support/fake_ncbi/`) as a standalone
//! server on 127.0.0.1, for scripts that drive the built binary from
//! outside Rust (`scripts/mcp_sdk_progress.py`). Prints one line of JSON,
//! `{"eutils", "idconv", "europepmc"}` (the base URLs for
//! `PUBMED_EUTILS_URL`, `PUBMED_IDCONV_URL`, `PUBMED_EUROPEPMC_URL`), then
//! serves until its stdin closes. Its corpus: the queries `hits300` and
//! `hits5000` (PMIDs drawn uniformly from 1,000,000–41,000,000); any PMID
//! gets a synthetic record. Usage: `cargo run --example fake_ncbi`.

use std::io::{Read, Write};

// The modules of tests/support this needs, at the crate root (their
// `super::` is the root); fake_ncbi's own modules (mesh, pmc) come with it.
#[path = "../tests/support/fake_ncbi/mod.rs"]
mod fake_ncbi;
#[path = "../tests/support/ncbi.rs"]
mod ncbi;
#[path = "../tests/support/server.rs"]
mod server;

use fake_ncbi::{Corpus, FakeNcbi};
use server::TestServer;

fn main() {
    let mut corpus = Corpus::default();
    corpus.add_uniform("hits300", 300, 1_000_000, 41_000_000, 7);
    corpus.add_uniform("hits5000", 5_000, 1_000_000, 41_000_000, 11);
    let fake = FakeNcbi::new(corpus);
    let server = TestServer::start(move |r| fake.reply(r));
    let urls = serde_json::json!({
        "eutils": server.eutils_url(),
        "idconv": server.idconv_url(),
        "europepmc": server.europepmc_url(),
    });
    let mut out = std::io::stdout();
    writeln!(out, "{urls}").and_then(|()| out.flush()).unwrap();
    // until stdin closes (the script ends, or is killed)
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    drop(server);
}
