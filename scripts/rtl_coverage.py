#!/usr/bin/env python3
"""Summarise a Verilator coverage.dat: line, branch and toggle points per RTL file, covered or
not, and the uncovered lines. Exit 1 when line coverage is below --min-line.

Verilator 5.006's verilator_coverage has no per-type filter, so the points are read here: each
'C' record holds \\x01key\\x02value fields; 'page' names the type (v_line/..., v_branch/...,
v_toggle/...), 'f' the file, 'l' the line."""
import argparse
import collections
import os
import re
import subprocess
import sys


def points(path):
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = re.match(r"C '(.*)' (\d+)$", line.rstrip("\n"))
            if not m:
                continue
            fields = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01") if "\x02" in kv)
            yield fields, int(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("coverage_dat")
    ap.add_argument("--min-line", type=float, default=0.0, help="fail below this line coverage (percent)")
    ap.add_argument("--annotate", metavar="DIR", help="also write verilator_coverage's annotated sources here")
    args = ap.parse_args()
    kinds = ("line", "branch", "toggle")
    # Points of the same (file, line, type, column, comment) from different instances count once:
    # a point is covered when any instance hit it.
    hit = {}
    for f, count in points(args.coverage_dat):
        page = f.get("page", "")
        kind = page.split("/")[0].replace("v_", "")
        if kind not in kinds:
            continue
        key = (os.path.basename(f.get("f", "?")), kind, f.get("l", "0"), f.get("n", ""), f.get("o", ""))
        hit[key] = hit.get(key, 0) + count
    per_file = collections.defaultdict(lambda: {k: [0, 0] for k in kinds})
    uncovered = collections.defaultdict(set)
    for (fname, kind, line, _, comment), count in hit.items():
        per_file[fname][kind][1] += 1
        if count:
            per_file[fname][kind][0] += 1
        elif kind != "toggle":
            uncovered[fname].add(int(line))
    total = {k: [0, 0] for k in kinds}
    print(f"{'file':28} {'line':>14} {'branch':>14} {'toggle':>16}")
    for fname in sorted(per_file):
        cells = []
        for k in kinds:
            c, n = per_file[fname][k]
            total[k][0] += c
            total[k][1] += n
            cells.append(f"{c}/{n} {100.0 * c / n:5.1f}%" if n else "-")
        print(f"{fname:28} {cells[0]:>14} {cells[1]:>14} {cells[2]:>16}")
    cells = [f"{c}/{n} {100.0 * c / n:5.1f}%" if n else "-" for c, n in (total[k] for k in kinds)]
    print(f"{'all of rtl/':28} {cells[0]:>14} {cells[1]:>14} {cells[2]:>16}")
    for fname in sorted(uncovered):
        print(f"uncovered lines/branches in {fname}: {', '.join(map(str, sorted(uncovered[fname])))}")
    if args.annotate:
        subprocess.run(["verilator_coverage", "--annotate", args.annotate, args.coverage_dat], check=True,
                       stdout=subprocess.DEVNULL)
    c, n = total["line"]
    pct = 100.0 * c / n if n else 0.0
    if pct < args.min_line:
        print(f"FAIL: line coverage {pct:.1f}% is below {args.min_line}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
