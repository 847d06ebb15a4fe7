// One timing experiment: CTA programs (issue, arrive, wait) running on TMA units of SMs that
// share a memory system. Built, run to completion, and measured in one call; SystemC allows
// one elaboration per process, so callers that run many experiments fork first.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tma_system.hpp"
#include "tmasim/tile_layout.hpp"

namespace tmasim::sc {

struct Step {
  enum class Kind { arrive_expect_tx, load, store, reduce, prefetch, wait_barrier, wait_stores, read, mark_start, mark_issued } kind;
  int map = 0;                 // index into Experiment::maps
  TmaInstruction ins;
  int barrier = 0;             // the CTA's barrier index
  int64_t bytes = 0;           // arrive_expect_tx
  int phase = 0;               // wait_barrier: wait until this phase has completed
  int multicast = 1;
  TileLayout tile;             // read: the tile the warp reads, one ldmatrix.x4 per 16x16 block
};

struct CtaProgram {
  int sm = 0;
  int cluster_rank = 0;        // CTAs of one cluster are consecutive programs
  int cluster_size = 1;
  std::vector<Step> steps;
};

struct Experiment {
  TimingConfig cfg;
  std::vector<TensorMap> maps;
  std::vector<CtaProgram> ctas;
  std::vector<uint8_t>* global = nullptr;  // global memory at address 0
  int barriers_per_cta = 8;
  std::string perfetto_path;   // write a Chrome/Perfetto trace of every TMA operation
  std::string vcd_path;        // write a VCD of each TMA unit's queue occupancy
  bool progress = false;       // print a progress line on long runs
  std::vector<std::vector<uint8_t>>* smem_out = nullptr;  // each CTA's shared memory at the end
};

struct Measurement {
  double start_cycles = 0, issued_cycles = 0, end_cycles = 0;  // CTA 0's marks; end: all CTAs done
  uint64_t ops = 0, smem_wavefronts = 0, smem_conflicts = 0, l2_hits = 0, l2_misses = 0;
  uint64_t tma_bytes = 0, read_instructions = 0, read_wavefronts = 0, read_ideal = 0;
  int max_queue = 0;
};

Measurement run_experiment(const Experiment& e);

}  // namespace tmasim::sc
