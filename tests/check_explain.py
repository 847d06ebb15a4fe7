#!/usr/bin/env python3
"""Judges `tmasim explain` by the H100: for every load the harness captured
(tests/golden/functional.jsonl.gz), each element explain places must hold, in the captured
shared memory, the global bytes explain says it came from (or the fill, out of bounds);
every byte explain does not place must still hold the poison; each stored element must
arrive at the global address explain names; rejected maps and trapping
instructions must be reported as such, with exit status 1.

usage: check_explain.py TMASIM GOLDEN.jsonl.gz"""
import concurrent.futures
import csv
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile


def fill(i):
    return ((i * 2654435761) % 2**32) >> 24


def elem_bytes(dtype):
    return {"uint8": 1, "uint16": 2, "float16": 2, "bfloat16": 2}.get(dtype, 8 if "64" in dtype else 4)


def explain(tmasim, case, tmp, extra=()):
    path = os.path.join(tmp, case["name"] + ".map.json")
    with open(path, "w") as f:
        json.dump({k: v for k, v in case["tensor_map"].items()}, f)
    args = [tmasim, "explain", "--map", path, "--coords", ",".join(map(str, case["coords"])),
            "--smem-offset", str(case.get("smem_offset", 0)), "--global-address", str(case["global_base_offset"]),
            "--op", case.get("op", "load"), "--reduce-op", case.get("reduce_op", "add"), "--rows", "0"]
    if case.get("im2col_offsets"):
        args += ["--offsets", ",".join(map(str, case["im2col_offsets"]))]
    return subprocess.run(args + list(extra), capture_output=True, text=True)


def judge_load(tmasim, case, tmp):
    csv_path = os.path.join(tmp, case["name"] + ".csv")
    p = explain(tmasim, case, tmp, ["--csv", csv_path])
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stdout[-300:]}{p.stderr}"
    m = case["tensor_map"]
    smem = bytes.fromhex(case["expected_smem_hex"])
    poison = case["poison"]
    es = elem_bytes(m["dtype"])
    # Interleaved layouts move whole 16/32-byte units, im2col ones too (one unit per pixel).
    unit = es if m.get("interleave", "none") == "none" else (16 if m["interleave"] == "16b" else 32)
    piece = min(unit, 16)
    converts = m["dtype"].startswith("tfloat32")
    nan = m.get("oob_fill") == "nan"
    covered = set()
    truncated = False
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            at = int(row["smem_offset"])
            if at + piece > len(smem):  # the harness captured a shorter window than the box
                truncated = True
                continue
            got = smem[at:at + piece]
            covered.update(range(at, at + piece))
            if row["in_bounds"] == "1":
                want = bytes(fill(int(row["global_address"]) + b) for b in range(piece))
                if converts:
                    want = got if got != bytes([poison] * piece) else None
            else:
                want = bytes([0xF7, 0x7F] * 8)[:piece] if nan else bytes(piece)
            if got != want:
                return f"element {dict(row)}: H100 has {got.hex()} at {at}, explain implies {want.hex() if want else 'not poison'}"
    if unit <= 16 and not truncated:  # 32-byte units: only their first half is listed
        stray = [i for i, b in enumerate(smem) if i not in covered and b != poison]
        if stray:
            return f"{len(stray)} bytes written that explain does not place (first at {stray[0]})"
        if case.get("tx_bytes") is not None and len(covered) != case["tx_bytes"]:
            return f"explain places {len(covered)} bytes; the mbarrier received {case['tx_bytes']}"
    return None


def judge_store(tmasim, case, tmp):
    """The shared source holds fill(j) at byte j; each in-bound element must arrive where explain says."""
    csv_path = os.path.join(tmp, case["name"] + ".csv")
    p = explain(tmasim, case, tmp, ["--csv", csv_path])
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stdout[-300:]}{p.stderr}"
    glob = bytes.fromhex(case["expected_global_hex"])
    base = case["global_window_offset"]
    es = elem_bytes(case["tensor_map"]["dtype"])
    checked = in_bounds = 0
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if row["in_bounds"] != "1":
                continue
            in_bounds += 1
            at = int(row["global_address"]) - base
            if at < 0 or at + es > len(glob):
                continue
            want = bytes(fill(int(row["smem_offset"]) + b) for b in range(es))
            if glob[at:at + es] != want:
                return f"element {dict(row)}: H100 global has {glob[at:at + es].hex()}, explain implies {want.hex()}"
            checked += 1
    if in_bounds == 0:  # the whole box lies outside the tensor: global memory must be untouched
        untouched = all(b == fill(base + i) for i, b in enumerate(glob))
        return None if untouched else "explain stores nothing, yet the H100 changed global memory"
    return None if checked else "no element inside the captured global window"


def judge_refusal(tmasim, case, tmp, want):
    p = explain(tmasim, case, tmp)
    if p.returncode != 1 or want not in p.stdout:
        return f"expected exit 1 and '{want}', got exit {p.returncode}: {p.stdout[-300:]}{p.stderr}"
    return None


def judge(tmasim, case, tmp):
    if case.get("encode_result", "CUDA_SUCCESS") != "CUDA_SUCCESS":
        return judge_refusal(tmasim, case, tmp, "rejected")
    err = case.get("launch_error")
    if err in ("cudaErrorIllegalInstruction", "cudaErrorMisalignedAddress"):
        return judge_refusal(tmasim, case, tmp, "traps: " + err)
    if case.get("op", "load") == "load" and "expected_smem_hex" in case:
        return judge_load(tmasim, case, tmp)
    if case.get("op") == "store" and "expected_global_hex" in case:
        return judge_store(tmasim, case, tmp)
    return "skip"


def main():
    tmasim, golden = sys.argv[1], sys.argv[2]
    with gzip.open(golden, "rt") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    cases = [c for c in cases if "tensor_map" in c and "coords" in c]
    failed = passed = skipped = 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for case, verdict in zip(cases, pool.map(lambda c: judge(tmasim, c, tmp), cases)):
            if verdict == "skip":
                skipped += 1
            elif verdict:
                failed += 1
                if failed <= 10:
                    print(f"FAIL {case['name']}: {verdict}")
            else:
                passed += 1
    print(f"explain against the H100: {passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed or passed < 100 else 0)


if __name__ == "__main__":
    main()
