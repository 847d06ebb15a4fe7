#!/usr/bin/env python3
"""Judges a candidate configuration against the GPU data, beside the configuration it changes: the
figures an adoption rule names (issue 29's practice: declare the rule, then run this once).

The candidate is the base configuration with --set keys over it (tmasim compare --set). For every
set and L2 state (cold, cold_clean, warm) it prints the kernel median |error|, the share within 25%
and the per-CTA median, base -> candidate, and every family or probe whose median moved:
  calibration, validation   the corpus's halves (tests/golden/scenarios, split.txt)
  holdout, holdout2         the held-out sets (H100)
  holdout3, holdout4_h200,  the H200 runs of the third to fifth held-out sets, with configs/h200.json
  holdout5_h200             under the same keys (its memory side is the H200's; skipped unless the
                            base is configs/h100.json, of which h200.json is the H200's variant)
  holdout3_h100, holdout5,  the H100 runs of the third, fifth, sixth to eleventh held-out sets
  holdout6-11
  probes (--probes)         every tests/golden/*_probe and gemm_feed_8192 with a results.jsonl.gz (or
                            some of them by name in --sets)
One CSV a set, state and side under --out, as tmasim compare writes them.

  scripts/judge_config.py --set memory.l2_copy_takes_room=true [--config configs/h100.json]
                          [--sets calibration,validation,holdout,...] [--probes] [--out DIR] [-j N]
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(TOP, "tests", "golden")
STATES = ("cold", "cold_clean", "warm")
SETS = ("calibration", "validation", "holdout", "holdout2", "holdout3", "holdout3_h100", "holdout4_h200", "holdout5",
        "holdout5_h200", "holdout6", "holdout7", "holdout8", "holdout9", "holdout10", "holdout11",
        "holdout12", "holdout13", "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19")


def probe_dirs():
    out = []
    for name in sorted(os.listdir(GOLDEN)):
        d = os.path.join(GOLDEN, name)
        if (name.endswith("_probe") or name == "gemm_feed_8192") and os.path.exists(os.path.join(d, "results.jsonl.gz")):
            if any(f.endswith(".json") for _, _, files in os.walk(d) for f in files):  # scenarios, maybe in subfolders
                out.append(name)
    return out


# The held-out sets beyond the first two: (directory, results file, on an H200).
HELD_OUT = {
    "holdout3": ("holdout3", "results_h200.jsonl.gz", True),
    "holdout3_h100": ("holdout3", "results.jsonl.gz", False),
    "holdout4_h200": ("holdout4", "results_h200.jsonl.gz", True),
    "holdout5": ("holdout5", "results.jsonl.gz", False),
    "holdout5_h200": ("holdout5", "results_h200.jsonl.gz", True),
    "holdout6": ("holdout6", "results.jsonl.gz", False),
    "holdout7": ("holdout7", "results.jsonl.gz", False),
    "holdout8": ("holdout8", "results.jsonl.gz", False),
    "holdout9": ("holdout9", "results.jsonl.gz", False),
    "holdout10": ("holdout10", "results.jsonl.gz", False),
    "holdout11": ("holdout11", "results.jsonl.gz", False),
    "holdout12": ("holdout12", "results.jsonl.gz", False),
    "holdout13": ("holdout13", "results.jsonl.gz", False),
    "holdout14": ("holdout14", "results.jsonl.gz", False),
    "holdout15": ("holdout15", "results.jsonl.gz", False),
    "holdout16": ("holdout16", "results.jsonl.gz", False),
    "holdout17": ("holdout17", "results.jsonl.gz", False),
    "holdout18": ("holdout18", "results.jsonl.gz", False),
    "holdout19": ("holdout19", "results.jsonl.gz", False),
}
# Sets whose results are committed unread, for a candidate declared in their README: judged only when
# named in --sets, never by default.
UNREAD = ("holdout19",)


def compare_args(name, config):
    """The tmasim compare arguments of one set (None: not judged with this base)."""
    if name in ("calibration", "validation"):
        return [os.path.join(GOLDEN, "scenarios"), "--split", name, "--config", config]
    if name in HELD_OUT:
        folder, results, h200 = HELD_OUT[name]
        if h200:
            if os.path.realpath(config) != os.path.realpath(os.path.join(TOP, "configs", "h100.json")):
                return None
            config = os.path.join(TOP, "configs", "h200.json")
        return [os.path.join(GOLDEN, folder), os.path.join(GOLDEN, folder, results), "--config", config]
    return [os.path.join(GOLDEN, name), "--config", config]


def rows_of(tmasim, args, state, sets, jobs, csv_path):
    cmd = [tmasim, "compare"] + args + ["--l2", state, "--csv", csv_path, "-j", str(jobs)]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if not os.path.exists(csv_path):
        sys.exit(f"judge_config: {' '.join(cmd)} failed:\n{r.stderr.strip()}")
    with open(csv_path) as f:
        return [row for row in csv.DictReader(f) if row["status"] in ("pass", "fail")]


def summary(rows):
    k = [abs(float(r["kernel_error"])) for r in rows]
    c = [abs(float(r["cta_error"])) for r in rows]
    if not k:
        return None
    return (100 * statistics.median(k), 100 * sum(e <= 0.25 for e in k) / len(k), 100 * statistics.median(c))


def by_family(rows):
    fam = {}
    for r in rows:
        fam.setdefault(r["family"], []).append(abs(float(r["kernel_error"])))
    return {f: 100 * statistics.median(v) for f, v in fam.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default=os.path.join(TOP, "configs", "h100.json"))
    ap.add_argument("--set", action="append", default=[], dest="keys", metavar="SECTION.KEY=VALUE")
    ap.add_argument("--sets", default=",".join(s for s in SETS if s not in UNREAD), dest="names", help="which of " + ", ".join(SETS) + " or probes by name")
    ap.add_argument("--probes", action="store_true", help="also every probe with GPU results")
    ap.add_argument("--tmasim", default=os.path.join(TOP, "build", "tmasim"))
    ap.add_argument("--out", default=None, help="directory for the CSVs (default: a temporary one)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    if not a.keys:
        sys.exit("judge_config: give the candidate as --set SECTION.KEY=VALUE (one or more)")
    if not os.path.exists(a.tmasim):
        sys.exit(f"judge_config: no {a.tmasim}: build first (cmake --build build)")
    names = [n.strip() for n in a.names.split(",") if n.strip()]
    probes = probe_dirs()
    for n in names:
        if n not in SETS and n not in probes:
            sys.exit(f"judge_config: --sets: unknown set '{n}' (one of {', '.join(SETS)}, or a probe: {', '.join(probes)})")
    if a.probes:
        names += [p for p in probes if p not in names]
    out = a.out or tempfile.mkdtemp(prefix="judge_config_")
    os.makedirs(out, exist_ok=True)
    print(f"candidate: {os.path.relpath(a.config, TOP)} " + " ".join("--set " + k for k in a.keys) + f"  (CSVs in {out})")
    print(f"{'set':<24}{'state':<11}{'kernel median':>22}{'within 25%':>22}{'per-CTA median':>22}")
    for name in names:
        args = compare_args(name, a.config)
        if args is None:
            print(f"{name:<24}skipped: its H200 variant is configs/h200.json, made for configs/h100.json")
            continue
        for state in STATES:
            base = rows_of(a.tmasim, args, state, [], a.jobs, os.path.join(out, f"{name}_{state}_base.csv"))
            cand = rows_of(a.tmasim, args, state, a.keys, a.jobs, os.path.join(out, f"{name}_{state}_candidate.csv"))
            b, c = summary(base), summary(cand)
            if b is None or c is None:
                print(f"{name:<24}{state:<11}no GPU result for this state")
                continue
            cells = "".join(f"{x:>9.2f} -> {y:>6.2f}{'':>3}" for x, y in zip(b, c))
            print(f"{name:<24}{state:<11}{cells}")
            fb, fc = by_family(base), by_family(cand)
            for f in sorted(fb):
                if f in fc and abs(fb[f] - fc[f]) >= 0.05 and f not in ("", "-"):
                    print(f"{'  ' + f:<24}{state:<11}{fb[f]:>9.2f} -> {fc[f]:>6.2f}")


if __name__ == "__main__":
    main()
