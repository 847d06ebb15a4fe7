#!/usr/bin/env python3
"""Writes tests/golden/dirty_probe/*.json: what the harness's dirty L2 (`cold`) costs reads, against a
clean one (`cold_clean`), at one CTA and at many (issue 29).

Why: the corpus's streams pay the dirty start on the H100 at every grid, the model only where its
DRAM is the bound. At 1-16 CTAs the H100's cold runs are 4-19% slower than its cold_clean ones
(waves/stream_c1_s2 +309 cycles, stream_c16_s4 +919), the model's the same (+0..+148): its
write-backs of the flush's dirty lines cost DRAM bandwidth, never a miss's latency. At 132-264 CTAs
the model pays more than the H100 (stream_c132_s2 +4640 cycles against +3554). Whether the H100's
cost is a miss's (each read that follows write-backs waits) or the start's (the flush's dirty lines
drain in the background for a while after it) is what this probe separates: the penalty's slope
over the number of loads, and what a spin before the loads leaves of it.

Every program: 16 KiB boxes (64 x 128 fp16, 128-byte swizzle), each CTA its own tiles, a ring of S
stages, each stage waited for before it is loaded again:
  lat_c1_nN         one CTA, S = 1, N = 8, 16, 32 loads: latency alone
  lat_c1_dD_n16     the same with a `delay` of D = 20000 or 100000 cycles before the first load
  row_c1_nN         one CTA, S = 1, N = 32, 64 loads of one 128-byte row (one line each)
  lat_c16_s2_nN     16 CTAs, S = 2, N = 8, 16, 32
  bw_c132_s4_nN     132 CTAs, S = 4, N = 8, 16, 32 (17-69 MB: the DRAM's bound)
  bw_c132_d100k_s4_n16   the same at N = 16 after a 100000-cycle spin

    scripts/gen_dirty_probe.py [DIR]"""
from probe_files import load_ring, probe_dest, write_programs

TOTAL_TILES = 132 * 32


def tensor(rows):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 128 * TOTAL_TILES],
            "global_strides": [128], "box_dims": [64, rows], "element_strides": [1, 1], "swizzle": "128b"}


def program(name, ctas, stages, loads, rows=128, delay=0, probe="dirty_probe"):
    body, drain = load_ring("X", loads, stages, f"128 * (cta * {loads} + i)", rows * 128)
    start = [{"delay": delay}] if delay else []
    return {"name": f"{probe}/{name}", "comment": f"scripts/gen_{probe}.py",
            "tensors": {"X": tensor(rows)},
            "ctas": [{"count": ctas, "barriers": [1] * stages,
                      "program": start + [{"loop": "i", "count": loads, "body": body}] + drain}]}


def main():
    programs = {}
    for n in (8, 16, 32):
        programs[f"lat_c1_n{n}"] = program(f"lat_c1_n{n}", 1, 1, n)
    for d in (20000, 100000):
        programs[f"lat_c1_d{d // 1000}k_n16"] = program(f"lat_c1_d{d // 1000}k_n16", 1, 1, 16, delay=d)
    for n in (32, 64):
        programs[f"row_c1_n{n}"] = program(f"row_c1_n{n}", 1, 1, n, rows=1)
    for n in (8, 16, 32):
        programs[f"lat_c16_s2_n{n}"] = program(f"lat_c16_s2_n{n}", 16, 2, n)
    for n in (8, 16, 32):
        programs[f"bw_c132_s4_n{n}"] = program(f"bw_c132_s4_n{n}", 132, 4, n)
    programs["bw_c132_d100k_s4_n16"] = program("bw_c132_d100k_s4_n16", 132, 4, 16, delay=100000)
    write_programs(probe_dest("dirty_probe"), programs, tool="gen_dirty_probe")


if __name__ == "__main__":
    main()
