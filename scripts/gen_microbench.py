#!/usr/bin/env python3
"""Writes tests/golden/microbench/*.json: scenarios that each isolate one cost of the issuing
or consuming thread (a local or cluster-scope mbarrier arrive, ldmatrix reads of a tile, a
compute delay, the consumer step of a multicast GEMM), at two lengths so that the per-step
cost is the slope. They ran on the H100 like the corpus (results.jsonl.gz beside them) and
are a calibration set: parameters may be fitted to them; they judge nothing.

    scripts/gen_microbench.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "microbench")
os.makedirs(dest, exist_ok=True)
TENSOR = {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64], "global_strides": [128],
                "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}}
READ = [{"read": {"rows": 64, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": 0}},
        {"read": {"rows": 64, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": 8192}}]
MMA = [{"compute": {"mma": "m64n64k16", "count": 2}}]


# Every program first loads the two tiles the reads use (barrier 1), then stamps the loop's
# start and end: the stamps' difference, over N, is the cost of one iteration.
PROLOGUE = [{"arrive": 1, "bytes": "2 * bytes_T"},
            {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 1},
            {"load": "T", "coords": [0, 0], "smem_offset": 8192, "barrier": 1},
            {"wait": 1, "phase": 0}, {"stamp": "loop"}]


def scenario(name, body, n, cluster=1, arrivals=None, ctas=None):
    cta = {"count": ctas or cluster, "barriers": [arrivals if arrivals else 1, 1],
           "program": PROLOGUE + [{"loop": "k", "count": "N", "body": body}, {"stamp": "end"}] +
           ([{"wait": 0, "phase": 0}, {"stamp": "complete"}] if arrivals else [])}
    if cluster > 1:
        cta["cluster_size"] = cluster
    s = {"name": f"microbench/{name}_n{n}", "params": {"N": n}, "tensors": TENSOR, "ctas": [cta]}
    with open(os.path.join(dest, f"{name}_n{n}.json"), "w") as f:
        json.dump(s, f, indent=1)


for n in (16, 64):
    scenario("local_arrive", [{"arrive": 0}], n, arrivals=n)
    scenario("cluster_arrive_self", [{"arrive": 0, "cta": "cluster_rank"}], n, cluster=2, arrivals=n)
    scenario("cluster_arrive_peer", [{"arrive": 0, "cta": "1 - cluster_rank"}], n, cluster=2, arrivals=n)
    scenario("read2", READ, n)
    scenario("mma2", MMA, n)
    scenario("read2_mma2", READ + MMA, n)
    scenario("read2_mma2_local_arrive", READ + MMA + [{"arrive": 0}], n, arrivals=n)
    scenario("read2_mma2_cluster_arrive2", READ + MMA + [{"loop": "r", "count": 2, "body": [{"arrive": 0, "cta": "r"}]}],
             n, cluster=2, arrivals=2 * n)
    scenario("wait_done", [{"wait": 1, "parity": 0}], n)
    scenario("read2_mma2_wait_done", READ + MMA + [{"wait": 1, "parity": 0}], n)
    scenario("read2_cluster_arrive2", READ + [{"loop": "r", "count": 2, "body": [{"arrive": 0, "cta": "r"}]}],
             n, cluster=2, arrivals=2 * n)
    # Ping-pong between the two CTAs of a cluster through each other's mbarrier: an iteration
    # is two cluster-scope arrives, each seen by a waiting peer (the arrive's cost, the time
    # until the peer's barrier sees it, the peer's wake-up).
    scenario("cluster_pingpong", [{"if": "cluster_rank == 0", "arrive": 0, "cta": 1},
                                  {"wait": 0, "parity": "k % 2"},
                                  {"if": "cluster_rank == 1", "arrive": 0, "cta": 0}], n, cluster=2)

# A cluster-scope arrive while the CTA's TMA unit streams loads: a second warp issues LOADS
# loads of 16 KiB (four stages, refilled as they land; in bounds, or wholly out of bounds) while
# the first does N arrives between two stamps. Does the release at cluster scope wait for the
# SM's memory traffic, and does a cold L2 make it dearer?
STREAM_T = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 16384], "global_strides": [128],
            "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def stream_scenario(name, arrive, n, loads, oob=False, cluster=True):
    row0 = 16384 if oob else 0
    producer = [{"loop": "t", "count": "LOADS", "body": [
        {"if": "t >= 4", "wait": "1 + t % 4", "phase": "t / 4 - 1"},
        {"arrive": "1 + t % 4", "bytes": "bytes_S"},
        {"load": "S", "coords": [0, f"{row0} + 128 * t"], "smem_offset": "(t % 4) * 16384", "barrier": "1 + t % 4"}]},
        {"loop": "t", "count": "(LOADS >= 4) * 4", "body": [
            {"wait": "1 + (LOADS - 1 - t) % 4", "phase": "(LOADS - 1 - t) / 4"}]}]
    arriver = [{"stamp": "loop"}, {"loop": "k", "count": "N", "body": [arrive]}, {"stamp": "end"}]
    cta = {"count": 2, "cluster_size": 2, "barriers": ["N", 1, 1, 1, 1],
           "threads": [{"name": "arriver", "program": arriver}, {"name": "producer", "program": producer}]}
    if not cluster:  # one CTA, no cluster launch
        cta = {"count": 1, "barriers": cta["barriers"], "threads": cta["threads"]}
    s = {"name": f"microbench/{name}_n{n}", "params": {"N": n, "LOADS": loads}, "tensors": {"S": STREAM_T},
         "ctas": [cta]}
    with open(os.path.join(dest, f"{name}_n{n}.json"), "w") as f:
        json.dump(s, f, indent=1)


for n in (8, 32):
    stream_scenario("stream_cluster_arrive", {"arrive": 0, "cta": "cluster_rank"}, n, 128)
    stream_scenario("stream_local_arrive", {"arrive": 0}, n, 128)
    stream_scenario("stream_oob_cluster_arrive", {"arrive": 0, "cta": "cluster_rank"}, n, 128, oob=True)
    stream_scenario("idle_cluster_arrive", {"arrive": 0, "cta": "cluster_rank"}, n, 0)
# The same streams in one CTA launched without a cluster (added after the runs above): is an
# out-of-bound box as slow as an in-bound one there too?
stream_scenario("nocluster_stream", {"arrive": 0}, 8, 128, cluster=False)
stream_scenario("nocluster_stream_oob", {"arrive": 0}, 8, 128, oob=True, cluster=False)
print(f"gen_microbench: {len(os.listdir(dest))} scenarios in {dest}")
