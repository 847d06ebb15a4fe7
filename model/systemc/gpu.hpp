// The chip, as the model's top module: it owns and connects its children in its constructor.
//
//   gpu (Gpu: the CTA scheduler)
//   ├── memory        MemorySystem: L2, DRAM, each SM's port          <- tlm socket from each CTA's TMA unit
//   ├── gpc_0 .. gpc_{G-1}   Gpc: its SMs
//   │   └── sm_s      Sm: TMA engine, shared-memory data path, CTA slots
//   └── cta_0 .. cta_{N-1}   Cta: the grid (docs/architecture.md)
//       ├── smem      BankedSmem                                       <- tlm sockets from the TMA units of
//       ├── mbar_b, sync  Mbarrier                                         its cluster and from its threads
//       ├── tma       TmaUnit (served by its SM's engine once placed)
//       └── thread_t  CtaThread
//
// The scheduler places a cluster at once, its CTAs on distinct SMs with a free slot, the
// emptiest SM first (the H100 spreads a grid breadth first: %smid shows one CTA per SM before any
// SM gets a second); CTAs that find no slot start gpu.cta_launch_cycles after one frees, in grid
// order (waves).
#pragma once
#include <systemc>

#include <memory>
#include <vector>

#include "banked_smem.hpp"
#include "cta.hpp"
#include "experiment.hpp"
#include "gpc.hpp"
#include "memory_system.hpp"
#include "tma_unit.hpp"

namespace tmasim::sc {

class Gpu : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Gpu);
  // `marks`: where CTA 0's first thread records its mark steps.
  Gpu(sc_core::sc_module_name name, const Experiment& e, Measurement* marks);
  ~Gpu() override;

  void retire(Cta& cta);  // a CTA ended: its slot is free

  MemorySystem& memory() { return *memory_; }
  const std::vector<std::unique_ptr<Cta>>& ctas() const { return ctas_; }
  const Experiment& experiment() const { return e_; }
  const std::vector<Sm*>& sms() const { return sms_; }
  // CTAs one SM holds at once: limited by CTA slots, warps and shared memory.
  static int slots_per_sm(const Experiment& e);

 private:
  void check_grid() const;
  void check_clusters_fit_gpcs() const;
  void run();
  void launch_all();
  bool choose(size_t base, size_t k, std::vector<Sm*>& chosen);
  Sm& sm(int index) { return *sms_[static_cast<size_t>(index)]; }

  const Experiment& e_;
  GlobalMemory global_;
  std::unique_ptr<MemorySystem> memory_;
  ConflictMemo conflict_memo_;
  TmaUnit::TmaScratch tma_scratch_;  // every TMA unit's operation buffers (one operation at a time)
  std::vector<std::unique_ptr<Gpc>> gpcs_;
  std::vector<Sm*> sms_;  // the GPCs' SMs by index
  std::vector<int> first_wave_;  // gpu.spread_ctas: each CTA's SM (empty: the emptiest SM)
  std::vector<std::unique_ptr<Cta>> ctas_;
  sc_core::sc_event freed_;
};

}  // namespace tmasim::sc
