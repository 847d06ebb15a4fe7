// The bandwidth of hits on lines the L2 holds away from the reading SM (issue 29: the GEMM feed at
// real size is 22% fast in the model, whose far hit costs 78 cycles of latency and no bandwidth).
// TMA bulk copies (8 stages of 16 KiB in flight an SM, far more than latency needs) stream an F MiB
// buffer X:
//   1. the SMs' distance from SM 0: after a flush, the CTA on SM 0 reads a set of lines for every SM
//      s; then the CTA on each SM s chases its set (dependent ld.global.cg), three times. The medians
//      fall in three levels (~295, ~380, ~460 cycles a load); "near" is the first level (SM 0
//      excluded), "far" the third, in equal numbers.
//   2. for n = 8, 16 and all far SMs, near or far, each case 5 times: flush the L2 (a 256 MiB
//      memset); X streamed into the L2 by nobody, by SM 0 or by the readers themselves; then the n
//      readers stream X, timed (%globaltimer, first CTA start to last CTA end), and once more.
//      Each reader takes every n-th 16 KiB chunk; one CTA an SM (200 KB of shared memory).
// Writes JSON lines to stdout: the device, {"level_of_sm": [...], "trials": [[cycles per SM] x 3]},
// then one line a case: {"mib", "placer", "reader", "readers", "rep", "first_ns", "second_ns"}.
// scripts/far_bandwidth_summary.py prints the medians.
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I model/cuda -o far_bandwidth_probe \
//        tb/gpu/far_bandwidth_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bulk_stream.cuh"

constexpr int kSms = 132, kChaseLines = 64;
using namespace bulk_stream;

// The CTA on SM 0 reads every chase set (each a random cycle over kChaseLines lines).
__global__ void place_on_sm0(const unsigned* h, unsigned* sink) {
  if (threadIdx.x != 0 || smid() != 0) return;
  unsigned acc = 0;
  for (int s = 0; s < kSms; ++s)
    for (int i = 0; i < kChaseLines; ++i) acc += load_cg(h + (static_cast<size_t>(s) * kChaseLines + i) * kWords);
  sink[0] = acc;
}
// The CTA on SM s chases its set: mean cycles a load.
__global__ void chase(const unsigned* h, unsigned* cycles) {
  if (threadIdx.x != 0) return;
  const unsigned s = smid();
  cycles[s] = chase_lines(h + static_cast<size_t>(s) * kChaseLines * kWords, kChaseLines);
}

struct Probe {
  unsigned char *x = nullptr, *flush = nullptr;
  int *rank = nullptr, *errors = nullptr, *group = nullptr, *count = nullptr;
  long long* offset = nullptr;
  unsigned long long* times = nullptr;
  size_t flush_bytes = size_t{256} << 20;
  int smem = 200 * 1024;

  // The span of one stream of `chunks` chunks by the SMs in `sms`.
  double run(int chunks, const std::vector<int>& sms) {
    std::vector<int> r(kSms, -1);
    int n = 0;
    for (int s : sms) r[s] = n++;
    CK(cudaMemcpy(rank, r.data(), kSms * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(count, &n, 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(times, 0, kSms * 16));
    stream<<<kSms, 32, smem>>>(x, chunks, rank, group, count, offset, times, errors);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    return stream_span_ns(r, times, errors);
  }
};

int main() {
  require_sms_and_print_device(kSms);
  Probe p;
  const size_t max_bytes = size_t{32} << 20;
  CK(cudaMalloc(&p.x, max_bytes));
  CK(cudaMemset(p.x, 1, max_bytes));
  CK(cudaMalloc(&p.flush, p.flush_bytes));
  CK(cudaMalloc(&p.rank, kSms * 4));
  CK(cudaMalloc(&p.errors, kSms * 4));
  CK(cudaMemset(p.errors, 0, kSms * 4));
  CK(cudaMalloc(&p.times, kSms * 16));
  CK(cudaMalloc(&p.group, kSms * 4));
  CK(cudaMemset(p.group, 0, kSms * 4));  // one buffer: group 0 for every SM
  CK(cudaMalloc(&p.count, 4));
  CK(cudaMalloc(&p.offset, 8));
  CK(cudaMemset(p.offset, 0, 8));
  CK(cudaFuncSetAttribute(stream, cudaFuncAttributeMaxDynamicSharedMemorySize, p.smem));
  CK(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize, p.smem));
  CK(cudaFuncSetAttribute(place_on_sm0, cudaFuncAttributeMaxDynamicSharedMemorySize, p.smem));

  // 1. The halves.
  std::vector<unsigned> host(static_cast<size_t>(kSms) * kChaseLines * kWords, 0);
  std::mt19937 rng(7);
  for (int s = 0; s < kSms; ++s) {
    std::vector<unsigned> order(kChaseLines);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin() + 1, order.end(), rng);
    for (int k = 0; k < kChaseLines; ++k)
      host[(static_cast<size_t>(s) * kChaseLines + order[k]) * kWords] = order[(k + 1) % kChaseLines];
  }
  unsigned *h, *cycles;
  CK(cudaMalloc(&h, host.size() * 4));
  CK(cudaMalloc(&cycles, kSms * 4));
  CK(cudaMemcpy(h, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  std::vector<std::vector<unsigned>> trials;
  for (int trial = 0; trial < 3; ++trial) {
    CK(cudaMemset(p.flush, trial, p.flush_bytes));
    place_on_sm0<<<kSms, 32, p.smem>>>(h, cycles);
    CK(cudaGetLastError());
    chase<<<kSms, 32, p.smem>>>(h, cycles);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> c(kSms);
    CK(cudaMemcpy(c.data(), cycles, kSms * 4, cudaMemcpyDeviceToHost));
    trials.push_back(c);
  }
  // Each SM's level: near (< 340 cycles), far (> 420) or between, by the median of three trials.
  std::vector<int> level(kSms);
  for (int s = 0; s < kSms; ++s) {
    std::vector<unsigned> v = {trials[0][s], trials[1][s], trials[2][s]};
    std::sort(v.begin(), v.end());
    level[s] = v[1] < 340 ? 0 : v[1] > 420 ? 2 : 1;
  }
  std::vector<int> near, far;
  for (int s = 1; s < kSms; ++s) {
    if (level[s] == 2) far.push_back(s);
    if (level[s] == 0) near.push_back(s);
  }
  std::printf("{\"level_of_sm\":[");
  for (int s = 0; s < kSms; ++s) std::printf("%s%d", s ? "," : "", level[s]);
  std::printf("],\"trials\":[");
  for (int t = 0; t < 3; ++t) {
    std::printf("%s[", t ? "," : "");
    for (int s = 0; s < kSms; ++s) std::printf("%s%u", s ? "," : "", trials[t][s]);
    std::printf("]");
  }
  std::printf("]}\n");
  const size_t group = std::min(near.size(), far.size());
  if (group < 8) {
    std::printf("{\"error\":\"fewer than 8 far SMs\"}\n");
    return 1;
  }
  const std::vector<int> sm0 = {0};
  // 2. The cases: who places X (nobody, SM 0, or the readers themselves), who reads it (n of the
  // near SMs or n of the far ones, n = 8, 16 and as many as there are far SMs).
  const char* placers[] = {"none", "sm0", "self"};
  for (int mib : {8, 24}) {
    const int chunks = mib * 1024 * 1024 / kChunk;
    for (size_t n : {size_t{8}, size_t{16}, group})
      for (int rep = 0; rep < 5; ++rep)
        for (int placer = 0; placer < 3; ++placer)
          for (int far_side = 0; far_side < 2; ++far_side) {
            const std::vector<int> readers((far_side ? far : near).begin(), (far_side ? far : near).begin() + n);
            CK(cudaMemset(p.flush, rep + mib, p.flush_bytes));
            if (placer == 1) (void)p.run(chunks, sm0);
            if (placer == 2) (void)p.run(chunks, readers);
            const double first = p.run(chunks, readers);
            const double second = p.run(chunks, readers);
            std::printf("{\"mib\":%d,\"placer\":\"%s\",\"reader\":\"%s\",\"readers\":%zu,\"rep\":%d,"
                        "\"first_ns\":%.0f,\"second_ns\":%.0f}\n",
                        mib, placers[placer], far_side ? "far" : "near", n, rep, first, second);
          }
  }
  return 0;
}
