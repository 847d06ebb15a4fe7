#include "gpu.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

#include "clock.hpp"
#include "process_error.hpp"
#include "tmasim/traversal.hpp"

namespace tmasim::sc {

using namespace sc_core;

namespace {

// The global lines one step's TMA operation reaches, made resident near the SM's L2 half.
void warm_step(const Experiment& e, const Step& s, int sm, MemorySystem& memory) {
  if (!is_tma(s.kind)) return;
  if (s.map < 0 || static_cast<size_t>(s.map) >= e.maps.size()) return;  // the run reports it
  const TensorMap& m = e.maps[static_cast<size_t>(s.map)];
  if (s.ins.coords.size() != static_cast<size_t>(m.rank)) return;
  const int64_t reach = dim0_reach(m, s.ins.op);
  const int unit = m.row_unit_bytes();
  for_each_row(m, s.ins, [&](const BoxRow& r) {
    const BoxRow::Window w = r.in_bound_window(reach);
    if (w.last < w.first) return;
    const uint64_t addr = m.global_address + static_cast<uint64_t>(r.global_offset + w.first * r.element_step * unit);
    memory.make_resident(addr, static_cast<uint64_t>((w.last - w.first) * r.element_step * unit + unit),
                         s.kind == Step::Kind::store || s.kind == Step::Kind::reduce, sm);
  });
}

// `n` CTAs split over the GPCs `among` as evenly as their caps allow: a GPC whose cap is below
// the even share takes its cap, the others the share of what is left; the odd ones go to the smaller
// GPCs first (on the H200 the 8-SM GPC takes the odd CTA of 33). Indexed by GPC.
std::vector<int> even_split(const std::vector<int>& sizes, std::vector<size_t> among, const std::vector<int>& cap, int n) {
  std::vector<int> count(sizes.size(), 0);
  std::stable_sort(among.begin(), among.end(), [&](size_t a, size_t b) { return cap[a] < cap[b]; });
  size_t i = 0;
  for (; i < among.size() && cap[among[i]] * static_cast<int>(among.size() - i) <= n; ++i) {
    count[among[i]] = cap[among[i]];
    n -= cap[among[i]];
  }
  among.erase(among.begin(), among.begin() + static_cast<std::ptrdiff_t>(i));
  if (among.empty()) return count;
  std::stable_sort(among.begin(), among.end(), [&](size_t a, size_t b) { return sizes[a] < sizes[b]; });
  const int share = n / static_cast<int>(among.size()), odd = n % static_cast<int>(among.size());
  for (size_t k = 0; k < among.size(); ++k) count[among[k]] = share + (static_cast<int>(k) < odd ? 1 : 0);
  return count;
}

// gpu.spread_ctas: the SM of each CTA of a grid of no more CTAs than SMs, as the H100's distributor
// places it (tests/golden/load_curve_probe). The GPCs of at most two SMs take the first CTAs; the
// others split the rest evenly (the smaller GPCs taking the odd ones), at most one CTA a TPC while
// the grid fits so; a GPC takes its CTAs consecutively, one SM of every TPC before the second.
std::vector<int> spread_placement(const std::vector<int>& sizes, int ctas) {
  std::vector<int> first(sizes.size()), cap(sizes.size());
  int small_sms = 0, tpcs = 0;
  for (size_t g = 0, at = 0; g < sizes.size(); at += static_cast<size_t>(sizes[g]), ++g) {
    first[g] = static_cast<int>(at);
    if (sizes[g] <= 2) small_sms += sizes[g];
    else tpcs += (sizes[g] + 1) / 2;
  }
  const bool one_a_tpc = ctas <= small_sms + tpcs;
  std::vector<int> placed;
  std::vector<size_t> big;
  for (size_t g = 0; g < sizes.size(); ++g) {
    if (sizes[g] > 2) {
      big.push_back(g);
      cap[g] = one_a_tpc ? (sizes[g] + 1) / 2 : sizes[g];
      continue;
    }
    for (int s = 0; s < sizes[g] && static_cast<int>(placed.size()) < ctas; ++s) placed.push_back(first[g] + s);
  }
  std::vector<int> count = even_split(sizes, big, cap, ctas - static_cast<int>(placed.size()));
  for (size_t g : big)
    for (int k = 0; k < count[g]; ++k) {  // first SMs of the TPCs, then the second ones
      const int tpcs_here = (sizes[g] + 1) / 2;
      placed.push_back(first[g] + (k < tpcs_here ? 2 * k : 2 * (k - tpcs_here) + 1));
    }
  return placed;
}

// L2Start::warm: the program ran just before, so the global lines its TMA operations reached
// are resident, the most recent last. Its threads' steps are replayed in an interleaved order
// (step k of every thread, then step k + 1), which is what the L2's LRU order keeps of a
// previous run when its footprint is larger than the L2. A line is near the L2 half of the SM its
// CTA ran on (the first wave's placement: `first_wave`, or CTA c on SM c mod gpu.sms).
void warm_l2(const Experiment& e, const std::vector<int>& first_wave, MemorySystem& memory) {
  std::vector<std::pair<StepCursor, int>> threads;  // with the SM
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const CtaProgram& p = e.ctas[c];
    const int sm = p.sm >= 0           ? p.sm
                   : c < first_wave.size() ? first_wave[c]
                                           : static_cast<int>(c % static_cast<size_t>(std::max(1, e.cfg.sms)));
    for (const ThreadProgram& t : p.threads) threads.emplace_back(StepCursor(t), sm);
  }
  for (bool any = true; any;) {
    any = false;
    for (auto& thread : threads) {
      const Step* step = thread.first.next();
      if (!step) continue;
      any = true;
      warm_step(e, *step, thread.second, memory);
    }
  }
}

GlobalMemory global_of(const Experiment& e) {
  if (!e.global) throw Error("experiment without global memory");
  if (e.global->empty() && e.global_bytes > 0 && e.cfg.smem.move_bytes)
    throw Error("an experiment that moves bytes needs its global memory's bytes");
  return GlobalMemory{e.global->data(), e.global->empty() ? e.global_bytes : e.global->size(), 0};
}

bool arrives_by_rank(const Experiment& e) {
  return std::any_of(e.ctas.begin(), e.ctas.end(), [](const CtaProgram& p) { return arrives_by_rank(p); });
}

// gpu.spread_ctas applies: a grid of single CTAs, none pinned, one an SM at most.
bool spreads(const Experiment& e) {
  return e.cfg.spread_ctas && e.ctas.size() <= static_cast<size_t>(e.cfg.sms) &&
         std::all_of(e.ctas.begin(), e.ctas.end(), [](const CtaProgram& p) { return p.cluster_size <= 1 && p.sm < 0; });
}

}  // namespace

Gpu::Gpu(sc_module_name name, const Experiment& e, Measurement* marks)
    : sc_module(name), e_(e), global_(global_of(e)), conflict_memo_(e.cfg.smem.geometry()) {
  check_grid();
  memory_ = std::make_unique<MemorySystem>("memory", e.cfg, global_, e.l2_start);
  if (spreads(e)) first_wave_ = spread_placement(gpc_sizes(e.cfg), static_cast<int>(e.ctas.size()));
  if (e.l2_start == L2Start::warm) warm_l2(e, first_wave_, *memory_);
  const int slots = slots_per_sm(e);
  int first = 0;
  for (int count : gpc_sizes(e.cfg)) {
    const size_t g = gpcs_.size();
    gpcs_.push_back(std::make_unique<Gpc>(("gpc_" + std::to_string(g)).c_str(), first, count, slots, cycle_time(e.cfg)));
    for (auto& s : gpcs_.back()->sms) sms_.push_back(s.get());
    first += count;
  }
  const Cta::Shared shared{e, global_, &conflict_memo_, &tma_scratch_, *memory_, arrives_by_rank(e)};
  for (size_t c = 0; c < e.ctas.size(); ++c)
    ctas_.push_back(std::make_unique<Cta>(("cta_" + std::to_string(c)).c_str(), shared, static_cast<int>(c), *this, marks));
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const size_t base = c - static_cast<size_t>(e.ctas[c].cluster_rank);
    std::vector<Cta*> cluster;
    for (int k = 0; k < e.ctas[c].cluster_size; ++k) cluster.push_back(ctas_.at(base + static_cast<size_t>(k)).get());
    ctas_[c]->connect_cluster(cluster);
  }
  SC_THREAD(run);
}

Gpu::~Gpu() = default;

void Gpu::check_grid() const {
  for (size_t c = 0; c < e_.ctas.size(); ++c) {
    const CtaProgram& p = e_.ctas[c];
    if (p.sm >= e_.cfg.sms)
      throw Error("a CTA is pinned to SM " + std::to_string(p.sm) + ", but the GPU has " + std::to_string(e_.cfg.sms) +
                  " SMs (gpu.sms)");
    if (p.cluster_size > e_.cfg.sms)
      throw Error("a cluster of " + std::to_string(p.cluster_size) + " CTAs needs as many SMs; the GPU has " +
                  std::to_string(e_.cfg.sms) + " (gpu.sms)");
    if (p.cluster_rank > static_cast<int>(c) || c - p.cluster_rank + p.cluster_size > e_.ctas.size())
      throw Error("a cluster runs past the last CTA");
  }
  if (e_.cfg.cluster_in_gpc) check_clusters_fit_gpcs();
}

// gpu.cluster_in_gpc: a cluster that no GPC can hold, or pinned to SMs of two GPCs, would wait
// for room forever; say so before the run.
void Gpu::check_clusters_fit_gpcs() const {
  const std::vector<int> sizes = gpc_sizes(e_.cfg), gpc = gpc_of_sm(e_.cfg);
  const int largest = *std::max_element(sizes.begin(), sizes.end());
  for (size_t c = 0; c < e_.ctas.size(); ++c) {
    const CtaProgram& p = e_.ctas[c];
    if (p.cluster_size > largest)
      throw Error("a cluster of " + std::to_string(p.cluster_size) + " CTAs runs in one GPC (gpu.cluster_in_gpc), but the "
                  "largest GPC has " + std::to_string(largest) + " SMs (gpu.gpc_sms)");
    const CtaProgram& first = e_.ctas[c - static_cast<size_t>(p.cluster_rank)];
    if (p.sm >= 0 && first.sm >= 0 && gpc[static_cast<size_t>(p.sm)] != gpc[static_cast<size_t>(first.sm)])
      throw Error("CTA " + std::to_string(c) + " is pinned to SM " + std::to_string(p.sm) + " and its cluster's first CTA to SM " +
                  std::to_string(first.sm) + ": a cluster runs in one GPC (gpu.cluster_in_gpc) and these SMs are in two " +
                  "(gpu.gpc_sms)");
  }
}

int Gpu::slots_per_sm(const Experiment& e) {
  size_t warps = 1;
  int64_t registers = 0;  // a CTA's, allocated warp by warp
  for (const CtaProgram& p : e.ctas) {
    warps = std::max(warps, static_cast<size_t>(cta_warps(p)));
    const int64_t unit = e.cfg.register_alloc_unit;
    const int64_t per_warp = (int64_t(p.registers_per_thread) * 32 + unit - 1) / unit * unit;
    registers = std::max(registers, per_warp * cta_warps(p));
  }
  const int64_t smem = e.cta_smem_bytes + e.cfg.smem_reserved_per_cta_bytes;
  int64_t slots = std::min<int64_t>(e.cfg.max_ctas_per_sm, e.cfg.max_warps_per_sm / static_cast<int64_t>(warps));
  if (smem > 0) slots = std::min<int64_t>(slots, e.cfg.smem_per_sm_bytes / smem);
  if (registers > 0) slots = std::min<int64_t>(slots, e.cfg.registers_per_sm / registers);
  if (slots < 1)
    throw Error("a CTA of " + std::to_string(warps) + " warps, " + std::to_string(registers) + " registers and " +
                std::to_string(smem) + " bytes of shared memory (with the system's reserve) does not fit an SM "
                "(gpu.max_warps_per_sm " + std::to_string(e.cfg.max_warps_per_sm) + ", gpu.registers_per_sm " +
                std::to_string(e.cfg.registers_per_sm) + ", gpu.smem_per_sm_bytes " +
                std::to_string(e.cfg.smem_per_sm_bytes) + ")");
  return static_cast<int>(slots);
}

void Gpu::run() {
  guarded([this] { launch_all(); });
}

void Gpu::launch_all() {
  const sc_time cyc = cycle_time(e_.cfg);
  std::vector<Sm*> chosen;
  for (size_t base = 0; base < e_.ctas.size();) {
    const size_t k = static_cast<size_t>(std::max(1, e_.ctas[base].cluster_size));
    while (!choose(base, k, chosen)) {
      wait(freed_);
      if (e_.cfg.cta_launch_cycles > 0) wait(cyc * e_.cfg.cta_launch_cycles);
    }
    for (size_t r = 0; r < k; ++r) {
      Sm& s = *chosen[r];
      --s.free_slots;
      memory_->place(static_cast<int>(base + r), s.index());  // CTA c's TMA unit is the memory system's binding c
      ctas_[base + r]->launch(s, sc_time_stamp() / cyc);
    }
    base += k;
  }
}

void Gpu::retire(Cta& cta) {
  ++sm(cta.sm()).free_slots;
  freed_.notify(SC_ZERO_TIME);
}

// The cluster's SMs: for each CTA the emptiest SM with a free slot not yet chosen (or its pinned
// SM); with gpu.cluster_in_gpc, all within the GPC that has the most free slots and room for it.
bool Gpu::choose(size_t base, size_t k, std::vector<Sm*>& chosen) {
  if (k == 1 && base < first_wave_.size() && sm(first_wave_[base]).free_slots > 0) {
    chosen.assign(1, &sm(first_wave_[base]));
    return true;
  }
  auto choose_in = [&](const std::vector<Sm*>& sms) {
    chosen.clear();
    for (size_t r = 0; r < k; ++r) {
      const int pin = e_.ctas[base + r].sm;
      Sm* best = nullptr;
      for (Sm* s : sms) {
        if ((pin >= 0 && s->index() != pin) || s->free_slots == 0) continue;
        if (std::find(chosen.begin(), chosen.end(), s) != chosen.end()) continue;
        if (!best || s->free_slots > best->free_slots) best = s;
      }
      if (!best) return false;
      chosen.push_back(best);
    }
    return true;
  };
  if (!e_.cfg.cluster_in_gpc || k == 1) return choose_in(sms_);
  struct Room {
    int level_free;  // the free slots of the fullest of the k emptiest SMs: the cluster's level
    int free;        // all the GPC's free slots
    const Gpc* gpc;
  };
  std::vector<Room> by_room;
  std::vector<int> slots;
  for (const auto& g : gpcs_) {
    slots.clear();
    for (const auto& s : g->sms) slots.push_back(s->free_slots);
    if (slots.size() < k) {  // no room for the cluster, at any level
      by_room.push_back({0, 0, g.get()});
      continue;
    }
    std::nth_element(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(k - 1), slots.end(), std::greater<>());
    by_room.push_back({slots[k - 1], std::accumulate(slots.begin(), slots.end(), 0), g.get()});
  }
  // Level by level, as the H100 does (tests/golden/gpc_probe): a cluster goes where its SMs are
  // emptiest, so no SM takes a second CTA while a cluster would fit on SMs that have none.
  const bool by_level = e_.cfg.clusters_by_level;
  std::stable_sort(by_room.begin(), by_room.end(), [by_level](const Room& a, const Room& b) {
    if (by_level && a.level_free != b.level_free) return a.level_free > b.level_free;
    return a.free > b.free;
  });
  for (const Room& r : by_room) {
    const Gpc* g = r.gpc;
    std::vector<Sm*> sms;
    for (const auto& s : g->sms) sms.push_back(s.get());
    if (choose_in(sms)) return true;
  }
  return false;
}

}  // namespace tmasim::sc
