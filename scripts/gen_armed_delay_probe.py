#!/usr/bin/env python3
"""Writes tests/golden/armed_delay_probe/*.json: does an armed load (issued right after its own
arrive.expect_tx) leave later, or does only the thread pay?

Why: `tests/golden/armed_probe` (H100) found that an armed pair costs the thread ~100 cycles more
than an unarmed load, and that the armed bursts' data landed when the unarmed bursts' did. But its
loads were 16 KiB: one SM's port takes ~130 cycles for each (warm), so the landings were bound by
the port and could not show a delay of the load itself. Here the data is waited for at once, so a
load that leaves ~100 cycles later lands ~100 later, and small boxes (256 B) take the port out:
  armed_wait_bB       per step: arrive.expect_tx k, load k, wait k, stamp      (B = 256, 16384 bytes)
  unarmed_wait_bB     the arrives first; per step: load k, wait k, stamp
  armed_burst_bB      per step: arrive, load, stamp; then per step: wait, stamp
  unarmed_burst_bB    the arrives, then per step: load, stamp; then per step: wait, stamp
each in straight-line code (4 steps written out) and as a rolled loop (`_rolled`: 8 steps,
`"unroll": false`, so `#pragma unroll 1`). Two stamps back to back first (a stamp's own cost).
If the load leaves at once, armed_wait's steps cost what unarmed_wait's do plus at most the
thread's extra that the wait does not hide; if it leaves after the armed cost, ~100 more a step.
The rule is in the README, written before the run.

    scripts/gen_armed_delay_probe.py [DIR]"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import probe_dest, write_programs  # noqa: E402

dest = probe_dest("armed_delay_probe")

BOXES = {256: [16, 8], 16384: [64, 128]}  # bytes: box dims of a uint8 / fp16 tile
STRAIGHT, ROLLED = 4, 8


def tensor(size):
    inner, rows = BOXES[size]
    dtype = "uint8" if size == 256 else "float16"
    elem = 1 if size == 256 else 2
    return {"mode": "tiled", "dtype": dtype, "rank": 2, "global_dims": [inner, rows * 64],
            "global_strides": [inner * elem], "box_dims": [inner, rows], "element_strides": [1, 1],
            "swizzle": "none" if size == 256 else "128b"}


def steps_of(kind, size, n, rolled):
    rows = BOXES[size][1]
    slot = 16384

    def load(k):
        return {"load": "T", "coords": [0, f"{rows} * ({k})"], "smem_offset": f"{slot} * ({k})", "barrier": k}

    arrive = lambda k: {"arrive": k, "bytes": "bytes_T"}  # noqa: E731
    wait = lambda k: {"wait": k, "phase": 0}  # noqa: E731
    stamp = {"stamp": "step"}
    if kind == "armed_wait":
        body, pre, post = [arrive("k"), load("k"), wait("k"), stamp], [], []
    elif kind == "unarmed_wait":
        body, pre, post = [load("k"), wait("k"), stamp], [arrive(k) for k in range(n)], []
    elif kind == "armed_burst":
        body, pre, post = [arrive("k"), load("k"), stamp], [], [s for k in range(n) for s in (wait(k), stamp)]
    else:  # unarmed_burst
        body, pre, post = [load("k"), stamp], [arrive(k) for k in range(n)], [s for k in range(n) for s in (wait(k), stamp)]
    if rolled:
        loop = [{"loop": "k", "count": n, "unroll": False, "body": body}]
    else:
        loop = [json.loads(json.dumps(s).replace('"k"', f'"{k}"').replace("(k)", f"({k})")) for k in range(n) for s in body]
    return [{"stamp": "start"}, {"stamp": "start2"}] + pre + loop + post


programs = {}
for size in BOXES:
    for kind in ("armed_wait", "unarmed_wait", "armed_burst", "unarmed_burst"):
        for rolled in (False, True):
            n = ROLLED if rolled else STRAIGHT
            name = f"{kind}_b{size}{'_rolled' if rolled else ''}"
            programs[name] = {"name": f"armed_delay_probe/{name}", "tensors": {"T": tensor(size)},
                              "ctas": [{"count": 1, "barriers": [1] * n, "program": steps_of(kind, size, n, rolled)}]}
write_programs(dest, programs, tool="gen_armed_delay_probe")
