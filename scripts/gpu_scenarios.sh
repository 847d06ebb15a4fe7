#!/usr/bin/env bash
# Runs many scenarios on a Hopper GPU in one go, through `tmasim cuda`.
#
#   scripts/gpu_scenarios.sh emit LIST DIR   (here) one CUDA program per scenario of LIST (a file of
#                                            scenario paths, one a line, or a directory of *.json)
#                                            into DIR/NNNN/scenario.cu, with DIR/manifest.txt
#   scripts/gpu_scenarios.sh run DIR OUT     (on the GPU machine) builds them all in parallel, runs each
#                                            in its own process with a time limit (a trap or hang
#                                            cannot take the others with it) and writes
#                                            OUT/results.jsonl.gz (each line: the program's JSON plus
#                                            "file"), OUT/gpu_scenarios.log and OUT/environment.txt
#
# Environment: TMASIM (default build/tmasim), REPS (default 7), TIMEOUT seconds per program (30),
# JOBS for nvcc (nproc), ROOT: the directory LIST's paths are relative to (for "file").
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:?usage: gpu_scenarios.sh emit LIST DIR | run DIR OUT}

if [ "$cmd" = emit ]; then
  list=${2:?LIST}; dir=${3:?DIR}
  tmasim=${TMASIM:-$top/build/tmasim}
  root=${ROOT:-$list}
  [ -d "$root" ] || root=$(dirname "$list")
  if [ -d "$list" ]; then files=$(cd "$list" && find . -name '*.json' ! -name 'results*' | sed 's|^\./||' | sort); root=$list
  else files=$(cat "$list"); fi
  rm -rf "$dir"; mkdir -p "$dir"
  n=0
  for f in $files; do
    id=$(printf '%04d' $n)
    path=$f; [ -f "$path" ] || path=$root/$f
    if "$tmasim" cuda "$path" -o "$dir/$id" > "$dir/$id.log" 2>&1; then
      echo "$id $f" >> "$dir/manifest.txt"; rm -f "$dir/$id.log"
    else
      echo "gpu_scenarios: $f: $(tail -1 "$dir/$id.log")" >&2
    fi
    n=$((n + 1))
  done
  echo "gpu_scenarios: $(wc -l < "$dir/manifest.txt") programs in $dir"
  exit 0
fi

[ "$cmd" = run ] || { echo "usage: gpu_scenarios.sh emit LIST DIR | run DIR OUT" >&2; exit 2; }
dir=${2:?DIR}; out=${3:?OUT}
[ -s "$dir/manifest.txt" ] || { echo "gpu_scenarios: $dir/manifest.txt is missing: run 'emit' first (and carry DIR to the GPU machine)" >&2; exit 2; }
mkdir -p "$out"
log=$out/gpu_scenarios.log
: > "$log"
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv,noheader 2>/dev/null | sed 's/^/gpu /'
  nvcc --version | tail -1 | sed 's/^/nvcc /'
} > "$out/environment.txt"
jobs=${JOBS:-$(nproc)}
echo "gpu_scenarios: building $(wc -l < "$dir/manifest.txt") programs with $jobs jobs" | tee -a "$log"
cut -d' ' -f1 "$dir/manifest.txt" | xargs -P "$jobs" -I{} sh -c \
  "nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -o '$dir/{}/scenario' '$dir/{}/scenario.cu' > '$dir/{}/build.log' 2>&1 || echo 'build failed: {}' >> '$log'"
# ptxas serialises every wgmma of a kernel it cannot pipeline (C7514): such a program measures
# something else than its scenario says, and the log says so.
for b in "$dir"/*/build.log; do
  if grep -q C7514 "$b"; then echo "wgmma serialised by ptxas (C7514): $(dirname "$b")" | tee -a "$log"; fi
  if grep -q "spill stores, [1-9]" "$b"; then echo "registers spilled: $(dirname "$b")" | tee -a "$log"; fi
done
results=$out/results.jsonl
: > "$results"
reps=${REPS:-7}
limit=${TIMEOUT:-30}
done_n=0
while read -r id file; do
  res=$dir/$id/result.json
  rm -f "$res"
  if [ ! -x "$dir/$id/scenario" ]; then
    line="{\"scenario\":\"$file\",\"launch_error\":\"build failed\"}"
  else
    set +e
    timeout "$limit" "$dir/$id/scenario" "$res" "$reps" >> "$log" 2>&1
    rc=$?
    set -e
    if [ $rc -eq 124 ]; then line="{\"scenario\":\"$file\",\"hang\":\"process time limit ${limit}s\"}"
    elif [ -s "$res" ]; then line=$(cat "$res")
    else line="{\"scenario\":\"$file\",\"launch_error\":\"exit $rc without a result\"}"; fi
  fi
  # Prepend the corpus path so that `tmasim compare` pairs the result with its scenario.
  printf '{"file":"%s",%s\n' "$file" "${line#\{}" >> "$results"
  done_n=$((done_n + 1))
  [ $((done_n % 25)) -eq 0 ] && echo "gpu_scenarios: $done_n done" | tee -a "$log"
done < "$dir/manifest.txt"
gzip -9f "$results"
echo "gpu_scenarios: $done_n results in $results.gz" | tee -a "$log"
