#!/usr/bin/env python3
"""Writes tests/golden/first_issue_probe/*.json: what a thread's first TMA issue costs, and what
it is the first of.

Why: `tests/golden/armed_probe` (H100) found that the first load a thread issues costs it
~180-215 cycles where every later unarmed one costs ~26, in straight-line code, armed or not, in
every L2 state. `issue.first_cycles` holds one such cost a thread. Whether it is the first use of a
tensor map (a descriptor fetch: CUTLASS prefetches descriptors at kernel start for this), the
thread's (warp's) first TMA instruction, the SM's, or something that runs from the kernel's start
and a delay would hide, decides where the model should put it. Every program is one CTA in
straight-line code: two stamps back to back (a stamp's own cost), then loads of 16 KiB, a stamp
after each (the thread's progress), then the waits.
  maps_m1        4 loads of map A
  maps_m2        A, B, A, B                       (B's first use after A's)
  maps_m4        A, B, C, D                       (four first uses)
  same_m2        A, A2, A, A2: A2 is a second map of the same tensor, identical to A
  delay_dD       a D-cycle spin (D = 500, 2000), then maps_m1's loads: does the cost run from the
                 kernel's start?
  prefetch_first an L2 prefetch of A's tile first, then maps_m1's loads: is the cost the map's or the
                 load's?
  store_first    a store of map S (another buffer) first, then maps_m1's loads
  warps_w2       two warps, each 2 loads of map A on its own barriers; the second spins 2000 cycles
                 first: does the second warp's first load pay again?
  warps_w2_maps  the same, the second warp on map B
  rolled_m1      maps_m1's loads in a rolled loop (the arrives before it, the waits after)
The rule the data will be read by is in the README, written before the run.

    scripts/gen_first_issue_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import probe_dest, write_programs  # noqa: E402

dest = probe_dest("first_issue_probe")

ROWS = 128  # a 64x128 fp16 box: 16 KiB
SLOTS = 8


def tensor(rows):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, rows],
            "global_strides": [128], "box_dims": [64, ROWS], "element_strides": [1, 1], "swizzle": "128b"}


def load(name, k, slot):
    return {"load": name, "coords": [0, ROWS * k], "smem_offset": 16384 * slot, "barrier": slot}


def burst(maps, first_slot=0, tag=""):
    """Arrives, then the loads (a stamp after each), then the waits (a stamp after each)."""
    slots = range(first_slot, first_slot + len(maps))
    steps = [{"arrive": s, "bytes": f"bytes_{maps[0]}"} for s in slots]
    for i, (m, s) in enumerate(zip(maps, slots)):
        steps += [load(m, i, s), {"stamp": f"{tag}issued{i}"}]
    for i, s in enumerate(slots):
        steps += [{"wait": s, "phase": 0}, {"stamp": f"{tag}landed{i}"}]
    return steps


HEAD = [{"stamp": "start"}, {"stamp": "start2"}]
TENSORS = {m: tensor(ROWS * 4) for m in ("A", "A2", "B", "C", "D", "S")}
PROGRAMS = {
    "maps_m1": {"main": HEAD + burst(["A", "A", "A", "A"])},
    "maps_m2": {"main": HEAD + burst(["A", "B", "A", "B"])},
    "maps_m4": {"main": HEAD + burst(["A", "B", "C", "D"])},
    "same_m2": {"main": HEAD + burst(["A", "A2", "A", "A2"])},
    "delay_d500": {"main": HEAD + [{"delay": 500}, {"stamp": "spun"}] + burst(["A"] * 4)},
    "delay_d2000": {"main": HEAD + [{"delay": 2000}, {"stamp": "spun"}] + burst(["A"] * 4)},
    "prefetch_first": {"main": HEAD + [{"prefetch": "A", "coords": [0, 0]}, {"stamp": "prefetched"}]
                       + burst(["A"] * 4)},
    "store_first": {"main": HEAD + [{"store": "S", "coords": [0, 0], "smem_offset": 16384 * 7},
                                    {"stamp": "stored"}] + burst(["A"] * 4)
                    + [{"wait_stores": 0}, {"stamp": "store_done"}]},
    "warps_w2": {"first": HEAD + burst(["A", "A"]),
                 "second": [{"delay": 2000}, {"stamp": "spun"}] + burst(["A", "A"], first_slot=2, tag="w1_")},
    "warps_w2_maps": {"first": HEAD + burst(["A", "A"]),
                      "second": [{"delay": 2000}, {"stamp": "spun"}] + burst(["B", "B"], first_slot=2, tag="w1_")},
    "rolled_m1": {"main": HEAD + [{"arrive": s, "bytes": "bytes_A"} for s in range(4)]
                  + [{"loop": "k", "count": 4, "body": [
                      {"load": "A", "coords": [0, f"{ROWS} * k"], "smem_offset": "16384 * k", "barrier": "k"},
                      {"stamp": "issued"}]}]
                  + [step for s in range(4) for step in ({"wait": s, "phase": 0}, {"stamp": f"landed{s}"})]},
}


def maps_in(steps):
    out = set()
    for s in steps:
        out |= {s[k] for k in ("load", "prefetch", "store") if k in s} | maps_in(s.get("body", []))
    return out


def scenario(name, threads):
    used = sorted(maps_in([s for p in threads.values() for s in p]))
    cta = {"count": 1, "barriers": [1] * SLOTS}
    if len(threads) == 1:
        cta["program"] = threads["main"]
    else:
        cta["threads"] = [{"name": n, "program": p} for n, p in threads.items()]
    return {"name": f"first_issue_probe/{name}", "tensors": {m: TENSORS[m] for m in used}, "ctas": [cta]}


write_programs(dest, {name: scenario(name, threads) for name, threads in PROGRAMS.items()}, tool="gen_first_issue_probe")
