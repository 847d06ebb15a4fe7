#!/usr/bin/env python3
"""Writes tests/golden/floor_probe/*.json: a step's own cost, `"cycles"` (issue 29, "the user's own code").

Why: a user's own consumer (run-time addresses, a dependency on each result) runs slower than the
code `tmasim cuda` emits, so the model's default thread costs do not describe it. A step may now
state the least it takes of its thread (`"cycles": E`, docs/scenarios.md); `tmasim cuda` spins to
that deadline after the step, the model holds the thread until it. These programs check on the
H100 that the two agree where a floor makes the pipeline consumer- or producer-bound, and give
`tmasim costs` a real result to measure from.

Rule, stated before the run: nothing is fitted to these files. The mechanism stands if the model's
kernel time is within 10% of the H100's (warm and cold) on every program whose floor binds
(`read_r1000`, `read_r2000`, `load_p1000`), and if `tmasim costs` reads back a floor from the
stamped programs within 5% of the floor stated.

- `read_rR_cC`: a producer thread streams KT 16 KiB tiles (128x64 fp16, 128B swizzle) through S
  stages (full and empty barriers); a consumer waits, reads the stage (`read`, "cycles": R) and
  releases it. C CTAs, each its own tiles. R = 0 (a floor that never binds: its cost on the GPU
  is the deadline check alone), 500, 1000, 2000, 4000.
- `load_p1000_cC`: the same with the producer's load at "cycles": 1000.
- `stamped_rR`: one CTA, the consumer with a stamp before and after each of four reads (R = 0:
  no floor, the emitted read's own cost; 800).

    scripts/gen_floor_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "floor_probe")
os.makedirs(dest, exist_ok=True)

S, KT, ROWS = 4, 32, 128
TILE = ROWS * 128


def tensors(ctas):
    return {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, ROWS * ctas * KT],
                  "global_strides": [128], "box_dims": [64, ROWS], "element_strides": [1, 1], "swizzle": "128b"}}


def producer(load_floor):
    load = {"load": "T", "coords": [0, f"{ROWS} * (cta * KT + t)"], "smem_offset": f"(t % S) * {TILE}",
            "barrier": "t % S"}
    if load_floor:
        load["cycles"] = "PF"
    return {"name": "producer", "program": [{"loop": "t", "count": "KT", "body": [
        {"if": "t >= S", "wait": "S + t % S", "phase": "t / S - 1"},
        {"arrive": "t % S", "bytes": "bytes_T"},
        load]}]}


def read(floor):
    r = {"read": {"rows": ROWS, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": f"(t % S) * {TILE}"}}
    if floor:
        r["cycles"] = "RF"
    return r


def pipeline(name, ctas, read_floor, load_floor, params):
    consumer = {"name": "consumer", "program": [{"loop": "t", "count": "KT", "body": [
        {"wait": "t % S", "phase": "t / S"}, read(read_floor), {"arrive": "S + t % S"}]}]}
    return {"name": f"floor_probe/{name}", "comment": "scripts/gen_floor_probe.py",
            "params": dict({"KT": KT, "S": S}, **params), "tensors": tensors(ctas),
            "ctas": [{"count": ctas, "var": "cta", "barriers": [1] * (2 * S),
                      "threads": [producer(load_floor), consumer]}]}


def stamped(name, floor):
    body = []
    for t in range(4):
        r = {"read": {"rows": ROWS, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": t * TILE}}
        if floor:
            r["cycles"] = floor
        body += [{"stamp": f"before_{t}"}, r, {"stamp": f"after_{t}"}]
    loads = [{"arrive": 0, "bytes": "4 * bytes_T"}] + [
        {"load": "T", "coords": [0, ROWS * t], "smem_offset": t * TILE, "barrier": 0} for t in range(4)]
    return {"name": f"floor_probe/{name}", "comment": "scripts/gen_floor_probe.py",
            "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, ROWS * 4],
                              "global_strides": [128], "box_dims": [64, ROWS], "element_strides": [1, 1],
                              "swizzle": "128b"}},
            "ctas": [{"count": 1, "barriers": [1], "threads": [
                {"name": "main", "program": loads + [{"wait": 0, "phase": 0}] + body}]}]}


def main():
    programs = {}
    for ctas in (1, 132):
        for rf in (0, 500, 1000, 2000, 4000):
            programs[f"read_r{rf}_c{ctas}"] = pipeline(f"read_r{rf}_c{ctas}", ctas, True, False, {"RF": rf})
        programs[f"load_p1000_c{ctas}"] = pipeline(f"load_p1000_c{ctas}", ctas, False, True, {"PF": 1000})
        programs[f"plain_c{ctas}"] = pipeline(f"plain_c{ctas}", ctas, False, False, {})
    for floor in (0, 800):
        programs[f"stamped_r{floor}"] = stamped(f"stamped_r{floor}", floor)
    for name, s in programs.items():
        with open(os.path.join(dest, name + ".json"), "w") as f:
            json.dump(s, f, indent=1)
            f.write("\n")
    print(f"gen_floor_probe: {len(programs)} scenarios in {dest}")


if __name__ == "__main__":
    main()
