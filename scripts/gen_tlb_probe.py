#!/usr/bin/env python3
"""Writes tests/golden/tlb_probe/*.json: one CTA's serial TMA loads of lines that no load has read,
in one 2 MiB page or in a new page each (issue 29; the address translation's cost on a cold L2).

Why: the validation half's cold one-load programs are fast in the model (a median of -2.4%, the
micro family's single-load bursts -8% with the candidates' refitted miss path), while streams want a
cheaper miss. One reading: the first touch of a page after the harness's flush (a 2 x L2 + 64 MiB
memset, 80+ pages of 2 MiB) pays a translation miss that a single load's latency carries and a
stream's later loads do not. The model has no address translation: every variant below is the same
program to it, one cold line (or eight) a load.

Programs (one CTA, one barrier, a rolled loop of N loads, each waited on before the next is armed;
N = 16 and 32, the slope is one load). The tensor is rank 3, a line (64 fp16, 128 bytes) by L lines
4224 bytes apart (inside one page) by P pages, the pages 2 MiB + 4224 bytes apart (a new 2 MiB page
each, not at the same offset in each):
- line_np{1,8,32}: a one-line box, load i at line i / NP of page i % NP: NP = 1 keeps every load in
  one page; NP = 32 puts each of the first 32 loads in a new page; NP = 8 revisits 8 pages.
- line_np32_aligned: as line_np32 with the pages exactly 2 MiB apart (every line at one offset).
- box8_lines: an 8-line box of one page (lines 8i..8i+7 of page 0).
- box8_pages: an 8-line box across 8 pages (line i of pages 0..7: the same 8 pages each load).
- box8_newpages: an 8-line box across 8 new pages each load (line 0 of pages 8i..8i+7).

Rule, stated before the run (2026-11-29): in the cold state, let T be the slope of line_np32 less
that of line_np1 and U that of box8_newpages less box8_pages. If T >= 60 cycles and U >= 60 (a new
page costs a load, whatever else it reads) while line_np8 and box8_pages are within 30 of line_np1
and box8_lines, the translation's miss is a mechanism; its cost and reach (how many pages stay
translated) are read off this probe (calibration) and judged on the held-out sets' cold states
before adoption. Otherwise it is reported as not found. Nothing is fitted to it in this session.

    scripts/gen_tlb_probe.py [DIR]"""
import json
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests", "golden", "tlb_probe")
os.makedirs(dest, exist_ok=True)

LINE_PITCH = 4224        # 33 lines: inside one page, a different DRAM column each
PAGE = 2 << 20
LINES, PAGES = 256, 256  # 512 MiB and a little: 8 new pages for each of 32 loads


def tensor(page_pitch, box):
    return {"mode": "tiled", "dtype": "float16", "rank": 3, "global_dims": [64, LINES, PAGES],
            "global_strides": [LINE_PITCH, page_pitch], "box_dims": box, "element_strides": [1, 1, 1],
            "swizzle": "none"}


def program(name, iters, box, coords, page_pitch=PAGE + LINE_PITCH):
    return {"name": f"tlb_probe/{name}", "comment": "scripts/gen_tlb_probe.py",
            "params": {"N": iters},
            "tensors": {"T": tensor(page_pitch, box)},
            "ctas": [{"count": 1, "barriers": [1], "program": [
                {"loop": "i", "count": "N", "unroll": False, "body": [
                    {"arrive": 0, "bytes": "bytes_T"},
                    {"load": "T", "coords": coords, "smem_offset": 0, "barrier": 0},
                    {"wait": 0, "phase": "i"}]}]}]}


VARIANTS = {
    "line_np1": ([64, 1, 1], [0, "i", 0], {}),
    "line_np8": ([64, 1, 1], [0, "i / 8", "i % 8"], {}),
    "line_np32": ([64, 1, 1], [0, "i / 32", "i % 32"], {}),
    "line_np32_aligned": ([64, 1, 1], [0, "i / 32", "i % 32"], {"page_pitch": PAGE}),
    "box8_lines": ([64, 8, 1], [0, "8 * i", 0], {}),
    "box8_pages": ([64, 1, 8], [0, "i", 0], {}),
    "box8_newpages": ([64, 1, 8], [0, 0, "8 * i"], {}),
}


def main():
    n = 0
    for name, (box, coords, extra) in VARIANTS.items():
        for iters in (16, 32):
            full = f"{name}_n{iters}"
            with open(os.path.join(dest, full + ".json"), "w") as f:
                json.dump(program(full, iters, box, coords, **extra), f, indent=1)
                f.write("\n")
            n += 1
    print(f"gen_tlb_probe: {n} scenarios in {dest}")


if __name__ == "__main__":
    main()
