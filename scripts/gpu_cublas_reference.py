#!/usr/bin/env python3
"""Times the library kernels a user of tmasim's real-kernel examples compares against (issue 30):
torch.matmul (cuBLAS, nvjet_sm90_*) on fp16 M x N x K and scaled_dot_product_attention (cuDNN or
flash) on fp16 B x H x S x D, on the GPU it runs on. For each: the kernel names the profiler saw,
their launch grid and block where it gives them, and the median of 20 timed runs (CUDA events,
warm L2: the same operands each run) after 5 untimed ones. One JSON object a line.

    scripts/gpu_cublas_reference.py OUT.jsonl [MxNxK ...]   (on the GPU machine; needs PyTorch)"""
import json
import statistics
import sys

import torch


def timed(fn, reps=20):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1000.0)
    return statistics.median(times), min(times), max(times)


def kernels(fn):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    out = []
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and e.name not in out:
            out.append(e.name)
    return out


def main():
    path = sys.argv[1]
    shapes = sys.argv[2:] or ["4096x4096x4096", "8192x8192x8192"]
    dev = torch.cuda.get_device_properties(0)
    rows = []
    for s in shapes:
        m, n, k = (int(x) for x in s.split("x"))
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(n, k, device="cuda", dtype=torch.float16)  # B^T: K-major, as examples/gemm_hopper.json
        fn = lambda: torch.matmul(a, b.t())
        med, lo, hi = timed(fn)
        rows.append({"op": "matmul", "M": m, "N": n, "K": k, "us": {"median": med, "min": lo, "max": hi},
                     "tflops": 2.0 * m * n * k / med / 1e6, "kernels": kernels(fn)})
    q = torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.float16)
    k_, v = torch.randn_like(q), torch.randn_like(q)
    fn = lambda: torch.nn.functional.scaled_dot_product_attention(q, k_, v)
    med, lo, hi = timed(fn)
    rows.append({"op": "sdpa", "B": 4, "H": 16, "S": 4096, "D": 128, "us": {"median": med, "min": lo, "max": hi},
                 "tflops": 4.0 * 4 * 16 * 4096 * 4096 * 128 / med / 1e6, "kernels": kernels(fn)})
    with open(path, "w") as f:
        for r in rows:
            r.update({"device": dev.name, "sms": dev.multi_processor_count, "torch": torch.__version__,
                      "cuda": torch.version.cuda})
            f.write(json.dumps(r) + "\n")
            print(json.dumps(r)[:400])


if __name__ == "__main__":
    main()
