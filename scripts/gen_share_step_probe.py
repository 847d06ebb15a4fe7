#!/usr/bin/env python3
"""Writes tests/golden/share_step_probe/*.json: the held-out sets' `shared` GEMM feed taken apart
(issue 29; data).

Why: the `shared` family (persistent GEMM feeds: CTA c loads A's row block and B's column block of
output tile c + SMS * i, 2-4 stages of 32 KiB) is 21-26% fast warm in the model on the H100 and the
H200, and neither the L2's output (`tests/golden/group_share_probe`) nor the GPCs' paths
(`tests/golden/load_curve_probe`, candidates G and G2) explain it. Here the same loop runs with its
sharing removed piece by piece: `gemm` (as the family: A shared by the 16 CTAs of a tile row, B by
the CTAs 16 apart), `a_private` (each CTA its own A rows), `b_private`, `private` (both its own); at
64 and 128 CTAs (4 and 2 output tiles each, 16 x 16 tiles of 128 x 128), 3 and 6 stages, K = 256 and
512 (the slope between them is 8 or 4 k-steps a tile). Every footprint is resident warm (at most 34
MB). The harness records each L2 state's placement (%smid). Added in a second call, the same day:
the held-out family's own program (`tests/golden/holdout3/shared/p02`, its tile loop counted at run
time) at K = 256, 512 and 1024, and this probe's `gemm_c64_s3` at K = 1024 beside it.

Rule, stated before the run (2026-11-29): data only. Nothing is fitted to it or adopted by it in the
session that takes it; a mechanism read off it states its rule before it is judged.

    scripts/gen_share_step_probe.py [DIR]"""
import copy
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "share_step_probe")
os.makedirs(dest, exist_ok=True)

TILES = 16  # output tiles a side: M = N = 2048
with open(os.path.join(top, "tests", "golden", "holdout3", "shared", "p02_c64_r128_s3_m2048_n2048_k1024.json")) as src:
    FAMILY = json.load(src)


def tensor(blocks, k):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [k, 128 * blocks],
            "global_strides": [2 * k], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def program(name, sharing, ctas, stages, k):
    a_row = "cta" if sharing in ("a_private", "private") else "(cta + SMS * i) / NT"
    b_col = "cta" if sharing in ("b_private", "private") else "(cta + SMS * i) % NT"
    step = "(i * KT + k)"
    body = [{"if": f"{step} >= S", "wait": f"{step} % S", "phase": f"{step} / S - 1"},
            {"arrive": f"{step} % S", "bytes": "bytes_A + bytes_B"},
            {"load": "A", "coords": ["64 * k", f"128 * ({a_row})"], "smem_offset": f"{step} % S * 32768",
             "barrier": f"{step} % S"},
            {"load": "B", "coords": ["64 * k", f"128 * ({b_col})"], "smem_offset": f"{step} % S * 32768 + 16384",
             "barrier": f"{step} % S"}]
    last = "TT / SMS * KT - 1"
    return {"name": f"share_step_probe/{name}", "comment": "scripts/gen_share_step_probe.py",
            "params": {"SMS": ctas, "S": stages, "K": k, "NT": TILES, "TT": TILES * TILES, "KT": "K / 64"},
            "tensors": {"A": tensor(max(TILES, ctas) if a_row == "cta" else TILES, k),
                        "B": tensor(max(TILES, ctas) if b_col == "cta" else TILES, k)},
            "ctas": [{"count": "SMS", "barriers": [1] * stages, "program": [
                {"loop": "i", "count": "TT / SMS", "body": [{"loop": "k", "count": "KT", "body": body}]},
                {"loop": "d", "count": "S", "body": [
                    {"if": f"{last} - d >= 0", "wait": f"({last} - d) % S", "phase": f"({last} - d) / S"}]}]}]}


def save(name, scenario):
    with open(os.path.join(dest, name + ".json"), "w") as f:
        json.dump(scenario, f, indent=1)
        f.write("\n")


def family_at(k):
    """The family's own program (tests/golden/holdout3/shared/p02: its tile loop counted at run
    time) with K = k."""
    family = copy.deepcopy(FAMILY)
    family["params"]["K"] = k
    family["name"] = f"share_step_probe/family_p02_c64_s3_k{k}"
    family["comment"] = f"tests/golden/holdout3/shared/p02 as written there, with K = {k}"
    for t in family["tensors"].values():
        t["global_dims"][0], t["global_strides"] = k, [2 * k]
    return family


def main():
    names = []
    for sharing in ("gemm", "a_private", "b_private", "private"):
        for ctas in (64, 128):
            for stages in (3, 6):
                for k in (256, 512):
                    names.append(f"{sharing}_c{ctas}_s{stages}_k{k}")
                    save(names[-1], program(names[-1], sharing, ctas, stages, k))
    for k in (256, 512, 1024):
        names.append(f"family_p02_c64_s3_k{k}")
        save(names[-1], family_at(k))
    names.append("gemm_c64_s3_k1024")  # this probe's loop beside the family's at K = 1024
    save(names[-1], program(names[-1], "gemm", 64, 3, 1024))
    print(f"gen_share_step_probe: {len(names)} scenarios in {dest}")


if __name__ == "__main__":
    main()
