// Where a line goes when the other half of the L2 reads it, and what crossing costs (issue 29: the
// model's GEMM feeds whose CTAs share tiles across the chip are 22-24% fast). tests/golden/
// partition_probe found two halves of 66 SMs and that a line read from the far half becomes near its
// new reader; it could not tell a copy (the line then near both halves) from a move (near the new
// reader only). The model has the copy, and a far hit costs latency only.
//   1. The halves, as the partition probe found them: flush, every SM reads its own buffer (256
//      lines), every SM s chases the buffer of SM s + d (d = 1, then 2, to check); a chase over 340
//      cycles a load is far. half[s + 1] = half[s] xor far(s, s + 1).
//   2. Copy or move (latency): SMs paired across the halves (partner), and for contrast within one
//      half. Flush; each SM reads its own buffer ("own"); then chases, in this order: "partner"
//      (the partner's buffer, last read by the partner), "partner_again", "owner_back" (each its own
//      buffer, last read by its partner: near if the partner's read made a copy, far if it moved the
//      lines), "partner_back" (the partner's buffer again). 5 trials.
//   3. What crossing costs (bandwidth): an F MiB buffer X (F = 8, 24) streamed with TMA bulk copies by
//      66 readers (all SMs of one half), X first streamed into the L2 by the SMs of one half (the
//      placer). Cases: "near" (placed by the readers' half), "far" (placed by the other half), "swap"
//      (two buffers, each half reading what the other placed, at once: both directions), then for
//      "far" a second read by the readers and a read "back" by the placers (slow again if the
//      readers' read moved the lines). 5 repetitions each; %globaltimer from first start to last end.
// Writes JSON lines to stdout (the device, the halves, one line a trial or a case).
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I model/cuda -o migration_probe \
//        tb/gpu/migration_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "bulk_stream.cuh"

using namespace bulk_stream;

constexpr int kSms = 132, kLines = 256;

// The CTA on SM s chases buf[target[s]] (target -1: nothing): lat[s] the mean cycles a load.
__global__ void chase(const unsigned* buf, const int* target, unsigned* lat) {
  if (threadIdx.x != 0) return;
  const unsigned s = smid();
  if (target[s] < 0) return;
  lat[s] = chase_lines(buf + static_cast<size_t>(target[s]) * kLines * kWords, kLines);
}

struct Probe {
  unsigned *buf = nullptr, *sink = nullptr, *lat = nullptr;
  int *target = nullptr, *rank = nullptr, *group = nullptr, *count = nullptr, *errors = nullptr;
  long long* offset = nullptr;
  unsigned long long* times = nullptr;
  unsigned char *x = nullptr, *flush_buf = nullptr;
  const size_t flush_bytes = size_t{256} << 20;
  const int smem = kStages * kChunk;
  int flushes = 0;

  void flush() { CK(cudaMemset(flush_buf, ++flushes & 0xff, flush_bytes)); }
  void place_own() {
    bulk_stream::read_own<<<kSms, 32, smem>>>(buf, kLines, sink);
    CK(cudaGetLastError());
  }
  std::vector<unsigned> chase_targets(const std::vector<int>& t) {
    CK(cudaMemcpy(target, t.data(), kSms * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(lat, 0, kSms * 4));
    chase<<<kSms, 32, smem>>>(buf, target, lat);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> l(kSms);
    CK(cudaMemcpy(l.data(), lat, kSms * 4, cudaMemcpyDeviceToHost));
    return l;
  }
  // One stream: readers[g] stream buffer g (at offset g * bytes of x); the span in ns.
  double stream_by(const std::vector<std::vector<int>>& readers, int chunks, long long bytes) {
    std::vector<int> r(kSms, -1), grp(kSms, 0), n;
    std::vector<long long> off;
    for (size_t g = 0; g < readers.size(); ++g) {
      int k = 0;
      for (int s : readers[g]) {
        r[s] = k++;
        grp[s] = static_cast<int>(g);
      }
      n.push_back(k);
      off.push_back(static_cast<long long>(g) * bytes);
    }
    CK(cudaMemcpy(rank, r.data(), kSms * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(group, grp.data(), kSms * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(count, n.data(), n.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(offset, off.data(), off.size() * 8, cudaMemcpyHostToDevice));
    CK(cudaMemset(times, 0, kSms * 16));
    stream<<<kSms, 32, smem>>>(x, chunks, rank, group, count, offset, times, errors);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    return stream_span_ns(r, times, errors);
  }
};

void print_list(const char* key, const std::vector<unsigned>& v) {
  std::printf("\"%s\":[", key);
  for (size_t i = 0; i < v.size(); ++i) std::printf("%s%u", i ? "," : "", v[i]);
  std::printf("]");
}

// 1. Each SM's half relative to SM 0, from the chases at distance 1 (and 2 to check).
std::vector<int> find_halves(Probe& p) {
  std::vector<std::vector<unsigned>> at(3);
  for (int d = 1; d <= 2; ++d) {
    std::vector<int> t(kSms);
    for (int s = 0; s < kSms; ++s) t[s] = (s + d) % kSms;
    p.flush();
    p.place_own();
    at[d] = p.chase_targets(t);
  }
  std::vector<int> half(kSms, 0);
  for (int s = 0; s + 1 < kSms; ++s) half[s + 1] = half[s] ^ (at[1][s] > 340);
  int mismatches = 0;
  for (int s = 0; s < kSms; ++s) mismatches += (half[s] != half[(s + 2) % kSms]) != (at[2][s] > 340);
  std::printf("{\"halves\":[");
  for (int s = 0; s < kSms; ++s) std::printf("%s%d", s ? "," : "", half[s]);
  std::printf("],\"half_sizes\":[%d,%d],\"d2_mismatches\":%d,",
              static_cast<int>(std::count(half.begin(), half.end(), 0)),
              static_cast<int>(std::count(half.begin(), half.end(), 1)), mismatches);
  print_list("d1", at[1]);
  std::printf(",");
  print_list("d2", at[2]);
  std::printf("}\n");
  return half;
}

// 2. Copy or move: each trial a flush, "own", then four chases.
void copy_or_move(Probe& p, const std::vector<int>& partner, const char* pairing) {
  std::vector<int> self(kSms);
  std::iota(self.begin(), self.end(), 0);
  for (int trial = 0; trial < 5; ++trial) {
    p.flush();
    p.place_own();
    const auto a = p.chase_targets(partner);
    const auto b = p.chase_targets(partner);
    const auto c = p.chase_targets(self);
    const auto d = p.chase_targets(partner);
    std::printf("{\"pairing\":\"%s\",\"trial\":%d,", pairing, trial);
    print_list("partner", a);
    std::printf(",");
    print_list("partner_again", b);
    std::printf(",");
    print_list("owner_back", c);
    std::printf(",");
    print_list("partner_back", d);
    std::printf("}\n");
  }
}

// 3. Bandwidth of first reads by one half of lines placed by either half, and both directions at once.
void crossing(Probe& p, const std::vector<int>& h0, const std::vector<int>& h1) {
  for (int mib : {8, 24}) {
    const long long bytes = static_cast<long long>(mib) << 20;
    const int chunks = static_cast<int>(bytes / kChunk);
    for (int rep = 0; rep < 5; ++rep) {
      for (int readers_half = 0; readers_half < 2; ++readers_half) {
        const auto& readers = readers_half ? h1 : h0;
        const auto& others = readers_half ? h0 : h1;
        p.flush();
        (void)p.stream_by({readers}, chunks, bytes);
        const double near = p.stream_by({readers}, chunks, bytes);
        p.flush();
        (void)p.stream_by({others}, chunks, bytes);
        const double far = p.stream_by({readers}, chunks, bytes);
        const double far_again = p.stream_by({readers}, chunks, bytes);
        const double back = p.stream_by({others}, chunks, bytes);
        std::printf("{\"mib\":%d,\"rep\":%d,\"readers_half\":%d,\"readers\":%zu,\"near_ns\":%.0f,\"far_ns\":%.0f,"
                    "\"far_again_ns\":%.0f,\"back_ns\":%.0f}\n",
                    mib, rep, readers_half, readers.size(), near, far, far_again, back);
      }
      // Both directions at once: half 0 places buffer 0 and half 1 buffer 1, then each reads the other's.
      p.flush();
      (void)p.stream_by({h0, h1}, chunks, bytes);
      const double own_both = p.stream_by({h0, h1}, chunks, bytes);  // each its own again: near
      p.flush();
      (void)p.stream_by({h0, h1}, chunks, bytes);
      const double swap = p.stream_by({h1, h0}, chunks, bytes);
      std::printf("{\"mib\":%d,\"rep\":%d,\"both\":true,\"own_ns\":%.0f,\"swap_ns\":%.0f}\n", mib, rep, own_both, swap);
    }
  }
}

int main() {
  require_sms_and_print_device(kSms);
  Probe p;
  std::vector<unsigned> host(static_cast<size_t>(kSms) * kLines * kWords, 0);
  std::mt19937 rng(1);
  for (int s = 0; s < kSms; ++s) {  // each buffer a random cycle over its lines
    std::vector<unsigned> order(kLines);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin() + 1, order.end(), rng);
    for (int k = 0; k < kLines; ++k) host[(static_cast<size_t>(s) * kLines + order[k]) * kWords] = order[(k + 1) % kLines];
  }
  CK(cudaMalloc(&p.buf, host.size() * 4));
  CK(cudaMemcpy(p.buf, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&p.sink, kSms * 4));
  CK(cudaMalloc(&p.lat, kSms * 4));
  CK(cudaMalloc(&p.target, kSms * 4));
  CK(cudaMalloc(&p.rank, kSms * 4));
  CK(cudaMalloc(&p.group, kSms * 4));
  CK(cudaMalloc(&p.count, 2 * 4));
  CK(cudaMalloc(&p.offset, 2 * 8));
  CK(cudaMalloc(&p.errors, kSms * 4));
  CK(cudaMemset(p.errors, 0, kSms * 4));
  CK(cudaMalloc(&p.times, kSms * 16));
  CK(cudaMalloc(&p.x, size_t{48} << 20));
  CK(cudaMemset(p.x, 1, size_t{48} << 20));
  CK(cudaMalloc(&p.flush_buf, p.flush_bytes));
  for (const void* f : {reinterpret_cast<const void*>(read_own), reinterpret_cast<const void*>(chase),
                        reinterpret_cast<const void*>(stream)})
    CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, p.smem));

  const std::vector<int> half = find_halves(p);
  std::vector<int> h0, h1;
  for (int s = 0; s < kSms; ++s) (half[s] ? h1 : h0).push_back(s);
  const size_t pairs = std::min(h0.size(), h1.size());
  if (pairs < 8) {
    std::printf("{\"error\":\"fewer than 8 SMs in one half\"}\n");
    return 1;
  }
  std::vector<int> across(kSms, -1), within(kSms, -1);
  for (size_t i = 0; i < pairs; ++i) {
    across[h0[i]] = h1[i];
    across[h1[i]] = h0[i];
  }
  for (const auto* h : {&h0, &h1})
    for (size_t i = 0; i + 1 < h->size(); i += 2) {
      within[(*h)[i]] = (*h)[i + 1];
      within[(*h)[i + 1]] = (*h)[i];
    }
  copy_or_move(p, across, "across");
  copy_or_move(p, within, "within");
  crossing(p, h0, h1);
  return 0;
}
