#!/usr/bin/env python3
"""Issue 30's first bound, over every wgmma set's validation half at once: the programs with real
wgmma measured on the H100 and never fitted to, judged at the SM clock each run had.

  tests/golden/wgmma_probe        pipe/ (split.txt: validation)   warp-specialised mainloops, 1 and 132 CTAs
  tests/golden/arrive_scope_probe gemm/ (validation)              examples/gemm_hopper.json at cuBLAS's tiles
  tests/golden/coopb_probe        gemm/ (validation)              column-split (coopB) GEMM tiles
  tests/golden/stage_probe        (split.txt: validation)         the GEMM example at 2-6 stages and tiles
  tests/golden/attention_probe    attention/ (validation)         examples/attention_hopper.json

For cold and warm L2: per set and together, the kernel median |error| and the share within 25%,
as a Markdown table. `tmasim compare --split validation --clock measured --csv` does the judging.

    scripts/wgmma_validation.py [BUILD_DIR] > table.md        (2 cores: about 25 minutes)
"""
import csv
import os
import statistics
import subprocess
import sys
import tempfile

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build")
tmasim = os.path.join(build, "tmasim")
SETS = ["wgmma_probe", "arrive_scope_probe", "coopb_probe", "stage_probe", "attention_probe"]
# coopb_probe and attention_probe declare a whole family validation ("gemm/ validation"): every program.
WHOLE = {"coopb_probe", "attention_probe"}
STATES = ["cold", "warm"]


def errors(probe, l2):
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        half = "all" if probe in WHOLE else "validation"
        subprocess.run([tmasim, "compare", os.path.join(top, "tests", "golden", probe), "--split", half,
                        "--l2", l2, "--clock", "measured", "--csv", out.name], check=False, capture_output=True)
        rows = list(csv.DictReader(open(out.name)))
    return [abs(float(r["kernel_error"])) for r in rows if r.get("kernel_error") not in (None, "")]


def cell(e):
    if not e:
        return "-", "-"
    return f"{100 * statistics.median(e):.1f}%", f"{100 * sum(x <= 0.25 for x in e) / len(e):.0f}%"


def main():
    table = {(p, l2): errors(p, l2) for p in SETS for l2 in STATES}
    print("| set (validation half) | programs | cold median | cold within 25% | warm median | warm within 25% |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for p in SETS + ["all"]:
        per = {l2: (sum((table[(q, l2)] for q in SETS), []) if p == "all" else table[(p, l2)]) for l2 in STATES}
        cells = [c for l2 in STATES for c in cell(per[l2])]
        name = "**all together**" if p == "all" else f"`{p}`"
        print(f"| {name} | {len(per['cold'])} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
