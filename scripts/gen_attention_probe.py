#!/usr/bin/env python3
"""Writes tests/golden/attention_probe/: examples/attention_hopper.json at the shapes of the cuDNN
flash-attention kernels in tests/golden/arrive_scope_probe/library_shapes.jsonl, for the H100.

Why (issue 30): an attention forward (Q once, K and V streamed, S = Q K^T and O += P V per KV block,
V read MN-major by the second wgmma) had never run as a scenario. Roles, declared before the run:
- `attention/` (judging only; nothing is fitted to it): the example at the 8 cuDNN shapes (B H S D,
  causal or not) with BM = 128, BN = 128, STAGES = 2 and SOFTMAX = 600 (stated before the run: an
  estimate of one warpgroup's online-softmax step at BN = 128, 64 SFU exponentials a thread at 8
  cycles a warp plus the FMA work); at 4 of the shapes SOFTMAX 300 and 1200 as well (the model
  should follow the stated cost either way), and BM = 64 (one consumer warpgroup) at 2.
  Reported: the model against each emitted program (cold, warm, cold_clean).
- The softmax step itself is measured by tb/gpu/softmax_step_probe.cu in the same device call
  (`softmax.jsonl`, calibration of the example's SOFTMAX default). Rule, declared before the run:
  the default SOFTMAX is the median step_cycles with ONE warpgroup at the example's BN and D (the
  ping-pong schedule of FlashAttention-3 and cuDNN keeps one warpgroup in softmax while the other's
  GEMMs run, so the two do not share the SFU at once); for D = 64 and D = 128 if they differ by more
  than 10%, SOFTMAX becomes an expression of D.
- The emitted programs at BM = 128 use 168 registers a thread (ptxas, the whole register file for
  384 threads, as cuDNN's kernel: ncu), so one CTA an SM: the example states `"registers": REGS`
  (168), which the model's placement now honours (`gpu.registers_per_sm`); the emitted code is the
  same with or without it (checked: only the constant REGS differs).
- Added after the first call had measured the softmax step (866 cycles at BN = 128, D = 128, one
  warpgroup; 826 at D = 64, within 10%: one value): `attention/` again at the 8 shapes with the
  example's default SOFTMAX = 866, the configuration judged against cuDNN (second device call).
- The cuDNN kernels' launches (grid, block, shared memory, registers, SM frequency) from ncu
  (`sdpa_launch.csv`), and their times again (`library_shapes.jsonl`, the same device call).

    scripts/gen_attention_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "attention_probe")
SHAPES = [(4, 16, 4096, 128), (4, 16, 4096, 64), (8, 16, 2048, 128), (2, 16, 8192, 64)]  # B, H, S, D


def save(family, name, params):
    with open(os.path.join(top, "examples", "attention_hopper.json")) as f:
        scenario = json.load(f)
    scenario["params"].update(params)
    scenario["name"] = f"attention_probe/{family}/{name}"
    os.makedirs(os.path.join(dest, family), exist_ok=True)
    with open(os.path.join(dest, family, name + ".json"), "w") as f:
        json.dump(scenario, f, indent=1)
        f.write("\n")


def main():
    for b, h, s, d in SHAPES:
        for causal in (0, 1):
            base = {"B": b, "H": h, "S": s, "D": d, "CAUSAL": causal, "BM": 128, "BN": 128, "STAGES": 2}
            tag = f"b{b}_h{h}_s{s}_d{d}_c{causal}"
            save("attention", f"{tag}_bm128_sm600", dict(base, SOFTMAX=600))
            save("attention", f"{tag}_bm128_sm866", dict(base, SOFTMAX=866))
            if (b, s) == (4, 4096):
                for sm in (300, 1200):
                    save("attention", f"{tag}_bm128_sm{sm}", dict(base, SOFTMAX=sm))
            if (b, s, d, causal) in ((4, 4096, 128, 0), (4, 4096, 64, 1)):
                # ptxas gives this program 94-95 registers a thread: two CTAs by the register file, as
                # many as shared memory allows, so the scenario states none (REGS 0: not limiting).
                save("attention", f"{tag}_bm64_sm600", dict(base, BM=64, SOFTMAX=600, REGS=0))
    with open(os.path.join(dest, "split.txt"), "w") as f:
        f.write("# role of each family (scripts/gen_attention_probe.py)\n")
        f.write("attention/ validation\n")


if __name__ == "__main__":
    main()
