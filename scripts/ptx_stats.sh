#!/bin/bash
# What nvcc makes of a scenario's emitted kernel, without a GPU: emits it (`tmasim cuda`),
# compiles it to PTX for sm_90a as the harness does (-O3) and counts, in the kernel's PTX,
# ldmatrix and mbarrier.try_wait instructions (a fully unrolled loop repeats its body's),
# multiplies (mul, mad: a division by a constant that is not a power of two becomes a
# multiply by a magic number) and all instructions.
#
#   scripts/ptx_stats.sh [--tmasim build/tmasim] SCENARIO.json...     (NVCC=path overrides nvcc)
#
# Prints one line per scenario: file, ldmatrix, try_wait, mul/mad, instructions.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmasim=$root/build/tmasim
if [ "${1:-}" = "--tmasim" ]; then tmasim=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [--tmasim PATH] SCENARIO.json..." >&2; exit 2; }
nvcc=${NVCC:-nvcc}
command -v "$nvcc" > /dev/null || { echo "ptx_stats: $nvcc not found (CUDA 13)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-60s %8s %8s %8s %8s\n' scenario ldmatrix try_wait mul/mad instr
for f in "$@"; do
  d=$work/$(basename "$f" .json)
  "$tmasim" cuda "$f" -o "$d" > "$work/emit.log" 2>&1 || { echo "ptx_stats: $f: tmasim cuda failed:" >&2; cat "$work/emit.log" >&2; exit 1; }
  "$nvcc" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -ptx "$d/scenario.cu" -o "$d/k.ptx"
  count() { grep -cE "$1" "$d/k.ptx" || true; }
  printf '%-60s %8s %8s %8s %8s\n' "$f" "$(count 'ldmatrix')" "$(count 'mbarrier\.try_wait')" \
    "$(count '^\s+(mul|mad)\.')" "$(count '^\s+[a-z]')"
done
