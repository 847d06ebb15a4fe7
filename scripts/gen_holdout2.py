#!/usr/bin/env python3
"""Writes tests/golden/holdout2/<family>/<name>.json: a second held-out set (issue 29), generated
on 2026-11-26 after the model changes of issue 29 so far, from a seed of its own, to judge the
model where issue 29 says it fails. Nothing is fitted to it and no model choice is made on it:
it is reported, in each L2 state, beside the corpus's validation half and the first held-out set.

Families (parameters drawn by a seeded generator, so that no one picked the programs):
- shared: persistent GEMM feeds, CTAs walking output tiles round-robin and sharing A row and B
  column tiles through L2 (64 or 132 CTAs, 64- or 128-row tiles, 2-4 stages, K 512-2048).
- store: TMA store streams: a tile loaded, then stored elsewhere, each store waited on (read)
  at once or S-1 kept in flight; 1 to 132 CTAs, 4-32 KiB boxes.
- cluster: warp-specialised feeds in clusters of 2, 4 or 8 with B multicast to the cluster and
  cluster-scope empty arrivals, 32 to 128 CTAs.
- conflict: consumers reading unswizzled, 32B- or 64B-swizzled tiles (bank conflicts), 1 to 132 CTAs.
- prefetch: streams that prefetch the tile S ahead into L2 before loading.
- costed: producer/consumer pipelines whose read (or load) states its own cost ("cycles").
- random: random programs with their parameters drawn wider than the corpus's (up to 264 CTAs,
  24 iterations, 6 stages, 2-5 D boxes).

    scripts/gen_holdout2.py [OUT_DIR]      (default tests/golden/holdout2)
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_corpus as g  # noqa: E402

g.OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "golden", "holdout2")
r = random.Random(20261126)


def stage_wait(i, s="S"):
    return {"if": f"{i} >= {s}", "wait": f"({i}) % {s}", "phase": f"({i}) / {s} - 1"}


def drain(total, s="S"):
    return {"loop": "d", "count": s, "body": [
        {"if": f"{total} - 1 - d >= 0", "wait": f"({total} - 1 - d) % {s}", "phase": f"({total} - 1 - d) / {s}"}]}


def shared(n):
    for k in range(n):
        sms, rows, stages = r.choice([64, 132]), r.choice([64, 128]), r.choice([2, 3, 4])
        m, nn, kk = r.choice([2048, 4096]), r.choice([2048, 4096, 8192]), r.choice([512, 1024, 2048])
        tile = rows * 128
        it = "(i * KT + k)"
        tiles = "(TT - cta + SMS - 1) / SMS"
        body = [stage_wait(it), {"arrive": f"{it} % S", "bytes": "bytes_A + bytes_B"},
                {"load": "A", "coords": ["64 * k", f"{rows} * ((cta + SMS * i) / NT)"], "smem_offset": f"{it} % S * {2 * tile}",
                 "barrier": f"{it} % S"},
                {"load": "B", "coords": ["64 * k", f"{rows} * ((cta + SMS * i) % NT)"],
                 "smem_offset": f"{it} % S * {2 * tile} + {tile}", "barrier": f"{it} % S"}]
        g.save("shared", f"p{k:02d}_c{sms}_r{rows}_s{stages}_m{m}_n{nn}_k{kk}", {
            "params": {"M": m, "N": nn, "K": kk, "S": stages, "SMS": sms, "MT": f"M / {rows}", "NT": f"N / {rows}",
                       "TT": "MT * NT", "KT": "K / 64"},
            "tensors": {"A": g.tiled("float16", [kk, m], [64, rows]), "B": g.tiled("float16", [kk, nn], [64, rows])},
            "ctas": [{"count": "SMS", "barriers": [1] * stages, "program": [
                {"loop": "i", "count": tiles, "body": [{"loop": "k", "count": "KT", "body": body}]},
                drain(f"(({tiles}) * KT)")]}]})


def store(n):
    for k in range(n):
        ctas, rows, stages = r.choice([1, 8, 33, 132]), r.choice([32, 64, 128, 256]), r.choice([1, 2, 4])
        iters = r.choice([8, 16, 32])
        each = stages == 1 or r.random() < 0.3
        tile = rows * 128
        c = ["0", f"{rows} * (cta * N + i)"]
        body = [{"arrive": "i % S", "bytes": "bytes_T"},
                {"load": "T", "coords": c, "smem_offset": f"(i % S) * {tile}", "barrier": "i % S"},
                {"wait": "i % S", "phase": "i / S"},
                {"store": "U", "coords": c, "smem_offset": f"(i % S) * {tile}"},
                {"wait_stores": 0 if each else "S - 1", "read_only": True}]
        g.save("store", f"t{k:02d}_c{ctas}_r{rows}_s{stages}_n{iters}{'_each' if each else ''}", {
            "params": {"N": iters, "S": stages},
            "tensors": {"T": g.tiled("float16", [64, rows * ctas * iters], [64, rows]),
                        "U": g.tiled("float16", [64, rows * ctas * iters], [64, rows])},
            "ctas": [{"count": ctas, "barriers": [1] * stages, "program": [
                {"loop": "i", "count": "N", "body": body}, {"wait_stores": 0}]}]})


def cluster(n):
    for k in range(n):
        cl = r.choice([2, 4, 8])
        ctas = r.choice([32, 64, 128])
        rows, stages, kt = r.choice([64, 128]), r.choice([2, 3, 4]), r.choice([8, 12, 16])
        g.save("cluster", f"m{k:02d}_c{ctas}_cl{cl}_r{rows}_s{stages}_k{kt}",
               g.pipeline_ws(ctas, rows, rows, stages, kt, 1, 64, r.choice([0, 2, 4]), cluster=cl, multicast_b=True))


def conflict(n):
    for k in range(n):
        swz = r.choice(["none", "none", "32b", "64b"])
        cols = {"none": 64, "32b": 16, "64b": 32}[swz]
        ctas, stages, kt, rows = r.choice([1, 16, 132]), r.choice([2, 4]), r.choice([8, 16]), r.choice([64, 128])
        readers = r.choice([1, 2, 4])
        tile = rows * cols * 2
        full, empty = [1] * stages, [readers] * stages
        g.save("conflict", f"x{k:02d}_c{ctas}_r{rows}_s{stages}_w{readers}_{swz}", {
            "params": {"S": stages, "KT": kt},
            "tensors": {"A": g.tiled("float16", [cols, rows * ctas * kt], [cols, rows], swz)},
            "ctas": [{"count": ctas, "barriers": full + empty, "threads": [
                {"name": "producer", "program": [{"loop": "k", "count": "KT", "body": [
                    {"if": "k >= S", "wait": "S + k % S", "phase": "k / S - 1"},
                    {"arrive": "k % S", "bytes": "bytes_A"},
                    {"load": "A", "coords": [0, f"{rows} * (cta * KT + k)"], "smem_offset": f"(k % S) * {tile}",
                     "barrier": "k % S"}]}]},
                {"name": "reader", "count": readers, "program": [{"loop": "k", "count": "KT", "body": [
                    {"wait": "k % S", "phase": "k / S"},
                    {"read": {"rows": rows, "cols": cols, "dtype": "float16", "swizzle": swz, "smem_offset": f"(k % S) * {tile}"}},
                    {"arrive": "S + k % S"}]}]}]}]})


def prefetch_stream(ctas, rows, params, ahead="S", after=False):
    """A stream of `rows`-row tiles through an S-stage ring, each iteration prefetching the tile
    `ahead` loads on into L2, before the stage's load or (after) behind it."""
    tile = rows * 128
    pf = {"if": f"t + {ahead} < N", "prefetch": "T", "coords": ["0", f"{rows} * (cta * N + t + {ahead})"]}
    body = [stage_wait("t")] + ([] if after else [pf]) + [
        {"arrive": "t % S", "bytes": "bytes_T"},
        {"load": "T", "coords": ["0", f"{rows} * (cta * N + t)"], "smem_offset": f"(t % S) * {tile}", "barrier": "t % S"}]
    if after:
        body.append(pf)
    return {"params": params,
            "tensors": {"T": g.tiled("float16", [64, rows * ctas * params["N"]], [64, rows])},
            "ctas": [{"count": ctas, "barriers": [1] * params["S"], "program": [
                {"loop": "t", "count": "N", "body": body}, drain("N")]}]}


def prefetch(n):
    for k in range(n):
        ctas, rows, stages, iters = r.choice([1, 16, 132]), r.choice([64, 128]), r.choice([2, 4]), r.choice([16, 32])
        g.save("prefetch", f"f{k:02d}_c{ctas}_r{rows}_s{stages}_n{iters}",
               prefetch_stream(ctas, rows, {"N": iters, "S": stages}))


def costed(n):
    for k in range(n):
        ctas, stages, kt = r.choice([1, 8, 132]), r.choice([2, 3, 4]), r.choice([16, 32])
        read_cycles = r.choice([0, 300, 800, 1500, 3000])
        load_cycles = r.choice([0, 0, 400, 1200])
        tile = 128 * 128
        load = {"load": "T", "coords": [0, "128 * (cta * KT + t)"], "smem_offset": f"(t % S) * {tile}", "barrier": "t % S"}
        if load_cycles:
            load["cycles"] = load_cycles
        read = {"read": {"rows": 128, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": f"(t % S) * {tile}"}}
        if read_cycles:
            read["cycles"] = read_cycles
        g.save("costed", f"u{k:02d}_c{ctas}_s{stages}_k{kt}_r{read_cycles}_l{load_cycles}", {
            "params": {"KT": kt, "S": stages},
            "tensors": {"T": g.tiled("float16", [64, 128 * ctas * kt], [64, 128])},
            "ctas": [{"count": ctas, "barriers": [1] * (2 * stages), "threads": [
                {"name": "producer", "program": [{"loop": "t", "count": "KT", "body": [
                    {"if": "t >= S", "wait": "S + t % S", "phase": "t / S - 1"},
                    {"arrive": "t % S", "bytes": "bytes_T"}, load]}]},
                {"name": "consumer", "program": [{"loop": "t", "count": "KT", "body": [
                    {"wait": "t % S", "phase": "t / S"}, read, {"arrive": "S + t % S"}]}]}]}]})


def random_wide(n):
    made = 0
    while made < n:
        dtype = r.choice(["float16", "float16", "bfloat16", "float32", "uint8"])
        eb = {"float16": 2, "bfloat16": 2, "float32": 4, "uint8": 1}[dtype]
        swz = r.choice(["none", "32b", "64b", "128b", "128b"])
        span = {"none": 256, "32b": 32, "64b": 64, "128b": 128}[swz]
        inner = max(16 // eb, min(r.choice([16, 32, 64, 128, 256]) // eb, span // eb))
        rank = r.choice([2, 2, 3, 4, 5])
        rows = r.choice([8, 16, 32, 64, 128, 256])
        extra = [r.choice([1, 2]) for _ in range(rank - 2)]
        box = [inner, rows] + extra
        ctas = r.choice([1, 3, 8, 32, 66, 100, 132, 200, 264])
        iters, stages = r.randint(2, 24), r.randint(1, 6)
        dims = [inner * r.choice([1, 2, 4]), rows * iters * ctas] + [e * r.choice([1, 2]) for e in extra]
        line = inner * eb if swz == "none" else span
        tile = line * rows
        for e in extra:
            tile *= e
        slot = (tile + 1023) // 1024 * 1024
        if slot * stages > 200 * 1024 or tile > 64 * 1024:
            continue
        c = ["0", f"{rows} * (cta * N + i)"] + ["0"] * (rank - 2)
        pipelined = r.random() < 0.5
        body = [stage_wait("i")] if pipelined else []
        body += [{"arrive": "i % S", "bytes": "bytes_T"},
                 {"load": "T", "coords": c, "smem_offset": "(i % S) * SLOT", "barrier": "i % S"}]
        if not pipelined:
            body.append({"wait": "i % S", "phase": "i / S"})
            if eb == 2 and inner % 16 == 0 and rows % 16 == 0 and rank == 2 and r.random() < 0.6:
                rd = {"read": {"rows": rows, "cols": inner, "dtype": dtype, "swizzle": swz, "smem_offset": "(i % S) * SLOT"}}
                if r.random() < 0.3:
                    rd["cycles"] = r.choice([200, 1000])
                body.append(rd)
            if r.random() < 0.3:
                body.append({"delay": r.choice([50, 300, 1500])})
            if r.random() < 0.3:
                body += [{"store": "U", "coords": c, "smem_offset": "(i % S) * SLOT"},
                         {"wait_stores": 0, "read_only": True}]
        prog = [{"loop": "i", "count": "N", "body": body}]
        if pipelined:
            prog.append(drain("N"))
        prog.append({"wait_stores": 0})
        t = g.tiled(dtype, dims, box, swz)
        g.save("random", f"w{made:03d}", {"params": {"N": iters, "S": stages, "SLOT": slot},
                                           "tensors": {"T": t, "U": t},
                                           "ctas": [{"count": ctas, "barriers": [1] * stages, "program": prog}]})
        made += 1


if __name__ == "__main__":
    shared(14)
    store(14)
    cluster(12)
    conflict(14)
    prefetch(8)
    costed(14)
    random_wide(44)
    print(f"gen_holdout2: {len(g.written)} scenarios in {g.OUT}")
