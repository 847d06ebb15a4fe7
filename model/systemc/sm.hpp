// One SM of the chip: what its resident CTAs share (the TMA engine, the shared-memory data
// path, the memory port, which the memory system keeps by SM) and its CTA slots. The per-CTA
// parts (its shared memory, mbarriers, TMA queue, threads) are the Cta module's: CTAs are placed
// on SMs at run time, as the H100's scheduler places them, so a Cta attaches to its Sm at launch.
// Its tensor cores serve the warpgroups of all its CTAs.
#pragma once
#include <systemc>

#include "calendar.hpp"
#include "tensor_cores.hpp"
#include "tma_unit.hpp"

namespace tmasim::sc {

class Sm : public sc_core::sc_module {
 public:
  Sm(sc_core::sc_module_name name, int index, int slots, sc_core::sc_time cycle)
      : sc_module(name), free_slots(slots), smem_path(cycle), smem_write_path(cycle), index_(index) {}
  int index() const { return index_; }

  int free_slots;            // CTA slots not taken
  TmaEngine tma_engine;      // address generator, store path, descriptors, reads in flight
  CycleCalendar smem_path;   // the shared-memory data path, cycle by cycle (reads; all with one path)
  CycleCalendar smem_write_path;  // TMA writes' own path (smem.tma_writes_own_path)
  TensorCores tensor_cores;  // wgmma

 private:
  int index_;
};

}  // namespace tmasim::sc
