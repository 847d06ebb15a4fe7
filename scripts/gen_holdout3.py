#!/usr/bin/env python3
"""Writes tests/golden/holdout3/<family>/<name>.json: a third held-out set (issue 29), generated
on 2026-11-28 from a seed of its own (20261128), before its H100 run, to judge the thread-cost
refit (`configs/h100_loop_refit.json`) and a prefetch's own issue cost on programs that neither
they nor anyone choosing them saw. Nothing is fitted to it.

Families (every parameter drawn by the seeded generator):
- gemm_ws: warp-specialised GEMM feeds (the corpus's `pipeline_ws`), 1 to 132 CTAs, A and B
  tiles of 64-256 rows, 2-6 stages, 1 or 2 consumers, 0-8 `compute` steps, K 8-24 tiles.
- gemm_inline: one warp loading and reading its own ring (the corpus's `pipeline_single`).
- prefetch: streams prefetching the tile 1-8 loads ahead, before the stage's wait or after the
  load, 1 to 132 CTAs.
- shared, store, cluster, conflict, costed, random: `scripts/gen_holdout2.py`'s families drawn
  again from this seed.

    scripts/gen_holdout3.py [OUT_DIR [SEED]]   (default tests/golden/holdout3, 20261128)

The fourth held-out set (2026-11-29, H200) is the same families from the seed 20261129:
    scripts/gen_holdout3.py tests/golden/holdout4 20261129
and the fifth (2026-11-29, H200; it judged candidates C, D and F) from the seed 20261130:
    scripts/gen_holdout3.py tests/golden/holdout5 20261130
and the sixth (2026-12-07, H100; it judges candidate S) from the seed 20261207:
    scripts/gen_holdout3.py tests/golden/holdout6 20261207
and the seventh (2026-12-07, H100; for a GPC-path candidate) from the seed 20261208:
    scripts/gen_holdout3.py tests/golden/holdout7 20261208
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_corpus as g  # noqa: E402
import gen_holdout2 as h2  # noqa: E402

g.OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "golden", "holdout3")
r = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20261128)
h2.r = r
SMEM_LIMIT = 200 * 1024


def gemm_ws(n):
    made = 0
    while made < n:
        ctas = r.choice([1, 4, 16, 66, 132])
        rows_a, rows_b = r.choice([(64, 64), (64, 128), (128, 64), (128, 128), (128, 256), (256, 128)])
        stages, consumers, kt = r.randint(2, 6), r.choice([1, 2]), r.choice([8, 12, 16, 24])
        if (rows_a + rows_b) * 128 * stages > SMEM_LIMIT:
            continue
        mmas = r.choice([0, 1, 2, 4, 8])
        g.save("gemm_ws", f"g{made:02d}_c{ctas}_a{rows_a}_b{rows_b}_s{stages}_w{consumers}_m{mmas}_k{kt}",
               g.pipeline_ws(ctas, rows_a, rows_b, stages, kt, consumers, min(rows_b, 256), mmas))
        made += 1


def gemm_inline(n):
    made = 0
    while made < n:
        ctas, rows = r.choice([1, 4, 16, 66, 132]), r.choice([64, 128, 256])
        stages, kt = r.randint(2, 6), r.choice([8, 12, 16, 24])
        if 2 * rows * 128 * stages > SMEM_LIMIT:
            continue
        g.save("gemm_inline", f"i{made:02d}_c{ctas}_r{rows}_s{stages}_k{kt}", g.pipeline_single(ctas, rows, stages, kt))
        made += 1


def prefetch(n):
    for k in range(n):
        ctas, rows, stages = r.choice([1, 8, 33, 132]), r.choice([64, 128]), r.choice([2, 3, 4])
        iters, ahead, after = r.choice([16, 32, 48]), r.choice([1, 2, 4, 8]), r.random() < 0.5
        g.save("prefetch", f"f{k:02d}_c{ctas}_r{rows}_s{stages}_n{iters}_d{ahead}_{'after' if after else 'before'}",
               h2.prefetch_stream(ctas, rows, {"N": iters, "S": stages, "D": ahead}, ahead="D", after=after))


if __name__ == "__main__":
    gemm_ws(12)
    gemm_inline(10)
    prefetch(10)
    h2.shared(8)
    h2.store(8)
    h2.cluster(8)
    h2.conflict(8)
    h2.costed(6)
    h2.random_wide(30)
    print(f"gen_holdout3: {len(g.written)} scenarios in {g.OUT}")
