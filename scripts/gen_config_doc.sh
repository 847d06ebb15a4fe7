#!/usr/bin/env bash
# Regenerates the key table of docs/config.md from the keys' declarations (`tmasim config --doc`).
#   scripts/gen_config_doc.sh [TMASIM]      (default: build/tmasim)
#   scripts/gen_config_doc.sh --check [TMASIM]   exit 1 when the table is not what the declarations say
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
tmasim=${1:-$top/build/tmasim}
doc=$top/docs/config.md
new=$(mktemp)
trap 'rm -f "$new"' EXIT
table=$("$tmasim" config --doc)
python3 - "$doc" "$new" "$table" <<'PY'
import sys
doc, out, table = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(doc).read()
begin, end = "<!-- BEGIN tmasim config --doc -->\n", "<!-- END tmasim config --doc -->"
a, b = text.index(begin) + len(begin), text.index(end)
open(out, "w").write(text[:a] + table.rstrip("\n") + "\n" + text[b:])
PY
if [ $check = 1 ]; then
  diff -u "$doc" "$new" || { echo "docs/config.md's table is not the declarations': run scripts/gen_config_doc.sh" >&2; exit 1; }
  echo "docs/config.md: the table is the declarations'"
else
  cp "$new" "$doc"
fi
