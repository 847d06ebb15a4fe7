#!/usr/bin/env python3
"""Writes tests/golden/locality_probe/*.json: 132 CTAs streaming two tiles a step that groups of D
CTAs share, the group either consecutive CTAs (which the H100 places in one GPC) or CTAs strided
by 132 / D (spread over the GPCs) (issue 29, L2 sharing between SMs; issue 30, real GEMMs).

Why: the degree probe's GEMM feed (A shared by 11 CTAs of different GPCs, B by 12 of one GPC)
runs 23-29% slower on the H100 than a model in which any two SMs' reads of a line in flight share
one transfer over the L2's output; scoped to a GPC (memory.l2_join_within_gpc) the model meets
it. This probe tests the scope directly: at the same degree of sharing, a chip-wide join predicts
the same time for both placements, a GPC-scoped one predicts the strided groups bound by the L2's
output (each GPC fetching its own copy). Rule, declared before the run: the GPC-scoped join is
adopted in configs/h100.json if on this probe its kernel median |error| is lower than the
chip-wide join's by at least 2 points in cold_clean and in warm, and the corpus's calibration half
is no worse by more than 0.2 points in cold and cold_clean.

Families (KT = 32 steps, 4 stages of two 16 KiB boxes, 64 x 128 fp16, 128B swizzle), each from a
cold, a clean and a warm L2 (every footprint fits the L2):
  within_d<D>: CTA c loads tiles of group c / D (D consecutive CTAs a group).
  across_d<D>: CTA c loads tiles of group c % (132 / D) (D CTAs strided by 132 / D).
  D = 4, 6, 12, 22, 33, 66.

    scripts/gen_locality_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "locality_probe")
os.makedirs(dest, exist_ok=True)
CTAS, KT, S, ROWS, BOX = 132, 32, 4, 128, 16384


def tmap(tiles):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, ROWS * tiles],
            "global_strides": [128], "box_dims": [64, ROWS], "element_strides": [1, 1], "swizzle": "128b"}


def feed(name, degree, group):
    groups = CTAS // degree
    load = lambda tensor, half: {"load": tensor, "coords": [0, f"{ROWS} * (({group}) * KT + t)"],
                                 "smem_offset": f"(t % S) * {2 * BOX} + {half * BOX}", "barrier": "t % S"}
    return {"name": f"locality_probe/{name}", "comment": "scripts/gen_locality_probe.py",
            "params": {"KT": KT, "S": S, "D": degree, "G": groups},
            "tensors": {"X": tmap(groups * KT), "Y": tmap(groups * KT)},
            "ctas": [{"count": CTAS, "barriers": [1] * S, "program": [
                {"loop": "t", "count": "KT", "body": [
                    {"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"},
                    {"arrive": "t % S", "bytes": "bytes_X + bytes_Y"},
                    load("X", 0), load("Y", 1)]},
                {"loop": "s", "count": "S", "body": [{"wait": "s", "phase": "KT / S - 1"}]}]}]}


def main():
    progs = {}
    for d in (4, 6, 12, 22, 33, 66):
        progs[f"within_d{d}"] = feed(f"within_d{d}", d, "cta / D")
        progs[f"across_d{d}"] = feed(f"across_d{d}", d, "cta % G")
    for name, prog in progs.items():
        with open(os.path.join(dest, name + ".json"), "w") as f:
            json.dump(prog, f, indent=1)
            f.write("\n")
    print(f"gen_locality_probe: {len(progs)} scenarios in {dest}")


if __name__ == "__main__":
    main()
