"""Writes a probe's programs and its split (shared by the scripts/gen_*_probe.py generators).

write_programs(dest, progs, split, tool): each program to DEST/PATH.json ("PATH": "family/name" or
"name"), indented as the corpus is, then DEST/split.txt with one "HALF FILE" line a program, sorted
(tests/golden/scenarios/split.txt's form), when `split` (PATH.json -> half) is given.
probe_dest(name): the generator's output directory, its first argument or tests/golden/NAME, made.
load_ring(tensor, count, stages, row, slot_bytes, var="i"): a ring of loads, each stage waited for
before it is loaded again, and the drain that waits for the last ones: (loop body, drain steps).
"""
import json
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def probe_dest(name):
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "tests", "golden", name)
    os.makedirs(dest, exist_ok=True)
    return dest


def write_programs(dest, progs, split=None, tool="gen"):
    for path, prog in progs.items():
        os.makedirs(os.path.join(dest, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(dest, path + ".json"), "w") as f:
            json.dump(prog, f, indent=1)
            f.write("\n")
    if split is not None:
        with open(os.path.join(dest, "split.txt"), "w") as f:
            for file, half in sorted(split.items()):
                f.write(f"{half} {file}\n")
    print(f"{tool}: {len(progs)} scenarios in {dest}")


def load_ring(tensor, count, stages, row, slot_bytes, var="i"):
    """`count` loads of `tensor` at coordinates ["0", row] (row: an expression of `var`) into `stages`
    slots of `slot_bytes`, each slot's barrier waited for before the slot is loaded again; then the
    drain that waits for the last min(stages, count). Returns (the loop's body, the drain)."""
    body = [{"if": f"{var} >= {stages}", "wait": f"{var} % {stages}", "phase": f"{var} / {stages} - 1"},
            {"arrive": f"{var} % {stages}", "bytes": f"bytes_{tensor}"},
            {"load": tensor, "coords": ["0", row], "smem_offset": f"({var} % {stages}) * {slot_bytes}",
             "barrier": f"{var} % {stages}"}]
    drain = [{"loop": "d", "count": min(stages, count), "unroll": True,
              "body": [{"wait": f"({count} - 1 - d) % {stages}", "phase": f"({count} - 1 - d) / {stages}"}]}]
    return body, drain
