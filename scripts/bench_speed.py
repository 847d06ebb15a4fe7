#!/usr/bin/env python3
"""Simulation speed of the timing model (issue 10): TMA operations per CPU second.

Runs the GEMM mainloop feed (bench/scenarios/mainloop_feed.json: per CTA, KT k-tiles of two
16 KiB TMA loads, ldmatrix.x4 consumers) with `tmasim run`, with and without moving bytes
(--timing-only), over several CTA counts and sizes (528 and 1056 CTAs: 4 and 8 waves, a CTA's
128 KiB of shared memory leaving one slot an SM), and prints a table: operations, CPU
seconds of the simulating process (user + system), operations per CPU second, simulated
cycles per CPU second. One row per run; runs are sequential on one core.

  scripts/bench_speed.py [--tmasim build/tmasim] [--ops 80000] [--csv OUT.csv]

Each run's CPU time includes its set-up (parsing, building the CTAs' programs, elaborating the
SystemC modules: about 20 ms for 132 CTAs), so short runs show less than the per-operation rate;
80k operations take under a second of CPU and the OS's CPU clock ticks stay below 2% of it.
"""
import argparse
import csv
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "bench", "scenarios", "mainloop_feed.json")


def run(tmasim, ctas, kt, timing_only):
    args = [tmasim, "run", SCENARIO, "--set", f"CTAS={ctas}", "--set", f"KT={kt}"]
    if timing_only:
        args.append("--timing-only")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True)
    wall = time.monotonic() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"bench_speed: {' '.join(args)} failed ({p.returncode}):\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ops = int(re.search(r"(\d+) TMA operations", p.stdout).group(1))
    cycles = float(re.search(r"(\d+) cycles = ", p.stdout).group(1))
    return {"mode": "timing-only" if timing_only else "bytes", "ctas": ctas, "kt": kt, "ops": ops,
            "cpu_s": cpu, "wall_s": wall, "ops_per_cpu_s": ops / cpu if cpu > 0 else float("inf"),
            "cycles": cycles, "cycles_per_cpu_s": cycles / cpu if cpu > 0 else float("inf")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tmasim", default=os.path.join(ROOT, "build", "tmasim"))
    ap.add_argument("--ops", type=int, default=80000, help="TMA operations per run (about)")
    ap.add_argument("--csv", help="also write the table as CSV")
    a = ap.parse_args()
    rows = []
    print(f"{'mode':<12} {'CTAs':>5} {'KT':>6} {'ops':>8} {'CPU s':>8} {'ops/CPU s':>11} {'us/op':>8} {'Mcyc/CPU s':>11}")
    for timing_only in (True, False):
        for ctas in (1, 8, 32, 132, 528, 1056):
            for scale in ((1, 2) if ctas == 132 else (1,)):  # twice the work: is the cost linear?
                kt = max(8, scale * a.ops // (2 * ctas))
                r = run(a.tmasim, ctas, kt, timing_only)
                rows.append(r)
                print(f"{r['mode']:<12} {ctas:>5} {kt:>6} {r['ops']:>8} {r['cpu_s']:>8.2f} {r['ops_per_cpu_s']:>11.0f} "
                      f"{1e6 / r['ops_per_cpu_s']:>8.1f} {r['cycles_per_cpu_s'] / 1e6:>11.2f}", flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
