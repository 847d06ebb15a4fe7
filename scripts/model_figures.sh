#!/usr/bin/env bash
# Every figure the timing model gives, from one build, written to a folder, so that two builds
# can be proved to give the same answers (a refactoring, a speed step):
#   scripts/model_figures.sh BUILD_DIR OUT_DIR [SOURCE_DIR]
#   diff -r OUT_A OUT_B        (scripts/check_identical.sh BASE_BUILD NEW_BUILD does both)
# BUILD_DIR holds the tmasim binary; SOURCE_DIR (default: this tree) the golden data and the
# configurations that build reads (its own configs/, so a build of an older commit reads its own).
# Figures: `tmasim compare --csv` on the corpus, the held-out set and every probe in all three L2
# states; `tmasim calibrate` on both timing-record sets; `tmasim run --stats` of every example and
# benchmark scenario, with bytes and timing only; the digest of the CUDA program every scenario
# becomes. Each run's output, stats and exit status kept.
set -uo pipefail
build=$(cd "$1" && pwd)
out=$2
src=$(cd "${3:-$(dirname "$0")/..}" && pwd)
tmasim=$build/tmasim
[ -x "$tmasim" ] || { echo "model_figures.sh: no tmasim in $build" >&2; exit 2; }
mkdir -p "$out"
golden=$src/tests/golden
jobs=${JOBS:-$(nproc)}

# What differs between two runs of one build, or names the build rather than the model: the
# wall-clock time and the tmasim version in a run's report and statistics.
without_build_or_clock() {  # PREFIX: PREFIX.out and PREFIX.stats.json in place
  sed -i '/^  simulation: /d' "$1.out"
  [ -s "$1.stats.json" ] && python3 - "$1.stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for k in ("wall_seconds", "tmasim_version"):
    s.pop(k, None)
json.dump(s, open(sys.argv[1], "w"), indent=2, sort_keys=True)
PY
  return 0
}

record() {  # NAME COMMAND...: stdout, stderr and the exit status of one command
  local name=$1; shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
}

for set in scenarios holdout wait_probe loop_probe stream_probe; do
  for l2 in cold cold_clean warm; do
    echo "model_figures.sh: compare $set --l2 $l2"
    record "compare_${set}_$l2" "$tmasim" compare "$golden/$set" --l2 "$l2" -j "$jobs" --csv "$out/compare_${set}_$l2.csv"
  done
done
record calibrate_h100 "$tmasim" calibrate "$golden/timing.jsonl.gz"
record calibrate_records "$tmasim" calibrate "$golden/timing.jsonl.gz" --config "$src/configs/h100_timing_records.json"
for f in "$src"/examples/*.json "$src"/bench/scenarios/*.json "$src"/tests/scenarios/*.json; do
  n=$(basename "$(dirname "$f")")_$(basename "$f" .json)
  echo "model_figures.sh: run $n"
  record "run_$n" "$tmasim" run "$f" --stats "$out/run_$n.stats.json"
  record "run_${n}_timing_only" "$tmasim" run "$f" --timing-only --stats "$out/run_${n}_timing_only.stats.json"
  for r in "run_$n" "run_${n}_timing_only"; do without_build_or_clock "$out/$r"; done
done
# The CUDA each scenario becomes (tmasim cuda), as a digest a file: examples, tests and the corpora.
cuda_tmp=$(mktemp -d)
find "$src/examples" "$src/tests/scenarios" "$golden" -name "*.json" -path "*" | sort | while read -r f; do
  case $f in */results*|*/README*) continue ;; esac
  if "$tmasim" cuda "$f" -o "$cuda_tmp/x" >/dev/null 2>&1; then
    echo "$(sha256sum <"$cuda_tmp/x/scenario.cu" | cut -c1-16) ${f#$src/}"
  else
    echo "refused ${f#$src/}"
  fi
done >"$out/cuda_digests.txt"
rm -rf "$cuda_tmp"
# Wall-clock lines (progress, CPU seconds) are not figures; nor are the two builds' own paths.
sed -i -E '/(seconds|elapsed|ops per|per second)/d' "$out"/*.out "$out"/*.err "$out"/*.json 2>/dev/null
sed -i -E '/^  [a-z]+: [0-9]+\/[0-9]+, .* left$/d' "$out"/*.err
sed -i -e "s|$src|SRC|g" -e "s|$out|OUT|g" "$out"/*
# The build's version (a CSV column) names the build, not the model.
version=$("$tmasim" --version | awk '{print $2}')
[ -n "$version" ] && sed -i "s|\"$version\"|\"VERSION\"|g" "$out"/*.csv
echo "model_figures.sh: $(ls "$out" | wc -l) files in $out"
