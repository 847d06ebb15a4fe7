#!/usr/bin/env python3
"""Writes tests/golden/prefetch_probe/*.json: the cost of an L2 prefetch (issue 29).

Why: programs that prefetch the next tiles into L2 (`cp.async.bulk.prefetch.tensor`) before loading
them were reported to take twice as long in the model, where the H100 pays little or nothing.
Each program is the corpus's stream (one thread a CTA, 16 KiB boxes, a 4-stage ring, each CTA its
own tiles) at 1 and 132 CTAs and KT = 32 and 64 loads, in three forms: `none`; `ahead`, each
iteration first prefetching the tile it will load S iterations later; `same`, prefetching the tile
it loads next, right before the load.

    scripts/gen_prefetch_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "prefetch_probe")
os.makedirs(dest, exist_ok=True)

STAGES, ROWS = 4, 128


def scenario(name, ctas, loads, form):
    tile = "cta * KT + t"
    body = [{"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"}]
    if form == "ahead":
        body.append({"if": "t + S < KT", "prefetch": "T", "coords": [0, f"{ROWS} * ({tile} + S)"]})
    if form == "same":
        body.append({"prefetch": "T", "coords": [0, f"{ROWS} * ({tile})"]})
    body += [{"arrive": "t % S", "bytes": "bytes_T"},
             {"load": "T", "coords": [0, f"{ROWS} * ({tile})"], "smem_offset": f"(t % S) * {ROWS * 128}",
              "barrier": "t % S"}]
    return {
        "name": f"prefetch_probe/{name}",
        "comment": "scripts/gen_prefetch_probe.py",
        "params": {"KT": loads, "S": STAGES},
        "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, ROWS * ctas * loads],
                          "global_strides": [128], "box_dims": [64, ROWS], "element_strides": [1, 1],
                          "swizzle": "128b"}},
        "ctas": [{"count": ctas, "barriers": [1] * STAGES, "program": [
            {"loop": "t", "count": "KT", "body": body},
            {"loop": "s", "count": "S", "body": [{"wait": "s", "phase": "KT / S - 1"}]}]}],
    }


def main():
    n = 0
    for form in ("none", "ahead", "same"):
        for ctas in (1, 132):
            for loads in (32, 64):
                name = f"{form}_c{ctas}_n{loads}"
                with open(os.path.join(dest, name + ".json"), "w") as f:
                    json.dump(scenario(name, ctas, loads, form), f, indent=1)
                    f.write("\n")
                n += 1
    print(f"gen_prefetch_probe: {n} scenarios in {dest}")


if __name__ == "__main__":
    main()
