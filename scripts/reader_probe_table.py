#!/usr/bin/env python3
"""The loaded and write probes' tables (issue 29): a lone reader's miss interval L beside a background of
reading or storing CTAs, on the H100 and in the model, with the background's bytes a cycle U.

L is the reader's (the grid's first CTA's) median interval between stamps after its first load,
counting the intervals that end before the background CTAs' median span; E = L - L(alone); U = the
background's bytes over its CTAs' median span. For the loaded probe it also prints the declared
least-squares q of candidate C (E against rho / (1 - rho), rho = U / 1568, over the read backgrounds
under 90% of 1568 B/cycle; tests/golden/loaded_probe/README.md).

  scripts/reader_probe_table.py [loaded_probe|write_probe] [--l2 cold_clean] [--config C] [--no-model]
"""
import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILE = 16384
DRAM_READ = 1568  # the mix probe's DRAM read rate (tests/golden/mix_probe)


def background_bytes(name, probe):
    """The background's bytes: C CTAs of 64 loads or stores (loaded probe) or 131 x 64 stores in all."""
    m = re.match(r"rd_(?:bg|wr)(\d+)", name)
    if not m:
        return 0, 0
    c = int(m.group(1))
    per_cta = 64 if probe == "loaded_probe" else -(-131 * 64 // c)
    return c, c * per_cta * TILE


def reader_interval(stamps, cta_cycles, ctas):
    span = statistics.median(cta_cycles[1:]) if ctas else float("inf")
    iv = [stamps[i + 1] - stamps[i] for i in range(1, len(stamps) - 1) if stamps[i + 1] < span]
    return (statistics.median(iv) if iv else float("nan")), len(iv), span


def model_run(path, state, config):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        args = [os.path.join(TOP, "build", "tmasim"), "run", path, "--l2", state, "--stats", f.name]
        if config:
            args += ["--config", config]
        subprocess.run(args, check=True, capture_output=True)
        with open(f.name) as stats:
            m = json.load(stats)
    cycles = [e - s for s, e in zip(m["cta_start_cycles"], m["cta_end_cycles"])]
    return m["stamps"][0][0], cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("probe", nargs="?", default="loaded_probe", choices=("loaded_probe", "write_probe"))
    ap.add_argument("--l2", default="cold_clean", choices=("cold", "cold_clean", "warm"))
    ap.add_argument("--config", help="the model's configuration (default: configs/h100.json)")
    ap.add_argument("--no-model", action="store_true")
    a = ap.parse_args()
    folder = os.path.join(TOP, "tests", "golden", a.probe)
    results = {}
    with gzip.open(os.path.join(folder, "results.jsonl.gz"), "rt") as f:
        for line in f:
            r = json.loads(line)
            results[os.path.basename(r["file"])[:-5]] = r
    names = sorted(results, key=lambda n: (background_bytes(n, a.probe)[0], n))
    rows = {}
    for n in names:
        ctas, nbytes = background_bytes(n, a.probe)
        h = results[n][a.l2]
        lh, k, span = reader_interval(h["stamps"][0][0], h["cta_cycles"], ctas)
        lm = um = float("nan")
        if not a.no_model:
            stamps, cycles = model_run(os.path.join(folder, n + ".json"), a.l2, a.config)
            lm, _, mspan = reader_interval(stamps, cycles, ctas)
            um = nbytes / mspan if ctas else 0
        rows[n] = (lh, k, nbytes / span if ctas else 0, lm, um)
    alone = next(n for n in names if n.startswith("rd_alone"))
    print(f"{a.probe}, {a.l2}: L = the reader's median interval (cycles), U = the background's B/cycle")
    print(f"{'program':14} {'H100 L':>7} {'n':>3} {'H100 U':>7} {'H100 E':>7} {'model L':>8} {'model U':>8} {'model E':>8}")
    for n, (lh, k, u, lm, um) in rows.items():
        print(f"{n:14} {lh:7.0f} {k:3d} {u:7.0f} {lh - rows[alone][0]:7.0f} {lm:8.0f} {um:8.0f} {lm - rows[alone][3]:8.0f}")
    if a.probe == "loaded_probe":
        pts = [(u / DRAM_READ / (1 - u / DRAM_READ), lh - rows[alone][0])
               for n, (lh, _, u, _, _) in rows.items() if n.startswith("rd_bg") and u < 0.9 * DRAM_READ]
        q = sum(x * e for x, e in pts) / sum(x * x for x, _ in pts)
        print(f"candidate C's q (least squares of E on rho / (1 - rho), {len(pts)} programs): {q:.1f} cycles")


if __name__ == "__main__":
    main()
