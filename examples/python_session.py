#!/usr/bin/env python3
"""A session with tmasim from Python, as one would have it in Jupyter (run as a test: ctest
python_session). Writes its figure to OUT (default: the current directory).

    PYTHONPATH=build/python python3 examples/python_session.py [OUT]"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import tmasim  # noqa: E402

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1] if len(sys.argv) > 1 else "."
gemm = os.path.join(top, "examples", "gemm_pipeline.json")

# One run: the statistics dict of `tmasim run --stats`.
stats = tmasim.run(gemm)
print(f"{tmasim.version()}: {stats['cycles']:.0f} cycles, {stats['microseconds']:.2f} us; "
      f"{stats['bottleneck']['verdict']}")

# A what-if: twice the shared-memory banks, half the TMA issue cost.
faster = tmasim.run(gemm, set={"smem.banks": 64, "issue.cycles": 43})
print(f"64 banks, issue 43 cycles: {faster['cycles']:.0f} cycles ({faster['cycles'] / stats['cycles']:.2f}x)")

# A sweep into a DataFrame, and a plot of it.
df = tmasim.sweep(gemm, {"STAGES": [1, 2, 3, 4, 6], "issue.cycles": [43, 86, 172]})
print(df[["STAGES", "issue.cycles", "cycles", "verdict"]].to_string(index=False))
fig, ax = plt.subplots(figsize=(6, 4))
for issue, rows in df.groupby("issue.cycles"):
    ax.plot(rows["STAGES"], rows["cycles"], marker="o", label=f"issue.cycles = {issue}")
ax.set_xlabel("STAGES")
ax.set_ylabel("cycles")
ax.set_title("examples/gemm_pipeline.json")
ax.legend()
figure = os.path.join(out, "python_session.png")
fig.savefig(figure, dpi=100)
print(f"figure: {figure}")

# An attention feed's limit, per thread role.
att = tmasim.run(os.path.join(top, "examples", "attention_hopper.json"), set={"B": 1, "H": 2, "S": 1024})
print(f"attention: {att['cycles']:.0f} cycles; {att['bottleneck']['verdict']}")
