// BankedSmem: a SystemC/TLM-2.0 model of an SM's banked shared memory.
//
// Two target sockets: `tma_socket` (any number of initiators: the local TMA and, for
// multicast, those of the cluster's other SMs) takes TMA writes and reads, either one
// contiguous run of up to the configured bytes per cycle or, with a BoxTransferExt, a whole
// box as rows of swizzled 16-byte pieces, each row at its own arrival time; `warp_socket`
// takes warp-wide instructions (ld/st/ldmatrix/stmatrix) described by a WarpRequest
// extension, or a run of them with a WarpBatchExt. Each request is split into wavefronts by
// the functional conflict model (tmasim::evaluate, remembered per pattern), one wavefront per
// `wavefront_cycles`; requests take the first free cycles of the SM's single data path at or
// after their arrival (a CycleCalendar), so the b_transport delay grows with queueing and with
// conflicts. Counters: wavefronts, conflicts, bytes, busy cycles per bank.
#pragma once
#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "calendar.hpp"
#include "smem_config.hpp"
#include "tmasim/conflicts.hpp"

namespace tmasim::sc {


// One warp's return path (smem.warp_wavefront_cycles): the wavefronts of its accesses reach it one
// every cycles_a_wavefront cycles, in order. take() returns when an access arriving at `from`
// (grid cycles) has all its wavefronts through.
struct WarpReturnPath {
  int cycles_a_wavefront = 0;
  int64_t free = 0;
  int64_t take(int64_t from, int wavefronts) {
    free = std::max(from, free) + static_cast<int64_t>(wavefronts) * cycles_a_wavefront;
    return free;
  }
};

// A warp instruction carried by a generic payload on warp_socket: the payload's data
// pointer holds 32 lanes x 16 bytes (lane l at offset 16*l), read or written per lane.
struct WarpRequest : tlm::tlm_extension<WarpRequest> {
  WarpAccess access;
  int wavefronts = 0, ideal = 0;  // filled in by the memory: what serving the access took
  tlm::tlm_extension_base* clone() const override { return new WarpRequest(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    const auto& o = static_cast<const WarpRequest&>(other);
    access = o.access;
    wavefronts = o.wavefronts;
    ideal = o.ideal;
  }
};

// Carried on a TMA transfer of a whole box (tma_socket, write or read command): its rows' 16-byte
// pieces (swizzled addresses, `pieces_per_row` each, row after row) and when each row is there
// to be written (or asked to be read). Each row is served as the single-row requests would be,
// in row order, 32 pieces a request; the payload's data pointer, when set, holds the pieces'
// bytes in order. The memory fills in when the last row was done and, if asked, when each was.
// `pattern`, when not 0, is the initiator's promise that every box it sends with that id has the
// same rows and pieces, moved as a whole by some offset; the memory may then remember what the
// rows needed (it checks the count and that the offset keeps the banks' view).
struct BoxTransferExt : tlm::tlm_extension<BoxTransferExt> {
  const uint32_t* pieces = nullptr;
  const sc_core::sc_time* arrivals = nullptr;
  sc_core::sc_time* row_done = nullptr;  // out, one per row (when not null)
  sc_core::sc_time done;                 // out: the latest of the rows' done times
  size_t rows = 0;
  int pieces_per_row = 0;
  uint64_t pattern = 0;
  tlm::tlm_extension_base* clone() const override { return new BoxTransferExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const BoxTransferExt&>(o); }
};

// Carried on warp_socket: a run of warp instructions one warp issues back to back (a consumer's
// ldmatrix over a tile), the k-th arriving `interval` after the (k-1)-th; each is served as its
// own request would be. The payload's data pointer, when set, holds 32 x 16 bytes per access.
// The memory fills in when the last is done and the wavefronts they needed.
struct WarpBatchExt : tlm::tlm_extension<WarpBatchExt> {
  const WarpAccess* accesses = nullptr;
  size_t count = 0;
  sc_core::sc_time interval = sc_core::SC_ZERO_TIME;
  sc_core::sc_time done = sc_core::SC_ZERO_TIME;  // out, relative to the first arrival
  uint64_t wavefronts = 0, ideal = 0;              // out
  // Not 0: the initiator's promise that every batch with this id has these very accesses; the
  // memory may remember what each needed.
  uint64_t pattern = 0;
  tlm::tlm_extension_base* clone() const override { return new WarpBatchExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const WarpBatchExt&>(o); }
};

// Sends one warp-style request (32 lanes x 16 bytes at `lanes`, lane l at 16*l) through a
// socket bound to a BankedSmem; reads fill `lanes`, writes take from it. `delay` is annotated;
// `served`, when given, receives the wavefronts the memory needed and the ideal. `p` is the
// caller's payload, reused from request to request (a new one allocates its extension array).
template <class Socket>
tlm::tlm_response_status smem_request(Socket& socket, tlm::tlm_generic_payload& p, const WarpAccess& access,
                                      uint8_t* lanes, sc_core::sc_time& delay, WarpRequest* served = nullptr) {
  WarpRequest req;
  req.access = access;
  const bool write = access.op == SmemOp::st || access.op == SmemOp::stmatrix;
  p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(0);
  p.set_data_ptr(lanes);
  p.set_data_length(32 * 16);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.set_extension(&req);
  socket->b_transport(p, delay);
  p.clear_extension(&req);
  if (served) *served = req;
  return p.get_response_status();
}

template <class Socket>
tlm::tlm_response_status smem_request(Socket& socket, const WarpAccess& access, uint8_t* lanes,
                                      sc_core::sc_time& delay, WarpRequest* served = nullptr) {
  tlm::tlm_generic_payload p;
  return smem_request(socket, p, access, lanes, delay, served);
}

struct SmemCounters {
  uint64_t requests = 0;
  uint64_t wavefronts = 0;
  uint64_t conflicts = 0;  // wavefronts beyond the ideal
  uint64_t bytes = 0;
  std::vector<uint64_t> bank_busy_cycles;
};

// What the conflict model said about access patterns seen before. The wavefronts of an access
// depend on its addresses only through their banks, their words and their 128-byte rows, all of
// which a shift by a multiple of `period` keeps; a pattern is keyed by its addresses relative to
// the multiple of `period` below its lowest one. A TMA box repeats a few row patterns and a
// consumer the same ldmatrix tiles, so the model is asked once per pattern.
class ConflictMemo {
 public:
  explicit ConflictMemo(const BankGeometry& g);
  ConflictResult evaluate(const WarpAccess& a);
  int64_t period() const { return period_; }
  // Shifts that keep every access's banks, words and 128-byte rows: multiples of this.
  static int64_t period_of(const BankGeometry& g);

  // What each 32-piece request of a box's rows needed, by BoxTransferExt::pattern.
  struct Needed {
    int wavefronts = 0, ideal = 0;
  };
  struct BoxPattern {
    size_t rows = 0;
    int per_row = 0;
    uint32_t first = 0, highest = 0;  // the pieces' first and highest when it was evaluated
    std::vector<Needed> requests;     // row after row
  };
  // The pattern remembered for `id` and direction, or nullptr.
  const BoxPattern* box(uint64_t id, bool write) const {
    const auto it = boxes_.find(id << 1 | static_cast<uint64_t>(write));
    return it == boxes_.end() ? nullptr : &it->second;
  }
  void remember_box(uint64_t id, bool write, BoxPattern pattern);
  // What each access of a batch needed, by WarpBatchExt::pattern.
  struct AccessNeeded {
    Needed needed;
    uint64_t moved = 0;    // bytes
    int64_t highest = -1;  // its highest lane address (-1: no lane active)
    int lane_bytes = 0;    // what each lane reads or writes
  };
  const std::vector<AccessNeeded>* batch(uint64_t id) const {
    const auto it = batches_.find(id);
    return it == batches_.end() ? nullptr : &it->second;
  }
  void remember_batch(uint64_t id, std::vector<AccessNeeded> accesses);

 private:
  std::unordered_map<uint64_t, BoxPattern> boxes_;
  std::unordered_map<uint64_t, std::vector<AccessNeeded>> batches_;
  struct Entry {
    uint32_t shape = 0;  // op, width, matrices, lanes in use (0: empty)
    int wavefronts = 0, ideal = 0;
    std::array<int32_t, 32> rel{};  // the lanes' addresses above the base, -1 when inactive
  };
  static constexpr size_t kEntries = 2048;  // direct mapped: a new pattern replaces the old one
  BankGeometry geometry_;
  int64_t period_;
  std::vector<Entry> table_;
};

class BankedSmem : public sc_core::sc_module {
 public:
  // Any number of initiators, none included (a memory nobody reads still elaborates).
  using Socket = tlm_utils::multi_passthrough_target_socket<BankedSmem, 32, tlm::tlm_base_protocol_types, 0,
                                                            sc_core::SC_ZERO_OR_MORE_BOUND>;
  Socket tma_socket;
  Socket warp_socket;

  BankedSmem(sc_core::sc_module_name name, const SmemConfig& cfg);

  // The data path of the SM this CTA's memory lives on, shared with the SM's other CTAs.
  // `write_path`: the TMA writes' own (smem.tma_writes_own_path), on the same grid.
  void share_data_path(CycleCalendar* path, CycleCalendar* write_path) {
    data_path_ = path;
    write_path_ = cfg_.tma_writes_own_path ? write_path : path;
    path_cycle_ = sc_core::sc_time::from_value(path->cycle_ps());
  }
  // The conflict memo of the whole chip (every SM has the same banks), not one per CTA.
  void share_conflict_memo(ConflictMemo* memo) { memo_ = memo; }
  const SmemCounters& counters() const { return counters_; }
  // The bytes (empty in a timing-only run, which moves none).
  const std::vector<uint8_t>& memory() const { return mem_; }
  std::vector<uint8_t>& memory() { return mem_; }
  std::string report() const;

 private:
  void tma_transport(int initiator, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void warp_transport(int initiator, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  const ConflictMemo::Needed* box_requests(const BoxTransferExt& box, bool write, bool remember, uint32_t highest);
  void box_transport(tlm::tlm_generic_payload& p, BoxTransferExt& box);
  void batch_transport(tlm::tlm_generic_payload& p, WarpBatchExt& batch, sc_core::sc_time& delay);
  // Returns what serving the access took (nothing on an error response).
  ConflictResult lane_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay, const WarpAccess& a);
  // Copies an access's lanes to or from the memory (32 x 16 bytes at `lanes`, lane l at 16*l).
  void move_lanes(const WarpAccess& a, uint8_t* lanes);
  // Serves `wavefronts` on the data path no earlier than now + delay; returns the new delay.
  sc_core::sc_time occupy(int wavefronts, const ConflictResult& detail, sc_core::sc_time delay);
  // The same from an absolute arrival; returns when the access is done. `now_cycle`: the SM
  // cycle of the present (the caller's, once per transaction); the data path is held for at
  // least `min_cycles` (a port narrower than the banks).
  sc_core::sc_time occupy_at(int wavefronts, const ConflictResult& detail, sc_core::sc_time arrival, int64_t now_cycle,
                             int64_t min_cycles = 0) {
    return at_cycle(occupy_from(wavefronts, detail, data_path_->edge_at_or_after(arrival), now_cycle, min_cycles));
  }
  // The same on the data path's grid: from cycle `from`; returns the cycle after the last.
  int64_t occupy_from(int wavefronts, const ConflictResult& detail, int64_t from, int64_t now_cycle, int64_t min_cycles);
  // The same from what a request needed (its detail, when counted, already is).
  int64_t book(int wavefronts, int ideal, int64_t from, int64_t now_cycle, int64_t min_cycles) {
    return book_on(*data_path_, wavefronts, ideal, from, now_cycle, min_cycles);
  }
  int64_t book_on(CycleCalendar& path, int wavefronts, int ideal, int64_t from, int64_t now_cycle, int64_t min_cycles) {
    const int64_t cycles = std::max<int64_t>(static_cast<int64_t>(wavefronts) * cfg_.wavefront_cycles, min_cycles);
    const int64_t end = cfg_.interleave_wavefronts ? path.book_spread(from, cycles, now_cycle)
                                                   : path.book_cycles(from, cycles, now_cycle) + cycles;
    counters_.wavefronts += static_cast<uint64_t>(wavefronts);
    counters_.conflicts += static_cast<uint64_t>(wavefronts > ideal ? wavefronts - ideal : 0);
    ++counters_.requests;
    return end;
  }
  void count_bank_busy(const ConflictResult& r);  // bank_statistics: its wavefronts' banks
  // A cycle of the data path's grid as a time (exact: a product of integers below 2^53).
  sc_core::sc_time at_cycle(int64_t c) const { return sc_core::sc_time::from_value(value_at_cycle(c)); }
  uint64_t value_at_cycle(int64_t c) const { return static_cast<uint64_t>(c) * path_cycle_.value(); }  // in sc_time units
  bool in_range(uint64_t addr, uint64_t len) const {
    return addr + len <= static_cast<uint64_t>(cfg_.size_bytes) && addr + len >= addr;
  }

  SmemConfig cfg_;
  std::vector<uint8_t> mem_;
  CycleCalendar own_path_;
  CycleCalendar* data_path_ = &own_path_;  // the SM's data path, served in simulated-time order
  CycleCalendar* write_path_ = &own_path_;  // where TMA writes go: data_path_ or a path of their own
  sc_core::sc_time path_cycle_;            // its grid
  SmemCounters counters_;
  std::vector<ConflictMemo::Needed> box_requests_;  // box_transport's, reused
  std::vector<ConflictMemo::AccessNeeded> batch_accesses_;  // batch_transport's, reused
  // A batch whose pattern is remembered: each access booked as the first time, nothing asked.
  void remembered_batch(tlm::tlm_generic_payload& p, WarpBatchExt& batch, sc_core::sc_time& delay,
                        const std::vector<ConflictMemo::AccessNeeded>& known);
  ConflictMemo own_memo_;
  ConflictMemo* memo_ = &own_memo_;
};

}  // namespace tmasim::sc
