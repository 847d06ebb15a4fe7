#!/usr/bin/env bash
# Set up, then run tmasim's main job on the built-in scenario (extra arguments go to `tmasim run`).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# Only the command is built here (the RTL benches, the CUDA harness and the tests wait for scripts/test.sh).
TMASIM_TARGETS=tmasim "$top/scripts/setup.sh" "$top/build"
exec "$top/build/tmasim" run "$@"
