#!/usr/bin/env python3
"""Writes the scenario corpus (tests/golden/scenarios/<family>/<name>.json) and its split.

Families: micro (per-instruction microbenchmarks), gemm_inline, gemm_ws (warp-specialised
producer/consumer), multicast (clusters of 2 and 4), epilogue (stores and reductions with bulk
groups in flight), im2col (convolution feeds), l2reuse, waves (grids up to 264 CTAs) and random
(a seeded generator of valid programs). Deterministic: the same seed writes the same files.

The split (split.txt) is fixed by a seeded rule: a scenario is in the calibration half when the
first byte of SHA-256("tmasim-split-2026:" + its path) is even, else in the validation half.

    scripts/gen_corpus.py [OUT_DIR]      (default tests/golden/scenarios)
"""
import hashlib
import json
import os
import random
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "golden", "scenarios")
SEED = 20261122
rng = random.Random(SEED)
written = []


def tiled(dtype, dims, box, swizzle="128b", ebytes=None, estr=None, l2="none"):
    eb = ebytes or {"float16": 2, "bfloat16": 2, "float32": 4, "uint8": 1, "float64": 8}[dtype]
    strides, acc = [], dims[0] * eb
    for d in dims[1:]:
        acc = (acc + 15) // 16 * 16
        strides.append(acc)
        acc *= d
    m = {"mode": "tiled", "dtype": dtype, "rank": len(dims), "global_dims": dims, "global_strides": strides,
         "box_dims": box, "element_strides": estr or [1] * len(dims), "swizzle": swizzle}
    if l2 != "none":
        m["l2_promotion"] = l2
    return m


def save(family, name, scen):
    if f"{family}/{name}.json" in written:  # two parameter sets that end up the same scenario
        return
    scen["name"] = f"{family}/{name}"
    d = os.path.join(OUT, family)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(scen, f, indent=1)
        f.write("\n")
    written.append(f"{family}/{name}.json")


def pipeline_single(ctas, rows, stages, kt, read=True, swz="128b"):
    """One warp per CTA: fill the stages, then wait / read / refill (the examples' GEMM feed)."""
    cols = 64
    box = [cols, rows]
    tile = rows * cols * 2
    stage = 2 * tile
    body = [{"wait": "k % S", "phase": "k / S"}]
    if read:
        body += [{"read": {"rows": rows, "cols": cols, "dtype": "float16", "swizzle": swz, "smem_offset": "(k % S) * STAGE"}},
                 {"read": {"rows": rows, "cols": cols, "dtype": "float16", "swizzle": swz, "smem_offset": "(k % S) * STAGE + TILE"}}]
    body += [{"if": "k + S < KT", "arrive": "k % S", "bytes": "bytes_A + bytes_B"},
             {"if": "k + S < KT", "load": "A", "coords": ["64 * (k + S)", f"{rows} * cta"], "smem_offset": "(k % S) * STAGE", "barrier": "k % S"},
             {"if": "k + S < KT", "load": "B", "coords": ["64 * (k + S)", f"{rows} * cta"], "smem_offset": "(k % S) * STAGE + TILE", "barrier": "k % S"}]
    return {"params": {"S": stages, "KT": kt, "TILE": tile, "STAGE": stage},
            "tensors": {"A": tiled("float16", [64 * kt, rows * ctas], box, swz), "B": tiled("float16", [64 * kt, rows * ctas], box, swz)},
            "ctas": [{"count": ctas, "program": [
                {"loop": "s", "count": min(stages, kt), "body": [
                    {"arrive": "s", "bytes": "bytes_A + bytes_B"},
                    {"load": "A", "coords": ["64 * s", f"{rows} * cta"], "smem_offset": "s * STAGE", "barrier": "s"},
                    {"load": "B", "coords": ["64 * s", f"{rows} * cta"], "smem_offset": "s * STAGE + TILE", "barrier": "s"}]},
                {"loop": "k", "count": "KT", "body": body}]}]}


def pipeline_ws(ctas, rows_a, rows_b, stages, kt, consumers, mma_n, mmas, cluster=1, multicast_b=False):
    """A producer warp and `consumers` consumer warps on full/empty barriers."""
    cols = 64
    ta, tb = rows_a * cols * 2, rows_b * cols * 2
    stage = (ta + tb + 1023) // 1024 * 1024
    full = [1] * stages
    empty = ["E"] * stages
    prod = [{"loop": "k", "count": "KT", "body": [
        {"if": "k >= S", "wait": "S + k % S", "parity": "(k / S - 1) % 2"},
        {"arrive": "k % S", "bytes": "bytes_A + bytes_B"},
        {"load": "A", "coords": ["64 * k", f"{rows_a} * cta"], "smem_offset": "(k % S) * STAGE", "barrier": "k % S"}]}]
    if multicast_b:
        prod[0]["body"].append({"if": "cluster_rank == 0", "load": "B", "coords": ["64 * k", f"{rows_b} * (cta / C)"],
                                "smem_offset": "(k % S) * STAGE + TA", "barrier": "k % S", "cta_mask": "(1 << C) - 1"})
    else:
        prod[0]["body"].append({"load": "B", "coords": ["64 * k", f"{rows_b} * cta"], "smem_offset": "(k % S) * STAGE + TA", "barrier": "k % S"})
    sub = rows_a // consumers
    cons_body = [{"wait": "k % S", "parity": "(k / S) % 2"}]
    if sub >= 16:
        cons_body.append({"read": {"rows": sub, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": f"(k % S) * STAGE + w * {sub * 128}"}})
    cons_body.append({"read": {"rows": rows_b, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": "(k % S) * STAGE + TA"}})
    if mmas:
        cons_body.append({"compute": {"mma": f"m64n{mma_n}k16", "count": mmas}})
    if cluster > 1:
        cons_body.append({"loop": "r", "count": "C", "body": [{"arrive": "S + k % S", "cta": "r"}]})
    else:
        cons_body.append({"arrive": "S + k % S"})
    group = {"count": ctas, "barriers": full + empty, "threads": [
        {"name": "producer", "program": prod},
        {"name": "consumer", "count": consumers, "var": "w", "program": [{"loop": "k", "count": "KT", "body": cons_body}]}]}
    if cluster > 1:
        group["cluster_size"] = "C"
    params = {"S": stages, "KT": kt, "TA": ta, "STAGE": stage, "C": cluster, "E": consumers * cluster}
    nb = (ctas // cluster if multicast_b else ctas)
    return {"params": params,
            "tensors": {"A": tiled("float16", [64 * kt, rows_a * ctas], [64, rows_a]),
                        "B": tiled("float16", [64 * kt, rows_b * nb], [64, rows_b])},
            "ctas": [group]}


# ---------------------------------------------------------------------------------------------
# micro: per-instruction microbenchmarks
def micro():
    boxes = {1: ([4096], [256]), 2: ([256, 256], [64, 32]), 3: ([64, 32, 32], [64, 8, 4]), 4: ([64, 16, 16, 8], [64, 4, 4, 2]),
             5: ([64, 8, 8, 8, 8], [64, 4, 2, 2, 2])}
    for rank, (dims, box) in boxes.items():
        for n in (1, 4, 16):
            for swz in ("none", "128b"):
                if rank == 1 and swz != "none":
                    continue
                t = tiled("float16", dims, box, swz)
                step = [0] * rank
                step[-1] = box[-1] if rank > 1 else 256
                slot = 8192
                save("micro", f"load_burst_r{rank}_{swz}_n{n}", {
                    "params": {"N": n, "SLOT": slot},
                    "tensors": {"T": t},
                    "ctas": [{"count": 1, "barriers": [1], "program": [
                        {"arrive": 0, "bytes": "N * bytes_T"},
                        {"loop": "k", "count": "N", "body": [
                            {"load": "T", "coords": [f"{s} * (k % {max(1, dims[-1] // max(1, box[-1]))})" if s else 0 for s in step],
                             "smem_offset": "k * SLOT", "barrier": 0}]},
                        {"wait": 0, "phase": 0}]}]})
    # im2col issue: N loads of 128 pixels x 64 channels (NHWC fp16, 3x3 taps), rank 3 to 5
    for rank in (3, 4, 5):
        for n in (1, 4, 16):
            sp = rank - 2
            dims = [64] + [8] * sp + [4]
            strides, acc = [], 128
            for d in dims[1:]:
                strides.append(acc)
                acc *= d
            m = {"mode": "im2col", "dtype": "float16", "rank": rank, "global_dims": dims, "global_strides": strides,
                 "pixel_box_lower_corner": [-1] * sp, "pixel_box_upper_corner": [-1] * sp, "channels_per_pixel": 64,
                 "pixels_per_column": 128, "element_strides": [1] * rank, "swizzle": "128b"}
            save("micro", f"im2col_burst_r{rank}_n{n}", {
                "params": {"N": n}, "tensors": {"X": m},
                "ctas": [{"count": 1, "barriers": [1], "program": [
                    {"arrive": 0, "bytes": "N * bytes_X"},
                    {"loop": "k", "count": "N", "body": [
                        {"load": "X", "coords": [0] + [-1] * sp + ["k % 4"], "im2col_offsets": ["k % 3"] + [1] * (sp - 1),
                         "smem_offset": "k * 16384 % 196608", "barrier": 0}]},
                    {"wait": 0, "phase": 0}]}]})
    # arrive.expect_tx issue: N arrivals with transaction bytes on N barriers, then the loads
    for n in (4, 16):
        save("micro", f"expect_tx_then_loads_n{n}", {
            "params": {"N": n}, "tensors": {"T": tiled("float16", [64, 2048], [64, 16])},
            "ctas": [{"count": 1, "barriers": [1] * 16, "program": [
                {"loop": "k", "count": "N", "body": [{"arrive": "k", "bytes": "bytes_T"}]},
                {"loop": "k", "count": "N", "body": [{"load": "T", "coords": [0, "16 * k"], "smem_offset": "k * 2048", "barrier": "k"}]},
                {"loop": "k", "count": "N", "body": [{"wait": "k", "phase": 0}]}]}]})
    for n in (1, 4, 16):
        for op in ("store", "reduce"):
            t = tiled("float32", [32, 4096], [32, 64])
            steps = [{"arrive": 0, "bytes": "bytes_T"}, {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
                     {"wait": 0, "phase": 0},
                     {"loop": "k", "count": "N", "body": [dict({op: "T", "coords": [0, "64 * (k + 1)"], "smem_offset": 0},
                                                              **({"reduce_op": "add"} if op == "reduce" else {}))]},
                     {"wait_stores": 0}]
            save("micro", f"{op}_burst_n{n}", {"params": {"N": n}, "tensors": {"T": t},
                                                "ctas": [{"count": 1, "barriers": [1], "program": steps}]})
    for n in (4, 8):
        t = tiled("float16", [64, 8192], [64, 128])
        save("micro", f"prefetch_then_load_n{n}", {"params": {"N": n}, "tensors": {"T": t}, "ctas": [{"count": 1, "barriers": [1], "program": [
            {"loop": "k", "count": "N", "body": [{"prefetch": "T", "coords": [0, "128 * k"]}]},
            {"delay": 4000},
            {"arrive": 0, "bytes": "N * bytes_T"},
            {"loop": "k", "count": "N", "body": [{"load": "T", "coords": [0, "128 * k"], "smem_offset": "k * 16384", "barrier": 0}]},
            {"wait": 0, "phase": 0}]}]})
    for n in (16, 64):
        save("micro", f"arrive_wait_n{n}", {"params": {"N": n}, "tensors": {"T": tiled("float16", [64, 64], [64, 16])},
                                            "ctas": [{"count": 1, "barriers": [1], "program": [
                                                {"loop": "k", "count": "N", "body": [{"arrive": 0}, {"wait": 0, "phase": "k"}]}]}]})
    for rows in (16, 64, 256):
        save("micro", f"load_wait_chain_rows{rows}", {"tensors": {"T": tiled("float16", [64, 256 * 16], [64, rows])},
                                                      "ctas": [{"count": 1, "barriers": [1], "program": [
                                                          {"loop": "k", "count": 16, "body": [
                                                              {"arrive": 0, "bytes": "bytes_T"},
                                                              {"load": "T", "coords": [0, f"{rows} * k"], "smem_offset": 0, "barrier": 0},
                                                              {"wait": 0, "phase": "k"}]}]}]})
    tens = {f"T{i}": tiled("float16", [64, 512], [64, 64]) for i in range(4)}
    save("micro", "first_use_of_maps", {"tensors": tens, "ctas": [{"count": 1, "barriers": [1], "program": [
        step for i in range(4) for step in ({"arrive": 0, "bytes": f"bytes_T{i}"},
                                            {"load": f"T{i}", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
                                            {"wait": 0, "phase": i})]}]})
    for reps in (1, 4, 16):
        for swz in ("none", "128b"):
            save("micro", f"ldmatrix_tile_{swz}_x{reps}", {"params": {"R": reps}, "tensors": {"T": tiled("float16", [64, 128], [64, 128], swz)},
                                                          "ctas": [{"count": 1, "barriers": [1], "program": [
                                                              {"arrive": 0, "bytes": "bytes_T"},
                                                              {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
                                                              {"wait": 0, "phase": 0},
                                                              {"loop": "r", "count": "R", "body": [
                                                                  {"read": {"rows": 128, "cols": 64, "swizzle": swz, "smem_offset": 0}}]}]}]})
    for cyc in (1000, 10000):
        save("micro", f"delay_{cyc}", {"tensors": {"T": tiled("float16", [64, 64], [64, 16])},
                                       "ctas": [{"count": 1, "program": [{"delay": cyc}]}]})
    for mc in (2, 4):
        t = tiled("float16", [64, 1024], [64, 128])
        save("micro", f"multicast_burst_c{mc}", {"params": {"C": mc}, "tensors": {"T": t},
                                                "ctas": [{"count": mc, "cluster_size": "C", "barriers": [1], "program": [
                                                    {"arrive": 0, "bytes": "4 * bytes_T"},
                                                    {"if": "cluster_rank == 0", "loop": "k", "count": 4, "body": [
                                                        {"load": "T", "coords": [0, "128 * k"], "smem_offset": "k * 16384", "barrier": 0, "cta_mask": "(1 << C) - 1"}]},
                                                    {"wait": 0, "phase": 0}]}]})


def gemm_inline():
    for ctas in (1, 8, 32, 132):
        for rows in (64, 128, 256):
            for stages in (2, 3, 4, 6):
                if 2 * rows * 128 * stages > 200 * 1024:
                    continue
                kt = 16 if ctas <= 32 else 8
                save("gemm_inline", f"c{ctas}_r{rows}_s{stages}", pipeline_single(ctas, rows, stages, kt, read=rows <= 128 or stages <= 3))


def gemm_ws():
    for ctas in (1, 16, 132):
        for rows_a, rows_b in ((64, 64), (128, 128), (128, 256), (256, 128)):
            for stages in (2, 4, 6):
                if (rows_a + rows_b) * 128 * stages > 200 * 1024:
                    continue
                for consumers in (1, 2):
                    mma_n = min(rows_b, 256)
                    mmas = rows_a // 64 * 4 // consumers
                    kt = 12 if ctas == 132 else 16
                    save("gemm_ws", f"c{ctas}_a{rows_a}_b{rows_b}_s{stages}_w{consumers}",
                         pipeline_ws(ctas, rows_a, rows_b, stages, kt, consumers, mma_n, mmas))


def multicast():
    for cluster in (2, 4):
        for ctas in (cluster, 16, 64, 128):
            for stages in (2, 4):
                for rows in (64, 128):
                    save("multicast", f"c{ctas}_cl{cluster}_s{stages}_r{rows}",
                         pipeline_ws(ctas, rows, rows, stages, 12, 1, rows, 2, cluster=cluster, multicast_b=True))


def epilogue():
    for ctas in (1, 16, 132):
        for tiles in (4, 16):
            for inflight in (0, 1, 3):
                for op in ("store", "reduce"):
                    red = {"reduce_op": "add"} if op == "reduce" else {}
                    dt = "float32" if op == "reduce" else "float16"
                    box = [32, 128] if dt == "float32" else [64, 128]
                    inner = box[0]
                    save("epilogue", f"{op}_c{ctas}_t{tiles}_f{inflight}", {
                        "params": {"TILES": tiles, "F": inflight},
                        "tensors": {"X": tiled(dt, [inner, 128 * tiles * ctas], box), "Y": tiled(dt, [inner, 128 * tiles * ctas], box)},
                        "ctas": [{"count": ctas, "barriers": [1, 1, 1, 1], "program": [
                            {"loop": "t", "count": "TILES", "body": [
                                {"if": "t >= 4", "wait_stores": "F", "read_only": True},
                                {"arrive": "t % 4", "bytes": "bytes_X"},
                                {"load": "X", "coords": [0, "128 * (cta * TILES + t)"], "smem_offset": "(t % 4) * 16384", "barrier": "t % 4"},
                                {"wait": "t % 4", "phase": "t / 4"},
                                dict({op: "Y", "coords": [0, "128 * (cta * TILES + t)"], "smem_offset": "(t % 4) * 16384"}, **red)]},
                            {"wait_stores": 0}]}]})


def im2col():
    for c_in in (64, 128):
        for hw in (16, 32):
            for kind in ("3x3", "1x1", "3x3s2"):
                for ctas in (4, 32):
                    stride = 2 if kind == "3x3s2" else 1
                    taps = 1 if kind == "1x1" else 9
                    pad = 0 if kind == "1x1" else 1
                    n = 4
                    ppc = 128
                    out_hw = (hw + 2 * pad - (1 if kind == "1x1" else 3)) // stride + 1
                    pixels = n * out_hw * out_hw
                    if ctas * ppc > pixels:
                        ctas2 = max(1, pixels // ppc)
                    else:
                        ctas2 = ctas
                    cols = 64
                    m = {"mode": "im2col", "dtype": "float16", "rank": 4, "global_dims": [c_in, hw, hw, n],
                         "global_strides": [c_in * 2, c_in * 2 * hw, c_in * 2 * hw * hw],
                         "pixel_box_lower_corner": [-pad, -pad],
                         "pixel_box_upper_corner": [pad - (0 if kind == "1x1" else 2), pad - (0 if kind == "1x1" else 2)],
                         "channels_per_pixel": cols, "pixels_per_column": ppc, "element_strides": [1, stride, stride, 1], "swizzle": "128b"}
                    # pixel p of the output: (n, y, x) -> start coordinates (top-left of its window)
                    def coord(expr_p):
                        return [f"cb * 64",
                                f"-{pad} + (({expr_p}) % {out_hw}) * {stride}",
                                f"-{pad} + ((({expr_p}) / {out_hw}) % {out_hw}) * {stride}",
                                f"({expr_p}) / {out_hw * out_hw}"]
                    p = f"cta * {ppc}"
                    cblocks = c_in // 64
                    steps_total = taps * cblocks
                    save("im2col", f"c{c_in}_hw{hw}_{kind}_ctas{ctas2}", {
                        "params": {"T": steps_total, "CB": cblocks},
                        "tensors": {"X": m},
                        "ctas": [{"count": ctas2, "barriers": [1, 1], "program": [
                            {"loop": "i", "count": "T", "body": [
                                {"arrive": "i % 2", "bytes": "bytes_X"},
                                {"load": "X", "coords": [c.replace("cb", "(i % CB)") for c in coord(p)],
                                 "im2col_offsets": ["(i / CB) % 3" if taps == 9 else 0, "(i / CB) / 3" if taps == 9 else 0],
                                 "smem_offset": "(i % 2) * 16384", "barrier": "i % 2"},
                                {"wait": "i % 2", "phase": "i / 2"},
                                {"read": {"rows": ppc, "cols": 64, "swizzle": "128b", "smem_offset": "(i % 2) * 16384"}}]}]}]})


def l2reuse():
    for ctas in (8, 32, 132):
        for share in ("all", "pairs", "none"):
            for rows in (64, 128):
                owner = {"all": "0", "pairs": "cta / 2", "none": "cta"}[share]
                save("l2reuse", f"{share}_c{ctas}_r{rows}", {
                    "params": {"KT": 8},
                    "tensors": {"A": tiled("float16", [512, rows * ctas], [64, rows])},
                    "ctas": [{"count": ctas, "barriers": [1, 1], "program": [
                        {"loop": "k", "count": "KT", "body": [
                            {"arrive": "k % 2", "bytes": "bytes_A"},
                            {"load": "A", "coords": ["64 * k", f"{rows} * ({owner})"], "smem_offset": f"(k % 2) * {rows * 128}", "barrier": "k % 2"},
                            {"wait": "k % 2", "phase": "k / 2"}]}]}]})


def waves():
    # 12 stages of 16 KiB hold 192 KiB of shared memory: one CTA per SM, so grids past 132
    # CTAs run in waves (2 and 4 stages let several CTAs share an SM).
    for ctas in (1, 2, 16, 66, 132, 133, 198, 264):
        for stages in (2, 4) + ((12,) if ctas >= 66 else ()):
            tiles = 16 if stages > 8 else 8
            group = {"count": ctas}
            if stages > 8:
                group["barriers"] = [1] * stages
            save("waves", f"stream_c{ctas}_s{stages}", {
                "params": {"S": stages, "N": tiles},
                "tensors": {"T": tiled("float16", [64, 128 * tiles * ctas], [64, 128])},
                "ctas": [dict(group, program=[
                    {"loop": "t", "count": "N", "body": [
                        {"if": "t >= S", "wait": "t % S", "phase": "t / S - 1"},
                        {"arrive": "t % S", "bytes": "bytes_T"},
                        {"load": "T", "coords": [0, "128 * (cta * N + t)"], "smem_offset": "(t % S) * 16384", "barrier": "t % S"}]},
                    {"loop": "t", "count": "S", "body": [{"wait": "(N - S + t) % S", "phase": "(N - S + t) / S"}]}])]})


def random_programs(count, seed=SEED + 1, family="random"):
    r = random.Random(seed)
    made = 0
    while made < count:
        dtype = r.choice(["float16", "float16", "float32", "uint8"])
        eb = {"float16": 2, "float32": 4, "uint8": 1}[dtype]
        swz = r.choice(["none", "32b", "64b", "128b"])
        span = {"none": 256, "32b": 32, "64b": 64, "128b": 128}[swz]
        inner = r.choice([16, 32, 64, 128, 256]) // eb
        inner = max(16 // eb, min(inner, span // eb))
        rank = r.choice([2, 2, 3])
        rows = r.choice([16, 32, 64, 128])
        box = [inner, rows] + ([r.choice([1, 2])] if rank == 3 else [])
        ctas = r.choice([1, 2, 4, 8, 16, 33, 64, 132])
        iters = r.randint(2, 12)
        stages = r.randint(1, 4)
        dims = [inner * r.choice([1, 2, 4]), rows * iters * ctas] + ([2] if rank == 3 else [])
        t = tiled(dtype, dims, box, swz)
        tile = ((inner * eb if swz == "none" else span) * rows * box[2 if rank == 3 else 1] if rank == 3 else (inner * eb if swz == "none" else span) * rows)
        slot = (tile + 1023) // 1024 * 1024
        if slot * stages > 200 * 1024:
            continue
        can_read = dtype == "float16" and inner % 16 == 0 and rows % 16 == 0 and rank == 2
        body = [{"if": "i >= S", "wait": "i % S", "phase": "i / S - 1"}] if r.random() < 0.5 else []
        c = ["0", f"{rows} * (cta * N + i)"] + (["0"] if rank == 3 else [])
        pipelined = bool(body)
        body += [{"arrive": "i % S", "bytes": "bytes_T"}, {"load": "T", "coords": c, "smem_offset": "(i % S) * SLOT", "barrier": "i % S"}]
        if not pipelined:
            body.append({"wait": "i % S", "phase": "i / S"})
            if can_read and r.random() < 0.6:
                body.append({"read": {"rows": rows, "cols": inner, "swizzle": swz, "smem_offset": "(i % S) * SLOT"}})
            if r.random() < 0.3:
                body.append({"delay": r.choice([100, 500, 2000])})
            if r.random() < 0.3:
                body.append({"store": "U", "coords": c, "smem_offset": "(i % S) * SLOT"})
                body.append({"wait_stores": 0, "read_only": True})
        if r.random() < 0.2:
            body.insert(0, {"prefetch": "T", "coords": ["0", f"{rows} * (cta * N + (i + 1) % N)"] + (["0"] if rank == 3 else [])})
        prog = [{"loop": "i", "count": "N", "body": body}]
        if pipelined:
            prog.append({"loop": "i", "count": "S", "body": [{"if": "N - S + i >= 0", "wait": "(N - S + i) % S", "phase": "(N - S + i) / S"}]})
        prog.append({"wait_stores": 0})
        save(family, f"r{made:03d}", {"params": {"N": iters, "S": stages, "SLOT": slot},
                                        "tensors": {"T": t, "U": t},
                                        "ctas": [{"count": ctas, "barriers": [1, 1, 1, 1], "program": prog}]})
        made += 1


if __name__ == "__main__":
    micro()
    gemm_inline()
    gemm_ws()
    multicast()
    epilogue()
    im2col()
    l2reuse()
    waves()
    random_programs(110)

    with open(os.path.join(OUT, "split.txt"), "w") as f:
        for p in sorted(written):
            half = "calibration" if hashlib.sha256(("tmasim-split-2026:" + p).encode()).digest()[0] % 2 == 0 else "validation"
            f.write(f"{half} {p}\n")
    print(f"gen_corpus: {len(written)} scenarios in {OUT}")
