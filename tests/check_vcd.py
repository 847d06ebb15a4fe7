#!/usr/bin/env python3
"""Parses a `tmasim run --vcd` file as a waveform viewer would and checks what it carries: per
TMA unit the queue occupancy, operations and bytes in flight; every mbarrier's phase; the DRAM
backlog; the threads still running, which falls to 0 when the simulation ends; value changes
over many time steps; and a last time step at the run's end (--stats), within two cycles and
the 0.01% by which SystemC's 1 ps resolution rounds a cycle (505 ps for 505.05 at 1980 MHz), or
up to thread.remote_arrive_latency_cycles after it: an arrive addressed to a peer CTA as a thread's
last step lands on the peer's barrier (a phase in the waveform) that much after the thread ended.

    check_vcd.py WAVES.vcd STATS.json
"""
import json
import re
import sys


def main(vcd_path, stats_path):
    stats = json.load(open(stats_path))
    text = open(vcd_path).read()
    problems = []
    scale = re.search(r"\$timescale\s+(\d+)\s*(\w+)\s+\$end", text)
    unit = {"fs": 1e-15, "ps": 1e-12, "ns": 1e-9, "us": 1e-6}[scale.group(2)] * int(scale.group(1)) if scale else None
    if unit is None:
        problems.append("no $timescale")
    ids, scope = {}, []
    for line in text.splitlines():
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var":
            ids.setdefault(t[3], []).append(".".join(scope[1:] + [t[4]]))
    names = [n for v in ids.values() for n in v]
    for want in ("queue_occupancy", "ops_in_flight", "bytes_in_flight", ".phase", "memory.hbm_backlog_cycles", "threads_running"):
        if not any(want in n for n in names):
            problems.append(f"no signal named *{want}*")
    body = text.split("$enddefinitions $end", 1)[-1]
    times, value = [], {}
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("#"):
            times.append(int(line[1:]))
        elif line.startswith("b"):
            bits, ident = line[1:].split()
            value[ident] = int(bits, 2)
    running = [i for i, v in ids.items() if any(n.endswith("threads_running") for n in v)]
    if running and value.get(running[0]) != 0:
        problems.append(f"threads_running ends at {value.get(running[0])}, not 0")
    if len(times) < 10:
        problems.append(f"only {len(times)} time steps")
    end_s = stats["microseconds"] * 1e-6
    cycle_s = end_s / stats["cycles"] if stats["cycles"] else 0
    in_flight_s = stats.get("config", {}).get("thread", {}).get("remote_arrive_latency_cycles", 0) * cycle_s
    slack = 2 * cycle_s + 2e-4 * end_s
    if unit and times and not end_s - slack <= times[-1] * unit <= end_s + in_flight_s + slack:
        problems.append(f"the waveform ends at {times[-1] * unit * 1e6:.4f} us, the run at {end_s * 1e6:.4f} us")
    for p in problems:
        print("vcd:", p)
    print(f"vcd: {len(names)} signals, {len(times)} time steps, ends at {times[-1] * unit * 1e6 if times and unit else 0:.4f} us")
    print(f"{0 if problems else 1} passed, {1 if problems else 0} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
