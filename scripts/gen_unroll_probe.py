#!/usr/bin/env python3
"""Writes tests/golden/unroll_probe/*.json: the same one-CTA loops stated unrolled (`"unroll":
true`, `#pragma unroll`) and rolled (`false`, `#pragma unroll 1`), each at 8 and 24 iterations, so
that the cost of one iteration in each form is a slope of one program, not of two.

Why: a wait costs 35-60 cycles in a loop nvcc unrolled and 79-141 in a rolled one
(`tests/golden/loop_probe`), and the corpus's short loops are unrolled by nvcc; the model's
`thread.straight_line_costs` charges straight-line code its own wait and no loop overhead. Here the
compiler's choice is taken out of it: each program is emitted in both forms. The bodies: waits on
one completed barrier and on two alternating; an arrive that completes a phase and its wait; the
corpus's stream of 16 KiB loads (4 in flight, and 1); arrive.expect_tx of every stage then their
loads then their waits; an arrive.expect_tx and two loads an iteration.

    scripts/gen_unroll_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "unroll_probe")
os.makedirs(dest, exist_ok=True)

LENGTHS = (8, 24)
TENSOR = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 128 * 2 * max(LENGTHS)],
          "global_strides": [128], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def loop(var, count, body, unroll):
    return {"loop": var, "count": count, "unroll": unroll, "body": body}


def bodies(u):
    """name: (barriers, program) for loops of form u (True unrolled, False rolled)."""
    return {
        "wait_one": (1, [{"arrive": 0}, loop("k", "N", [{"wait": 0, "phase": 0}], u)]),
        "wait_alt": (2, [{"arrive": 0}, {"arrive": 1}, loop("k", "N", [{"wait": "k % 2", "phase": 0}], u)]),
        "arrive_wait": (1, [loop("k", "N", [{"arrive": 0}, {"wait": 0, "phase": "k"}], u)]),
        "stream_s4": (4, [
            loop("t", "N", [
                {"if": "t >= 4", "wait": "t % 4", "phase": "t / 4 - 1"},
                {"arrive": "t % 4", "bytes": "bytes_T"},
                {"load": "T", "coords": [0, "128 * t"], "smem_offset": "(t % 4) * 16384", "barrier": "t % 4"}], u),
            loop("t", 4, [{"wait": "(N - 4 + t) % 4", "phase": "(N - 4 + t) / 4"}], u)]),
        "stream_s1": (1, [loop("t", "N", [
            {"arrive": 0, "bytes": "bytes_T"},
            {"load": "T", "coords": [0, "128 * t"], "smem_offset": 0, "barrier": 0},
            {"wait": 0, "phase": "t"}], u)]),
        "expect_then_loads": (24, [
            loop("k", "N", [{"arrive": "k", "bytes": "bytes_T"}], u),
            loop("k", "N", [{"load": "T", "coords": [0, "128 * k"], "smem_offset": "(k % 8) * 16384", "barrier": "k"}], u),
            loop("k", "N", [{"wait": "k", "phase": 0}], u)]),
        "issue2": (1, [
            {"arrive": 0, "bytes": "2 * N * bytes_T"},
            loop("k", "N", [
                {"load": "T", "coords": [0, "256 * k"], "smem_offset": "(k % 4) * 32768", "barrier": 0},
                {"load": "T", "coords": [0, "256 * k + 128"], "smem_offset": "(k % 4) * 32768 + 16384", "barrier": 0}], u),
            {"wait": 0, "phase": 0}]),
    }


names = []
for u in (True, False):
    for body, (barriers, program) in bodies(u).items():
        for n in LENGTHS:
            name = f"{body}_{'unrolled' if u else 'rolled'}_n{n}"
            s = {"name": f"unroll_probe/{name}", "params": {"N": n}, "tensors": {"T": TENSOR},
                 "ctas": [{"count": 1, "barriers": [1] * barriers, "program": program}]}
            with open(os.path.join(dest, f"{name}.json"), "w") as f:
                json.dump(s, f, indent=1)
                f.write("\n")
            names.append(name)
print(f"{len(names)} programs in {dest}")
