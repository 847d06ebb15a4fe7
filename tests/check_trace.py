#!/usr/bin/env python3
"""Checks a `tmasim run --trace` file against the Chrome trace-event format as Perfetto reads it:
every event has a known phase; every track (pid, tid) with slices is named; complete slices
("X") on one track never overlap and have non-negative durations; async slices ("b"/"e") pair
up by id and end after they begin; times are in microseconds of simulated time (the last event
ends at the run's microseconds from --stats, not at its cycle count).

    check_trace.py TRACE.json STATS.json
"""
import json
import sys
from collections import defaultdict


def main(trace_path, stats_path):
    trace = json.load(open(trace_path))
    stats = json.load(open(stats_path))
    events = trace["traceEvents"]
    problems = []
    meta = trace.get("otherData", {})
    # The trace names what was run, as the statistics do.
    expected = {k: stats[k] for k in ("tmasim_version", "scenario_file", "config_file", "l2_start")}
    expected["settings"] = " ".join(stats["settings"])
    for key, value in expected.items():
        if meta.get(key) != value:
            problems.append(f"the trace's otherData.{key} is {meta.get(key)!r}, the statistics say {value!r}")
    named, slices, opened = set(), defaultdict(list), {}
    last = 0.0
    for ev in events:
        ph = ev.get("ph")
        if ph not in ("M", "X", "b", "e"):
            problems.append(f"unknown phase {ph!r}")
            continue
        if ph == "M":
            if ev["name"] == "thread_name":
                named.add((ev["pid"], ev["tid"]))
            continue
        ts = ev["ts"]
        if ts < 0:
            problems.append(f"negative time {ev}")
        if ph == "X":
            if ev["dur"] < 0:
                problems.append(f"negative duration {ev}")
            slices[(ev["pid"], ev["tid"])].append((ts, ts + ev["dur"], ev["name"]))
            last = max(last, ts + ev["dur"])
        elif ph == "b":
            if ev["id"] in opened:
                problems.append(f"async id {ev['id']} begun twice")
            opened[ev["id"]] = ts
            # A TMA operation says what it moved: tensor, box coordinates, offset, bytes (a load: its barrier).
            args = ev.get("args", {})
            missing = [k for k in ("tensor", "coords", "smem_offset", "bytes") if k not in args]
            if ev.get("name") == "load" and "barrier" not in args:
                missing.append("barrier")
            if missing:
                problems.append(f"TMA slice {ev['id']} lacks {missing}")
        else:
            begin = opened.pop(ev["id"], None)
            if begin is None or ts < begin:
                problems.append(f"async slice {ev['id']} ends before it begins or was never begun")
            last = max(last, ts)
    if opened:
        problems.append(f"{len(opened)} async slices never end")
    for track, spans in slices.items():
        if track not in named:
            problems.append(f"track {track} has no thread_name")
        spans.sort()
        for (b0, e0, n0), (b1, e1, n1) in zip(spans, spans[1:]):
            if b1 < e0:  # exactly as a viewer computes ts + dur: any excess nests the slices
                problems.append(f"track {track}: '{n1}' at {b1} overlaps '{n0}' ending at {e0}")
    us = stats["microseconds"]
    if not (0.5 * us <= last <= 1.001 * us + 1e-3):
        problems.append(f"the trace ends at {last}, the run at {us} us: times are not in microseconds")
    for p in problems[:20]:
        print("trace:", p)
    n = sum(len(s) for s in slices.values())
    print(f"trace: {len(events)} events, {n} slices on {len(slices)} tracks, ends at {last:.3f} us of {us:.3f}")
    print(f"{0 if problems else 1} passed, {1 if problems else 0} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
