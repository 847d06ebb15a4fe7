#!/usr/bin/env python3
"""Writes tests/golden/mix_probe/*.json: reads and writes at chip scale, apart and mixed (issue 29).

Why: the corpus's epilogue programs at 132 CTAs (load a tile, store it elsewhere) are 17-29% slow on
the H100 against the model in every L2 state, and the store probe's copies 21-32%, while loads alone
and stores alone are within a few per cent. The model books reads on the L2's output and writes on its
input as two resources, and reads and write-backs on one DRAM queue each at its own rate. Which of
these the H100 shares, and what mixing costs, is what this probe measures.

Every program: 16 KiB boxes (64 x 128 fp16, 128-byte swizzle, 128-byte rows), a 4-stage ring; each
active CTA moves T tiles of its own:
  read_all_tT     132 CTAs load T tiles each (their stages waited for before reuse)
  read_half_tT    the even CTAs load T tiles, the odd ones do nothing
  write_all_tT    132 CTAs store T tiles each from shared memory (`wait_group.read 3` before reuse)
  write_half_tT   the odd CTAs store T tiles, the even ones do nothing
  split_tT        the even CTAs load T tiles, the odd ones store T tiles (read_half + write_half on
                  other SMs at once: what the chip shares, not the SM)
  both_tT         every CTA loads T/2 tiles and stores T/2 others from another region of its shared
                  memory, interleaved and independent (split's bytes, each SM mixing)
T = 6 and 12 (at most 26 MB: the L2's level, warm resident) and T = 48 and 96 (104-207 MB: the
DRAM's). A stream's cost is the slope between its two T.

    scripts/gen_mix_probe.py [DIR]"""
from probe_files import load_ring, probe_dest, write_programs

S, CTAS, ROWS, TILE = 4, 132, 128, 16384
SIZES = (6, 12, 48, 96)
dest = probe_dest("mix_probe")


def tensor():
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, ROWS * CTAS * max(SIZES)],
            "global_strides": [128], "box_dims": [64, ROWS], "element_strides": [1, 1], "swizzle": "128b"}


def gated(step, role):
    """The step, done only by the CTAs of `role` (an expression over cta, or None: all)."""
    if role is None:
        return step
    out = dict(step)
    out["if"] = f"({role}) && ({step['if']})" if "if" in step else role
    return out


def reads(count, var, role):
    body, drain = load_ring("X", count, S, f"{ROWS} * (cta * T + {var})", TILE, var)
    return [gated(s, role) for s in body], [gated(s, role) for s in drain]


def writes(var, role, region):
    rows = f"{ROWS} * (cta * T + {var})"
    body = [{"if": f"{var} >= {S}", "wait_stores": S - 1, "read_only": True},
            {"store": "Y", "coords": ["0", rows], "smem_offset": f"{region} + ({var} % {S}) * {TILE}"}]
    return [gated(s, role) for s in body]


def program(kind, t):
    even, odd = "cta % 2 == 0", "cta % 2 == 1"
    if kind in ("read_all", "read_half"):
        count = t
        body, drain = reads(count, "i", None if kind == "read_all" else even)
    elif kind in ("write_all", "write_half"):
        body, drain, count = writes("i", None if kind == "write_all" else odd, 0), [], t
    elif kind == "split":
        count = t
        body, drain = reads(count, "i", even)
        body += writes("i", odd, 0)
    else:  # both: T/2 of each in one loop, the stores from the second 64 KiB
        count = t // 2
        body, drain = reads(count, "i", None)
        body += writes("i", None, S * TILE)
    return {"name": f"mix_probe/{kind}_t{t}", "comment": "scripts/gen_mix_probe.py", "params": {"T": t},
            "tensors": {"X": tensor(), "Y": tensor()},
            "ctas": [{"count": CTAS, "barriers": [1] * S,
                      "program": [{"loop": "i", "count": count, "body": body}] + drain + [{"wait_stores": 0}]}]}


programs = {f"{k}_t{t}": program(k, t) for t in SIZES
            for k in ("read_all", "read_half", "write_all", "write_half", "split", "both")}
write_programs(dest, programs, tool="gen_mix_probe")
