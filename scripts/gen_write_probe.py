#!/usr/bin/env python3
"""Writes tests/golden/write_probe/*.json: what a lone reader's misses wait beside CTAs that store, by
how many store and how many stores each keeps in flight (issue 29; data for the write path).

Why: the loaded probe (tests/golden/loaded_probe) found the H100's reader beside 66 or 131 CTAs storing
slowed from about 1250 to about 4000 cycles a miss, alike at 66 and 131 writers, once about half the L2
was written (from a clean L2) or at once (warm, the L2 holding the last run's dirty lines). The
model's DRAM serves a read behind every write-back booked: its reader waits for all the stores in
flight (131 x 4 x 16 KiB, about 5200 cycles at 1660 B/cycle). This probe asks what the wait depends
on: the writers' number C, the stores each keeps in flight F (so the bytes of writes in flight, C x F
x 16 KiB), or neither past some level.

Programs (16 KiB boxes, 64 x 128 fp16, 128-byte swizzle; the reader is the grid's first CTA, 48 loads
one at a time, a stamp after each; each writer stores its own tiles, about 137 MB in all whatever C):
  rd_alone48          the reader alone
  rd_wrC_fF           beside C = 16, 33, 66, 131 writers with F = 1 or 4 stores in flight; and C = 131
                      with F = 2 and 8

    scripts/gen_write_probe.py [DIR]"""
from gen_loaded_probe import program, reader, tensor, writers
from probe_files import probe_dest, write_programs

READS = 48
TOTAL_STORES = 131 * 64


def main():
    r = {"R": tensor(128 * READS)}
    programs = {"rd_alone48": program("rd_alone48", [reader(READS)], r, "write_probe")}
    cases = [(c, f) for c in (16, 33, 66, 131) for f in (1, 4)] + [(131, 2), (131, 8)]
    for c, f in cases:
        stores = -(-TOTAL_STORES // c)
        name = f"rd_wr{c}_f{f}"
        programs[name] = program(name, [reader(READS), writers(c, f, stores)], {**r, "Y": tensor(128 * c * stores)},
                                 "write_probe")
    write_programs(probe_dest("write_probe"), programs, tool="gen_write_probe")


if __name__ == "__main__":
    main()
