#!/usr/bin/env python3
"""Writes tests/golden/holdout/<family>/<name>.json: a held-out set of H100 scenarios, generated
after the corpus's validation half had been looked at, so that a choice between model variants
can be made on data nobody has judged a model with before. Shapes the corpus does not have
(2, 4, 16 and 64 CTAs; 3 and 5 stages; clusters of 8 and 32 CTAs) and random programs from a new
seed, with the corpus's own generators (scripts/gen_corpus.py).

    scripts/gen_holdout.py [OUT_DIR]      (default tests/golden/holdout)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_corpus as g  # noqa: E402

g.OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "golden", "holdout")
for ctas in (2, 16, 64):
    for rows in (64, 128):
        for stages in (2, 3, 4, 5, 6):
            g.save("gemm_inline", f"c{ctas}_r{rows}_s{stages}", g.pipeline_single(ctas, rows, stages, 16 if ctas <= 32 else 8))
for ctas in (4, 64):
    for rows in (64, 128):
        for stages in (2, 3, 4, 5, 6):
            for consumers in (1, 2):
                g.save("gemm_ws", f"c{ctas}_a{rows}_b{rows}_s{stages}_w{consumers}",
                       g.pipeline_ws(ctas, rows, rows, stages, 16, consumers, rows, rows // 64 * 4 // consumers))
for cluster in (2, 4):
    for ctas in (8, 32):
        for stages in (2, 3):
            g.save("multicast", f"c{ctas}_cl{cluster}_s{stages}_r64",
                   g.pipeline_ws(ctas, 64, 64, stages, 12, 1, 64, 2, cluster=cluster, multicast_b=True))
g.random_programs(60, seed=g.SEED + 1000, family="random")
print(f"gen_holdout: {len(g.written)} scenarios in {g.OUT}")
