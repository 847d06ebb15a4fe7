#!/usr/bin/env bash
# The H100 runs that sessions lent only H200s left to do, in one device call (issue 29):
#   tests/golden/holdout3         its H100 run (B, and C and D, adopted on H200 data, are judged again on it:
#                                 holdout3/README.md, holdout5/README.md)
#   tests/golden/holdout5         its H100 run (the set that adopted C and D on an H200)
#   tests/golden/capacity_probe   the L2's resident share on the H100 itself (read off an H200)
#   tb/gpu/placement_probe.cu     where consecutive launches put their CTAs, on the H100
#   tests/golden/load_curve_probe, share_step_probe, group_share_probe   the H100's own GPC paths,
#                                 placement and L2 output (read off an H200 on 2026-11-29; candidates G
#                                 and G2 of load_curve_probe/README.md failed on the H100's held-out data)
#
#   scripts/h100_pending.sh emit            (here) the CUDA programs into gpu_runs/h100_pending
#   scripts/h100_pending.sh run OUT         (on the GPU machine, carrying gpu_runs/h100_pending) runs
#                                           them all and writes OUT/results.jsonl.gz (files relative
#                                           to tests/golden), OUT/placement_probe.jsonl, OUT/environment.txt
# Then split results.jsonl.gz by folder into each set's results.jsonl.gz (as the READMEs say) and
# judge: scripts/judge_config.py --sets holdout3 ... once the results are in place.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/gpu_runs/h100_pending
case "${1:-}" in
  emit)
    (cd "$top/tests/golden" && ls holdout3/*/*.json holdout5/*/*.json capacity_probe/*.json load_curve_probe/*.json share_step_probe/*.json \
                                  group_share_probe/*.json) > "$top/gpu_runs/h100_pending.txt"
    ROOT=$top/tests/golden "$top/scripts/gpu_scenarios.sh" emit "$top/gpu_runs/h100_pending.txt" "$dir"
    ;;
  run)
    out=${2:?usage: h100_pending.sh run OUT}
    mkdir -p "$out"
    nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 ||
      { echo "h100_pending: this GPU is not an H100 ($(nvidia-smi --query-gpu=name --format=csv,noheader)): nothing run" >&2; exit 2; }
    JOBS=${JOBS:-16} REPS=${REPS:-7} TIMEOUT=${TIMEOUT:-30} "$top/scripts/gpu_scenarios.sh" run "$dir" "$out"
    nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$dir/placement_probe" "$top/tb/gpu/placement_probe.cu"
    "$dir/placement_probe" > "$out/placement_probe.jsonl"
    nvidia-smi --query-gpu=serial --format=csv,noheader | sed 's/^/serial /' >> "$out/environment.txt"
    ;;
  *) echo "usage: h100_pending.sh emit | run OUT" >&2; exit 2 ;;
esac
