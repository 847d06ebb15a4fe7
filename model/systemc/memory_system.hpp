// The memory system behind the SMs: the L2 (lines, LRU, their start state), the DRAM interface
// and each SM's port, one TLM-2.0 target socket bound once per CTA's TMA unit.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "banked_smem.hpp"
#include "box_memo.hpp"
#include "calendar.hpp"
#include "experiment.hpp"
#include "line_table.hpp"
#include "timing_config.hpp"
#include "tlm_extensions.hpp"

namespace tmasim::sc {

class MemorySystem : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<MemorySystem> socket;  // one binding per CTA
  MemorySystem(sc_core::sc_module_name name, const TimingConfig& cfg, GlobalMemory memory,
               L2Start start = L2Start::cold);
  // The SM whose port a binding's requests stream through (by default its own port).
  void place(int binding, int sm);

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  // Bytes of hits that left through the L2's output: a read that rode on another's transfer
  // (memory.l2_join_reads_in_flight) is not among them.
  uint64_t output_bytes() const { return output_bytes_; }
  // For waveforms: the DRAM backlog, in cycles, seen by the last miss.
  const int64_t& hbm_backlog_cycles() const { return hbm_backlog_cycles_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t writebacks() const { return writebacks_; }  // dirty lines written back (the start state's; this run's)
  // L2Start::warm, before the run: the lines [addr, addr + len) are resident with their data
  // (most recently used last), evicting the start state's clean lines; `written`: the warm-up
  // run wrote them, so they are dirty (memory.l2_write_back).
  // `sm`: the SM that reached them (memory.l2_half_of_gpc: they are near its half), -1: every half.
  void make_resident(uint64_t addr, uint64_t len, bool written = false, int sm = -1);

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
  bool in_memory(uint64_t addr, uint64_t len) const {
    const uint64_t rel = addr - mem_.base;
    return addr >= mem_.base && rel + len <= mem_.size && rel + len >= rel;
  }
  // True when the line is resident; `pending` then rises to when its data is there (a fill
  // still on its way from DRAM). A missing line is allocated and listed in fresh_.
  // `half`: the reader's bit (memory.l2_half_of_gpc; 0 without halves); a resident line not near
  // it has its data there once it has crossed (far_arrival from `far_from`), and is near it from now
  // on. A write (`write`) leaves the line near the writer's half only.
  // `want`: the line's units the request touches (memory.l2_fetch_bytes): a read of a resident line
  // missing one of them fetches it into the line's node (listed in fresh_, not allocated).
  bool lookup_and_fill(uint64_t line, sc_core::sc_time& pending, uint8_t half = 0, sc_core::sc_time far_from = {},
                       bool write = false, uint8_t want = 0);
  // The units of `line` (memory.l2_fetch_bytes; 0 without) that [addr, addr + len) touches, a bit each.
  uint8_t units_of(uint64_t line, uint64_t addr, uint64_t len) const {
    if (fetch_bytes_ == 0) return 0;
    const uint64_t base = line * line_bytes_;
    const uint64_t lo = std::max(addr, base) - base, hi = std::min(addr + len, base + line_bytes_) - base;
    return static_cast<uint8_t>(((2u << unit_of(hi - 1)) - 1) & ~((1u << unit_of(lo)) - 1));
  }
  // Which fetch unit of its line a byte offset lies in: a shift where the unit is a power of two
  // (a division per row costs the burst loop more than the rest of units_of).
  uint64_t unit_of(uint64_t offset) const { return fetch_shift_ >= 0 ? offset >> fetch_shift_ : offset / fetch_bytes_; }
  uint64_t fetch_bytes_ = 0;  // memory.l2_fetch_bytes
  int fetch_shift_ = -1;
  uint64_t least_out_bytes_ = 0;  // memory.l2_out_least_bytes
  uint8_t half_bit(int sm) const { return half_bit_.empty() ? 0 : half_bit_[static_cast<size_t>(sm)]; }
  // When a hit of node n from the half `half`, arriving at `arrival`, has its data in that half
  // (`arrival` itself when n is near it; n is near it after: a copy). `bytes`: what crosses into
  // the half, over its own path from the other halves (memory.l2_far_bytes_per_cycle).
  sc_core::sc_time far_arrival(int32_t n, uint8_t half, sc_core::sc_time arrival, uint64_t bytes) {
    if (!make_near(n, half)) return arrival;
    if (far_in_.empty()) return arrival + far_hit_;
    const sc_core::sc_time duration = far_out_.of(bytes, cycle_);
    Calendar& path = far_path_into(half);
    return path.book(arrival + far_hit_, duration, now_) + duration;
  }
  // Makes node n near `half` too (false: it was already); a line near another half gains a copy
  // there, which takes room with memory.l2_copy_takes_room.
  bool make_near(int32_t n, uint8_t half) {
    uint8_t& near = lines_.halves(n);
    if ((near & half) == half) return false;
    const bool copy = near != 0 && cfg_.l2_copy_takes_room;
    near |= half;
    if (copy) lines_.add_copy(n);
    return true;
  }
  std::vector<Calendar> far_in_;  // by half: memory.l2_far_bytes_per_cycle (none without a limit)
  // The path a crossing into `half` (its bit) takes: its own, or with memory.l2_far_path_shared the one
  // path of all halves.
  Calendar& far_path_into(uint8_t half) {
    return far_in_[cfg_.l2_far_path_shared ? 0 : static_cast<size_t>(__builtin_ctz(half))];
  }
  std::vector<uint8_t> half_bit_;  // by SM
  std::vector<uint8_t> halves_;    // each half's bit, in order
  sc_core::sc_time cross_from_home(int port, uint64_t line, sc_core::sc_time ready, uint64_t bytes);
  sc_core::sc_time far_hit_;

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
  // `hint`: the node the box memo names for the line, set to the line's node (kNone: not resident).
  template <bool Join>
  bool serve_line_hit(int sm, uint64_t line, uint64_t hash, uint64_t addr, uint64_t len, sc_core::sc_time arrival,
                      int32_t& hint, Served& out);
  // A read of one line that is not resident: serve()'s miss path without its generality; `node`:
  // where the line was put.
  Served serve_line_miss(int port, uint64_t line, uint64_t addr, uint64_t len, sc_core::sc_time arrival, uint64_t span,
                         int32_t& node);
  template <bool Join>
  bool serve_burst(int port, ReadBurstExt& burst, uint64_t span);
  Served read_hit(int sm, uint64_t len, sc_core::sc_time arrival, sc_core::sc_time pending);
  Served read_hit_joined(int sm, uint64_t line, int32_t n, uint64_t len, sc_core::sc_time arrival);
  // The line's last transfer (when a read may still join it, when it left the L2's output): the
  // line's own,
  // or with memory.l2_join_within_gpc the time for the SM's GPC, in a direct-mapped table (a
  // collision forgets a transfer, so a read that could have joined it takes its own).
  L2Transfer& transfer_for(int sm, uint64_t line, int32_t n);
  uint64_t gpc_transfer_key(int sm, uint64_t line) const {
    return line * gpcs_ + static_cast<uint64_t>(gpc_of_sm_[static_cast<size_t>(sm)]);
  }
  static size_t gpc_transfer_slot(uint64_t key) { return (key * 0x9e3779b97f4a7c15ull) >> (64 - kGpcTransferBits); }
  // A hint that the SM's read of `line` will look up its GPC's transfer soon (the table is far
  // larger than the caches: without it each row of a box waits for a miss).
  void prefetch_gpc_transfer(int sm, uint64_t line) const {
    if (!gpc_transfers_.empty()) prefetch_read(&gpc_transfers_[gpc_transfer_slot(gpc_transfer_key(sm, line))]);
  }
  static constexpr int kGpcTransferBits = 18;  // 6 MiB: more lines than a chip has in flight
  struct GpcTransfer {
    uint64_t key = ~uint64_t{0};  // line * GPCs + GPC
    L2Transfer transfer;
  };
  HugePageVector<GpcTransfer> gpc_transfers_;
  sc_core::sc_time join_window_ = sc_core::SC_ZERO_TIME;  // memory.l2_join_window_cycles (zero: until out)
  std::vector<int> gpc_of_sm_;
  uint64_t gpcs_ = 1;

  TimingConfig cfg_;
  GlobalMemory mem_;
  sc_core::sc_time cycle_, hit_latency_;
  sc_core::sc_time now_;  // the present, read once per transaction: the calendars forget what ended before it
  uint64_t line_bytes_;
  int line_shift_ = -1;
  TimePerLength port_from_l2_, l2_out_, far_out_;  // sm_l2_, l2_, l2_far_bytes_per_cycle
  LineTable lines_;  // resident lines, LRU order, when each one's data is in the L2
  BoxMemo box_memo_;  // the nodes of a box's rows when it was last read (hints for lines_)
  struct Fresh {
    uint64_t line;
    int32_t node;  // where it was put (another's once a later fill of the request evicted it)
    bool allocated = true;  // false: a resident line's missing units (memory.l2_fetch_bytes)
  };
  // How many lines the current request allocated.
  uint64_t allocated() const {
    return fetch_bytes_ == 0 ? fresh_.size()
                             : static_cast<uint64_t>(std::count_if(fresh_.begin(), fresh_.end(), [](const Fresh& f) { return f.allocated; }));
  }
  std::vector<Fresh> fresh_;  // lines the current request allocated
  // The start state's lines (the least recently used of all: each fill evicts one of them while
  // any is left), how many of them were dirty, and how many are gone.
  uint64_t old_lines_total_ = 0, old_dirty_ = 0, old_evicted_ = 0;
  uint64_t writebacks_ = 0;
  uint64_t evict_old_lines(uint64_t fills);  // returns how many of those evicted were dirty
  uint64_t dirty_evictions_booked_ = 0;
  uint64_t own_dirty_evictions();
  double write_back_rate() const;
  void mark_dirty(uint64_t addr, uint64_t len);
  sc_core::sc_time l2_in_free_ = sc_core::SC_ZERO_TIME;
  Calendar l2_in_;  // memory.time_ordered
  sc_core::sc_time book_l2_in(sc_core::sc_time arrival, uint64_t bytes);  // returns the end
  sc_core::sc_time hbm_free_ = sc_core::SC_ZERO_TIME;
  int64_t hbm_backlog_cycles_ = 0;
  sc_core::sc_time reads_queued_until_ = sc_core::SC_ZERO_TIME;  // the end of the last read booked on the DRAM
  std::vector<sc_core::sc_time> port_free_;  // by SM
  sc_core::sc_time l2_free_ = sc_core::SC_ZERO_TIME;
  Calendar dram_, l2_;              // memory.time_ordered
  std::vector<Calendar> ports_;     // memory.time_ordered, by SM
  // A resource that serves one transfer at a time: in the order transfers were booked (`free`: when
  // it is next free), or with memory.time_ordered in the earliest gap of its calendar at or after
  // `ready`. Returns the transfer's start.
  sc_core::sc_time book_resource(Calendar& calendar, sc_core::sc_time& free, sc_core::sc_time ready,
                                 sc_core::sc_time duration) {
    if (cfg_.time_ordered) return calendar.book(ready, duration, now_);
    const sc_core::sc_time start = std::max(ready, free);
    free = start + duration;
    return start;
  }
  sc_core::sc_time book_dram(sc_core::sc_time arrival, sc_core::sc_time duration);  // returns the start
  // memory.writeback_bytes_per_cycle: when the write-back buffer has drained what is in it.
  sc_core::sc_time writeback_drained_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time writeback_room(sc_core::sc_time arrival, uint64_t dirty_lines);
  sc_core::sc_time fill_from_dram(sc_core::sc_time arrival, uint64_t dirty, sc_core::sc_time duration);
  // memory.dram_queue_cycles: the DRAM's busy share, an exponential average over its window.
  double dram_busy_ = 0;
  sc_core::sc_time dram_busy_at_ = sc_core::SC_ZERO_TIME;
  void note_dram_busy(sc_core::sc_time start, sc_core::sc_time duration);
  double dram_busy_share(sc_core::sc_time t) const;
  sc_core::sc_time dram_queue_wait(sc_core::sc_time arrival) const;
  sc_core::sc_time book_dram_read(sc_core::sc_time arrival, sc_core::sc_time duration);   // the same
  sc_core::sc_time book_dram_write(sc_core::sc_time arrival, sc_core::sc_time duration);  // the same
  // A hit's data leaves the L2 through its output (memory.l2_bytes_per_cycle), then the SM's port.
  sc_core::sc_time book_l2_out(sc_core::sc_time ready, uint64_t bytes);  // returns the start
  // Then its GPC's path from the L2 (memory.gpc_bytes_per_cycle); returns when the data leaves it.
  sc_core::sc_time book_gpc_path(int sm, sc_core::sc_time ready, uint64_t bytes);
  std::vector<int> gpc_path_of_sm_;           // empty: no limit
  std::vector<sc_core::sc_time> gpc_path_free_;  // by path
  std::vector<Calendar> gpc_paths_;           // memory.time_ordered, by path
  TimePerLength gpc_out_;
  sc_core::sc_time book_port(int sm, sc_core::sc_time ready, sc_core::sc_time duration);  // returns the end
  std::vector<int> sm_of_binding_;
  int sm_of(int binding) const {
    const bool placed = binding < static_cast<int>(sm_of_binding_.size()) && sm_of_binding_[binding] >= 0;
    return placed ? sm_of_binding_[binding] : binding;
  }
  uint64_t hits_ = 0, misses_ = 0, bytes_ = 0, output_bytes_ = 0;
};

}  // namespace tmasim::sc
