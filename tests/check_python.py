#!/usr/bin/env python3
"""The Python module (issue 32) answers as the command does, and a sweep on a Dask LocalCluster of
4 worker processes gives the same 64 rows as the local sweep.

    PYTHONPATH=BUILD/python check_python.py TMASIM_BINARY"""
import json
import os
import subprocess
import sys
import tempfile

import tmasim

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1]
example = os.path.join(top, "examples", "gemm_pipeline.json")
failed = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failed.append(what)



def main():  # the Dask workers (spawned) import this file: nothing runs at its top
    # run: the statistics of `tmasim run --stats`, the same cycles for the same settings.
    stats = tmasim.run(example, set={"STAGES": 3})
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.json")
        subprocess.run([binary, "run", example, "--timing-only", "--set", "STAGES=3", "--stats", path], check=True,
                       capture_output=True)
        command = json.load(open(path))
    check(stats["cycles"] == command["cycles"] and stats["schema"] == "tmasim-stats/1",
          f"run: {stats['cycles']} cycles, the command's {command['cycles']}")
    check(stats["params"]["STAGES"] == 3 and "verdict" in stats["bottleneck"], "run: params and bottleneck recorded")
    check(tmasim.run()["cycles"] == tmasim.run(example)["cycles"], "run(): the built-in scenario is examples/gemm_pipeline.json")
    scenario = json.load(open(example))
    check(tmasim.run(scenario)["cycles"] == tmasim.run(example)["cycles"], "run(dict): a scenario built in Python")
    try:
        tmasim.run(example, set={"STAGEZ": 3})
        check(False, "a misspelt parameter raises")
    except tmasim.TmasimError as e:
        check(e.status == 2 and "did you mean 'STAGES'" in str(e), f"a misspelt parameter raises: {e}")

    # conflicts, explain, compare.
    answer = tmasim.conflicts(rows=64, cols=64, swizzle="none", access="ldmatrix.x4")
    check(answer.get("schema") == "tmasim-conflicts/1", "conflicts: the --json answer")
    check("swizzle 128b" in tmasim.explain(dtype="float16", dims=[64, 64], swizzle="128b", coords=[0, 0]), "explain: the report")
    table = tmasim.compare(os.path.join(top, "tests", "golden", "attention_probe", "attention",
                                        "b8_h16_s2048_d128_c1_bm128_sm866.json"),
                           os.path.join(top, "tests", "golden", "attention_probe", "results.jsonl.gz"),
                           l2="warm", clock="measured")
    check(len(table) == 1, f"compare: one row ({list(table.columns)[:6]})")

    # A 64-point sweep, local and on a Dask LocalCluster of 4 worker processes: the same rows.
    settings = {"STAGES": [2, 3, 4, 6], "smem.banks": [32, 64], "issue.cycles": [43, 86, 172, 344], "KT": [8, 16]}
    local = tmasim.sweep(example, settings)
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=4, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        distributed = tmasim.sweep(example, settings, client=client)
        workers = len(client.scheduler_info()["workers"])
        # The command's --dask: the same CSV, byte for byte, as its local sweep.
        with tempfile.TemporaryDirectory() as tmp:
            axes = ["--set", "STAGES=2,4", "--set", "smem.banks=32,64", "--no-plot"]
            subprocess.run([binary, "sweep", example, *axes, "-o", os.path.join(tmp, "local")], check=True,
                           capture_output=True)
            dask_run = subprocess.run([binary, "sweep", example, *axes, "-o", os.path.join(tmp, "dask"),
                                       "--dask", cluster.scheduler_address], capture_output=True, text=True)
            same = dask_run.returncode == 0 and \
                open(os.path.join(tmp, "local.csv")).read() == open(os.path.join(tmp, "dask.csv")).read()
            check(same, "tmasim sweep --dask: the local sweep's CSV " + dask_run.stdout.strip().replace("\n", "; ")
                  + dask_run.stderr.strip()[-300:])
    check(len(local) == 64 and workers == 4, f"sweep: {len(local)} points locally, {workers} Dask workers")
    check(local.equals(distributed), "sweep on Dask: the same rows as the local sweep")
    if not local.equals(distributed):
        print(local.compare(distributed).head())
    print(f"{len(failed)} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
