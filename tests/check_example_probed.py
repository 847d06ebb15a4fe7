#!/usr/bin/env python3
"""The example a user runs is the program the H100 judged: examples/gemm_hopper.json, as
committed, is tests/golden/arrive_scope_probe/gemm/m4096_n4096_k4096_128x256_s4_2x1.json but for
its name (scripts/gen_arrive_scope_probe.py copies it), so its ctests judge the example itself.

    check_example_probed.py EXAMPLE PROBED"""
import json
import sys

example, probed = (json.load(open(p)) for p in sys.argv[1:3])
example.pop("name", None)
probed.pop("name", None)
if example != probed:
    keys = sorted(k for k in set(example) | set(probed) if example.get(k) != probed.get(k))
    sys.exit(f"{sys.argv[1]} is not the program the H100 ran ({sys.argv[2]}): they differ in {keys}; "
             "rerun scripts/gen_arrive_scope_probe.py and the probe on the GPU")
print(f"{sys.argv[1]}: the program of {sys.argv[2]}")
