// Throughput of the functional model: 2D tile loads (bytes of tile data per second, next to
// memcpy of the same bytes) and bank-conflict evaluations per second.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "tmasim/conflicts.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/tile_layout.hpp"
#include "tmasim/tma.hpp"

using namespace tmasim;

namespace {

TensorMap tile_map(Swizzle s, int rows) {
  TensorMap m;
  m.dtype = DType::f16;
  m.rank = 2;
  m.global_dims = {4096, 4096};
  m.global_strides = {8192};
  m.box_dims = {64, rows};
  m.element_strides = {1, 1};
  m.swizzle = s;
  return m;
}

void BM_TileLoad(benchmark::State& st) {
  const auto s = static_cast<Swizzle>(st.range(0));
  const int rows = static_cast<int>(st.range(1));
  TensorMap m = tile_map(s, rows);
  std::vector<uint8_t> g(size_t(8192) * 4096), smem(size_t(rows) * 128 + 1024);
  for (size_t i = 0; i < g.size(); i += 4096) g[i] = golden_fill(i);
  TmaInstruction ins;
  ins.coords = {0, 0};
  int64_t bytes = 0;
  int k = 0;
  for (auto _ : st) {
    ins.coords = {64 * (k % 64), rows * (k / 64 % 16)};
    ++k;
    bytes += execute(m, ins, GlobalMemory{g.data(), g.size(), 0}, SharedMemory{smem.data(), smem.size()});
    benchmark::DoNotOptimize(smem.data());
  }
  st.SetBytesProcessed(bytes);
}
BENCHMARK(BM_TileLoad)->ArgsProduct({{0, 3}, {64, 256}})->ArgNames({"swizzle", "rows"});

void BM_Memcpy(benchmark::State& st) {
  const size_t n = static_cast<size_t>(st.range(0));
  std::vector<uint8_t> a(n, 1), b(n);
  for (auto _ : st) {
    std::memcpy(b.data(), a.data(), n);
    benchmark::DoNotOptimize(b.data());
  }
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(n));
}
BENCHMARK(BM_Memcpy)->Arg(8192)->Arg(32768);

void BM_Conflicts16B(benchmark::State& st) {
  TileLayout t;
  t.swizzle = static_cast<Swizzle>(st.range(0));
  WarpAccess a;
  a.op = SmemOp::ldmatrix;
  a.num = 4;
  for (int l = 0; l < 32; ++l) a.addr[l] = t.address(l % 16, (l / 16) * 8);
  for (auto _ : st) benchmark::DoNotOptimize(evaluate(a).wavefronts);
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_Conflicts16B)->Arg(0)->Arg(3)->ArgName("swizzle");

void BM_ConflictsLd128(benchmark::State& st) {
  WarpAccess a;
  a.width = 16;
  for (int l = 0; l < 32; ++l) a.addr[l] = int64_t(l) * st.range(0);
  for (auto _ : st) benchmark::DoNotOptimize(evaluate(a).wavefronts);
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_ConflictsLd128)->Arg(16)->Arg(128)->ArgName("stride");

// Random 16-byte patterns (ld and ldmatrix, addresses within 16 KiB), cycling through a pool.
void BM_ConflictsRandom16B(benchmark::State& st) {
  std::vector<WarpAccess> pool(1024);
  uint64_t x = 42;
  for (size_t i = 0; i < pool.size(); ++i) {
    WarpAccess& a = pool[i];
    a.op = i % 2 ? SmemOp::ld : SmemOp::ldmatrix;
    a.width = 16;
    a.num = 4;
    for (int l = 0; l < 32; ++l) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      a.addr[l] = int64_t((x >> 33) % 1024) * 16;
    }
  }
  size_t k = 0;
  for (auto _ : st) benchmark::DoNotOptimize(evaluate(pool[k++ & 1023]).wavefronts);
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_ConflictsRandom16B);

}  // namespace
