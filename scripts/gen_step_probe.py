#!/usr/bin/env python3
"""Writes tests/golden/step_probe/*.json: each step of the corpus's GEMM loops, stamped, so that the
H100's time for a step stands beside the model's (issue 29).

With the programs `tmasim cuda` emits today (stage and phase as counters), the corpus's
warp-specialised GEMMs are 10-16% fast in the model warm (held-out c4_a64_b64_s4_w1: consumer 14352
cycles on the H100, the model 11223) and the cta-step probe put the gap in the consumer's loop.
These are the held-out set's shapes at 4 CTAs and 4 stages, kt 32, with a `stamp` before and after
every step of every loop (two back to back at the top of each iteration: the stamp's own cost):

  ws_a64     producer + one consumer, A and B 64x64 fp16, compute m64n64k16 x 4
  ws_a128    the same at 128x64, m64n128k16 x 8
  ws_a64_w2  two consumers, each reading its half of A (32 rows) and all of B
  inline_r64 one warp: wait, read A and B, arrive.expect_tx and refill (gemm_inline)

and each again without stamps (`_plain`), which says what the stamps themselves cost.

    scripts/gen_step_probe.py [DIR]"""
import copy
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "step_probe")
import gen_corpus  # noqa: E402
from probe_files import write_programs  # noqa: E402

CTAS, STAGES, KT = 4, 4, 32


def label(step, i):
    for kind in ("wait", "read", "compute", "arrive", "load"):
        if kind in step:
            name = step[kind] if kind == "load" else ""
            return f"{i}_{kind}{name}"
    return f"{i}_step"


def stamped(body):
    """Two stamps back to back, then a stamp after each step (labelled by the step it ends)."""
    out = [{"stamp": "top"}, {"stamp": "top2"}]
    for i, step in enumerate(body):
        out += [step, {"stamp": label(step, i)}]
    return out


def with_stamps(prog):
    prog = copy.deepcopy(prog)
    group = prog["ctas"][0]
    threads = group.get("threads") or [{"program": group["program"]}]
    for t in threads:
        for step in t["program"]:
            if step.get("loop") == "k":
                step["body"] = stamped(step["body"])
    return prog


def main():
    base = {
        "ws_a64": gen_corpus.pipeline_ws(CTAS, 64, 64, STAGES, KT, 1, 64, 4),
        "ws_a128": gen_corpus.pipeline_ws(CTAS, 128, 128, STAGES, KT, 1, 128, 8),
        "ws_a64_w2": gen_corpus.pipeline_ws(CTAS, 64, 64, STAGES, KT, 2, 64, 4),
        "inline_r64": gen_corpus.pipeline_single(CTAS, 64, STAGES, KT),
    }
    progs = {}
    for name, prog in base.items():
        progs[name] = with_stamps(prog)
        progs[name + "_plain"] = prog
    write_programs(dest, progs, tool="gen_step_probe")


if __name__ == "__main__":
    main()
