#!/usr/bin/env python3
"""Writes tests/golden/contend_probe/: TMA writes against tensor-core operand reads and ldmatrix
in one SM's shared memory (issues 30 and 29).

Why: the model books every shared-memory wavefront -- a TMA write of 128 bytes, a wgmma operand
read, an ldmatrix -- on one data path of one wavefront a cycle (smem.tma_write_bytes_per_cycle,
tensor.smem_operands). With it, the GEMM mainloops whose wgmma reads and TMA writes together pass
128 bytes a cycle come out slow: the wgmma probe's two-warpgroup pipe programs +12..17% warm, the
coopB tiles +7..12%, cuBLAS's 320x128 +33%. Whether the H100 serves the two streams from one path
was never measured: every wgmma calibration program loaded its operands once.

Programs (one CTA unless said; the stream is L2-resident after its first pass):
  contend/<consumer>_<mode>: mode `alone` (the consumer only), `stream` (the producer only),
      `both` (at once). Consumers: `mma_n<N>_wg<W>` (W warpgroups issue ITERS x 4 wgmma m64nNk16,
      A and B from shared memory, a commit group each 4, one in flight) or `read_<swizzle>`
      (4 warps each ldmatrix a 64 x 64 fp16 tile ITERS times: 128b conflict-free, none 8-way).
      Producer: one warp streams LOADS stages of two 32 KiB boxes (a 256 KiB tensor, wrapped)
      through 2 stages of their own, each waiting its previous loads' completion (faster than the
      SM's port from L2 at one CTA). Stamps around each loop.
  contend/<...>_c132: the same on 132 CTAs (each SM's stream bound by the L2's output).

Rule stated before the run: a program is the calibration set of the mechanism it probes; the
model is judged on data never used for it (tests/golden/wgmma_probe's pipe family, coopb_probe,
the library table). From the `both` programs against `alone` and `stream`: let the consumer's loop
slow by s = T_both / T_alone - 1. If s on the H100 is under a third of what one shared path
predicts (the model with configs/h100.json) for the wgmma consumers, the TMA writes and the wgmma
operand reads are not one path; the share the H100 shows (a fraction of the TMA write wavefronts the
operand reads wait for) becomes a configuration key, read off these programs only. The read
consumers are information for issue 29 (the conflicted wavefront's time) and decide nothing here.

    scripts/gen_contend_probe.py [DIR]"""
import os
import sys

from probe_files import write_programs  # a script beside this one

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "contend_probe")

STREAM_STAGES = 2
STREAM_BOX = 32768  # a box of 256 rows of 128 bytes; a stage is two of them


def tile_tensor(rows, total_rows, swizzle="128b"):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, total_rows],
            "global_strides": [128], "box_dims": [64, rows], "element_strides": [1, 1], "swizzle": swizzle}


def producer(stream, operands):
    """Loads the consumers' operands once (barrier 0), then streams LOADS boxes if `stream`."""
    prog = [{"arrive": 0, "bytes": " + ".join(f"bytes_{t}" for t, _ in operands) or "0"}]
    prog += [{"load": t, "coords": [0, 0], "smem_offset": off, "barrier": 0} for t, off in operands]
    if stream:
        s = STREAM_STAGES
        prog += [
            {"stamp": "stream_start"},
            {"loop": "j", "count": "LOADS", "body": [
                {"if": f"j >= {s}", "wait": f"1 + j % {s}", "parity": f"(j / {s} - 1) % 2"},
                {"arrive": f"1 + j % {s}", "bytes": "2 * bytes_T"},
                {"load": "T", "coords": [0, "512 * (j % 4)"], "smem_offset": f"SO + (j % {s}) * {2 * STREAM_BOX}",
                 "barrier": f"1 + j % {s}"},
                {"load": "T", "coords": [0, "512 * (j % 4) + 256"],
                 "smem_offset": f"SO + (j % {s}) * {2 * STREAM_BOX} + {STREAM_BOX}", "barrier": f"1 + j % {s}"}]},
            {"loop": "d", "count": s, "body": [
                {"wait": f"1 + (LOADS + d) % {s}", "parity": f"((LOADS + d) / {s} - 1) % 2"}]},
            {"stamp": "stream_end"}]
    return prog


def mma_consumer(n, wg, a_bytes):
    return {"name": "consumer", "warpgroup": True, "count": wg, "var": "w", "program": [
        {"wait": 0, "parity": 0},
        {"stamp": "start"},
        {"loop": "i", "count": "ITERS", "body": [
            {"mma": {"shape": f"m64n{n}k16", "dtype": "float16", "count": 4,
                     "a": {"smem_offset": "w * 8192", "swizzle": "128b"},
                     "b": {"smem_offset": a_bytes, "swizzle": "128b"}}},
            {"mma_commit": True},
            {"mma_wait": 1}]},
        {"mma_wait": 0},
        {"stamp": "end"}]}


def read_consumer(swizzle):
    return {"name": "reader", "count": 4, "var": "w", "program": [
        {"wait": 0, "parity": 0},
        {"stamp": "start"},
        {"loop": "i", "count": "ITERS", "body": [
            {"read": {"rows": 64, "cols": 64, "dtype": "float16", "swizzle": swizzle, "smem_offset": "w * 8192"}}]},
        {"stamp": "end"}]}


def program(name, consumer, mode, ctas, iters, loads):
    """consumer: ("mma", n, wg) or ("read", swizzle)."""
    if consumer[0] == "mma":
        _, n, wg = consumer
        a_bytes = 64 * wg * 128
        tensors = {"A": tile_tensor(64 * wg, 64 * wg), "B": tile_tensor(n, n)}
        operands = [("A", 0), ("B", a_bytes)]
        threads = [mma_consumer(n, wg, a_bytes)]
        region = a_bytes + n * 128
    else:
        swizzle = consumer[1]
        tensors = {"A": tile_tensor(256, 256, swizzle if swizzle != "none" else "none")}
        operands = [("A", 0)]
        threads = [read_consumer(swizzle)]
        region = 256 * 128
    stream = mode in ("stream", "both")
    if mode == "stream":  # the consumers wait for their operands and leave
        threads = [{"name": "idle", "program": [{"wait": 0, "parity": 0}]}]
    tensors["T"] = tile_tensor(256, 2048)
    so = (region + 1023) // 1024 * 1024
    return {"name": f"contend_probe/{name}", "comment": "scripts/gen_contend_probe.py",
            "params": {"ITERS": iters, "LOADS": loads, "SO": so},
            "tensors": tensors,
            "ctas": [{"count": ctas, "barriers": [1] * (1 + STREAM_STAGES),
                      "threads": [{"name": "producer", "program": producer(stream, operands)}] + threads}]}


def main():
    progs = {}
    consumers = {  # name: (consumer, iterations for about 30k cycles alone)
        "mma_n32_wg1": (("mma", 32, 1), 256), "mma_n32_wg2": (("mma", 32, 2), 128),
        "mma_n64_wg2": (("mma", 64, 2), 128), "mma_n128_wg1": (("mma", 128, 1), 128),
        "mma_n128_wg2": (("mma", 128, 2), 64), "mma_n256_wg1": (("mma", 256, 1), 64),
        "read_128b": (("read", "128b"), 512), "read_none": (("read", "none"), 128)}
    for cname, (consumer, iters) in consumers.items():
        for mode in ("alone", "both"):
            progs[f"{cname}_{mode}"] = program(f"{cname}_{mode}", consumer, mode, 1, iters, 96)
        for mode in ("alone", "both"):
            if cname in ("mma_n128_wg2", "mma_n32_wg2", "read_none"):
                progs[f"{cname}_{mode}_c132"] = program(f"{cname}_{mode}_c132", consumer, mode, 132, iters, 16)
    progs["stream"] = program("stream", consumers["mma_n128_wg2"][0], "stream", 1, 1, 96)
    progs["stream_c132"] = program("stream_c132", consumers["mma_n128_wg2"][0], "stream", 132, 1, 16)
    write_programs(dest, {f"contend/{name}": prog for name, prog in progs.items()},
                   {f"contend/{name}.json": "calibration" for name in progs}, "gen_contend_probe")


if __name__ == "__main__":
    main()
