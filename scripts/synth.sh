#!/usr/bin/env bash
# Synthesize the RTL blocks with yosys to generic gates in two ABC flows and print, per block
# and width, the cells, the flip-flops among them and the logic depth (longest path between
# flops, in cells), assertions left out (-noassert: they are simulation-only checks):
#   area flow:  abc -g <gates>             (yosys' default script: dch, &nf area recovery)
#   delay flow: abc -g <gates> -fast -D 1  (strash; dretime; map -D 1: minimum-delay mapping)
# Usage: scripts/synth.sh [block ...]   (blocks: swizzle agu agu8 im2col; default all)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v yosys > /dev/null || { echo "synth.sh: yosys not found (scripts/setup.sh installs it)" >&2; exit 2; }
rtl=$top/rtl
# Every listed source once, in the order rtl/sources.txt first names it.
mapfile -t files < <(sed -n 's/^[a-z_0-9]*: *//p' "$rtl/sources.txt" | tr ' ' '\n' | awk 'NF && !seen[$0]++')
srcs=$(printf "$rtl/%s.sv " "${files[@]}")
gates="AND,NAND,OR,NOR,XOR,XNOR,MUX"

# synth MODULE PARAM FLOW_ARGS TAG -> writes $tmp/TAG.stat and $tmp/TAG.ltp
synth() {
  local chparam=""
  [ "$2" != "-" ] && chparam="chparam -set ${2%%=*} ${2##*=} $1;"
  yosys -q -p "read_verilog -sv -noassert $srcs; $chparam synth -flatten -top $1; abc -g $gates $3; opt_clean;
    tee -q -o $tmp/$4.stat stat; tee -q -o $tmp/$4.ltp ltp -noff" > "$tmp/$4.log" 2>&1 || touch "$tmp/$4.failed"
}
cells() { awk '/Number of cells:/ {print $4; exit}' "$tmp/$1.stat"; }
flops() { awk '/\$_(S)?DFF/ {n += $2} END {print n + 0}' "$tmp/$1.stat"; }
depth() { d=$(grep -o 'length=[0-9]*' "$tmp/$1.ltp" | tail -1 | cut -d= -f2); echo "${d:-0}"; }

declare -A configs=(
  [swizzle]="tma_swizzle:FixedMode=3 tma_swizzle:FixedMode=2 tma_swizzle:FixedMode=1 tma_swizzle:FixedMode=0"
  [agu]="tma_agu:-" [agu8]="tma_agu:Chunks=8" [im2col]="tma_agu_im2col:-")
blocks=("$@")
[ ${#blocks[@]} -eq 0 ] && blocks=(swizzle agu agu8 im2col)
printf "%-28s | %-20s | %-14s\n" "" "area flow" "delay flow"
printf "%-28s | %7s %6s %5s | %7s %6s\n" "block (parameters)" "cells" "flops" "depth" "cells" "depth"
for b in "${blocks[@]}"; do
  [ -n "${configs[$b]:-}" ] || { echo "synth.sh: unknown block '$b' (swizzle agu agu8 im2col)" >&2; exit 2; }
  for cfg in ${configs[$b]}; do
    module=${cfg%%:*}
    param=${cfg#*:}
    synth "$module" "$param" "" area &
    synth "$module" "$param" "-fast -D 1" delay &
    wait
    for flow in area delay; do
      if [ -e "$tmp/$flow.failed" ]; then
        echo "synth.sh: yosys failed on $module ($param), $flow flow:" >&2
        grep -m3 ERROR "$tmp/$flow.log" >&2
        exit 1
      fi
    done
    printf "%-28s | %7s %6s %5s | %7s %6s\n" "$module ($param)" "$(cells area)" "$(flops area)" "$(depth area)" \
      "$(cells delay)" "$(depth delay)"
  done
done
