#!/usr/bin/env python3
"""Writes tests/golden/cta_step_probe/*.json: what a step of a cluster pipeline with CTA-scope
releases costs the H100 beyond the model (issue 29).

The cluster-load probe's CTA-scope pipelines (tests/golden/cluster_load_probe/cta_*) take 1392
cycles a step warm at 2 and 32 CTAs, the model 1216, and the cluster-confirm probe's CTA-scope
programs are 13-18% fast. These take that step apart at 2 CTAs (one cluster), each CTA loading its
own A and B (no multicast), one thing removed at a time:

  own        the cluster-load probe's cta_own: wait, read A and B (128 rows each), 2 mma, release
             the stage to both ranks (arrive by rank at CTA scope)
  own_self   the release to its own rank only (the empty barrier takes one arrival): no crossing
  own_cl1    no cluster: two independent CTAs, a local arrive
  own_noread the consumer without its two reads
  own_nomma  the consumer without its mma

each at kt 12 and 36 (loads of k-step k % 12's boxes, as there): a step's cost is the slope.

    scripts/gen_cta_step_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "cta_step_probe")
import gen_corpus  # noqa: E402
from probe_files import write_programs  # noqa: E402

ROWS, STAGES, PERIOD = 128, 2, 12


def program(variant, kt):
    cluster = 1 if variant == "own_cl1" else 2
    prog = gen_corpus.pipeline_ws(2, ROWS, ROWS, STAGES, kt, 1, ROWS, 2, cluster=cluster, multicast_b=False)
    producer, consumer = (t["program"][0]["body"] for t in prog["ctas"][0]["threads"])
    for step in producer:
        if "load" in step:
            step["coords"][0] = f"64 * (k % {PERIOD})"
    if cluster == 2:
        consumer[-1]["body"][0]["scope"] = "cta"
    if variant == "own_self":
        consumer[-1] = {"arrive": "S + k % S", "cta": "cluster_rank", "scope": "cta"}
        prog["params"]["E"] = 1
    if variant == "own_noread":
        consumer[:] = [s for s in consumer if "read" not in s]
    if variant == "own_nomma":
        consumer[:] = [s for s in consumer if "compute" not in s]
    name = f"{variant}_k{kt}"
    prog["name"], prog["comment"] = f"cta_step_probe/{name}", "scripts/gen_cta_step_probe.py"
    return name, prog


def main():
    progs = dict(program(v, kt) for v in ("own", "own_self", "own_cl1", "own_noread", "own_nomma") for kt in (12, 36))
    write_programs(dest, progs, tool="gen_cta_step_probe")


if __name__ == "__main__":
    main()
