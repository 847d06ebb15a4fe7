#!/usr/bin/env python3
"""The launch overheads of configs/h100.json are what tests/golden/launch_probe measured, and the
model adds them where it says it does.

1. gpu.launch_event_overhead_us is the median (within 0.05 us) of events-minus-span over every launch
   shape, warm and cold; gpu.launch_duration_overhead_us the median of ncu's gpu__time_duration minus
   the shape's span. Both measured overheads are flat in the launch shape (every shape within 0.7 us
   of the median), the rule the probe's README adopted them by.
2. `tmasim run --stats`: event_microseconds = microseconds + the event overhead, duration_microseconds
   = microseconds + the duration overhead; setting the overhead to 0 changes neither cycles nor
   microseconds (the CTAs' time does not include the launch).

    check_launch_probe.py TMASIM TOP
"""
import csv
import gzip
import json
import os
import statistics
import subprocess
import sys


def measured(top):
    probe = os.path.join(top, "tests", "golden", "launch_probe")
    rows = [json.loads(l) for l in open(os.path.join(probe, "launch_probe.jsonl"))][1:]
    lines = gzip.open(os.path.join(probe, "launch_probe_ncu.csv.gz"), "rt").read().splitlines()
    start = next(n for n, l in enumerate(lines) if l.startswith('"ID"'))
    table = list(csv.reader(lines[start:]))
    col = table[0].index
    by_id = {}
    for r in table[1:]:
        by_id.setdefault(int(r[col("ID")]), {})[r[col("Metric Name")]] = r[col("Metric Value")].replace(",", "")
    ids = sorted(by_id)
    if len(ids) != 3 * len(rows):
        raise SystemExit(f"launch_probe: {len(ids)} ncu launches for {len(rows)} shapes (3 each expected)")
    event, duration = [], []
    for n, r in enumerate(rows):
        runs = [by_id[i] for i in ids[3 * n:3 * n + 3]]
        if any(int(x["launch__grid_size"]) != r["grid"] for x in runs):
            raise SystemExit(f"launch_probe: ncu launch {3 * n} is not the shape {r}")
        event += [r["warm"]["overhead_us"], r["cold"]["overhead_us"]]
        duration.append(statistics.median(float(x["gpu__time_duration.sum"]) / 1e3 for x in runs) - r["warm"]["span_us"])
    return event, duration


def stats(tmasim, top, *sets):
    cmd = [tmasim, "run", os.path.join(top, "examples", "gemm_pipeline.json"), "--timing-only", "--stats", "-"]
    for s in sets:
        cmd += ["--set", s]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def main(tmasim, top):
    failures = []
    config = json.load(open(os.path.join(top, "configs", "h100.json")))["gpu"]
    event, duration = measured(top)
    for key, values in (("launch_event_overhead_us", event), ("launch_duration_overhead_us", duration)):
        med = statistics.median(values)
        print(f"{key}: measured median {med:.3f} us over {len(values)} (range {min(values):.2f}-{max(values):.2f}), "
              f"h100.json {config[key]}")
        if abs(config[key] - med) > 0.05:
            failures.append(f"{key} {config[key]} is not the measured median {med:.3f}")
        if max(abs(v - med) for v in values) > 0.7:
            failures.append(f"{key}: the overhead is not flat in the launch shape (a shape {max(values):.2f} us)")
    base = stats(tmasim, top)
    zero = stats(tmasim, top, "gpu.launch_event_overhead_us=0", "gpu.launch_duration_overhead_us=0")
    for field, key in (("event_microseconds", "launch_event_overhead_us"),
                       ("duration_microseconds", "launch_duration_overhead_us")):
        if abs(base[field] - base["microseconds"] - config[key]) > 1e-9:
            failures.append(f"{field} {base[field]} is not microseconds {base['microseconds']} + {config[key]}")
        if zero[field] != zero["microseconds"]:
            failures.append(f"with the overhead 0, {field} {zero[field]} is not microseconds {zero['microseconds']}")
    if (zero["cycles"], zero["microseconds"]) != (base["cycles"], base["microseconds"]):
        failures.append("the launch overhead changed the CTAs' cycles")
    for f in failures:
        print("FAIL:", f)
    print("launch probe: " + ("ok" if not failures else f"{len(failures)} failures"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
