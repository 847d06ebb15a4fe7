// How much of the L2 a half's SMs can fill (issue 29: the L2's halves, tests/golden/partition_probe).
// The partition probe found two halves of 66 SMs and lines that follow their reader; the dram probe
// found that a footprint read from both halves takes more room than one read from one. Here the
// SMs of one half only (or all) read a footprint of F MiB, each SM its own slice, and then read it
// again, timed: if a half caches only what its own SMs read in its 25 MiB, a half's SMs alone fit
// about 25 MiB; if a line lives in the half its address picks, they fit the whole 50.
// For each (reader, filler) group pair (half A, half B, all SMs; A reading what B filled) and F:
// 5 repetitions of (flush; the filler reads the footprint; the reader reads it, timed) and of
// (flush; the filler touches a line every 64 KiB, so the address translation is as warm; timed
// read) for the cold reference; medians of the timed kernel (cudaEvent). One CTA an SM (200 KB of
// dynamic shared memory), 1024 threads with eight 16-byte ld.global.cg (L2, not L1) in flight each.
// (The first version kept one load in flight a thread and no TLB-warm reference: not decisive.)
// Writes JSON lines to stdout:
//   {"reader": G, "filler": G, "mib": F, "sms": N, "warm_us": median, "cold_us": median}
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o half_capacity_probe half_capacity_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_util.cuh"

constexpr int kSms = 132;
// Half A of tests/golden/partition_probe (the other 66 SMs are half B).
constexpr int kHalfA[66] = {0,  1,  8,  9,  10,  11,  12,  13,  16,  17,  24,  25,  26,  27,  28,  29,  32,
                            33, 40, 41, 42, 43,  44,  45,  48,  49,  56,  57,  58,  59,  60,  61,  70,  71,
                            72, 73, 74, 75, 84,  85,  86,  87,  88,  89,  98,  99,  100, 101, 102, 103, 112,
                            113, 114, 115, 116, 117, 120, 121, 124, 125, 126, 127, 128, 129, 130, 131};

// The CTA on SM s reads slice slot[s] (of `slices`) of buf, if slot[s] >= 0.
// Eight 16-byte loads in flight a thread (128 KiB an SM), so that the read is not latency-bound.
// `stride_vecs` > 1: one load every stride (a touch of each page, for a TLB-warm cold reference).
__global__ void read_slices(const uint4* buf, size_t slice_vecs, const int* slot, unsigned* sink, size_t stride_vecs) {
  const int k = slot[smid()];
  if (k < 0) return;
  const uint4* b = buf + static_cast<size_t>(k) * slice_vecs;
  unsigned acc = 0;
  const size_t step = blockDim.x * stride_vecs;
  for (size_t i = threadIdx.x * stride_vecs; i < slice_vecs; i += 8 * step) {
    uint4 v[8];
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const size_t j = i + u * step;
      if (j < slice_vecs)
        asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v[u].x), "=r"(v[u].y), "=r"(v[u].z), "=r"(v[u].w) : "l"(b + j));
      else
        v[u] = make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < 8; ++u) acc ^= v[u].x ^ v[u].w;
  }
  if (acc == 0x12345678u) sink[threadIdx.x] = acc;
}

int main() {
  require_sms_and_print_device(kSms);
  const size_t max_bytes = size_t{64} << 20, flush_bytes = size_t{256} << 20;
  uint4* buf;
  unsigned* sink;
  int* slot;
  unsigned char* flush;
  CK(cudaMalloc(&buf, max_bytes));
  CK(cudaMemset(buf, 1, max_bytes));
  CK(cudaMalloc(&sink, 4096));
  CK(cudaMalloc(&slot, kSms * sizeof(int)));
  CK(cudaMalloc(&flush, flush_bytes));
  const int smem = 200 * 1024;
  CK(cudaFuncSetAttribute(read_slices, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::vector<bool> in_a(kSms, false);
  for (int s : kHalfA) in_a[s] = true;
  cudaEvent_t t0, t1;
  CK(cudaEventCreate(&t0));
  CK(cudaEventCreate(&t1));
  auto slots_of = [&](const char* group) {
    std::vector<int> slots(kSms, -1);
    int n = 0;
    for (int s = 0; s < kSms; ++s)
      if (group[0] == 'a' || in_a[s] == (group[0] == 'A')) slots[s] = n++;
    return slots;
  };
  int *fill_slot;
  CK(cudaMalloc(&fill_slot, kSms * sizeof(int)));
  // (reader, filler): a half reading what it filled, all SMs, and half A reading what half B filled.
  const char* cases[][2] = {{"A", "A"}, {"B", "B"}, {"all", "all"}, {"A", "B"}};
  for (const auto& c : cases) {
    const std::vector<int> reader = slots_of(c[0]), filler = slots_of(c[1]);
    const int n = static_cast<int>(std::count_if(reader.begin(), reader.end(), [](int k) { return k >= 0; }));
    CK(cudaMemcpy(slot, reader.data(), kSms * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(fill_slot, filler.data(), kSms * sizeof(int), cudaMemcpyHostToDevice));
    for (int mib : {8, 16, 20, 24, 28, 32, 40, 48, 56}) {
      const size_t slice_vecs = (static_cast<size_t>(mib) << 20) / n / sizeof(uint4);
      // fill: 0 none (cold, pages touched), 1 the whole footprint
      auto timed = [&](bool fill) {
        std::vector<float> us;
        for (int r = 0; r < 5; ++r) {
          CK(cudaMemset(flush, r, flush_bytes));
          if (fill) read_slices<<<kSms, 1024, smem>>>(buf, slice_vecs, fill_slot, sink, 1);
          else read_slices<<<kSms, 1024, smem>>>(buf, slice_vecs, fill_slot, sink, 4096);  // a line every 64 KiB
          CK(cudaEventRecord(t0));
          read_slices<<<kSms, 1024, smem>>>(buf, slice_vecs, slot, sink, 1);
          CK(cudaEventRecord(t1));
          CK(cudaEventSynchronize(t1));
          float ms = 0;
          CK(cudaEventElapsedTime(&ms, t0, t1));
          us.push_back(ms * 1000);
        }
        std::sort(us.begin(), us.end());
        return us[us.size() / 2];
      };
      const float warm = timed(true), cold = timed(false);
      std::printf("{\"reader\":\"%s\",\"filler\":\"%s\",\"mib\":%d,\"sms\":%d,\"warm_us\":%.2f,\"cold_us\":%.2f}\n", c[0], c[1],
                  mib, n, warm, cold);
    }
  }
  return 0;
}
