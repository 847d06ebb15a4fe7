#include "cta_thread.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>
#include <utility>

#include "banked_smem.hpp"
#include "clock.hpp"
#include "cta.hpp"
#include "gpu.hpp"
#include "process_error.hpp"
#include "sm.hpp"
#include "tmasim/tile_layout.hpp"

namespace tmasim::sc {

using namespace sc_core;

const char* volatile g_current_origin = nullptr;
int g_threads_running = 0;
bool g_exit_after_run = false;

CtaThread::CtaThread(sc_module_name n, const Experiment& e, const ThreadProgram& prog, Cta& cta, Measurement* marks)
    : sc_module(n), stores_done_("stores_done"), stores_read_("stores_read"), e_(e), prog_(prog), cta_(cta),
      marks_(marks), cyc_(cycle_time(e.cfg)) {
  SC_THREAD(run);
  SC_METHOD(on_store_done);
  sensitive << stores_done_;
  dont_initialize();
  SC_METHOD(on_store_read);
  sensitive << stores_read_;
  dont_initialize();
}

void CtaThread::on_store_done() {
  ++stores_completed_;
  store_progress_.notify();
}

void CtaThread::on_store_read() {
  ++stores_read_count_;
  store_progress_.notify();
}

void CtaThread::run() {
  guarded([this] { run_steps(); });
  // In a process that ends after the run, a finished thread stays suspended instead of returning:
  // SystemC deletes a returned thread's process at once and unlinks it by a linear search of the
  // top-level objects (O(CTAs) each). Elsewhere it returns, so that no coroutine stack is left
  // with live frames when the modules are destroyed.
  if (g_exit_after_run && !process_error()) sc_core::wait();  // no static sensitivity: never resumed
}

void CtaThread::run_steps() {
  const bool tracing = !e_.perfetto_path.empty();
  if (!cta_.launched()) wait(cta_.launched_event());
  if (e_.cfg.start_cycles > 0) {  // the kernel's own code before the program: the thread's, as its issue work
    wait(cyc_ * e_.cfg.start_cycles);
    split_[static_cast<size_t>(StepTime::issue)] += e_.cfg.start_cycles;
  }
  StepCursor steps(prog_);
  while (const Step* next = steps.next()) {
    const Step& s = *next;
    current_ = &s;
    if (s.origin < e_.origins.size()) g_current_origin = e_.origins[s.origin].c_str();
    const sc_time started = sc_time_stamp();
    since_ = started / cyc_;
    execute(s);
    if (s.least_cycles > 0) {  // the user's own code takes at least this long for the step
      const sc_time until = started + cyc_ * static_cast<double>(s.least_cycles);
      if (until > sc_time_stamp()) wait(until - sc_time_stamp());
    }
    armed_ = s.kind == Step::Kind::arrive_expect_tx && s.bytes > 0 && s.target_rank < 0 ? s.barrier : -1;
    const double now = sc_time_stamp() / cyc_;
    split_[static_cast<size_t>(step_time_of(s.kind))] += now - since_;
    if (tracing && now > since_) spans_.push_back({s, since_, now});
  }
  current_ = nullptr;
  finished_ = true;
  --g_threads_running;
  end_ = sc_time_stamp() / cyc_;
  cta_.thread_done();
}

// Until the reads the CTA's TMA unit has sent by now are done (tma_unit.hpp: reads_out_done_by).
void CtaThread::wait_for_reads_out() {
  const sc_time drained = cta_.tma().reads_out_done_by();
  if (drained > sc_time_stamp()) wait(drained - sc_time_stamp());
}

void CtaThread::arrive(const Step& s) {
  const sc_time& cyc = cyc_;
  // An arrival addressed by cluster rank goes through mapa; released at cluster scope, even
  // to the CTA's own barrier, it is far slower than a local arrive (measured).
  const bool cluster_release = s.target_rank >= 0 && !s.release_cta;
  const double cost = s.target_rank < 0 ? e_.cfg.arrive_cycles
                      : s.release_cta   ? e_.cfg.remote_arrive_cycles
                                        : e_.cfg.cluster_arrive_cycles;
  const bool drains = cluster_release && e_.cfg.cluster_arrive_waits_for_reads;
  const bool after_cost = e_.cfg.cluster_arrive_waits_for_delivery;  // the reads are then delivered, not in L2
  if (drains && !after_cost) wait_for_reads_out();
  if (cost > 0) wait(cyc * cost);
  if (drains && after_cost) wait_for_reads_out();
  const int rank = s.target_rank < 0 ? cta_.own_rank() : s.target_rank;
  if (rank == cta_.own_rank())
    cta_.barrier_of_rank(rank, s.barrier).arrive(s.bytes);
  else  // crosses the cluster's network to the peer SM
    cta_.barrier_of_rank(rank, s.barrier).arrive_at(sc_time_stamp() + cyc * e_.cfg.remote_arrive_latency_cycles, s.bytes);
}

void CtaThread::execute(const Step& s) {
  const sc_time& cyc = cyc_;
  if (s.thread_cycles > 0) wait(cyc * s.thread_cycles);
  switch (s.kind) {
    case Step::Kind::mark_start:
      if (marks_) marks_->start_cycles = sc_time_stamp() / cyc;
      first_load_ = true;
      break;
    case Step::Kind::mark_issued:
      if (marks_) marks_->issued_cycles = sc_time_stamp() / cyc;
      break;
    case Step::Kind::arrive_expect_tx: arrive(s); break;
    case Step::Kind::read: tile_access(s.tile, false); break;
    case Step::Kind::write: tile_access(s.tile, true); break;
    case Step::Kind::fence: wait(cyc * e_.cfg.fence_proxy_cycles); break;
    case Step::Kind::load:
    case Step::Kind::reduce:
    case Step::Kind::prefetch:
    case Step::Kind::store: issue(s); break;
    case Step::Kind::wait_barrier: {
      // Done at the later of one try_wait round trip and the wake-up after the phase flip.
      Mbarrier* b = &cta_.barrier_of_rank(cta_.own_rank(), s.barrier);
      const sc_time t0 = sc_time_stamp();
      if (s.parity >= 0) {
        b->wait_parity(s.parity);
      } else {
        check_phase_wait(*b, s);
        b->wait_phase(s.phase);
      }
      sc_time done = s.poll && e_.cfg.poll_cycles > 0 ? polled(t0, b->last_flip())
                                                      : std::max(t0 + cyc * wait_cycles_of(s),
                                                                 b->last_flip() + cyc * e_.cfg.wait_wakeup_cycles);
      if (done > sc_time_stamp()) wait(done - sc_time_stamp());
      break;
    }
    case Step::Kind::wait_stores: {
      const int& counter = s.read_only ? stores_read_count_ : stores_completed_;
      while (counter < stores_ - s.pending) wait(store_progress_);
      break;
    }
    case Step::Kind::delay: {
      // SystemC's time is 64-bit picoseconds and saturates: a run that would pass it is an error, not
      // a run that reports fewer cycles than it took.
      const double ps = static_cast<double>(cyc.value()) * (static_cast<double>(s.cycles) + e_.cfg.spin_overhead_cycles);
      if (ps >= static_cast<double>(sc_max_time().value() - sc_time_stamp().value()))
        throw Error("simulated time passes SystemC's limit of 2^64 ps (" +
                    std::to_string(static_cast<long long>(sc_max_time() / cyc)) + " cycles at sm_clock_mhz " +
                    std::to_string(e_.cfg.sm_clock_mhz) + ")" + (s.origin < e_.origins.size() ? " at " + e_.origins[s.origin] : ""));
      wait(sc_time::from_value(static_cast<sc_dt::uint64>(ps)));
      break;
    }
    case Step::Kind::mma:
    case Step::Kind::mma_commit:
    case Step::Kind::mma_wait: warpgroup_mma(s); break;
    case Step::Kind::stamp:
      stamps_.push_back(sc_time_stamp() / cyc - cta_.start_cycles());
      if (e_.cfg.stamp_cycles > 0) wait(cyc * e_.cfg.stamp_cycles);
      break;
    case Step::Kind::sync:
      cta_.sync()->arrive(0);
      cta_.sync()->wait_phase(sync_generation_++);
      if (e_.cfg.sync_cycles > 0) wait(cyc * e_.cfg.sync_cycles);
      break;
  }
}

// wgmma on the SM's tensor cores, in commit groups: a group is done when its last wgmma is.
void CtaThread::warpgroup_mma(const Step& s) {
  if (s.kind == Step::Kind::mma) {
    Sm& sm = cta_.placed_on();
    const sc_time done = sm.tensor_cores.submit(s.mma, sc_time_stamp(), e_.cfg, sm.smem_path);
    open_group_done_ = std::max(open_group_done_, done);
    mma_instructions_ += static_cast<uint64_t>(s.mma.count);
    mma_flops_ += s.mma.count * s.mma.flops();
    if (e_.cfg.mma_issue_cycles > 0) wait(cyc_ * (e_.cfg.mma_issue_cycles * s.mma.count));
  } else if (s.kind == Step::Kind::mma_commit) {
    mma_groups_.push_back(open_group_done_);
    open_group_done_ = SC_ZERO_TIME;
  } else if (mma_groups_.size() > static_cast<size_t>(s.pending)) {  // mma_wait
    const auto done = mma_groups_.begin() + static_cast<long>(mma_groups_.size() - static_cast<size_t>(s.pending));
    const sc_time last = *std::max_element(mma_groups_.begin(), done);
    mma_groups_.erase(mma_groups_.begin(), done);
    if (last > sc_time_stamp()) wait(last - sc_time_stamp());
  }
}

// The GPU waits by parity (mbarrier.try_wait.parity, phase & 1), which tells the phase waited for
// from the one in progress only: a wait made two phases behind waits for one more phase there, one
// made ahead returns before its phase completes. Where the model would part from the GPU, refuse.
void CtaThread::check_phase_wait(const Mbarrier& b, const Step& s) const {
  const int done = b.phase();
  if (s.phase == done || s.phase == done - 1) return;
  const std::string who = "(CTA " + std::to_string(cta_.index()) + ", thread '" + prog_.name + "')";
  const std::string at = (s.origin < e_.origins.size() ? e_.origins[s.origin] + " " : "") + who + ": ";
  throw Error(at + "a wait for phase " + std::to_string(s.phase) + " of barrier " + std::to_string(s.barrier) +
              " made when " + std::to_string(done) + " of its phases have completed: " + kRefusalParityWait +
              " (mbarrier.try_wait.parity " + std::to_string(s.phase & 1) + "), which tells phase " +
              std::to_string(s.phase) + " only from the phase in progress, so there it would " +
              (s.phase > done ? "return before the phase completes" : "wait for a later phase or pass by chance") +
              " (keep each waiter within one phase of its barrier: docs/scenarios.md)");
}

sc_time CtaThread::polled(sc_time t0, sc_time flip) const {
  const double first = t0 / cyc_ + e_.cfg.poll_offset_cycles;
  const double late = flip / cyc_ - first;
  const double samples = late > 0 ? std::ceil(late / e_.cfg.poll_cycles - 1e-9) : 0;
  return cyc_ * (first + samples * e_.cfg.poll_cycles);
}

// A wait's try_wait round trip: its barrier and phase are constants in straight-line code.
double CtaThread::wait_cycles_of(const Step& s) const {
  return e_.cfg.straight_line_costs && s.straight ? e_.cfg.straight_wait_cycles : e_.cfg.wait_cycles;
}

double CtaThread::issue_cycles_of(Step::Kind kind) const {
  const bool own_prefetch_cost = kind == Step::Kind::prefetch && e_.cfg.issue_prefetch_cycles > 0;
  return own_prefetch_cost ? e_.cfg.issue_prefetch_cycles : e_.cfg.issue_cycles;
}

void CtaThread::issue(const Step& s) {
  const sc_time& cyc = cyc_;
  TmaOp op;
  op.map = &e_.maps.at(s.map);
  op.ins = s.ins;
  if (s.kind == Step::Kind::load) {
    const uint32_t mask = s.destination_mask(cta_.own_rank());
    for (int r = 0; r < cta_.cluster_size(); ++r)
      if (mask >> r & 1u) {
        Mbarrier& b = cta_.barrier_of_rank(r, s.barrier);
        b.load_issued();
        op.add_destination(r, &b);
      }
  } else if (s.kind != Step::Kind::prefetch) {
    op.done = &stores_done_;
    op.read_done = &stores_read_;
    ++stores_;
  }
  // The thread's first load pays its own cost (tests/golden/first_issue_probe: a prefetch or a store
  // before it does not take it off; a map's first use costs nothing more).
  const bool first = s.kind == Step::Kind::load && first_load_;
  double cycles = first ? e_.cfg.issue_first_cycles : issue_cycles_of(s.kind);
  if (op.dest_count > 1) cycles += e_.cfg.issue_multicast_cycles;
  // A load right after its own arrive.expect_tx: the thread is held longer, and the load itself
  // leaves after the issue cost alone where that is the thread's only (armed_load_holds_thread_only;
  // in straight-line code with straight_armed_load_cycles, straight_armed_holds_thread_only).
  const bool straight_armed = e_.cfg.straight_line_costs && s.straight && e_.cfg.straight_armed_load_cycles > 0;
  const bool armed_load = s.kind == Step::Kind::load && s.barrier == armed_;
  const double armed = !armed_load ? 0.0 : straight_armed ? e_.cfg.straight_armed_load_cycles : e_.cfg.armed_load_cycles;
  const bool after = straight_armed ? e_.cfg.straight_armed_holds_thread_only : e_.cfg.armed_load_holds_thread_only;
  if (!after) cycles += armed;
  if (first) first_load_ = false;
  wait(cyc * cycles);
  cta_.tma().submit(std::move(op));
  if (after && armed > 0) wait(cyc * armed);
}

// A read (ldmatrix.x4) or a write (stmatrix.x4, of zeros: the data is the emitted kernel's too) of
// a tile through the banked shared memory, one instruction per 16x16 block.
void CtaThread::tile_access(const TileLayout& t, bool write) {
  const sc_time& cyc = cyc_;
  const TileAccesses& tile = tile_accesses(t, write);
  const std::vector<WarpAccess>& accesses = tile.list;
  WarpBatchExt batch;
  batch.pattern = tile.pattern;
  batch.accesses = accesses.data();
  batch.count = accesses.size();
  batch.interval = cyc * tile_interval_cycles(t, write);
  if (e_.cfg.smem.move_bytes && write) read_lanes_.assign(32 * 16 * accesses.size(), 0);
  if (e_.cfg.smem.move_bytes && !write) read_lanes_.resize(32 * 16 * accesses.size());
  payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_address(0);
  payload_.set_data_ptr(e_.cfg.smem.move_bytes ? read_lanes_.data() : nullptr);
  payload_.set_data_length(static_cast<unsigned>(32 * 16 * accesses.size()));
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  payload_.set_extension(&batch);
  sc_time d = SC_ZERO_TIME;
  warp->b_transport(payload_, d);
  payload_.clear_extension(&batch);
  if (payload_.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw Error(write ? "a write outside shared memory" : "consumer read outside shared memory");
  if (!write) {  // the report's consumer reads (smem_wavefronts counts both)
    reads_ += accesses.size();
    read_wavefronts_ += batch.wavefronts;
    read_ideal_ += batch.ideal;
  }
  const sc_time issued = batch.interval * static_cast<double>(accesses.size());
  wait(batch.done > issued ? batch.done : issued);
}

// The cycles between a tile's instructions: the instruction's own, and in a tile the emitted CUDA
// runs as a loop (TileLayout::read_is_looped) the loop's, the same for either (ldmatrix_looped_cycles
// less ldmatrix_cycles; tests/golden/epilogue_probe: stmatrix 10.2 unrolled, 14.1 looped).
double CtaThread::tile_interval_cycles(const TileLayout& t, bool write) const {
  const TimingConfig& c = e_.cfg;
  const bool looped = t.read_is_looped() && c.ldmatrix_looped_cycles > 0;
  if (!write || c.stmatrix_cycles <= 0) return looped ? c.ldmatrix_looped_cycles : c.ldmatrix_cycles;
  return c.stmatrix_cycles + (looped ? c.ldmatrix_looped_cycles - c.ldmatrix_cycles : 0);
}

const CtaThread::TileAccesses& CtaThread::tile_accesses(const TileLayout& t, bool write) {
  using Key = std::tuple<int, int, int, int, uint32_t, bool>;
  static std::map<Key, TileAccesses> known;
  static std::atomic<uint64_t> patterns{0};
  const Key key{t.rows, t.cols, static_cast<int>(t.dtype), static_cast<int>(t.swizzle), t.smem_offset, write};
  const SmemOp op = write ? SmemOp::stmatrix : SmemOp::ldmatrix;
  auto it = known.find(key);
  if (it != known.end()) return it->second;
  if (known.size() > 4096) known.clear();
  TileAccesses tile;
  for (int r0 = 0; r0 + 16 <= t.rows; r0 += 16)
    for (int c0 = 0; c0 + 16 <= t.cols; c0 += 16) tile.list.push_back(matrix_access(t, op, 4, false, r0, c0));
  tile.pattern = ++patterns;
  return known.emplace(key, std::move(tile)).first->second;
}

std::string CtaThread::blocked_on() const {
  if (!cta_.launched()) return "was never launched (no SM slot freed for it)";
  if (!current_) return "not started";
  std::ostringstream os;
  const Step& s = *current_;
  if (s.kind == Step::Kind::wait_barrier) {
    const Mbarrier* b = &cta_.barrier_of_rank(cta_.own_rank(), s.barrier);
    os << "waits on barrier " << s.barrier;
    if (s.parity >= 0)
      os << " for parity " << s.parity;
    else
      os << " for phase " << s.phase;
    os << " (barrier has completed " << b->phase() << " phases; pending arrivals " << b->pending_arrivals()
       << " of " << b->arrival_count() << ", transaction count " << b->tx_count() << ")";
    // Nothing is in flight at a deadlock: bytes still expected will never land.
    if (b->pending_arrivals() == 0 && b->tx_count() > 0)
      os << ": every arrival is in, but " << b->tx_count()
         << " expected bytes never landed (an expect_tx larger than the bytes its loads deliver?)";
    else if (b->pending_arrivals() == 0 && b->tx_count() < 0)
      os << ": every arrival is in, but " << -b->tx_count()
         << " bytes landed beyond those expected (loads on this barrier deliver more than its expect_tx)";
  } else if (s.kind == Step::Kind::sync) {
    os << "waits at a CTA-wide sync (" << cta_.sync()->pending_arrivals() << " of " << cta_.sync()->arrival_count()
       << " threads still to arrive)";
  } else if (s.kind == Step::Kind::wait_stores) {
    os << "waits for stores (" << stores_ << " issued, " << stores_completed_ << " done)";
  } else {
    os << "is blocked (TMA queue full?)";
  }
  if (s.origin < e_.origins.size()) os << " at " << e_.origins[s.origin];
  return os.str();
}

}  // namespace tmasim::sc
