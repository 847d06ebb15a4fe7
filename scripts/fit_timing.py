#!/usr/bin/env python3
"""Fits timing parameters to the calibration half of the scenario corpus, and only to it.

Coordinate descent over a few parameters of a base configuration: each candidate value is
judged by `tmasim compare --split calibration` in each L2 start state asked for (`--states`, of
those the corpus measured: cold, after a write flush, L2 full of dirty lines; cold_clean, the same
flush then a read, clean lines; warm, after a run of the same program; default cold and cold_clean):
the mean over the states of the larger of the kernel-cycle and per-CTA median |errors|, and, with
`--records FILE:KEY`, the median |error| of the timing records of FILE that set KEY (`tmasim
calibrate`; e.g. the issue probe's first_load records, a declared calibration set) as one more term
of that mean, and with `--probes DIR,...` (declared calibration probes, check_provenance.py's
CALIBRATION_DIRS) the kernel median |error| over all their programs, mean over the states, as one
more term. The best is kept, round after round. The result is written with its
provenance: the base, the parameters, the scenarios fitted to (the calibration half named in
split.txt), the objective and the date. The validation half is never read here
(tests/check_provenance.py fails if a configuration's provenance names a validation scenario).

    scripts/fit_timing.py [--base configs/h100.json] [--out configs/h100_fitted.json] [--rounds 2]
                          [--states cold,cold_clean] [--params memory.hbm_bytes_per_cycle,...]
                          [--records tests/golden/timing_issue_probe.jsonl.gz:first_load]
                          [--probes tests/golden/locality_probe,tests/golden/degree_probe]
"""
import argparse
import copy
import csv
import datetime
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(TOP, "tests"))
from check_provenance import CALIBRATION_DIRS, CALIBRATION_RECORDS  # noqa: E402  what fitting may read
CORPUS = os.path.join(TOP, "tests", "golden", "scenarios")
# (section, key, candidate multipliers of the current value); VALUES lists candidates as values.
VALUES = {
    ("memory", "flush_dirty_fraction"): [0.0, 0.25, 0.375, 0.5, 0.625, 0.75, 1.0],
    ("memory", "l2_bytes_per_cycle"): [0, 2500, 3400, 5000],  # 0: no chip-wide limit
    ("thread", "armed_load_cycles"): [0, 100, 150, 200, 250, 300],
    ("thread", "armed_load_holds_thread_only"): [False, True],
    # tests/golden/step_probe: a loop's own iteration 85-105 cycles, a 64-row read's ldmatrix ~25;
    # the loop probe's rolled wait loop 141.4 cycles an iteration, loop and wait together.
    ("thread", "loop_iteration_cycles"): [0, 30, 60, 90, 120],
    ("thread", "wait_cycles"): [51.4, 81.4, 111.4, 141.4],
    ("thread", "ldmatrix_cycles"): [9.1, 12, 15, 18],
}
PARAMETERS = [
    ("memory", "flush_dirty_fraction", None),
    ("memory", "l2_bytes_per_cycle", None),
    ("issue", "cycles", [0.25, 0.5, 0.75, 1.25]),
    ("issue", "first_cycles", [0.5, 0.75, 1.25, 1.5]),
    ("memory", "l2_miss_cycles", [0.75, 0.9, 1.1, 1.25]),
    ("tma", "multicast_cycles", [2, 4, 8]),
    ("issue", "multicast_cycles", [0.5, 2, 4]),
    ("memory", "l2_hit_cycles", [0.75, 0.9, 1.1, 1.25, 1.5]),
    ("tma", "completion_cycles", [0.5, 1.5, 2]),
    ("thread", "armed_load_cycles", None),
    ("thread", "wait_wakeup_cycles", [0.5, 0.75, 1.25, 1.5]),
    ("memory", "hbm_bytes_per_cycle", [0.7, 0.8, 0.9, 1.1, 1.25, 1.5]),
    ("memory", "sm_l2_bytes_per_cycle", [0.5, 0.75, 1.25]),
    ("memory", "sm_hbm_bytes_per_cycle", [0.75, 1.25]),
    ("thread", "armed_load_holds_thread_only", None),
    ("tma", "store_ack_cycles", [0.5, 2, 4, 8]),
    ("thread", "loop_iteration_cycles", None),
    ("thread", "wait_cycles", None),
    ("thread", "ldmatrix_cycles", None),
]


def candidates(section, key, factors, current):
    if (section, key) in VALUES:
        return VALUES[(section, key)]
    return [max(0, int(round(current * f))) for f in factors]


def record_set(spec):
    """FILE:KEY -> (the name for the provenance, a temporary .jsonl of FILE's records that set KEY)."""
    file, _, key = spec.rpartition(":")
    if not file or not key or not os.path.exists(file):
        sys.exit(f"fit_timing: --records {spec}: expected an existing FILE:KEY")
    name = f"{os.path.relpath(os.path.abspath(file), TOP)}:{key}"
    if name not in CALIBRATION_RECORDS:
        sys.exit(f"fit_timing: --records {spec}: not a declared calibration record set "
                 f"({', '.join(sorted(CALIBRATION_RECORDS))}; tests/golden/README.md)")
    opener = gzip.open if file.endswith(".gz") else open
    with opener(file, "rt") as f:
        chosen = [line for line in f if line.strip() and json.loads(line).get(key)]
    if not chosen:
        sys.exit(f"fit_timing: --records {spec}: no record of {file} sets {key}")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as t:
        t.writelines(chosen)
    return name, t.name, len(chosen)


def records_error(tmasim, config_path, records_path):
    """Median |error| of `tmasim calibrate` over the records, percent."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as c:
        csv_path = c.name
    try:
        subprocess.run([tmasim, "calibrate", records_path, "--config", config_path, "--max-median-error", "1000",
                        "--csv", csv_path], capture_output=True, text=True, check=False)
        with open(csv_path, newline="") as f:  # by name: calibrate's CSV has grown columns after it
            errors = [abs(float(row["error_percent"])) for row in csv.DictReader(f)]
    finally:
        os.unlink(csv_path)
    if not errors:
        sys.exit("fit_timing: calibrate replayed none of the --records")
    return statistics.median(errors)


def probe_dirs(spec):
    """--probes DIR,... -> the directories, each a declared calibration probe."""
    dirs = []
    for d in filter(None, spec.split(",")):
        rel = os.path.relpath(os.path.abspath(d), TOP).rstrip("/") + "/"
        if not os.path.isdir(d) or not rel.startswith(CALIBRATION_DIRS):
            sys.exit(f"fit_timing: --probes {d}: not a declared calibration probe directory "
                     f"(tests/check_provenance.py CALIBRATION_DIRS)")
        dirs.append(rel)
    return dirs


def probes_error(tmasim, config_path, dirs, states, jobs):
    """Kernel median |error| over every program of the probe directories, mean over the states, percent."""
    per_state = []
    for state in states:
        errors = []
        for d in dirs:
            with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as c:
                csv_path = c.name
            try:
                subprocess.run([tmasim, "compare", os.path.join(TOP, d), "--l2", state, "--config", config_path,
                                "-j", str(jobs), "--csv", csv_path], capture_output=True, text=True, check=False)
                with open(csv_path, newline="") as f:
                    errors += [abs(float(row["kernel_error"])) for row in csv.DictReader(f) if row["kernel_error"]]
            finally:
                os.unlink(csv_path)
        if not errors:
            sys.exit(f"fit_timing: compare judged no program of {', '.join(dirs)} ({state})")
        per_state.append(100 * statistics.median(errors))
    return sum(per_state) / len(per_state)


def objective(tmasim, config, jobs, states, records=None, probes=()):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(config, f)
        path = f.name
    scores = []
    try:
        if records:
            scores.append(records_error(tmasim, path, records))
        if probes:
            scores.append(probes_error(tmasim, path, probes, states, jobs))
        for state in states:
            out = subprocess.run([tmasim, "compare", CORPUS, "--split", "calibration", "--l2", state, "--config", path,
                                  "-j", str(jobs)], capture_output=True, text=True, check=False).stdout
            k = re.search(r"kernel cycles: median \|error\| ([0-9.]+)%", out)
            c = re.search(r"per-CTA cycles: median \|error\| ([0-9.]+)%", out)
            if not k or not c:
                sys.exit("fit_timing: compare printed no medians:\n" + out[-2000:])
            scores.append(max(float(k.group(1)), float(c.group(1))))
    finally:
        os.unlink(path)
    return sum(scores) / len(scores)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=os.path.join(TOP, "configs", "h100.json"))
    ap.add_argument("--out", default=os.path.join(TOP, "configs", "h100_fitted.json"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--tmasim", default=os.path.join(TOP, "build", "tmasim"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--start", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="start the descent here instead of the base's value (repeatable; recorded in the provenance)")
    ap.add_argument("--states", default="cold,cold_clean", help="L2 start states to fit (tmasim compare --l2)")
    ap.add_argument("--params", default="", help="section.key,... to fit (default: all of PARAMETERS)")
    ap.add_argument("--records", default="", metavar="FILE:KEY",
                    help="also fit to the timing records of FILE that set KEY (their median |error|: one more term)")
    ap.add_argument("--probes", default="", metavar="DIR,...",
                    help="also fit to these calibration probes' programs (their kernel median |error|: one more term)")
    a = ap.parse_args()
    probes = probe_dirs(a.probes)
    wanted = set(filter(None, a.params.split(",")))
    params = [p for p in PARAMETERS if not wanted or f"{p[0]}.{p[1]}" in wanted]
    if wanted and len(params) != len(wanted):
        sys.exit(f"fit_timing: --params names unknown parameters (known: {', '.join(f'{s}.{k}' for s, k, _ in PARAMETERS)})")
    states = [x for x in a.states.split(",") if x]
    if not states or any(x not in ("cold", "cold_clean", "warm") for x in states):
        sys.exit("fit_timing: --states takes cold, cold_clean and/or warm")
    records_name, records_path, records_count = record_set(a.records) if a.records else (None, None, 0)
    config = json.load(open(a.base))
    for kv in a.start:
        name, _, value = kv.partition("=")
        section, _, key = name.partition(".")
        if not value or not key or section not in config:
            sys.exit(f"fit_timing: --start {kv}: expected SECTION.KEY=VALUE with a section of the base")
        config[section][key] = json.loads(value)
    best = objective(a.tmasim, config, a.jobs, states, records_path, probes)
    print(f"fit_timing: base {os.path.relpath(a.base, TOP)}: calibration objective {best:.1f}%", flush=True)
    for r in range(a.rounds):
        improved = False
        for section, key, factors in params:
            current = config[section].get(key, 0)
            for value in candidates(section, key, factors, current):
                if value == config[section].get(key, 0):
                    continue
                trial = copy.deepcopy(config)
                trial[section][key] = value
                score = objective(a.tmasim, trial, a.jobs, states, records_path, probes)
                print(f"  round {r + 1}: {section}.{key} = {value}: {score:.1f}%", flush=True)
                if score < best - 0.05:
                    best, config, improved = score, trial, True
            print(f"fit_timing: {section}.{key} = {config[section].get(key, 0)} ({best:.1f}%)", flush=True)
        if not improved:
            break
    for section, key, _ in params:  # every fitted parameter written out, a default value included
        is_flag = isinstance(VALUES.get((section, key), [0])[0], bool)
        config[section].setdefault(key, False if is_flag else 0)
    halves = [line.split() for line in open(os.path.join(CORPUS, "split.txt"))]
    # Earlier fits of the base (scripts/fit_thread_costs.py) stay in the provenance.
    earlier = config.get("provenance") if isinstance(config.get("provenance"), dict) else {}
    config["provenance"] = {
        # A refit of a refit is still "scripts/fit_timing.py"; the parameter list records them all.
        "fitted_by": earlier["fitted_by"] if earlier.get("fitted_by", "").startswith("scripts/fit_timing.py")
        else "scripts/fit_timing.py" + (", after " + earlier["fitted_by"] if earlier.get("fitted_by") else ""),
        "base": os.path.relpath(a.base, TOP),
        "start": list(dict.fromkeys(earlier.get("start", []) + a.start)),
        "parameters": list(dict.fromkeys(earlier.get("parameters", []) + [f"{s}.{k}" for s, k, _ in params])),
        "objective": "mean over the L2 states " + "/".join(states) + " of the max of the kernel-cycle and per-CTA "
                     "median |error| over the calibration half" +
                     (f", and the median |error| of the {records_count} records {records_name}" if records_name else "") +
                     (", and the kernel median |error| over the programs of " + ", ".join(probes) if probes else ""),
        "l2_states": states,
        "objective_percent": round(best, 2),
        "fitted_to": sorted(set(earlier.get("fitted_to", [])) |
                            {"tests/golden/scenarios/" + f for h, f in halves if h == "calibration"} |
                            ({records_name} if records_name else set()) |
                            {os.path.relpath(os.path.join(root, f), TOP) for d in probes
                             for root, _, files in os.walk(os.path.join(TOP, d)) for f in files
                             if f.endswith(".json")}),
        "date": datetime.date.today().isoformat(),
    }
    if earlier.get("read_off"):  # values read off probes by hand keep their sources
        config["provenance"]["read_off"] = earlier["read_off"]
    if records_path:
        os.unlink(records_path)
    with open(a.out, "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    print(f"fit_timing: wrote {os.path.relpath(a.out, TOP)} (calibration objective {best:.1f}%)")


if __name__ == "__main__":
    main()
