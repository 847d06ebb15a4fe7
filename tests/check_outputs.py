#!/usr/bin/env python3
"""docs/outputs.md lists exactly the keys `tmasim run --stats` writes, and their schema; the
provenance keys say what was run (the --set given, the params and configuration as built, the
stamps' labels beside the stamps); `tmasim --version` names the same build.

    check_outputs.py TMASIM SOURCE_DIR"""
import json
import os
import re
import subprocess
import sys


def documented(src):
    text = open(os.path.join(src, "docs", "outputs.md")).read()
    table = text[text.index("<!-- BEGIN stats keys -->"):text.index("<!-- END stats keys -->")]
    keys = set()
    for line in table.splitlines()[3:]:
        cell = line.split("|")[1]
        keys.update(re.findall(r"`([a-z_0-9]+)`", cell))
    schema = re.search(r"Schema `([^`]+)`", text).group(1)
    return keys, schema


def documented_columns(src):
    text = open(os.path.join(src, "docs", "outputs.md")).read()
    table = text[text.index("<!-- BEGIN compare columns -->"):text.index("<!-- END compare columns -->")]
    return [c for line in table.splitlines()[3:] for c in re.findall(r"`([a-z_0-9]+)`", line.split("|")[1])]


def check_compare_csv(tmasim, src, version):
    """The compare CSV's header is the documented column list, and its rows name the run."""
    import csv
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "compare.csv")
        subprocess.run([tmasim, "compare", os.path.join(src, "tests", "scenarios", "stamps.json"),
                        os.path.join(src, "tests", "golden", "scenario_examples.jsonl.gz"), "--tolerance", "0.6",
                        "--l2", "warm", "--csv", table], capture_output=True, check=False)
        with open(table) as f:
            reader = csv.DictReader(f)
            header, rows = reader.fieldnames, list(reader)
        calibrated = os.path.join(tmp, "calibrate.csv")
        subprocess.run([tmasim, "calibrate", os.path.join(src, "tests", "golden", "timing.jsonl.gz"), "--csv",
                        calibrated], capture_output=True, check=False)
        with open(calibrated) as f:
            records = list(csv.DictReader(f))
    checks = {
        "calibrate rows name the run": len(records) > 0 and all(r["tmasim_version"] == version for r in records),
        "compare columns documented": header == documented_columns(src),
        "compare rows name the run": len(rows) == 1 and rows[0]["tmasim_version"] == version
        and rows[0]["l2_start"] == "warm" and rows[0]["config_file"].endswith("h100.json"),
    }
    for name, good in checks.items():
        print(f"{name}: {'ok' if good else 'WRONG ' + str(header)}")
    return all(checks.values())


def main(tmasim, src):
    keys, schema = documented(src)
    p = subprocess.run([tmasim, "run", os.path.join(src, "tests", "scenarios", "stamps.json"), "--stats", "-",
                        "--set", "smem.banks=64", "--l2", "warm", "--timing-only"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr)
        return 1
    stats = json.loads(p.stdout)  # the JSON alone on standard output
    ok = True
    for what, diff in (("written but not documented", set(stats) - keys), ("documented but not written", keys - set(stats))):
        if diff:
            print(f"{what}: {sorted(diff)}")
            ok = False
    version = subprocess.run([tmasim, "--version"], capture_output=True, text=True).stdout.strip()
    checks = {
        "schema": stats["schema"] == schema,
        "version": version == "tmasim " + stats["tmasim_version"] and stats["tmasim_version"] != "",
        "settings": stats["settings"] == ["smem.banks=64"],
        "config as run": stats["config"]["smem"]["banks"] == 64,
        "l2": stats["l2_start"] == "warm" and stats["timing_only"] is True,
        "labels beside stamps": [[len(w) for w in c] for c in stats["stamp_labels"]] == [[len(w) for w in c] for c in stats["stamps"]],
        "report on stderr": "cycles =" in p.stderr,
    }
    for name, good in checks.items():
        print(f"{name}: {'ok' if good else 'WRONG'}")
        ok = ok and good
    p = subprocess.run([tmasim, "run", os.path.join(src, "examples", "gemm_pipeline.json"), "--stats", "-",
                        "--set", "STAGES=2", "--timing-only"], capture_output=True, text=True)
    params = json.loads(p.stdout)["params"]
    good = params.get("STAGES") == 2 and params.get("KT") == 16
    print(f"params as built: {'ok' if good else 'WRONG ' + str(params)}")
    good = check_compare_csv(tmasim, src, stats["tmasim_version"]) and good
    print("passed" if ok and good else "FAILED")
    return 0 if ok and good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
