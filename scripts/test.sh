#!/usr/bin/env bash
# Set up, then run every test (unit tests, and the replays of the H100 golden data).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" "$top/build"
cd "$top/build"
ctest --output-on-failure -j"$(nproc)"
