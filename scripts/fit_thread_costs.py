#!/usr/bin/env python3
"""Fits the costs of a CTA thread's own steps (the `thread` section of a configuration) to
H100 microbenchmarks, each the slope between a 16- and a 64-iteration run of one loop, so that
the fixed start-up cancels:

  thread.arrive_cycles          local mbarrier.arrive            microbench/local_arrive
  thread.cluster_arrive_cycles  mapa + arrive.release.cluster    microbench/cluster_arrive_{self,peer}
  thread.wait_cycles            a wait on a completed phase      loop_probe/walt2 (32 -> 64, cold: rolled
                                in a rolled loop alternating     loops both; microbench/wait_done's 16 is
                                barriers, as the corpus's rings  unrolled by nvcc and its 64 rolled, so its
                                                                 slope mixes two programs)
  thread.ldmatrix_cycles        ldmatrix.x4 issue interval       microbench/read2 (32 per iteration)
  thread.spin_overhead_cycles   a compute/delay step's spin      microbench/mma2 (less its 64 cycles)
  thread.wait_wakeup_cycles     arrive, then wait on that phase  scenarios/micro/arrive_wait (calibration half)

tests/golden/microbench and loop_probe are calibration sets in full; the corpus files used are calibration-half
files (the script refuses others). Writes the values and their provenance into CONFIG. The first
stage of the procedure: scripts/fit_timing.py runs after it and refits wait_wakeup_cycles (the
arrive_wait loop's arrive completes a phase, which costs far more than the local_arrive slope;
tests/golden/wait_probe) with the memory parameters.

    scripts/fit_thread_costs.py [CONFIG]   (default configs/h100.json)"""
import datetime
import gzip
import json
import os
import statistics
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICRO = os.path.join(TOP, "tests", "golden", "microbench")
CORPUS = os.path.join(TOP, "tests", "golden", "scenarios")


def results(path):
    with gzip.open(path, "rt") as f:
        return {json.loads(l)["file"]: json.loads(l) for l in f if l.strip()}


def loop_cycles(r):
    """Warm median cycles between the loop's first and second stamp, over the CTAs' warp 0."""
    return statistics.median(cta[0][1] - cta[0][0] for cta in r["warm"]["stamps"])


def main():
    config_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "configs", "h100.json")
    micro = results(os.path.join(MICRO, "results.jsonl.gz"))
    corpus = results(os.path.join(CORPUS, "results.jsonl.gz"))
    probe = results(os.path.join(TOP, "tests", "golden", "loop_probe", "results.jsonl.gz"))
    halves = dict(reversed(line.split()) for line in open(os.path.join(CORPUS, "split.txt")))
    used = []

    def slope(name):
        a, b = micro[f"{name}_n16.json"], micro[f"{name}_n64.json"]
        used.extend([f"tests/golden/microbench/{name}_n16.json", f"tests/golden/microbench/{name}_n64.json"])
        return (loop_cycles(b) - loop_cycles(a)) / 48

    def corpus_slope(name):
        files = [f"micro/{name}_n16.json", f"micro/{name}_n64.json"]
        for f in files:
            if halves.get(f) != "calibration":
                sys.exit(f"fit_thread_costs: {f} is not in the calibration half")
        used.extend("tests/golden/scenarios/" + f for f in files)
        a, b = (corpus[f]["warm"]["span_cycles"]["median"] for f in files)
        return (b - a) / 48

    def probe_slope(name, short, long):
        """Cold per-CTA cycles an iteration between two rolled lengths of a loop-probe program."""
        files = [f"{name}_n{short}.json", f"{name}_n{long}.json"]
        used.extend(f"tests/golden/loop_probe/{f}" for f in files)
        a, b = (probe[f]["cold"]["cta_cycles"][0] for f in files)
        return (b - a) / (long - short)

    config = json.load(open(config_path))
    flops = config.get("compute", {}).get("mma_flops_per_cycle", 4096)
    arrive = slope("local_arrive")
    fitted = {
        "arrive_cycles": arrive,
        "cluster_arrive_cycles": (slope("cluster_arrive_self") + slope("cluster_arrive_peer")) / 2,
        "wait_cycles": probe_slope("walt2", 32, 64),
        "ldmatrix_cycles": slope("read2") / 32,
        "spin_overhead_cycles": slope("mma2") - 2 * 2 * 64 * 64 * 16 / flops,
        "wait_wakeup_cycles": corpus_slope("arrive_wait") - arrive,
    }
    thread = config.setdefault("thread", {})
    for k, v in fitted.items():
        thread[k] = round(v, 1)
        print(f"fit_thread_costs: thread.{k} = {thread[k]}")
    config["provenance"] = {
        "fitted_by": "scripts/fit_thread_costs.py",
        "parameters": [f"thread.{k}" for k in fitted],
        "method": "slope between 16 and 64 iterations of one loop, warm L2 medians of 7 runs",
        "fitted_to": sorted(set(used)),
        "date": datetime.date.today().isoformat(),
    }
    with open(config_path, "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    print(f"fit_thread_costs: wrote {os.path.relpath(config_path, TOP)}")


if __name__ == "__main__":
    main()
