#!/usr/bin/env bash
# Copy the files written by scripts/gpu_reference.sh OUT_DIR into tests/golden/.
set -euo pipefail
src=${1:?usage: unpack_golden.sh OUT_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
for f in functional.jsonl.gz smem_patterns.jsonl.gz timing.jsonl.gz capture_log.txt; do
  [ -f "$src/$f" ] || { echo "missing $src/$f" >&2; exit 1; }
  cp "$src/$f" "$top/tests/golden/$f"
done
echo "golden data updated from $src; run scripts/test.sh, then review tests/golden/known_gaps.txt"
