#!/usr/bin/env python3
"""Writes tests/golden/armed_probe/*.json: one CTA issuing K loads of 16 KiB in straight-line code
(no loop: every step written out), each on its own barrier, then waiting for all; K = 1, 2, 3, 4, 8.

Why: `thread.armed_load_cycles` (200, fitted) puts ~200 cycles before a load issued right after its
own arrive.expect_tx. `tests/golden/unroll_probe`'s unrolled ring says straight-line code pays ~123
of it on the thread and the load leaves at once; but with that (candidate G,
tests/golden/holdout3/README.md) the corpus's short straight-line bursts of such pairs (the random
family: two to four pairs back to back, then the waits) came out 10-25% fast. This probe asks where
the armed cost goes in such a burst, and whether it depends on the pair's place in it:
  armed_kK        K pairs (arrive.expect_tx on barrier k, load on barrier k), then K waits
  unarmed_kK      K arrive.expect_tx, then K loads, then K waits (no load right after its arrive)
  armed_kK_st     armed_kK with a stamp after each load (the thread's progress) and each wait (the
  unarmed_kK_st   data's arrival); two stamps back to back first (the stamp's own cost)
Differences armed - unarmed, by K and L2 state, split into the thread's part (stamps after the
loads) and the load's (stamps after the waits).

    scripts/gen_armed_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import probe_dest, write_programs  # noqa: E402

dest = probe_dest("armed_probe")

COUNTS = (1, 2, 3, 4, 8)
TENSOR = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 128 * max(COUNTS)],
          "global_strides": [128], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def load(k):
    return {"load": "T", "coords": [0, 128 * k], "smem_offset": 16384 * k, "barrier": k}


def program(k_count, armed, stamped):
    steps = [{"stamp": "start"}, {"stamp": "start2"}] if stamped else []
    if armed:
        for k in range(k_count):
            steps += [{"arrive": k, "bytes": "bytes_T"}, load(k)]
            if stamped:
                steps.append({"stamp": f"issued{k}"})
    else:
        steps += [{"arrive": k, "bytes": "bytes_T"} for k in range(k_count)]
        for k in range(k_count):
            steps.append(load(k))
            if stamped:
                steps.append({"stamp": f"issued{k}"})
    for k in range(k_count):
        steps.append({"wait": k, "phase": 0})
        if stamped:
            steps.append({"stamp": f"landed{k}"})
    return steps


programs = {}
for k_count in COUNTS:
    for armed in (True, False):
        for stamped in (False, True):
            name = f"{'armed' if armed else 'unarmed'}_k{k_count}{'_st' if stamped else ''}"
            programs[name] = {"name": f"armed_probe/{name}", "tensors": {"T": TENSOR},
                              "ctas": [{"count": 1, "barriers": [1] * k_count, "program": program(k_count, armed, stamped)}]}
write_programs(dest, programs, tool="gen_armed_probe")
