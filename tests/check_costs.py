#!/usr/bin/env python3
"""`tmasim costs` on the H100's stamps (tests/golden/floor_probe/stamped_r800, a read with
"cycles": 800 between stamps): the cycles it writes are the GPU's intervals less the stamp's own
cost, both computed here from the raw result, and they read the floor back within 8%; the emitted
read without a floor comes out near the model's default; the same program written as a loop gets
the same figure on its one step. Then its refusals: a program that is not the one the GPU ran,
no result for the scenario, a run that hung.

    check_costs.py TMASIM GOLDEN_DIR"""
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile


def gpu_result(golden, name):
    with gzip.open(os.path.join(golden, "floor_probe", "results.jsonl.gz"), "rt") as f:
        for line in f:
            r = json.loads(line)
            if r["file"] == name + ".json":
                return r
    raise SystemExit(f"no result for {name}")


def costs(tmasim, scenario, results, out, l2="warm"):
    return subprocess.run([tmasim, "costs", scenario, "--results", results, "--l2", l2, "-o", out],
                          capture_output=True, text=True)


def check_read_back(tmasim, golden, tmp, name, floor, lo, hi):
    r = gpu_result(golden, name)
    stamps = r["warm"]["stamps"][0][0]  # CTA 0, warp 0: before_0, after_0, before_1, ...
    back_to_back = statistics.median(stamps[k + 1] - stamps[k] for k in range(1, len(stamps) - 1, 2))
    want = [round(stamps[k + 1] - stamps[k] - back_to_back) for k in range(0, len(stamps), 2)]
    out = os.path.join(tmp, name + ".json")
    p = costs(tmasim, os.path.join(golden, "floor_probe", name + ".json"),
              os.path.join(golden, "floor_probe", "results.jsonl.gz"), out)
    if p.returncode != 0:
        raise SystemExit(f"{name}: tmasim costs failed: {p.stderr}")
    program = json.load(open(out))["ctas"][0]["threads"][0]["program"]
    got = [s["cycles"] for s in program if "read" in s]
    print(f"{name}: stamp {back_to_back:.0f} cycles, reads {got}, computed here {want}")
    ok = got == want and all(lo <= c <= hi for c in got)
    if floor:
        ok = ok and all(abs(c - floor) / floor <= 0.08 for c in got)
    return ok


def looped(tmasim, golden, tmp):
    """stamped_r800's four stamped reads as a loop of one stamped read: its median over the four."""
    base = json.load(open(os.path.join(golden, "floor_probe", "stamped_r800.json")))
    prog = base["ctas"][0]["threads"][0]["program"]
    body = [prog[-12], dict(prog[-11]), prog[-10]]
    body[1]["read"] = dict(body[1]["read"], smem_offset="t * 16384")
    base["ctas"][0]["threads"][0]["program"] = prog[:-12] + [{"loop": "t", "count": 4, "body": body}]
    path, out = os.path.join(tmp, "looped.json"), os.path.join(tmp, "looped_out.json")
    json.dump(base, open(path, "w"))
    p = costs(tmasim, path, os.path.join(golden, "floor_probe", "results.jsonl.gz"), out)
    if p.returncode != 0:
        print(f"looped: tmasim costs failed: {p.stderr}")
        return False
    got = json.load(open(out))["ctas"][0]["threads"][0]["program"][-1]["body"][1].get("cycles")
    # The stamp back to back is measured between the loop's iterations (after_t -> before_t+1).
    print(f"looped: the loop's read {got} (the four reads: 829, 860, 859, 853; median 856)")
    return got == 856


def user_consumer(golden):
    """tests/golden/user_probe: the read's cycles in costed/ are the H100's median interval around
    the user's read in measure_c1 (32 iterations), less thread.stamp_cycles (31: no stamps there
    are back to back)."""
    with gzip.open(os.path.join(golden, "user_probe", "results.jsonl.gz"), "rt") as f:
        r = next(json.loads(line) for line in f if json.loads(line)["file"] == "measure_c1.json")
    stamps = r["warm"]["stamps"][0][1]  # CTA 0, warp 1 (the consumer): before, after, before, ...
    want = round(statistics.median(stamps[k + 1] - stamps[k] for k in range(0, len(stamps), 2)) - 31)
    costed = json.load(open(os.path.join(golden, "user_probe", "costed", "pipe_s4_c1.json")))
    got = costed["ctas"][0]["threads"][1]["program"][0]["body"][1]["cycles"]
    print(f"user_probe: the costed read {got}, computed here {want}")
    return got == want


def refusals(tmasim, golden, tmp):
    ok = True
    base = json.load(open(os.path.join(golden, "floor_probe", "stamped_r0.json")))
    results = os.path.join(golden, "floor_probe", "results.jsonl.gz")
    more = json.loads(json.dumps(base))
    more["ctas"][0]["threads"][0]["program"].append({"stamp": "extra"})
    cases = [(more, results, "the GPU recorded 8 stamps where the program runs 9")]
    other = json.loads(json.dumps(base))
    other["name"] = "floor_probe/nobody"
    lone = os.path.join(tmp, "two.jsonl")
    with gzip.open(results, "rt") as f, open(lone, "w") as g:
        g.writelines(f.readlines()[:2])  # two results, neither for this scenario
    cases.append((other, lone, "no result for scenario 'floor_probe/nobody'"))
    hung = os.path.join(tmp, "hung.json")
    json.dump({"scenario": base["name"], "hang": "CTA 0 warp 0 timed out at step 3"}, open(hung, "w"))
    cases.append((base, hung, "did not finish (hang)"))
    for k, (scenario, res, message) in enumerate(cases):
        path = os.path.join(tmp, f"refused{k}.json")
        json.dump(scenario, open(path, "w"))
        p = costs(tmasim, path, res, os.path.join(tmp, "out.json"))
        good = p.returncode == 2 and message in p.stderr
        print(f"refusal {k}: exit {p.returncode}, {'ok' if good else 'WRONG: ' + p.stderr.strip()}")
        ok = ok and good
    return ok


def main(tmasim, golden):
    with tempfile.TemporaryDirectory() as tmp:
        ok = check_read_back(tmasim, golden, tmp, "stamped_r800", 800, 0, 1e9)
        # The emitted 128x64 read, no floor: near the model's default (32 ldmatrix.x4 at 13.3, 426).
        ok = check_read_back(tmasim, golden, tmp, "stamped_r0", 0, 380, 470) and ok
        ok = looped(tmasim, golden, tmp) and ok
        ok = user_consumer(golden) and ok
        ok = refusals(tmasim, golden, tmp) and ok
    print("passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
