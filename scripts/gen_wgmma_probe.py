#!/usr/bin/env python3
"""Writes tests/golden/wgmma_probe/: warpgroup MMA (wgmma.mma_async) on the H100 (issue 30).

Why: `mma` steps issue real wgmma with shared-memory descriptors; the model's tensor-core section
(tensor.*) needs its rates, issue cost and latency read off silicon, and the question it exists
for -- how long a pipeline of TMA tile loads feeding wgmma takes -- judged on programs never used
for fitting.

Rule stated before the run: tensor.* values are read off the calibration families only (tput,
lat, load) as medians of per-wgmma cycles between stamps; the model is then judged, unchanged, on
the validation family (pipe). A mechanism (shared-memory operand wavefronts, A in registers) is
adopted only if the calibration families say it changes the time.

Families (split.txt):
  tput/<type>_n<N>_<a>_wg<W>: calibration. One CTA; a warp loads A (64 rows a warpgroup) and B (N
      rows) once; W warpgroups then issue ITERS x 4 wgmma m64nNk (A from shared memory `ss` or
      registers `rs`), a commit group each 4, keeping one group in flight; stamps around the loop.
  lat/<type>_n<N>: calibration. One warpgroup, one wgmma then commit and wait 0, ITERS times.
  load/<...>_c132: calibration. tput programs on 132 CTAs (the clock under tensor-core load).
  diag/c1_s<S>_wg1_n128_<variant>: calibration, run after the first pipe results (one CTA was 30-50%
      slower than the model whatever the L2 held): the pipe program stamped at each step, without
      its mma, waiting for each group at once, or reading one fixed stage.
  pipe/c<C>_s<S>_wg<W>_n<N>: validation. A warp-specialised GEMM mainloop: a producer warp streams
      A (64 W x 64) and B (N x 64) fp16 tiles (the producer first, as CUTLASS lays out its
      warp-specialised kernels: three idle warps pad its warpgroup, and setmaxnreg moves their
      registers to the consumers), 128B swizzle, through S stages (full and empty
      mbarriers); W consumer warpgroups each issue 4 wgmma m64nNk16 a stage, keep one group in
      flight and release the stage whose group completed.

    scripts/gen_wgmma_probe.py [DIR]"""
import os
import sys

from probe_files import write_programs  # a script beside this one

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "wgmma_probe")

TYPES = {  # wgmma type: (k, map dtype, element bytes)
    "float16": (16, "float16", 2), "bfloat16": (16, "bfloat16", 2),
    "tfloat32": (8, "float32", 4), "e4m3": (32, "uint8", 1)}
SHORT = {"float16": "f16", "bfloat16": "bf16", "tfloat32": "tf32", "e4m3": "e4m3"}


def tensor(dtype, rows_box, rows_total, k_elems):
    eb = TYPES[dtype][2]
    span = 128 // eb
    return {"mode": "tiled", "dtype": TYPES[dtype][1], "rank": 2, "global_dims": [k_elems, rows_total],
            "global_strides": [k_elems * eb], "box_dims": [span, rows_box], "element_strides": [1, 1],
            "swizzle": "128b"}


def mma(dtype, n, a_offset, b_offset, count, a_regs):
    k = TYPES[dtype][0]
    step = {"shape": f"m64n{n}k{k}", "dtype": dtype, "count": count,
            "b": {"smem_offset": b_offset, "swizzle": "128b"}}
    step["a"] = "registers" if a_regs else {"smem_offset": a_offset, "swizzle": "128b"}
    return {"mma": step}


def tput(name, dtype, n, a_regs, wg, ctas=1, iters=128, per_group=4, keep=1):
    """A and B loaded once; `iters` x `per_group` wgmma, one commit group each."""
    a_bytes = 64 * wg * 128
    span = 128 // TYPES[dtype][2]
    consumer = [
        {"wait": 0, "parity": 0},
        {"stamp": "start"},
        {"loop": "i", "count": "ITERS", "body": [
            mma(dtype, n, "w * 8192", a_bytes, per_group, a_regs),
            {"mma_commit": True},
            {"mma_wait": keep}]},
        {"mma_wait": 0},
        {"stamp": "end"}]
    return {"name": f"wgmma_probe/{name}", "comment": "scripts/gen_wgmma_probe.py",
            "params": {"ITERS": iters},
            "tensors": {"A": tensor(dtype, 64 * wg, 64 * wg, span), "B": tensor(dtype, n, n, span)},
            "ctas": [{"count": ctas, "barriers": [1], "threads": [
                {"name": "consumer", "warpgroup": True, "count": wg, "var": "w", "program": consumer},
                {"name": "producer", "program": [
                    {"arrive": 0, "bytes": "bytes_A + bytes_B"},
                    {"load": "A", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
                    {"load": "B", "coords": [0, 0], "smem_offset": a_bytes, "barrier": 0}]}]}]}


def pipe(name, ctas, stages, wg, n, kt=64, variant=""):
    """variant (diag family): "stamped" stamps each step; "nomma" releases a stage without an
    mma; "wait0" waits for each stage's group before the next; "fixed" reads stage 0 always."""
    a_rows = 64 * wg
    a_bytes, b_bytes = a_rows * 128, n * 128
    stage = a_bytes + b_bytes
    k_elems = 64 * kt
    at = "0" if variant == "fixed" else "(k % S) * STAGE"
    body = [{"wait": "k % S", "parity": "(k / S) % 2"}]
    if variant == "stamped":
        body.append({"stamp": "full"})
    if variant != "nomma":
        body += [mma("float16", n, f"{at} + w * 8192", f"{at} + TA", 4, False),
                 {"mma_commit": True},
                 {"mma_wait": 0 if variant == "wait0" else 1}]
    if variant == "stamped":
        body.append({"stamp": "done"})
    body.append({"if": "k > 0", "arrive": "S + (k - 1) % S"})
    consumer = [{"loop": "k", "count": "KT", "body": body}, {"mma_wait": 0}, {"stamp": "end"}]
    producer = [
        {"loop": "k", "count": "KT", "body": [
            {"if": "k >= S", "wait": "S + k % S", "parity": "(k / S - 1) % 2"},
            {"arrive": "k % S", "bytes": "bytes_A + bytes_B"},
            {"load": "A", "coords": ["64 * k", f"{a_rows} * cta"], "smem_offset": "(k % S) * STAGE", "barrier": "k % S"},
            {"load": "B", "coords": ["64 * k", f"{n} * (cta % 8)"], "smem_offset": "(k % S) * STAGE + TA",
             "barrier": "k % S"}] + ([{"stamp": "issued"}] if variant == "stamped" else [])}]
    return {"name": f"wgmma_probe/{name}", "comment": "scripts/gen_wgmma_probe.py",
            "params": {"KT": kt, "S": stages, "STAGE": stage, "TA": a_bytes},
            "tensors": {"A": tensor("float16", a_rows, a_rows * ctas, k_elems),
                        "B": tensor("float16", n, n * 8, k_elems)},
            "ctas": [{"count": ctas, "var": "cta", "barriers": [1] * stages + [wg] * stages, "threads": [
                {"name": "producer", "program": producer},
                {"name": "consumer", "warpgroup": True, "count": wg, "var": "w", "program": consumer}]}]}


def main():
    progs, split = {}, {}

    def add(family, name, prog, half):
        progs[f"{family}/{name}"] = prog
        split[f"{family}/{name}.json"] = half

    for n in (8, 16, 32, 64, 128, 256):
        for a in ("ss", "rs"):
            for wg in (1, 2):
                add("tput", f"f16_n{n}_{a}_wg{wg}", tput(f"tput/f16_n{n}_{a}_wg{wg}", "float16", n, a == "rs", wg),
                    "calibration")
    for dtype in ("tfloat32", "e4m3"):
        for n in (64, 128, 256):
            for a in ("ss", "rs"):
                for wg in (1, 2):
                    nm = f"{SHORT[dtype]}_n{n}_{a}_wg{wg}"
                    add("tput", nm, tput(f"tput/{nm}", dtype, n, a == "rs", wg), "calibration")
    for n in (128, 256):
        for wg in (1, 2):
            nm = f"bf16_n{n}_ss_wg{wg}"
            add("tput", nm, tput(f"tput/{nm}", "bfloat16", n, False, wg), "calibration")
    for dtype, n in (("float16", 64), ("float16", 128), ("float16", 256), ("tfloat32", 128), ("e4m3", 128)):
        nm = f"{SHORT[dtype]}_n{n}"
        add("lat", nm, tput(f"lat/{nm}", dtype, n, False, 1, per_group=1, keep=0), "calibration")
    for dtype, n, a in (("float16", 256, "ss"), ("float16", 128, "ss"), ("float16", 256, "rs"), ("e4m3", 256, "ss")):
        nm = f"{SHORT[dtype]}_n{n}_{a}_wg2_c132"
        add("load", nm, tput(f"load/{nm}", dtype, n, a == "rs", 2, ctas=132), "calibration")
    for variant in ("stamped", "nomma", "wait0", "fixed"):
        for stages in (2, 4):
            nm = f"c1_s{stages}_wg1_n128_{variant}"
            add("diag", nm, pipe(f"diag/{nm}", 1, stages, 1, 128, variant=variant), "calibration")
    for ctas in (1, 132):
        for stages in (2, 4):
            for wg in (1, 2):
                for n in (128, 256):
                    nm = f"c{ctas}_s{stages}_wg{wg}_n{n}"
                    add("pipe", nm, pipe(f"pipe/{nm}", ctas, stages, wg, n), "validation")
    write_programs(dest, progs, split, "gen_wgmma_probe")


if __name__ == "__main__":
    main()
