#!/usr/bin/env python3
"""The real-kernel examples against the library kernels they describe (issue 30), as Markdown.

For each cuBLAS GEMM in LIBRARY (scripts/gpu_cublas_reference.py's JSON lines) whose kernel the
example can express (nvjet_sm90_<types>_<BM>x<BN>_<BK>x<STAGES>_<CM>x<CN>_...: BK 64, BM
64 or a multiple of 128, BN of 64 up to 256, no split-K), the model runs examples/gemm_hopper.json with the call's M N K
and the kernel's BM BN STAGES CLUSTER_M CLUSTER_N and its split (coopB: COOP_B 1; a 64-row tile, whose two
consumer warpgroups can only split its columns, too) (a bf16 call as the fp16 example: the same bytes
and, on the H100, the same wgmma rate); for each cuDNN flash attention, examples/attention_hopper.json
with its B H S D and causality (the example's defaults otherwise: BM 128, BN 128, STAGES 2, SOFTMAX
866 from tb/gpu/softmax_step_probe.cu, REGS 168 as ncu reports cuDNN's). Each at the SM clock the
library kernel itself ran at (ncu's "SM Frequency", --clock-control none: GEMM_LAUNCH, SDPA_LAUNCH),
warm and cold L2, against the library's median time. The model's time is the CTAs' cycles at that clock
plus the launch as CUDA events time it (gpu.launch_event_overhead_us, tests/golden/launch_probe), as the
library's were timed. Nothing here is fitted.

    scripts/library_table.py [--attention-only | --gemm-only] > table.md
    (inputs: tests/golden/attention_probe/{library_shapes,gemm_launch,sdpa_launch}.jsonl;
     TMASIM=build/tmasim, JOBS=2)"""
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
probe = os.path.join(top, "tests", "golden", "attention_probe")
tmasim = os.environ.get("TMASIM", os.path.join(top, "build", "tmasim"))
NAME = re.compile(r"nvjet_sm90_[a-z]+_(\d+)x(\d+)_(\d+)x(\d+)_(\d)x(\d)_")


def model_us(example, params, mhz, l2):
    cmd = [tmasim, "run", os.path.join(top, "examples", example), "--timing-only", "--l2", l2, "--stats", "-",
           "--set", f"sm_clock_mhz={mhz:.0f}"]
    for k, v in params.items():
        cmd += ["--set", f"{k}={v}"]
    stats = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return stats["event_microseconds"] - stats["microseconds"] + stats["cycles"] / mhz


def gemm_params(call, kernel):
    m = NAME.search(kernel)
    if not m:
        return None, "not an nvjet_sm90 name"
    bm, bn, bk, stages, cm, cn = map(int, m.groups())
    if "splitK" in kernel:
        return None, "split-K"
    coop_b = "coopB" in kernel  # the consumer warpgroups split the tile's columns, not its rows
    if bm == 64:  # one m64 of rows: two consumer warpgroups can share such a tile only by its columns
        coop_b = True
    if bk != 64 or bn > 256 or (bm % 64 or (bn // 2) % 32 or bn % 2 if coop_b else bm % 128 or bn % 64):
        return None, f"tile {bm}x{bn}x{bk}"
    return {"M": call["M"], "N": call["N"], "K": call["K"], "BM": bm, "BN": bn, "STAGES": stages,
            "CLUSTER_M": cm, "CLUSTER_N": cn, "COOP_B": int(coop_b)}, ""


def launch_clocks(path, key):
    out = {}
    for line in open(path):
        r = json.loads(line)
        out[key(r)] = (float(r["SM Frequency"]["value"].replace(",", "")) / 1e6, r["kernel"])
    return out


def main():
    calls = [json.loads(l) for l in open(os.path.join(probe, "library_shapes.jsonl"))]
    gkey = lambda r: (r["dtype"], r["M"], r["N"], r["K"])
    akey = lambda r: (r["B"], r["H"], r["S"], r["D"], bool(r["causal"]))
    gclock = launch_clocks(os.path.join(probe, "gemm_launch.jsonl"), gkey)
    aclock = launch_clocks(os.path.join(probe, "sdpa_launch.jsonl"), akey)
    rows = []  # (section, label, kernel, mhz, call, example, params, why-not)
    for c in calls:
        if c["op"] == "matmul" and "--attention-only" not in sys.argv:
            mhz, kernel = gclock[gkey(c)]
            params, why = gemm_params(c, kernel)
            rows.append(("gemm", f"{c['dtype']} {c['M']} {c['N']} {c['K']}", kernel, mhz, c, "gemm_hopper.json", params, why))
        elif c["op"] == "sdpa" and "--gemm-only" not in sys.argv:
            mhz, kernel = aclock[akey(c)]
            params = {"B": c["B"], "H": c["H"], "S": c["S"], "D": c["D"], "CAUSAL": int(c["causal"])}
            label = f"{c['B']} {c['H']} {c['S']} {c['D']}" + (" causal" if c["causal"] else "")
            rows.append(("attention", label, kernel, mhz, c, "attention_hopper.json", params, ""))
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("JOBS", "2"))) as pool:
        for i, (_, _, _, mhz, _, example, params, _) in enumerate(rows):
            if params:
                for l2 in ("warm", "cold"):
                    jobs[(i, l2)] = pool.submit(model_us, example, params, mhz, l2)
    for section, title in (("gemm", "cuBLAS GEMMs (`examples/gemm_hopper.json`)"),
                           ("attention", "cuDNN flash attention (`examples/attention_hopper.json`)")):
        picked = [i for i, r in enumerate(rows) if r[0] == section]
        if not picked:
            continue
        print(f"\n### {title}\n")
        print("| call | library kernel | SM MHz (ncu) | library us warm | model | error | library us cold | model | error |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        errors = {"warm": [], "cold": []}
        for i in picked:
            _, label, kernel, mhz, call, _, params, why = rows[i]
            short = kernel.replace("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_", "")[:48]
            cells = [label, f"`{short}`", f"{mhz:.0f}"]
            for l2, field in (("warm", "us"), ("cold", "cold_us")):
                lib = call[field]["median"]
                if not params:
                    cells += [f"{lib:.1f}", f"not expressible ({why})", ""]
                    continue
                mod = jobs[(i, l2)].result()
                err = 100.0 * (mod - lib) / lib
                errors[l2].append(abs(err))
                cells += [f"{lib:.1f}", f"{mod:.1f}", f"{err:+.1f}%"]
            print("| " + " | ".join(cells) + " |")
        print()
        for l2, e in errors.items():
            print(f"- {l2} L2: {len(e)} calls, median |error| {statistics.median(e):.1f}%, largest {max(e):.1f}%, "
                  f"{sum(x <= 25 for x in e)} of {len(e)} within 25%")


if __name__ == "__main__":
    main()
