#!/usr/bin/env python3
"""Slopes of tests/golden/im2col_probe (scripts/gen_im2col_probe.py): the cycles one more load costs
(72 loads against 36, the harness's median spans), tiled against im2col, on the GPU and in the model.

  scripts/im2col_summary.py [RESULTS.jsonl.gz] [--config configs/h100.json] [--tmasim build/tmasim]
"""
import argparse
import gzip
import json
import os
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.path.join(TOP, "tests", "golden", "im2col_probe")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", default=os.path.join(PROBE, "results.jsonl.gz"))
    ap.add_argument("--config", default=os.path.join(TOP, "configs", "h100.json"))
    ap.add_argument("--tmasim", default=os.path.join(TOP, "build", "tmasim"))
    a = ap.parse_args()
    with gzip.open(a.results, "rt") as f:
        gpu = {json.loads(l)["file"][:-5]: json.loads(l) for l in f if l.strip()}

    def model(name, state):
        out = subprocess.run([a.tmasim, "run", os.path.join(PROBE, name + ".json"), "--timing-only", "--l2", state,
                              "--config", a.config], capture_output=True, text=True).stdout
        m = re.search(r"(\d+) cycles =", out)
        if not m:
            raise SystemExit(f"im2col_summary: tmasim run {name} printed no cycles:\n{out[-1000:]}")
        return float(m.group(1))

    device = next(iter(gpu.values()))["device"]
    for state in ("warm", "cold"):
        print(f"{state}: cycles a load, {device} | model ({os.path.relpath(a.config, TOP)})")
        for size in ("b8k", "b16k"):
            for pattern in ("serial", "early", "ring4"):
                cells = {}
                for mode in ("tiled", "im2col"):
                    short, long = f"{mode}_{size}_{pattern}_n36", f"{mode}_{size}_{pattern}_n72"
                    g = (gpu[long][state]["span_cycles"]["median"] - gpu[short][state]["span_cycles"]["median"]) / 36
                    cells[mode] = (g, (model(long, state) - model(short, state)) / 36)
                t, i = cells["tiled"], cells["im2col"]
                print(f"  {size:4} {pattern:6}  tiled {t[0]:6.1f} | {t[1]:6.1f}   im2col {i[0]:6.1f} | {i[1]:6.1f}"
                      f"   im2col - tiled {i[0] - t[0]:6.1f} | {i[1] - t[1]:6.1f}")


if __name__ == "__main__":
    main()
