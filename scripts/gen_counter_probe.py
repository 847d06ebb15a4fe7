#!/usr/bin/env python3
"""Writes tests/golden/counter_probe/: where the real-size GEMM feed's 22% goes, read off the H100's
own counters (issue 29).

Why: tests/golden/gemm_feed_8192 runs 22% slower on the H100 than the model says. The model is bound
there by its DRAM, moving the fewest bytes the feed can (one pass over A, 31-32 over B: 4.36 GB) at
2.7 TB/s; the H100 would move the same bytes at 2.1 TB/s, though its DRAM streams 3.1 TB/s
(tests/golden/dram_probe). Either the H100 reads more than those bytes (lines shared by CTAs leave
its L2 before their last reader comes) or something else than its DRAM binds it. ncu's DRAM and L2
counters tell the two apart; the dram_probe's footprint programs get the same counters, which say
how much of a footprint read from one or both halves of the L2 stays resident.

This script writes one new scenario, `gemm_feed_8192_stamped` (the feed with a stamp at each tile's
start: how far the CTAs that share a B tile, 64 apart, drift from each other), and `list.txt`, the
programs the device call runs, paths relative to tests/golden.

    scripts/gen_counter_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
import gen_gemm_feed_8192  # noqa: E402
from probe_files import write_programs  # noqa: E402

dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "counter_probe")

PROGRAMS = ["gemm_feed_8192/gemm_feed_8192.json", "gemm_feed_8192/gemm_feed_8192_kt16.json",
            "counter_probe/gemm_feed_8192_stamped.json",
            "dram_probe/pitch_p16384.json", "dram_probe/fit_f32.json", "dram_probe/fit_f40.json",
            "dram_probe/fit_f48.json", "dram_probe/swap_f32.json", "dram_probe/swap_f40.json"]


def stamped():
    prog = gen_gemm_feed_8192.feed("gemm_feed_8192_stamped", 8192)
    prog["name"] = "counter_probe/gemm_feed_8192_stamped"
    prog["comment"] = "scripts/gen_counter_probe.py: gemm_feed_8192 with a stamp at each tile's start"
    return gen_gemm_feed_8192.with_tile_stamps(prog)


def main():
    write_programs(dest, {"gemm_feed_8192_stamped": stamped()}, tool="gen_counter_probe")
    with open(os.path.join(dest, "list.txt"), "w") as f:
        f.write("\n".join(PROGRAMS) + "\n")
    print(f"gen_counter_probe: list.txt, the {len(PROGRAMS)} programs of the device call")


if __name__ == "__main__":
    main()
