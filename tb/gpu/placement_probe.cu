// Where consecutive launches of one kernel place its CTAs (issue 29: the L2 halves' copies).
// The scenario harness times a warm L2 after an untimed warm-up launch of the same kernel; the dram
// probe's footprints that a CTA reads once (fit_f48) were not resident warm on the H100 where one LRU
// table of 50 MiB holds them. Its results record a different CTA -> SM map for each scenario (each a
// process of its own). If consecutive launches in one process also move a CTA to another SM (of the
// other L2 half), the warm run reads the warm-up's lines from the far half, and a copy in each half
// would take the room the model does not count. This probe records, for sequences of launches as the
// harness makes them, the SM of every CTA of every launch.
// Sequences (each 12 launches of a kernel that records %smid and spins 20 us by %globaltimer):
//   warm        before each launch the harness's three small record memsets (cudaMemsetAsync)
//   cold        a 256 MiB memset, then the same
//   cold_clean  the cold memset, a read kernel of 1024 x 256 threads over 96 MiB, then the same
//   bare        launches back to back, nothing between
// at grids of 132 CTAs with 200 KiB of dynamic shared memory (one an SM, as most scenarios), and bare
// also at 66, 128 and 264 CTAs and at 132 CTAs without the shared memory (several an SM possible).
// Writes one JSON line a launch: {"seq", "grid", "smem", "launch", "smid": [...]}.
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o placement_probe placement_probe.cu
//   ./placement_probe > placement_probe.jsonl
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "probe_util.cuh"

__device__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The dynamic shared memory a launch asks for decides how many CTAs fit an SM; the kernel needs none.
__global__ void record(unsigned* smid_out, unsigned long long spin_ns) {
  if (threadIdx.x == 0) {
    smid_out[blockIdx.x] = smid();
    const unsigned long long t0 = globaltimer_ns();
    while (globaltimer_ns() - t0 < spin_ns) {
    }
  }
}

__global__ void read_all(const uint4* p, size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) acc ^= p[i].x;
  if (acc == 0x12345678u) *sink = acc;
}

int main() {
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\"device\":\"%s\",\"sms\":%d,\"l2_bytes\":%d}\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize);
  const size_t flush_bytes = size_t{256} << 20, read_bytes = size_t{96} << 20;
  unsigned char* flush = nullptr;
  unsigned *d_smid = nullptr, *sink = nullptr, *rec = nullptr;
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaMalloc(&d_smid, sizeof(unsigned) * 1024));
  CK(cudaMalloc(&sink, sizeof(unsigned)));
  CK(cudaMalloc(&rec, 3 << 20));
  const int big = 200 << 10;
  CK(cudaFuncSetAttribute(record, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
  std::vector<unsigned> h(1024);
  auto run = [&](const char* seq, int grid, int smem, int launches) {
    for (int l = 0; l < launches; ++l) {
      const bool cold = std::string(seq) == "cold" || std::string(seq) == "cold_clean";
      if (cold) CK(cudaMemsetAsync(flush, l & 0xff, flush_bytes));
      if (std::string(seq) == "cold_clean") {
        read_all<<<1024, 256>>>(reinterpret_cast<const uint4*>(flush), read_bytes / 16, sink);
        CK(cudaGetLastError());
      }
      if (std::string(seq) != "bare") {
        CK(cudaMemsetAsync(rec, 0, 1 << 20));
        CK(cudaMemsetAsync(rec + (1 << 18), 0, 1 << 20));
        CK(cudaMemsetAsync(rec + (2 << 18), 0, 1 << 20));
      }
      record<<<grid, 128, smem>>>(d_smid, 20000);
      CK(cudaGetLastError());
      if (std::string(seq) != "bare") CK(cudaDeviceSynchronize());
      CK(cudaMemcpyAsync(h.data(), d_smid, sizeof(unsigned) * grid, cudaMemcpyDeviceToHost));
      CK(cudaDeviceSynchronize());
      std::string s;
      for (int c = 0; c < grid; ++c) s += (c ? "," : "") + std::to_string(h[c]);
      std::printf("{\"seq\":\"%s\",\"grid\":%d,\"smem\":%d,\"launch\":%d,\"smid\":[%s]}\n", seq, grid, smem, l, s.c_str());
    }
  };
  for (int trial = 0; trial < 2; ++trial) {
    run("warm", 132, big, 12);
    run("cold", 132, big, 12);
    run("cold_clean", 132, big, 12);
    run("bare", 132, big, 12);
    run("bare", 66, big, 12);
    run("bare", 128, big, 12);
    run("bare", 264, big, 12);
    run("bare", 132, 0, 12);
  }
  return 0;
}
