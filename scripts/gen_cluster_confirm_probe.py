#!/usr/bin/env python3
"""Writes tests/golden/cluster_confirm_probe/*.json: fresh cluster pipelines, drawn after the
cluster-load probe's run, that judge `thread.cluster_arrive_waits_for_delivery` (issue 29).

The cluster-load probe (tests/golden/cluster_load_probe) found a cluster-scope release costing ~600
cycles a step more from a cold L2 than a CTA-scope one where the producer loads the next stage
while the consumer releases this one; the key models that release as waiting, after its own cost,
for the reads its TMA unit sent meanwhile to be delivered. These programs were not seen by anyone
before the rule in the README was written: scripts/gen_corpus.py pipeline_ws (a producer warp,
1-2 consumer warps, B multicast to the cluster) with its parameters drawn from a seed of their own
(clusters of 2 and 4, 2-128 CTAs, 64- or 128-row boxes, 2-4 stages, 8-24 k-steps, 1-4 mma a step),
the consumer's release at cluster scope (three in four) or CTA scope.

    scripts/gen_cluster_confirm_probe.py [DIR]"""
import os
import random
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "cluster_confirm_probe")
import gen_corpus  # noqa: E402
from probe_files import write_programs  # noqa: E402

SEED, COUNT = 202611270, 24


def draw(rng):
    while True:
        cluster = rng.choice((2, 2, 4))
        ctas = cluster * rng.choice((1, 2, 4, 8, 16, 32))
        rows = rng.choice((64, 128))
        stages = rng.choice((2, 3, 4))
        consumers = rng.choice((1, 2)) if rows == 128 else 1
        if 2 * rows * 128 * stages <= 200 * 1024:
            break
    kt = rng.choice((8, 12, 16, 24))
    mmas = rng.choice((1, 2, 4))
    scope = "cta" if rng.random() < 0.25 else "cluster"
    prog = gen_corpus.pipeline_ws(ctas, rows, rows, stages, kt, consumers, rows, mmas, cluster=cluster, multicast_b=True)
    if scope == "cta":
        release = prog["ctas"][0]["threads"][1]["program"][0]["body"][-1]["body"][0]
        assert "cta" in release
        release["scope"] = "cta"
    return f"{scope}_c{ctas}_cl{cluster}_r{rows}_s{stages}_w{consumers}_m{mmas}_k{kt}", prog


def main():
    rng = random.Random(SEED)
    progs = {}
    while len(progs) < COUNT:
        name, prog = draw(rng)
        prog["name"], prog["comment"] = f"cluster_confirm_probe/{name}", "scripts/gen_cluster_confirm_probe.py"
        progs.setdefault(name, prog)
    write_programs(dest, progs, tool="gen_cluster_confirm_probe")


if __name__ == "__main__":
    main()
