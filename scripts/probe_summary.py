#!/usr/bin/env python3
"""Prints a probe's programs, the H100 against the model, per L2 state: the kernel's cycles and the
median CTA's, and for programs that differ only in a trailing `_k<N>` or `_n<N>` (the same loop at two trip
counts) the slope between the two, a step's cost. The tables of tests/golden/cluster_load_probe,
cold_step_probe, cta_step_probe, start_probe and cluster_confirm_probe come from these numbers.

    scripts/probe_summary.py DIR [--config FILE] [--tmasim BIN] [--states cold,cold_clean,warm]

DIR holds the probe's *.json and its results.jsonl.gz (scripts/gpu_scenarios.sh); the model runs
each program with `tmasim run --timing-only --l2 STATE --stats -`."""
import argparse
import concurrent.futures
import gzip
import json
import os
import re
import statistics
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def h100_cycles(results):
    """{(program, state): (kernel, median CTA)} from a results.jsonl.gz."""
    out = {}
    with gzip.open(results, "rt") as f:
        for line in f:
            r = json.loads(line)
            name = os.path.basename(r["file"])[:-len(".json")]
            for state in ("cold", "cold_clean", "warm"):
                if r.get(state):
                    out[(name, state)] = (r[state]["span_cycles"]["median"], statistics.median(r[state]["cta_cycles"]))
    return out


def model_cycles(tmasim, config, path, state):
    cmd = [tmasim, "run", path, "--timing-only", "--l2", state, "--stats", "-"]
    if config:
        cmd += ["--config", config]
    run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    d = json.loads(run.stdout)
    ctas = [e - s for s, e in zip(d["cta_start_cycles"], d["cta_end_cycles"])]
    return d["cycles"], statistics.median(ctas)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--config", default="")
    ap.add_argument("--tmasim", default=os.path.join(top, "build", "tmasim"))
    ap.add_argument("--states", default="cold,cold_clean,warm")
    a = ap.parse_args()
    states = a.states.split(",")
    names = sorted(f[:-len(".json")] for f in os.listdir(a.dir) if f.endswith(".json") and not f.startswith("results"))
    gpu = h100_cycles(os.path.join(a.dir, "results.jsonl.gz"))
    jobs = {(n, s): (a.tmasim, a.config, os.path.join(a.dir, n + ".json"), s) for n in names for s in states}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = {k: pool.submit(model_cycles, *v) for k, v in jobs.items()}
        model = {k: f.result() for k, f in futures.items()}
    print(f"{'program':40s} {'state':10s} {'H100 kernel':>11s} {'model':>9s} {'error':>7s} {'H100 CTA':>9s} {'model':>9s}")
    for n in names:
        for s in states:
            g, m = gpu.get((n, s)), model[(n, s)]
            if g:
                print(f"{n:40s} {s:10s} {g[0]:11.0f} {m[0]:9.0f} {100 * (m[0] / g[0] - 1):+6.1f}% {g[1]:9.0f} {m[1]:9.0f}")
    pairs = {}
    for n in names:
        hit = re.fullmatch(r"(.*)_([kn])(\d+)", n)
        if hit:
            pairs.setdefault((hit.group(1), hit.group(2)), []).append(int(hit.group(3)))
    pairs = {b: sorted(ks) for b, ks in pairs.items() if len(ks) == 2}
    if pairs:
        print(f"\n{'loop: cycles a step':40s} {'state':10s} {'kernel: H100':>12s} {'model':>8s} {'CTA: H100':>10s} {'model':>8s}")
        for (b, letter), (k1, k2) in sorted(pairs.items()):
            for s in states:
                lo, hi = f"{b}_{letter}{k1}", f"{b}_{letter}{k2}"
                if (lo, s) in gpu and (hi, s) in gpu:
                    slope = [(d[(hi, s)][i] - d[(lo, s)][i]) / (k2 - k1) for i in (0, 1) for d in (gpu, model)]
                    print(f"{b:40s} {s:10s} {slope[0]:12.0f} {slope[1]:8.0f} {slope[2]:10.0f} {slope[3]:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
