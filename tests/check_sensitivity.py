#!/usr/bin/env python3
"""Is the timing model's sensitivity sane? Two kinds of check.

Against silicon: the corpus runs the same GEMM feeds with 2 to 6 shared-memory stages
(gemm_inline/cC_rR_sS, gemm_ws/cC_aA_bB_sS_wW). For every such group the change in cycles
from the fewest to the most stages must go the way the H100's does (where the H100 moved by
more than 5%), and by roughly as much: within 15 points of the H100's relative change.
All stage counts of a group are compared (the fewest against the most). Until 2026-11-28 they were
compared within one class of loop arithmetic (powers of two, the others): the 64-bit emitter's loops
indexed the stage by k % S and k / S, a multiply-high chain when S is not a power of two, ~150
cycles an iteration on the H100 (tests/golden/loop_probe). Today's emitter keeps the stage and
phase as counters (as CUTLASS does), and re-measured with it every group's spans at 2-6 stages
agree within 3% where the stages do not bind (tests/golden/scenarios/README.md). The probe's loop
with the stage as a loop variable is one more group (2 -> 6 stages).

Without silicon (a GPU cannot halve its issue cost or double its banks): on the built-in GEMM
feed, cycles must not fall when the issue cost rises (86 -> 172 -> 344 cycles), must not rise
when banks are added (16 -> 32 -> 64), and must fall from 1 to 6 stages, no step rising by more than 5%; halving the
issue cost must save at most what the issue costs in the whole run.

usage: check_sensitivity.py TMASIM WORKDIR [--max-failures N]     prints 'N passed, M failed'
Exit status 1 when more than N checks fail (default 0): a ratchet while the model is short of it."""
import collections
import csv
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
tmasim, work = sys.argv[1], sys.argv[2]
max_failures = int(sys.argv[sys.argv.index("--max-failures") + 1]) if "--max-failures" in sys.argv else 0
os.makedirs(work, exist_ok=True)
check = Checks()


# --- stages, against the H100
groups = collections.defaultdict(dict)


def add_groups(prefix, compare_args, table, pattern):
    """Runs `tmasim compare`; each scenario whose file matches `pattern` (name, stages, rest) joins
    the group prefix/name*rest under its stage count, as (model cycles, H100 cycles)."""
    subprocess.run([tmasim, "compare"] + compare_args + ["--csv", table], capture_output=True, check=False)
    with open(table) as f:
        for r in csv.DictReader(f):
            m = re.match(pattern, r["file"])
            if m and r["status"] != "error":
                groups[prefix + "/" + m.group(1) + "*" + m.group(3)][int(m.group(2))] = (
                    float(r["model_cycles"]), float(r["h100_cycles"]))


corpus = os.path.join(TOP, "tests", "golden", "scenarios")
for family in ("gemm_inline", "gemm_ws"):
    add_groups(family, [os.path.join(corpus, family), os.path.join(corpus, "results.jsonl.gz")],
               os.path.join(work, family + ".csv"), r"(.*)_s(\d+)(.*)\.json")
add_groups("loop_probe", [os.path.join(TOP, "tests", "golden", "loop_probe")], os.path.join(work, "loop_probe.csv"),
           r"(gemm_nomod)_s(\d+)(_n48)\.json")


for name, by_stages in sorted(groups.items()):
    if len(by_stages) < 2:
        continue
    lo, hi = min(by_stages), max(by_stages)
    model = by_stages[hi][0] / by_stages[lo][0] - 1
    gpu = by_stages[hi][1] / by_stages[lo][1] - 1
    same_way = abs(gpu) <= 0.05 or math.copysign(1, model) == math.copysign(1, gpu) or abs(model) <= 0.02
    check(same_way and abs(model - gpu) <= 0.15, f"{name}: {lo} -> {hi} stages, H100 {gpu:+.1%}, model {model:+.1%}")


# --- monotone responses on the built-in GEMM feed
def sweep(setting):
    out = os.path.join(work, "sweep")
    subprocess.run([tmasim, "sweep", "--set", setting, "--no-plot", "-o", out], capture_output=True, check=True)
    with open(out + ".csv") as f:
        return [float(r["cycles"]) for r in csv.DictReader(f)]


issue = sweep("issue.cycles=86,172,344")
check(issue[0] <= issue[1] <= issue[2], f"issue cost 86/172/344 cycles: {issue}")
check(issue[1] - issue[0] <= 86 * 32 * 1.0, "halving the issue cost saves at most the 86 x 32 issues of a thread")
banks = sweep("smem.banks=16,32,64")
check(banks[0] >= banks[1] >= banks[2], f"16/32/64 banks: {banks}")
stages = sweep("STAGES=1,2,4,6")
# The H100 itself is slower with more stages in some groups (by up to 14%), so 5% is allowed.
check(stages[0] > stages[-1] and all(b <= a * 1.05 for a, b in zip(stages, stages[1:])), f"1/2/4/6 stages: {stages}")
check.finish(max_failures)
