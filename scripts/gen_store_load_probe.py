#!/usr/bin/env python3
"""Writes tests/golden/store_load_probe/*.json: what a TMA store costs the loads around it, one CTA.

Why (issue 29): the corpus's epilogue loop (load a 16 KiB tile, wait for it, store it back from the
same slot, at most F stores unread) is 15-30% fast in the model warm and cold_clean at 1 and 16 CTAs,
about 190 cycles a tile, while the loads alone and the stores alone are within a few percent in
their probes. So the time is in how a store and the loads after it share the SM: the TMA unit, the
shared-memory path the store reads and the load writes, the port.

Programs (N = 16 and 32 tiles of 128 rows of 128 bytes, so that a tile's cost is the slope; four
slots of shared memory; the loop's arithmetic the corpus epilogue's: t % 4, t / 4):
  load_only_n{N}      arrive, load, wait: one load in flight
  load_store_f{F}_n{N} the same, then a store of the tile just loaded; a slot is reused only once at
                      most F stores are unread (F = 0, 1, 3): the corpus's epilogue loop
  store_only_f{F}_n{N} the stores alone, from slots never loaded (F = 0, 3)
  load_store_apart_n{N} the loads all first (four in flight), then the stores: the two never overlap

    scripts/gen_store_load_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import write_programs  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tiled(rows):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, rows], "global_strides": [128],
            "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


ARRIVE = {"arrive": "t % 4", "bytes": "bytes_X"}
LOAD = {"load": "X", "coords": [0, "128 * t"], "smem_offset": "(t % 4) * 16384", "barrier": "t % 4"}
WAIT = {"wait": "t % 4", "phase": "t / 4"}
STORE = {"store": "Y", "coords": [0, "128 * t"], "smem_offset": "(t % 4) * 16384"}
REUSE = {"if": "t >= 4", "wait_stores": "F", "read_only": True}
DRAIN = {"wait_stores": 0}


def program(kind):
    if kind == "load_only":
        return [{"loop": "t", "count": "N", "body": [ARRIVE, LOAD, WAIT]}]
    if kind == "load_store":
        return [{"loop": "t", "count": "N", "body": [REUSE, ARRIVE, LOAD, WAIT, STORE]}, DRAIN]
    if kind == "store_only":
        return [{"loop": "t", "count": "N", "body": [REUSE, STORE]}, DRAIN]
    return [{"loop": "t", "count": "N", "body": [{"if": "t >= 4", "wait": "t % 4", "phase": "t / 4 - 1"}, ARRIVE, LOAD]},
            {"loop": "t", "count": 4, "body": [{"wait": "(N - 4 + t) % 4", "phase": "(N - 4 + t) / 4"}]},
            {"loop": "t", "count": "N", "body": [REUSE, STORE]}, DRAIN]


def main():
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "tests", "golden", "store_load_probe")
    progs = {}
    for n in (16, 32):
        variants = [("load_only", None), ("load_store_apart", 3)]
        variants += [("load_store", f) for f in (0, 1, 3)] + [("store_only", f) for f in (0, 3)]
        for kind, f in variants:
            name = f"{kind}_n{n}" if kind in ("load_only", "load_store_apart") else f"{kind}_f{f}_n{n}"
            params = {"N": n} if f is None else {"N": n, "F": f}
            progs[name] = {"name": f"store_load_probe/{name}", "params": params,
                           "tensors": {"X": tiled(128 * 32), "Y": tiled(128 * 32)},
                           "ctas": [{"count": 1, "barriers": [1, 1, 1, 1], "program": program(kind)}]}
    write_programs(dest, progs, tool="gen_store_load_probe")


if __name__ == "__main__":
    main()
