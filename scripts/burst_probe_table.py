#!/usr/bin/env python3
"""The burst probes' table (issue 29): what a dirty L2 (`cold`) costs a burst of misses over a clean one
(`cold_clean`), P = the difference of the kernel cycles' medians, on the H100, by CTAs and loads a CTA;
and the burst probe's declared fit of candidate Q, P = max(0, (f B - Q) / W) over its single bursts
(f = 0.446, B the burst's bytes; grid: Q in 16 KiB steps to 8 MiB, W in 10 B/cycle steps from 50 to
4000; tests/golden/burst_probe/README.md).

  scripts/burst_probe_table.py [--fit]
"""
import argparse
import gzip
import json
import os
import re
import statistics

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBES = ("burst_probe", "burst_low_probe")
TILE = 16384
DIRTY_FRACTION = 0.446  # memory.flush_dirty_fraction


def bursts():
    """(CTAs, loads a CTA, probe) -> P, cold, cold_clean for every single burst with results."""
    out = {}
    for probe in PROBES:
        path = os.path.join(TOP, "tests", "golden", probe, "results.jsonl.gz")
        if not os.path.exists(path):
            continue
        with gzip.open(path, "rt") as f:
            for line in f:
                r = json.loads(line)
                m = re.match(r"burst_c(\d+)_s(\d+)$", os.path.basename(r["file"])[:-5])
                if m:
                    cold, clean = r["cold"]["span_cycles"]["median"], r["cold_clean"]["span_cycles"]["median"]
                    out[(int(m.group(1)), int(m.group(2)), probe)] = (cold - clean, cold, clean)
    return out


def fit_q(points):
    """The declared grid fit of P = max(0, (f B - Q) / W): (Q, W, residuals)."""
    best = None
    for q in range(0, 8 * 1024 * 1024 + 1, 16384):
        for w in range(50, 4001, 10):
            res = [p - max(0.0, (DIRTY_FRACTION * b - q) / w) for b, p in points]
            sse = sum(e * e for e in res)
            if best is None or sse < best[0]:
                best = (sse, q, w, res)
    return best[1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", action="store_true", help="also the burst probe's declared fit (seconds)")
    a = ap.parse_args()
    rows = bursts()
    print(f"{'CTAs':>4} {'loads':>5} {'KiB':>6} {'cold':>7} {'clean':>7} {'P':>6}  probe")
    for (c, s, probe), (p, cold, clean) in sorted(rows.items(), key=lambda kv: (kv[0][0] * kv[0][1], kv[0][0])):
        print(f"{c:4d} {s:5d} {c * s * 16:6d} {cold:7.0f} {clean:7.0f} {p:6.0f}  {probe}")
    if a.fit:
        points = [(c * s * TILE, p) for (c, s, probe), (p, _, _) in rows.items() if probe == "burst_probe"]
        q, w, res = fit_q(points)
        print(f"candidate Q's fit over {len(points)} bursts: Q = {q} bytes, W = {w} B/cycle, "
              f"median |residual| {statistics.median(abs(e) for e in res):.0f} cycles")


if __name__ == "__main__":
    main()
