#!/usr/bin/env bash
# Capture tmasim's golden data on a machine with an H100 (sm_90a) in one run:
# build the harness, run every functional case (restarting after a trap so that one
# illegal instruction does not lose the rest), measure every SMEM access pattern under
# Nsight Compute, take the timing records, and write compressed files into OUT_DIR.
#   scripts/gpu_reference.sh OUT_DIR
# Then, on any machine: scripts/unpack_golden.sh OUT_DIR  (copies them into tests/golden/).
set -u
out=${1:?usage: gpu_reference.sh OUT_DIR}
mkdir -p "$out"
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
log="$out/capture_log.txt"
: > "$log"
say() { echo "[$(date +%T)] $*" | tee -a "$log"; }

say "device:"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee -a "$log"
nvcc --version | tail -2 | tee -a "$log"
say "build"
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$top/tb/gpu" "$top/tb/gpu/tma_ref.cu" -o "$work/tma_ref" \
  >>"$log" 2>&1 || { say "build failed"; exit 1; }
"$work/tma_ref" count | tee -a "$log"

functional() {  # $1: output file, $2: harness mode (functional or probe)
  local f=$1 mode=${2:-functional} start=0 rc tries=0
  : > "$f"
  while [ $tries -lt 1500 ]; do
    tries=$((tries + 1))
    timeout 300 "$work/tma_ref" "$mode" "$f" "$start" >>"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] && break
    local done_lines; done_lines=$(wc -l < "$f")
    if [ $rc -eq 3 ] && [ -f "$f.next" ]; then
      start=$(cat "$f.next")                 # the trapping case was recorded; go on after it
    elif [ "$mode" != functional ]; then
      say "$mode: harness exit $rc; stopping"
      break
    else
      say "harness exit $rc after $done_lines records; skipping case $done_lines"
      start=$((done_lines + 1))
    fi
  done
  say "$mode: $(wc -l < "$f") records, $tries process(es)"
}

say "functional cases"
functional "$work/functional.jsonl"

say "interleave probe (provenance fill)"
functional "$work/interleave_probe.jsonl" probe

say "shared-memory patterns under ncu"
want="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum smsp__sass_inst_executed_op_shared_ld.sum
smsp__sass_inst_executed_op_shared_st.sum smsp__sass_inst_executed_op_ldsm.sum smsp__inst_executed_op_ldsm.sum
smsp__sass_inst_executed_op_stsm.sum smsp__inst_executed.sum"
ncu --query-metrics --chip gh100 > "$work/metrics.txt" 2>>"$log" || ncu --query-metrics > "$work/metrics.txt" 2>>"$log"
metrics=""
for m in $want; do
  base=${m%.sum}
  if grep -q "^$base\b" "$work/metrics.txt"; then metrics="$metrics,$m"; else say "metric not available: $m"; fi
done
metrics=${metrics#,}
say "metrics: $metrics"
timeout 400 ncu --csv --page raw --kernel-name pat_kernel --metrics "$metrics" \
  "$work/tma_ref" patterns "$work/patterns_list.jsonl" > "$work/ncu.csv" 2>>"$log"
say "ncu exit $?"
python3 "$top/scripts/merge_ncu.py" "$work/patterns_list.jsonl" "$work/ncu.csv" "$work/smem_patterns.jsonl" 2>&1 | tee -a "$log"

say "timing"
timeout 300 "$work/tma_ref" timing "$work/timing.jsonl" >>"$log" 2>&1
say "timing exit $?: $(wc -l < "$work/timing.jsonl") records"

say "determinism: second functional pass"
functional "$work/functional2.jsonl"
if cmp -s "$work/functional.jsonl" "$work/functional2.jsonl"; then say "functional data identical across two runs"
else say "functional data DIFFERS between runs:"; 
  python3 - "$work/functional.jsonl" "$work/functional2.jsonl" <<'PY' | tee -a "$log"
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
for x, y in zip(a, b):
    if x != y:
        keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
        print("  differs:", x.get("name"), keys)
PY
fi

for n in functional smem_patterns timing interleave_probe; do gzip -9c "$work/$n.jsonl" > "$out/$n.jsonl.gz"; done
gzip -9c "$work/ncu.csv" > "$out/ncu_raw.csv.gz"
ls -l "$out" | tee -a "$log"
