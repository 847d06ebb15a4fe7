#!/usr/bin/env python3
"""Writes tests/golden/cold_step_probe/*.json: where the corpus's in-line GEMM loop pays for a cold L2
at 8-32 CTAs (issue 29).

On the H100, gemm_inline/c32_r64_s4 takes 15314 cycles cold, 14170 cold_clean and 12254 warm; the
model 12721, 12623 and 12069 (its loop hides the misses). At one CTA the H100's cold and warm runs
are within 4%. Whether the H100's extra time is a cost of each step (misses that the stages do not
hide at this load) or of the start (the first S stages' loads of every CTA at once) is told by the
slope between 16 and 32 k-steps:

  c{ctas}_r64_s{stages}_k{kt}: scripts/gen_corpus.py pipeline_single (one warp a CTA: fill the
      stages, then wait / read both 8 KiB boxes / refill), ctas 1, 8 or 32, stages 4 or 6, kt 16
      (the corpus program) or 32.

    scripts/gen_cold_step_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "cold_step_probe")
import gen_corpus  # noqa: E402
from probe_files import write_programs  # noqa: E402


def main():
    progs = {}
    for ctas in (1, 8, 32):
        for stages in (4, 6):
            for kt in (16, 32):
                name = f"c{ctas}_r64_s{stages}_k{kt}"
                prog = gen_corpus.pipeline_single(ctas, 64, stages, kt)
                prog["name"], prog["comment"] = f"cold_step_probe/{name}", "scripts/gen_cold_step_probe.py"
                progs[name] = prog
    write_programs(dest, progs, tool="gen_cold_step_probe")


if __name__ == "__main__":
    main()
