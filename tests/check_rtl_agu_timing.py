#!/usr/bin/env python3
"""With tma.agu = "rtl" the simulated time follows the RTL generator's own cycles.

1. Set-up latency: the RTL's set-up multiplies coordinates digit-serially, one bit per cycle, so
   a load at row 2^19 + t takes about 19 more set-up cycles than one at row t. Two dependent
   streams of 256 one-row loads that differ only in that coordinate: with the C++ generator
   (fixed agu_latency_cycles) their cycles differ only by the memory system's response to the
   other addresses; with the RTL the far stream must take at least 8 cycles per load longer
   than that difference.
2. Width: the same stream of 64x64 fp16 tiles with the RTL at 16 bytes per beat
   (agu_bytes_per_cycle 16, tma_agu Chunks = 1) must take longer than at 128 (Chunks = 8):
   each row is 8 beats instead of 1.

usage: check_rtl_agu_timing.py TMASIM WORKDIR     prints 'N passed, M failed'"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
tmasim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
checks = Checks()
LOADS = 256


def config(name, **tma):
    with open(os.path.join(TOP, "configs", "h100.json")) as f:
        c = json.load(f)
    c["tma"].update(tma)
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(c, f)
    return path


def scenario(name, tensor, body, count):
    s = {"name": name, "tensors": {"T": tensor},
         "ctas": [{"count": 1, "program": [{"loop": "t", "count": count, "body": body}]}]}
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(s, f)
    return path


def cycles(scenario_path, config_path):
    stats = os.path.join(work, "stats.json")
    subprocess.run([tmasim, "run", scenario_path, "--config", config_path, "--stats", stats], check=True,
                   stdout=subprocess.DEVNULL)
    with open(stats) as f:
        return json.load(f)["cycles"]


cpp = config("cpp", agu="cpp")
rtl = config("rtl", agu="rtl")
rows = {"mode": "tiled", "dtype": "uint8", "rank": 2, "global_dims": [16, 1 << 20], "global_strides": [16],
        "box_dims": [16, 1], "element_strides": [1, 1], "swizzle": "none"}
streams = {}
for base in (0, 1 << 19):
    body = [{"arrive": "0", "bytes": "bytes_T"},
            {"load": "T", "coords": [0, f"{base} + t"], "smem_offset": "0", "barrier": "0"},
            {"wait": "0", "phase": "t"}]
    streams[base] = scenario(f"rows_at_{base}", rows, body, LOADS)
c_near, c_far = cycles(streams[0], cpp), cycles(streams[1 << 19], cpp)
r_near, r_far = cycles(streams[0], rtl), cycles(streams[1 << 19], rtl)
extra = (r_far - r_near) - (c_far - c_near)
print(f"cpp: {c_near:.0f} / {c_far:.0f} cycles; rtl: {r_near:.0f} / {r_far:.0f}; "
      f"the RTL's set-up adds {extra / LOADS:.1f} cycles per far load")
checks(extra >= 8 * LOADS, "rows at 2^19 + t cost the RTL's longer digit-serial set-up (>= 8 cycles a load)")
checks(r_near >= c_near - 0.01 * c_near, "the RTL path is not faster than the C++ one on near rows")

tiles = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 8192], "global_strides": [128],
         "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}
body = [{"arrive": "0", "bytes": "bytes_T"},
        {"load": "T", "coords": [0, "64 * t"], "smem_offset": "0", "barrier": "0"},
        {"wait": "0", "phase": "t"}]
stream = scenario("tiles", tiles, body, 64)
narrow = cycles(stream, config("rtl16", agu="rtl", agu_bytes_per_cycle=16))
wide = cycles(stream, config("rtl128", agu="rtl", agu_bytes_per_cycle=128))
print(f"64x64 fp16 tiles: RTL at 16 bytes per beat {narrow:.0f} cycles, at 128 {wide:.0f}")
checks(narrow > wide + 64 * 64 * 7 * 0.5, "16 bytes per beat: each 128-byte row takes 8 beats, not 1")
checks.finish()
