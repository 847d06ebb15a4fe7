#!/usr/bin/env python3
"""Which of a scenario's loops nvcc unrolls completely, read off the PTX of the kernel `tmasim cuda`
emits for it, and (with --write) stated in the scenario as `"unroll": true`.

Why: a step's cost depends on the code it compiles to. In straight-line code (a loop unrolled
completely) a wait's barrier and phase are constants; in a rolled loop they are computed each
iteration (`tests/golden/loop_probe`: 35-60 cycles a wait unrolled, 79-141 rolled). The model
cannot know which loops a compiler unrolls; the scenario says so (`thread.straight_line_costs`).

How, per loop: the kernel is compiled as it is, with `#pragma unroll` on that loop (forced
complete) and with `#pragma unroll 1` (forced rolled). The PTX (compared without its comments) as
it is equals the forced-complete one and not the forced-rolled one: nvcc had unrolled the loop
completely, and it is marked. Equal to both: the pragma changes nothing, as for a loop whose count
is known only at run time (the CUDA guide: such a loop is not unrolled) or is 0 or 1 (no loop is
left to unroll), and it is left unstated.
Otherwise (rolled, or unrolled in part) it is left unstated and costed as rolled. --recheck judges
the loops a file already states unrolled the same way and drops the statement where forcing the
loop rolled leaves the PTX as it is (a first version of this script marked run-time counts). A marked scenario emits `#pragma unroll` on that loop: the code nvcc chose. --write keeps
a file's indent and final newline (a hand-laid-out file comes back in json.dumps's layout).

  scripts/mark_unrolled.py [--write] [-j N] [--tmasim build/tmasim] SCENARIO.json|DIR ...

Prints a line per scenario: its loops in the order of the JSON, `U` unrolled completely, `.` not
(`r`: stated rolled; `-`: stated unrolled, dropped by --recheck). NVCC=path overrides nvcc (CUDA 13).
"""
import argparse
import concurrent.futures
import copy
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def loops(node, path=()):
    """Every loop step's path in the scenario, outer loops first."""
    if isinstance(node, dict):
        if "loop" in node and "body" in node:
            yield path
        for k, v in node.items():
            yield from loops(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from loops(v, path + (i,))


def at(node, path):
    for p in path:
        node = node[p]
    return node


def ptx(scenario, tmasim, nvcc, work):
    """The kernel's PTX without comments and nounroll hints, or None where it does not emit or compile."""
    d = tempfile.mkdtemp(dir=work)
    src = os.path.join(d, "s.json")
    with open(src, "w") as f:
        json.dump(scenario, f)
    r = subprocess.run([tmasim, "cuda", src, "-o", d], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    out = os.path.join(d, "k.ptx")
    r = subprocess.run([nvcc, "-O3", "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a", "-ptx",
                        os.path.join(d, "scenario.cu"), "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    with open(out) as f:
        text = f.read()
    # `#pragma unroll 1` leaves a `.pragma "nounroll";` at the loop's head; the code is what counts.
    return "\n".join(line for line in text.splitlines()
                     if not line.lstrip().startswith("//") and line.strip() != '.pragma "nounroll";')


def variant_ptx(scenario, path, unroll, tmasim, nvcc, work):
    variant = copy.deepcopy(scenario)
    at(variant, path)["unroll"] = unroll
    return ptx(variant, tmasim, nvcc, work)


def classify(path, tmasim, nvcc, recheck):
    with open(path) as f:
        scenario = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        as_is = ptx(scenario, tmasim, nvcc, work)
        if as_is is None:
            return path, scenario, None, "does not emit or compile"
        found = list(loops(scenario))
        forms = []
        for p in found:
            stated = at(scenario, p).get("unroll")
            if stated is False:
                forms.append("r")
            elif stated is True:
                rolled_same = recheck and variant_ptx(scenario, p, False, tmasim, nvcc, work) == as_is
                forms.append("-" if rolled_same else "U")
            elif variant_ptx(scenario, p, True, tmasim, nvcc, work) != as_is:
                forms.append(".")
            else:
                rolled_same = variant_ptx(scenario, p, False, tmasim, nvcc, work) == as_is
                forms.append("." if rolled_same else "U")
        for p, form in zip(found, forms):
            if form == "U":
                at(scenario, p)["unroll"] = True
            elif form == "-":
                del at(scenario, p)["unroll"]
        return path, scenario, forms, ""


def rewrite(path, scenario):
    """The scenario back into its file, in the file's layout: its indent (none for one line) and
    its final newline, so that the change is the keys added."""
    with open(path) as f:
        old = f.read()
    second = old.split("\n", 2)[1] if "\n" in old.rstrip("\n") else ""
    indent = len(second) - len(second.lstrip(" ")) or None
    with open(path, "w") as f:
        f.write(json.dumps(scenario, indent=indent) + ("\n" if old.endswith("\n") else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--write", action="store_true", help="state the loops found unrolled in the scenario files")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--recheck", action="store_true",
                    help="judge the loops stated unrolled too, and drop the statement where the pragma changes nothing")
    ap.add_argument("--tmasim", default=str(ROOT / "build" / "tmasim"))
    a = ap.parse_args()
    nvcc = os.environ.get("NVCC", "nvcc")
    files = []
    for p in a.paths:
        q = pathlib.Path(p)
        files += sorted(str(x) for x in q.rglob("*.json") if "loop" in x.read_text()) if q.is_dir() else [p]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for path, scenario, forms, why in pool.map(lambda f: classify(f, a.tmasim, nvcc, a.recheck), files):
            if forms is None:
                print(f"{path}: {why}", file=sys.stderr)
                failed += 1
                continue
            print(f"{path} {''.join(forms) or '(no loops)'}")
            if a.write and ("U" in forms or "-" in forms):
                rewrite(path, scenario)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
