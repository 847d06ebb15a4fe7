#!/usr/bin/env bash
# run_campaign.sh TMASIM [DIR]: every case of cases.tsv must end with a clear result: exit 0, 1 or 2,
# no uncaught exception, no signal, no sanitizer report, within 10 s and 2 GB of memory.
# Prints a line per bad case and closes with "N passed, M failed".
set -u
tmasim=${1:?usage: run_campaign.sh TMASIM [DIR]}
here=${2:-$(cd "$(dirname "$0")" && pwd)}
# A scratch DIR gets a fresh campaign from the generator.
if [ -n "${2:-}" ]; then mkdir -p "$here" && python3 "$(dirname "$0")/make_campaign.py" "$here" > /dev/null; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0; fail=0
while IFS=$'\t' read -r name args; do
  [ -n "$name" ] || continue
  args=${args//\{in\}/$here/inputs}
  args=${args//\{out\}/$out}
  start=$(date +%s%N)
  eval "timeout -s KILL 10 /usr/bin/time -f '%M' -o '$out/rss' '$tmasim' $args" > "$out/log" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  rss=$(tail -1 "$out/rss" 2>/dev/null | tr -dc 0-9); rss=${rss:-0}
  why=""
  if [ $rc -eq 137 ] || [ $ms -ge 10000 ]; then why="took more than 10 s"
  elif [ $rc -gt 2 ]; then why="exit status $rc"
  elif grep -qE "terminate called|AddressSanitizer|LeakSanitizer|runtime error:|Segmentation fault|Aborted|core dumped" "$out/log"; then why="crash or sanitizer report"
  elif [ "$rss" -gt 2097152 ]; then why="used ${rss} KiB of memory"
  elif [ $rc -ne 0 ] && ! grep -qE "error|FAIL|passed|failed|expected|must|rejected|traps|does not fit|Run with --help" "$out/log"; then why="failed without a message"
  fi
  if [ -n "$why" ]; then
    fail=$((fail + 1))
    echo "FAIL $name ($why): $(grep -v '^$' "$out/log" | tail -2 | tr '\n' ' ' | cut -c1-300)"
  else
    pass=$((pass + 1))
  fi
done < "$here/cases.tsv"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
