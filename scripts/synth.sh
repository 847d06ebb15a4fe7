#!/usr/bin/env bash
# Synthesize the RTL blocks with yosys (generic gates) and print cells and logic depth per
# configuration. Usage: scripts/synth.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
printf "%-30s %6s %6s  %s\n" "block (parameters)" "cells" "depth" "cell types"
for cfg in "FixedMode=3" "FixedMode=2" "FixedMode=1" "FixedMode=0"; do
  yosys -q -p "read_verilog -sv $top/rtl/tma_pkg.sv $top/rtl/tma_swizzle.sv;
    chparam -set ${cfg%%=*} ${cfg##*=} tma_swizzle; synth -flatten -top tma_swizzle;
    abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX; opt_clean; tee -q -o $tmp/stat.txt stat; tee -q -o $tmp/ltp.txt ltp -noff" >/dev/null
  cells=$(awk '/Number of cells:/ {print $4; exit}' "$tmp/stat.txt")
  depth=$(grep -o 'length=[0-9]*' "$tmp/ltp.txt" | tail -1 | cut -d= -f2)
  types=$(awk '/\$_/ {printf "%s:%s ", $1, $2}' "$tmp/stat.txt")
  printf "%-30s %6s %6s  %s\n" "tma_swizzle ($cfg)" "$cells" "${depth:-0}" "$types"
done
rm -rf "$tmp"
