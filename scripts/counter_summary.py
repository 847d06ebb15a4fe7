#!/usr/bin/env python3
"""The H100's DRAM and L2 counters (ncu, scripts/gpu_counters.sh) beside the model's, program by program.

    scripts/counter_summary.py COUNTERS [--root tests/golden] [--tmasim build/tmasim] [--config F]
                               [--set KEY=VALUE ...] [-j N]

COUNTERS: a counters.jsonl[.gz] (tests/golden/counter_probe/counters.jsonl.gz, join_probe/...); each
row's "file" is a scenario path under --root (a probe directory's own rows name files in it). ncu's
`cold` row (its own cache flush: a clean L2) is set beside the model's `--l2 cold_clean`, `warm` beside
`--l2 warm`. Columns, in MB: what the loads moved; DRAM read (the H100's dram__bytes_read, from a
cold L2 only: warm, ncu's replays add reads of their own, 19 MB to a fit_f32 that misses nothing; the
model's misses x line bytes); the H100's near misses (its SMs' look-ups that missed in their half of
the L2: a line whose home is the other half may then hit there); L2 look-ups by the SMs (ncu lts__t_sectors_srcunit_tex_op_read x 32; the model's hit
bytes over the L2's output plus its misses' bytes: a read that joined another SM's transfer is not
looked up); and the share of the loaded bytes the look-ups skip."""
import argparse
import concurrent.futures
import gzip
import json
import os
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rows_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def model(args, scenario, state):
    cmd = [args.tmasim, "run", scenario, "--timing-only", "--l2", "cold_clean" if state == "cold" else "warm",
           "--stats", "-"]
    if args.config:
        cmd += ["--config", args.config]
    for s in args.set or []:
        cmd += ["--set", s]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout)


def scenario_path(args, counters, file):
    for base in (os.path.dirname(os.path.abspath(counters)), args.root):
        path = os.path.join(base, file)
        if os.path.exists(path):
            return path
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("counters")
    ap.add_argument("--root", default=os.path.join(top, "tests", "golden"))
    ap.add_argument("--tmasim", default=os.path.join(top, "build", "tmasim"))
    ap.add_argument("--config")
    ap.add_argument("--set", action="append")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    rows = [r for r in rows_of(args.counters) if "error" not in r]
    paths = [scenario_path(args, args.counters, r["file"]) for r in rows]
    missing = [r["file"] for r, p in zip(rows, paths) if p is None]
    if missing:
        sys.exit(f"counter_summary: no scenario for {', '.join(missing)} (under {args.root})")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        runs = list(pool.map(lambda rp: model(args, rp[1], rp[0]["state"]), zip(rows, paths)))
    print(f"{'program':42s} {'L2':5s} {'loaded':>8s} {'DRAM H100':>10s} {'model':>8s} {'near misses':>12s} {'look-ups H100':>14s} {'model':>8s}"
          f" {'skipped H100':>13s} {'model':>6s}")
    for r, m in zip(rows, runs):
        if "error" in m:
            print(f"{r['file'][:42]:42s} {r['state']:5s} model: {m['error']}")
            continue
        loaded = m["tma_bytes"]
        line = m["config"]["memory"]["l2_line_bytes"]
        h_dram = r.get("dram__bytes_read.sum", float("nan")) if r["state"] == "cold" else float("nan")
        h_miss = 32 * r.get("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", float("nan"))
        h_look = 32 * r.get("lts__t_sectors_srcunit_tex_op_read.sum", float("nan"))
        m_dram = m["l2_misses"] * line
        m_look = m["l2_output_bytes"] + m_dram
        print(f"{r['file'][:42]:42s} {r['state']:5s} {loaded / 1e6:8.1f} {h_dram / 1e6:10.1f} {m_dram / 1e6:8.1f}"
              f" {h_miss / 1e6:12.1f} {h_look / 1e6:14.1f} {m_look / 1e6:8.1f} {1 - h_look / loaded:13.2f} {1 - m_look / loaded:6.2f}")


if __name__ == "__main__":
    main()
