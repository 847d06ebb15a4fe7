#!/usr/bin/env bash
# Synthesize the RTL blocks with yosys (generic gates, abc's area-oriented mapping) and print,
# per configuration, the cells, the flip-flops among them and the logic depth (longest path
# between flops). Usage: scripts/synth.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
srcs="$top/rtl/tma_pkg.sv $top/rtl/tma_swizzle.sv $top/rtl/tma_agu.sv $top/rtl/tma_agu_im2col.sv"
printf "%-28s %7s %6s %6s  %s\n" "block (parameters)" "cells" "flops" "depth" "cell types"
for cfg in "tma_swizzle FixedMode=3" "tma_swizzle FixedMode=2" "tma_swizzle FixedMode=1" "tma_swizzle FixedMode=0" \
           "tma_agu -" "tma_agu Chunks=8" "tma_agu_im2col -"; do
  module=${cfg%% *}
  param=${cfg#* }
  chparam=""
  [ "$param" != "-" ] && chparam="chparam -set ${param%%=*} ${param##*=} $module;"
  yosys -q -p "read_verilog -sv $srcs; $chparam synth -flatten -top $module;
    abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX; opt_clean; tee -q -o $tmp/stat.txt stat; tee -q -o $tmp/ltp.txt ltp -noff" >/dev/null 2>&1
  cells=$(awk '/Number of cells:/ {print $4; exit}' "$tmp/stat.txt")
  flops=$(awk '/\$_(S)?DFF/ {n += $2} END {print n + 0}' "$tmp/stat.txt")
  depth=$(grep -o 'length=[0-9]*' "$tmp/ltp.txt" | tail -1 | cut -d= -f2)
  types=$(awk '/\$_/ && !/DFF/ {printf "%s:%s ", $1, $2}' "$tmp/stat.txt" | cut -c1-50)
  printf "%-28s %7s %6s %6s  %s\n" "$module ($param)" "$cells" "$flops" "${depth:-0}" "$types"
done
