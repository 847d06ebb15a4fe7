#!/usr/bin/env bash
# Do the address generators' benches catch a broken line? Builds agu_tb against copies of rtl/
# with one deliberate bug each and runs the random bench (3000 boxes, both widths) and the H100
# golden loads; every mutant must fail. Slow (a Verilator build per mutant), so not in ctest.
# Usage: scripts/check_rtl_mutants.sh [BUILD_DIR]     prints one line per mutant and a tally
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-/tmp/tmasim-mutants}
rtl=$build/rtl
mkdir -p "$build"
# Four entries per mutant: file, the line as written, the broken line, what it breaks.
mutants=(
  tma_agu.sv
  "        else if (2'(d) == adv_dim) idx_q[d] <= idx_q[d] + 8'd1;"
  "        else if (2'(d) == adv_dim) idx_q[d] <= idx_q[d] + 8'd2;"
  "a row index steps by 2"
  tma_agu_row_stack.sv
  "      for (int k = 1; k < Dims; k++) if (2'(k) <= adv_dim_i) first_q[k] <= next_row;"
  "      for (int k = 1; k < Dims; k++) if (2'(k) < adv_dim_i) first_q[k] <= next_row;"
  "the row-pointer stack forgets the dimension that advanced"
  tma_agu_beats.sv
  "      else if (piece == hi_piece) inb &= hi_bytes;"
  "      else if (piece == hi_piece) inb &= lo_bytes;"
  "the upper edge of the byte window uses the lower edge's mask"
  tma_agu_mac.sv
  "  assign carry_o  = all_ones ^ negate_q;"
  "  assign carry_o  = all_ones;"
  "negated products lose their +1"
  tma_agu_ceil_div.sv
  "      num_q   <= floor_i ? x_i : x_i + Width'(d_i) - Width'(1);"
  "      num_q   <= x_i + Width'(d_i) - Width'(1);"
  "floor divisions round up"
  tma_agu_tiled_setup.sv
  "        mult  = job_is_step ? 33'(cmd_i.es[d-1]) : 33'(signed'(cmd_i.coord[d]));"
  "        mult  = job_is_step ? 33'(1) : 33'(signed'(cmd_i.coord[d]));"
  "the element stride is left out of the row step"
  tma_agu_im2col.sv
  "      for (int k = 0; k < 3; k++) if (2'(k) < adv_dim) first_sweep_q[k] <= 1'b0;"
  "      for (int k = 0; k < 2; k++) if (2'(k) < adv_dim) first_sweep_q[k] <= 1'b0;"
  "the depth dimension never leaves its first sweep"
  tma_agu_im2col_window.sv
  "    c = (step_q <= 4'd1 || image_step) ? 36'sd0 : 36'(off_i);"
  "    c = 36'sd0;"
  "the im2col offsets are left out of the in-bound windows"
  tma_agu_im2col_setup.sv
  "          if (!to_step && next_group != group) z_q[2'(group)] <= sum;"
  "          if (!to_step && next_group != group && group != 3'd2) z_q[2'(group)] <= sum;"
  "the wrap row of the second spatial dimension is never saved"
)
listed=" $(sed -n 's/^[a-z_0-9]*: *//p' "$top/rtl/sources.txt" | tr '\n' ' ') "
for ((i = 0; i < ${#mutants[@]}; i += 4)); do  # every mutant line must be found before anything is built
  file=${mutants[i]}
  [[ "$listed" == *" ${file%.sv} "* ]] || { echo "rtl/$file is not a source rtl/sources.txt lists"; exit 2; }
  good=${mutants[i + 1]}
  [ "$(grep -cF -- "$good" "$top/rtl/$file")" = 1 ] || { echo "mutant line not found once in rtl/$file: $good"; exit 2; }
done
rm -rf "$rtl"
cp -r "$top/rtl" "$rtl"  # Verilator reads the sources when CMake configures
cmake -S "$top" -B "$build" -DTMASIM_RTL_DIR="$rtl" -DTMASIM_VERILATOR_WARNINGS="-Wall;-Wno-fatal" -DCMAKE_BUILD_TYPE=Release > "$build/cmake.log" 2>&1 ||
  { tail -20 "$build/cmake.log"; exit 1; }
caught=0 missed=0
for ((i = 0; i < ${#mutants[@]}; i += 4)); do
  file=${mutants[i]}
  good=${mutants[i + 1]}
  bad=${mutants[i + 2]}
  what=${mutants[i + 3]}
  rm -rf "$rtl"
  cp -r "$top/rtl" "$rtl"
  python3 - "$rtl/$file" "$good" "$bad" <<'PY'
import sys
path, good, bad = sys.argv[1:4]
text = open(path).read()
if text.count(good) != 1:
    sys.exit(f"mutant line not found exactly once in {path}: {good!r}")
open(path, "w").write(text.replace(good, bad))
PY
  if ! make -C "$build" -j"$(nproc)" agu_tb > "$build/make.log" 2>&1; then
    echo "BUILD FAILED $file: $what (see $build/make.log)"
    missed=$((missed + 1))
    continue
  fi
  random=$("$build/agu_tb" --wide --boxes 3000 --seed 5 2>&1 | tail -1 || true)
  golden=$("$build/agu_tb" --golden "$top/tests/golden/functional.jsonl.gz" 2>&1 | tail -1 || true)
  if [[ "$random" == *" 0 failed" && "$golden" == *" 0 failed" ]]; then
    echo "MISSED  $file: $what (random: $random; golden: $golden)"
    missed=$((missed + 1))
  else
    echo "caught  $file: $what (random: $random; golden: $golden)"
    caught=$((caught + 1))
  fi
done
echo "$caught caught, $missed missed"
[ "$missed" -eq 0 ]
