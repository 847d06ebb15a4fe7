#!/usr/bin/env python3
"""Times the library kernels a user of tmasim's real-kernel examples compares against (issue 30):
torch.matmul (cuBLAS, nvjet_sm90_*) on fp16 and bf16 M x N x K, and scaled_dot_product_attention
(cuDNN or flash) on fp16 B x H x S x D, causal or not, on the GPU it runs on. For each: the kernel
names the profiler saw, and the median of 20 timed runs (CUDA events, the GPU kept busy while the
host enqueues so that they time the kernels alone) after 5 untimed ones, warm
(the same operands each run: they stay in L2 where they fit) and cold (a 256 MiB write before each
run, as the scenario harness's cold state). One JSON object a line.

    scripts/gpu_cublas_reference.py OUT.jsonl [--quick]   (on the GPU machine; needs PyTorch)
    --quick: the two GEMMs and one attention of the first run (tests/golden/real_kernels)
    scripts/gpu_cublas_reference.py --attention-once      each attention shape called once, nothing
        timed, for a profiler around it (ncu --kernel-name regex:sdpa: grid, block, shared memory)
    scripts/gpu_cublas_reference.py --matmul-once         likewise each GEMM (ncu --kernel-name regex:nvjet)"""
import json
import statistics
import sys

import torch

GEMMS = [  # square, K-heavy, M-skewed, N-skewed
    (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (6144, 6144, 6144), (8192, 8192, 8192),
    (1024, 1024, 16384), (2048, 2048, 8192), (16384, 16384, 1024),
    (16384, 1024, 4096), (8192, 2048, 4096), (1024, 16384, 4096), (2048, 8192, 4096)]
ATTENTION = [(4, 16, 4096, 128), (4, 16, 4096, 64), (8, 16, 2048, 128), (2, 16, 8192, 64)]  # B, H, S, D
QUICK_GEMMS = [(4096, 4096, 4096), (8192, 8192, 8192)]


def timed(fn, flush=None, reps=20):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        if flush is not None:
            flush.fill_(len(times))
        # Keep the GPU busy while the host enqueues the call: the events then time the kernels, not
        # the host's dispatch (without it a 1024^3 GEMM read 32 us warm against 9 us after a flush).
        torch.cuda._sleep(200000)
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1000.0)
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def kernels(fn):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    out = []
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and e.name not in out:
            out.append(e.name)
    return out


def attention_once():
    for bsz, heads, s, d in ATTENTION:
        for causal in (False, True):
            q = torch.randn(bsz, heads, s, d, device="cuda", dtype=torch.float16)
            k_, v = torch.randn_like(q), torch.randn_like(q)
            torch.nn.functional.scaled_dot_product_attention(q, k_, v, is_causal=causal)
            torch.cuda.synchronize()
            print(json.dumps({"B": bsz, "H": heads, "S": s, "D": d, "causal": causal}))


def matmul_once():
    for dtype in (torch.float16, torch.bfloat16):
        for m, n, k in GEMMS:
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(n, k, device="cuda", dtype=dtype)
            torch.matmul(a, b.t())
            torch.cuda.synchronize()
            print(json.dumps({"dtype": str(dtype).replace("torch.", ""), "M": m, "N": n, "K": k}))


def main():
    if sys.argv[1] == "--matmul-once":
        return matmul_once()
    if sys.argv[1] == "--attention-once":
        return attention_once()
    path = sys.argv[1]
    quick = "--quick" in sys.argv[2:]
    dev = torch.cuda.get_device_properties(0)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    rows = []
    for dtype in ([torch.float16] if quick else [torch.float16, torch.bfloat16]):
        for m, n, k in (QUICK_GEMMS if quick else GEMMS):
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(n, k, device="cuda", dtype=dtype)  # B^T: K-major, as examples/gemm_hopper.json
            fn = lambda: torch.matmul(a, b.t())
            warm, cold = timed(fn), timed(fn, flush)
            rows.append({"op": "matmul", "dtype": str(dtype).replace("torch.", ""), "M": m, "N": n, "K": k,
                         "us": warm, "cold_us": cold, "tflops": 2.0 * m * n * k / warm["median"] / 1e6,
                         "kernels": kernels(fn)})
            del a, b
    for bsz, heads, s, d in (ATTENTION[:1] if quick else ATTENTION):
        for causal in ([False] if quick else [False, True]):
            q = torch.randn(bsz, heads, s, d, device="cuda", dtype=torch.float16)
            k_, v = torch.randn_like(q), torch.randn_like(q)
            fn = lambda: torch.nn.functional.scaled_dot_product_attention(q, k_, v, is_causal=causal)
            warm, cold = timed(fn), timed(fn, flush)
            flops = 4.0 * bsz * heads * s * s * d / (2 if causal else 1)
            rows.append({"op": "sdpa", "B": bsz, "H": heads, "S": s, "D": d, "causal": causal, "us": warm,
                         "cold_us": cold, "tflops": flops / warm["median"] / 1e6, "kernels": kernels(fn)})
    with open(path, "w") as f:
        for r in rows:
            r.update({"device": dev.name, "sms": dev.multi_processor_count, "torch": torch.__version__,
                      "cuda": torch.version.cuda})
            f.write(json.dumps(r) + "\n")
            print(json.dumps(r)[:300])


if __name__ == "__main__":
    main()
