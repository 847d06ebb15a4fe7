#!/usr/bin/env python3
"""Writes tests/golden/dram_probe/*.json: where the real-size GEMM feed's 22% goes (issue 29).

Why: tests/golden/gemm_feed_8192 runs 22% slower on the H100 than the model says, at K = 8192 (the
model bound by its DRAM: 31 passes over B's 128 MiB, 2.0 TB/s on the H100, 2.7 in the model) and
at K = 1024 (32 MiB of tensors the model keeps resident warm; the H100 is only 6% faster warm than
cold). Two hypotheses, each with its family; data first, no model change with it:
  pitch_p<P>: does the DRAM serve box rows P bytes apart (a K-major operand's rows are K * 2 bytes
      apart: 16 KiB at K = 8192) more slowly than contiguous boxes? 132 CTAs each read 4 MiB of
      their own (256 boxes of 64 x 128 fp16, 128B swizzle, 4 stages), row blocks c + 132 j across
      the P / 128 column boxes of each; 528 MiB in all, past the L2. P = 128 B .. 32 KiB. The model
      predicts one time for all.
  fit_f<F>: does a footprint of F MiB stay resident? 132 CTAs each stream their own F/132 MiB
      (32 KiB boxes); warm against cold_clean. F = 16, 24, 32, 40, 48.
  swap_f<F>: the same, but each CTA then reads the slice of CTA c + 66 (another GPC, likely the
      other half of the L2): lines read from SMs of both halves (a copy in each?).

    scripts/gen_dram_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CTAS, S = 132, 4


def ring(n, box_bytes, load):
    """A 4-stage ring of n loads; load(t) gives the load step of load t."""
    return [{"loop": "t", "count": n, "body": [
                {"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"},
                {"arrive": "t % S", "bytes": "bytes_T"},
                dict(load("t"), smem_offset=f"(t % S) * {box_bytes}", barrier="t % S")]},
            {"loop": "s", "count": min(S, n), "body": [{"wait": "s", "phase": f"({n} - 1 - s) / S"}]}]


def pitch(p):
    cols = p // 128  # column boxes a row block
    blocks = 256 // cols  # row blocks a CTA
    tensor = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [p // 2, 128 * CTAS * blocks],
              "global_strides": [p], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}
    load = lambda t: {"load": "T", "coords": [f"64 * ({t} % {cols})", f"128 * (cta + {CTAS} * ({t} / {cols}))"]}
    return {"name": f"dram_probe/pitch_p{p}", "comment": "scripts/gen_dram_probe.py", "params": {"S": S, "P": p},
            "tensors": {"T": tensor}, "ctas": [{"count": CTAS, "barriers": [1] * S, "program": ring(256, 16384, load)}]}


def footprint(name, mib, swap):
    boxes = mib * 1024 // 32 // CTAS  # 32 KiB boxes a CTA
    tensor = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 256 * CTAS * boxes],
              "global_strides": [128], "box_dims": [64, 256], "element_strides": [1, 1], "swizzle": "128b"}
    n = 2 * boxes if swap else boxes
    owner = f"(cta + {CTAS // 2} * ({{t}} / {boxes})) % {CTAS}" if swap else "cta"
    load = lambda t: {"load": "T", "coords": [0, f"256 * ({owner.format(t=t)} * {boxes} + {t} % {boxes})"]}
    return {"name": f"dram_probe/{name}", "comment": "scripts/gen_dram_probe.py", "params": {"S": S, "F": mib},
            "tensors": {"T": tensor}, "ctas": [{"count": CTAS, "barriers": [1] * S, "program": ring(n, 32768, load)}]}


def write(dest, progs):
    os.makedirs(dest, exist_ok=True)
    for name, prog in progs.items():
        with open(os.path.join(dest, name + ".json"), "w") as f:
            json.dump(prog, f, indent=1)
            f.write("\n")


def main():
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "dram_probe")
    progs = {f"pitch_p{p}": pitch(p) for p in (128, 1024, 2048, 8192, 16384, 32768)}
    for f in (16, 24, 32, 40, 48):
        progs[f"fit_f{f}"] = footprint(f"fit_f{f}", f, False)
    for f in (16, 32, 40):
        progs[f"swap_f{f}"] = footprint(f"swap_f{f}", f, True)
    write(dest, progs)
    print(f"gen_dram_probe: {len(progs)} scenarios in {dest}")


if __name__ == "__main__":
    main()
