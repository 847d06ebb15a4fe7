// One timing experiment: CTA programs (issue, arrive, wait) running on TMA units of SMs that
// share a memory system. Built, run to completion, and measured in one call; SystemC allows
// one elaboration per process, so callers that run many experiments fork first.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tma_system.hpp"

namespace tmasim::sc {

struct Step {
  enum class Kind { arrive_expect_tx, load, store, wait_barrier, wait_stores, mark_start, mark_issued } kind;
  int map = 0;                 // index into Experiment::maps
  TmaInstruction ins;
  int barrier = 0;             // the CTA's barrier index
  int64_t bytes = 0;           // arrive_expect_tx
  int phase = 0;               // wait_barrier: wait until this phase has completed
  int multicast = 1;
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
};

struct Measurement {
  double start_cycles = 0, issued_cycles = 0, end_cycles = 0;  // CTA 0's marks; end: all CTAs done
  uint64_t ops = 0, smem_wavefronts = 0, smem_conflicts = 0, l2_hits = 0, l2_misses = 0;
  int max_queue = 0;
};

Measurement run_experiment(const Experiment& e);

}  // namespace tmasim::sc
