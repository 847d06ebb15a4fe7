#!/usr/bin/env python3
"""Issue 33: `tmasim compare` keeps only the GPU results of the scenarios it compares.

It read a whole results file into memory before looking at any (a 1 MB gzip expands to ~10 GB).
Here one real result sits among 250,000 results of other scenarios (about 260 MB once expanded):
the verdict must be the one the real result alone gives, and the memory of the run must not grow
with the file (within 64 MB of the run on the one result). Two results for the scenario compared
are an error for that scenario, never one of them chosen silently.

usage: check_bounded_compare.py TMASIM SCENARIO RESULTS.jsonl.gz WORKDIR
"""
import gzip
import json
import os
import subprocess
import sys

PAD_LINES = 250_000


def run_measured(cmd):
    """Output and peak resident memory (KiB) of one command, in a process of its own."""
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "sys.stdout.write(p.stdout + p.stderr)\n"
             "print('maxrss', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    # Under AddressSanitizer freed memory waits in a quarantine (256 MB by default): without it the
    # resident memory is what the program keeps.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), "quarantine_size_mb=0"]))
    out = subprocess.run([sys.executable, "-c", probe] + cmd, capture_output=True, text=True, env=env).stdout
    body, _, rss = out.rpartition("maxrss ")
    return body, int(rss)


def verdict(text):
    return [l for l in text.splitlines() if l.startswith(("private", "hits", "shared")) or "passed" in l]


def main():
    tmasim, scenario, results, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    name = os.path.basename(scenario)
    with gzip.open(results, "rt") as f:
        real = next(l for l in f if json.loads(l).get("file") == name)
    alone, padded, twice = (os.path.join(work, n) for n in ("alone.jsonl.gz", "padded.jsonl.gz", "twice.jsonl.gz"))
    with gzip.open(alone, "wt", compresslevel=1) as f:
        f.write(real)
    with gzip.open(twice, "wt", compresslevel=1) as f:
        f.write(real + real)
    filler = "x" * 1000
    with gzip.open(padded, "wt", compresslevel=1) as f:
        for i in range(PAD_LINES):
            f.write(json.dumps({"file": f"other/{i}.json", "scenario": f"other/{i}", "note": filler}) + "\n")
            if i == PAD_LINES // 2:
                f.write(real)
    out_alone, rss_alone = run_measured([tmasim, "compare", scenario, alone])
    out_padded, rss_padded = run_measured([tmasim, "compare", scenario, padded])
    out_twice, _ = run_measured([tmasim, "compare", scenario, twice])
    print(out_padded)
    print(f"peak memory: {rss_alone / 1024:.0f} MB with the one result, {rss_padded / 1024:.0f} MB among "
          f"{PAD_LINES} others")
    ok = True
    if not verdict(out_alone) or verdict(out_alone) != verdict(out_padded):
        print("FAIL: the verdict differs:\n" + out_alone + "\n" + out_padded)
        ok = False
    if rss_padded - rss_alone > 64 * 1024:
        print("FAIL: the results of other scenarios were kept in memory")
        ok = False
    if "two GPU results for this scenario" not in out_twice:
        print("FAIL: two results for one scenario were not refused:\n" + out_twice)
        ok = False
    for p in (alone, padded, twice):
        os.remove(p)
    print("ok" if ok else "failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
