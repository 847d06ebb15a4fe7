#!/usr/bin/env python3
"""Writes tests/golden/epilogue_probe/: thread stores into shared memory for an epilogue (`write`,
stmatrix.x4) and the fence before a TMA store (`fence`, fence.proxy.async) on the H100 (issue 30).

Why: a GEMM's epilogue stages C in shared memory with stmatrix, fences the async proxy and stores
the tile with the TMA; its bank conflicts (an unswizzled staging buffer) and its cost beside the
TMA traffic were a `delay` before. The model's `write` books stmatrix.x4 wavefronts on the SM's
shared-memory path (the conflict rules of tmasim/conflicts.hpp, judged by silicon in
tests/golden/smem_patterns.jsonl.gz); its two costs need reading off.

Rule stated before the run: `thread.stmatrix_cycles` is the median over write/128b_* (no conflicts)
of the cycles a stmatrix.x4 (stamps around a loop of 32 tiles of 16); `thread.fence_proxy_cycles`
the median over fence/* of the per-iteration difference between a loop of one stmatrix.x4 and a
fence and the same loop fenced once after it. Both families are calibration. The model is then
judged, unchanged, on epi/* (validation): write, fence, TMA store, wait for its read, 16 tiles,
at one CTA and 132, unswizzled and swizzled.

    scripts/gen_epilogue_probe.py [DIR]"""
import os
import sys

from probe_files import write_programs  # a script beside this one

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "epilogue_probe")
SWIZZLES = ("none", "32b", "64b", "128b")


def tensor(swizzle, rows, ctas):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, rows * ctas], "global_strides": [128],
            "box_dims": [64 if swizzle in ("none", "128b") else {"32b": 16, "64b": 32}[swizzle], rows],
            "element_strides": [1, 1], "swizzle": swizzle}


def scenario(name, ctas, program, tensors=None):
    return {"name": f"epilogue_probe/{name}", "comment": "scripts/gen_epilogue_probe.py",
            "tensors": tensors or {}, "ctas": [{"count": ctas, "var": "cta", "barriers": [1], "threads": [
                {"name": "epilogue", "program": program}]}]}


def write(swizzle, rows=64, cols=64, offset=0):
    return {"write": {"rows": rows, "cols": cols, "dtype": "float16", "swizzle": swizzle, "smem_offset": offset}}


def main():
    progs, split = {}, {}

    def add(family, name, prog, half):
        progs[f"{family}/{name}"] = prog
        split[f"{family}/{name}.json"] = half

    for sw in SWIZZLES:
        for rows in (64, 128):
            nm = f"{sw}_r{rows}"
            add("write", nm, scenario(f"write/{nm}", 1, [
                {"stamp": "start"},
                {"loop": "i", "count": 32, "body": [write(sw, rows)]},
                {"stamp": "end"}, {"fence": "proxy_async"}]), "calibration")
    for each in (True, False):
        nm = "each" if each else "once"
        body = [write("128b", 16, 16)] + ([{"fence": "proxy_async"}] if each else [])
        add("fence", nm, scenario(f"fence/{nm}", 1, [
            {"stamp": "start"}, {"loop": "i", "count": 64, "body": body}, {"stamp": "end"}]
            + ([] if each else [{"fence": "proxy_async"}])), "calibration")
    for sw in ("none", "64b", "128b"):
        for ctas in (1, 132):
            nm = f"{sw}_c{ctas}"
            # A tile a CTA: 64 rows of 64 fp16 (one box of 128-byte rows, or 2-4 boxes of narrower swizzles).
            boxes = 64 // tensor(sw, 64, 1)["box_dims"][0]
            body = [write(sw), {"fence": "proxy_async"}]
            body += [{"store": "C", "coords": [f"{k * 64 // boxes}", "64 * cta"], "smem_offset": k * 64 * 128 // boxes}
                     for k in range(boxes)]
            body += [{"wait_stores": 0, "read_only": True}]
            add("epi", nm, scenario(f"epi/{nm}", ctas, [
                {"loop": "i", "count": 16, "body": body}, {"stamp": "end"}], {"C": tensor(sw, 64, ctas)}),
                "validation")
    write_programs(dest, progs, split, "gen_epilogue_probe")


if __name__ == "__main__":
    main()
