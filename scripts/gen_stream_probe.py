#!/usr/bin/env python3
"""Writes tests/golden/stream_probe/*.json: one CTA streaming TMA loads through a ring, the
corpus's waves/stream loop (wait for the load S back, arrive.expect_tx, load) taken apart by box
size and ring depth, each at two lengths so that the cost of one load is the slope.

Why: the model is ~23% slow on the corpus's one-CTA streams (waves/stream_c1_s2 and _s4, cold;
the calibration one as much as the validation one, so fitting does not take it away) and ~10% slow
at 132 CTAs and more. The programs vary what a load costs: its bytes (4, 8, 16, 32 KiB: boxes of
32-256 rows of 128 bytes) and how many are in flight (a ring of 1, 2, 4, 8 stages: 1 waits for each
load before the next, 8 keeps eight in flight), at 32 and 64 loads (both rolled loops: nvcc unrolls
only shorter ones of such a body; `scripts/ptx_stats.sh` says so). The `early` programs keep one load
in flight but put each load's arrive.expect_tx before the wait for the load ahead.

    scripts/gen_stream_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "stream_probe")
os.makedirs(dest, exist_ok=True)

ROWS_MAX, LOADS_MAX, SMEM_MAX = 256, 64, 131072
TENSOR = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, ROWS_MAX * LOADS_MAX],
          "global_strides": [128], "element_strides": [1, 1], "swizzle": "128b"}


def write(name, rows, params, barriers, program):
    """One CTA running `program` on boxes of `rows` rows (params R and BOX), `barriers` barriers."""
    s = {"name": f"stream_probe/{name}", "params": dict(params, R=rows, BOX=rows * 128),
         "tensors": {"T": dict(TENSOR, box_dims=[64, rows])},
         "ctas": [{"count": 1, "barriers": [1] * barriers, "program": program}]}
    with open(os.path.join(dest, f"{name}.json"), "w") as f:
        json.dump(s, f, indent=1)
    return name


def stream(rows, stages, n):
    name = f"b{rows // 8}k_s{stages}_n{n}"
    program = [
        {"loop": "t", "count": "N", "body": [
            {"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"},
            {"arrive": "t % S", "bytes": "bytes_T"},
            {"load": "T", "coords": [0, "R * t"], "smem_offset": "(t % S) * BOX", "barrier": "t % S"}]},
        {"loop": "t", "count": "S", "body": [{"wait": "(N - S + t) % S", "phase": "(N - S + t) / S"}]}]
    return write(name, rows, {"N": n, "S": stages}, stages, program)


def early(rows, n):
    """One load in flight as in stream(rows, 1, n), but through two barriers so that each load's
    arrive.expect_tx goes before the wait for the load ahead of it: the load follows a wait, not its
    arrive (the model's armed-load rule then does not apply)."""
    name = f"b{rows // 8}k_early_n{n}"
    program = [
        {"loop": "t", "count": "N", "body": [
            {"arrive": "t % 2", "bytes": "bytes_T"},
            {"if": "t >= 1", "wait": "(t - 1) % 2", "phase": "(t - 1) / 2"},
            {"load": "T", "coords": [0, "R * t"], "smem_offset": "(t % 2) * BOX", "barrier": "t % 2"}]},
        {"wait": "(N - 1) % 2", "phase": "(N - 1) / 2"}]
    return write(name, rows, {"N": n}, 2, program)


names = [stream(rows, stages, n) for rows in (32, 64, 128, 256) for stages in (1, 2, 4, 8) for n in (32, 64)
         if rows * 128 * stages <= SMEM_MAX]
names += [early(rows, n) for rows in (32, 128) for n in (32, 64)]
print(f"{len(names)} programs in {dest}")
