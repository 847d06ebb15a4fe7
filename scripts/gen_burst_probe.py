#!/usr/bin/env python3
"""Writes tests/golden/burst_probe/*.json: what one burst of misses pays for the harness's dirty L2
(`cold`) over a clean one (`cold_clean`), by the burst's size and spread (issue 29).

Why: on the H100 the corpus's calibration half pays 1200-1900 cycles for the dirty start at 16-64
CTAs (gemm_ws, gemm_inline, multicast; the model 40-140), nothing at one CTA, and at 132 CTAs about
what the model's write-back bandwidth charges. The dirty and drain probes found the 16-CTA cost at
once and not fading with a spin before it (1240-2090), growing only 18 cycles a load after it. A cost
that a burst pays and a steady stream of the same CTAs does not points at a queue of write-backs that
a burst overflows; a cost fixed whatever the burst points at a one-time event. Stamps after each wait
say when in the burst the cost falls.

Every program: 16 KiB boxes (64 x 128 fp16, 128-byte swizzle), each CTA its own tiles, each load its
own barrier; all of a burst's loads issued, then each waited for in order with a stamp after it:
  burst_cC_sS          C CTAs, one burst of S loads: C = 1, 4, 16, 32, 64, 132; S = 1, 4, 12
  burst2_cC_s4_dD      C CTAs, a burst of 4, waited for, a spin of D cycles, a burst of 4 more tiles;
                       C = 16, 64; D = 0, 20000 (does a second burst pay again?)

    scripts/gen_burst_probe.py [DIR]"""
from probe_files import probe_dest, write_programs

TILES_PER_CTA = 24
TILE = 16384


def tensor():
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 128 * 132 * TILES_PER_CTA],
            "global_strides": [128], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}


def burst(loads, first_tile, phase, tag):
    steps = []
    for j in range(loads):
        steps.append({"arrive": str(j), "bytes": "bytes_X"})
        steps.append({"load": "X", "coords": ["0", f"128 * (cta * {TILES_PER_CTA} + {first_tile + j})"],
                      "smem_offset": str(j * TILE), "barrier": str(j)})
    steps.append({"stamp": f"{tag}issued"})
    for j in range(loads):
        steps.append({"wait": str(j), "phase": str(phase)})
        steps.append({"stamp": f"{tag}load{j}"})
    return steps


def program(name, ctas, stages, bursts=1, delay=0, probe="burst_probe"):
    steps = burst(stages, 0, 0, "a_" if bursts > 1 else "")
    if bursts > 1:
        if delay:
            steps.append({"delay": delay})
        steps += burst(stages, stages, 1, "b_")
    return {"name": f"{probe}/{name}", "comment": f"scripts/gen_{probe}.py", "tensors": {"X": tensor()},
            "ctas": [{"count": ctas, "barriers": [1] * stages, "program": steps}]}


def main():
    programs = {}
    for c in (1, 4, 16, 32, 64, 132):
        for s in (1, 4, 12):
            programs[f"burst_c{c}_s{s}"] = program(f"burst_c{c}_s{s}", c, s)
    for c in (16, 64):
        for d in (0, 20000):
            name = f"burst2_c{c}_s4_d{d // 1000}k"
            programs[name] = program(name, c, 4, bursts=2, delay=d)
    write_programs(probe_dest("burst_probe"), programs, tool="gen_burst_probe")


if __name__ == "__main__":
    main()
