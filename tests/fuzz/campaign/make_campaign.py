#!/usr/bin/env python3
"""Writes the hostile-input campaign into DIR (default: here): DIR/inputs/ and DIR/cases.tsv
(a name, then the tmasim arguments, with {in} for the inputs folder and {out} for a scratch
folder). run_campaign.sh runs it.

    make_campaign.py [DIR]

Classes, for every reader: mistyped fields (string, null, array, object, float where an
integer belongs), huge and negative numbers, 2^63 and past it, missing fields, unknown keys,
truncated JSON, deep nesting, binary garbage, empty files, corrupt gzip; and for scenarios
division by zero, absurd loop counts and CTA counts, zero and infinite clocks and bandwidths,
bad --set values and unwritable outputs. Deterministic."""
import copy
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..", "..")
DEST = sys.argv[1] if len(sys.argv) > 1 else HERE
IN = os.path.join(DEST, "inputs")
cases = []


def write(name, text, binary=False):
    path = os.path.join(IN, name)
    with open(path, "wb" if binary else "w") as f:
        f.write(text)
    return "{in}/" + name


def case(name, *args):
    cases.append(name + "\t" + " ".join(args))


def mutations(obj, path=()):
    """Every field replaced by each bad value, and deleted."""
    bad = ["\"x\"", "null", "[]", "{}", "1.5", "-1", "0", "9223372036854775807", "18446744073709551616", "1e308",
           "-9223372036854775808"]
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from mutations(v, path + (k,))
    elif isinstance(obj, list) and obj:
        yield from mutations(obj[0], path + (0,))
    if path:
        for b in bad:
            yield path, b
        yield path, None


def apply(base, path, value):
    o = copy.deepcopy(base)
    cur = o
    for p in path[:-1]:
        cur = cur[p]
    if value is None:
        if isinstance(cur, dict):
            del cur[path[-1]]
        else:
            cur.pop(path[-1])
    else:
        cur[path[-1]] = json.loads(value)
    return o


def structural(prefix, text, args_for):
    for n in (1, len(text) // 3, len(text) - 2):
        case(f"{prefix}_truncated_{n}", *args_for(write(f"{prefix}_trunc{n}.json", text[:n])))
    case(f"{prefix}_empty", *args_for(write(f"{prefix}_empty.json", "")))
    case(f"{prefix}_deep_arrays", *args_for(write(f"{prefix}_deep.json", "[" * 100000 + "]" * 100000)))
    case(f"{prefix}_deep_objects", *args_for(write(f"{prefix}_deepobj.json", '{"a":' * 50000 + "1" + "}" * 50000)))
    case(f"{prefix}_binary", *args_for(write(f"{prefix}_bin.json", bytes(range(256)) * 8, binary=True)))
    case(f"{prefix}_not_object", *args_for(write(f"{prefix}_list.json", "[1, 2, 3]")))


def field_mutations(prefix, base, args_for, limit=400):
    n = 0
    for path, value in mutations(base):
        tag = "_".join(str(p) for p in path) + "_" + ("del" if value is None else str(abs(hash(value)) % 10000))
        try:
            text = json.dumps(apply(base, path, value))
        except (TypeError, KeyError, IndexError):
            continue
        case(f"{prefix}_{tag}", *args_for(write(f"{prefix}_{n}.json", text)))
        n += 1
        if n >= limit:
            break


def jsonl_args(sub):
    return lambda p: (sub, p)


os.makedirs(IN, exist_ok=True)

# --- scenarios: run and cuda
gemm = json.load(open(os.path.join(TOP, "tests", "scenarios", "warp_specialized.json")))
structural("scenario", json.dumps(gemm), lambda p: ("run", p))
field_mutations("scenario", gemm, lambda p: ("run", p), limit=300)
specials = {
    "div_zero": {"params": {"Z": 0}, "expr": "1 / Z"},
    "mod_zero": {"params": {"Z": 0}, "expr": "5 % Z"},
    "overflow": {"params": {}, "expr": "9223372036854775807 * 2"},
    "deep_parens": {"params": {}, "expr": "(" * 5000 + "1" + ")" * 5000},
    "deep_minus": {"params": {}, "expr": "-" * 5000 + "1"},
    "shift_huge": {"params": {}, "expr": "1 << 64"},
}
for name, sp in specials.items():
    s = copy.deepcopy(gemm)
    s["params"].update(sp["params"])
    s["ctas"][0]["threads"][0]["program"][0]["count"] = sp["expr"]
    case(f"scenario_{name}", "run", write(f"scenario_{name}.json", json.dumps(s)))
for name, count in (("loop_1e12", 10 ** 12), ("loop_negative", -5), ("loop_1e6_x_4096", 1000000)):
    s = copy.deepcopy(gemm)
    s["params"]["KT"] = count
    if name == "loop_1e6_x_4096":
        s["params"]["CTAS"] = 4096
    case(f"scenario_{name}", "run", write(f"scenario_{name}.json", json.dumps(s)))
for name, ctas in (("ctas_zero", 0), ("ctas_huge", 10 ** 9), ("ctas_4097", 4097)):
    s = copy.deepcopy(gemm)
    s["params"]["CTAS"] = ctas
    case(f"scenario_{name}", "run", write(f"scenario_{name}.json", json.dumps(s)))
for cl in (0, 3, 16, -2):
    s = copy.deepcopy(gemm)
    s["ctas"][0]["cluster_size"] = cl
    case(f"scenario_cluster_{cl}", "run", write(f"scenario_cluster_{cl}.json", json.dumps(s)))
s = copy.deepcopy(gemm)
s["tensors"]["A"]["global_dims"] = [2 ** 40, 2 ** 40]
case("scenario_huge_tensor", "run", write("scenario_huge_tensor.json", json.dumps(s)))
s = copy.deepcopy(gemm)
s["ctas"][0]["threads"][0]["program"][0]["body"][2]["coords"] = ["64 * k", "4294967296"]
case("scenario_coord_past_2_32", "run", write("scenario_coord32.json", json.dumps(s)))
deadlock = os.path.join(TOP, "tests", "scenarios", "deadlock.json")
case("scenario_deadlock", "run", deadlock)
good = os.path.join(TOP, "tests", "scenarios", "warp_specialized.json")
for v in ("KT", "KT=", "KT=abc", "KT=(1", "=4", "NOPE=3", "KT=1/0", "KT=99999999999999999999"):
    case(f"set_{abs(hash(v)) % 100000}", "run", good, "--set", f"'{v}'")
case("run_stats_unwritable", "run", good, "--set", "KT=2", "--stats", "/nonexistent/dir/s.json")
case("run_trace_unwritable", "run", good, "--set", "KT=2", "--trace", "/nonexistent/dir/t.json")
case("run_vcd_unwritable", "run", good, "--set", "KT=2", "--vcd", "/nonexistent/dir/q.vcd")
case("run_missing_file", "run", "{in}/does_not_exist.json")
case("cuda_unwritable", "cuda", good, "-o", "/proc/tmasim_cannot_write")
case("cuda_bad_scenario", "cuda", write("cuda_bad.json", '{"name": 1}'), "-o", "{out}/c")

# --- configurations
cfg = json.load(open(os.path.join(TOP, "configs", "h100.json")))
structural("config", json.dumps(cfg), lambda p: ("run", good, "--set", "KT=2", "--config", p))
field_mutations("config", cfg, lambda p: ("run", good, "--set", "KT=2", "--config", p), limit=250)
for key, value in (("sm_clock_mhz", 0), ("sm_clock_mhz", 1e400), ("sm_clock_mhz", -1980)):
    c = copy.deepcopy(cfg)
    c[key] = value
    txt = json.dumps(c).replace("Infinity", "1e400")
    case(f"config_{key}_{value}", "run", good, "--set", "KT=2", "--config", write(f"config_{key}_{value}.json", txt))
for sec, key in (("memory", "hbm_bytes_per_cycle"), ("tma", "agu_bytes_per_cycle"), ("memory", "sm_l2_bytes_per_cycle")):
    for value in (0, "1e400", -1):
        c = copy.deepcopy(cfg)
        c[sec][key] = 0
        txt = json.dumps(c).replace(f'"{key}": 0', f'"{key}": {value}')
        case(f"config_{key}_{value}", "run", good, "--set", "KT=2", "--config", write(f"config_{key}_{value}.json", txt))
c = copy.deepcopy(cfg)
c["memory"]["l2_hit_cyles"] = 10
case("config_misspelt_key", "run", good, "--config", write("config_misspelt.json", json.dumps(c)))

# --- golden cases: replay
lines = gzip.open(os.path.join(TOP, "tests", "golden", "functional.jsonl.gz"), "rt").read().splitlines()
load = next(json.loads(l) for l in lines if '"op":"load"' in l.replace(" ", "") and "expected_smem_hex" in l)
store = next(json.loads(l) for l in lines if '"op":"store"' in l.replace(" ", "") and "expected_global_hex" in l)
structural("golden", json.dumps(load), jsonl_args("replay"))
field_mutations("golden", load, jsonl_args("replay"), limit=300)
for name, field, value in (("window_negative", "global_window_offset", -4096), ("window_huge", "global_window", 2 ** 40),
                           ("coord_2_32", "coords", None)):
    c = copy.deepcopy(store)
    if field == "coords":
        c["coords"] = [4294967296] + c["coords"][1:]
    else:
        c[field] = value
    case(f"golden_{name}", "replay", write(f"golden_{name}.jsonl", json.dumps(c) + "\n"))
gz = gzip.compress(("\n".join(lines[:50]) + "\n").encode())
case("golden_gzip_corrupt", "replay", write("golden_corrupt.jsonl.gz", gz[: len(gz) // 2] + b"\x00" * 64 + gz[len(gz) // 2 + 64:], binary=True))
case("golden_gzip_truncated", "replay", write("golden_trunc.jsonl.gz", gz[: len(gz) // 3], binary=True))
case("golden_bad_line_in_gzip", "replay",
     write("golden_badline.jsonl.gz", gzip.compress((lines[0] + "\n{not json\n" + lines[1] + "\n").encode()), binary=True))
case("golden_empty", "replay", write("golden_empty.jsonl", ""))

# --- timing records: calibrate
recs = gzip.open(os.path.join(TOP, "tests", "golden", "timing.jsonl.gz"), "rt").read().splitlines()
burst = next(json.loads(l) for l in recs if '"kind":"burst"' in l.replace(" ", ""))
stream = next(json.loads(l) for l in recs if '"kind":"stream"' in l.replace(" ", ""))
structural("timing", json.dumps(burst), jsonl_args("calibrate"))
field_mutations("timing_burst", burst, jsonl_args("calibrate"), limit=250)
field_mutations("timing_stream", stream, jsonl_args("calibrate"), limit=150)
r1 = copy.deepcopy(burst)
r1["tensor_map"].update({"rank": 1, "global_dims": [4096], "global_strides": [], "box_dims": [64], "element_strides": [1]})
r1["coords0"], r1["coords_step"] = [0], [64]
case("timing_rank1_burst", "calibrate", write("timing_rank1.jsonl", json.dumps(r1) + "\n"))
r2 = copy.deepcopy(stream)
r2["tensor_map"].update({"rank": 1, "global_dims": [4096], "global_strides": [], "box_dims": [64], "element_strides": [1]})
case("timing_rank1_stream", "calibrate", write("timing_rank1s.jsonl", json.dumps(r2) + "\n"))
case("timing_empty", "calibrate", write("timing_empty.jsonl", ""))
case("calibrate_csv_unwritable", "calibrate", os.path.join(TOP, "tests", "golden", "timing.jsonl.gz"), "--csv", "/nonexistent/x.csv")

# --- patterns: conflicts
pats = gzip.open(os.path.join(TOP, "tests", "golden", "smem_patterns.jsonl.gz"), "rt").read().splitlines()
pat = json.loads(pats[0])
structural("pattern", json.dumps(pat), lambda p: ("conflicts", "--patterns", p))
field_mutations("pattern", pat, lambda p: ("conflicts", "--patterns", p), limit=150)
case("pattern_empty", "conflicts", "--patterns", write("pattern_empty.jsonl", ""))
for name, args in (("lanes_garbage", "--access lanes --lanes abc"), ("lanes_hex_bad", "--access lanes --lanes 0xZZ"),
                   ("lanes_short", "--access lanes --lanes 0,16"), ("lanes_long", "--access lanes --lanes " + ",".join(["0"] * 40)),
                   ("x3", "--access ldmatrix.x3"), ("tran", "--access ldmatrix.x4.tran"), ("row_outside", "--r0 64"),
                   ("col_negative", "--c0 -16"), ("rows_zero", "--rows 0"), ("rows_huge", "--rows 100000"),
                   ("banks_zero", "--banks 0"), ("dtype_bad", "--dtype float7"), ("swizzle_bad", "--swizzle 96b"),
                   ("atom_swizzle", "--swizzle 128b_atom_32b"), ("svg_unwritable", "--svg /nonexistent/x.svg"),
                   ("smem_offset_huge", "--smem-offset 4294967295")):
    case(f"conflicts_{name}", "conflicts", args)

# --- compare
case("compare_result_not_json", "compare", good, write("compare_bad.json", "{"))
case("compare_result_wrong_types", "compare", good,
     write("compare_types.json", json.dumps({"scenario": gemm["name"], "cold": {"cta_cycles": "x", "span_cycles": 1}})))
case("compare_result_missing_l2", "compare", good, write("compare_nol2.json", json.dumps({"scenario": gemm["name"]})))
case("compare_no_result", "compare", good, write("compare_other.json", json.dumps({"scenario": "other", "cold": {}})))
case("compare_empty_dir", "compare", "{out}")

# --- explain and validate: a tensor map as JSON (every field mutated) or as flags
tmap = {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64], "global_strides": [128],
        "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}
structural("map", json.dumps(tmap), lambda p: ("explain", "--map", p, "--coords", "0,0"))
field_mutations("map", tmap, lambda p: ("explain", "--map", p, "--coords", "0,0", "--png", "{out}/m.png"), limit=150)
field_mutations("vmap", tmap, lambda p: ("validate", "--map", p), limit=60)
flags = "--dtype float16 --dims 64,64 --swizzle 128b"
for name, args in (("coords_garbage", "--coords 0,x"), ("coords_hex", "--coords 0x10,0"), ("coords_empty", "--coords ''"),
                   ("coords_short", "--coords 0"), ("coords_long", "--coords 0,0,0,0,0,0,0,0,0"),
                   ("coords_2_31", "--coords 0,2147483648"), ("coords_huge", "--coords 0,99999999999999999999"),
                   ("coords_negative", "--coords -64,-64"), ("smem_offset_misaligned", "--coords 0,0 --smem-offset 64"),
                   ("smem_offset_huge", "--coords 0,0 --smem-offset 4294967296"),
                   ("smem_offset_past_227k", "--coords 0,0 --smem-offset 229376"), ("op_bad", "--coords 0,0 --op copy"),
                   ("reduce_op_bad", "--coords 0,0 --op reduce --reduce-op mul"),
                   ("reduce_inc_f16", "--coords 0,0 --op reduce --reduce-op inc"),
                   ("prefetch_png", "--coords 0,0 --op prefetch --png {out}/p.png"),
                   ("png_wrong_extension", "--coords 0,0 --png {out}/x.gif"),
                   ("svg_unwritable", "--coords 0,0 --svg /nonexistent/x.svg"),
                   ("csv_unwritable", "--coords 0,0 --csv /nonexistent/x.csv"),
                   ("rows_negative", "--coords 0,0 --rows -1"), ("offsets_tiled", "--coords 0,0 --offsets 1"),
                   ("global_address_odd", "--coords 0,0 --global-address 3"),
                   ("global_address_negative", "--coords 0,0 --global-address -16"),
                   ("map_inline_bad", "--coords 0,0 --map '{\"dtype\": 5}'"),
                   ("map_missing", "--coords 0,0 --map {in}/no_such_map.json")):
    case(f"explain_{name}", "explain", flags, args)
for name, args in (("no_dtype", "--dims 64,64 --coords 0,0"), ("no_dims", "--dtype float16 --coords 0,0"),
                   ("dims_garbage", "--dtype float16 --dims 64,y --coords 0,0"),
                   ("dims_six", "--dtype float16 --dims 1,1,1,1,1,1 --coords 0,0,0,0,0,0"),
                   ("dims_zero", "--dtype float16 --dims 0,64 --coords 0,0"),
                   ("dims_2_40", "--dtype float16 --dims 1099511627776,1099511627776 --coords 0,0"),
                   ("box_huge", "--dtype float16 --dims 64,64 --box 512,512 --coords 0,0"),
                   ("interleave_32b", "--dtype float16 --dims 64,64,8 --box 16,8,8 --interleave 32b --coords 0,0,0"),
                   ("atom_swizzle", "--dtype float16 --dims 64,64 --box 64,8 --swizzle 128b_atom_64b --coords 0,0"),
                   ("im2col_flags", "--mode im2col --dtype float16 --dims 64,8,8,2 --coords 0,0,0,0")):
    case(f"explain_{name}", "explain", args)
    case(f"validate_{name}", "validate", args.rsplit(" --coords", 1)[0])

# --- sweep
for name, args in (("no_values", "--set STAGES"), ("empty_value", "--set STAGES=2,,4"), ("unknown_param", "--set NOPE=1,2"),
                   ("misspelt_key", "--set smem.bankz=32,64"), ("bad_value", "--set smem.banks=abc"),
                   ("zero_banks", "--set smem.banks=0,32"), ("huge_product", " ".join(["--set STAGES=" + ",".join(["1"] * 100)] * 3)),
                   ("stages_deadlock", "--set STAGES=0,2"), ("out_unwritable", "--set STAGES=2 -o /nonexistent/dir/s")):
    case(f"sweep_{name}", "sweep", good, "--set KT=2 --no-plot -o {out}/sw" if name != "out_unwritable" else "--set KT=2 --no-plot", args)

with open(os.path.join(DEST, "cases.tsv"), "w") as f:
    f.write("\n".join(cases) + "\n")
print(f"make_campaign: {len(cases)} cases")
