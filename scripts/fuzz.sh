#!/usr/bin/env bash
# Fuzz every reader of user input with libFuzzer (clang, AddressSanitizer, UBSan).
#   scripts/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (default 60);
#   targets: scenario expression config golden timing pattern cli results settings (default: all)
#   FUZZ_PLAIN=1: a build with libFuzzer alone (build-fuzz-plain), no sanitizers
# Seeds: examples/, tests/scenarios/, tests/golden/scenarios/ and tests/fuzz/seeds/. A crash is
# copied to tests/fuzz/regressions/TARGET/, which ctest replays in every build
# (fuzz_regressions_TARGET); fix it and commit the input.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}; shift || true
all_targets="scenario expression config golden timing pattern cli results settings"
targets=${*:-$all_targets}
if [ "${FUZZ_PLAIN:-0}" = 1 ]; then build=$top/build-fuzz-plain sanitizers=OFF; else build=$top/build-fuzz sanitizers=ON; fi
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is needed (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
# FUZZ_NO_BUILD=1: use the targets already built (several fuzz.sh at once must not share a build).
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DTMASIM_FUZZ=ON -DTMASIM_FUZZ_SANITIZERS=$sanitizers >/dev/null
  cmake --build "$build" -j"$(nproc)" >"$build/build.log" 2>&1 || { echo "fuzz.sh: build failed, see $build/build.log" >&2; exit 2; }
fi
# Targets run side by side, one per core (FUZZ_JOBS), each with its own corpus and artifacts.
jobs=${FUZZ_JOBS:-$(nproc)}
fuzz_one() {
  local t=$1 seeds work=$build/corpus_$t art=$build/artifacts_$t/ timeout=10
  # A setting may make the scenario as large as the expansion budget allows (5,000,000 steps), a
  # timing record as much global memory as its limit (1 GiB, filled byte by byte): seconds under
  # the sanitizers on a loaded machine, bounded; not a hang.
  case $t in settings|timing) timeout=30 ;; esac
  mkdir -p "$work" "$art"
  case $t in
    scenario) seeds=("$top/examples" "$top/tests/scenarios" "$top/tests/golden/scenarios/micro" "$top/tests/golden/scenarios/random" "$top/tests/fuzz/seeds/scenario") ;;
    *) seeds=("$top/tests/fuzz/seeds/$t") ;;
  esac
  (cd "$build" && ASAN_OPTIONS=detect_leaks=0 "./tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout="$timeout" \
     -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$art" "$work" "${seeds[@]}" \
     > "$build/fuzz_$t.log" 2>&1)
}
for t in $targets; do
  case $t in
    scenario|expression|config|golden|timing|pattern|cli|results|settings) ;;
    *) echo "fuzz.sh: unknown target $t" >&2; exit 2 ;;
  esac
done
status=0
declare -A pid
running=0
for t in $targets; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  echo "fuzz.sh: $t for ${secs}s"
  fuzz_one "$t" & pid[$t]=$!
  running=$((running + 1))
done
for t in $targets; do
  if ! wait "${pid[$t]}"; then
    status=1
    mkdir -p "$top/tests/fuzz/regressions/$t"
    for crash in "$build/artifacts_$t"/crash-* "$build/artifacts_$t"/timeout-* "$build/artifacts_$t"/oom-* "$build/artifacts_$t"/leak-*; do
      [ -e "$crash" ] && mv "$crash" "$top/tests/fuzz/regressions/$t/" && echo "fuzz.sh: $t: new finding $(basename "$crash")"
    done
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/fuzz_$t.log" | sed "s/^/  $t: /"
done
exit $status
