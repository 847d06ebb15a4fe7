#include <atomic>
#include "simulation.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <sstream>

#include <tlm_utils/simple_initiator_socket.h>

#include "clock.hpp"
#include "memory_system.hpp"
#include "process_error.hpp"
#include "tma_unit.hpp"
#include "tmasim/traversal.hpp"

namespace tmasim::sc {

using namespace sc_core;

namespace {

const char* volatile g_current_origin = nullptr;
int g_threads_running = 0;  // for waveforms: falls to 0 when the simulation ends
bool g_exit_after_run = false;  // exit_after_run()

struct Gpu;

// What the threads of one CTA share: its TMA unit, its mbarriers and those of its cluster
// (by cluster rank), the barrier behind `sync` steps, and its launch on an SM.
struct CtaContext {
  int index = 0;
  TmaUnit* tma = nullptr;
  std::vector<std::vector<Mbarrier*>> cluster_barriers;  // [rank][barrier]
  int own_rank = 0;
  Mbarrier* sync = nullptr;
  std::vector<Mbarrier*>& own() { return cluster_barriers[own_rank]; }
  Gpu* gpu = nullptr;
  int sm = -1;  // where it runs, once launched
  bool launched = false;
  sc_event launch;
  double start_cycles = 0;
  int threads_left = 0;
  void thread_done();
};

// The chip's CTA scheduler and what each SM's resident CTAs share (TMA engine, shared-memory
// data path, memory port). A cluster is placed at once, its CTAs on distinct SMs with a free
// slot, the emptiest SM first (the H100 spreads a grid breadth first: %smid shows one CTA per
// SM before any SM gets a second); CTAs that find no slot start cta_launch_cycles after one
// frees, in grid order (waves).
struct Gpu : sc_module {
  struct Sm {
    explicit Sm(sc_core::sc_time cycle) : smem_path(cycle) {}
    int free = 0;
    TmaEngine engine;
    CycleCalendar smem_path;
  };
  SC_HAS_PROCESS(Gpu);
  Gpu(sc_module_name n, const Experiment& e, std::vector<CtaContext>& ctas, MemorySystem& memory,
      std::vector<std::unique_ptr<BankedSmem>>& smems)
      : sc_module(n), e_(e), ctas_(ctas), memory_(memory), smems_(smems),
        sms_(static_cast<size_t>(e.cfg.sms), Sm(cycle_time(e.cfg))) {
    const int slots = slots_per_sm(e);
    for (Sm& sm : sms_) sm.free = slots;
    for (const CtaProgram& p : e.ctas) {
      if (p.sm >= e.cfg.sms)
        throw Error("a CTA is pinned to SM " + std::to_string(p.sm) + ", but the GPU has " + std::to_string(e.cfg.sms) +
                    " SMs (gpu.sms)");
      if (p.cluster_size > e.cfg.sms)
        throw Error("a cluster of " + std::to_string(p.cluster_size) + " CTAs needs as many SMs; the GPU has " +
                    std::to_string(e.cfg.sms) + " (gpu.sms)");
    }
    SC_THREAD(run);
  }

  // CTAs one SM holds at once: limited by CTA slots, warps and shared memory.
  static int slots_per_sm(const Experiment& e) {
    size_t warps = 1;
    for (const CtaProgram& p : e.ctas) warps = std::max(warps, p.threads.size());
    const int64_t smem = e.cta_smem_bytes + e.cfg.smem_reserved_per_cta_bytes;
    int64_t slots = std::min<int64_t>(e.cfg.max_ctas_per_sm, e.cfg.max_warps_per_sm / static_cast<int64_t>(warps));
    if (smem > 0) slots = std::min<int64_t>(slots, e.cfg.smem_per_sm_bytes / smem);
    if (slots < 1)
      throw Error("a CTA of " + std::to_string(warps) + " warps and " + std::to_string(smem) +
                  " bytes of shared memory (with the system's reserve) does not fit an SM (gpu.max_warps_per_sm " +
                  std::to_string(e.cfg.max_warps_per_sm) + ", gpu.smem_per_sm_bytes " +
                  std::to_string(e.cfg.smem_per_sm_bytes) + ")");
    return static_cast<int>(slots);
  }

  void run() {
    guarded([this] { launch_all(); });
  }
  void launch_all() {
    const sc_time cyc = cycle_time(e_.cfg);
    for (size_t base = 0; base < e_.ctas.size();) {
      const size_t k = static_cast<size_t>(std::max(1, e_.ctas[base].cluster_size));
      std::vector<int> chosen;
      while (!choose(base, k, chosen)) {
        wait(freed_);
        if (e_.cfg.cta_launch_cycles > 0) wait(cyc * e_.cfg.cta_launch_cycles);
      }
      for (size_t r = 0; r < k; ++r) launch(base + r, chosen[r]);
      base += k;
    }
  }

  void retire(CtaContext& c) {
    ++sms_[static_cast<size_t>(c.sm)].free;
    freed_.notify(SC_ZERO_TIME);
  }

 private:
  bool choose(size_t base, size_t k, std::vector<int>& chosen) {
    chosen.clear();
    for (size_t r = 0; r < k; ++r) {
      const int pin = e_.ctas[base + r].sm;
      int best = -1;
      for (int s = 0; s < static_cast<int>(sms_.size()); ++s) {
        if ((pin >= 0 && s != pin) || sms_[s].free == 0) continue;
        if (std::find(chosen.begin(), chosen.end(), s) != chosen.end()) continue;
        if (best < 0 || sms_[s].free > sms_[best].free) best = s;
      }
      if (best < 0) return false;
      chosen.push_back(best);
    }
    return true;
  }

  void launch(size_t c, int sm) {
    CtaContext& ctx = ctas_[c];
    Sm& s = sms_[static_cast<size_t>(sm)];
    --s.free;
    ctx.sm = sm;
    ctx.tma->attach(&s.engine);
    smems_[c]->share_data_path(&s.smem_path);
    memory_.place(static_cast<int>(c), sm);  // CTA c's TMA unit is the memory system's binding c
    ctx.start_cycles = sc_time_stamp() / cycle_time(e_.cfg);
    ctx.launched = true;
    ctx.launch.notify(SC_ZERO_TIME);
    if (ctx.threads_left == 0) retire(ctx);  // nothing to run
  }

  const Experiment& e_;
  std::vector<CtaContext>& ctas_;
  MemorySystem& memory_;
  std::vector<std::unique_ptr<BankedSmem>>& smems_;
  std::vector<Sm> sms_;
  sc_event freed_;
};

void CtaContext::thread_done() {
  if (--threads_left == 0) gpu->retire(*this);
}

// One thread of a CTA (a warp on the GPU) running its program.
struct Thread : sc_module {
  tlm_utils::simple_initiator_socket<Thread> warp{"warp"};  // its reads of the CTA's shared memory
  SC_HAS_PROCESS(Thread);
  Thread(sc_module_name n, const Experiment& e, const ThreadProgram& prog, CtaContext& cta, Measurement* marks)
      : sc_module(n), stores_done_("stores_done"), stores_read_("stores_read"), e_(e), prog_(prog), cta_(cta),
        marks_(marks) {
    SC_THREAD(run);
    SC_METHOD(on_store_done);
    sensitive << stores_done_;
    dont_initialize();
    SC_METHOD(on_store_read);
    sensitive << stores_read_;
    dont_initialize();
  }
  // Count store completions as they happen, whether or not the thread is waiting yet.
  void on_store_done() {
    ++stores_completed_;
    store_progress_.notify();
  }
  void on_store_read() {
    ++stores_read_count_;
    store_progress_.notify();
  }
  void run() {
    guarded([this] { run_steps(); });
    // In a process that ends after the run, a finished thread stays suspended instead of returning:
    // SystemC deletes a returned thread's process at once and unlinks it by a linear search of the
    // top-level objects (O(CTAs) each). Elsewhere it returns, so that no coroutine stack is left
    // with live frames when the modules are destroyed.
    if (g_exit_after_run && !process_error()) sc_core::wait();  // no static sensitivity: never resumed
  }
  void run_steps() {
    const bool tracing = !e_.perfetto_path.empty();
    if (!cta_.launched) wait(cta_.launch);
    for (const Step& s : prog_.steps) {
      current_ = &s;
      if (s.origin < e_.origins.size()) g_current_origin = e_.origins[s.origin].c_str();
      since_ = sc_time_stamp() / cycle_time(e_.cfg);
      execute(s);
      armed_ = s.kind == Step::Kind::arrive_expect_tx && s.bytes > 0 && s.target_rank < 0 ? s.barrier : -1;
      const double now = sc_time_stamp() / cycle_time(e_.cfg);
      if (tracing && now > since_) spans_.push_back({&s, since_, now});
    }
    current_ = nullptr;
    finished_ = true;
    --g_threads_running;
    end_ = sc_time_stamp() / cycle_time(e_.cfg);
    cta_.thread_done();
  }

  void execute(const Step& s) {
    const sc_time cyc = cycle_time(e_.cfg);
    if (s.thread_cycles > 0) wait(cyc * s.thread_cycles);
    switch (s.kind) {
      case Step::Kind::mark_start:
        if (marks_) marks_->start_cycles = sc_time_stamp() / cyc;
        first_issue_ = true;
        break;
      case Step::Kind::mark_issued:
        if (marks_) marks_->issued_cycles = sc_time_stamp() / cyc;
        break;
      case Step::Kind::arrive_expect_tx: {
        // An arrival addressed by cluster rank goes through mapa and a release at cluster
        // scope, even to the CTA's own barrier: far slower than a local arrive (measured).
        const double cost = s.target_rank >= 0 ? e_.cfg.cluster_arrive_cycles : e_.cfg.arrive_cycles;
        if (s.target_rank >= 0 && e_.cfg.cluster_arrive_waits_for_reads) {
          const sc_time drained = cta_.tma->reads_in_l2_by();
          if (drained > sc_time_stamp()) wait(drained - sc_time_stamp());
        }
        if (cost > 0) wait(cyc * cost);
        const int rank = s.target_rank < 0 ? cta_.own_rank : s.target_rank;
        cta_.cluster_barriers.at(rank).at(s.barrier)->arrive(s.bytes);
        break;
      }
      case Step::Kind::read: read(s.tile); break;
      case Step::Kind::load:
      case Step::Kind::reduce:
      case Step::Kind::prefetch:
      case Step::Kind::store: issue(s); break;
      case Step::Kind::wait_barrier: {
        // Done at the later of one try_wait round trip and the wake-up after the phase flip.
        Mbarrier* b = cta_.own().at(s.barrier);
        const sc_time t0 = sc_time_stamp();
        if (s.parity >= 0)
          b->wait_parity(s.parity);
        else
          b->wait_phase(s.phase);
        sc_time done = s.poll && e_.cfg.poll_cycles > 0 ? polled(t0, b->last_flip())
                                                        : std::max(t0 + cyc * e_.cfg.wait_cycles,
                                                                   b->last_flip() + cyc * e_.cfg.wait_wakeup_cycles);
        if (done > sc_time_stamp()) wait(done - sc_time_stamp());
        break;
      }
      case Step::Kind::wait_stores: {
        const int& counter = s.read_only ? stores_read_count_ : stores_completed_;
        while (counter < stores_ - s.pending) wait(store_progress_);
        break;
      }
      case Step::Kind::delay: wait(cyc * (static_cast<double>(s.cycles) + e_.cfg.spin_overhead_cycles)); break;
      case Step::Kind::stamp: stamps_.push_back(sc_time_stamp() / cyc - cta_.start_cycles); break;
      case Step::Kind::sync:
        cta_.sync->arrive(0);
        cta_.sync->wait_phase(sync_generation_++);
        if (e_.cfg.sync_cycles > 0) wait(cyc * e_.cfg.sync_cycles);
        break;
    }
  }

  // A test_wait loop started at t0 sees a flip at its first sample at or after it.
  sc_time polled(sc_time t0, sc_time flip) const {
    const double first = t0 / cycle_time(e_.cfg) + e_.cfg.poll_offset_cycles;
    const double late = flip / cycle_time(e_.cfg) - first;
    const double samples = late > 0 ? std::ceil(late / e_.cfg.poll_cycles - 1e-9) : 0;
    return cycle_time(e_.cfg) * (first + samples * e_.cfg.poll_cycles);
  }

  void issue(const Step& s) {
    const sc_time cyc = cycle_time(e_.cfg);
    TmaOp op;
    op.map = &e_.maps.at(s.map);
    op.ins = &s.ins;
    if (s.kind == Step::Kind::load) {
      const uint32_t mask = s.destination_mask(cta_.own_rank);
      for (int r = 0; r < static_cast<int>(cta_.cluster_barriers.size()); ++r)
        if (mask >> r & 1u) op.add_destination(r, cta_.cluster_barriers[r].at(s.barrier));
    } else if (s.kind != Step::Kind::prefetch) {
      op.done = &stores_done_;
      op.read_done = &stores_read_;
      ++stores_;
    }
    double cycles = first_issue_ ? e_.cfg.issue_first_cycles : e_.cfg.issue_cycles;
    if (op.dest_count > 1) cycles += e_.cfg.issue_multicast_cycles;
    // A load right after its own arrive.expect_tx: the thread is held longer; with
    // armed_load_holds_thread_only the load itself leaves after the issue cost alone.
    const double armed = s.kind == Step::Kind::load && s.barrier == armed_ ? e_.cfg.armed_load_cycles : 0.0;
    const bool after = e_.cfg.armed_load_holds_thread_only;
    if (!after) cycles += armed;
    first_issue_ = false;
    wait(cyc * cycles);
    cta_.tma->submit(op);
    if (after && armed > 0) wait(cyc * armed);
  }

  // One ldmatrix.x4 per 16x16 block of the tile, issued by one warp every ldmatrix_cycles
  // (several in flight); each is served by the shared-memory data path from its issue on, and
  // the step ends when the last one's data is back. The instructions go as one batch.
  void read(const TileLayout& t) {
    const sc_time cyc = cycle_time(e_.cfg);
    const TileAccesses& tile = tile_accesses(t);
    const std::vector<WarpAccess>& accesses = tile.list;
    WarpBatchExt batch;
    batch.pattern = tile.pattern;
    batch.accesses = accesses.data();
    batch.count = accesses.size();
    batch.interval = cyc * (t.read_is_looped() && e_.cfg.ldmatrix_looped_cycles > 0 ? e_.cfg.ldmatrix_looped_cycles
                                                                                    : e_.cfg.ldmatrix_cycles);
    if (e_.cfg.smem.move_bytes) read_lanes_.resize(32 * 16 * accesses.size());
    payload_.set_command(tlm::TLM_READ_COMMAND);
    payload_.set_address(0);
    payload_.set_data_ptr(e_.cfg.smem.move_bytes ? read_lanes_.data() : nullptr);
    payload_.set_data_length(static_cast<unsigned>(32 * 16 * accesses.size()));
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    payload_.set_extension(&batch);
    sc_time d = SC_ZERO_TIME;
    warp->b_transport(payload_, d);
    payload_.clear_extension(&batch);
    if (payload_.get_response_status() != tlm::TLM_OK_RESPONSE) throw Error("consumer read outside shared memory");
    reads_ += accesses.size();
    read_wavefronts_ += batch.wavefronts;
    read_ideal_ += batch.ideal;
    const sc_time issued = batch.interval * static_cast<double>(accesses.size());
    wait(batch.done > issued ? batch.done : issued);
  }

  // The ldmatrix.x4 of a tile, one per 16x16 block, row-block major (computed once per layout),
  // and their id for the shared memory (WarpBatchExt::pattern), never given to another list.
  struct TileAccesses {
    std::vector<WarpAccess> list;
    uint64_t pattern = 0;
  };
  static const TileAccesses& tile_accesses(const TileLayout& t) {
    using Key = std::tuple<int, int, int, int, uint32_t>;
    static std::map<Key, TileAccesses> known;
    static std::atomic<uint64_t> patterns{0};
    const Key key{t.rows, t.cols, static_cast<int>(t.dtype), static_cast<int>(t.swizzle), t.smem_offset};
    auto it = known.find(key);
    if (it != known.end()) return it->second;
    if (known.size() > 4096) known.clear();
    TileAccesses tile;
    for (int r0 = 0; r0 + 16 <= t.rows; r0 += 16)
      for (int c0 = 0; c0 + 16 <= t.cols; c0 += 16) tile.list.push_back(matrix_access(t, SmemOp::ldmatrix, 4, false, r0, c0));
    tile.pattern = ++patterns;
    return known.emplace(key, std::move(tile)).first->second;
  }

  // Why the thread is not finished, for a deadlock report.
  std::string blocked_on() const {
    if (!cta_.launched) return "was never launched (no SM slot freed for it)";
    if (!current_) return "not started";
    std::ostringstream os;
    const Step& s = *current_;
    if (s.kind == Step::Kind::wait_barrier) {
      const Mbarrier* b = cta_.own().at(s.barrier);
      os << "waits on barrier " << s.barrier;
      if (s.parity >= 0)
        os << " for parity " << s.parity;
      else
        os << " for phase " << s.phase;
      os << " (barrier has completed " << b->phase() << " phases; pending arrivals " << b->pending_arrivals()
         << " of " << b->arrival_count() << ", transaction count " << b->tx_count() << ")";
    } else if (s.kind == Step::Kind::sync) {
      os << "waits at a CTA-wide sync (" << cta_.sync->pending_arrivals() << " of " << cta_.sync->arrival_count()
         << " threads still to arrive)";
    } else if (s.kind == Step::Kind::wait_stores) {
      os << "waits for stores (" << stores_ << " issued, " << stores_completed_ << " done)";
    } else {
      os << "is blocked (TMA queue full?)";
    }
    if (s.origin < e_.origins.size()) os << " at " << e_.origins[s.origin];
    return os.str();
  }

  tlm::tlm_generic_payload payload_;  // the reads', reused
  std::vector<uint8_t> read_lanes_;
  uint64_t reads_ = 0, read_wavefronts_ = 0, read_ideal_ = 0;
  double end_ = 0, since_ = 0;  // since_: when the current step began
  std::vector<double> stamps_;
  struct Span {
    const Step* step;
    double begin, end;  // cycles
  };
  std::vector<Span> spans_;  // steps that took time, when tracing
  bool finished_ = false;
  const Step* current_ = nullptr;
  sc_event_queue stores_done_, stores_read_;
  sc_event store_progress_{"store_progress"};
  int stores_ = 0, stores_completed_ = 0, stores_read_count_ = 0;
  int sync_generation_ = 0;
  bool first_issue_ = true;
  int armed_ = -1;  // the barrier the previous step armed (a local arrive.expect_tx), else -1
  const Experiment& e_;
  const ThreadProgram& prog_;
  CtaContext& cta_;
  Measurement* marks_;
};

const char* step_name(const Step& s) {
  switch (s.kind) {
    case Step::Kind::arrive_expect_tx: return "arrive";
    case Step::Kind::load: return "issue load";
    case Step::Kind::store: return "issue store";
    case Step::Kind::reduce: return "issue reduce";
    case Step::Kind::prefetch: return "issue prefetch";
    case Step::Kind::wait_barrier: return "wait";
    case Step::Kind::wait_stores: return "wait stores";
    case Step::Kind::read: return "read (ldmatrix)";
    case Step::Kind::delay: return "delay / compute";
    case Step::Kind::sync: return "sync";
    case Step::Kind::stamp: return "stamp";
    case Step::Kind::mark_start:
    case Step::Kind::mark_issued: return "mark";
  }
  return "step";
}

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(); }

// Chrome trace-event JSON for Perfetto or chrome://tracing, times in microseconds of simulated
// time: a process per SM; in it, a track per CTA thread whose steps are slices (a thread does
// one thing at a time, so they never overlap), and per TMA unit its operations as async slices
// from issue to completion (operations overlap in the queue, and async slices may).
void write_trace(const Experiment& e, const std::vector<int>& cta_sm, const std::vector<std::unique_ptr<TmaUnit>>& tmas,
                 const std::vector<std::vector<std::unique_ptr<Thread>>>& threads) {
  std::ofstream tr(e.perfetto_path);
  if (!tr) throw Error("cannot write the trace to " + e.perfetto_path);
  const double us_per_cycle = 1.0 / e.cfg.sm_clock_mhz;
  // Times in units of 1/1024 us (about 1 ns), rounded once: binary fractions, so that a viewer's
  // ts + dur equals the next slice's ts exactly and back-to-back slices never nest. Ten decimals
  // print such a value exactly.
  auto us = [&](double cycles) { return static_cast<double>(std::llround(cycles * us_per_cycle * 1024)) / 1024; };
  tr.setf(std::ios::fixed);
  tr.precision(10);
  tr << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock_mhz\":" << e.cfg.sm_clock_mhz << "},\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&]() -> std::ostream& {
    if (!first) tr << ",\n";
    first = false;
    return tr;
  };
  std::set<int> sms;
  for (int sm : cta_sm) sms.insert(sm);
  for (int sm : sms)
    sep() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << sm << ",\"args\":{\"name\":\"SM " << sm << "\"}}";
  int tid = 0;
  uint64_t op_id = 0;
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const int pid = cta_sm[c];
    for (size_t t = 0; t < threads[c].size(); ++t, ++tid) {
      sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid << ",\"tid\":" << tid
            << ",\"args\":{\"name\":" << quoted("CTA " + std::to_string(c) + " " + e.ctas[c].threads[t].name) << "}}";
      for (const auto& span : threads[c][t]->spans_) {
        sep() << "{\"ph\":\"X\",\"name\":\"" << step_name(*span.step) << "\",\"pid\":" << pid << ",\"tid\":" << tid
              << ",\"ts\":" << us(span.begin) << ",\"dur\":" << us(span.end) - us(span.begin);
        if (span.step->origin < e.origins.size()) tr << ",\"args\":{\"step\":" << quoted(e.origins[span.step->origin]) << "}";
        tr << "}";
      }
    }
    const int tma_tid = tid++;
    sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid << ",\"tid\":" << tma_tid
          << ",\"args\":{\"name\":\"CTA " << c << " TMA unit\"}}";
    for (const auto& l : tmas[c]->lifetimes) {
      const uint64_t id = ++op_id;
      sep() << "{\"ph\":\"b\",\"cat\":\"tma\",\"name\":\"" << name(l.op) << "\",\"id\":" << id << ",\"pid\":" << pid
            << ",\"tid\":" << tma_tid << ",\"ts\":" << us(l.issue)
            << ",\"args\":{\"queued_us\":" << us(l.start) - us(l.issue) << "}}";
      sep() << "{\"ph\":\"e\",\"cat\":\"tma\",\"name\":\"" << name(l.op) << "\",\"id\":" << id << ",\"pid\":" << pid
            << ",\"tid\":" << tma_tid << ",\"ts\":" << us(l.done) << "}";
    }
  }
  tr << "\n]}\n";
  tr.close();
  if (!tr) throw Error("cannot write the trace to " + e.perfetto_path);
}

void simulate(const Experiment& e) {
  if (!e.progress) {
    sc_start();  // to the last event
    throw_process_error();
    return;
  }
  // Simulate in slices of a million cycles, reporting when the run takes a while.
  const auto wall0 = std::chrono::steady_clock::now();
  const sc_time slice = cycle_time(e.cfg) * 1e6;
  bool shown = false;
  do {
    sc_start(slice, SC_EXIT_ON_STARVATION);  // stops at the last event, not at the slice's end
    throw_process_error();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (secs > 1.0) {
      std::fprintf(stderr, "\r  simulated %.1f M cycles (%.1f s)", sc_time_stamp() / cycle_time(e.cfg) / 1e6, secs);
      shown = true;
    }
  } while (sc_pending_activity());
  if (shown) std::fprintf(stderr, "\r%60s\r", "");
}

// Runs the simulation to its last event, then one cycle more: the kernel traces a time step's
// values when time moves on, so the waveforms end with the last step's values, one cycle on.
void simulate_to_end(const Experiment& e) {
  simulate(e);
  sc_start(cycle_time(e.cfg));
  throw_process_error();
  announce_main_stack();  // later errors (a deadlock, an unwritable trace) throw from here on
}

}  // namespace

const char* current_step_origin() { return g_current_origin; }

// L2Start::warm: the program ran just before, so the global lines its TMA operations reached
// are resident, the most recent last. Its threads' steps are replayed in an interleaved order
// (step k of every thread, then step k + 1), which is what the L2's LRU order keeps of a
// previous run when its footprint is larger than the L2.
static void warm_l2(const Experiment& e, MemorySystem& memory) {
  std::vector<const std::vector<Step>*> threads;
  size_t longest = 0;
  for (const CtaProgram& p : e.ctas)
    for (const ThreadProgram& t : p.threads) {
      threads.push_back(&t.steps);
      longest = std::max(longest, t.steps.size());
    }
  for (size_t k = 0; k < longest; ++k)
    for (const std::vector<Step>* steps : threads) {
      if (k >= steps->size()) continue;
      const Step& s = (*steps)[k];
      if (s.kind != Step::Kind::load && s.kind != Step::Kind::store && s.kind != Step::Kind::reduce &&
          s.kind != Step::Kind::prefetch)
        continue;
      if (s.map < 0 || static_cast<size_t>(s.map) >= e.maps.size()) continue;  // the run reports it
      const TensorMap& m = e.maps[static_cast<size_t>(s.map)];
      if (s.ins.coords.size() != static_cast<size_t>(m.rank)) continue;
      const int64_t reach = dim0_reach(m, s.ins.op);
      const int unit = m.row_unit_bytes();
      for_each_row(m, s.ins, [&](const BoxRow& r) {
        const BoxRow::Window w = r.in_bound_window(reach);
        if (w.last < w.first) return;
        const uint64_t addr = m.global_address + static_cast<uint64_t>(r.global_offset + w.first * r.element_step * unit);
        memory.make_resident(addr, static_cast<uint64_t>((w.last - w.first) * r.element_step * unit + unit));
      });
    }
}

// Whether a step of any of the CTA's threads is `pred`'s.
template <class Pred>
bool any_step(const CtaProgram& p, Pred pred) {
  return std::any_of(p.threads.begin(), p.threads.end(),
                     [&](const ThreadProgram& t) { return std::any_of(t.steps.begin(), t.steps.end(), pred); });
}

Measurement run_experiment(const Experiment& e) {
  process_error() = nullptr;  // none left from an earlier run in this process
  Measurement out;
  if (!e.global) throw Error("experiment without global memory");
  if (e.global->empty() && e.global_bytes > 0 && e.cfg.smem.move_bytes)
    throw Error("an experiment that moves bytes needs its global memory's bytes");
  GlobalMemory g{e.global->data(), e.global->empty() ? e.global_bytes : e.global->size(), 0};
  MemorySystem memory("memory", e.cfg, g, e.l2_start);
  if (e.l2_start == L2Start::warm) warm_l2(e, memory);
  std::vector<std::unique_ptr<BankedSmem>> smems;
  ConflictMemo conflict_memo(e.cfg.smem.geometry());
  TmaUnit::TmaScratch tma_scratch;  // every TMA unit's operation buffers (one operation at a time)
  std::vector<std::unique_ptr<Mbarrier>> barriers;
  std::vector<std::unique_ptr<TmaUnit>> tmas;
  std::vector<CtaContext> contexts(e.ctas.size());
  std::vector<std::vector<std::unique_ptr<Thread>>> threads(e.ctas.size());
  std::vector<std::vector<Mbarrier*>> own_barriers(e.ctas.size());
  // Some thread waits for its TMA unit's reads (reads_in_l2_by).
  const bool arrives_by_rank = std::any_of(e.ctas.begin(), e.ctas.end(), [](const CtaProgram& p) {
    return any_step(p, [](const Step& s) { return s.kind == Step::Kind::arrive_expect_tx && s.target_rank >= 0; });
  });
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const CtaProgram& p = e.ctas[c];
    smems.push_back(std::make_unique<BankedSmem>(("smem_" + std::to_string(c)).c_str(), e.cfg.smem));
    smems.back()->share_conflict_memo(&conflict_memo);
    std::vector<int> counts = p.barrier_counts;
    if (counts.empty()) counts.assign(static_cast<size_t>(e.barriers_per_cta), 1);
    for (size_t b = 0; b < counts.size(); ++b) {
      const std::string n = "mbar_" + std::to_string(c) + "_" + std::to_string(b);
      barriers.push_back(std::make_unique<Mbarrier>(n.c_str(), counts[b]));
      own_barriers[c].push_back(barriers.back().get());
    }
    // The CTA-wide barrier of sync steps (most CTAs have none: a module less to elaborate).
    if (any_step(p, [](const Step& s) { return s.kind == Step::Kind::sync; })) {
      const int nthreads = std::max<int>(1, static_cast<int>(p.threads.size()));
      barriers.push_back(std::make_unique<Mbarrier>(("sync_" + std::to_string(c)).c_str(), nthreads));
      contexts[c].sync = barriers.back().get();
    }
    contexts[c].threads_left = static_cast<int>(p.threads.size());
  }
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const CtaProgram& p = e.ctas[c];
    const size_t base = c - static_cast<size_t>(p.cluster_rank);
    if (base + static_cast<size_t>(p.cluster_size) > e.ctas.size()) throw Error("a cluster runs past the last CTA");
    std::vector<BankedSmem*> cluster;  // by cluster rank
    CtaContext& ctx = contexts[c];
    ctx.index = static_cast<int>(c);
    ctx.own_rank = p.cluster_rank;
    for (int k = 0; k < p.cluster_size; ++k) {
      cluster.push_back(smems.at(base + k).get());
      ctx.cluster_barriers.push_back(own_barriers.at(base + k));
    }
    auto tma = std::make_unique<TmaUnit>(("tma_" + std::to_string(c)).c_str(), e.cfg, g, cluster, p.cluster_rank,
                                         static_cast<int>(base));  // CTA c binds memory port c
    tma->share_scratch(&tma_scratch);
    tma->track_reads_in_l2(arrives_by_rank);
    tma->mem.bind(memory.socket);
    for (int k = 0; k < p.cluster_size; ++k) (*tma->smem[k]).bind(cluster[k]->tma_socket);
    ctx.tma = tma.get();
    for (size_t t = 0; t < p.threads.size(); ++t) {
      const std::string n = "cta_" + std::to_string(c) + "_" + p.threads[t].name;
      threads[c].push_back(
          std::make_unique<Thread>(n.c_str(), e, p.threads[t], ctx, c == 0 && t == 0 ? &out : nullptr));
      threads[c].back()->warp.bind(smems[c]->warp_socket);
    }
    tmas.push_back(std::move(tma));
  }
  Gpu gpu("gpu", e, contexts, memory, smems);
  for (CtaContext& ctx : contexts) ctx.gpu = &gpu;
  g_threads_running = 0;
  for (auto& cta : threads) g_threads_running += static_cast<int>(cta.size());
  sc_trace_file* vcd = nullptr;
  if (!e.vcd_path.empty()) {
    std::string base = e.vcd_path;
    if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
    vcd = sc_create_vcd_trace_file(base.c_str());
    vcd->set_time_unit(1.0, SC_PS);
    for (auto& t : tmas) {
      const std::string n = t->name();
      sc_trace(vcd, t->occupancy, n + ".queue_occupancy");
      sc_trace(vcd, t->ops_in_flight(), n + ".ops_in_flight");
      sc_trace(vcd, t->bytes_in_flight(), n + ".bytes_in_flight");
    }
    for (auto& b : barriers) sc_trace(vcd, b->traced_phase(), std::string(b->name()) + ".phase");
    sc_trace(vcd, memory.hbm_backlog_cycles(), "memory.hbm_backlog_cycles");
    sc_trace(vcd, g_threads_running, "threads_running");
  }
  simulate_to_end(e);
  if (vcd) sc_close_vcd_trace_file(vcd);

  // A run that stopped with threads still waiting did not finish: say who waits on what.
  std::ostringstream blocked;
  int stuck = 0;
  double last = 0;  // the last time anything happened
  for (auto& cta : threads)
    for (auto& t : cta) last = std::max({last, t->end_, t->since_});
  for (const auto& t : tmas)
    if (!t->lifetimes.empty()) last = std::max(last, t->lifetimes.back().done);
  for (size_t c = 0; c < threads.size(); ++c)
    for (size_t t = 0; t < threads[c].size(); ++t)
      if (!threads[c][t]->finished_) {
        if (stuck++ < 8)
          blocked << "\n  CTA " << c << " thread '" << e.ctas[c].threads[t].name << "' "
                  << threads[c][t]->blocked_on();
      }
  if (stuck > 0) {
    std::ostringstream os;
    os << "deadlock at cycle " << static_cast<long long>(last) << ": " << stuck
       << " thread(s) can no longer continue" << blocked.str() << (stuck > 8 ? "\n  ..." : "");
    throw Error(os.str());
  }

  out.cta_end_cycles.assign(e.ctas.size(), 0.0);
  for (const CtaContext& ctx : contexts) {
    out.cta_start_cycles.push_back(ctx.start_cycles);
    out.cta_sm.push_back(ctx.sm);
  }
  out.thread_end_cycles.resize(e.ctas.size());
  out.stamps.resize(e.ctas.size());
  for (size_t c = 0; c < threads.size(); ++c)
    for (auto& t : threads[c]) {
      out.cta_end_cycles[c] = std::max(out.cta_end_cycles[c], t->end_);
      out.thread_end_cycles[c].push_back(t->end_);
      out.stamps[c].push_back(t->stamps_);
      out.read_instructions += t->reads_;
      out.read_wavefronts += t->read_wavefronts_;
      out.read_ideal += t->read_ideal_;
    }
  for (double end : out.cta_end_cycles) out.end_cycles = std::max(out.end_cycles, end);
  for (auto& t : tmas) {
    out.ops += t->ops();
    out.tma_bytes += t->bytes();
    out.max_queue = std::max(out.max_queue, t->max_queue());
  }
  if (!e.perfetto_path.empty()) write_trace(e, out.cta_sm, tmas, threads);
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
  out.l2_writebacks = memory.writebacks();
  if (g_exit_after_run) {  // the process ends next: SystemC's module registry is removed from one by one
    for (auto& x : smems) (void)x.release();
    for (auto& x : barriers) (void)x.release();
    for (auto& x : tmas) (void)x.release();
    for (auto& cta : threads)
      for (auto& x : cta) (void)x.release();
  }
  return out;
}

void exit_after_run() { g_exit_after_run = true; }

}  // namespace tmasim::sc
