#!/usr/bin/env bash
# Set up, then run tmasim's main job on the built-in scenario (extra arguments go to `tmasim run`).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" "$top/build"
exec "$top/build/tmasim" run "$@"
