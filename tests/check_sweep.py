#!/usr/bin/env python3
"""`tmasim sweep` against `tmasim run`: every point of a small sweep (a scenario parameter x a
configuration key) must report exactly what a single run with the same --set reports, and
the plot, where python3-matplotlib is installed, must be a PNG and an SVG.

usage: check_sweep.py TMASIM WORKDIR"""
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

tmasim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
prefix = os.path.join(work, "sweep")
p = subprocess.run([tmasim, "sweep", "--set", "STAGES=2,4", "--set", "issue.cycles=86,172", "-o", prefix],
                   capture_output=True, text=True)
print(p.stdout, p.stderr)
check = Checks(quiet_passes=True)


check(p.returncode == 0 and "4 points ran, 0 failed" in p.stdout, "the sweep ran")
with open(prefix + ".csv") as f:
    rows = list(csv.DictReader(f))
check(len(rows) == 4, f"{len(rows)} rows")
for r in rows:
    stats = os.path.join(work, "run.json")
    subprocess.run([tmasim, "run", "--set", "STAGES=" + r["STAGES"], "--set", "issue.cycles=" + r["issue.cycles"],
                    "--stats", stats], check=True, capture_output=True)
    with open(stats) as f:
        want = json.load(f)
    for key in ("cycles", "tma_bytes", "tma_operations", "smem_conflict_wavefronts"):
        check(float(r[key]) == float(want[key]), f"{r['STAGES']}/{r['issue.cycles']} {key}: sweep {r[key]}, run {want[key]}")
if "plot:" in p.stdout:
    check(open(prefix + ".png", "rb").read(8) == b"\x89PNG\r\n\x1a\n", "the plot is a PNG")
    check(b"<svg" in open(prefix + ".svg", "rb").read(2000), "the plot is an SVG")
else:
    print("no plot checked: python3-matplotlib is not installed")
check.finish()
