#!/usr/bin/env bash
# The timing model moves the same data with either address generator: runs each scenario with
# the C++ traversal (configs/h100.json) and with the Verilated RTL AGU (configs/h100_rtl_agu.json)
# and compares the operations, bytes and shared-memory wavefronts. Cycles are reported, not
# compared: with the RTL, rows leave at the RTL's own beat cycles (tests/check_rtl_agu_timing.py).
#   scripts/check_agu_equivalence.sh TMASIM SCENARIO...
set -euo pipefail
tmasim=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
for scenario in "$@"; do
  "$tmasim" run "$scenario" --config "$top/configs/h100.json" --stats "$tmp/cpp.json" >/dev/null
  "$tmasim" run "$scenario" --config "$top/configs/h100_rtl_agu.json" --stats "$tmp/rtl.json" >/dev/null
  if python3 - "$tmp/cpp.json" "$tmp/rtl.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["tma_operations", "tma_bytes", "smem_wavefronts", "smem_conflict_wavefronts", "read_wavefronts"]
diff = [k for k in keys if a[k] != b[k]]
print(("same data: " if not diff else "DIFFERENT " + ",".join(diff) + ": ") + a["scenario"] +
      f" ({a['cycles']:.0f} cycles with the C++ generator, {b['cycles']:.0f} with the RTL:"
      f" {100 * (b['cycles'] / a['cycles'] - 1):+.1f}%)")
sys.exit(1 if diff else 0)
PY
  then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
