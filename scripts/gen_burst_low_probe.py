#!/usr/bin/env python3
"""Writes tests/golden/burst_low_probe/*.json: the burst probe's programs at 2-12 CTAs, to find where a
dirty L2 starts to cost a burst of misses (issue 29; data).

Why: the burst probe (tests/golden/burst_probe) found a dirty L2 costing nothing to one CTA's burst of
up to 12 loads (192 KiB, about 88 KB of it evicting dirty lines) but 260-370 cycles to 4 CTAs' burst
of 4 and 16 CTAs' burst of 1 (256 KiB), and its declared fit, a buffer a burst overflows, landed on
no buffer at all: the cost looks like a step, not a rate. These programs place the step: is it in
the bytes a burst brings in (the L2's write-back buffer), or in how many SMs ask at once?

Programs: the burst probe's form (each CTA its own tiles, one burst of S loads of 16 KiB issued, then
each waited for with a stamp): burst_cC_sS for C = 2, 3, 4, 6, 8, 12 and S = 2, 4, 8, 12.

    scripts/gen_burst_low_probe.py [DIR]"""
from gen_burst_probe import program
from probe_files import probe_dest, write_programs


def main():
    programs = {}
    for c in (2, 3, 4, 6, 8, 12):
        for s in (2, 4, 8, 12):
            name = f"burst_c{c}_s{s}"
            programs[name] = program(name, c, s, probe="burst_low_probe")
    write_programs(probe_dest("burst_low_probe"), programs, tool="gen_burst_low_probe")


if __name__ == "__main__":
    main()
