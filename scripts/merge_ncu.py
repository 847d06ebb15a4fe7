#!/usr/bin/env python3
"""Join the pattern list written by `tma_ref patterns` with Nsight Compute's raw CSV
(one row per pat_kernel launch, in launch order) into golden-case.md section 2 lines."""
import csv
import json
import sys


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return int(float(text))
    except ValueError:
        return None


def main(list_path, csv_path, out_path):
    patterns = [json.loads(line) for line in open(list_path) if line.strip()]
    lines = [l for l in open(csv_path) if l.startswith('"')]
    rows = list(csv.reader(lines))
    header, data = rows[0], [r for r in rows[2:] if len(r) == len(rows[0])]
    col = {name: i for i, name in enumerate(header)}
    if len(data) != len(patterns):
        print(f"warning: {len(patterns)} patterns but {len(data)} profiled launches", file=sys.stderr)
    bad_count = 0
    with open(out_path, "w") as out:
        for pat, row in zip(patterns, data):
            raw = {name: number(row[i]) for name, i in col.items()
                   if name.startswith(("l1tex__", "smsp__"))}
            kind = "st" if pat["op"] in ("st", "stmatrix") else "ld"
            wf = raw.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{kind}.sum")
            if not wf:
                wf = raw.get("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")
            pat["ncu_wavefronts"] = wf
            pat["ncu_bank_conflicts"] = raw.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{kind}.sum")
            pat["ncu_raw"] = raw
            inst_metric = {"ld": "smsp__sass_inst_executed_op_shared_ld.sum",
                           "st": "smsp__sass_inst_executed_op_shared_st.sum",
                           "ldmatrix": "smsp__sass_inst_executed_op_ldsm.sum"}.get(pat["op"])
            inst = raw.get(inst_metric) if inst_metric else None
            if inst is not None and inst != 1:
                bad_count += 1
                pat["instruction_count_mismatch"] = inst
            out.write(json.dumps(pat, separators=(",", ":")) + "\n")
    print(f"merged {min(len(data), len(patterns))} patterns; {bad_count} with a shared instruction count other than 1")


if __name__ == "__main__":
    main(*sys.argv[1:4])
