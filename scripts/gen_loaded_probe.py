#!/usr/bin/env python3
"""Writes tests/golden/loaded_probe/*.json: a lone reader's miss latency while other CTAs load the
DRAM with reads or writes at rising rates (issue 29).

Why: the corpus's epilogue loop at 132 CTAs (load a 16 KiB tile, wait for it, store it back) is
14-30% fast in the model in every L2 state, while at 1 and 16 CTAs it is within a few per cent. Each
CTA there has one load in flight at a time, so its pace is a miss's latency under the others'
traffic (about 3800 cycles a tile on the H100 at ~1100 B/cycle through the DRAM). The model's DRAM is
one calendar that a request takes the first free time of: under a load short of its bound it adds
little wait. This probe measures the latency curve itself: one CTA's 16 misses, one in flight, with a
stamp after each, beside C CTAs streaming their own tiles at S loads in flight (reads) or storing
(writes), whose own pace gives the load's bytes a cycle.

Programs (16 KiB boxes, 64 x 128 fp16, 128-byte swizzle; the reader is the grid's first CTA):
  rd_alone            the reader alone: 16 loads, S = 1, a stamp after each wait
  rd_bgC_sS           the reader beside C CTAs each loading 64 of its own tiles through S stages;
                      C = 33, 66, 131; S = 1, 2, 4
  rd_wrC              the reader beside C CTAs each storing 64 tiles of its shared memory (up to 4
                      stores in flight: wait_stores 3, read_only); C = 66, 131

    scripts/gen_loaded_probe.py [DIR]"""
from probe_files import load_ring, probe_dest, write_programs

READS = 16
BG_LOADS = 64
BG_ROWS = 128 * 132 * BG_LOADS


def tensor(rows):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, rows], "global_strides": [128],
            "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def reader(reads=READS):
    steps = [{"stamp": "start"}]
    for j in range(reads):
        steps += [{"arrive": "0", "bytes": "bytes_R"},
                  {"load": "R", "coords": ["0", str(128 * j)], "smem_offset": "0", "barrier": "0"},
                  {"wait": "0", "phase": str(j)},
                  {"stamp": f"load{j}"}]
    return {"count": 1, "var": "r", "barriers": [1], "program": steps}


def readers(ctas, stages):
    body, drain = load_ring("X", BG_LOADS, stages, f"128 * (b * {BG_LOADS} + i)", 16384)
    return {"count": ctas, "var": "b", "barriers": [1] * stages,
            "program": [{"loop": "i", "count": BG_LOADS, "body": body}] + drain}


def writers(ctas, in_flight=4, stores=BG_LOADS):
    """`ctas` CTAs each storing `stores` of its own tiles, up to `in_flight` of them unread at a time."""
    body = [{"if": f"i >= {in_flight}", "wait_stores": in_flight - 1, "read_only": True},
            {"store": "Y", "coords": ["0", f"128 * (b * {stores} + i)"], "smem_offset": f"(i % {in_flight}) * 16384"}]
    return {"count": ctas, "var": "b",
            "program": [{"loop": "i", "count": stores, "body": body}, {"wait_stores": 0}]}


def program(name, groups, tensors, probe="loaded_probe"):
    return {"name": f"{probe}/{name}", "comment": f"scripts/gen_{probe}.py", "tensors": tensors,
            "ctas": groups}


def main():
    r = {"R": tensor(128 * READS)}
    programs = {"rd_alone": program("rd_alone", [reader()], r)}
    for c in (33, 66, 131):
        for s in (1, 2, 4):
            name = f"rd_bg{c}_s{s}"
            programs[name] = program(name, [reader(), readers(c, s)], {**r, "X": tensor(BG_ROWS)})
    for c in (66, 131):
        name = f"rd_wr{c}"
        programs[name] = program(name, [reader(), writers(c)], {**r, "Y": tensor(BG_ROWS)})
    write_programs(probe_dest("loaded_probe"), programs, tool="gen_loaded_probe")


if __name__ == "__main__":
    main()
