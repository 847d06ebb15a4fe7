#!/usr/bin/env bash
# Set up, then run every test: the unit tests and the replays of the H100 golden data; then the
# same suite under AddressSanitizer and UBSan, and a short run of every fuzz target.
#   scripts/test.sh             everything (what CI runs)
#   TMASIM_QUICK=1 scripts/test.sh   the plain build's suite only
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
"$top/scripts/setup.sh" "$top/build"
cd "$top/build"
ctest --output-on-failure -j"$jobs"
[ "${TMASIM_QUICK:-0}" = 1 ] && exit 0

echo "tmasim test: the suite under AddressSanitizer and UBSan (build-asan)"
asan=$top/build-asan
mkdir -p "$asan"
# -O1 (AddressSanitizer's documentation suggests it for reasonable speed): a build about two
# minutes shorter than -O2, which keeps CI's whole run under 20 minutes.
cmake -S "$top" -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
      -DTMASIM_SANITIZE=ON >"$asan/build.log" 2>&1
cmake --build "$asan" -j"$jobs" >>"$asan/build.log" 2>&1 || { tail -n 40 "$asan/build.log"; echo "sanitizer build failed: see $asan/build.log"; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The corpus halves, the held-out sets (the first's other L2 states), the drift probe, the loop
# refit, the three-state configuration, the timing records and the sensitivity check replay the
# same code paths as the scenario and L2Start tests, over a thousand simulations more slowly.
(cd "$asan" && ctest --output-on-failure -j"$jobs" -E "scenario_corpus_|scenario_holdout_|scenario_holdout2_|scenario_holdout3_h200_|scenario_holdout4_h200_|scenario_holdout5_|scenario_drift_probe_|scenario_loop_refit_|scenario_real_kernel|scenario_attention_|scenario_coopb_|scenario_three_states_|scenario_wait_probe_|timing_records_|timing_sensitivity")
unset ASAN_OPTIONS UBSAN_OPTIONS

echo "tmasim test: every fuzz target for ${TMASIM_FUZZ_SECONDS:-20} s"
"$top/scripts/fuzz.sh" "${TMASIM_FUZZ_SECONDS:-20}"
