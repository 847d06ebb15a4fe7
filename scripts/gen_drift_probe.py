#!/usr/bin/env python3
"""Writes tests/golden/drift_probe/*.json: is the real-size GEMM feed's slowdown over its tiles the
DRAM's, or the sharing its CTAs lose as they drift apart? (issue 29)

Why: on the H100 the feed's tiles take 109 k cycles at first and about 130 k from the 12th on
(tests/golden/counter_probe: the stamped feed), its CTAs drifting four tiles apart and its DRAM
reads 23% above what its sharing needs; the model's tiles take 97.5-100 k throughout. Either the
lost sharing slows the tiles, or the DRAM itself runs slower after the first ~50 us (its counters
then show only the bytes, not the rate).

  feed_private: the feed's loop (132 CTAs, 128 k-steps a tile of two 16 KiB K-major boxes, rows
      16 KiB apart, 4 stages) with nothing shared: CTA c's tile i reads A and B row blocks
      (c + 132 i) mod 248 (two tensors of 496 MiB, the scenario's 1 GiB budget; a block comes back
      after 264 MiB or more of other reads, far past the L2). 8 tiles a CTA: 4.4 GB from DRAM,
      about 1.5 ms; a stamp at each tile's start. Its tiles' times say whether the DRAM slows over
      a run this long.
  feed_scrambled: feed_private with CTA c's tile i reading block (37 c + 132 i) mod 248 (37 is prime
      to 248: still one block a CTA a tile), so that the two CTAs of a TPC (c = 2k, 2k + 1 on SMs
      2j, 2j + 1) no longer read neighbouring blocks: whether the H100's faster SMs come in TPC
      pairs for the TPC's sake or for their neighbouring addresses'.
  feed_private_c66: feed_private with 66 CTAs: is the service uneven with half the SMs at work?
  hits_private: 132 CTAs each reading its own 8 boxes of 16 KiB (16.5 MiB in all: resident warm)
      64 times over (512 loads, 4 stages), a stamp every 64 loads: with no DRAM in the way (warm),
      is the L2's service to the SMs uneven too, and by TPC?
  feed_shared8: the feed itself (A and B tiles shared as there), 8 tiles a CTA, stamped the same way.

    scripts/gen_drift_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
import gen_gemm_feed_8192  # noqa: E402
from probe_files import write_programs  # noqa: E402

dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "drift_probe")
TILES, SMS, BLOCKS = 8, 132, 248


def shared8():
    prog = gen_gemm_feed_8192.feed("feed_shared8", 8192)
    prog["name"], prog["comment"] = "drift_probe/feed_shared8", "scripts/gen_drift_probe.py"
    prog["ctas"][0]["program"][0]["count"] = TILES
    prog["ctas"][0]["program"][1]["body"][0]["phase"] = f"({TILES} * KT - 1 - s) / S"
    return gen_gemm_feed_8192.with_tile_stamps(prog)


def unshared(name, block):
    """feed_shared8 whose A and B loads of CTA `cta`'s tile `i` read row block `block` of their own."""
    prog = shared8()
    prog["name"] = f"drift_probe/{name}"
    prog["params"]["M"] = prog["params"]["N"] = 128 * BLOCKS
    for step in prog["ctas"][0]["program"][0]["body"][1]["body"]:
        if "load" in step:
            step["coords"][1] = f"128 * ({block})"
    return prog


def private():
    return unshared("feed_private", f"(cta + SMS * i) % {BLOCKS}")


def scrambled():
    return unshared("feed_scrambled", f"(37 * cta + SMS * i) % {BLOCKS}")


def private_c66():
    prog = private()
    prog["name"] = "drift_probe/feed_private_c66"
    prog["ctas"][0]["count"] = 66
    return prog


def hits_private():
    loads, boxes = 512, 8
    return {"name": "drift_probe/hits_private", "comment": "scripts/gen_drift_probe.py",
            "params": {"S": 4, "N": loads},
            "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 128 * boxes * SMS],
                              "global_strides": [128], "box_dims": [64, 128], "element_strides": [1, 1],
                              "swizzle": "128b"}},
            "ctas": [{"count": SMS, "barriers": [1] * 4, "program": [
                {"loop": "t", "count": "N", "body": [
                    {"if": "t % 64 == 0", "stamp": "pass"},
                    {"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"},
                    {"arrive": "t % S", "bytes": "bytes_T"},
                    {"load": "T", "coords": [0, f"128 * (cta * {boxes} + t % {boxes})"],
                     "smem_offset": "(t % S) * 16384", "barrier": "t % S"}]},
                {"loop": "s", "count": "S", "body": [{"wait": "s", "phase": "N / S - 1"}]},
                {"stamp": "end"}]}]}


def main():
    write_programs(dest, {"feed_private": private(), "feed_scrambled": scrambled(), "feed_shared8": shared8(),
                          "feed_private_c66": private_c66(), "hits_private": hits_private()},
                   tool="gen_drift_probe")


if __name__ == "__main__":
    main()
