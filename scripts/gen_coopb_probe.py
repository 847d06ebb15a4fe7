#!/usr/bin/env python3
"""Writes tests/golden/coopb_probe/: examples/gemm_hopper.json with its consumer warpgroups
splitting the tile by columns (COOP_B 1, cuBLAS's "coopB" kernels) at the tiles cuBLAS chose for
the calls the example could not express before (tests/golden/attention_probe/library_shapes.jsonl,
gemm_launch.jsonl): 192x192 with 4 stages (6144^3 and 16384x16384x1024; clusters 1x2 for fp16,
2x1 for bf16, run here in fp16: the same rate) and 320x128 with 3 stages, 1x2 (8192^3).

Role, declared before the run: `gemm/` is judged only (nothing is fitted to it): the model against
each emitted program at the run's clock, and the emitted program against cuBLAS's time.

    scripts/gen_coopb_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "coopb_probe")
PROGRAMS = {  # name: (M, N, K, BM, BN, STAGES, CLUSTER_M, CLUSTER_N)
    "m6144_n6144_k6144_192x192_s4_1x2": (6144, 6144, 6144, 192, 192, 4, 1, 2),
    "m6144_n6144_k6144_192x192_s4_2x1": (6144, 6144, 6144, 192, 192, 4, 2, 1),
    "m16384_n16384_k1024_192x192_s4_1x2": (16384, 16384, 1024, 192, 192, 4, 1, 2),
    "m16384_n16384_k1024_192x192_s4_2x1": (16384, 16384, 1024, 192, 192, 4, 2, 1),
    "m8192_n8192_k8192_320x128_s3_1x2": (8192, 8192, 8192, 320, 128, 3, 1, 2),
}


def main():
    with open(os.path.join(top, "examples", "gemm_hopper.json")) as f:
        example = json.load(f)
    os.makedirs(os.path.join(dest, "gemm"), exist_ok=True)
    for name, (m, n, k, bm, bn, stages, cm, cn) in PROGRAMS.items():
        s = json.loads(json.dumps(example))
        s["params"].update({"M": m, "N": n, "K": k, "BM": bm, "BN": bn, "STAGES": stages, "CLUSTER_M": cm,
                            "CLUSTER_N": cn, "COOP_B": 1})
        s["name"] = f"coopb_probe/gemm/{name}"
        with open(os.path.join(dest, "gemm", name + ".json"), "w") as f:
            json.dump(s, f, indent=1)
            f.write("\n")
    with open(os.path.join(dest, "split.txt"), "w") as f:
        f.write("# role of each family (scripts/gen_coopb_probe.py)\ngemm/ validation\n")


if __name__ == "__main__":
    main()
