#!/usr/bin/env python3
"""Writes tests/golden/armed_nostamp_probe/*.json: the armed-delay probe's load-then-wait steps
without stamps, at 1 and 100 CTAs, timed by the kernel alone.

Why: `tests/golden/armed_delay_probe` (one CTA, a stamp after each wait) says an armed load in
straight-line code leaves at once and only the thread pays its ~100 cycles (candidate S); the sixth
held-out set adopted S' (the load leaves ~107 cycles later), whose programs have no stamps and run
at 32-100 CTAs (`random/w024`: arrive, load, wait of 2 KiB rank-5 boxes at 100 CTAs).
`tests/golden/roundtrip_probe` found a stamp's global store delays the next arrive by ~150 cycles,
which could hide an armed load's delay behind it. Each program: N steps in straight-line code,
  armed_<box>_c<C>_n<N>     per step: arrive.expect_tx k, load k, wait k
  unarmed_<box>_c<C>_n<N>   the N arrives first; per step: load k, wait k
box `b256` (16 x 16 uint8, rank 2) or `r5` (`random/w024`'s 2 KiB rank-5 fp32 box), C = 1 or 100
CTAs (each its own rows), N = 4 or 8. The step's cost is the kernel's slope from N = 4 to 8; d =
armed less unarmed. The rule is in the README, written before the run.

    scripts/gen_armed_nostamp_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import probe_dest, write_programs  # noqa: E402

dest = probe_dest("armed_nostamp_probe")

TENSORS = {
    "b256": {"mode": "tiled", "dtype": "uint8", "rank": 2, "global_dims": [16, 16 * 8 * 100],
             "global_strides": [16], "box_dims": [16, 16], "element_strides": [1, 1], "swizzle": "none"},
    "r5": {"mode": "tiled", "dtype": "float32", "rank": 5, "global_dims": [128, 2400, 4, 2, 2],
           "global_strides": [512, 1228800, 4915200, 9830400], "box_dims": [32, 8, 2, 1, 2],
           "element_strides": [1, 1, 1, 1, 1], "swizzle": "128b"},
}
ROWS = {"b256": 16, "r5": 8}  # the box's extent in the dimension the steps walk
RANKS = {"b256": 2, "r5": 5}


def load(box, n, k):
    coords = ["0", f"{ROWS[box]} * (cta * {n} + {k})"] + ["0"] * (RANKS[box] - 2)
    return {"load": "T", "coords": coords, "smem_offset": 4096 * k, "barrier": k}


def program(box, n, armed):
    arrive = lambda k: {"arrive": k, "bytes": "bytes_T"}  # noqa: E731
    wait = lambda k: {"wait": k, "phase": 0}  # noqa: E731
    if armed:
        return [s for k in range(n) for s in (arrive(k), load(box, n, k), wait(k))]
    return [arrive(k) for k in range(n)] + [s for k in range(n) for s in (load(box, n, k), wait(k))]


programs = {}
for box in TENSORS:
    for ctas in (1, 100):
        for n in (4, 8):
            for armed in (True, False):
                name = f"{'armed' if armed else 'unarmed'}_{box}_c{ctas}_n{n}"
                programs[name] = {"name": f"armed_nostamp_probe/{name}", "tensors": {"T": TENSORS[box]},
                                  "ctas": [{"count": ctas, "barriers": [1] * n, "program": program(box, n, armed)}]}
write_programs(dest, programs, tool="gen_armed_nostamp_probe")
