#!/usr/bin/env bash
# Regenerates the pictures the README shows, from tmasim itself (run after a build):
# heat maps of a 64x64 fp16 tile read by ldmatrix.x4, explain's picture of the same tile with
# 128B swizzle, and the GEMM-feed sweep (SMEM banks x TMA issue cost x stages).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmasim=${TMASIM:-$top/build/tmasim}
img=$top/docs/img
for s in none 32b 64b 128b; do
  "$tmasim" conflicts --rows 64 --cols 64 --dtype float16 --swizzle $s --access ldmatrix.x4 \
    --svg "$img/heatmap_64x64_f16_$s.svg" --png "$img/heatmap_64x64_f16_$s.png" > /dev/null
done
"$tmasim" explain --dtype float16 --dims 64,64 --swizzle 128b --coords 0,0 \
  --svg "$img/explain_64x64_f16_128b.svg" --png "$img/explain_64x64_f16_128b.png" > /dev/null
"$tmasim" sweep --set STAGES=1,2,3,4,6 --set issue.cycles=27,54,108 --set smem.banks=16,32,64 \
  -o "$img/gemm_sweep" > /dev/null
echo "pictures written to $img"
