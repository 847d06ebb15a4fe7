#!/usr/bin/env python3
"""Is the timing model's sensitivity sane? Two kinds of check.

Against silicon: the corpus runs the same GEMM feeds with 2 to 6 shared-memory stages
(gemm_inline/cC_rR_sS, gemm_ws/cC_aA_bB_sS_wW). For every such group the change in cycles
from the fewest to the most stages must go the way the H100's does (where the H100 moved by
more than 5%), and by roughly as much: within 15 points of the H100's relative change.
Stage counts are compared within one class of loop arithmetic: powers of two (2 -> 4) and the
others (3 -> 6). The emitted loops index the stage by k % S and k / S, a mask and a shift when S
is a power of two, a multiply-high chain otherwise; tests/golden/loop_probe shows that chain, not
the stages, is what makes 3, 5 and 6 stages ~150 cycles an iteration slower than 2 and 4 on the
H100 (4 stages in 6 stages' footprint as fast as 4; with the stage as a loop variable, 2, 3, 4
and 6 stages within 1%), and the model does not model the thread's integer arithmetic. The probe's
loop with the stage as a loop variable is one more group (2 -> 6 stages).

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


def power_of_two(n):
    return n & (n - 1) == 0


for name, by_stages in sorted(groups.items()):
    classes = [sorted(by_stages)] if name.startswith("loop_probe/") else \
        [[s for s in sorted(by_stages) if power_of_two(s) == p] for p in (True, False)]
    if len(by_stages) >= 2 and not any(len(c) == len(by_stages) for c in classes):
        lo, hi = min(by_stages), max(by_stages)
        print(f"info {name}: {lo} -> {hi} stages (not compared: other loop arithmetic), "
              f"H100 {by_stages[hi][1] / by_stages[lo][1] - 1:+.1%}, model {by_stages[hi][0] / by_stages[lo][0] - 1:+.1%}")
    for stages in classes:
        if len(stages) < 2:
            continue
        lo, hi = stages[0], stages[-1]
        model = by_stages[hi][0] / by_stages[lo][0] - 1
        gpu = by_stages[hi][1] / by_stages[lo][1] - 1
        same_way = abs(gpu) <= 0.05 or math.copysign(1, model) == math.copysign(1, gpu) or abs(model) <= 0.02
        check(same_way and abs(model - gpu) <= 0.15,
              f"{name}: {lo} -> {hi} stages, H100 {gpu:+.1%}, model {model:+.1%}")


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
