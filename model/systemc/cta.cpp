#include "cta.hpp"

#include <algorithm>
#include <string>

#include "gpu.hpp"
#include "memory_system.hpp"
#include "sm.hpp"
#include "tmasim/types.hpp"

namespace tmasim::sc {

using namespace sc_core;

Cta::Cta(sc_module_name name, const Shared& shared, int index, Gpu& gpu, Measurement* marks)
    : sc_module(name), index_(index), own_rank_(shared.e.ctas[static_cast<size_t>(index)].cluster_rank), gpu_(gpu) {
  const Experiment& e = shared.e;
  const CtaProgram& p = e.ctas[static_cast<size_t>(index)];
  smem_ = std::make_unique<BankedSmem>("smem", e.cfg.smem);
  smem_->share_conflict_memo(shared.conflict_memo);
  std::vector<int> counts = p.barrier_counts;
  if (counts.empty()) counts.assign(static_cast<size_t>(e.barriers_per_cta), 1);
  for (size_t b = 0; b < counts.size(); ++b)
    barriers_.push_back(std::make_unique<Mbarrier>(("mbar_" + std::to_string(b)).c_str(), counts[b]));
  if (has_step(p, Step::Kind::sync))
    sync_ = std::make_unique<Mbarrier>("sync", std::max<int>(1, static_cast<int>(p.threads.size())));
  threads_left_ = static_cast<int>(p.threads.size());
  const int first_rank = index - p.cluster_rank;  // the cluster's rank-0 CTA binds memory port first_rank
  tma_ = std::make_unique<TmaUnit>("tma", e.cfg, shared.global, p.cluster_size, p.cluster_rank, first_rank);
  tma_->share_scratch(shared.tma_scratch);
  tma_->track_reads_out(shared.track_reads_out);
  tma_->record_lifetimes(!e.perfetto_path.empty());
  tma_->mem.bind(shared.memory.socket);
  for (size_t t = 0; t < p.threads.size(); ++t) {
    threads_.push_back(std::make_unique<CtaThread>(("thread_" + std::to_string(t)).c_str(), e, p.threads[t], *this,
                                                   index == 0 && t == 0 ? marks : nullptr));
    threads_.back()->warp.bind(smem_->warp_socket);
  }
}

Cta::~Cta() = default;

void Cta::connect_cluster(const std::vector<Cta*>& cluster) {
  std::vector<BankedSmem*> smems;
  for (Cta* peer : cluster) {
    smems.push_back(peer->smem_.get());
    cluster_barriers_.emplace_back();
    for (const auto& b : peer->barriers_) cluster_barriers_.back().push_back(b.get());
  }
  tma_->connect_cluster(smems);
}

void Cta::launch(Sm& sm, double now_cycles) {
  sm_ = sm.index();
  placed_on_ = &sm;
  tma_->attach(&sm.tma_engine);
  smem_->share_data_path(&sm.smem_path, &sm.smem_write_path);
  start_cycles_ = now_cycles;
  launch_.notify(SC_ZERO_TIME);
  if (threads_left_ == 0) gpu_.retire(*this);  // nothing to run
}

void Cta::thread_done() {
  if (--threads_left_ > 0) return;
  check_loads_waited();
  gpu_.retire(*this);
}

// PTX leaves a CTA that exits with bulk copies into its shared memory in flight undefined; on the
// GPU such a program did not finish (tests/golden/release_load_probe, run 4). Whether the last
// phase a load completes on was waited for does not depend on timing, so the rule is that, not whether
// the copies happen to have landed by the end.
void Cta::check_loads_waited() const {
  for (size_t b = 0; b < barriers_.size(); ++b) {
    const int phase = barriers_[b]->unwaited_load_phase();
    if (phase < 0) continue;
    throw Error("CTA " + std::to_string(index_) + " ends with loads into its shared memory " + kRefusalUnwaitedLoads +
                ": phase " + std::to_string(phase) + " of barrier " + std::to_string(b) +
                " completes a load and its threads waited through phase " +
                std::to_string(barriers_[b]->waited_through()) +
                " (a CTA must not exit with bulk copies into its shared memory unobserved: wait for every phase "
                "that takes a load)");
  }
}

}  // namespace tmasim::sc
