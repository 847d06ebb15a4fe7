#!/usr/bin/env python3
"""Writes tests/golden/share_probe/*.json: many CTAs streaming the same tiles against each their own
(issue 29: L2 sharing between SMs).

Why: on persistent GEMMs whose CTAs share A and B tiles, and on programs where every CTA reads one
tile, the model was reported 25% to 4x slow; it books every row of every CTA's read on the L2 and
its output as if no other SM wanted the same line. Each program: N CTAs (1, 16, 66, 132), one
thread each, streaming KT loads of a 16 KiB box (64 x 128 fp16, 128B swizzle) through a 4-stage
ring (the corpus's stream loop), at KT = 32 and 64 (the slope is the cost of a load). `shared`: all
CTAs load tiles 0..KT-1, the same lines at about the same time; `private`: CTA c loads tiles
c*KT..c*KT+KT-1 (132 CTAs x 64 tiles = 135 MiB, more than the L2). The harness runs each from a
cold, a clean and a warm L2.

    scripts/gen_share_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "share_probe")
os.makedirs(dest, exist_ok=True)

STAGES, ROWS = 4, 128
CTAS = (1, 16, 66, 132)
LOADS = (32, 64)
# The second set, `hits`: 132 CTAs, boxes of 32 KiB (256 rows) and KT = 4 and 8 (17 and 35 MiB
# private: within the L2 warm), so that the L2's output, not the thread, sets the pace.
HIT_ROWS, HIT_LOADS = 256, (4, 8)


def scenario(name, ctas, loads, shared, rows=ROWS):
    tiles = loads if shared else ctas * loads
    tile = "t" if shared else "cta * KT + t"
    return {
        "name": f"share_probe/{name}",
        "comment": "scripts/gen_share_probe.py",
        "params": {"KT": loads, "S": STAGES},
        "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, rows * tiles],
                          "global_strides": [128], "box_dims": [64, rows], "element_strides": [1, 1],
                          "swizzle": "128b"}},
        "ctas": [{"count": ctas, "barriers": [1] * STAGES, "program": [
            {"loop": "t", "count": "KT", "body": [
                {"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"},
                {"arrive": "t % S", "bytes": "bytes_T"},
                {"load": "T", "coords": [0, f"{rows} * ({tile})"], "smem_offset": f"(t % S) * {rows * 128}",
                 "barrier": "t % S"}]},
            {"loop": "s", "count": "S", "body": [{"wait": "s", "phase": "KT / S - 1"}]}]}],
    }


def main():
    n = 0
    for shared in (True, False):
        for ctas in CTAS:
            for loads in LOADS:
                name = f"{'shared' if shared else 'private'}_c{ctas}_n{loads}"
                with open(os.path.join(dest, name + ".json"), "w") as f:
                    json.dump(scenario(name, ctas, loads, shared), f, indent=1)
                    f.write("\n")
                n += 1
        for loads in HIT_LOADS:
            name = f"hits_{'shared' if shared else 'private'}_c132_n{loads}"
            with open(os.path.join(dest, name + ".json"), "w") as f:
                json.dump(scenario(name, 132, loads, shared, HIT_ROWS), f, indent=1)
                f.write("\n")
            n += 1
    print(f"gen_share_probe: {n} scenarios in {dest}")


if __name__ == "__main__":
    main()
