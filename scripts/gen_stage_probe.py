#!/usr/bin/env python3
"""Writes tests/golden/stage_probe/: examples/gemm_hopper.json (CTA-scope releases) at other stage
counts and tiles, for the two misses tests/golden/arrive_scope_probe left (issue 30), data for a later
session; nothing is adopted from it in the session that wrote it.

- `stages/` (calibration): 4096^3, 128x256, 2x1 clusters, 2, 3 and 4 stages; and 128x128, 2x1, 2-6
  stages. The H100 lost 29% from 4 stages to 3 where the model lost 11%: how long a stage's round trip
  (release, multicast load under full L2 load, wait) really is.
- `tiles/` (validation): BM = 256 and 128 with BN = 128, in 1x1, 1x2 and 2x1 clusters, 4 stages. The
  model was 7-12% slow for 256x128 in 1x2 (each warpgroup reads B twice a k-step: the shared-memory
  data path near its 128 bytes a cycle); is it the tile, the cluster shape or the multicast of A?

    scripts/gen_stage_probe.py [DIR]"""
import copy
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "stage_probe")
with open(os.path.join(top, "examples", "gemm_hopper.json")) as f:
    EXAMPLE = json.load(f)

PROGRAMS = {  # family/name: (BM, BN, STAGES, CLUSTER_M, CLUSTER_N)
    "stages/128x256_2x1_s2": (128, 256, 2, 2, 1),
    "stages/128x256_2x1_s3": (128, 256, 3, 2, 1),
    "stages/128x256_2x1_s4": (128, 256, 4, 2, 1),
    "stages/128x128_2x1_s2": (128, 128, 2, 2, 1),
    "stages/128x128_2x1_s3": (128, 128, 3, 2, 1),
    "stages/128x128_2x1_s4": (128, 128, 4, 2, 1),
    "stages/128x128_2x1_s6": (128, 128, 6, 2, 1),
    "tiles/256x128_1x1_s4": (256, 128, 4, 1, 1),
    "tiles/256x128_1x2_s4": (256, 128, 4, 1, 2),
    "tiles/256x128_2x1_s4": (256, 128, 4, 2, 1),
    "tiles/128x128_1x1_s4": (128, 128, 4, 1, 1),
    "tiles/128x128_1x2_s4": (128, 128, 4, 1, 2),
}
split = []
for path, (bm, bn, stages, cm, cn) in PROGRAMS.items():
    s = copy.deepcopy(EXAMPLE)
    s["params"].update({"M": 4096, "N": 4096, "K": 4096, "BM": bm, "BN": bn, "STAGES": stages, "CLUSTER_M": cm,
                        "CLUSTER_N": cn})
    s["name"] = f"stage_probe/{path}"
    os.makedirs(os.path.join(dest, os.path.dirname(path)), exist_ok=True)
    with open(os.path.join(dest, path + ".json"), "w") as f:
        json.dump(s, f, indent=1)
        f.write("\n")
    split.append(f"{'calibration' if path.startswith('stages/') else 'validation'} {path}.json")
with open(os.path.join(dest, "split.txt"), "w") as f:
    f.write("\n".join(sorted(split)) + "\n")
print(f"gen_stage_probe: {len(PROGRAMS)} scenarios in {dest}")
