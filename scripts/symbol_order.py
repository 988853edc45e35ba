#!/usr/bin/env python3
"""Remakes linker/symbol-order.txt: the functions typical `pubmed` runs execute
(a dev tool, not CI; docs/memory.md "Code pages").

Runs each workload below under callgrind against the tests' fake NCBI
(examples/fake_ncbi.rs), collects the mangled names of the functions
executed in the `pubmed` binary, and writes their union, first seen first.
build.rs hands the file to LLD, which lays those functions out together.
Names depend on the toolchain, Cargo.lock and the features a build
resolves, so it profiles both binaries the README's figures come from: the
one `cargo build --release` makes and the one `cargo bench` makes (dev
dependencies unify more features). Run it after a toolchain or dependency
update:

    cargo build --release --example fake_ncbi && cargo bench --bench e2e --no-run
    cp target/release/pubmed /tmp/pubmed-bench
    cargo build --release
    python3 scripts/symbol_order.py target/release/pubmed /tmp/pubmed-bench

Needs valgrind (callgrind and callgrind_annotate). Each binary must keep its symbol table (the release
profile's `strip = "debuginfo"`).
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "linker", "symbol-order.txt")
FAKE = os.path.join(ROOT, "target", "release", "examples", "fake_ncbi")

MCP_SESSION = "\n".join(
    json.dumps(m)
    for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "order", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "search", "arguments": {"query": "hits300"}}},
    ]
) + "\n"


def workloads(tmp):
    """(arguments, stdin) of each run, in the order a user meets them."""
    pmids = os.path.join(tmp, "pmids.txt")
    with open(pmids, "w") as f:
        f.writelines(f"{2_000_000 + i * 37}\n" for i in range(2_000))
    mixed = os.path.join(tmp, "mixed.txt")
    with open(mixed, "w") as f:
        for k in range(1_000):
            pmid = 1_000_000 + k
            f.write([str(pmid), f"PMC{pmid + 5_000_000}", f"10.5555/pmid.{pmid}"][k % 3] + "\n")
    fetch = ["fetch", "--input", pmids]
    return [
        (["--version"], None),
        (["spell", "hits300"], None),
        (["search", "hits300"], None),
        (["search", "hits300", "-f", "json"], None),
        (["search", "hits5000", "--all", "--detail", "brief", "-f", "ndjson"], None),
        (["convert", "--input", mixed, "--to", "pmcid"], None),
        (["convert", "--input", mixed, "--to", "pmcid"], None),  # from the cache
        (fetch + ["-f", "ndjson"], None),
        (fetch + ["-f", "ndjson"], None),  # from the cache
        (fetch + ["-f", "xml", "--cache", "off"], None),
        (fetch + ["-f", "medline"], None),
        (["cite", "2000000", "2000037", "2000074"], None),
        (["related", "2000000", "2000037", "-f", "ids"], None),
        (["mcp"], MCP_SESSION),
    ]


def executed(callgrind_out, binary):
    """Mangled names of the functions run in `binary`, most instructions first
    (callgrind_annotate's list: `COUNT  FILE:FUNCTION [OBJECT]`)."""
    listing = subprocess.run(
        ["callgrind_annotate", "--threshold=100", "--auto=no", "--show-percs=no", callgrind_out],
        capture_output=True, text=True, check=True,
    ).stdout
    suffix = f" [{binary}]"
    names = (
        line[: -len(suffix)].rsplit(":", 1)[1]
        for line in listing.splitlines()
        if line.endswith(suffix) and ":" in line
    )
    # code without a symbol shows as its address, the entry as "(below main)"
    return [n for n in names if not n.startswith(("0x", "("))]


def main():
    binaries = [os.path.realpath(b) for b in sys.argv[1:]] or [
        os.path.join(ROOT, "target", "release", "pubmed")
    ]
    fake = subprocess.Popen([FAKE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    urls = json.loads(fake.stdout.readline())
    order, seen = [], set()
    with tempfile.TemporaryDirectory() as tmp:
        for binary in binaries:
            home = tempfile.mkdtemp(dir=tmp)
            env = {
                "PATH": "/usr/bin:/bin",
                "HOME": home,
                "XDG_CACHE_HOME": os.path.join(home, ".cache"),
                "XDG_CONFIG_HOME": os.path.join(home, ".config"),
                "NO_PROXY": "127.0.0.1,localhost",
                "PUBMED_EUTILS_URL": urls["eutils"],
                "PUBMED_IDCONV_URL": urls["idconv"],
                "PUBMED_EUROPEPMC_URL": urls["europepmc"],
            }
            for n, (args, stdin) in enumerate(workloads(tmp)):
                out = os.path.join(tmp, f"cg.{n}")
                run = subprocess.run(
                    ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
                     binary, *args],
                    input=stdin or "", env=env, capture_output=True, text=True,
                )
                names = executed(out, binary)
                new = [x for x in names if x not in seen]
                seen.update(new)
                order += new
                print(f"{os.path.basename(binary)} {' '.join(args)[:60]}: exit {run.returncode}, "
                      f"{len(names)} functions, {len(new)} new", file=sys.stderr)
    fake.stdin.close()
    fake.wait()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.writelines(n + "\n" for n in order)
    print(f"{OUT}: {len(order)} functions", file=sys.stderr)


if __name__ == "__main__":
    main()
