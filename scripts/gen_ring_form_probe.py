#!/usr/bin/env python3
"""Writes tests/golden/ring_form_probe/*.json: the ring-code probe's 4-stage ring (one CTA; wait for the
stage, arrive with its bytes, load A, load B, 8 KiB each) written four ways, to tell whether what the
nested ring costs beyond the flat one (542 against 453 cycles a rolled k-step, `tests/golden/ring_code_probe`)
comes with the nesting or with the stage and phase computed in line from an index.

Each form at T = 8 and 16 tiles of KT = 16 k-steps (the slope is a k-step's cost; both rolled):
  flat_tT          one loop, stage `j % 4` and phase `j / 4 - 1` of its own variable (counters)
  flat_inline_tT   one loop, stage `(j + 4) % 4`, phase `(j + 4) / 4 - 2`: the same values computed in line
  nested_tT        the shared family's form: tile loop `T - cta`, k loop inside, `(i * 16 + k) % 4`, `/ 4`
  nested_split_tT  the same loops, stage `k % 4` and phase `i * 4 + k / 4 - 1` (equal, as 16 is a multiple
                   of 4): the k loop's own counters
The rule is in the README, written before the run.

    scripts/gen_ring_form_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ring_code_probe import KT, S, drain, ring_programs  # noqa: E402  the ring-code probe's ring
from probe_files import probe_dest, write_programs  # noqa: E402

dest = probe_dest("ring_form_probe")


def step(first, stage, phase, k, tile):
    """One k-step: `first` is true on the ring's first S steps (no wait), `stage` and `phase` its stage and
    the phase it waits for, `k` its step in the tile, `tile` the tile."""
    body = [{"if": f"!({first})", "wait": stage, "phase": phase},
            {"arrive": stage, "bytes": "bytes_A + bytes_B"}]
    for n, t in enumerate(("A", "B")):
        body.append({"load": t, "coords": [f"64 * {k}", f"64 * ({n} + 2 * ({tile} % 4))"],
                     "smem_offset": f"{stage} * 16384 + {8192 * n}", "barrier": stage})
    return body


def program(form, tiles):
    if form == "flat":
        body = step(f"j < {S}", f"(j % {S})", f"(j / {S} - 1)", f"(j % {KT})", f"(j / {KT})")
        return [{"loop": "j", "count": tiles * KT, "body": body}] + drain(tiles * KT)
    if form == "flat_inline":
        body = step(f"j < {S}", f"((j + {S}) % {S})", f"((j + {S}) / {S} - 2)", f"(j % {KT})", f"(j / {KT})")
        return [{"loop": "j", "count": tiles * KT, "body": body}] + drain(tiles * KT)
    index = f"(i * {KT} + k)"
    if form == "nested":
        body = step(f"{index} < {S}", f"({index} % {S})", f"({index} / {S} - 1)", "k", "i")
    else:
        body = step(f"{index} < {S}", f"(k % {S})", f"(i * {KT // S} + k / {S} - 1)", "k", "i")
    count = f"{tiles} - cta"
    return [{"loop": "i", "count": count, "body": [{"loop": "k", "count": KT, "body": body}]}] + drain(
        f"(({count}) * {KT})")


programs = ring_programs("ring_form_probe", ("flat", "flat_inline", "nested", "nested_split"), (8, 16), program)
write_programs(dest, programs, tool="gen_ring_form_probe")
