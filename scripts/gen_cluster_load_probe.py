#!/usr/bin/env python3
"""Writes tests/golden/cluster_load_probe/*.json: why clusters of 2 run 16-25% slower on the H100 than
in the model at 64-128 CTAs when they run within 5-8% at 2 CTAs, and why such a cluster costs the
H100 ~720 cycles an iteration more from a cold L2 where the model charges ~210. (issue 29)

The corpus's multicast/c*_cl2_s2_r128 (scripts/gen_corpus.py pipeline_ws: a producer warp loads a
16 KiB A box per CTA and, on rank 0, a 16 KiB B box multicast to both CTAs of the cluster; one
consumer warp waits, reads both with ldmatrix, runs 2 mma and releases the stage to both ranks with
an arrive addressed by rank), varied one thing at a time:

  {scope}_{b}_c{ctas}_k{kt}
    scope  cluster: the arrive by rank released at cluster scope (mapa + arrive.release.cluster, the
                    corpus's); cta: at CTA scope (mbarrier.arrive.shared::cluster, CUTLASS's).
    b      mc: B multicast from rank 0 (the corpus's); own: each CTA loads its own B box (the empty
           barriers still take both ranks' arrivals).
    ctas   2, 32 or 128 (clusters of 2, one CTA an SM).
    kt     12 or 36 k-steps: a step's cost is the slope between them. The loads read k-step k % 12's
           boxes, so that the footprint is the corpus program's at any kt (24 MiB of A and 12 of B
           at 128 CTAs, multicast: resident warm) and kt = 12 is the corpus program itself: from a
           cold L2 its 12 steps miss and the next 24 hit, so a cold step's cost is the kt = 12
           run's time less the warm one's, and the warm slope is a step's cost at that scale.

    scripts/gen_cluster_load_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "cluster_load_probe")
import gen_corpus  # noqa: E402
from probe_files import write_programs  # noqa: E402

ROWS, STAGES, CLUSTER, PERIOD = 128, 2, 2, 12


def program(scope, multicast, ctas, kt):
    prog = gen_corpus.pipeline_ws(ctas, ROWS, ROWS, STAGES, kt, 1, ROWS, 2, cluster=CLUSTER, multicast_b=multicast)
    for load in prog["ctas"][0]["threads"][0]["program"][0]["body"]:
        if "load" in load:
            assert load["coords"][0] == "64 * k"
            load["coords"][0] = f"64 * (k % {PERIOD})"
    if scope == "cta":
        consumer = prog["ctas"][0]["threads"][1]["program"][0]["body"]
        release = consumer[-1]["body"][0]
        assert "cta" in release
        release["scope"] = "cta"
    name = f"{scope}_{'mc' if multicast else 'own'}_c{ctas}_k{kt}"
    prog["name"] = f"cluster_load_probe/{name}"
    prog["comment"] = "scripts/gen_cluster_load_probe.py"
    return name, prog


def main():
    progs = {}
    for scope in ("cluster", "cta"):
        for multicast in (True, False):
            for ctas in (2, 32, 128):
                for kt in (12, 36):
                    name, prog = program(scope, multicast, ctas, kt)
                    progs[name] = prog
    write_programs(dest, progs, tool="gen_cluster_load_probe")


if __name__ == "__main__":
    main()
