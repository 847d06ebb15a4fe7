// What a kernel's launch costs beyond its CTAs' own time (issue 30: the model's `cycles` run from the
// first CTA's start to the last CTA's end, %globaltimer; a library user times a launch with CUDA
// events or ncu's gpu__time_duration, which also hold the grid's launch and its completion).
//
// For each launch shape (grid, threads, dynamic shared memory, cluster) and CTA work (none, or a
// %globaltimer spin), each repetition: [cold: a 256 MiB write], a one-thread clock64 spin of
// ~100 us (as torch.cuda._sleep: the host enqueues the timed launch while the GPU is busy, so the
// events time the GPU, not the host), event, the probe kernel, event. The kernel's CTAs record
// their first start and last end (%globaltimer, atomicMin/atomicMax), so per repetition
//   overhead = event time - (last end - first start).
// Also `stream`: 20 launches of the same kernel back to back between two events, per launch.
// Medians of 21 repetitions. One JSON object a line on stdout. Nothing waits unbounded.
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o launch_probe launch_probe.cu
//   ./launch_probe > launch_probe.jsonl          (./launch_probe ncu: each shape 3 times, for ncu)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cluster_launch.cuh"
#include "probe_util.cuh"

__device__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void busy(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

__global__ void flush(unsigned* p, size_t n, unsigned v) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = v;
}

// The dynamic shared memory is the CTA's footprint only (how many fit an SM).
// span[0] = first start, span[1] = last end (ns), over all CTAs.
__global__ void probe(unsigned long long* span, unsigned long long spin_ns) {
  const unsigned long long t0 = globaltimer();
  unsigned long long t = t0;
  while (t - t0 < spin_ns) t = globaltimer();
  if (threadIdx.x == 0) {
    atomicMin(&span[0], t0);
    atomicMax(&span[1], globaltimer());
  }
}

struct Shape {
  int grid, threads, smem, cluster;
  unsigned long long spin_ns;
};

static cudaError_t launch(const Shape& s, unsigned long long* span) {
  const ClusterLaunch l(s.grid, s.threads, static_cast<size_t>(s.smem), s.cluster);
  return cudaLaunchKernelEx(&l.cfg, probe, span, s.spin_ns);
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

int main(int argc, char** argv) {
  const bool for_ncu = argc > 1 && std::strcmp(argv[1], "ncu") == 0;
  CK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, 213 * 1024));
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  int mhz = 0;
  CK(cudaDeviceGetAttribute(&mhz, cudaDevAttrClockRate, 0));
  if (!for_ncu) std::printf("{\"device\":\"%s\",\"sms\":%d}\n", prop.name, prop.multiProcessorCount);
  const size_t flush_words = (256u << 20) / 4;
  unsigned* flush_buf = nullptr;
  unsigned long long* span = nullptr;
  CK(cudaMalloc(&flush_buf, flush_words * 4));
  CK(cudaMalloc(&span, 16));
  const unsigned long long init[2] = {~0ull, 0ull};
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int sms = prop.multiProcessorCount;
  std::vector<Shape> shapes;
  for (int grid : {1, 128, sms, 2 * sms, 8 * sms})
    for (int threads : {128, 384})
      for (int smem : {0, 213 * 1024})
        for (int cluster : {1, 2})
          for (unsigned long long spin : {0ull, 20000ull}) {
            if (grid % cluster) continue;
            shapes.push_back({grid, threads, smem, cluster, spin});
          }
  const long long busy_cycles = 100LL * mhz;  // ~100 us at the base clock (kHz * 100 us)
  for (const Shape& s : shapes) {
    if (for_ncu) {
      for (int r = 0; r < 3; ++r) CK(launch(s, span));
      CK(cudaDeviceSynchronize());
      continue;
    }
    for (int w = 0; w < 3; ++w) CK(launch(s, span));
    CK(cudaDeviceSynchronize());
    std::printf("{\"grid\":%d,\"threads\":%d,\"smem\":%d,\"cluster\":%d,\"spin_ns\":%llu", s.grid, s.threads,
                s.smem, s.cluster, s.spin_ns);
    for (int cold = 0; cold < 2; ++cold) {
      std::vector<double> event_us, span_us, over_us;
      for (int r = 0; r < 21; ++r) {
        CK(cudaMemcpy(span, init, 16, cudaMemcpyHostToDevice));
        if (cold) flush<<<4 * sms, 512>>>(flush_buf, flush_words, r);
        busy<<<1, 1>>>(busy_cycles);
        CK(cudaEventRecord(e0));
        CK(launch(s, span));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        unsigned long long h[2];
        CK(cudaMemcpy(h, span, 16, cudaMemcpyDeviceToHost));
        const double sp = (h[1] - h[0]) / 1e3;
        event_us.push_back(ms * 1e3);
        span_us.push_back(sp);
        over_us.push_back(ms * 1e3 - sp);
      }
      std::printf(",\"%s\":{\"event_us\":%.3f,\"span_us\":%.3f,\"overhead_us\":%.3f,\"overhead_min_us\":%.3f}",
                  cold ? "cold" : "warm", median(event_us), median(span_us), median(over_us),
                  *std::min_element(over_us.begin(), over_us.end()));
    }
    std::vector<double> stream_us;
    for (int r = 0; r < 7; ++r) {
      busy<<<1, 1>>>(busy_cycles);
      CK(cudaEventRecord(e0));
      for (int k = 0; k < 20; ++k) CK(launch(s, span));
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      stream_us.push_back(ms * 1e3 / 20);
    }
    std::printf(",\"stream_us_per_launch\":%.3f}\n", median(stream_us));
    std::fflush(stdout);
  }
  return 0;
}
