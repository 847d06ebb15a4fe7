#!/usr/bin/env python3
"""Writes tests/golden/home_probe/*.json: one CTA chases 64 lines twice with TMA loads, a stamp after
each wait, to see whether a TMA hit's latency depends on the line's address (its home half of the L2)
or only on who read it last.

Why: `tests/golden/step_box_probe` finds the model's dependent step fast by 23 cycles (warm) for a
one-line box, 30 for two lines, and 48-71 for boxes of 8 or more lines: growing with the lines a box
touches and levelling off by 8, as it would if each line had an even chance of costing the far
half's 78 cycles (`memory.l2_far_hit_cycles`, `tests/golden/partition_probe`) and the box waited for
its last line. The partition probe found that for `ld.global` a line is near whoever read it last,
which the model applies to TMA reads too; then a one-CTA warm run has no far hits at all.
Each program, rolled loops (`#pragma unroll 1`), per step: arrive.expect_tx, load, wait (barrier k % 32), stamp;
the 64 steps once (pass 1), then again over the same lines (pass 2: hits this SM has just read):
  seq     a 16-byte box in each of 64 consecutive 128-byte lines
  page    a 16-byte box in 64 lines 4 KiB apart
  wide    a 1 KiB box (eight 128-byte rows, eight lines) at 64 consecutive 1 KiB steps
The rule is in the README, written before the run.

    scripts/gen_home_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import probe_dest, write_programs  # noqa: E402

dest = probe_dest("home_probe")
STEPS = 64
KINDS = {  # name: (box dims, rows between steps)
    "seq": ([16, 1], 1),
    "page": ([16, 1], 32),
    "wide": ([128, 8], 8),
}


def tensor(box, stride_rows):
    return {"mode": "tiled", "dtype": "uint8", "rank": 2, "global_dims": [128, STEPS * stride_rows],
            "global_strides": [128], "box_dims": box, "element_strides": [1, 1], "swizzle": "none"}


def program(stride_rows):
    def body(phase):
        return [{"arrive": "k % 32", "bytes": "bytes_T"},
                {"load": "T", "coords": ["0", f"{stride_rows} * k"], "smem_offset": "1024 * (k % 32)", "barrier": "k % 32"},
                {"wait": "k % 32", "phase": f"{2 * phase} + k / 32"}, {"stamp": "step"}]
    return [{"stamp": "start"}] + [{"loop": "k", "count": STEPS, "unroll": False, "body": body(p)} for p in (0, 1)]


programs = {}
for name, (box, stride_rows) in KINDS.items():
    programs[name] = {"name": f"home_probe/{name}", "tensors": {"T": tensor(box, stride_rows)},
                      "ctas": [{"count": 1, "barriers": [1] * 32, "program": program(stride_rows)}]}
write_programs(dest, programs, tool="gen_home_probe")
