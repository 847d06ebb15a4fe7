#!/usr/bin/env bash
# Proves two builds give every figure of the timing model identically (scripts/model_figures.sh):
#   scripts/check_identical.sh BASE_BUILD NEW_BUILD [BASE_SOURCE [NEW_SOURCE]]
# Exit 0 and "identical" when they do; else the differences and exit 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$1 new=$2
base_src=${3:-$here/..} new_src=${4:-$here/..}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/model_figures.sh" "$base" "$tmp/base" "$base_src" >/dev/null
"$here/model_figures.sh" "$new" "$tmp/new" "$new_src" >/dev/null
if diff -r "$tmp/base" "$tmp/new" >"$tmp/diff"; then
  echo "check_identical.sh: identical ($(ls "$tmp/new" | wc -l) files of figures)"
else
  head -n 60 "$tmp/diff"
  echo "check_identical.sh: the builds differ" >&2
  exit 1
fi
