#!/usr/bin/env python3
"""Reads the cost of a remote mbarrier arrive released at CTA scope, and the time it takes to reach
the peer's barrier, off tests/golden/arrive_scope_probe/calib (calibration; its generator declares
the rule) and writes them, with where they came from, into each CONFIG:

  thread.remote_arrive_cycles          the mean warm slope of cta_arrive_self and cta_arrive_peer
                                       (16 -> 64 arrives a loop)
  thread.remote_arrive_latency_cycles  the value at which the model's cta_pingpong warm slope (a round
                                       trip: two remote arrives, each ending a wait) is the H100's, by
                                       bisection (part of the latency hides under a wait's own cost)

    scripts/fit_remote_arrive.py [CONFIG...]   (default configs/h100.json; needs build/tmasim)"""
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.path.join(TOP, "tests", "golden", "arrive_scope_probe")
TMASIM = os.environ.get("TMASIM", os.path.join(TOP, "build", "tmasim"))


def h100_loops():
    with gzip.open(os.path.join(PROBE, "results.jsonl.gz"), "rt") as f:
        rows = [json.loads(l) for l in f if l.strip()]
    return {r["file"]: statistics.median(c[0][1] - c[0][0] for c in r["warm"]["stamps"])
            for r in rows if r["file"].startswith("calib/")}


def model_loop(config, name, remote_arrive, latency):
    """The model's cycles between the loop's stamps (warp 0 of CTA 0)."""
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        subprocess.run([TMASIM, "run", os.path.join(PROBE, "calib", name), "--config", config, "--l2", "warm",
                        "--set", f"thread.remote_arrive_cycles={remote_arrive}",
                        "--set", f"thread.remote_arrive_latency_cycles={latency}", "--stats", stats],
                       check=True, capture_output=True)
        s = json.load(open(stats))
    stamps = s["stamps"][0][0]
    return stamps[1] - stamps[0]


def main():
    configs = sys.argv[1:] or [os.path.join(TOP, "configs", "h100.json")]
    h100 = h100_loops()

    def slope(loops, name):
        return (loops(f"{name}_n64.json") - loops(f"{name}_n16.json")) / 48

    def measured(name):
        return h100[f"calib/{name}"]

    arrive = round((slope(measured, "cta_arrive_self") + slope(measured, "cta_arrive_peer")) / 2, 1)
    for path in configs:
        target = slope(measured, "cta_pingpong")
        lo, hi = 0.0, 1000.0
        while hi - lo > 0.1:
            mid = (lo + hi) / 2
            if slope(lambda n: model_loop(path, n, arrive, mid), "cta_pingpong") < target:
                lo = mid
            else:
                hi = mid
        latency = round((lo + hi) / 2, 1)
        without = slope(lambda n: model_loop(path, n, arrive, 0), "cta_pingpong")
        config = json.load(open(path))
        config.setdefault("thread", {}).update(remote_arrive_cycles=arrive, remote_arrive_latency_cycles=latency)
        src = [f"tests/golden/arrive_scope_probe/calib/{n}_n{k}.json"
               for n in ("cta_arrive_self", "cta_arrive_peer") for k in (16, 64)]
        read_off = config.setdefault("provenance", {}).setdefault("read_off", {})
        read_off["thread.remote_arrive_cycles"] = {
            "value": arrive, "from": src,
            "how": "the mean slope (16 -> 64 arrives, warm) of mapa + mbarrier.arrive at CTA scope to the own "
                   "rank and to the peer (scripts/fit_remote_arrive.py); as a local arrive, 5.6"}
        read_off["thread.remote_arrive_latency_cycles"] = {
            "value": latency,
            "from": [f"tests/golden/arrive_scope_probe/calib/cta_pingpong_n{k}.json" for k in (16, 64)],
            "how": f"a ping-pong round trip is {slope(measured, 'cta_pingpong'):.0f} cycles (warm slope); the model "
                   f"without the latency gives {without:.0f}; the latency at which it gives the H100's, by bisection "
                   "(scripts/fit_remote_arrive.py)"}
        with open(path, "w") as f:
            json.dump(config, f, indent=2)
            f.write("\n")
        print(f"fit_remote_arrive: {os.path.relpath(path, TOP)}: thread.remote_arrive_cycles = {arrive}, "
              f"thread.remote_arrive_latency_cycles = {latency}")


if __name__ == "__main__":
    main()
