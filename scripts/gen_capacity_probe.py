#!/usr/bin/env python3
"""Writes tests/golden/capacity_probe/*.json: how large a footprint the L2 keeps warm (issue 29).

Why: on the H100 the dram probe's fit_f40 (132 CTAs each reading its own slice of 40 MiB once) was
mostly resident warm and fit_f48 was not, where the model's one LRU table of `memory.l2_bytes` (50
MiB) keeps both. The placement probe showed the harness's warm runs read from the SMs that read in
the warm-up, so copies in both halves are not the cause. The same programs at finer footprints, up
to past the L2, find the knee: the largest footprint the L2 keeps, as a share of its size. Run
where an H100 is not lent, on an H200 (60 MiB), the knee's share is what carries to the H100.
  fit_f<F>: F = 38, 42, .. 66 (the dram probe's `footprint`: floor(F x 32 / 132) boxes of 32 KiB a CTA,
      one pass; the footprint is that many times 4.125 MiB: 37.1, 41.3, 45.4, 49.5, 53.6, 57.8, 61.9, 66.0
      MiB. The dram probe's names are the same rounded: its fit_f40 is 37.1 MiB, fit_f48 45.4).
  swap_f<F>: F = 24, 32, 40, 48 (20.6, 28.9, 37.1, 45.4 MiB; each CTA then reads the slice of CTA c + 66).

    scripts/gen_capacity_probe.py [DIR]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_dram_probe as dram  # noqa: E402


def main():
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(dram.top, "tests", "golden", "capacity_probe")
    progs = {}
    for f in (38, 42, 46, 50, 54, 58, 62, 66):
        progs[f"fit_f{f}"] = dram.footprint(f"fit_f{f}", f, False)
    for f in (24, 32, 40, 48):
        progs[f"swap_f{f}"] = dram.footprint(f"swap_f{f}", f, True)
    for p in progs.values():
        p["name"] = p["name"].replace("dram_probe/", "capacity_probe/")
        p["comment"] = "scripts/gen_capacity_probe.py (the dram probe's footprint programs)"
    dram.write(dest, progs)
    print(f"gen_capacity_probe: {len(progs)} scenarios in {dest}")


if __name__ == "__main__":
    main()
