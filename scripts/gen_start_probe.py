#!/usr/bin/env python3
"""Writes tests/golden/start_probe/*.json: what a cold L2 costs a kernel's start, by CTAs and bytes
(issue 29).

The cold-step probe (tests/golden/cold_step_probe) found the in-line GEMM loop's cold penalty in its
start, growing with the CTAs: 114-485 cycles at one CTA, 554-813 at 8, ~1930 at 32 (the model 0-555),
the same at 4 and 6 stages (2 or 3 MiB at 32 CTAs). Either each CTA's first load costs something
that does not depend on its bytes (the tensor map's first fetch, a page walk) and queues with the
other CTAs', or the DRAM serves a start burst slower than a stream. Each program is one thread a
CTA that issues its loads and waits for them, so that the kernel is its start:

  tiny_own_c{n}     one 8 KiB box a CTA, each CTA its own
  tiny_shared_c{n}  one 8 KiB box a CTA, all CTAs the same box
  burst_own_c{n}    6 stages of two 8 KiB boxes (96 KiB) a CTA, each CTA its own: the cold-step
                    probe's start

with n = 1, 8, 32 and 132 CTAs. A start's cost from a cold L2 is the cold_clean (or cold) run's time
less the warm run's.

    scripts/gen_start_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "start_probe")
from probe_files import write_programs  # noqa: E402

SMS, STAGES = 132, 6


def tensor():
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64 * STAGES, 64 * SMS],
            "global_strides": [128 * STAGES], "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}


def program(kind, ctas):
    row = "0" if kind == "tiny_shared" else "64 * cta"
    stages = STAGES if kind == "burst_own" else 1
    loads = ["A", "B"] if kind == "burst_own" else ["A"]
    body = [{"arrive": "s", "bytes": " + ".join(f"bytes_{t}" for t in loads)}]
    body += [{"load": t, "coords": ["64 * s", row], "smem_offset": f"s * 16384 + {8192 * i}", "barrier": "s"}
             for i, t in enumerate(loads)]
    name = f"{kind}_c{ctas}"
    return name, {"name": f"start_probe/{name}", "comment": "scripts/gen_start_probe.py",
                  "params": {"S": stages},
                  "tensors": {t: tensor() for t in loads},
                  "ctas": [{"count": ctas, "barriers": [1] * stages, "program": [
                      {"loop": "s", "count": "S", "body": body},
                      {"loop": "s", "count": "S", "body": [{"wait": "s", "phase": "0"}]}]}]}


def main():
    progs = dict(program(k, n) for k in ("tiny_own", "tiny_shared", "burst_own") for n in (1, 8, 32, 132))
    write_programs(dest, progs, tool="gen_start_probe")


if __name__ == "__main__":
    main()
