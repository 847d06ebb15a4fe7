#!/usr/bin/env bash
# Capture tmasim's golden data on a machine with an H100 (sm_90a) in one run:
# build the harness, run every functional case (restarting after a trap so that one
# illegal instruction does not lose the rest), measure every SMEM access pattern under
# Nsight Compute, take the timing records, and write compressed files into OUT_DIR.
#   scripts/gpu_reference.sh OUT_DIR
#   START=N runs the functional modes from case N on (a later round of the coverage list);
#   TMA_ONLY=FILE only the cases named in FILE (re-running cases after a harness fix).
#   PARTS="coverage" scripts/gpu_reference.sh OUT_DIR   only some parts (default: functional
#       probe patterns timing determinism; `coverage` is the coverage capture of issue 11,
#       tb/gpu/coverage_cases.h, with its report)
# Then, on any machine: scripts/unpack_golden.sh OUT_DIR  (copies them into tests/golden/).
set -u
parts=" ${PARTS:-functional probe patterns timing determinism} "
want() { [[ $parts == *" $1 "* ]]; }
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

# One shard of a functional mode: restart the harness after every case that ends its
# process (a trap, a time-out, a crash), going on at the case after it.
shard_run() {  # $1: output file, $2: harness mode, $3: shard, $4: shards
  local f=$1 mode=$2 k=$3 n=$4 start=${START:-0} last=-1 rc tries=0
  : > "$f"; rm -f "$f.next"
  while [ $tries -lt 3000 ]; do
    tries=$((tries + 1))
    TMA_SHARD=$k TMA_SHARDS=$n timeout 300 "$work/tma_ref" "$mode" "$f" "$start" >>"$f.log" 2>&1
    rc=$?
    [ $rc -eq 0 ] && break
    [ -f "$f.next" ] || { echo "shard $k: harness exit $rc before any case" >> "$f.log"; break; }
    start=$(cat "$f.next")
    [ "$start" = "$last" ] && { echo "shard $k: no progress at case $start (exit $rc)" >> "$f.log"; break; }
    last=$start
  done
  echo "$tries" > "$f.tries"
}

# Every case of a harness mode (functional, probe, coverage, coverage-probe) into $1, in
# list order, run by SHARDS parallel processes (default 1).
functional() {
  local f=$1 mode=${2:-functional} n=${SHARDS:-1} k procs=0
  for ((k = 0; k < n; k++)); do shard_run "$f.s$k" "$mode" $k $n & done
  wait
  for ((k = 0; k < n; k++)); do procs=$((procs + $(cat "$f.s$k.tries"))); cat "$f.s$k.log" >> "$log"; done
  local list=functional
  [[ $mode == coverage* ]] && list=coverage
  "$work/tma_ref" names $list > "$work/names.txt"
  python3 - "$work/names.txt" "$f" "$n" <<'PY'
import json, sys
names, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
by_name = {}
for k in range(n):
    for line in open(f"{out}.s{k}"):
        if line.strip():
            by_name[json.loads(line)["name"]] = line
with open(out, "w") as f:
    for name in open(names).read().split():
        if name in by_name:
            f.write(by_name[name])
PY
  say "$mode: $(wc -l < "$f") records, $procs process(es), $n shard(s)"
}

files=""
if want functional; then
  say "functional cases"
  functional "$work/functional.jsonl"
  files="$files functional"
fi

if want coverage; then
  say "coverage capture"
  functional "$work/coverage.jsonl" coverage
  gzip -9c "$work/coverage.jsonl" > "$out/coverage.jsonl.gz"
  "$work/tma_ref" coverage-report "$work/coverage.jsonl" > "$out/coverage_report.txt"
  say "coverage report (exit $?):"; head -2 "$out/coverage_report.txt" | tee -a "$log"
  grep -E "EMPTY|unreachable" "$out/coverage_report.txt" | tee -a "$log"
  say "coverage probe (provenance fill)"
  functional "$work/coverage_probe.jsonl" coverage-probe
  gzip -9c "$work/coverage_probe.jsonl" > "$out/coverage_probe.jsonl.gz"
  if want determinism; then
    say "determinism: second coverage pass"
    functional "$work/coverage2.jsonl" coverage
    if cmp -s "$work/coverage.jsonl" "$work/coverage2.jsonl"; then say "coverage data identical across two runs"
    else say "coverage data DIFFERS between runs: $(cmp "$work/coverage.jsonl" "$work/coverage2.jsonl" | head -1)"
      gzip -9c "$work/coverage2.jsonl" > "$out/coverage_second_pass.jsonl.gz"
    fi
  fi
fi

if want probe; then
  say "interleave probe (provenance fill)"
  functional "$work/interleave_probe.jsonl" probe
  files="$files interleave_probe"
fi

if want patterns; then
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
gzip -9c "$work/ncu.csv" > "$out/ncu_raw.csv.gz"
files="$files smem_patterns"
fi

if want timing; then
say "timing"
timeout 300 "$work/tma_ref" timing "$work/timing.jsonl" >>"$log" 2>&1
say "timing exit $?: $(wc -l < "$work/timing.jsonl") records"
files="$files timing"
fi

if want determinism && want functional; then
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
fi

for n in $files; do gzip -9c "$work/$n.jsonl" > "$out/$n.jsonl.gz"; done
ls -l "$out" | tee -a "$log"
