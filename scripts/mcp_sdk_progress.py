#!/usr/bin/env python3
"""Progress notifications as the official MCP Python SDK receives them (issue 27).

Starts the fake NCBI of the tests (`cargo run --example fake_ncbi`), then
`pubmed mcp` on stdio pointed at it, and calls pubmed_fetch_articles (200
PMIDs), pubmed_search_articles (1,000 of 5,000 hits), pubmed_find_related and
pubmed_format_citations (50 PMIDs) through `ClientSession.call_tool(...,
progress_callback=...)`; the SDK then sends `_meta.progressToken` (the request
id). Asserts, per call: the result is not an error; at least one
`notifications/progress` for that token reached the progress callback; on
the wire every one of them came before the call's result; `progress` never
falls and ends at `total`. Prints one line of figures per call.

Usage (from the repository root; `pip install mcp`, tested with 2.3.0):
    cargo build --release --example fake_ncbi
    python3 scripts/mcp_sdk_progress.py [PUBMED_BINARY [FAKE_NCBI_BINARY]]
The binaries default to target/release/pubmed and
target/release/examples/fake_ncbi. Exit status 0 when every check passes.
Not part of `cargo test` (it needs Python and the SDK).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent

CALLS: list[tuple[str, dict[str, Any]]] = [
    (
        "pubmed_fetch_articles",
        {"pmids": [str(11_600_000 + n) for n in range(1, 201)]},
    ),
    ("pubmed_search_articles", {"query": "hits5000", "maxResults": 1000}),
    ("pubmed_find_related", {"pmid": "1234", "kind": "similar"}),
    (
        "pubmed_format_citations",
        {"pmids": [str(11_700_000 + n) for n in range(1, 51)], "format": "bibtex"},
    ),
]


def server_env(urls: dict[str, str], home: str) -> dict[str, str]:
    """The scrubbed environment of the Rust tests (tests/support/mcp.rs)."""
    return {
        "HOME": home,
        "XDG_CONFIG_HOME": f"{home}/.config",
        "XDG_CACHE_HOME": f"{home}/.cache",
        "XDG_RUNTIME_DIR": home,
        "NO_PROXY": "127.0.0.1,localhost",
        "PUBMED_REQUEST_GAP_MS": "0",
        "PUBMED_RETRY_BASE_MS": "1",
        "PUBMED_MAX_RETRIES": "2",
        "PUBMED_DEADLINE_S": "20",
        "PUBMED_EUTILS_URL": urls["eutils"],
        "PUBMED_IDCONV_URL": urls["idconv"],
        "PUBMED_EUROPEPMC_URL": urls["europepmc"],
    }


async def tee(source, sink, wire: list[dict[str, Any]]) -> None:
    """Forwards the transport's messages to the session, keeping their order."""
    async with sink:
        async for item in source:
            if not isinstance(item, Exception):
                m = item.message.model_dump(by_alias=True, exclude_none=True)
                wire.append({"method": m.get("method"), "id": m.get("id"), "params": m.get("params")})
            await sink.send(item)


async def one_call(session: ClientSession, wire: list[dict[str, Any]], tool: str, args: dict[str, Any]) -> str:
    """Calls `tool`, checks its progress, returns a line of figures."""
    got: list[tuple[float, float | None, str | None, float]] = []
    t0 = time.monotonic()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        got.append((progress, total, message, time.monotonic() - t0))

    start = len(wire)
    result = await session.call_tool(tool, args, progress_callback=on_progress)
    elapsed = time.monotonic() - t0
    await anyio.sleep(0.05)  # the SDK runs progress callbacks in tasks of their own
    assert not result.is_error, f"{tool}: {result.content}"
    seen = wire[start:]
    answer = next(i for i, m in enumerate(seen) if m["id"] is not None and m["method"] is None)
    rid = seen[answer]["id"]
    mine = [
        i
        for i, m in enumerate(seen)
        if m["method"] == "notifications/progress" and m["params"]["progressToken"] == rid
    ]
    assert mine, f"{tool}: no notifications/progress for token {rid}"
    assert all(i < answer for i in mine), f"{tool}: a progress notification after the result"
    assert len(got) == len(mine), f"{tool}: callback got {len(got)} of {len(mine)}"
    steps = [p for p, _, _, _ in got]
    assert steps == sorted(steps), f"{tool}: progress fell: {steps}"
    last_p, last_total, last_msg, _ = got[-1]
    assert last_total is not None and last_p == last_total, f"{tool}: ends at {last_p} of {last_total}"
    chars = sum(len(getattr(c, "text", "")) for c in result.content)
    return (
        f"{tool}: {len(got)} notification(s) before the result "
        f"(first at {got[0][3] * 1000:.0f} ms, result at {elapsed * 1000:.0f} ms); "
        f"last: {last_p:g}/{last_total:g} \"{last_msg}\"; {chars} characters of text"
    )


async def run(pubmed: str, urls: dict[str, str]) -> list[str]:
    with tempfile.TemporaryDirectory() as home:
        params = StdioServerParameters(command=pubmed, args=["mcp"], env=server_env(urls, home))
        wire: list[dict[str, Any]] = []
        async with stdio_client(params, errlog=subprocess.DEVNULL) as (read, write):
            sink, source = anyio.create_memory_object_stream(0)
            async with anyio.create_task_group() as tg:
                tg.start_soon(tee, read, sink, wire)
                async with ClientSession(source, write) as session:
                    await session.initialize()
                    lines = [await one_call(session, wire, t, a) for t, a in CALLS]
                tg.cancel_scope.cancel()
        return lines


def main() -> int:
    pubmed = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/pubmed")
    fake = sys.argv[2] if len(sys.argv) > 2 else str(ROOT / "target/release/examples/fake_ncbi")
    import importlib.metadata

    print(f"mcp (Python SDK) {importlib.metadata.version('mcp')}; server {pubmed}")
    with subprocess.Popen([fake], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as ncbi:
        try:
            urls = json.loads(ncbi.stdout.readline())
            for line in anyio.run(run, pubmed, urls):
                print(line)
        finally:
            ncbi.stdin.close()
            ncbi.wait(timeout=10)
    print("ok: every call's progress notifications came before its result")
    return 0


if __name__ == "__main__":
    sys.exit(main())
