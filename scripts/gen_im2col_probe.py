#!/usr/bin/env python3
"""Writes tests/golden/im2col_probe/*.json: what a load costs by mode (tiled or im2col, the same bytes
and rows) and by where its thread's armed arrive lies, with no loop arithmetic but multiplications.

Why (issue 29): with `thread.armed_load_holds_thread_only` (the armed load's cost held by the thread,
the load leaving after the issue cost) the corpus's l2reuse loops of arrive, load and wait go from
+27% to +7% warm, but its im2col loops, the same arrive-load-wait shape, from 1.6% to -13% cold: as
if an im2col load cost ~160-200 cycles more than a tiled one of the same bytes on the H100, which the
armed cost now happens to cover. The corpus's im2col loops also divide by 3 (the filter window) and
their 32-bit emitter's code ran 7-12% slower, so the loop's own arithmetic is not ruled out. Here
every loop is nested (c, r, s: the window's offsets are r and s themselves), so the emitted code
multiplies and adds only.

Programs (one CTA; N = 36 and 72 loads, so that a load's cost is the slope; boxes of 64 and 128 rows
of 128 bytes, 8 and 16 KiB):
  {tiled,im2col}_b{8,16}k_serial_n{N}   arrive, load, wait: one load in flight, its load armed
  {tiled,im2col}_b{8,16}k_early_n{N}    one in flight, but each arrive goes before the wait for the
                                        load ahead (two barriers): the load follows a wait
  {tiled,im2col}_b{8,16}k_ring4_n{N}    four in flight (wait for the load four back, arrive, load)

    scripts/gen_im2col_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import write_programs  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = 8  # c runs over images, N / 9 of them


def tensor(mode, rows):
    if mode == "tiled":
        return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, rows * 72],
                "global_strides": [128], "box_dims": [64, rows], "element_strides": [1, 1], "swizzle": "128b"}
    # NHWC 16x16 images of 64 channels, a 3x3 window with padding 1: `rows` pixels a column.
    return {"mode": "im2col", "dtype": "float16", "rank": 4, "global_dims": [64, 16, 16, IMAGES],
            "global_strides": [128, 2048, 32768], "pixel_box_lower_corner": [-1, -1],
            "pixel_box_upper_corner": [-1, -1], "channels_per_pixel": 64, "pixels_per_column": rows,
            "element_strides": [1, 1, 1, 1], "swizzle": "128b"}


def load(mode, barrier, smem):
    step = {"load": "T", "barrier": barrier, "smem_offset": smem}
    if mode == "tiled":
        step["coords"] = [0, "R * (9 * c + 3 * r + s)"]
    else:
        step["coords"] = [0, -1, -1, "c"]
        step["im2col_offsets"] = ["s", "r"]
    return step


def nested(body):
    """c over N / 9, r and s over the 3x3 window; t = 9c + 3r + s is the load's index."""
    return {"loop": "c", "count": "N / 9", "body": [{"loop": "r", "count": 3, "body": [
        {"loop": "s", "count": 3, "body": body}]}]}


T = "(9 * c + 3 * r + s)"


def program(mode, pattern):
    if pattern == "serial":
        return [nested([{"arrive": 0, "bytes": "bytes_T"}, load(mode, 0, 0), {"wait": 0, "phase": T}])]
    if pattern == "early":
        return [nested([{"arrive": f"{T} % 2", "bytes": "bytes_T"},
                        {"if": f"{T} >= 1", "wait": f"({T} - 1) % 2", "phase": f"({T} - 1) / 2"},
                        load(mode, f"{T} % 2", f"({T} % 2) * BOX")]),
                {"wait": "(N - 1) % 2", "phase": "(N - 1) / 2"}]
    return [nested([{"if": f"{T} >= 4", "wait": f"{T} % 4", "phase": f"{T} / 4 - 1"},
                    {"arrive": f"{T} % 4", "bytes": "bytes_T"},
                    load(mode, f"{T} % 4", f"({T} % 4) * BOX")]),
            {"loop": "k", "count": 4, "body": [{"wait": "(N - 4 + k) % 4", "phase": "(N - 4 + k) / 4"}]}]


def main():
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "tests", "golden", "im2col_probe")
    progs = {}
    for mode in ("tiled", "im2col"):
        for rows in (64, 128):
            for pattern in ("serial", "early", "ring4"):
                for n in (36, 72):
                    name = f"{mode}_b{rows // 8}k_{pattern}_n{n}"
                    barriers = {"serial": 1, "early": 2, "ring4": 4}[pattern]
                    progs[name] = {"name": f"im2col_probe/{name}", "params": {"N": n, "R": rows, "BOX": rows * 128},
                                   "tensors": {"T": tensor(mode, rows)},
                                   "ctas": [{"count": 1, "barriers": [1] * barriers, "program": program(mode, pattern)}]}
    write_programs(dest, progs, tool="gen_im2col_probe")


if __name__ == "__main__":
    main()
