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
#   tests/golden/release_load_probe  a newcomer's wait behind DRAM and L2 streamers, and the slow TPC of
#                                 SMs 128-129 (read off an H200 on 2026-11-29; its README)
#
#   scripts/h100_pending.sh emit            (here) the CUDA programs into gpu_runs/h100_pending
#   scripts/h100_pending.sh run OUT [SET...] (on the GPU machine, carrying gpu_runs/h100_pending) runs
#                                           them all, or only those of the named sets (folders of
#                                           tests/golden: one device call runs about 200 of the 470
#                                           programs), and writes OUT/results.jsonl.gz (files relative
#                                           to tests/golden), OUT/environment.txt and, when every set
#                                           or holdout3 is run, OUT/placement_probe.jsonl
# Then split results.jsonl.gz by folder into each set's results.jsonl.gz (as the READMEs say) and
# judge: scripts/judge_config.py --sets holdout3 ... once the results are in place.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/gpu_runs/h100_pending
case "${1:-}" in
  emit)
    mkdir -p "$top/gpu_runs"
    (cd "$top/tests/golden" && ls holdout3/*/*.json holdout5/*/*.json capacity_probe/*.json load_curve_probe/*.json share_step_probe/*.json \
                                  group_share_probe/*.json release_load_probe/*.json) > "$top/gpu_runs/h100_pending.txt"
    ROOT=$top/tests/golden "$top/scripts/gpu_scenarios.sh" emit "$top/gpu_runs/h100_pending.txt" "$dir"
    ;;
  run)
    out=${2:?usage: h100_pending.sh run OUT [SET...]}
    shift 2
    mkdir -p "$out"
    nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 ||
      { echo "h100_pending: this GPU is not an H100 ($(nvidia-smi --query-gpu=name --format=csv,noheader)): nothing run" >&2; exit 2; }
    run_dir=$dir
    if [ $# -gt 0 ]; then
      # Only the named sets: a directory of links to their programs, with their lines of the manifest.
      run_dir=$dir.part; rm -rf "$run_dir"; mkdir -p "$run_dir"
      for set in "$@"; do
        grep " $set/" "$dir/manifest.txt" >> "$run_dir/manifest.txt" || { echo "h100_pending: no program of set $set" >&2; exit 2; }
      done
      cut -d' ' -f1 "$run_dir/manifest.txt" | while read -r id; do ln -s "$dir/$id" "$run_dir/$id"; done
    fi
    JOBS=${JOBS:-16} REPS=${REPS:-7} TIMEOUT=${TIMEOUT:-30} "$top/scripts/gpu_scenarios.sh" run "$run_dir" "$out"
    nvidia-smi --query-gpu=serial --format=csv,noheader | sed 's/^/serial /' >> "$out/environment.txt"
    [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx holdout3 || exit 0
    nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$dir/placement_probe" "$top/tb/gpu/placement_probe.cu"
    "$dir/placement_probe" > "$out/placement_probe.jsonl"
    ;;
  *) echo "usage: h100_pending.sh emit | run OUT [SET...]" >&2; exit 2 ;;
esac
