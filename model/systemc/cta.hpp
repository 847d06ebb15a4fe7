// One CTA of the grid: its slice of shared memory (BankedSmem), its mbarriers (and the one behind
// `sync` steps), its TMA unit's queue and its threads. Built at elaboration; placed on an SM by the
// Gpu's scheduler at run time (attach), when its threads start.
#pragma once
#include <systemc>

#include <memory>
#include <vector>

#include "banked_smem.hpp"
#include "cta_thread.hpp"
#include "experiment.hpp"
#include "mbarrier.hpp"
#include "tma_unit.hpp"

namespace tmasim::sc {

class Gpu;
class MemorySystem;
class Sm;

class Cta : public sc_core::sc_module {
 public:
  // What a CTA is built from that the grid shares: global memory, the conflict memo, the TMA
  // units' scratch buffers and the memory system (this CTA's unit is binding `index` of it).
  struct Shared {
    const Experiment& e;
    GlobalMemory global;
    ConflictMemo* conflict_memo;
    TmaUnit::TmaScratch* tma_scratch;
    MemorySystem& memory;
    bool track_reads_out;  // some thread arrives by cluster rank (TmaUnit::reads_out_done_by)
  };
  // `marks`: where CTA 0's first thread records its mark steps (else nullptr).
  Cta(sc_core::sc_module_name name, const Shared& shared, int index, Gpu& gpu, Measurement* marks);
  ~Cta() override;
  // Once every CTA exists: the shared memories and mbarriers of its cluster, by rank.
  void connect_cluster(const std::vector<Cta*>& cluster);

  // Placed on `sm` by the scheduler: its TMA queue served by the SM's engine, its shared memory
  // through the SM's data path, its threads started.
  void launch(Sm& sm, double now_cycles);
  void thread_done();  // one of its threads ended; the last frees its slot

  int index() const { return index_; }
  int own_rank() const { return own_rank_; }
  int sm() const { return sm_; }          // -1 until launched
  Sm& placed_on() { return *placed_on_; }  // once launched
  bool launched() const { return sm_ >= 0; }
  const sc_core::sc_event& launched_event() const { return launch_; }
  double start_cycles() const { return start_cycles_; }
  TmaUnit& tma() { return *tma_; }
  const TmaUnit& tma() const { return *tma_; }
  BankedSmem& smem() { return *smem_; }
  Mbarrier& barrier_of_rank(int rank, int b) { return *cluster_barriers_.at(static_cast<size_t>(rank)).at(static_cast<size_t>(b)); }
  const Mbarrier& own_barrier(int b) const { return *barriers_.at(static_cast<size_t>(b)); }
  int cluster_size() const { return static_cast<int>(cluster_barriers_.size()); }
  Mbarrier* sync() const { return sync_.get(); }
  const std::vector<std::unique_ptr<Mbarrier>>& barriers() const { return barriers_; }
  const std::vector<std::unique_ptr<CtaThread>>& threads() const { return threads_; }

 private:
  void check_loads_waited() const;  // at its end: every phase a load completes on waited for
  int index_, own_rank_;
  Gpu& gpu_;
  std::unique_ptr<BankedSmem> smem_;
  std::vector<std::unique_ptr<Mbarrier>> barriers_;
  std::unique_ptr<Mbarrier> sync_;  // behind sync steps (most CTAs have none: a module less)
  std::unique_ptr<TmaUnit> tma_;
  std::vector<std::unique_ptr<CtaThread>> threads_;
  std::vector<std::vector<Mbarrier*>> cluster_barriers_;  // [rank][barrier]
  int sm_ = -1;
  Sm* placed_on_ = nullptr;
  sc_core::sc_event launch_;
  double start_cycles_ = 0;
  int threads_left_ = 0;
};

}  // namespace tmasim::sc
