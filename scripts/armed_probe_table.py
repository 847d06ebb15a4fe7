#!/usr/bin/env python3
"""Tables of tests/golden/armed_probe (scripts/gen_armed_probe.py): for each K and L2 state, the
thread's stamps after each load (`issued`) and the data's after each wait (`landed`), relative to
the second of the two opening stamps, armed and unarmed, GPU beside the model, and the kernel's
cycles. The rule is in tests/golden/armed_probe/README.md.

    scripts/armed_probe_table.py [RESULTS] [--config configs/h100.json] [--tmasim build/tmasim]"""
import argparse
import gzip
import json
import os
import subprocess
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.path.join(TOP, "tests", "golden", "armed_probe")


def model_stamps(tmasim, config, scenario, state):
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "s.json")
        subprocess.run([tmasim, "run", scenario, "--timing-only", "--config", config, "--l2", state, "--stats", stats],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        s = json.load(open(stats))
        return s["stamps"][0][0], s["cta_end_cycles"][0] - s["cta_start_cycles"][0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="?", default=os.path.join(PROBE, "results.jsonl.gz"))
    ap.add_argument("--config", default=os.path.join(TOP, "configs", "h100.json"))
    ap.add_argument("--tmasim", default=os.path.join(TOP, "build", "tmasim"))
    a = ap.parse_args()
    gpu = {}
    with gzip.open(a.results, "rt") as f:
        for line in f:
            d = json.loads(line)
            gpu[os.path.basename(d["file"])[:-5]] = d
    for state in ("cold", "cold_clean", "warm"):
        print(f"\n{state}: stamps after start2 (issued ... | landed ...), GPU / model; kernel cycles GPU / model")
        for k in (1, 2, 3, 4, 8):
            for kind in ("armed", "unarmed"):
                name = f"{kind}_k{k}_st"
                if name not in gpu or state not in gpu[name]:
                    continue
                g = gpu[name][state]["stamps"][0][0]
                m, _ = model_stamps(a.tmasim, a.config, os.path.join(PROBE, name + ".json"), state)
                rel = lambda s: [x - s[1] for x in s[2:]]
                gi, mi = rel(g), rel(m)
                plain = f"{kind}_k{k}"
                gk = gpu[plain][state]["span_cycles"]["median"] if plain in gpu else float("nan")
                _, mk = model_stamps(a.tmasim, a.config, os.path.join(PROBE, plain + ".json"), state)
                print(f"  {name:<16} GPU {' '.join(f'{x:5.0f}' for x in gi[:k])} | {' '.join(f'{x:5.0f}' for x in gi[k:])}")
                print(f"  {'':<16} mod {' '.join(f'{x:5.0f}' for x in mi[:k])} | {' '.join(f'{x:5.0f}' for x in mi[k:])}"
                      f"   kernel {gk:.0f} / {mk}")


if __name__ == "__main__":
    main()
