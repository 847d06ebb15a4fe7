#!/usr/bin/env python3
"""The real-kernel examples against the library kernels they describe (issue 30): for each cuDNN
flash-attention call in LIBRARY (scripts/gpu_cublas_reference.py's JSON lines), the model runs
examples/attention_hopper.json with the call's B H S D and causality (the example's other defaults:
BM 128, BN 128, STAGES 2, SOFTMAX 866, REGS 168) at the SM clock the kernel ran at (ncu's "SM
Frequency" in LAUNCH, scripts/gpu_cublas_reference.py --attention-once under ncu), warm and cold L2,
and prints a Markdown table: model us against the library's median us, and the error.

    scripts/library_table.py [LIBRARY [LAUNCH]]  (defaults: tests/golden/attention_probe/{library_shapes,sdpa_launch}.jsonl)
    TMASIM=build/tmasim, JOBS=2"""
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
probe = os.path.join(top, "tests", "golden", "attention_probe")
library = sys.argv[1] if len(sys.argv) > 1 else os.path.join(probe, "library_shapes.jsonl")
launch = sys.argv[2] if len(sys.argv) > 2 else os.path.join(probe, "sdpa_launch.jsonl")
tmasim = os.environ.get("TMASIM", os.path.join(top, "build", "tmasim"))
example = os.path.join(top, "examples", "attention_hopper.json")


def key(r):
    return (r["B"], r["H"], r["S"], r["D"], bool(r["causal"]))


def model_us(shape, mhz, l2):
    b, h, s, d, causal = shape
    cmd = [tmasim, "run", example, "--timing-only", "--l2", l2, "--stats", "-", "--set", f"B={b}", "--set", f"H={h}",
           "--set", f"S={s}", "--set", f"D={d}", "--set", f"CAUSAL={int(causal)}", "--set", f"sm_clock_mhz={mhz:.0f}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    stats = json.loads(out)
    return stats["cycles"] / mhz


def main():
    calls = [json.loads(l) for l in open(library) if '"sdpa"' in l]
    clocks = {}
    for l in open(launch):
        r = json.loads(l)
        clocks[key(r)] = float(r["SM Frequency"]["value"].replace(",", "")) / 1e6
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("JOBS", "2"))) as pool:
        for c in calls:
            for l2 in ("warm", "cold"):
                jobs[(key(c), l2)] = pool.submit(model_us, key(c), clocks[key(c)], l2)
    print("| B H S D | causal | kernel (cuDNN) | SM MHz (ncu) | cuDNN us warm | model us warm | error | "
          "cuDNN us cold | model us cold | error |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    errors = {"warm": [], "cold": []}
    for c in calls:
        k = key(c)
        row = [f"{c['B']} {c['H']} {c['S']} {c['D']}", "yes" if c["causal"] else "no",
               "`..." + c["kernels"][-1].split("wgmma_f16_")[-1][:40] + "`", f"{clocks[k]:.0f}"]
        for l2, field in (("warm", "us"), ("cold", "cold_us")):
            lib, mod = c[field]["median"], jobs[(k, l2)].result()
            err = 100.0 * (mod - lib) / lib
            errors[l2].append(abs(err))
            row += [f"{lib:.1f}", f"{mod:.1f}", f"{err:+.1f}%"]
        print("| " + " | ".join(row) + " |")
    for l2, e in errors.items():
        print(f"\n{l2}: median |error| {statistics.median(e):.1f}%, largest {max(e):.1f}%, "
              f"{sum(x <= 25 for x in e)} of {len(e)} within 25%", end="")
    print()


if __name__ == "__main__":
    main()
