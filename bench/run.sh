#!/usr/bin/env bash
# End-to-end benchmark: builds the optimised binary and times it against the
# fake NCBI from tests/support; prints one table. Pass a name to run one row
# (e.g. `bench/run.sh search_all`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench e2e -- "$@"
