#!/usr/bin/env python3
"""Writes tests/golden/arrive_scope_probe/: what a remote mbarrier arrive released at CTA scope
costs on the H100, and examples/gemm_hopper.json with such arrivals at the tiles cuBLAS chooses.

Why (issue 30): the example's emitted GEMM took 425 us at 4096^3 where cuBLAS's kernel of the same
tile takes 184 us. Its consumers released each stage with `mbarrier.arrive.release.cluster` (689
cycles each on the H100, tests/golden/microbench); CUTLASS's ClusterBarrier::arrive uses
`mbarrier.arrive.shared::cluster` at the default CTA-scope release. The step now takes
`"scope": "cta"`.

Two families, their roles declared before the run:
- `calib/` (calibration): one warp of each CTA of a cluster of two arrives N times on its own
  rank's or its peer's barrier (N = 16, 64; the cost is the slope), a ping-pong between the two
  CTAs, and N = 8, 32 arrives beside a stream of 128 loads of 16 KiB (cold L2: do the arrivals wait
  for the SM's reads in flight, as the cluster-scope release does?) or beside nothing.
  `thread.remote_arrive_cycles` is the mean slope of `cta_arrive_self` and `cta_arrive_peer`
  (warm). The rule for the reads: if `stream_cta_arrive`'s cold slope exceeds `idle_cta_arrive`'s by
  more than half, the CTA-scope arrive waits for the reads as the cluster-scope one does; else not.
  The cluster-scope programs are run again beside them, the same day's baseline.
- `gemm/` (judging only; nothing is fitted to it): the example with CTA-scope arrivals at the
  tiles, stages and clusters of the cuBLAS kernels in tests/golden/real_kernels/library_shapes.jsonl
  that it can express, and one with cluster-scope arrivals for the difference. Reported: the
  emitted program against the library's time, the model against the program.

    scripts/gen_arrive_scope_probe.py [DIR]"""
import copy
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "arrive_scope_probe")


def save(family, name, scenario):
    os.makedirs(os.path.join(dest, family), exist_ok=True)
    scenario["name"] = f"arrive_scope_probe/{family}/{name}"
    with open(os.path.join(dest, family, name + ".json"), "w") as f:
        json.dump(scenario, f, indent=1)
        f.write("\n")


TENSOR = {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64], "global_strides": [128],
                "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}}
PROLOGUE = [{"arrive": 1, "bytes": "bytes_T"}, {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 1},
            {"wait": 1, "phase": 0}, {"stamp": "loop"}]


def loop_scenario(name, body, n, arrivals=None):
    cta = {"count": 2, "cluster_size": 2, "barriers": [arrivals or 1, 1],
           "program": PROLOGUE + [{"loop": "k", "count": "N", "body": body}, {"stamp": "end"}]}
    save("calib", f"{name}_n{n}", {"params": {"N": n}, "tensors": TENSOR, "ctas": [cta]})


STREAM_T = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 16384], "global_strides": [128],
            "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def stream_scenario(name, arrive, n, loads):
    producer = [{"loop": "t", "count": "LOADS", "body": [
        {"if": "t >= 4", "wait": "1 + t % 4", "phase": "t / 4 - 1"},
        {"arrive": "1 + t % 4", "bytes": "bytes_S"},
        {"load": "S", "coords": [0, "128 * t"], "smem_offset": "(t % 4) * 16384", "barrier": "1 + t % 4"}]},
        {"loop": "t", "count": "(LOADS >= 4) * 4", "body": [
            {"wait": "1 + (LOADS - 1 - t) % 4", "phase": "(LOADS - 1 - t) / 4"}]}]
    arriver = [{"stamp": "loop"}, {"loop": "k", "count": "N", "body": [arrive]}, {"stamp": "end"}]
    cta = {"count": 2, "cluster_size": 2, "barriers": ["N", 1, 1, 1, 1],
           "threads": [{"name": "arriver", "program": arriver}, {"name": "producer", "program": producer}]}
    save("calib", f"{name}_n{n}", {"params": {"N": n, "LOADS": loads}, "tensors": {"S": STREAM_T}, "ctas": [cta]})


for scope in ("cta", "cluster"):
    for n in (16, 64):
        loop_scenario(f"{scope}_arrive_self", [{"arrive": 0, "cta": "cluster_rank", "scope": scope}], n, arrivals=n)
        loop_scenario(f"{scope}_arrive_peer", [{"arrive": 0, "cta": "1 - cluster_rank", "scope": scope}], n, arrivals=n)
        loop_scenario(f"{scope}_pingpong", [{"if": "cluster_rank == 0", "arrive": 0, "cta": 1, "scope": scope},
                                            {"wait": 0, "parity": "k % 2"},
                                            {"if": "cluster_rank == 1", "arrive": 0, "cta": 0, "scope": scope}], n)
    for n in (8, 32):
        stream_scenario(f"stream_{scope}_arrive", {"arrive": 0, "cta": "cluster_rank", "scope": scope}, n, 128)
        stream_scenario(f"idle_{scope}_arrive", {"arrive": 0, "cta": "cluster_rank", "scope": scope}, n, 0)

# The example at the library's tiles. name: (M, N, K, BM, BN, STAGES, CLUSTER_M, CLUSTER_N, scope)
with open(os.path.join(top, "examples", "gemm_hopper.json")) as f:
    EXAMPLE = json.load(f)
GEMMS = {
    # nvjet_sm90_hsh_128x256_64x4_2x1 (2048^3, 4096^3, 2048x2048x8192 and the skewed 4096-K shapes)
    "m2048_n2048_k2048_128x256_s4_2x1": (2048, 2048, 2048, 128, 256, 4, 2, 1, "cta"),
    "m4096_n4096_k4096_128x256_s4_2x1": (4096, 4096, 4096, 128, 256, 4, 2, 1, "cta"),
    "m2048_n2048_k8192_128x256_s4_2x1": (2048, 2048, 8192, 128, 256, 4, 2, 1, "cta"),
    "m16384_n1024_k4096_128x256_s4_2x1": (16384, 1024, 4096, 128, 256, 4, 2, 1, "cta"),
    "m1024_n16384_k4096_128x256_s4_2x1": (1024, 16384, 4096, 128, 256, 4, 2, 1, "cta"),
    "m8192_n2048_k4096_128x256_s4_2x1": (8192, 2048, 4096, 128, 256, 4, 2, 1, "cta"),
    # nvjet_sm90_tst_256x128_64x4_1x2 (the bf16 kernel's tile, run here in fp16: the same rate)
    "m4096_n4096_k4096_256x128_s4_1x2": (4096, 4096, 4096, 256, 128, 4, 1, 2, "cta"),
    "m2048_n2048_k2048_256x128_s4_1x2": (2048, 2048, 2048, 256, 128, 4, 1, 2, "cta"),
    # 8192^3 (cuBLAS: 320x128, 3 stages, 1x2, which the example cannot express)
    "m8192_n8192_k8192_128x256_s4_2x1": (8192, 8192, 8192, 128, 256, 4, 2, 1, "cta"),
    # the earlier runs' programs with CTA-scope arrivals, and the 4-stage kernel with cluster scope
    "m4096_n4096_k4096_128x256_s3_2x1": (4096, 4096, 4096, 128, 256, 3, 2, 1, "cta"),
    "m4096_n4096_k4096_128x256_s3_1x1": (4096, 4096, 4096, 128, 256, 3, 1, 1, "cta"),
    "m4096_n4096_k4096_128x256_s4_2x1_cluster_scope": (4096, 4096, 4096, 128, 256, 4, 2, 1, "cluster"),
}


def with_scope(steps, scope):
    for st in steps:
        if "arrive" in st and "cta" in st:
            st["scope"] = scope
        if "body" in st:
            with_scope(st["body"], scope)


for name, (m, n, k, bm, bn, stages, cm, cn, scope) in GEMMS.items():
    s = copy.deepcopy(EXAMPLE)
    s["params"].update({"M": m, "N": n, "K": k, "BM": bm, "BN": bn, "STAGES": stages, "CLUSTER_M": cm,
                        "CLUSTER_N": cn})
    for t in s["ctas"][0]["threads"]:
        with_scope(t["program"], scope)
    save("gemm", name, s)

# The halves, one line a file as tests/golden/scenarios/split.txt (declared before the run).
with open(os.path.join(dest, "split.txt"), "w") as f:
    for family, half in (("calib", "calibration"), ("gemm", "validation")):
        for name in sorted(os.listdir(os.path.join(dest, family))):
            f.write(f"{half} {family}/{name}\n")
print(f"gen_arrive_scope_probe: {sum(len(fs) for _, _, fs in os.walk(dest))} files in {dest}")
