#!/usr/bin/env bash
# cuda_compile.sh TMASIM NVCC OUTDIR SCENARIO...: emits each scenario with `tmasim cuda` and
# compiles it for sm_90a (it cannot run here), so that a change to the emitter or its prelude
# that breaks the generated programs (or makes ptxas serialise their wgmma) fails before a GPU
# session does.
set -euo pipefail
tmasim=$1 nvcc=$2 out=$3; shift 3
for s in "$@"; do
  d=$out/$(basename "$s" .json)
  "$tmasim" cuda "$s" -o "$d" > /dev/null
  "$nvcc" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Werror all-warnings -Xptxas -v -c -o "$d/scenario.o" \
    "$d/scenario.cu" > "$d/build.log" 2>&1 || { cat "$d/build.log"; exit 1; }
  # ptxas serialises every wgmma of a kernel whose accumulators it cannot keep in flight (C7514)
  if grep -q C7514 "$d/build.log"; then grep C7514 "$d/build.log"; echo "$s: wgmma serialised" >&2; exit 1; fi
  echo "compiled $s"
done
