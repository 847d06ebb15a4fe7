// Cycle-approximate SystemC model of TMA units, their banked shared memories and the memory
// system behind them, connected by TLM-2.0 sockets (loosely timed, with the delay of each
// transport call carrying the time at which its data is there).
//
//   Gpu (simulation.cpp): gpu.sms SMs, each with CTA slots (limited by slots, warps and shared
//   memory); places clusters breadth first and launches the rest in waves as CTAs end.
//   Per SM, shared by its resident CTAs: the TMA engine (address generator, store path,
//   descriptor cache, reads in flight), the shared-memory data path, the memory port.
//   Per CTA:
//     CTA threads (SC_THREADs) --issue--> TmaUnit (its queue, served by its SM's TmaEngine)
//        TmaUnit --init socket--> MemorySystem (L2 lines, LRU; HBM queue; a port per SM)
//        TmaUnit --init socket--> BankedSmem.tma_socket of its own CTA and, for multicast,
//                                 of the cluster's other CTAs
//        completions --> Mbarrier (transaction bytes, phases)
//
// The bytes an operation moves come from the functional core (tmasim::execute), which is the
// one source of truth for data; the timing path moves them through the sockets. Every
// latency, width and depth is a TimingConfig field read from configs/h100.json.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "banked_smem.hpp"
#include "calendar.hpp"
#include "line_table.hpp"
#include "tmasim/tma.hpp"

namespace tmasim::sc {

// An error inside a SystemC process is kept and the simulation stopped, and whoever called
// sc_start throws it from its own stack (throw_process_error). An exception that unwinds out of a
// process's coroutine stack into the kernel leaves AddressSanitizer with a wrong idea of the stack
// and a false report later (its own warning cites google/sanitizers#189); so each of the model's
// threads runs its body in `guarded`.
std::exception_ptr& process_error();
template <class Body>
void guarded(Body&& body) {
  try {
    body();
  } catch (...) {
    if (!process_error()) process_error() = std::current_exception();
    sc_core::sc_stop();
  }
}
// Rethrows (and forgets) a kept error; nothing when there is none.
void throw_process_error();
// After SystemC's coroutines have run, AddressSanitizer's clean-up before a throw
// (__asan_handle_no_return) no longer knows the main stack's bounds (it warns so, citing
// google/sanitizers#189), leaves the unwound frames' poison in place and then reports a
// stack-buffer-overflow in its own sigaltstack call. This tells it the thread's stack again, as
// a fiber switch to itself (AddressSanitizer builds only; nothing otherwise). Called once the
// simulation has returned and before rethrowing a process's error.
void announce_main_stack();

struct TimingConfig {
  double sm_clock_mhz = 1980;
  // The chip: SMs, and what one SM holds at once (CTA slots). A grid with more CTAs than
  // slots runs in waves: a CTA starts cta_launch_cycles after a slot frees.
  int sms = 132;
  int max_ctas_per_sm = 32;
  int max_warps_per_sm = 64;
  int64_t smem_per_sm_bytes = 233472;      // the shared memory CTAs may be given (228 KiB)
  int smem_reserved_per_cta_bytes = 1024;  // the system's share of each CTA's
  int cta_launch_cycles = 0;
  // CTA thread: cycles from the timed start to the first issue, and per further issue.
  int issue_first_cycles = 434;
  int issue_cycles = 172;
  int issue_multicast_cycles = 85;  // extra per multicast issue
  // TMA unit
  int op_queue_depth = 16;
  int descriptor_fetch_cycles = 0;  // first use of a tensor map (not cached yet)
  int agu_latency_cycles = 40;
  double agu_bytes_per_cycle = 128;
  int completion_cycles = 30;       // last shared-memory write to mbarrier phase flip
  int multicast_cycles = 60;        // extra delivery time into other CTAs of the cluster
  double store_bytes_per_cycle = 40;
  int store_ack_cycles = 30;
  // Memory system
  int l2_hit_cycles = 200;
  int l2_miss_cycles = 610;
  // DRAM latency spread: each miss waits an extra exponential delay of this mean, drawn
  // from a hash of the line address (reproducible); an op waits for its slowest miss.
  double l2_miss_jitter_cycles = 80;
  int l2_line_bytes = 128;
  int sector_bytes = 32;  // DRAM transfers are whole sectors
  int64_t l2_bytes = 50 << 20;
  double sm_l2_bytes_per_cycle = 100;   // one SM's port from L2
  double sm_hbm_bytes_per_cycle = 54;   // one SM's share of misses
  double hbm_bytes_per_cycle = 1550;    // the chip
  double l2_bytes_per_cycle = 0;        // the chip's L2 to all SMs, reads that hit (0: no limit but the ports)
  // Of the L2's lines, the share a write flush larger than the L2 leaves dirty (the harness's
  // cold state): a fill that evicts one first writes it back, on the DRAM's bandwidth.
  double flush_dirty_fraction = 0;
  bool time_ordered = false;            // DRAM and ports serve in simulated-time order, not booking order
  // Threads of a CTA (a warp on the GPU), from the H100 microbenchmarks
  // (tests/golden/microbench, and the corpus's calibration micro family).
  double arrive_cycles = 0;          // a local mbarrier.arrive (with or without expect_tx)
  double cluster_arrive_cycles = 0;  // mapa + mbarrier.arrive.release.cluster (any rank, own included)
  // The release at cluster scope first waits until every read the CTA's TMA unit has sent to
  // the memory system has its data in L2 (H100: 659 cycles per arrive idle, 778 beside a warm
  // stream of loads, 1509 beside a cold one; tests/golden/microbench stream_*).
  bool cluster_arrive_waits_for_reads = true;
  double wait_cycles = 0;            // a wait whose phase has long completed (one try_wait)
  double wait_wakeup_cycles = 0;     // from a phase flip to the waiting thread's next step
  // A test_wait loop (the tb/gpu harness's mbar_wait: test_wait, clock64, compare) samples the
  // phase every poll_cycles, the first time poll_offset_cycles after the loop starts; it sees
  // the flip at the first sample at or after it (0: no loop, waits as try_wait does).
  double poll_cycles = 0;
  double poll_offset_cycles = 0;
  // A load issued right after the thread's own arrive.expect_tx on the barrier the load signals
  // waits this long beyond its issue cost (the H100 performs the arrive first); with any other
  // step between them, or another barrier, it does not.
  double armed_load_cycles = 0;
  bool armed_load_holds_thread_only = false;  // armed_load_cycles hold the thread after the load is submitted
  double ldmatrix_cycles = 0;        // one warp's issue interval between ldmatrix.x4 of a read
  // ... of a read that runs as a loop (TileLayout::read_is_looped; 0: ldmatrix_cycles)
  double ldmatrix_looped_cycles = 0;
  double spin_overhead_cycles = 0;   // a delay or compute step (a clock64 spin) beyond its cycles
  // One loop iteration pays this for each division or remainder of a value computed from its
  // variable by a constant that is not a power of two (k / S and k % S count once). Off in
  // h100.json: the PTX computes one in a few instructions; what slows the loop probe's 3/5/6-stage
  // loops is the address arithmetic around such a stage base (tests/golden/loop_probe/README.md).
  double divide_cycles = 0;
  int sync_cycles = 0;               // a CTA-wide barrier among its threads
  // Compute steps: an MMA m x n x k takes 2*m*n*k / mma_flops_per_cycle cycles (dense fp16
  // on one H100 SM: 989 TFLOP/s / 132 SMs / 1.83 GHz = 4096, the datasheet figure).
  double mma_flops_per_cycle = 4096;
  SmemConfig smem;
  bool rtl_agu = false;  // generate addresses with the Verilated rtl/tma_agu.sv instead of C++

  sc_core::sc_time cycle() const { return sc_core::sc_time(1000.0 / sm_clock_mhz, sc_core::SC_NS); }
  static TimingConfig from_json_file(const std::string& path);
  static TimingConfig from_json(const nlohmann::json& j, const std::string& where);
};

// `--set section.key=value` on a configuration before it is read (values are JSON; a bare
// word is a string). Unknown sections and keys are then refused by from_json.
void apply_config_overrides(nlohmann::json& j, const std::vector<std::pair<std::string, std::string>>& sets);

// Carried on TMA read requests: the tensor map's L2 promotion (bytes an L2 miss fetches from
// DRAM, at least the request; 0 for none). The memory system answers with `l2_ready`: when
// the request's data is in L2 (before the SM's port streams it out).
struct L2PromotionExt : tlm::tlm_extension<L2PromotionExt> {
  int bytes = 0;
  sc_core::sc_time l2_ready = sc_core::SC_ZERO_TIME;
  tlm::tlm_extension_base* clone() const override { return new L2PromotionExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override {
    bytes = static_cast<const L2PromotionExt&>(o).bytes;
    l2_ready = static_cast<const L2PromotionExt&>(o).l2_ready;
  }
};

// Carried on a read of a whole box (TLM_READ_COMMAND): its rows' in-bound runs, each sent at its
// own time and served as its own request would be, in row order; the memory system fills in
// when each row's data is back at the SM and when it was in L2. The payload's address and
// length are unused; an L2PromotionExt on the same payload applies to every row.
struct ReadBurstExt : tlm::tlm_extension<ReadBurstExt> {
  const uint64_t* addr = nullptr;
  const uint64_t* bytes = nullptr;
  const sc_core::sc_time* at = nullptr;
  sc_core::sc_time* done = nullptr;      // out
  sc_core::sc_time* l2_ready = nullptr;  // out
  size_t rows = 0;
  tlm::tlm_extension_base* clone() const override { return new ReadBurstExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const ReadBurstExt&>(o); }
};

// Carried on a delivery (TLM_IGNORE_COMMAND): the bytes of a multicast read that another SM
// of the cluster receives; only that SM's port is booked.
struct DeliveryExt : tlm::tlm_extension<DeliveryExt> {
  int port = 0;
  tlm::tlm_extension_base* clone() const override { return new DeliveryExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { port = static_cast<const DeliveryExt&>(o).port; }
};

// Carried on TMA write requests: a reduction, which the L2 performs on the line (fetching it
// from DRAM on a miss) rather than overwriting it.
struct ReduceExt : tlm::tlm_extension<ReduceExt> {
  bool reduce = false;
  tlm::tlm_extension_base* clone() const override { return new ReduceExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { reduce = static_cast<const ReduceExt&>(o).reduce; }
};

// What the L2 holds when a run starts (the GPU harness's L2 states). Either way it is full of
// another buffer's lines, older than anything the run touches, so fills evict them first.
enum class L2Start {
  cold,        // after a write flush larger than the L2: flush_dirty_fraction of its lines dirty
  cold_clean,  // after the flush and a read of more than the L2: clean lines only
  warm,        // after a run of the same program: the lines it reached, up to the L2's size
};
// "cold", "cold_clean" or "warm"; an Error naming them otherwise.
L2Start l2_start_from_name(const std::string& name);

class MemorySystem : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<MemorySystem> socket;  // one binding per CTA
  MemorySystem(sc_core::sc_module_name name, const TimingConfig& cfg, GlobalMemory memory,
               L2Start start = L2Start::cold);
  // The SM whose port a binding's requests stream through (by default its own port).
  void place(int binding, int sm);

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  // For waveforms: the DRAM backlog, in cycles, seen by the last miss.
  const int64_t& hbm_backlog_cycles() const { return hbm_backlog_cycles_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t writebacks() const { return writebacks_; }  // dirty lines of the start state written back
  // L2Start::warm, before the run: the lines [addr, addr + len) are resident with their data
  // (most recently used last), evicting the start state's clean lines.
  void make_resident(uint64_t addr, uint64_t len);

 private:
  void transport(int port, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  struct Served {
    sc_core::sc_time l2_ready;  // the data is in L2 (a write: it arrived there)
    sc_core::sc_time done;      // the port has streamed it to (or from) the SM
  };
  // One contiguous run arriving at `arrival`; span: the L2 promotion (0 for none).
  Served serve(int port, bool write, bool reduce, uint64_t addr, uint64_t len, sc_core::sc_time arrival, uint64_t span);
  // The rest of serve once its lines were looked up: fills, DRAM, write-backs.
  Served serve_fill(int port, bool write, bool reduce, uint64_t addr, uint64_t len, sc_core::sc_time arrival,
                    uint64_t span, bool all_hit, sc_core::sc_time pending);
  bool in_memory(uint64_t addr, uint64_t len) const;
  // True when the line is resident; `pending` then rises to when its data is there (a fill
  // still on its way from DRAM). A missing line is allocated and listed in fresh_.
  bool lookup_and_fill(uint64_t line, sc_core::sc_time& pending);

  // The L2 line holding byte `addr` (a shift when lines are a power of two).
  uint64_t line_of(uint64_t addr) const { return line_shift_ >= 0 ? addr >> line_shift_ : addr / line_bytes_; }
  // The time `len` bytes take at `bytes_per_cycle`, remembered for the last length (most
  // requests are one row: one division, not one per request).
  struct TimePerLength {
    double bytes_per_cycle = 1;
    uint64_t len = 0;
    sc_core::sc_time time;
    sc_core::sc_time of(uint64_t bytes, sc_core::sc_time cycle) {
      if (bytes != len) {
        len = bytes;
        time = cycle * (static_cast<double>(bytes) / bytes_per_cycle);
      }
      return time;
    }
  };
  // The SM's port streaming `len` bytes from the L2.
  sc_core::sc_time port_time_from_l2(uint64_t len) { return port_from_l2_.of(len, cycle_); }
  // A read of one resident line, neither filling nor waiting for DRAM (most of a box's rows):
  // serve()'s hit path without its generality. False (nothing done) for any other request.
  bool serve_line_hit(int sm, uint64_t addr, uint64_t len, sc_core::sc_time arrival, Served& out);
  Served read_hit(int sm, uint64_t len, sc_core::sc_time arrival, sc_core::sc_time pending);

  TimingConfig cfg_;
  GlobalMemory mem_;
  sc_core::sc_time cycle_, hit_latency_;
  sc_core::sc_time now_;  // the present, read once per transaction: the calendars forget what ended before it
  uint64_t line_bytes_;
  int line_shift_ = -1;
  TimePerLength port_from_l2_, l2_out_;  // sm_l2_bytes_per_cycle, l2_bytes_per_cycle
  LineTable lines_;  // resident lines, LRU order, when each one's data is in the L2
  std::vector<uint64_t> fresh_;  // lines the current request allocated
  // The start state's lines (the least recently used of all: each fill evicts one of them while
  // any is left), how many of them were dirty, and how many are gone.
  uint64_t old_lines_total_ = 0, old_dirty_ = 0, old_evicted_ = 0;
  uint64_t writebacks_ = 0;
  uint64_t evict_old_lines(uint64_t fills);  // returns how many of those evicted were dirty
  sc_core::sc_time hbm_free_ = sc_core::SC_ZERO_TIME;
  int64_t hbm_backlog_cycles_ = 0;
  std::vector<sc_core::sc_time> port_free_;  // by SM
  sc_core::sc_time l2_free_ = sc_core::SC_ZERO_TIME;
  Calendar dram_, l2_;              // memory.time_ordered
  std::vector<Calendar> ports_;     // memory.time_ordered, by SM
  sc_core::sc_time book_dram(sc_core::sc_time arrival, sc_core::sc_time duration);  // returns the start
  // A hit's data leaves the L2 through its output (memory.l2_bytes_per_cycle), then the SM's port.
  sc_core::sc_time book_l2_out(sc_core::sc_time ready, uint64_t bytes);  // returns the start
  sc_core::sc_time book_port(int sm, sc_core::sc_time ready, sc_core::sc_time duration);  // returns the end
  std::vector<int> sm_of_binding_;
  int sm_of(int binding) const;
  uint64_t hits_ = 0, misses_ = 0, bytes_ = 0;
};

// An mbarrier as PTX defines it: an arrival count set at init, a transaction count that
// expect_tx raises and complete_tx lowers (it may go below zero when data lands before the
// expectation), and a phase that completes when both the pending arrivals and the
// transaction count reach zero.
class Mbarrier : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Mbarrier);
  explicit Mbarrier(sc_core::sc_module_name name, int arrival_count = 1);
  void arrive(int64_t expect_tx_bytes = 0);                 // mbarrier.arrive[.expect_tx]
  void arrive_expect_tx(int64_t bytes) { arrive(bytes); }
  void complete_at(sc_core::sc_time when, int64_t bytes);  // absolute time
  void wait_phase(int phase);                               // from a thread: phase `phase` has completed
  void wait_parity(int parity);                             // test_wait.parity: the current phase's parity differs
  int phase() const { return phase_; }                      // phases completed so far
  sc_core::sc_time last_flip() const { return last_flip_; }  // when the latest phase completed
  const int& traced_phase() const { return phase_; }         // for waveforms
  int pending_arrivals() const { return pending_arrivals_; }
  int64_t tx_count() const { return tx_; }
  int arrival_count() const { return count_; }

 private:
  void apply();
  void try_complete();
  int count_, pending_arrivals_;
  int64_t tx_ = 0;
  int phase_ = 0;
  sc_core::sc_time last_flip_ = sc_core::SC_ZERO_TIME;
  std::multimap<sc_core::sc_time, int64_t> pending_;
  sc_core::sc_event due_{"due"};  // at the earliest of pending_ (named: cheaper to elaborate)
  sc_core::sc_event flipped_{"flipped"};
};

struct TmaOp {
  static constexpr int kMaxDestinations = 16;  // a cluster's CTAs (at most 16 on Hopper)
  struct Destination {
    int rank = 0;
    Mbarrier* barrier = nullptr;
  };
  const TensorMap* map = nullptr;
  const TmaInstruction* ins = nullptr;  // the issuing step's (steps outlive the run)
  // Loads: the cluster ranks receiving the box (the issuing CTA's own rank alone unless
  // multicast) and, for each, the mbarrier whose transaction count it completes. Inline, not
  // allocated: an operation is copied into and out of the unit's queue.
  std::array<Destination, kMaxDestinations> dests{};
  int dest_count = 0;
  void add_destination(int rank, Mbarrier* barrier) {
    if (dest_count == kMaxDestinations)
      throw Error("a multicast load reaches more than " + std::to_string(kMaxDestinations) + " CTAs");
    dests[static_cast<size_t>(dest_count++)] = {rank, barrier};
  }
  sc_core::sc_event_queue* done = nullptr;       // stores: notified once per store when written
  sc_core::sc_event_queue* read_done = nullptr;  // stores: when its shared memory has been read
  double issued_cycles = 0;
};

// sc_fifo prints its contents on request.
inline std::ostream& operator<<(std::ostream& os, const TmaOp& op) {
  if (!op.ins) return os << "(no instruction)";
  return os << name(op.ins->op) << " at smem " << op.ins->smem_offset;
}

// What one SM's TMA unit holds for every CTA resident on it: the address generator and the
// store path (booked by each CTA's operations in simulated time), the tensor maps it has
// fetched, and the reads it has in flight (what a release at cluster scope waits for).
struct TmaEngine {
  sc_core::sc_time agu_free = sc_core::SC_ZERO_TIME;
  sc_core::sc_time store_free = sc_core::SC_ZERO_TIME;
  std::vector<const TensorMap*> descriptors;
  // (sent, data in L2), by sending, from reads_head on. A vector, not a deque: a deque's
  // destructor builds iterators on the stack, which AddressSanitizer misreads after an error
  // unwinds a SystemC thread's own stack.
  std::vector<std::pair<sc_core::sc_time, sc_core::sc_time>> reads_out;
  size_t reads_head = 0;
};

// A CTA's port into its SM's TMA unit: its queue of operations, served in order by the engine
// of the SM the CTA is placed on (attach), shared with the SM's other CTAs.
class TmaUnit : public sc_core::sc_module {
 public:
  // Address generation's output, one operation at a time (public for the RTL driver).
  struct RowPlan {
    uint64_t gaddr = 0;                 // first in-bound byte
    int64_t bytes = 0;                  // in-bound bytes to read (0: the row is all fill)
    int64_t agu_cycle = 0;              // RTL generator: cycle its first beat left, from the command
  };
  // One operation's rows, reused by the next (the vectors keep their capacity).
  struct RowPlans {
    std::vector<RowPlan> rows;
    size_t count = 0;
    std::vector<uint32_t> pieces;  // swizzled addresses of the rows' 16-byte pieces, row after row
    int64_t agu_end_cycle = 0;     // RTL generator: the cycle after the last beat
    void clear() {
      count = 0;
      pieces.clear();
      agu_end_cycle = 0;
    }
    RowPlan& add() {
      if (count == rows.size()) rows.emplace_back();
      RowPlan& r = rows[count++];
      r = RowPlan{};
      return r;
    }
    const RowPlan* begin() const { return rows.data(); }
    const RowPlan* end() const { return rows.data() + count; }
  };
  // What one operation works in: its rows, their times, its bytes. An operation is served
  // without yielding, so every TMA unit of the chip can share one (share_scratch): 132 CTAs'
  // copies (with a shared-memory image each when bytes move) would not stay in the caches.
  struct TmaScratch {
    RowPlans plans;
    std::vector<std::vector<sc_core::sc_time>> arrivals;  // per destination, per row
    std::vector<sc_core::sc_time> row_done;
    std::vector<sc_core::sc_time> issues;  // when each row of the box left the generator
    struct Burst {  // a box's in-bound rows, read in one transaction
      std::vector<uint64_t> addr, bytes;
      std::vector<sc_core::sc_time> at, done, l2_ready;
      void clear() {
        addr.clear();
        bytes.clear();
        at.clear();
      }
      void add(uint64_t a, uint64_t n, sc_core::sc_time when) {
        addr.push_back(a);
        bytes.push_back(n);
        at.push_back(when);
      }
      void resize(size_t n) {
        addr.resize(n);
        bytes.resize(n);
        at.resize(n);
      }
      void set(size_t k, uint64_t a, uint64_t n, sc_core::sc_time when) {
        addr[k] = a;
        bytes[k] = n;
        at[k] = when;
      }
    } burst;
    std::vector<uint8_t> image;     // the functional core's image of the box being moved
    std::vector<uint8_t> box_data;  // its pieces' bytes, on the way to shared memory
    // The plans of boxes wholly inside their tensors, one per map, reach and shared-memory
    // phase: another such box has the same rows moved by its origin's offset and the same
    // pieces moved by its shared-memory offset (plan_rows).
    struct PlanTemplate {
      const TensorMap* map = nullptr;
      int64_t reach = 0;
      uint32_t phase = 0;          // smem_offset modulo the swizzle's repeat and the conflict memo's period
      uint64_t pattern = 0;        // its pieces' id for the shared memory (BoxTransferExt::pattern)
      uint64_t origin_offset = 0;  // offset_of the box it was made from, and its smem_offset
      uint32_t smem_offset = 0;
      std::vector<RowPlan> rows;
      std::vector<uint32_t> pieces;
    };
    std::vector<PlanTemplate> templates;
    size_t next_template = 0;  // the one a new template replaces once there are kMaxTemplates
  };
  void share_scratch(TmaScratch* scratch) { s_ = scratch; }
  tlm_utils::simple_initiator_socket<TmaUnit> mem;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<TmaUnit>>> smem;  // [0]: own SM
  SC_HAS_PROCESS(TmaUnit);
  // cluster_smem: the cluster's shared memories by cluster rank; own_rank: this CTA's.
  // `first_port`: the memory-system port of the cluster's rank-0 CTA (ranks follow it), so
  // that a multicast books each destination SM's port too.
  TmaUnit(sc_core::sc_module_name name, const TimingConfig& cfg, GlobalMemory global,
          std::vector<BankedSmem*> cluster_smem, int own_rank, int first_port);
  void submit(const TmaOp& op);  // from a CTA thread; blocks while the queue is full
  void attach(TmaEngine* engine) { eng_ = engine; }  // the SM's, once the CTA is placed

  uint64_t ops() const { return ops_; }
  uint64_t bytes() const { return bytes_; }
  int max_queue() const { return max_queue_; }
  // Operations waiting, for waveforms (written once per delta by show_occupancy).
  sc_core::sc_signal<int> occupancy{"occupancy"};
  // Operations and bytes issued and not yet complete, for waveforms.
  const int& ops_in_flight() const { return ops_in_flight_; }
  const int64_t& bytes_in_flight() const { return bytes_in_flight_; }
  struct Lifetime {
    Op op;
    double issue, start, done;  // cycles
  };
  std::vector<Lifetime> lifetimes;  // every operation, for the Perfetto trace
  // When the reads this unit has sent to the memory system by now all have their data in L2
  // (now, when none is outstanding): what a release at cluster scope waits for.
  sc_core::sc_time reads_in_l2_by();
  // Off when no thread of the run asks reads_in_l2_by (no arrive addressed by cluster rank):
  // the reads are then not recorded.
  void track_reads_in_l2(bool on) { track_reads_in_l2_ = on; }

 private:
  void run();
  void serve();  // the queue's operations, one after another (run's body)
  void load(const TmaOp& op, double start_cycles);
  // Returns when the store's global writes are done; `read_done` gets when its shared-memory reads were.
  sc_core::sc_time store(const TmaOp& op, sc_core::sc_time& read_done);
  // Moves the box in `pieces` (rows of equal length, row k there at arrivals[k]) to or from one
  // CTA's shared memory in one transaction; returns when its last row was done, and with
  // `each_row` s_->row_done gets when each row was.
  sc_core::sc_time transfer_box(int cta, bool write, const std::vector<uint32_t>& pieces,
                                const std::vector<sc_core::sc_time>& arrivals, uint8_t* data, bool each_row);

  TimingConfig cfg_;
  bool track_reads_in_l2_ = true;
  GlobalMemory global_;
  std::vector<BankedSmem*> cluster_smem_;
  int own_rank_;
  sc_core::sc_fifo<TmaOp> queue_;
  TmaEngine own_engine_;
  TmaEngine* eng_ = &own_engine_;
  TmaScratch own_scratch_;
  TmaScratch* s_ = &own_scratch_;
  void read_burst(L2Promotion promotion);
  tlm::tlm_generic_payload payload_;  // every request's, reused (a new one allocates)
  uint64_t ops_ = 0, bytes_ = 0;
  int max_queue_ = 0;
  int ops_in_flight_ = 0;
  int64_t bytes_in_flight_ = 0;
  std::multimap<sc_core::sc_time, int64_t> retiring_;  // completion time -> bytes
  sc_core::sc_event retire_{"retire"};  // at the earliest of retiring_
  void on_retire();
  sc_core::sc_event queue_changed_{"queue_changed"};
  void show_occupancy();
  void prefetch(const TmaOp& op);
  const RowPlans& plan_rows(const TensorMap& m, const TmaInstruction& ins);
  const RowPlans& traverse_rows(const TensorMap& m, const TmaInstruction& ins, int64_t reach);
  uint64_t pattern_ = 0;  // the pieces' id (BoxTransferExt::pattern) of the plan just made; 0: none
  sc_core::sc_time write_global(uint64_t addr, int64_t bytes, sc_core::sc_time at, bool reduce);
  sc_core::sc_time deliver(int rank, int64_t bytes, sc_core::sc_time at);
  template <class Ext>
  sc_core::sc_time memory_request(tlm::tlm_command cmd, uint64_t addr, int64_t bytes, sc_core::sc_time at, Ext& ext);
  int first_port_ = 0;
  void forget_reads_in_l2();  // those sent and in L2 by now
  const RowPlans& plan_rows_rtl(const TensorMap& m, const TmaInstruction& ins);
};

}  // namespace tmasim::sc
