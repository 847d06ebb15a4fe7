#!/usr/bin/env python3
"""Writes tests/golden/join_probe/*.json: how close in time two SMs' reads of one line must come for
the H100 to serve them with one L2 look-up (issue 29).

Why: tests/golden/counter_probe found that the H100 looks up in L2 90% of the bytes the real-size
GEMM feed loads and 67% of its K = 1024 variant's (ncu, lts__t_sectors_srcunit_tex_op_read), where
the model lets 41% and 45% ride on another SM's transfer (memory.l2_join_reads_in_flight: a read
of a line joins when it arrives before the same GPC's last transfer of the line has left the L2's
output, a window that grows with the output's queue). The model then has the L2's output to spare
where the H100's is 95% busy. This probe reads the window off the H100.

Each program: clusters of 8 CTAs (a cluster runs inside one GPC), each CTA streaming the same 64
boxes of 16 KiB (64 x 128 fp16, 128B swizzle) through a 4-stage ring; the CTA of cluster rank r
first spins r x D cycles, so that its reads trail rank 0's by r x D.
  idle_d<D>: one cluster (the L2's output idle but for it).
  load_d<D>: 16 clusters, each its own 64 boxes (16 MiB in all: resident warm), the L2's output
      shared by 128 SMs.
D = 0, 25, 50, 100, 200, 400, 800, 1600 cycles. The harness runs each cold, cold_clean and warm;
scripts/gpu_counters.sh reads the look-ups (ncu).

    scripts/gen_join_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
from probe_files import write_programs  # noqa: E402

dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "join_probe")
STAGES, ROWS, LOADS, CLUSTER = 4, 128, 64, 8
DELAYS = (0, 25, 50, 100, 200, 400, 800, 1600)


def scenario(name, clusters, delay):
    return {
        "name": f"join_probe/{name}",
        "comment": "scripts/gen_join_probe.py",
        "params": {"KT": LOADS, "S": STAGES, "D": delay},
        "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2,
                          "global_dims": [64, ROWS * LOADS * clusters], "global_strides": [128],
                          "box_dims": [64, ROWS], "element_strides": [1, 1], "swizzle": "128b"}},
        "ctas": [{"count": CLUSTER * clusters, "cluster_size": CLUSTER, "barriers": [1] * STAGES, "program": [
            {"if": "cluster_rank > 0", "delay": "cluster_rank * D"},
            {"loop": "t", "count": "KT", "body": [
                {"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"},
                {"arrive": "t % S", "bytes": "bytes_T"},
                {"load": "T", "coords": [0, f"{ROWS} * ((cta / {CLUSTER}) * KT + t)"],
                 "smem_offset": f"(t % S) * {ROWS * 128}", "barrier": "t % S"}]},
            {"loop": "s", "count": "S", "body": [{"wait": "s", "phase": "KT / S - 1"}]}]}],
    }


def main():
    progs = {}
    for clusters, family in ((1, "idle"), (16, "load")):
        for d in DELAYS:
            progs[f"{family}_d{d}"] = scenario(f"{family}_d{d}", clusters, d)
    write_programs(dest, progs, tool="gen_join_probe")


if __name__ == "__main__":
    main()
