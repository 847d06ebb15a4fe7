#!/usr/bin/env python3
"""Simulation speed of the timing model on the workloads users run (issue 31): TMA operations per CPU second.

Each row is one workload run with `tmasim run`, timing only (--timing-only) and with bytes moved:
  gemm_feed_1/8/31   the loads of an 8192^3 fp16 GEMM (132 persistent CTAs, 128x128 tiles, 1, 8 or 31 tiles a
                     CTA, 128 k-steps of two 16 KiB boxes; L2 shared by the CTAs of a tile row or column).
                     The 31-tile row is tests/golden/gemm_feed_8192/gemm_feed_8192.json itself (1.05 M loads).
  stream_1gib        132 CTAs each reading its own 16 KiB boxes once from a 1 GiB tensor (every row misses).
  cluster_gemm       examples/gemm_hopper.json: a persistent wgmma GEMM in 2x1 clusters, A multicast, TMA-store
                     epilogue.
  im2col_conv        a 3x3 convolution's im2col activation feed (NHWC 32x56x56x256), ldmatrix consumers.
  attention          examples/attention_hopper.json: flash attention, Q once, K/V streamed (2048 CTAs).
  waves_1056         the GEMM feed as 1056 one-tile CTAs (8 waves).
  mainloop_toy       the earlier benchmark (bench/scenarios/mainloop_feed.json: coordinates wrap inside 2 MiB).
Columns: operations, CPU seconds of `tmasim run` and its simulating child (user + system), operations and
simulated cycles per CPU second, peak resident memory, and (unless --no-double) the CPU time of the same
workload with twice the work over this one's (linear: 2.00).

  scripts/bench_speed.py [--tmasim build/tmasim] [--rows gemm_feed_1,stream_1gib] [--mode timing|bytes|both]
                         [--no-double] [--csv OUT.csv]

One run at a time on one core; each run's CPU time includes its set-up (parsing, expanding the program,
elaborating the SystemC modules).
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench(name):
    return os.path.join(ROOT, "bench", "scenarios", name)


FEED = bench("gemm_feed.json")
# name: (scenario, --set values, the same with twice the work or None)
ROWS = {
    "gemm_feed_1": (FEED, {"TILES": 1}, {"TILES": 2}),
    "gemm_feed_8": (FEED, {"TILES": 8}, {"TILES": 16}),
    "gemm_feed_31": (os.path.join(ROOT, "tests", "golden", "gemm_feed_8192", "gemm_feed_8192.json"), {}, None),
    "stream_1gib": (bench("stream_feed.json"), {"LOADS": 240}, {"LOADS": 480}),
    "cluster_gemm": (os.path.join(ROOT, "examples", "gemm_hopper.json"), {"K": 4096}, {"K": 8192}),
    "im2col_conv": (bench("im2col_feed.json"), {"N": 32}, {"N": 64}),
    "attention": (os.path.join(ROOT, "examples", "attention_hopper.json"), {"B": 2}, {"B": 4}),
    # Twice the work: each CTA's tile twice as deep (more CTAs would read other tiles, missing more).
    "waves_1056": (FEED, {"CTAS": 1056, "TILES": 1}, {"CTAS": 1056, "TILES": 1, "K": 16384}),
    "mainloop_toy": (bench("mainloop_feed.json"), {"CTAS": 132, "KT": 300}, {"CTAS": 132, "KT": 600}),
}


def measured(tmasim, scenario, sets, timing_only):
    """CPU seconds and peak resident memory of one run: the command and its simulating child, as the
    kernel reports them for the command's process tree when it is waited for (wait4)."""
    args = [tmasim, "run", scenario]
    for k, v in sets.items():
        args += ["--set", f"{k}={v}"]
    if timing_only:
        args.append("--timing-only")
    with tempfile.TemporaryFile("w+") as out:
        wall = time.monotonic()
        p = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - wall
        out.seek(0)
        text = out.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_speed: {' '.join(args)} failed ({os.waitstatus_to_exitcode(status)}):\n{text[-3000:]}")
    ops = int(re.search(r"(\d+) TMA operations", text).group(1))
    cycles = float(re.search(r"(\d+) cycles = ", text).group(1))
    return {"ops": ops, "cpu_s": usage.ru_utime + usage.ru_stime, "wall_s": wall, "cycles": cycles,
            "peak_mb": usage.ru_maxrss / 1024}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tmasim", default=os.path.join(ROOT, "build", "tmasim"))
    ap.add_argument("--rows", help="comma-separated row names (default: all): " + ", ".join(ROWS))
    ap.add_argument("--mode", choices=("timing", "bytes", "both"), default="both")
    ap.add_argument("--no-double", action="store_true", help="skip the runs with twice the work")
    ap.add_argument("--csv", help="also write the table as CSV")
    a = ap.parse_args()
    names = a.rows.split(",") if a.rows else list(ROWS)
    for n in names:
        if n not in ROWS:
            sys.exit(f"bench_speed: no row {n!r} (rows: {', '.join(ROWS)})")
    modes = {"timing": (True,), "bytes": (False,), "both": (True, False)}[a.mode]
    rows = []
    print(f"{'workload':<14} {'mode':<12} {'ops':>8} {'CPU s':>7} {'ops/CPU s':>10} {'Mcyc/CPU s':>10} "
          f"{'peak MB':>8} {'2x work':>8}")
    for timing_only in modes:
        for n in names:
            scenario, sets, doubled = ROWS[n]
            r = measured(a.tmasim, scenario, sets, timing_only)
            ratio = ""
            if doubled and not a.no_double:
                r2 = measured(a.tmasim, scenario, doubled, timing_only)
                ratio = f"{r2['cpu_s'] / r['cpu_s']:.2f}" if r["cpu_s"] > 0 else ""
            row = {"workload": n, "mode": "timing-only" if timing_only else "bytes", **r,
                   "ops_per_cpu_s": r["ops"] / r["cpu_s"] if r["cpu_s"] > 0 else float("inf"),
                   "cycles_per_cpu_s": r["cycles"] / r["cpu_s"] if r["cpu_s"] > 0 else float("inf"),
                   "double_work_cpu_ratio": ratio}
            rows.append(row)
            print(f"{n:<14} {row['mode']:<12} {r['ops']:>8} {r['cpu_s']:>7.2f} {row['ops_per_cpu_s']:>10.0f} "
                  f"{row['cycles_per_cpu_s'] / 1e6:>10.2f} {r['peak_mb']:>8.0f} {ratio:>8}", flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
