#!/usr/bin/env python3
"""Writes tests/golden/small_box_probe/*.json: one CTA's ring of small TMA loads (issue 29; data).

Why: the second held-out set (tests/golden/holdout2) found the model 26-66% slow on one CTA's
serial loads of 1-8 KiB boxes of narrow rows (16-64 bytes) warm, where it is close on the corpus's
16 KiB boxes of 128-byte rows. These programs take the per-iteration cost apart: a ring of S
stages (wait on the stage's previous phase, arrive.expect_tx, load), N = 16 and 32 iterations (the
slope is one iteration), boxes of R rows of W bytes (fp16, W = 16 unswizzled, 64 with 64B swizzle,
128 with 128B swizzle), the rows contiguous in global memory (pitch W) or 256 bytes apart.

Rule, stated before the run: data only. Nothing is fitted to it or adopted by it in the session
that took it; a mechanism read off it later must state its rule before it is judged.

    scripts/gen_small_box_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "small_box_probe")
os.makedirs(dest, exist_ok=True)

SWIZZLE = {16: "none", 64: "64b", 128: "128b"}


def ring(name, stages, iters, rows, width, pitch):
    elems = width // 2
    box_bytes = rows * width
    slot = (box_bytes + 1023) // 1024 * 1024
    inner = pitch // 2  # the tensor's row: the box's width, or 256 bytes with the box at its start
    return {"name": f"small_box_probe/{name}", "comment": "scripts/gen_small_box_probe.py",
            "params": {"N": iters, "S": stages, "SLOT": slot},
            "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [inner, rows * iters],
                              "global_strides": [pitch], "box_dims": [elems, rows], "element_strides": [1, 1],
                              "swizzle": SWIZZLE[width]}},
            "ctas": [{"count": 1, "barriers": [1] * stages, "program": [
                {"loop": "i", "count": "N", "body": [
                    {"if": "i >= S", "wait": "i % S", "phase": "i / S - 1"},
                    {"arrive": "i % S", "bytes": "bytes_T"},
                    {"load": "T", "coords": [0, f"{rows} * i"], "smem_offset": "(i % S) * SLOT", "barrier": "i % S"}]},
                {"loop": "d", "count": "S", "body": [
                    {"if": "N - 1 - d >= 0", "wait": "(N - 1 - d) % S", "phase": "(N - 1 - d) / S"}]}]}]}


def main():
    n = 0
    for stages in (1, 4):
        for rows in (8, 64, 256):
            for width in (16, 64, 128):
                for pitch in sorted({width, 256}):
                    for iters in (16, 32):
                        name = f"s{stages}_r{rows}_w{width}_p{pitch}_n{iters}"
                        with open(os.path.join(dest, name + ".json"), "w") as f:
                            json.dump(ring(name, stages, iters, rows, width, pitch), f, indent=1)
                            f.write("\n")
                        n += 1
    print(f"gen_small_box_probe: {n} scenarios in {dest}")


if __name__ == "__main__":
    main()
