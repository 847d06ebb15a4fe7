// Which half of the L2 serves which SM (issue 29: L2 capacity and sharing between SMs). The
// dram probe found that a footprint read by SMs of two GPCs takes more of the L2 than one read by
// one SM; the A100/H100 L2 is two partitions, and a partition may keep a copy of a line for the SMs
// near it. Here, for every distance d = 0..131: flush the L2, let the CTA on SM s read its own
// buffer buf[s] (256 lines, 32 KiB), then let the CTA on SM s chase a random cycle through
// buf[(s + d) % 132] with ld.global.cg (L2, not L1), timing the chain (clock64). If a line read by
// SM t sits near t, SM s pays a near or far latency by where s and t are, and the matrix of mean
// latencies splits the SMs into two groups; if a line's place is set by its address alone, every
// pair pays the same mix. A third pass (the same chase again) shows the latency once s has read the
// lines itself. One CTA an SM (200 KB of dynamic shared memory). Writes JSON lines to stdout:
//   {"d": D, "records": [[smid, target_smid, mean_first, mean_again], ...]} (mean cycles a load)
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I model/cuda -I tb/gpu -o partition_probe \
//        tb/gpu/partition_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "bulk_stream.cuh"

using bulk_stream::kWords;
using bulk_stream::load_cg;
using bulk_stream::read_own;

constexpr int kSms = 132, kLines = 256;

// The CTA on SM s chases buf[(s + d) % kSms] twice; lat gets each load's cycles (first pass, then
// the second), target the SM whose buffer it was.
__global__ void chase(const unsigned* buf, int d, unsigned* lat, unsigned* who) {
  if (threadIdx.x != 0) return;
  const unsigned s = smid();
  const unsigned t = (s + d) % kSms;
  const unsigned* b = buf + static_cast<size_t>(t) * kLines * kWords;
  unsigned* out = lat + static_cast<size_t>(s) * 2;
  unsigned i = 0;
  for (int pass = 0; pass < 2; ++pass) {  // each load's address is the last one's value: a chain
    const long long t0 = clock64();
    for (int k = 0; k < kLines; ++k) i = load_cg(b + i * kWords);
    asm volatile("add.u32 %0, %0, 0;" : "+r"(i));
    const long long t1 = clock64();
    out[pass] = static_cast<unsigned>(t1 - t0) + (i >> 31);  // the chain ends where it began: i == 0
  }
  who[s] = t;
}

int main() {
  require_sms_and_print_device(kSms);
  // Each buffer a random cycle over its lines (word 0 of each line holds the next line's index).
  std::vector<unsigned> host(static_cast<size_t>(kSms) * kLines * kWords, 0);
  std::mt19937 rng(1);
  for (int s = 0; s < kSms; ++s) {
    std::vector<unsigned> order(kLines);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin() + 1, order.end(), rng);
    for (int k = 0; k < kLines; ++k) host[(static_cast<size_t>(s) * kLines + order[k]) * kWords] = order[(k + 1) % kLines];
  }
  unsigned *buf, *sink, *lat, *who;
  unsigned char* flush;
  const size_t flush_bytes = size_t{256} << 20;
  CK(cudaMalloc(&buf, host.size() * 4));
  CK(cudaMalloc(&sink, kSms * 4));
  CK(cudaMalloc(&lat, size_t{kSms} * 2 * kLines * 4));
  CK(cudaMalloc(&who, kSms * 4));
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaMemcpy(buf, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  const int smem = 200 * 1024;
  CK(cudaFuncSetAttribute(read_own, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::vector<unsigned> l(size_t{kSms} * 2), w(kSms);
  for (int d = 0; d < kSms; ++d) {
    CK(cudaMemset(flush, d & 0xff, flush_bytes));
    read_own<<<kSms, 32, smem>>>(buf, kLines, sink);
    CK(cudaGetLastError());
    CK(cudaMemset(who, 0xff, kSms * 4));
    chase<<<kSms, 32, smem>>>(buf, d, lat, who);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(l.data(), lat, l.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(w.data(), who, w.size() * 4, cudaMemcpyDeviceToHost));
    std::printf("{\"d\":%d,\"records\":[", d);
    for (int s = 0; s < kSms; ++s) {
      std::printf("%s[%d,%d,%.1f,%.1f]", s ? "," : "", s, static_cast<int>(w[s]), l[s * 2] / double(kLines),
                  l[s * 2 + 1] / double(kLines));
    }
    std::printf("]}\n");
  }
  return 0;
}
