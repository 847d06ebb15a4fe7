#!/usr/bin/env bash
# Code coverage of the address generators' RTL: runs the coverage build of the bench
# (agu_tb_cov: Verilator --coverage on all four DUTs) on random boxes across the legal range
# with resets, then on the H100 golden loads, merges the points and reports line, branch and
# toggle coverage per file (scripts/rtl_coverage.py).
# Usage: scripts/rtl_coverage.sh AGU_TB_COV GOLDEN.jsonl.gz [--min-line PCT] [--annotate DIR]
set -euo pipefail
tb=$1
golden=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
AGU_COVERAGE_FILE=$tmp/random.dat "$tb" --wide --boxes 6000 --seed 11 --reset-every 100 > "$tmp/random.log" ||
  { tail -5 "$tmp/random.log"; exit 1; }
AGU_COVERAGE_FILE=$tmp/golden.dat "$tb" --wide --golden "$golden" > "$tmp/golden.log" ||
  { tail -5 "$tmp/golden.log"; exit 1; }
verilator_coverage --write "$tmp/all.dat" "$tmp/random.dat" "$tmp/golden.dat" > /dev/null
python3 "$here/rtl_coverage.py" "$tmp/all.dat" "$@"
