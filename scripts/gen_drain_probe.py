#!/usr/bin/env python3
"""Writes tests/golden/drain_probe/*.json: does the H100's L2 write the harness's dirty lines back on
its own, after the flush, while the program waits (issue 29)?

Why: `tests/golden/dirty_probe` found that one CTA's 16 misses cost nothing more in the dirty state
(`cold`) than in the clean one at once, but 431 cycles more after a 20000-cycle spin and 1532 after a
100000-cycle one: something starts after the flush and slows misses while it runs. The mix probe saw
the H100 write dirty lines back long before the L2 was full. The model writes a dirty line back only
when a fill evicts it. ncu's DRAM bytes written during a kernel that spins, in the `dirty` launch (the
harness's cold launch with no flush of ncu's), say whether the L2 drains them meanwhile, and how fast.

Programs (16 KiB boxes as the dirty probe's, S = 1 unless named):
  lat_c1_dD_n16       one CTA: a spin of D cycles, then 16 loads; D = 0, 5k, 10k, 50k, 100k, 200k, 400k
  lat_c16_s2_dD_n16   16 CTAs, S = 2: a spin of D, then 16 loads each; D = 0, 50k, 200k
  idle_dD             one CTA: a spin of D, then one load; D = 100k, 400k (for ncu's write bytes)

    scripts/gen_drain_probe.py [DIR]"""
from gen_dirty_probe import program
from probe_files import probe_dest, write_programs

programs = {}
for d in (0, 5000, 10000, 50000, 100000, 200000, 400000):
    name = f"lat_c1_d{d // 1000}k_n16"
    programs[name] = program(name, 1, 1, 16, delay=d, probe="drain_probe")
for d in (0, 50000, 200000):
    name = f"lat_c16_s2_d{d // 1000}k_n16"
    programs[name] = program(name, 16, 2, 16, delay=d, probe="drain_probe")
for d in (100000, 400000):
    name = f"idle_d{d // 1000}k"
    programs[name] = program(name, 1, 1, 1, delay=d, probe="drain_probe")
write_programs(probe_dest("drain_probe"), programs, tool="gen_drain_probe")
