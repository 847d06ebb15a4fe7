#!/usr/bin/env python3
"""Writes tests/golden/gemm_feed_8192/*.json: issue 29's real-size GEMM feed, the loads an 8192^3
fp16 GEMM makes on the H100 (judging data: nothing is fitted to it or adopted by it).

132 persistent CTAs, one producer warp each, walk the 64 x 64 output tiles of 128 x 128 round-robin
(tile = cta + 132 i: 31 tiles a CTA, 32 for the first four); per tile 128 k-steps of two 16 KiB
boxes (A: 128 rows x 64 K of an 8192 x 8192 K-major matrix, B likewise) through 4 stages of
32 KiB. An A tile is read by the CTAs of one row of tiles (consecutive CTAs), a B tile by the 2-3
CTAs 64 apart: the L2 sharing of a real GEMM at the size cuBLAS runs it. `gemm_feed_8192_kt16`
is the same feed with K = 1024 (16 k-steps a tile): the same sharing with a footprint (32 MiB)
that fits the L2.

    scripts/gen_gemm_feed_8192.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "gemm_feed_8192")
os.makedirs(dest, exist_ok=True)


def tmap(rows, k):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": ["K", rows],
            "global_strides": ["K * 2"], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def feed(name, k):
    return {"name": f"gemm_feed_8192/{name}", "comment": "scripts/gen_gemm_feed_8192.py",
            "params": {"M": 8192, "N": 8192, "K": k, "S": 4, "SMS": 132, "MT": "M / 128", "NT": "N / 128",
                       "TT": "MT * NT", "KT": "K / 64"},
            "tensors": {"A": tmap("M", k), "B": tmap("N", k)},
            "ctas": [{"count": "SMS", "barriers": [1] * 4, "program": [
                {"loop": "i", "count": "(TT - cta + SMS - 1) / SMS", "body": [
                    {"loop": "k", "count": "KT", "body": [
                        {"if": "i * KT + k >= S", "wait": "(i * KT + k) % S", "phase": "(i * KT + k) / S - 1"},
                        {"arrive": "(i * KT + k) % S", "bytes": "bytes_A + bytes_B"},
                        {"load": "A", "coords": ["64 * k", "128 * ((cta + SMS * i) / NT)"],
                         "smem_offset": "(i * KT + k) % S * 32768", "barrier": "(i * KT + k) % S"},
                        {"load": "B", "coords": ["64 * k", "128 * ((cta + SMS * i) % NT)"],
                         "smem_offset": "(i * KT + k) % S * 32768 + 16384", "barrier": "(i * KT + k) % S"}]}]},
                {"loop": "s", "count": "S", "body": [
                    {"wait": "s", "phase": "(((TT - cta + SMS - 1) / SMS) * KT - 1 - s) / S"}]}]}]}


def with_tile_stamps(prog):
    """The feed with a stamp at each tile's start and one at its end (the counter and drift probes)."""
    prog["ctas"][0]["program"][0]["body"].insert(0, {"stamp": "tile"})
    prog["ctas"][0]["program"].append({"stamp": "end"})
    return prog


def main():
    progs = {"gemm_feed_8192": feed("gemm_feed_8192", 8192), "gemm_feed_8192_kt16": feed("gemm_feed_8192_kt16", 1024)}
    for name, prog in progs.items():
        with open(os.path.join(dest, name + ".json"), "w") as f:
            json.dump(prog, f, indent=1)
            f.write("\n")
    print(f"gen_gemm_feed_8192: {len(progs)} scenarios in {dest}")


if __name__ == "__main__":
    main()
