#!/usr/bin/env python3
"""Writes tests/golden/ring_code_probe/*.json: one CTA's 4-stage ring (wait for the stage, arrive
with its bytes, load A, load B, 8 KiB each) written the ways a user writes it, to see what its
iteration costs where the stage and phase are computed from a run-time index.

Why: the held-out sets' `shared` family (a persistent GEMM feed whose tile loop runs
`(TT - cta + SMS - 1) / SMS` times, its k loop inside, stage and phase `(i * KT + k) % S` and
`/ S`) costs the H100 about 540 cycles a k-step at 64 CTAs, cold or warm alike (thread-bound), and the
model 405-410; `tests/golden/share_step_probe` found the same on the H200 (546, and 468 where the tile
loop's count is a constant). Each program, T tiles of KT = 16 k-steps, T = 4 or 8 (the slope is a
k-step's cost):
  flat_tT         one loop of T * 16 steps, stage and phase from its own index
  nested_tT       the family's form: tile loop `T - cta` (known at run time only), k loop inside
  nested_const_tT the same with the tile loop's count a constant
  nested_one_tT   the family's form with load A alone (8 KiB a step less)
The rule is in the README, written before the run.

    scripts/gen_ring_code_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_files import probe_dest, write_programs  # noqa: E402

S, KT = 4, 16
TENSOR = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [1024, 512], "global_strides": [2048],
          "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}


def step(index, k, tile, loads):
    """One k-step: `index` counts the steps, `k` is the step in its tile, `tile` the tile."""
    body = [{"if": f"({index}) >= {S}", "wait": f"({index}) % {S}", "phase": f"({index}) / {S} - 1"},
            {"arrive": f"({index}) % {S}", "bytes": " + ".join(f"bytes_{t}" for t in loads)}]
    for n, t in enumerate(loads):
        body.append({"load": t, "coords": [f"64 * {k}", f"64 * ({n} + 2 * ({tile} % 4))"],
                     "smem_offset": f"({index}) % {S} * 16384 + {8192 * n}", "barrier": f"({index}) % {S}"})
    return body


def drain(total):
    return [{"loop": "d", "count": S, "unroll": True,
             "body": [{"if": f"{total} - 1 - d >= 0", "wait": f"({total} - 1 - d) % {S}", "phase": f"({total} - 1 - d) / {S}"}]}]


def program(form, tiles):
    loads = ["A"] if form == "nested_one" else ["A", "B"]
    if form == "flat":
        return [{"loop": "j", "count": tiles * KT, "body": step("j", f"(j % {KT})", f"(j / {KT})", loads)}] + drain(
            tiles * KT)
    count = f"{tiles} - cta" if form != "nested_const" else f"{tiles}"
    return [{"loop": "i", "count": count, "body": [{"loop": "k", "count": KT, "body": step(f"i * {KT} + k", "k", "i", loads)}]}] + drain(
        f"(({count}) * {KT})")


def ring_programs(probe, forms, tile_counts, program_of):
    """A probe's programs, FORM_tT: one CTA running program_of(form, tiles) over A and B."""
    return {f"{form}_t{tiles}": {"name": f"{probe}/{form}_t{tiles}", "tensors": {"A": TENSOR, "B": TENSOR},
                                 "ctas": [{"count": 1, "barriers": [1] * S, "program": program_of(form, tiles)}]}
            for form in forms for tiles in tile_counts}


def main():
    programs = ring_programs("ring_code_probe", ("flat", "nested", "nested_const", "nested_one"), (4, 8), program)
    write_programs(probe_dest("ring_code_probe"), programs, tool="gen_ring_code_probe")


if __name__ == "__main__":
    main()
