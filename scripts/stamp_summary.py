#!/usr/bin/env python3
"""Prints, for each stamped program of a probe, the time between consecutive stamps by the step
they close, H100 against the model: per thread, the median over CTAs and over the loop's
iterations after the first SKIP (the steady state). tests/golden/step_probe's tables come from it.

    scripts/stamp_summary.py DIR [--state warm] [--skip 8] [--config FILE] [--tmasim BIN]

DIR holds the probe's *.json and its results.jsonl.gz (scripts/gpu_scenarios.sh); without the
results it prints the model alone. A stamp's label names the step it closes; the GPU's stamps are
matched to the model's by position (the same program, so the same order)."""
import argparse
import collections
import gzip
import json
import os
import statistics
import subprocess

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def intervals(labels, stamps, skip):
    """{label: [cycles from the stamp before]} over the iterations after the first `skip`."""
    seen = collections.Counter()
    out = collections.defaultdict(list)
    for i in range(1, min(len(labels), len(stamps))):
        seen[labels[i]] += 1
        if seen[labels[i]] > skip:
            out[labels[i]].append(stamps[i] - stamps[i - 1])
    return out


def pooled(labels_by_thread, stamps_by_cta, skip):
    """{(thread, label): median} pooling every CTA."""
    pool = collections.defaultdict(list)
    for cta in stamps_by_cta:
        for t, stamps in enumerate(cta):
            if t < len(labels_by_thread):
                for label, v in intervals(labels_by_thread[t], stamps, skip).items():
                    pool[(t, label)] += v
    return {k: statistics.median(v) for k, v in pool.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--state", default="warm")
    ap.add_argument("--skip", type=int, default=8)
    ap.add_argument("--config", default="")
    ap.add_argument("--tmasim", default=os.path.join(top, "build", "tmasim"))
    a = ap.parse_args()
    gpu = {}
    results = os.path.join(a.dir, "results.jsonl.gz")
    if os.path.exists(results):
        with gzip.open(results, "rt") as f:
            for line in f:
                r = json.loads(line)
                gpu[os.path.basename(r["file"])[:-len(".json")]] = r.get(a.state, {}).get("stamps")
    for name in sorted(f[:-len(".json")] for f in os.listdir(a.dir) if f.endswith(".json")):
        cmd = [a.tmasim, "run", os.path.join(a.dir, name + ".json"), "--timing-only", "--l2", a.state, "--stats", "-"]
        if a.config:
            cmd += ["--config", a.config]
        d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        labels = d["stamp_labels"][0]
        if not any(labels):
            continue
        model = pooled(labels, d["stamps"], a.skip)
        h100 = pooled(labels, gpu[name], a.skip) if gpu.get(name) else {}
        print(f"{name} ({a.state}, iterations after the first {a.skip}; H100 | model | difference)")
        for (t, label) in sorted(model, key=lambda k: (k[0], labels[k[0]].index(k[1]))):
            m = model[(t, label)]
            h = h100.get((t, label))
            name_t = d["thread_names"][0][t]
            if h is None:
                print(f"  {name_t:10s} {label:12s} {'-':>8s} | {m:8.1f}")
            else:
                print(f"  {name_t:10s} {label:12s} {h:8.1f} | {m:8.1f} | {h - m:+8.1f}")


if __name__ == "__main__":
    main()
