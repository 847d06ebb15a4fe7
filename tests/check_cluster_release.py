#!/usr/bin/env python3
"""A release at cluster scope waits for the SM's reads in flight, as the H100 shows.

tests/golden/microbench/{idle,stream}_cluster_arrive_n{8,32}: one warp does N cluster-scope
arrives between two stamps while another warp streams 16 KiB TMA loads (stream) or does nothing
(idle). The per-arrive cost is the slope between N = 8 and N = 32. On the H100 (cold L2): 659
cycles idle, 1509 beside the stream. The model must give both within 10% (its constants come from
other microbenchmarks; the mechanism has no parameter of its own), and with the mechanism off
(thread.cluster_arrive_waits_for_reads = false) the stream must cost what idle does: the
mechanism, not something else, makes the difference.

usage: check_cluster_release.py TMASIM WORKDIR     prints 'N passed, M failed'"""
import gzip
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MICRO = os.path.join(TOP, "tests", "golden", "microbench")
tmasim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
checks = Checks()
h100 = {}
with gzip.open(os.path.join(MICRO, "results.jsonl.gz"), "rt") as f:
    for line in f:
        r = json.loads(line)
        h100[r["file"]] = r


def loop_cycles_model(name, *sets):
    stats = os.path.join(work, name + ".stats.json")
    cmd = [tmasim, "run", os.path.join(MICRO, name + ".json"), "--timing-only", "--stats", stats]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(stats) as f:
        stamps = json.load(f)["stamps"][0][0]  # CTA 0, the arriving warp: loop start, end
    return stamps[1] - stamps[0]


def loop_cycles_h100(name):
    stamps = h100[name + ".json"]["cold"]["stamps"][0][0]
    return stamps[1] - stamps[0]


def per_arrive(loop_cycles, kind, *sets):
    return (loop_cycles(f"{kind}_cluster_arrive_n32", *sets) - loop_cycles(f"{kind}_cluster_arrive_n8", *sets)) / 24


for kind in ("idle", "stream"):
    gpu = per_arrive(loop_cycles_h100, kind)
    model = per_arrive(loop_cycles_model, kind)
    checks(abs(model - gpu) <= 0.10 * gpu,
           f"{kind}: a cluster-scope arrive costs {model:.0f} cycles in the model, {gpu:.0f} on the H100 (cold L2)")
off = "thread.cluster_arrive_waits_for_reads=false"
idle_off, stream_off = per_arrive(loop_cycles_model, "idle", off), per_arrive(loop_cycles_model, "stream", off)
checks(abs(stream_off - idle_off) <= 1,
       f"mechanism off: beside the stream {stream_off:.0f} cycles, idle {idle_off:.0f} (must be equal)")
checks.finish()
