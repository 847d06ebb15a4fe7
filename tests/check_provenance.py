#!/usr/bin/env python3
"""Fitting and judging stay apart: every configuration whose provenance lists what it was
fitted to (scripts/fit_timing.py writes it) may name calibration scenarios only, never one of
the validation half (tests/golden/scenarios/split.txt, tests/golden/wgmma_probe/split.txt;
tests/golden/contend_probe/split.txt, calibration in full; tests/golden/epilogue_probe/split.txt); tests/golden/microbench,
tests/golden/loop_probe and tests/golden/stream_probe count as calibration data in full, and of the
timing records only the sets CALIBRATION_RECORDS names (tests/golden/README.md): the older records,
tests/golden/timing.jsonl.gz, are a judging set. Parameters read off a measurement by hand are
named with their sources under the provenance's "read_off"; the same rule holds for those.

    check_provenance.py CONFIG.json...
"""
import json
import os
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# FILE:KEY, the records of FILE that set KEY (scripts/fit_timing.py --records).
CALIBRATION_RECORDS = {"tests/golden/timing_issue_probe.jsonl.gz:first_load"}
CALIBRATION_DIRS = ("tests/golden/microbench/", "tests/golden/loop_probe/", "tests/golden/stream_probe/",
                    "tests/golden/gpc_probe/", "tests/golden/smem_probe/", "tests/golden/share_probe/",
                    "tests/golden/prefetch_probe/", "tests/golden/store_probe/", "tests/golden/degree_probe/",
                    "tests/golden/locality_probe/", "tests/golden/dram_probe/", "tests/golden/partition_probe/",
                    "tests/golden/floor_probe/stamped_", "tests/golden/small_box_probe/",
                    "tests/golden/arrive_scope_probe/calib/", "tests/golden/launch_probe/",
                    "tests/golden/store_load_probe/", "tests/golden/cluster_load_probe/",
                    # it decided thread.cluster_arrive_waits_for_delivery's adoption: calibration from then on
                    "tests/golden/cluster_confirm_probe/", "tests/golden/unroll_probe/",
                    "tests/golden/group_share_probe/", "tests/golden/tlb_probe/",
                    # it gave memory.l2_resident_fraction (read off, 2026-11-28): calibration from then on
                    "tests/golden/capacity_probe/",
                    # issue.first_cycles and thread.straight_armed_load_cycles read off (2026-12-07)
                    "tests/golden/first_issue_probe/", "tests/golden/armed_probe/",
                    # memory.l2_join_window_cycles was fitted on it (2026-11-28), adopted 2026-12-07
                    "tests/golden/join_probe/",
                    # thread.inline_division_cycles read off (2026-12-07)
                    "tests/golden/ring_form_probe/",
                    # memory.l2_fetch_bytes read off (2026-12-07)
                    "tests/golden/sector_probe/",
                    # memory.dram_queue_cycles read off (2026-12-07)
                    "tests/golden/loaded_probe/")


def main(paths):
    halves = {}
    for probe in ("scenarios", "wgmma_probe", "contend_probe", "epilogue_probe"):  # sets whose split.txt names the halves
        for line in open(os.path.join(TOP, "tests", "golden", probe, "split.txt")):
            half, path = line.split()
            halves[f"tests/golden/{probe}/" + path] = half
    passed = failed = 0
    for p in paths:
        prov = json.load(open(p)).get("provenance")
        if not isinstance(prov, dict) or "fitted_to" not in prov:
            print(f"{os.path.basename(p)}: no fitted provenance (hand-set parameters)")
            passed += 1
            continue
        sources = list(prov["fitted_to"])
        for read_off in prov.get("read_off", {}).values():
            sources += read_off["from"]
        # tests/golden/microbench and loop_probe are calibration sets in full (their READMEs).
        bad = [f for f in sources if halves.get(f) != "calibration"
               and not f.startswith(CALIBRATION_DIRS) and f not in CALIBRATION_RECORDS]
        if bad:
            failed += 1
            print(f"{os.path.basename(p)}: fitted to {len(bad)} scenarios or records outside the calibration sets, e.g. {bad[0]}")
        else:
            passed += 1
            print(f"{os.path.basename(p)}: fitted to {len(sources)} calibration scenarios or record sets only")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
