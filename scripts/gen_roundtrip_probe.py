#!/usr/bin/env python3
"""Writes tests/golden/roundtrip_probe/: one CTA's pipeline round trip, phase by phase (issue 30).

Why: on one CTA with two stages the model misses the H100 both ways (tests/golden/wgmma_probe diag,
warm, stamped): from the consumer's `full` wait to its `done` (4 wgmma m64n128k16, commit, wait_group
1) the model takes 99 cycles where the H100 takes 193, and from the consumer's `done` to the
producer's next `issued` (arrive on empty, the producer's wake-up, arrive.expect_tx, two TMA loads)
410 where the H100 takes 316. The two cancel in that program and not in others (s4 wait0 -35%).

Rule stated before the run: every program is one CTA, two stages, 64 k-steps, calibration in full.
Per phase, the median over steps 8-55 of the difference of consecutive stamps, H100 against the
model. A thread cost is changed only where a phase is mispriced by more than 20 cycles and the
variants isolate what costs it (how it grows with the wgmma of a group, with a wait_group, with the
loads a producer issues); the mechanism is named in configs/h100.json's provenance.

Programs (consumer one warpgroup, m64nNk16 fp16, A 64x64 and B Nx64 tiles, 128B swizzle):
  mma<C>_n<N>: C wgmma a group (C = 1, 2, 4, 8; N = 128; and C = 4, N = 64), stamps after the wait
      (`full`), after the commit (`committed`) and after wait_group 1 (`done`).
  mma4_n128_nowait: the same without the wait_group (the group's completion never waited for).
  prod_loads<L>: the producer stamps after its wait (`woke`), after arrive.expect_tx (`armed`) and
      after its L loads (`issued`; L = 1: A and B in one box of 192 rows, L = 2: A and B, L = 4:
      four 48-row boxes); the consumer releases at once (no mma).

    scripts/gen_roundtrip_probe.py [DIR]"""
import os
import sys

from probe_files import write_programs  # a script beside this one

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "roundtrip_probe")
KT = 64


def tensor(rows_box, rows_total):
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64 * KT, rows_total],
            "global_strides": [64 * KT * 2], "box_dims": [64, rows_box], "element_strides": [1, 1],
            "swizzle": "128b"}


def program(name, consumer_body, loads, producer_stamps):
    """loads: (tensor, rows) boxes filling a stage of 192 rows x 128 B (A 64 rows then B 128)."""
    stage = 192 * 128
    producer_body = [{"if": "k >= S", "wait": "S + k % S", "parity": "(k / S - 1) % 2"}]
    if producer_stamps:
        producer_body.append({"if": "k >= S", "stamp": "woke"})
    producer_body.append({"arrive": "k % S", "bytes": " + ".join(f"bytes_{t}" for t, _ in loads)})
    if producer_stamps:
        producer_body.append({"stamp": "armed"})
    row = 0
    for t, rows in loads:
        producer_body.append({"load": t, "coords": ["64 * k", 0], "smem_offset": f"(k % S) * STAGE + {row * 128}",
                              "barrier": "k % S"})
        row += rows
    producer_body.append({"stamp": "issued"})
    consumer = [{"loop": "k", "count": "KT", "body": consumer_body}, {"mma_wait": 0}, {"stamp": "end"}]
    tensors = {t: tensor(rows, rows) for t, rows in loads}
    return {"name": f"roundtrip_probe/{name}", "comment": "scripts/gen_roundtrip_probe.py",
            "params": {"KT": KT, "S": 2, "STAGE": stage},
            "tensors": tensors,
            "ctas": [{"count": 1, "barriers": [1, 1, 1, 1], "threads": [
                {"name": "producer", "program": [{"loop": "k", "count": "KT", "body": producer_body}]},
                {"name": "consumer", "warpgroup": True, "count": 1, "var": "w", "program": consumer}]}]}


def mma_body(count, n, wait=True):
    # One step walks K inside one 128-byte span (4 x k16): 8 a group are two steps on the same span.
    mma = [{"mma": {"shape": f"m64n{n}k16", "dtype": "float16", "count": min(count, 4),
                    "a": {"smem_offset": "(k % S) * STAGE", "swizzle": "128b"},
                    "b": {"smem_offset": "(k % S) * STAGE + 8192", "swizzle": "128b"}}}] * max(1, count // 4)
    body = [{"wait": "k % S", "parity": "(k / S) % 2"}, {"stamp": "full"}] + mma + [
        {"mma_commit": True}, {"stamp": "committed"}]
    if wait:
        body += [{"mma_wait": 1}, {"stamp": "done"}]
    body.append({"if": "k > 0", "arrive": "S + (k - 1) % S"})
    return body


def main():
    progs = {}
    two = [("A", 64), ("B", 128)]
    for count, n in ((1, 128), (2, 128), (4, 128), (8, 128), (4, 64)):
        progs[f"mma{count}_n{n}"] = program(f"mma{count}_n{n}", mma_body(count, n), two, False)
    progs["mma4_n128_nowait"] = program("mma4_n128_nowait", mma_body(4, 128, wait=False), two, False)
    release = [{"wait": "k % S", "parity": "(k / S) % 2"}, {"stamp": "full"},
               {"if": "k > 0", "arrive": "S + (k - 1) % S"}]
    for name, loads in (("prod_loads1", [("AB", 192)]), ("prod_loads2", two),
                        ("prod_loads4", [("C", 48), ("D", 48), ("E", 48), ("F", 48)])):
        progs[name] = program(name, release, loads, True)
    os.makedirs(dest, exist_ok=True)
    write_programs(dest, progs, tool="gen_roundtrip_probe")


if __name__ == "__main__":
    main()
