#include "timing_records.hpp"

#include <algorithm>

#include "tmasim/golden.hpp"

namespace tmasim::sc {

namespace {

constexpr int64_t kMaxGlobal = int64_t(1) << 30;  // bytes of global memory a record may need

// The record's tensor map: valid for the driver, tiled, rank 2 or more (records walk dimension 1).
TensorMap record_map(const Fields& r) {
  TensorMap m = parse_tensor_map(r.at("tensor_map"), r.where() + ": tensor_map");
  if (auto bad = validate(m)) r.fail("tensor_map: " + bad->rule + ": " + bad->message);
  if (m.mode != TensorMode::tiled || m.rank < 2) r.fail("timing records need a tiled tensor map of rank 2 or more");
  return m;
}

std::vector<int32_t> coords_of(const Fields& r, const char* key, int rank) {
  std::vector<int32_t> v;
  for (int64_t x : r.integers(key, static_cast<size_t>(rank), static_cast<size_t>(rank), INT32_MIN / 4, INT32_MAX / 4))
    v.push_back(static_cast<int32_t>(x));
  return v;
}

// Global memory for `rows` rows of dimension 1, filled with the golden pattern.
void fill_global(const Fields& r, TensorMap& m, int64_t rows, std::vector<uint8_t>& global) {
  m.global_dims[1] = std::max<int64_t>(1, std::min<int64_t>(m.global_dims[1], rows));
  int64_t bytes = 0;
  if (__builtin_mul_overflow(m.global_strides[0], m.global_dims[1], &bytes) || bytes > kMaxGlobal - 256)
    r.fail("the record needs more than 1 GiB of global memory");
  bytes += 256;
  global.assign(static_cast<size_t>(bytes), 0);
  for (size_t i = 0; i < global.size(); ++i) global[i] = golden_fill(i);
}

}  // namespace

// A burst: CTA 0 issues `loads` copies back to back on one barrier (after an identical
// warm-up round for warm L2); multicast clusters' other CTAs only wait for their copy.
Experiment burst_experiment(const Fields& r, const sc::TimingConfig& cfg, std::vector<uint8_t>& global,
                            bool issue_from_record) {
  Experiment e;
  e.cfg = cfg;
  TensorMap m = record_map(r);
  const int loads = static_cast<int>(r.integer("loads", 1, 256));
  const std::string op = r.string_or("op", "load");
  if (op != "load" && op != "store") r.fail("op must be load or store");
  const bool store = op == "store";
  const int mc = static_cast<int>(r.integer_or("multicast", 1, 1, 8));
  const std::string l2 = r.string("l2");
  if (l2 != "cold" && l2 != "warm") r.fail("l2 must be cold or warm");
  const bool warm = l2 == "warm";
  e.l2_start = warm ? L2Start::cold_clean : L2Start::cold;
  if (issue_from_record && r.has("issue_cycles")) {  // the harness's loop: one load every issue_cycles / loads
    const int64_t span = r.integer("issue_cycles", 1, 1 << 30);
    e.cfg.issue_first_cycles = e.cfg.issue_cycles = static_cast<int>((span + loads / 2) / loads);
    e.cfg.issue_multicast_cycles = 0;
  }
  std::vector<int32_t> c0 = coords_of(r, "coords0", m.rank), step = coords_of(r, "coords_step", m.rank);
  const int64_t bytes = m.transaction_bytes();
  const int64_t slot = (m.smem_footprint() + 1023) / 1024 * 1024;
  if (slot * loads > cfg.smem.size_bytes) r.fail("the burst does not fit shared memory");
  // Global memory: enough rows for the boxes the burst touches.
  int64_t rows = 1;
  for (int k = 0; k < loads; ++k) rows = std::max<int64_t>(rows, c0[1] + int64_t(k) * step[1] + m.box_dims[1] + 1);
  fill_global(r, m, rows, global);
  e.maps.push_back(m);
  e.global = &global;
  auto round = [&](std::vector<Step>& s, int phase, bool timed) {
    // The harness arms the barrier, then reads the clock.
    if (!store) s.push_back(Step::arrive(0, bytes * loads));
    if (timed) s.push_back({Step::Kind::mark_start});
    for (int k = 0; k < loads; ++k) {
      Step st{store ? Step::Kind::store : Step::Kind::load};
      st.ins.op = store ? Op::store : Op::load;
      for (size_t d = 0; d < c0.size(); ++d) st.ins.coords.push_back(c0[d] + k * step[d]);
      st.ins.smem_offset = static_cast<uint32_t>(k * slot);
      st.multicast = mc;
      s.push_back(st);
    }
    if (timed) s.push_back({Step::Kind::mark_issued});
    Step w{store ? Step::Kind::wait_stores : Step::Kind::wait_barrier};
    w.phase = phase;
    w.poll = true;  // the harness waits in a test_wait loop
    s.push_back(w);
  };
  for (int c = 0; c < mc; ++c) {
    sc::CtaProgram p;  // placed by the scheduler: a cluster takes SMs of one GPC (gpu.cluster_in_gpc)
    p.cluster_rank = c;
    p.cluster_size = mc;
    int phase = 0;
    if (c == 0) {
      if (warm) round(p.steps(), phase++, false);
      round(p.steps(), phase, true);
    } else {  // a receiving CTA: expect the bytes of every round, wait for each
      for (int k = 0; k < (warm ? 2 : 1); ++k) {
        p.steps().push_back(Step::arrive(0, bytes * loads));
        Step w{Step::Kind::wait_barrier};
        w.phase = k;
        w.poll = true;
        p.steps().push_back(w);
      }
    }
    e.ctas.push_back(p);
  }
  return e;
}

// A stream: `ctas` CTAs walk tiles through `stages` shared-memory slots; simulated for a
// bounded number of tiles per CTA (the steady state the GPU's long run measures).
Experiment stream_experiment(const Fields& r, const sc::TimingConfig& cfg, std::vector<uint8_t>& global, int per_cta) {
  Experiment e;
  e.cfg = cfg;
  TensorMap m = record_map(r);
  const int ctas = static_cast<int>(r.integer("ctas", 1, 4096));
  const int stages = static_cast<int>(r.integer("stages", 1, 32));
  const int sms = static_cast<int>(r.integer_or("sms", 132, 1, 1024));
  const int64_t tiles = std::min<int64_t>(r.integer("tiles", 1, INT32_MAX), int64_t(ctas) * per_cta);
  const int64_t box1 = m.box_dims[1];
  if (tiles * box1 > INT32_MAX) r.fail("the stream's rows do not fit 32-bit coordinates");
  const int64_t slot = (m.smem_footprint() + 1023) / 1024 * 1024;
  if (slot * stages > cfg.smem.size_bytes) r.fail("the stream's stages do not fit shared memory");
  m.global_dims[1] = tiles * box1;
  fill_global(r, m, tiles * box1, global);
  e.maps.push_back(m);
  e.global = &global;
  e.l2_start = L2Start::cold_clean;
  e.barriers_per_cta = stages;
  const int64_t bytes = m.transaction_bytes();
  for (int c = 0; c < ctas; ++c) {
    sc::CtaProgram p;
    p.sm = c % sms;
    int i = 0;
    for (int64_t t = c; t < tiles; t += ctas, ++i) {
      const int s = i % stages;
      if (i >= stages) {
        Step w{Step::Kind::wait_barrier};
        w.barrier = s;
        w.phase = i / stages - 1;
        w.poll = true;
        p.steps().push_back(w);
      }
      p.steps().push_back(Step::arrive(s, bytes));
      Step ld{Step::Kind::load};
      ld.ins.coords = {0, static_cast<int32_t>(t * box1)};
      ld.ins.coords.resize(static_cast<size_t>(m.rank), 0);
      ld.ins.smem_offset = static_cast<uint32_t>(s * slot);
      ld.barrier = s;
      p.steps().push_back(ld);
    }
    for (int k = std::max(0, i - stages); k < i; ++k) {
      Step w{Step::Kind::wait_barrier};
      w.barrier = k % stages;
      w.phase = k / stages;
      w.poll = true;
      p.steps().push_back(w);
    }
    e.ctas.push_back(p);
  }
  return e;
}

}  // namespace tmasim::sc
