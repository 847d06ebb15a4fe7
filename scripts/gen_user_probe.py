#!/usr/bin/env python3
"""Writes tests/golden/user_probe: the user's own consumer code, measured with stamps and predicted
(issue 29, "the user's own code").

Why: the model's `read` costs what the code `tmasim cuda` emits costs (an unrolled run of
ldmatrix.x4 whose results nothing waits for, ~426 cycles a 128x64 fp16 tile). A consumer written
by hand does more: here, Ampere-style, a rolled loop over run-time addresses that feeds each
ldmatrix.x4 fragment straight into an `mma.sync.m16n8k16` accumulating in registers
(tb/gpu/user_consumer.py puts that code in place of each `read` of the emitted programs: the
harness, the producer and the barriers are the emitter's, the consumer is the user's).

Programs (producer/consumer pipelines of 16 KiB tiles, 128x64 fp16, 128B swizzle, each CTA its
own tiles; the consumer waits on a stage, reads it, releases it):
- `measure_c1` (calibration): one CTA, KT = 32, S = 4, a stamp before and after the read in every
  iteration: what a user runs once to measure their consumer (`tmasim costs`).
- `pipe_s{2,4}_c{1,132}`, `pipe_ab_s4_c{1,132}` (judging): no stamps; S stages; `pipe_ab` reads two
  tiles a stage (A and B, 32 KiB stages). The GPU runs them with the user's code.

After the GPU run, `scripts/gen_user_probe.py --costed` writes `costed/*.json`: the judging
programs with the read's "cycles" that `tmasim costs` measured on `measure_c1` (warm).

Rule, stated before the run: the workflow stands if the costed programs are within 10% of the
H100 (kernel cycles, cold and warm) on every program whose time the consumer bounds (all of
them at one CTA), where the model without the measured cost is off by more than 25%.

    scripts/gen_user_probe.py [--costed] [DIR]"""
import json
import os
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if a != "--costed"]
dest = args[0] if args else os.path.join(top, "tests", "golden", "user_probe")
ROWS, TILE, KT = 128, 128 * 128, 32


def read(offset):
    return {"read": {"rows": ROWS, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": offset}}


def pipeline(name, ctas, stages, tiles, stamps):
    stage = TILE * tiles
    loads = [{"arrive": "t % S", "bytes": f"{tiles} * bytes_T"}] + [
        {"load": "T", "coords": [0, f"{ROWS} * (({tiles} * (cta * KT + t)) + {k})"],
         "smem_offset": f"(t % S) * {stage} + {k * TILE}", "barrier": "t % S"} for k in range(tiles)]
    producer = {"name": "producer", "program": [{"loop": "t", "count": "KT", "body": [
        {"if": "t >= S", "wait": "S + t % S", "phase": "t / S - 1"}] + loads}]}
    body = [{"wait": "t % S", "phase": "t / S"}]
    for k in range(tiles):
        r = read(f"(t % S) * {stage} + {k * TILE}")
        body += [{"stamp": "before"}, r, {"stamp": "after"}] if stamps else [r]
    body.append({"arrive": "S + t % S"})
    return {"name": f"user_probe/{name}", "comment": "scripts/gen_user_probe.py",
            "params": {"KT": KT, "S": stages},
            "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2,
                              "global_dims": [64, ROWS * tiles * ctas * KT], "global_strides": [128],
                              "box_dims": [64, ROWS], "element_strides": [1, 1], "swizzle": "128b"}},
            "ctas": [{"count": ctas, "var": "cta", "barriers": [1] * (2 * stages),
                      "threads": [producer, {"name": "consumer", "program": [
                          {"loop": "t", "count": "KT", "body": body}]}]}]}


def programs():
    out = {"measure_c1": pipeline("measure_c1", 1, 4, 1, True)}
    for ctas in (1, 132):
        for s in (2, 4):
            out[f"pipe_s{s}_c{ctas}"] = pipeline(f"pipe_s{s}_c{ctas}", ctas, s, 1, False)
        out[f"pipe_ab_s4_c{ctas}"] = pipeline(f"pipe_ab_s4_c{ctas}", ctas, 4, 2, False)
    return out


def write(directory, name, scenario):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name + ".json"), "w") as f:
        json.dump(scenario, f, indent=1)
        f.write("\n")


def costed():
    tmasim = os.environ.get("TMASIM", os.path.join(top, "build", "tmasim"))
    out = subprocess.run([tmasim, "costs", os.path.join(dest, "measure_c1.json"), "--results",
                          os.path.join(dest, "results.jsonl.gz"), "--l2", "warm"],
                         capture_output=True, text=True, check=True)
    sys.stderr.write(out.stderr)
    measured = json.loads(out.stdout)
    cycles = measured["ctas"][0]["threads"][1]["program"][0]["body"][2]["cycles"]
    for name, s in programs().items():
        if name.startswith("measure"):
            continue
        for step in s["ctas"][0]["threads"][1]["program"][0]["body"]:
            if "read" in step:
                step["cycles"] = cycles
        write(os.path.join(dest, "costed"), name, s)
    print(f"gen_user_probe: the measured read, {cycles} cycles, in {dest}/costed")


def main():
    if "--costed" in sys.argv:
        return costed()
    for name, s in programs().items():
        write(dest, name, s)
    print(f"gen_user_probe: {len(programs())} scenarios in {dest}")


if __name__ == "__main__":
    main()
