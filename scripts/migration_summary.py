#!/usr/bin/env python3
"""Medians of tests/golden/migration_probe (tb/gpu/migration_probe.cu): copy or move, and the bandwidth
of first reads across the L2's halves.

  scripts/migration_summary.py [tests/golden/migration_probe/migration_probe.jsonl.gz] [--mhz 1980]
"""
import argparse
import gzip
import json
import os
import statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHASES = ("partner", "partner_again", "owner_back", "partner_back")
STREAMS = ("near_ns", "far_ns", "far_again_ns", "back_ns")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", default=os.path.join(ROOT, "tests/golden/migration_probe/migration_probe.jsonl.gz"))
    ap.add_argument("--mhz", type=float, default=1980, help="SM clock for bytes a cycle (default 1980)")
    a = ap.parse_args()
    opener = gzip.open if a.results.endswith(".gz") else open
    with opener(a.results, "rt") as f:
        lines = [json.loads(l) for l in f if l.strip()]
    for l in lines:
        if "error" in l:
            raise SystemExit(f"migration_summary: the probe failed: {l['error']}")
    halves = next(l for l in lines if "halves" in l)
    print(f"halves: {halves['half_sizes']} SMs, {halves['d2_mismatches']} mismatches at distance 2")
    print("\nchase, mean cycles a load (median over SMs and trials; min..max):")
    for pairing in ("across", "within"):
        recs = [l for l in lines if l.get("pairing") == pairing]
        for key in CHASES:
            v = [x for r in recs for x in r[key] if x > 0]
            print(f"  {pairing:7} {key:14} {statistics.median(v):6.1f}  {min(v)}..{max(v)}")
    print(f"\nstreams of 66 readers, median ns (GB/s, bytes a cycle at {a.mhz:.0f} MHz):")
    for mib in sorted({l["mib"] for l in lines if "mib" in l}):
        size = mib << 20
        for half in (0, 1):
            rs = [l for l in lines if l.get("mib") == mib and l.get("readers_half") == half]
            cells = []
            for key in STREAMS:
                ns = statistics.median(r[key] for r in rs)
                cells.append(f"{key[:-3]} {ns:.0f} ({size / ns:.0f}, {size / ns / a.mhz * 1e3:.0f})")
            print(f"  {mib} MiB, readers half {half}: " + "; ".join(cells))
        rs = [l for l in lines if l.get("mib") == mib and l.get("both")]
        cells = []
        for key in ("own_ns", "swap_ns"):
            ns = statistics.median(r[key] for r in rs)
            cells.append(f"{key[:-3]} {ns:.0f} ({2 * size / ns:.0f}, {2 * size / ns / a.mhz * 1e3:.0f})")
        print(f"  {mib} MiB x 2, both halves at once: " + "; ".join(cells))


if __name__ == "__main__":
    main()
