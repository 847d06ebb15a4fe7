#include "simulation.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>

#include <tlm_utils/simple_initiator_socket.h>

namespace tmasim::sc {

using namespace sc_core;

namespace {

struct Cta : sc_module {
  tlm_utils::simple_initiator_socket<Cta> warp{"warp"};  // consumer reads of its shared memory
  SC_HAS_PROCESS(Cta);
  Cta(sc_module_name n, const Experiment& e, const CtaProgram& prog, TmaUnit& tma, std::vector<Mbarrier*> barriers,
      Measurement* marks)
      : sc_module(n), stores_done_("stores_done"), e_(e), prog_(prog), tma_(tma), barriers_(std::move(barriers)), marks_(marks) {
    SC_THREAD(run);
    SC_METHOD(on_store_done);
    sensitive << stores_done_;
    dont_initialize();
  }
  // Counts store completions as they happen, whether or not the thread is waiting yet.
  void on_store_done() {
    ++stores_completed_;
    store_progress_.notify();
  }
  void run() {
    const sc_time cyc = e_.cfg.cycle();
    bool first_issue = true;
    int stores = 0;
    for (const Step& s : prog_.steps) {
      switch (s.kind) {
        case Step::Kind::mark_start:
          if (marks_) marks_->start_cycles = sc_time_stamp() / cyc;
          first_issue = true;
          break;
        case Step::Kind::mark_issued:
          if (marks_) marks_->issued_cycles = sc_time_stamp() / cyc;
          break;
        case Step::Kind::arrive_expect_tx: barriers_.at(s.barrier)->arrive_expect_tx(s.bytes); break;
        case Step::Kind::read: read(s.tile); break;
        case Step::Kind::load:
        case Step::Kind::reduce:
        case Step::Kind::prefetch:
        case Step::Kind::store: {
          int cycles = first_issue ? e_.cfg.issue_first_cycles : e_.cfg.issue_cycles;
          if (s.multicast > 1) cycles += e_.cfg.issue_multicast_cycles;
          first_issue = false;
          wait(cyc * cycles);
          TmaOp op;
          op.map = &e_.maps.at(s.map);
          op.ins = s.ins;
          op.multicast = s.multicast;
          if (s.kind == Step::Kind::load) {
            op.barrier = barriers_.at(s.barrier);
          } else if (s.kind != Step::Kind::prefetch) {
            op.done = &stores_done_;
            ++stores;
          }
          tma_.submit(op);
          break;
        }
        case Step::Kind::wait_barrier: barriers_.at(s.barrier)->wait_phase(s.phase); break;
        case Step::Kind::wait_stores:
          while (stores_completed_ < stores) wait(store_progress_);
          break;
      }
    }
    end_ = sc_time_stamp() / cyc;
  }
  // One ldmatrix.x4 per 16x16 block of the tile, issued back to back by one warp.
  void read(const TileLayout& t) {
    for (int r0 = 0; r0 + 16 <= t.rows; r0 += 16)
      for (int c0 = 0; c0 + 16 <= t.cols; c0 += 16) {
        const WarpAccess access = matrix_access(t, SmemOp::ldmatrix, 4, false, r0, c0);
        uint8_t lanes[32 * 16];
        sc_time d = SC_ZERO_TIME;
        if (smem_request(warp, access, lanes, d) != tlm::TLM_OK_RESPONSE)
          throw Error("consumer read outside shared memory");
        ConflictResult r = evaluate(access, e_.cfg.smem.geometry);
        ++reads_;
        read_wavefronts_ += r.wavefronts;
        read_ideal_ += r.ideal;
        wait(d);
      }
  }
  uint64_t reads_ = 0, read_wavefronts_ = 0, read_ideal_ = 0;
  double end_ = 0;
  sc_event_queue stores_done_;
  sc_event store_progress_;
  int stores_completed_ = 0;
  const Experiment& e_;
  const CtaProgram& prog_;
  TmaUnit& tma_;
  std::vector<Mbarrier*> barriers_;
  Measurement* marks_;
};

}  // namespace

Measurement run_experiment(const Experiment& e) {
  Measurement out;
  if (!e.global) throw Error("experiment without global memory");
  GlobalMemory g{e.global->data(), e.global->size(), 0};
  MemorySystem memory("memory", e.cfg, g);
  std::vector<std::unique_ptr<BankedSmem>> smems;
  std::vector<std::unique_ptr<Mbarrier>> barriers;
  std::vector<std::unique_ptr<TmaUnit>> tmas;
  std::vector<std::unique_ptr<Cta>> ctas;
  for (size_t c = 0; c < e.ctas.size(); ++c)
    smems.push_back(std::make_unique<BankedSmem>(("smem_" + std::to_string(c)).c_str(), e.cfg.smem));
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const CtaProgram& p = e.ctas[c];
    std::vector<BankedSmem*> cluster;  // own first, then the cluster's others
    const size_t base = c - p.cluster_rank;
    cluster.push_back(smems[c].get());
    for (int k = 0; k < p.cluster_size; ++k)
      if (base + k != c) cluster.push_back(smems.at(base + k).get());
    auto tma = std::make_unique<TmaUnit>(("tma_" + std::to_string(c)).c_str(), e.cfg, p.cluster_size, g, cluster);
    tma->mem.bind(memory.socket);
    for (int k = 0; k < p.cluster_size; ++k) (*tma->smem[k]).bind(cluster[k]->tma_socket);
    std::vector<Mbarrier*> bars;
    for (int b = 0; b < e.barriers_per_cta; ++b) {
      barriers.push_back(std::make_unique<Mbarrier>(("mbar_" + std::to_string(c) + "_" + std::to_string(b)).c_str()));
      bars.push_back(barriers.back().get());
    }
    ctas.push_back(std::make_unique<Cta>(("cta_" + std::to_string(c)).c_str(), e, p, *tma, bars, c == 0 ? &out : nullptr));
    ctas.back()->warp.bind(smems[c]->warp_socket);
    tmas.push_back(std::move(tma));
  }
  sc_trace_file* vcd = nullptr;
  if (!e.vcd_path.empty()) {
    std::string base = e.vcd_path;
    if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
    vcd = sc_create_vcd_trace_file(base.c_str());
    vcd->set_time_unit(1.0, SC_PS);
    for (auto& t : tmas) sc_trace(vcd, t->occupancy, std::string(t->name()) + ".queue_occupancy");
  }
  if (e.progress) {
    // Simulate in slices of a million cycles, reporting when the run takes a while.
    const auto wall0 = std::chrono::steady_clock::now();
    const sc_time slice = e.cfg.cycle() * 1e6;
    bool shown = false;
    do {
      sc_start(slice);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      if (secs > 1.0) {
        std::fprintf(stderr, "\r  simulated %.1f M cycles (%.1f s)", sc_time_stamp() / e.cfg.cycle() / 1e6, secs);
        shown = true;
      }
    } while (sc_pending_activity());
    if (shown) std::fprintf(stderr, "\r%60s\r", "");
  } else {
    sc_start();
  }
  if (vcd) sc_close_vcd_trace_file(vcd);
  for (auto& c : ctas) out.end_cycles = std::max(out.end_cycles, c->end_);
  for (auto& t : tmas) {
    out.ops += t->ops();
    out.tma_bytes += t->bytes();
    out.max_queue = std::max(out.max_queue, t->max_queue());
  }
  for (auto& c : ctas) {
    out.read_instructions += c->reads_;
    out.read_wavefronts += c->read_wavefronts_;
    out.read_ideal += c->read_ideal_;
  }
  if (!e.perfetto_path.empty()) {
    // Chrome trace-event JSON (opens in Perfetto): one track per TMA unit, time in cycles as us.
    std::ofstream tr(e.perfetto_path);
    tr << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
    bool first = true;
    for (size_t c = 0; c < tmas.size(); ++c)
      for (const auto& l : tmas[c]->lifetimes) {
        tr << (first ? "" : ",") << "{\"name\":\"" << name(l.op) << "\",\"ph\":\"X\",\"pid\":" << e.ctas[c].sm
           << ",\"tid\":" << c << ",\"ts\":" << l.issue << ",\"dur\":" << (l.done - l.issue)
           << ",\"args\":{\"queued_cycles\":" << (l.start - l.issue) << "}}";
        first = false;
      }
    tr << "]}\n";
  }
  if (e.smem_out) {
    e.smem_out->clear();
    for (auto& s : smems) e.smem_out->push_back(s->memory());
  }
  for (auto& s : smems) {
    out.smem_wavefronts += s->counters().wavefronts;
    out.smem_conflicts += s->counters().conflicts;
  }
  out.l2_hits = memory.hits();
  out.l2_misses = memory.misses();
  return out;
}

}  // namespace tmasim::sc
