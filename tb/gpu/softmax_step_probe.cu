// What one step of flash attention's online softmax costs a consumer warpgroup on the H100, with no
// GEMM beside it: the fragment of S = Q K^T a thread holds after m64nBNk16 (BN/2 f32 in two rows),
// the row maxima (quad shuffles), the rescale factor, P = 2^(S scale - max) on the SFU
// (ex2.approx.ftz, as FlashAttention-3 and cuDNN issue it), the row sums, O (D/2 f32) rescaled and
// P packed to f16 pairs for the next wgmma's A registers. The fragment is made opaque to the
// compiler each step at no cost (an empty asm), so nothing is hoisted out of the loop.
// One CTA per SM (132), NWG consumer warpgroups each running the steps at once; per warp the
// median clock64 cycles a step over steps 8..STEPS-1. Prints one JSON line per (BN, D, NWG).
//   nvcc -gencode arch=compute_90a,code=sm_90a -std=c++17 -O3 -o softmax_step_probe tb/gpu/softmax_step_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kSteps = 64;

__device__ __forceinline__ float ex2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

template <int BN, int D>
__global__ void __launch_bounds__(256, 1) softmax_steps(long long* cycles, float* sink) {
  float s[BN / 2], o[D / 2], m[2] = {-1e30f, -1e30f}, l[2] = {0.f, 0.f};
  for (int i = 0; i < BN / 2; ++i) s[i] = float((threadIdx.x * 7 + i * 13) % 17) * 0.25f;
  for (int i = 0; i < D / 2; ++i) o[i] = 1.f;
  uint32_t pk = 0;
  const float scale = 0.125f * 1.44269504f;
  for (int step = 0; step < kSteps; ++step) {
    for (int i = 0; i < BN / 2; ++i) asm volatile("" : "+f"(s[i]));
    for (int i = 0; i < D / 2; ++i) asm volatile("" : "+f"(o[i]));
    const long long t0 = clock64();
    float corr[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float mx = -1e30f;
#pragma unroll
      for (int i = 0; i < BN / 2; ++i)
        if ((i / 2) % 2 == h) mx = fmaxf(mx, s[i]);
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float new_m = fmaxf(m[h], mx * scale);
      corr[h] = ex2(m[h] - new_m);
      m[h] = new_m;
      float sum = 0.f;
#pragma unroll
      for (int i = 0; i < BN / 2; ++i)
        if ((i / 2) % 2 == h) {
          s[i] = ex2(s[i] * scale - new_m);
          sum += s[i];
        }
      l[h] = l[h] * corr[h] + sum;
    }
#pragma unroll
    for (int i = 0; i < D / 2; ++i) o[i] *= corr[(i / 2) % 2];
#pragma unroll
    for (int i = 0; i < BN / 2; i += 2) {
      uint32_t p;
      asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(s[i + 1]), "f"(s[i]));
      pk ^= p;
    }
    asm volatile("" ::"r"(pk));
    for (int i = 0; i < D / 2; ++i) asm volatile("" ::"f"(o[i]));  // the rescale inside the window
    asm volatile("" ::"f"(l[0]), "f"(l[1]));
    const long long t1 = clock64();
    if (threadIdx.x % 32 == 0) cycles[(blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * kSteps + step] = t1 - t0;
  }
  float acc = l[0] + l[1] + float(pk & 1);
  for (int i = 0; i < D / 2; ++i) acc += o[i];
  if (acc == 12345.678f) sink[threadIdx.x] = acc;
}

template <int BN, int D>
void run(int nwg) {
  const int ctas = 132, threads = 128 * nwg, warps = ctas * threads / 32;
  long long* d_cycles = nullptr;
  float* d_sink = nullptr;
  cudaMalloc(&d_cycles, sizeof(long long) * warps * kSteps);
  cudaMalloc(&d_sink, sizeof(float) * 256);
  // One CTA per SM: ask for most of the shared memory.
  const int smem = 200 * 1024;
  cudaFuncSetAttribute(softmax_steps<BN, D>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  std::vector<double> med;
  for (int rep = 0; rep < 5; ++rep) {
    softmax_steps<BN, D><<<ctas, threads, smem>>>(d_cycles, d_sink);
    cudaDeviceSynchronize();
    std::vector<long long> c(size_t(warps) * kSteps);
    cudaMemcpy(c.data(), d_cycles, sizeof(long long) * c.size(), cudaMemcpyDeviceToHost);
    std::vector<long long> v;
    for (int w = 0; w < warps; ++w)
      for (int s = 8; s < kSteps; ++s) v.push_back(c[size_t(w) * kSteps + s]);
    std::sort(v.begin(), v.end());
    med.push_back(double(v[v.size() / 2]));
  }
  std::sort(med.begin(), med.end());
  const cudaError_t e = cudaGetLastError();
  std::printf("{\"bn\": %d, \"d\": %d, \"warpgroups\": %d, \"step_cycles\": {\"median\": %.1f, \"min\": %.1f, \"max\": %.1f}, \"error\": \"%s\"}\n",
              BN, D, nwg, med[med.size() / 2], med.front(), med.back(), cudaGetErrorName(e));
  cudaFree(d_cycles);
  cudaFree(d_sink);
}

int main() {
  for (int nwg = 1; nwg <= 2; ++nwg) {
    run<128, 64>(nwg);
    run<128, 128>(nwg);
    run<64, 128>(nwg);
    run<176, 128>(nwg);
  }
  return 0;
}
