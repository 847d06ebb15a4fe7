#!/usr/bin/env python3
"""Writes tests/golden/step_box_probe/*.json: a dependent step (load, then a wait on it) in
straight-line code at one CTA, for boxes of 16 B to 16 KiB and ranks 2, 3 and 5, and two variants
that take the step apart.

Why: `tests/golden/armed_nostamp_probe` found the model (with S) fast by 40 cycles a step warm for a
256 B rank-2 box and by 70 for a 2 KiB rank-5 box. Candidate T (`tests/golden/holdout8/README.md`)
reads the 40 as the thread's wake-up after the phase flip (`thread.wait_wakeup_cycles` 60 -> 100),
the same for every box. If the H100's step less the model's grows with the box (its bytes, rows or
rank), part of it is the load's, not the wake-up's. Each program: N = 4 or 8 steps, the N
arrive.expect_tx first (no load waits for its arrive), no stamps:
  step_<box>_n<N>         per step: load k, wait k
  delay_<box>_n<N>        per step: load k, delay 2000, wait k (the wait finds its phase done)
  pair_<box>_n<N>         per step: two loads of the box to barrier k (twice the bytes), wait k
box: `u16x1` (16 B), `u16x16` (256 B), `u16x64` (1 KiB), `u16x256` (4 KiB): rank 2, 16-byte rows;
`w128x8` (1 KiB), `w128x32` (4 KiB), `w128x128` (16 KiB): rank 2, 128-byte rows, 128B swizzle;
`r3` (256 B, rank 3), `r5` (256 B, rank 5). The delay and pair variants for u16x16 and w128x32 only.
The step's cost is the kernel's slope from N = 4 to 8. The rule is in the README, written before the
run.

    scripts/gen_step_box_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import probe_dest, write_programs  # noqa: E402

dest = probe_dest("step_box_probe")
STEPS = 8


def tiled(dtype, dims, strides, box, swizzle="none"):
    return {"mode": "tiled", "dtype": dtype, "rank": len(dims), "global_dims": dims, "global_strides": strides,
            "box_dims": box, "element_strides": [1] * len(dims), "swizzle": swizzle}


def rows_tensor(row_bytes, rows, swizzle):
    walked = rows * STEPS * 2
    return tiled("uint8", [row_bytes, walked], [row_bytes], [row_bytes, rows], swizzle)


BOXES = {  # name: (tensor, rows a step walks in dimension 1)
    "u16x1": (rows_tensor(16, 1, "none"), 1),
    "u16x16": (rows_tensor(16, 16, "none"), 16),
    "u16x64": (rows_tensor(16, 64, "none"), 64),
    "u16x256": (rows_tensor(16, 256, "none"), 256),
    "w128x8": (rows_tensor(128, 8, "128b"), 8),
    "w128x32": (rows_tensor(128, 32, "128b"), 32),
    "w128x128": (rows_tensor(128, 128, "128b"), 128),
    "r3": (tiled("uint8", [16, 2 * STEPS * 4, 4], [16, 16 * 2 * STEPS * 4], [16, 4, 4]), 4),
    "r5": (tiled("uint8", [16, 2 * STEPS * 4, 2, 2, 2], [16, 16 * 2 * STEPS * 4, 16 * 2 * STEPS * 4 * 2,
                                                          16 * 2 * STEPS * 4 * 4], [16, 4, 2, 2, 2]), 4),
}
SLOT = 16384  # shared memory a step's box (or pair) owns; 128B swizzle wants 1024-byte alignment


def load(box, k, second=False):
    rows = BOXES[box][1]
    rank = BOXES[box][0]["rank"]
    row = 2 * k + (1 if second else 0)
    coords = ["0", f"{rows * row}"] + ["0"] * (rank - 2)
    offset = SLOT * k + (SLOT // 2 if second else 0)
    return {"load": "T", "coords": coords, "smem_offset": offset, "barrier": k}


def program(box, n, variant):
    body = []
    for k in range(n):
        if variant == "pair":
            body += [load(box, k), load(box, k, second=True)]
        else:
            body.append(load(box, k))
        if variant == "delay":
            body.append({"delay": 2000})
        body.append({"wait": k, "phase": 0})
    times = 2 if variant == "pair" else 1
    return [{"arrive": k, "bytes": f"{times} * bytes_T"} for k in range(n)] + body


programs = {}
for box in BOXES:
    variants = ("step", "delay", "pair") if box in ("u16x16", "w128x32") else ("step",)
    for variant in variants:
        for n in (4, STEPS):
            name = f"{variant}_{box}_n{n}"
            programs[name] = {"name": f"step_box_probe/{name}", "tensors": {"T": BOXES[box][0]},
                              "ctas": [{"count": 1, "barriers": [1] * n, "program": program(box, n, variant)}]}
write_programs(dest, programs, tool="gen_step_box_probe")
