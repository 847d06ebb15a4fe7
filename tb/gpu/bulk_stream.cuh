// What the L2 bandwidth probes of tb/gpu (far_bandwidth, migration) share: chains of dependent
// ld.global.cg loads (one line each, timed with clock64) and a TMA bulk-copy stream (kStages stages
// of 16 KiB in flight an SM, far more than latency needs) whose every mbarrier wait has a time-out.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ptx_common.cuh"
#include "probe_util.cuh"

namespace bulk_stream {

constexpr int kStages = 8, kChunk = 16384, kWords = 32;  // 32 words of 4 bytes: one 128 B line
constexpr long long kTimeout = 2000000000LL;             // cycles: about a second

__device__ inline unsigned load_cg(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ inline unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ inline bool wait_parity(uint32_t mb, uint32_t parity) {
  const long long t0 = clock64();
  uint32_t ok = 0;
  while (!ok) {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok)
                 : "r"(mb), "r"(parity)
                 : "memory");
    if (clock64() - t0 > kTimeout) return false;
  }
  return true;
}
__device__ inline void bulk_load(uint32_t dst, const void* src, uint32_t bytes, uint32_t mb) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(dst), "l"(src), "r"(bytes), "r"(mb)
               : "memory");
}

// The CTA on SM s reads every line of its own `lines` lines of buf (bringing them into the L2 near s).
__global__ void read_own(const unsigned* buf, int lines, unsigned* sink) {
  if (threadIdx.x != 0) return;
  const unsigned s = smid();
  const unsigned* b = buf + static_cast<size_t>(s) * lines * kWords;
  unsigned acc = 0;
  for (int i = 0; i < lines; ++i) acc += load_cg(b + i * kWords);
  sink[s] = acc;
}

// Follows a cycle of `lines` lines from line 0 (word 0 of each holds the next one's index): the mean
// cycles a load (the chain ends where it began, so i is 0 and adds nothing).
__device__ inline unsigned chase_lines(const unsigned* b, int lines) {
  unsigned i = 0;
  const long long t0 = clock64();
  for (int k = 0; k < lines; ++k) i = load_cg(b + i * kWords);
  asm volatile("add.u32 %0, %0, 0;" : "+r"(i));
  return static_cast<unsigned>(clock64() - t0) / lines + (i >> 31);
}

// Each SM with rank[smid] >= 0 streams chunks rank, rank + n[g], ... of base + offset[g] (g =
// group[smid]); times[smid] gets its start and end (%globaltimer), errors[smid] 1 if a wait timed
// out. One CTA an SM, kStages * kChunk bytes of dynamic shared memory.
__global__ void stream(const unsigned char* base, int chunks, const int* rank, const int* group, const int* n,
                       const long long* offset, unsigned long long* times, int* errors) {
  extern __shared__ __align__(1024) unsigned char buf[];
  __shared__ alignas(8) uint64_t bars[kStages];
  const unsigned s = smid();
  const int r = rank[s];
  if (r < 0 || threadIdx.x != 0) return;
  const int g = group[s];
  const unsigned char* x = base + offset[g];
  for (int k = 0; k < kStages; ++k) tmasim_ptx::mbar_init(tmasim_ptx::smem_u32(&bars[k]), 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  const unsigned long long t0 = globaltimer();
  int issued = 0;
  for (int c = r; c < chunks; c += n[g], ++issued) {
    const int stage = issued % kStages;
    const uint32_t mb = tmasim_ptx::smem_u32(&bars[stage]);
    if (issued >= kStages && !wait_parity(mb, (issued / kStages - 1) & 1)) {
      errors[s] = 1;
      return;
    }
    tmasim_ptx::mbar_arrive_expect_tx(mb, kChunk);
    bulk_load(tmasim_ptx::smem_u32(buf + stage * kChunk), x + static_cast<size_t>(c) * kChunk, kChunk, mb);
  }
  for (int k = issued > kStages ? issued - kStages : 0; k < issued; ++k)  // the last stages in flight
    if (!wait_parity(tmasim_ptx::smem_u32(&bars[k % kStages]), (k / kStages) & 1)) {
      errors[s] = 1;
      return;
    }
  times[2 * s] = t0;
  times[2 * s + 1] = globaltimer();
}

// After a `stream` launch: its span in ns, first start to last end of the SMs with rank >= 0 (the
// probe ends with a JSON error line if a wait timed out).
inline double stream_span_ns(const std::vector<int>& rank, const unsigned long long* times, const int* errors) {
  const size_t sms = rank.size();
  std::vector<unsigned long long> t(2 * sms);
  std::vector<int> e(sms);
  CK(cudaMemcpy(t.data(), times, t.size() * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(e.data(), errors, e.size() * 4, cudaMemcpyDeviceToHost));
  unsigned long long first = ~0ull, last = 0;
  for (size_t s = 0; s < sms; ++s) {
    if (e[s]) {
      std::printf("{\"error\":\"an mbarrier wait timed out on SM %zu\"}\n", s);
      std::exit(1);
    }
    if (rank[s] < 0) continue;
    first = std::min(first, t[2 * s]);
    last = std::max(last, t[2 * s + 1]);
  }
  return static_cast<double>(last - first);
}

}  // namespace bulk_stream
