// What a bank-conflicted shared-memory access costs the H100 in time (issue 29: conflict-bound
// consumers). The model counts the wavefronts of every access exactly (tests/golden/smem_patterns,
// ncu); this probe times them. One CTA of W warps (1, 2, 4, 8, 16), each issuing N independent
// accesses of one pattern in a rolled loop (8 a trip), the results XORed into a sink so none is
// dead; clock64 around the loop per warp. The 8 accesses of a trip are 4 KiB apart and trips
// alternate between two 32 KiB halves (the same banks), so the compiler can neither merge nor
// hoist them (a first version without this timed hoisted ld.shared: no conflict cost at all).
//   ld.shared.b32, lane l at word l * s (s = 1, 2, 4, 8, 16, 32: a gcd(s, 32)-way conflict);
//   ld.shared.v4.b32 (16 bytes a lane), lane l at 16 * l * s bytes (s = 1, 2, 4, 8);
//   ldmatrix.x4, lane l giving row l at l * S bytes (S = 16: conflict-free; 32, 64, 128: 2-, 4-,
//   8-way within each 8x8 matrix), and at l * 128 XOR ((l % 8) * 16) (the 128B swizzle).
// Prints one JSON object a case: op, param, warps, n, cycles (per warp: median, max).
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o smem_probe smem_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_util.cuh"

enum Op { kLd32 = 0, kLd128 = 1, kLdmatrix = 2, kLdmatrixSwizzled = 3 };

__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

template <int kOp>
__global__ void probe(long long* cycles, unsigned* sink, int param, int n) {
  extern __shared__ __align__(1024) unsigned char smem[];
  for (int i = threadIdx.x; i < 64 * 1024 / 4; i += blockDim.x) reinterpret_cast<unsigned*>(smem)[i] = i * 2654435761u;
  __syncthreads();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned addr;
  if (kOp == kLd32) addr = smem_u32(smem) + 4u * lane * param;
  else if (kOp == kLd128) addr = smem_u32(smem) + 16u * lane * param;
  else if (kOp == kLdmatrix) addr = smem_u32(smem) + static_cast<unsigned>(lane * param);
  else addr = smem_u32(smem) + ((lane * 128u) ^ ((lane % 8u) * 16u));
  unsigned acc = 0;
  __syncwarp();
  const long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < n; i += 8) {
    const unsigned half = ((static_cast<unsigned>(i) >> 3) & 1u) << 15;  // alternate 32 KiB halves: not hoistable
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      if (kOp == kLd32) {
        unsigned v;
        asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr + half + k * 4096u));
        acc ^= v;
      } else if (kOp == kLd128) {
        unsigned a, b, c, d;
        asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr + half + k * 4096u));
        acc ^= a ^ b ^ c ^ d;
      } else {
        unsigned a, b, c, d;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr + half + k * 4096u));
        acc ^= a ^ b ^ c ^ d;
      }
    }
  }
  __syncwarp();
  const long long t1 = clock64();
  if (lane == 0) cycles[warp] = t1 - t0;
  atomicXor(sink, acc);
}

template <int kOp>
void run(const char* name, int param, int warps, int n, long long* d_cycles, unsigned* sink) {
  CK(cudaFuncSetAttribute(probe<kOp>, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  std::vector<double> reps;
  long long worst = 0;
  std::vector<long long> h(static_cast<size_t>(warps));
  for (int rep = 0; rep < 6; ++rep) {  // rep 0 warms up
    probe<kOp><<<1, 32 * warps, 64 * 1024>>>(d_cycles, sink, param, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_cycles, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
    if (rep == 0) continue;
    std::sort(h.begin(), h.end());
    reps.push_back(static_cast<double>(h[h.size() / 2]));
    worst = std::max(worst, h.back());
  }
  std::sort(reps.begin(), reps.end());
  std::printf("{\"op\":\"%s\",\"param\":%d,\"warps\":%d,\"n\":%d,\"median_warp_cycles\":%.0f,\"max_warp_cycles\":%lld}\n",
              name, param, warps, n, reps[reps.size() / 2], worst);
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\"device\":\"%s\",\"sms\":%d}\n", prop.name, prop.multiProcessorCount);
  long long* d_cycles = nullptr;
  unsigned* sink = nullptr;
  CK(cudaMalloc(&d_cycles, sizeof(long long) * 32));
  CK(cudaMalloc(&sink, sizeof(unsigned)));
  for (int warps : {1, 2, 4, 8, 16})
    for (int n : {256, 1024}) {
      for (int s : {1, 2, 4, 8, 16, 32}) run<kLd32>("ld32", s, warps, n, d_cycles, sink);
      for (int s : {1, 2, 4, 8}) run<kLd128>("ld128", s, warps, n, d_cycles, sink);
      for (int stride : {16, 32, 64, 128}) run<kLdmatrix>("ldmatrix_x4", stride, warps, n, d_cycles, sink);
      run<kLdmatrixSwizzled>("ldmatrix_x4_swizzled", 128, warps, n, d_cycles, sink);
    }
  return 0;
}
