// A CTA's TMA unit (its queue of operations) and the engine of the SM that serves it: address
// generation, box rows to and from the memory system and the banked shared memories of the
// cluster, completions to mbarriers.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <memory>
#include <ostream>
#include <queue>
#include <string>
#include <vector>

#include "banked_smem.hpp"
#include "mbarrier.hpp"
#include "timing_config.hpp"
#include "tlm_extensions.hpp"
#include "tmasim/tma.hpp"

namespace tmasim::sc {

struct TmaOp {
  static constexpr int kMaxDestinations = 16;  // a cluster's CTAs (at most 16 on Hopper)
  struct Destination {
    int rank = 0;
    Mbarrier* barrier = nullptr;
  };
  const TensorMap* map = nullptr;
  TmaInstruction ins;  // a copy: the issuing step is gone once its thread takes the next
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
  return os << name(op.ins.op) << " at smem " << op.ins.smem_offset;
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
  // A unit of a cluster of `cluster_size` CTAs; own_rank: this CTA's. `first_port`: the
  // memory-system port of the cluster's rank-0 CTA (ranks follow it), so that a multicast books
  // each destination SM's port too. connect_cluster then binds smem[k] to rank k's memory.
  TmaUnit(sc_core::sc_module_name name, const TimingConfig& cfg, GlobalMemory global, int cluster_size,
          int own_rank, int first_port);
  void connect_cluster(const std::vector<BankedSmem*>& cluster_smem);
  void submit(TmaOp op);  // from a CTA thread; blocks while the queue is full
  void attach(TmaEngine* engine) { eng_ = engine; }  // the SM's, once the CTA is placed

  uint64_t ops() const { return ops_; }
  uint64_t bytes() const { return bytes_; }
  int max_queue() const { return max_queue_; }
  // Operations waiting, for waveforms (written once per delta by show_occupancy).
  sc_core::sc_signal<int> occupancy{"occupancy"};
  // Operations and bytes issued and not yet complete, for waveforms.
  const int& ops_in_flight() const { return ops_in_flight_; }
  // On when a waveform traces occupancy and what is in flight: they are kept only then (they
  // cost each operation two process activations, and nothing else reads them).
  void keep_waveform_values(bool on) { waveform_ = on; }
  const int64_t& bytes_in_flight() const { return bytes_in_flight_; }
  struct Lifetime {
    double issue, start, done;  // cycles
    const TensorMap* map;       // what the trace says of it: the tensor, its box's coordinates,
    TmaInstruction ins;         // shared-memory offset and bytes, and a load's first barrier
    const Mbarrier* barrier;
    int destinations;
  };
  // Every operation, for the Perfetto trace, when record_lifetimes is on (else none: a long run's
  // operations would be its memory).
  std::vector<Lifetime> lifetimes;
  void record_lifetimes(bool on) { record_lifetimes_ = on; }
  double last_done_cycles() const { return last_done_; }  // the last operation's completion
  // When the reads this unit has sent to the memory system by now all have their data in L2, or
  // with thread.cluster_arrive_waits_for_delivery in shared memory (now, when none is
  // outstanding): what a release at cluster scope waits for.
  sc_core::sc_time reads_out_done_by();
  // Off when no thread of the run asks reads_out_done_by (no arrive addressed by cluster rank):
  // the reads are then not recorded.
  void track_reads_out(bool on) { track_reads_out_ = on; }

 private:
  void run();
  void serve();  // the queue's operations, one after another (run's body)
  void compute_box(const TmaOp& op);
  void load(const TmaOp& op, double start_cycles);
  // Returns when the store's global writes are done; `read_done` gets when its shared-memory reads were.
  sc_core::sc_time store(const TmaOp& op, sc_core::sc_time& read_done);
  // Moves the box in `pieces` (rows of equal length, row k there at arrivals[k]) to or from one
  // CTA's shared memory in one transaction; returns when its last row was done, and with
  // `each_row` s_->row_done gets when each row was.
  sc_core::sc_time transfer_box(int cta, bool write, const std::vector<uint32_t>& pieces,
                                const std::vector<sc_core::sc_time>& arrivals, uint8_t* data, bool each_row);

  sc_core::sc_time next_operation_at() const;  // tma.set_up_overlaps_rows
  void finished(const TmaOp& op, double start, double done);  // an operation was served, start to done (cycles)

  TimingConfig cfg_;
  bool track_reads_out_ = true;
  bool record_lifetimes_ = false;
  bool waveform_ = false;
  InstructionChecker checker_;  // the run's maps (the experiment's) stay where they are
  double last_done_ = 0;
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
  // Completion time and bytes, the earliest on top. Kept without a waveform too: its event's
  // notifications place others' among simultaneous events, and the figures depend on that order.
  using Retiring = std::pair<sc_core::sc_time, int64_t>;
  std::priority_queue<Retiring, std::vector<Retiring>, std::greater<Retiring>> retiring_;
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
  sc_core::sc_time cyc_;  // one SM cycle (made once: an sc_time from a double is dear)
  void forget_reads_out_done();  // those sent and done by now (in L2, or delivered)
  const RowPlans& plan_rows_rtl(const TensorMap& m, const TmaInstruction& ins);
};

}  // namespace tmasim::sc
