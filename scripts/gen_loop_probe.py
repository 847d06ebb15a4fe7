#!/usr/bin/env python3
"""Writes tests/golden/loop_probe/*.json: the corpus's one-CTA in-line GEMM loop
(gemm_inline/c1_r128_sS: wait on the stage, ldmatrix reads of its A and B tiles, arrive.expect_tx,
refill A and B, 16 KiB boxes each) taken apart, each program at two lengths so that the cost
of one iteration is the slope.

Why: on the H100 that loop takes ~1300 cycles an iteration whatever the stages (2, 4: the same;
3, 6: ~8% slower), cold as warm, while the model stalls on the refill at 2 stages and
buys 12-15% with 6. The programs separate the parts: waits on completed phases (one barrier,
two, four, a run-time index), the reads alone and after a wait, the issue of arrive.expect_tx
and two loads with and without reads beside it, the whole loop at 2-6 stages, without its reads,
and with 4 stages in the shared-memory footprint of 6.

Mind the lengths: `tmasim cuda` compiles a loop's count in, so nvcc unrolls a short loop of a
small body completely (the wait loops at 16 iterations and fewer, the issue loops at 24) and keeps
a longer one rolled. A slope between an unrolled and a rolled length mixes two programs: the wait
loops' 16 -> 32 slopes (~110 and ~240 cycles a wait) are such, the 32 -> 64 ones (79, 141) are not.
The bodies with reads are loops at every length here.

    scripts/gen_loop_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "loop_probe")
os.makedirs(dest, exist_ok=True)

TILE, STAGE = 16384, 32768
MAP = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [4096, 128], "global_strides": [8192],
       "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}
TENSORS = {"A": MAP, "B": MAP}


def read(offset, rows=128):
    return {"read": {"rows": rows, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": offset}}


def refill(barrier, stage, k):
    """arrive.expect_tx on `barrier`, then A and B of k-tile `k` into `stage`."""
    return [{"arrive": barrier, "bytes": "bytes_A + bytes_B"},
            {"load": "A", "coords": [f"64 * ({k})", 0], "smem_offset": f"({stage}) * STAGE", "barrier": barrier},
            {"load": "B", "coords": [f"64 * ({k})", 0], "smem_offset": f"({stage}) * STAGE + TILE",
             "barrier": barrier}]


def fill_and_wait(stages):
    """The prologue of the programs that only read: every stage filled and waited (barrier s)."""
    return ([{"loop": "s", "count": stages, "body": refill("s", "s", "s")}] +
            [{"loop": "s", "count": stages, "body": [{"wait": "s", "phase": 0}]}])


def write(name, n, program, barriers, params=None):
    p = {"N": n, "TILE": TILE, "STAGE": STAGE}
    p.update(params or {})
    s = {"name": f"loop_probe/{name}_n{n}", "params": p, "tensors": TENSORS,
         "ctas": [{"count": 1, "barriers": [1] * barriers, "program": program}]}
    with open(os.path.join(dest, f"{name}_n{n}.json"), "w") as f:
        json.dump(s, f, indent=1)


def gemm(stages, reads=True, pad_to=None):
    """The corpus's loop: `stages` stages, N k-tiles; pad_to: a last stage's worth of shared memory
    used once in the prologue, so the footprint is that of `pad_to` stages."""
    body = [{"wait": "k % S", "phase": "k / S"}]
    if reads:
        body += [read("(k % S) * STAGE"), read("(k % S) * STAGE + TILE")]
    body += [dict(step, **{"if": "k + S < N"}) for step in refill("k % S", "k % S", "k + S")]
    program = [{"loop": "s", "count": "S", "body": refill("s", "s", "s")}]
    if pad_to:
        program = refill(stages, pad_to - 1, 0) + [{"wait": stages, "phase": 0}] + program
    return program + [{"loop": "k", "count": "N", "body": body}], stages + (1 if pad_to else 0)


for n in (16, 32):
    # waits on phases completed before the loop
    write("wait_const", n, fill_and_wait(1) + [{"loop": "i", "count": "N", "body": [{"wait": 0, "phase": 0}]}], 1)
    write("wait_alt2", n, fill_and_wait(2) + [{"loop": "i", "count": "N", "body": [{"wait": "i % 2", "phase": 0}]}], 2)
    write("wait_alt4", n, fill_and_wait(4) + [{"loop": "i", "count": "N", "body": [{"wait": "i % 4", "phase": 0}]}], 4)
    # barrier 0 every time, its index known only at run time (cta is 0)
    write("wait_runtime_same", n,
          fill_and_wait(1) + [{"loop": "i", "count": "N", "body": [{"wait": "cta * i", "phase": 0}]}], 1)
    # the reads alone, and after a wait on a completed phase
    write("reads", n, fill_and_wait(1) + [{"loop": "i", "count": "N", "body": [read(0), read("TILE")]}], 1)
    write("wait_const_reads", n, fill_and_wait(1) + [{"loop": "i", "count": "N", "body": [
        {"wait": 0, "phase": 0}, read(0), read("TILE")]}], 1)
    write("wait_reads", n, fill_and_wait(2) + [{"loop": "i", "count": "N", "body": [
        {"wait": "i % 2", "phase": 0}, read("(i % 2) * STAGE"), read("(i % 2) * STAGE + TILE")]}], 2)
    # the corpus's loop, its stages, without reads, and 4 stages in 6 stages' footprint
    for stages in (2, 3, 4, 5, 6):
        program, barriers = gemm(stages)
        write(f"gemm_s{stages}", n, program, barriers, {"S": stages})
    for stages in (2, 4):
        program, barriers = gemm(stages, reads=False)
        write(f"gemm_noreads_s{stages}", n, program, barriers, {"S": stages})
    program, barriers = gemm(4, pad_to=6)
    write("gemm_s4_pad6", n, program, barriers, {"S": 4})
for n in (12, 24):  # a barrier per iteration: at most 32 in a CTA
    # the refill's issue alone (all its barriers waited at the end), and with the reads of a
    # third stage beside it (the TMA writing while ldmatrix reads)
    tail = [{"loop": "i", "count": "N", "body": [{"wait": "i + 3", "phase": 0}]}]
    write("issue", n, fill_and_wait(3) + [{"loop": "i", "count": "N", "body": refill("i + 3", "i % 2", "i + 3")}] + tail,
          n + 3)
    reads = [read("2 * STAGE"), read("2 * STAGE + TILE")]
    write("issue_reads", n, fill_and_wait(3) + [{"loop": "i", "count": "N", "body": refill("i + 3", "i % 2", "i + 3") +
                                                 reads}] + tail, n + 3)
# The same loop with the stage as an inner loop's variable instead of k % S and k / S (N a
# multiple of every S): is a non-power-of-two S slow for its arithmetic or for its stages?
for n in (24, 48):
    for stages in (2, 3, 4, 6):
        inner = ([{"wait": "s", "phase": "j"}, read("s * STAGE"), read("s * STAGE + TILE")] +
                 [dict(step, **{"if": "j * S + s + S < N"}) for step in refill("s", "s", "j * S + s + S")])
        program = ([{"loop": "s", "count": "S", "body": refill("s", "s", "s")}] +
                   [{"loop": "j", "count": "N / S", "body": [{"loop": "s", "count": "S", "body": inner}]}])
        write(f"gemm_nomod_s{stages}", n, program, stages, {"S": stages})
for n in (16, 32):
    # the reads' bytes as four 64-row tiles (the microbenchmarks' shape) instead of two of 128
    write("reads64", n, fill_and_wait(1) + [{"loop": "i", "count": "N", "body": [
        read(f"{q} * 8192", rows=64) for q in range(4)]}], 1)
# Waits on completed phases by count and pattern: does a wait's cost depend on how many came
# before (the slopes above rise after 12-16 waits), on the barrier changing, or on the barrier
# having been waited before? One barrier, two alternating, and N distinct barriers waited in
# order once (`wseq`) or twice (`wseq2`).
for n in (4, 8, 16, 32, 64):
    write("wconst", n, fill_and_wait(1) + [{"loop": "i", "count": "N", "body": [{"wait": 0, "phase": 0}]}], 1)
    write("walt2", n, fill_and_wait(2) + [{"loop": "i", "count": "N", "body": [{"wait": "i % 2", "phase": 0}]}], 2)
for n in (8, 16, 30):
    fill = [{"loop": "s", "count": "N", "body": [{"arrive": "s"}]}]  # count 1: each arrive completes phase 0
    write("wseq", n, fill + [{"loop": "i", "count": "N", "body": [{"wait": "i", "phase": 0}]}], n)
    write("wseq2", n, fill + [{"loop": "r", "count": 2, "body": [
        {"loop": "i", "count": "N", "body": [{"wait": "i", "phase": 0}]}]}], n)
    write("wseq_delay", n, fill + [{"delay": 5000}, {"loop": "i", "count": "N", "body": [{"wait": "i", "phase": 0}]}], n)
print(f"gen_loop_probe: {len([f for f in os.listdir(dest) if f.endswith('.json')])} programs in {dest}")
