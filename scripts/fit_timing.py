#!/usr/bin/env python3
"""Fits timing parameters to the calibration half of the scenario corpus, and only to it.

Coordinate descent over a few parameters of a base configuration: each candidate value is
judged by `tmasim compare --split calibration` (the median of the kernel-cycle and per-CTA
median |errors|); the best is kept, round after round. The result is written with its
provenance: the base, the parameters, the scenarios fitted to (the calibration half named in
split.txt), the objective and the date. The validation half is never read here
(tests/check_provenance.py fails if a configuration's provenance names a validation scenario).

    scripts/fit_timing.py [--base configs/h100.json] [--out configs/h100_fitted.json] [--rounds 2]
"""
import argparse
import copy
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CORPUS = os.path.join(TOP, "tests", "golden", "scenarios")
# (section, key, candidate multipliers of the current value)
PARAMETERS = [
    ("issue", "cycles", [0.25, 0.5, 0.75, 1.25]),
    ("issue", "first_cycles", [0.5, 0.75, 1.25, 1.5]),
    ("memory", "l2_miss_cycles", [0.75, 0.9, 1.1, 1.25]),
    ("tma", "multicast_cycles", [2, 4, 8]),
    ("issue", "multicast_cycles", [0.5, 2, 4]),
    ("memory", "l2_hit_cycles", [0.75, 1.25, 1.5]),
    ("memory", "hbm_bytes_per_cycle", [0.7, 0.8, 0.9, 1.1]),
    ("memory", "sm_l2_bytes_per_cycle", [0.5, 0.75, 1.25]),
    ("memory", "sm_hbm_bytes_per_cycle", [0.75, 1.25]),
]


def objective(tmasim, config, jobs):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(config, f)
        path = f.name
    try:
        out = subprocess.run([tmasim, "compare", CORPUS, "--split", "calibration", "--config", path, "-j", str(jobs)],
                             capture_output=True, text=True, check=False).stdout
    finally:
        os.unlink(path)
    k = re.search(r"kernel cycles: median \|error\| ([0-9.]+)%", out)
    c = re.search(r"per-CTA cycles: median \|error\| ([0-9.]+)%", out)
    if not k or not c:
        sys.exit("fit_timing: compare printed no medians:\n" + out[-2000:])
    return max(float(k.group(1)), float(c.group(1)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=os.path.join(TOP, "configs", "h100.json"))
    ap.add_argument("--out", default=os.path.join(TOP, "configs", "h100_fitted.json"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--tmasim", default=os.path.join(TOP, "build", "tmasim"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--params", default="", help="section.key,... to fit (default: all of PARAMETERS)")
    a = ap.parse_args()
    wanted = set(filter(None, a.params.split(",")))
    params = [p for p in PARAMETERS if not wanted or f"{p[0]}.{p[1]}" in wanted]
    if wanted and len(params) != len(wanted):
        sys.exit(f"fit_timing: --params names unknown parameters (known: {', '.join(f'{s}.{k}' for s, k, _ in PARAMETERS)})")
    config = json.load(open(a.base))
    best = objective(a.tmasim, config, a.jobs)
    print(f"fit_timing: base {os.path.relpath(a.base, TOP)}: calibration objective {best:.1f}%", flush=True)
    for r in range(a.rounds):
        improved = False
        for section, key, factors in params:
            current = config[section][key]
            for f in factors:
                value = max(0, int(round(current * f)))
                if value == config[section][key]:
                    continue
                trial = copy.deepcopy(config)
                trial[section][key] = value
                score = objective(a.tmasim, trial, a.jobs)
                print(f"  round {r + 1}: {section}.{key} = {value}: {score:.1f}%", flush=True)
                if score < best - 0.05:
                    best, config, improved = score, trial, True
            print(f"fit_timing: {section}.{key} = {config[section][key]} ({best:.1f}%)", flush=True)
        if not improved:
            break
    halves = [line.split() for line in open(os.path.join(CORPUS, "split.txt"))]
    # Earlier fits of the base (scripts/fit_thread_costs.py) stay in the provenance.
    earlier = config.get("provenance") if isinstance(config.get("provenance"), dict) else {}
    config["provenance"] = {
        # A refit of a refit is still "scripts/fit_timing.py"; the parameter list records them all.
        "fitted_by": earlier["fitted_by"] if earlier.get("fitted_by", "").startswith("scripts/fit_timing.py")
        else "scripts/fit_timing.py" + (", after " + earlier["fitted_by"] if earlier.get("fitted_by") else ""),
        "base": os.path.relpath(a.base, TOP),
        "parameters": list(dict.fromkeys(earlier.get("parameters", []) + [f"{s}.{k}" for s, k, _ in params])),
        "objective": "max of the kernel-cycle and per-CTA median |error| over the calibration half, cold L2",
        "objective_percent": round(best, 2),
        "fitted_to": sorted(set(earlier.get("fitted_to", [])) |
                            {"tests/golden/scenarios/" + f for h, f in halves if h == "calibration"}),
        "date": datetime.date.today().isoformat(),
    }
    with open(a.out, "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    print(f"fit_timing: wrote {os.path.relpath(a.out, TOP)} (calibration objective {best:.1f}%)")


if __name__ == "__main__":
    main()
