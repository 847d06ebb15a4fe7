#!/usr/bin/env python3
"""Writes tests/golden/release_load_probe/*.json: does a release at cluster scope cost more while
other SMs load, when the releasing SM itself loads nothing? (issue 29)

tests/golden/cluster_load_probe left this open: at 128 CTAs the H100's cluster-scope release costs
about 3830 cycles a step whatever the multicast (the model about 2855), and at CTA scope the growth is
the loads'. What grows with the load at scale but not with the SM's own bytes in flight is the
question; a release that must reach a point of the memory system that others' traffic queues at
would.

Two CTAs (one cluster of 2) play ping-pong with no loads: each step a CTA arrives on its peer's
barrier (an arrive addressed by rank) and waits for the peer's arrive on its own. Beside them, in the
same launch, 126 streamer CTAs (63 clusters of 2, one thread each, four 16 KiB stages refilled as they
land) load, or do not run at all:

  {scope}_{background}_k{kt}
    scope       cluster: the arrive released at cluster scope (mapa + arrive.release.cluster, the
                corpus's default); cta: at CTA scope (mbarrier.arrive.shared::cluster, CUTLASS's).
    background  alone: the two ping-pong CTAs only.
                dram: each streamer loads 480 boxes of its own rows (a footprint of 945 MiB: misses).
                l2: each streamer loads 2048 boxes of the same 2 MiB (hits once warm): the L2's output busy.
    kt          64 or 192 ping-pong steps: a step's cost is the slope of the ping-pong CTAs' own cycles
                between them, read from each CTA's cycles (the streamers run longer than either).

A second run (declared after the first's results: others' streams did not slow a release) asks what
does at scale, with two more families:

  {scope}_many_k{kt}            all 128 CTAs (64 clusters) play ping-pong: releases at once on every SM.
  {scope}_own_{background}_k{kt} the ping-pong CTAs also load a 16 KiB box of their own each step
                                (expect, load, release, wait for the peer, wait for the box), so that the
                                release has a read in flight, alone or beside the same streamers.

A third run (declared after the second's: the box's latency beside others' streams is where the
model is off) asks whether the shared paths serve SMs in turns or in arrival order, at CTA scope:

  cta_own_{background}_n{N}_s{S}_k{kt}  N streamers (32 or 126) with S stages each (1, 2, 4 or 8 boxes
                                        in flight an SM), the ping-pong CTAs with a box of their own
                                        (kt 32 or 96); DRAM streamers walk 8 MiB of rows of their
                                        own four times (misses: 1 GiB at 126), so that every
                                        background outlasts the ping-pong.
  cta_own_alone_k{32,96}                the same ping-pong alone.

A fourth run (declared after the third's: behind a saturated DRAM the box waits about half what the
whole queue would take) asks what bounds the queue ahead of it, bytes or boxes in flight an SM:

  cta_own_dram_n126_r{R}_s{S}_k{kt}     126 streamers whose boxes are R rows of 128 B (64, 128 or 256),
                                        S of them in flight each: 64 to 192 KiB an SM in shapes
                                        that hold the bytes and change the count, or the reverse.
  cta_own_alone_r_k{32,96}              the ping-pong alone, in the same run.

A fifth run repeats the fourth's shapes whose loads were not a multiple of their stages (their last
loads on some barriers were never waited for, and they hung on the GPU) with whole rounds of loads:

  cta_own_dram_n126_r{R}_s{S}_whole_k{kt}

A sixth run (declared after the fifth's: the queue ahead flattens past about 96 KiB an SM) asks
whether that bound is each SM's or the chip's, by the count of streamers at a fixed depth:

  cta_own_dram_n{N}_r128_s{S}_k{kt}     N = 48 ... 126 streamers, S = 4 or 8 boxes of 128 rows in flight
                                        each (64 or 128 KiB an SM).
  cta_own_alone_n_k{32,96}              the ping-pong alone, in the same run.

A seventh run (declared after the sixth's: the wait follows the bytes in flight on the whole chip)
puts the sixth's chip totals on fewer SMs, each deeper:

  cta_own_dram_n{N}_r128_s12_whole_k{kt}  N = 48, 64 or 80 streamers with 192 KiB in flight each
                                          (9.4, 12.6 and 15.7 MB in all).
  cta_own_alone_d_k{32,96}                the ping-pong alone, in the same run.

An eighth run (declared after the seventh's: on 64-80 SMs the box waits behind all in flight, on 126
behind about 10 MB) fills the counts between at the same depth:

  cta_own_dram_n{N}_r128_s12_whole_k{kt}  N = 88, 96, 104 or 112 streamers, 192 KiB in flight each.
  cta_own_alone_e_k{32,96}                the ping-pong alone, in the same run.

A ninth run (declared after the eighth's: every launch with the smaller wait had the ping-pong on SMs
126-127) runs four ping-pong pairs at once, the grid's first four clusters, which the GPU places on
its four 2-SM TPCs, so that each launch measures the box's wait on each:

  cta_pairs_dram_n{N}_r128_s12_k{kt}    N = 64, 80, 96 or 120 streamers, 192 KiB in flight each.
  cta_pairs_alone_k{32,96}              the four pairs alone.

A tenth run (declared after the ninth's: the box on SMs 128-129 waits 1.6-1.8x what it waits on the
other three 2-SM TPCs) puts the four pairs beside streamers of L2 hits instead:

  cta_pairs_l2_n{N}_s4_k{kt}            N = 80 or 120 streamers of 4 boxes each, reading the same 2 MiB.

    scripts/gen_release_load_probe.py [DIR]"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "scripts"))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "release_load_probe")
from probe_files import write_programs  # noqa: E402

STREAMERS, BOX_ROWS, L2_BOXES = 126, 128, 128
# Loads a streamer: enough to outlast 192 ping-pong steps; the DRAM footprint within the 1 GiB budget.
LOADS = {"dram": 480, "l2": 2048, "alone": 0}


def pingpong(scope, kt, ctas=2, own=False):
    arrive = {"arrive": 0, "cta": "1 - cluster_rank"}
    if scope == "cta":
        arrive["scope"] = "cta"
    body = [arrive, {"wait": 0, "parity": "k % 2"}]
    if own:  # a box of its own rows (hits once warm), in flight when the release starts
        body = [{"arrive": 1, "bytes": "bytes_S"},
                {"load": "S", "coords": [0, f"128 * ((cta + k) % {L2_BOXES})"], "smem_offset": 0, "barrier": 1}] + body + [
                {"wait": 1, "parity": "k % 2"}]
    return {"count": ctas, "cluster_size": 2, "barriers": [1, 1] if own else [1], "threads": [
        {"name": "pingpong", "program": [{"loop": "k", "count": kt, "body": body}]}]}


def streamers(background, count=STREAMERS, stages=4, region=None, tensor="S", rows_per_box=BOX_ROWS):
    if background == "dram":
        rows = f"{rows_per_box} * (cta * {region} + t % {region})" if region else "128 * (cta * LOADS + t)"
    else:
        rows = f"128 * ((cta + t) % {L2_BOXES})"
    return {"count": count, "cluster_size": 2, "barriers": [1] * stages, "threads": [
        {"name": "stream", "program": [
            {"loop": "t", "count": "LOADS", "body": [
                {"if": f"t >= {stages}", "wait": f"t % {stages}", "phase": f"t / {stages} - 1"},
                {"arrive": f"t % {stages}", "bytes": f"bytes_{tensor}"},
                {"load": tensor, "coords": [0, rows], "smem_offset": f"(t % {stages}) * {rows_per_box * 128}",
                 "barrier": f"t % {stages}"}]},
            {"loop": "s", "count": stages, "body": [{"wait": "s", "phase": f"LOADS / {stages} - 1"}]}]}]}


def rows_tensor(rows, box_rows=BOX_ROWS):
    """A tensor of `rows` rows of 64 fp16 (128 B), loaded in boxes of `box_rows` rows, 128B-swizzled."""
    return {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, rows], "global_strides": [128],
            "box_dims": [64, box_rows], "element_strides": [1, 1], "swizzle": "128b"}


def named(name, prog):
    prog["name"] = f"release_load_probe/{name}"
    prog["comment"] = "scripts/gen_release_load_probe.py"
    return name, prog


REGION, TURN_LOADS = 512, 2048  # the third run's DRAM streamers: boxes of rows of their own, loads each


def turn_program(background, n, stages, kt):
    rows = (n + 2) * REGION * BOX_ROWS if background == "dram" else L2_BOXES * BOX_ROWS
    prog = {"params": {"LOADS": TURN_LOADS}, "tensors": {"S": rows_tensor(rows)},
            "ctas": [pingpong("cta", kt, 2, True)] +
                    ([] if background == "alone" else [streamers(background, n, stages, REGION)])}
    return named(f"cta_own_{background}_n{n}_s{stages}_k{kt}" if background != "alone" else f"cta_own_alone_k{kt}", prog)


def program(scope, background, kt, own=False):
    rows = STREAMERS * LOADS["dram"] * BOX_ROWS if background == "dram" else L2_BOXES * BOX_ROWS
    many = background == "many"
    prog = {"params": {"LOADS": LOADS.get(background, 0)}, "tensors": {"S": rows_tensor(rows)},
            "ctas": [pingpong(scope, kt, 2 + STREAMERS if many else 2, own)] +
                    ([] if background in ("alone", "many") else [streamers(background)])}
    return named(f"{scope}_{'own_' if own else ''}{background}_k{kt}", prog)


# The fourth run's streamer shapes: (rows a box, boxes in flight).
SHAPES = ((64, 8), (64, 16), (128, 6), (128, 12), (256, 4), (256, 6))


def own_rows_region(rows_per_box):
    """Boxes of rows of its own a DRAM streamer walks (8 MiB), and the tensors S (the ping-pong's
    boxes) and Q (every streamer's region, in boxes of `rows_per_box` rows)."""
    region = 8 * 1024 * 1024 // (rows_per_box * 128)
    return region, {"S": rows_tensor(L2_BOXES * BOX_ROWS), "Q": rows_tensor(STREAMERS * region * rows_per_box, rows_per_box)}


def shape_program(rows_per_box, stages, kt, whole=False, count=STREAMERS, alone_tag="r"):
    region, tensors = own_rows_region(rows_per_box)
    loads = TURN_LOADS * 128 // rows_per_box if stages else 0
    if whole:
        loads -= loads % stages  # every barrier's last phase the one its last wait asks for
    streams = [streamers("dram", count, stages, region, "Q", rows_per_box)] if stages else []
    prog = {"params": {"LOADS": loads}, "tensors": tensors, "ctas": [pingpong("cta", kt, 2, True)] + streams}
    whole_tag = "_whole" if whole else ""
    name = f"cta_own_dram_n{count}_r{rows_per_box}_s{stages}{whole_tag}_k{kt}" if stages else f"cta_own_alone_{alone_tag}_k{kt}"
    return named(name, prog)


# The sixth run's streamer counts (even: clusters of 2) and depths (128-row boxes: 64 and 128 KiB an SM).
SWEEP_COUNTS, SWEEP_STAGES = (48, 64, 80, 96, 112, 126), (4, 8)
# The seventh run's: 192 KiB an SM (12 boxes of 128 rows) on fewer SMs, the chip's totals of the sixth.
DEEP_COUNTS = (48, 64, 80)
# The eighth run's: 192 KiB an SM on 88-112 SMs, between the seventh's and the fifth's 126.
DEEPER_COUNTS = (88, 96, 104, 112)


# The ninth run's: four ping-pong pairs at once (the first clusters of the grid: the four 2-SM TPCs)
# beside streamers of 192 KiB each.
PAIRS_COUNTS = (0, 64, 80, 96, 120)


def pairs_program(count, kt, background="dram"):
    region, tensors = own_rows_region(128)
    if background == "l2":  # hits once warm: the L2's output busy (the third run's l2 streamers, S = 4)
        streams, loads, shape = [streamers("l2", count, 4)], TURN_LOADS, "s4"
    else:
        streams, loads, shape = [streamers("dram", count, 12, region, "Q", 128)] if count else [], TURN_LOADS - TURN_LOADS % 12, "r128_s12"
    prog = {"params": {"LOADS": loads}, "tensors": tensors, "ctas": [pingpong("cta", kt, 8, True)] + streams}
    return named(f"cta_pairs_{background}_n{count}_{shape}_k{kt}" if count else f"cta_pairs_alone_k{kt}", prog)


def main():
    progs = {}

    def add(named_program):
        name, prog = named_program
        progs[name] = prog

    for scope in ("cluster", "cta"):
        for kt in (64, 192):
            for background in ("alone", "dram", "l2"):
                for own in (False, True):
                    add(program(scope, background, kt, own))
            add(program(scope, "many", kt))
    for kt in (32, 96):
        add(turn_program("alone", 0, 0, kt))
        for background in ("dram", "l2"):
            for n in (32, 126):
                for stages in (1, 2, 4, 8):
                    add(turn_program(background, n, stages, kt))
        add(shape_program(128, 0, kt))
        for rows_per_box, stages in SHAPES:
            add(shape_program(rows_per_box, stages, kt))
            if (TURN_LOADS * 128 // rows_per_box) % stages:
                add(shape_program(rows_per_box, stages, kt, whole=True))
        add(shape_program(128, 0, kt, alone_tag="n"))
        for count in SWEEP_COUNTS:
            for stages in SWEEP_STAGES:
                add(shape_program(128, stages, kt, count=count))
        add(shape_program(128, 0, kt, alone_tag="d"))
        for count in DEEP_COUNTS + DEEPER_COUNTS:
            add(shape_program(128, 12, kt, whole=True, count=count))
        add(shape_program(128, 0, kt, alone_tag="e"))
        for count in PAIRS_COUNTS:
            add(pairs_program(count, kt))
        for count in (80, 120):
            add(pairs_program(count, kt, "l2"))
    write_programs(dest, progs, tool="gen_release_load_probe")


if __name__ == "__main__":
    main()
