// The timing model moves real bytes: after TMA loads (swizzled, partly out of bounds,
// multicast to a second CTA) and a store, every CTA's shared memory and the global memory
// equal what the functional model computes for the same instructions.
#include <systemc>

#include <cstdio>
#include <string>

#include "simulation.hpp"
#include "tmasim/golden.hpp"

using namespace tmasim;

// L2 promotion: two tensors, identical but for promotion (none / 256 bytes), each loaded as two
// 8-row boxes of 64 bytes, at columns 0 and 128 bytes (neighbouring 128-byte lines). Without
// promotion all 32 row requests miss; with it the second box's 8 rows hit the first's fill.
int promotion_experiment(const sc::TimingConfig& cfg) {
  sc::Experiment e;
  e.cfg = cfg;
  std::vector<uint8_t> global(2 * 256 * 8);
  e.global = &global;
  for (int k = 0; k < 2; ++k) {
    TensorMap m;
    m.dtype = DType::u8;
    m.rank = 2;
    m.global_dims = {256, 8};
    m.global_strides = {256};
    m.box_dims = {64, 8};
    m.element_strides = {1, 1};
    m.l2_promotion = k ? L2Promotion::b256 : L2Promotion::none;
    m.global_address = static_cast<uint64_t>(k) * 256 * 8;
    e.maps.push_back(m);
  }
  sc::CtaProgram p;
  p.steps().push_back(sc::Step::arrive(0, 4 * 64 * 8));
  for (int k = 0; k < 2; ++k)
    for (int col : {0, 128}) {
      sc::Step ld{sc::Step::Kind::load};
      ld.map = k;
      ld.ins.coords = {col, 0};
      ld.ins.smem_offset = static_cast<uint32_t>((2 * k + (col ? 1 : 0)) * 1024);
      p.steps().push_back(ld);
    }
  p.steps().push_back(sc::Step::wait(0, 0));
  e.ctas = {p};
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc::Measurement m = sc::run_experiment(e);
  const bool ok = m.l2_misses == 24 && m.l2_hits == 8;
  std::printf("L2 promotion: %llu hits, %llu misses (want 8 and 24)\n", (unsigned long long)m.l2_hits,
              (unsigned long long)m.l2_misses);
  std::printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
  return ok ? 0 : 1;
}

int sc_main(int argc, char* argv[]) {
  if (argc > 2 && std::string(argv[2]) == "promotion")
    return promotion_experiment(sc::TimingConfig::from_json_file(argv[1]));
  sc::Experiment e;
  e.cfg = argc > 1 ? sc::TimingConfig::from_json_file(argv[1]) : sc::TimingConfig{};
  TensorMap a;
  a.dtype = DType::f16;
  a.rank = 2;
  a.global_dims = {200, 60};
  a.global_strides = {512};
  a.box_dims = {64, 32};
  a.element_strides = {1, 1};
  a.swizzle = Swizzle::b128;
  a.oob_fill = OobFill::nan;
  e.maps.push_back(a);
  std::vector<uint8_t> global(512 * 60 + 256);
  for (size_t i = 0; i < global.size(); ++i) global[i] = golden_fill(i);
  const std::vector<uint8_t> initial = global;
  e.global = &global;
  auto load = [](std::vector<int32_t> c, uint32_t off, int mc) {
    sc::Step s{sc::Step::Kind::load};
    s.ins.coords = std::move(c);
    s.ins.smem_offset = off;
    s.multicast = mc;
    return s;
  };
  sc::CtaProgram p0, p1;
  p0.cluster_size = p1.cluster_size = 2;
  p1.cluster_rank = 1;
  p1.sm = 1;
  const int64_t box = a.transaction_bytes();
  p0.steps().push_back(sc::Step::arrive(0, 2 * box));
  p0.steps().push_back(load({64, 40}, 0, 2));     // rows 40..71: partly past the tensor
  p0.steps().push_back(load({160, -8}, 8192, 2));  // columns 160..223, rows -8..23
  p0.steps().push_back(sc::Step::wait(0, 0));
  sc::Step st{sc::Step::Kind::store};
  st.ins.op = Op::store;
  st.ins.coords = {0, 4};
  st.ins.smem_offset = 0;
  p0.steps().push_back(st);
  p0.steps().push_back({sc::Step::Kind::wait_stores});
  p1.steps().push_back(sc::Step::arrive(0, 2 * box));
  p1.steps().push_back(sc::Step::wait(0, 0));
  e.ctas = {p0, p1};
  std::vector<std::vector<uint8_t>> smem;
  e.smem_out = &smem;
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc::Measurement m = sc::run_experiment(e);

  // The same instructions on the functional model alone.
  std::vector<uint8_t> want_global = initial, want_smem(e.cfg.smem.size_bytes, 0);
  GlobalMemory g{want_global.data(), want_global.size(), 0};
  SharedMemory s{want_smem.data(), want_smem.size()};
  for (const auto& step : {p0.steps()[1], p0.steps()[2]}) execute(a, step.ins, g, s);
  execute(a, st.ins, g, s);
  int passed = 0, failed = 0;
  auto check = [&](bool ok, const char* what) {
    ok ? ++passed : ++failed;
    if (!ok) std::printf("FAIL %s\n", what);
  };
  check(smem.size() == 2, "two shared memories");
  check(smem.size() == 2 && smem[0] == want_smem, "CTA 0 shared memory equals the functional model");
  check(smem.size() == 2 && smem[1] == want_smem, "multicast: CTA 1 shared memory equals it too");
  check(global == want_global, "global memory after the store equals the functional model");
  check(m.ops == 3 && m.end_cycles > m.start_cycles, "three operations and a positive duration");
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
