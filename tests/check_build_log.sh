#!/usr/bin/env bash
# check_build_log.sh BUILD_DIR: the build that scripts/setup.sh logged printed no compiler warning
# (a first run shows the user progress lines and results, nothing else). Skipped (77) when the
# build was not made by setup.sh.
log=$1/build.log
[ -f "$log" ] || { echo "skipped: no $log (this build was not made by scripts/setup.sh)"; exit 77; }
n=$(grep -c "warning:" "$log")
grep -m 10 "warning:" "$log"
echo "$n compiler warnings in $log"
[ "$n" -eq 0 ]
