#!/usr/bin/env python3
"""Writes tests/golden/sector_probe/*.json: loads (and load-then-store pairs) of boxes whose rows are
narrow (16-128 bytes) and lie `p` bytes apart, at 132 CTAs (and two at 264), to find what the H100
does that the model does not with such rows at scale (issue 29).

Why: the held-out sets' worst random programs are narrow rows at 132-264 CTAs (`holdout8/random/w021`,
16-byte rows 64 bytes apart, the model -72% warm; `holdout8/random/w001` -29%, `holdout7/random/w011`
-63%). The model keeps an L2 line resident once any of its sectors is filled: a row in another sector of
the line then hits and costs no DRAM. The H100's L2 keeps sectors (32 B) apart, and may fetch more
than one. ncu's DRAM and L2 sector counts (scripts/gpu_counters.sh) say how many bytes each row brings
from DRAM; the timings say what rate the L2 serves such rows at when they are resident.

Each program: every CTA a 4-stage ring of N = 16 loads of one box (R rows of w bytes, rows p bytes
apart in a float16 tensor of rows p bytes long: the box reads the first w of each), each CTA its own
rows (cta * N + i) * R on; no swizzle. Names:
  ld_wW_pP        loads only, 132 CTAs
  ld_wW_pP_c264   the same at 264 CTAs (two a SM)
  st_wW_pP        each box loaded, waited for, then stored to a second tensor of the same shape (and
                  waited for before its stage is loaded again), 132 CTAs: the store's partial sectors
The rule is in the README, written before the run.

    scripts/gen_sector_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import load_ring, probe_dest, write_programs  # noqa: E402

dest = probe_dest("sector_probe")
S, N, R = 4, 16, 256
LOADS = [(16, 16), (16, 32), (16, 64), (16, 128), (16, 256), (32, 32), (32, 64), (32, 128), (64, 64), (64, 128),
         (64, 256), (128, 128), (128, 256)]
WIDE = [(16, 64), (32, 128)]
STORES = [(16, 64), (32, 64), (64, 128), (128, 128)]


def tensor(w, p, ctas):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [p // 2, ctas * N * R],
            "global_strides": [p], "box_dims": [w // 2, R], "element_strides": [1, 1], "swizzle": "none"}


def program(w, p, ctas, store):
    slot = w * R
    rows = f"{R} * (cta * {N} + i)"
    if not store:
        body, drain = load_ring("T", N, S, rows, slot)
    else:
        body = [{"arrive": f"i % {S}", "bytes": "bytes_T"},
                {"load": "T", "coords": ["0", rows], "smem_offset": f"(i % {S}) * {slot}", "barrier": f"i % {S}"},
                {"wait": f"i % {S}", "phase": f"i / {S}"},
                {"store": "U", "coords": ["0", rows], "smem_offset": f"(i % {S}) * {slot}"},
                {"wait_stores": 0, "read_only": True}]
        drain = []
    tensors = {"T": tensor(w, p, ctas)}
    if store:
        tensors["U"] = tensor(w, p, ctas)
    return {"tensors": tensors,
            "ctas": [{"count": ctas, "barriers": [1] * S,
                      "program": [{"loop": "i", "count": N, "body": body}] + drain + [{"wait_stores": 0}]}]}


programs = {}
for w, p in LOADS:
    programs[f"ld_w{w}_p{p}"] = program(w, p, 132, False)
for w, p in WIDE:
    programs[f"ld_w{w}_p{p}_c264"] = program(w, p, 264, False)
for w, p in STORES:
    programs[f"st_w{w}_p{p}"] = program(w, p, 132, True)
for name, prog in programs.items():
    prog["name"] = f"sector_probe/{name}"
write_programs(dest, {k: dict(name=v.pop("name"), **v) for k, v in programs.items()}, tool="gen_sector_probe")
