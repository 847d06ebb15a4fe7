// A resource that serves one request at a time and is booked in advance (a data path, a port,
// the DRAM interface). Each request takes the earliest gap at or after its arrival that is
// long enough for it, so a booking made early for a far-future transfer never holds back a
// request that arrives before that transfer: service follows simulated time, not the order
// in which the processes happened to book.
#pragma once
#include <cstdint>
#include <vector>
#include <systemc>

namespace tmasim::sc {

class Calendar {
 public:
  // Books `duration` at or after `arrival`; returns the start. Forgets intervals that ended
  // before `now` (nothing can be booked in the past).
  sc_core::sc_time book(sc_core::sc_time arrival, sc_core::sc_time duration, sc_core::sc_time now) {
    return sc_core::sc_time::from_value(book_ps(arrival.value(), duration.value(), now.value()));
  }
  // The end of the last booking (for queue-depth statistics).
  sc_core::sc_time horizon() const {
    return intervals_ == 0 ? sc_core::SC_ZERO_TIME : sc_core::sc_time::from_value(last().end);
  }
  size_t intervals() const { return intervals_; }

 private:
  struct Interval {
    uint64_t start, end;  // sc_time values
  };
  // The busy intervals, disjoint, never adjacent, by start, in blocks of up to kBlock. A block
  // knows a bound on the gaps between its intervals, so that a request longer than every gap of a
  // busy stretch (a shared path's slivers between many small bookings) passes the whole block at
  // once instead of walking it.
  static constexpr int kBlock = 32;
  struct Block {
    Interval at[kBlock];
    int begin = 0, end = 0;  // the intervals in use
    uint64_t max_gap = 0;    // at least the largest gap between two consecutive intervals in use
  };
  struct Pos {
    size_t b;  // in blocks_ (blocks_.size(): after the last interval)
    int k;     // in the block, begin <= k < end
  };
  uint64_t book_ps(uint64_t arrival, uint64_t duration, uint64_t now);
  void forget(uint64_t now);
  void append(Interval x);
  Pos first_after(uint64_t t) const;
  Pos first_fit(Pos p, uint64_t& start, uint64_t duration) const;
  void insert_at(Pos p, Interval x);
  void erase_at(Pos p, bool measure);  // measure: the block's bound again
  Pos split(Pos p);
  Block& block(size_t b) { return pool_[blocks_[b]]; }
  const Block& block(size_t b) const { return pool_[blocks_[b]]; }
  Interval& at(Pos p) { return block(p.b).at[p.k]; }
  bool is_first(Pos p) const { return p.b == first_ && (p.b == blocks_.size() || p.k == block(p.b).begin); }
  // The interval before p (not is_first(p)).
  Interval& before(Pos p) {
    if (p.b < blocks_.size() && p.k > block(p.b).begin) return block(p.b).at[p.k - 1];
    return block(p.b - 1).at[block(p.b - 1).end - 1];
  }
  const Interval& last() const { return block(blocks_.size() - 1).at[block(blocks_.size() - 1).end - 1]; }
  Interval& last() { return block(blocks_.size() - 1).at[block(blocks_.size() - 1).end - 1]; }
  static void measure_gaps(Block& x);
  // Whether the gap before interval k of x (k > begin) is the largest x knows of.
  static bool is_largest_gap(const Block& x, int k) { return x.at[k].start - x.at[k - 1].end == x.max_gap; }
  uint32_t new_block();

  std::vector<Block> pool_;
  std::vector<uint32_t> spare_;   // pool entries not in use
  std::vector<uint32_t> blocks_;  // the pool entries in time order, from first_ on
  size_t first_ = 0;
  size_t intervals_ = 0;
};

}  // namespace tmasim::sc

namespace tmasim::sc {

// A clocked resource that serves one unit per cycle (the shared-memory data path: one
// wavefront per SM clock), booked in advance on the cycle grid. A request of n cycles takes
// the first run of n free cycles starting at or after the clock edge at or after its arrival,
// as Calendar does, but the bookings are bits, so that finding a run among many small future
// bookings (a TMA box's rows, one wavefront each) is a few word operations, not a walk.
class CycleCalendar {
 public:
  explicit CycleCalendar(sc_core::sc_time cycle) : cycle_ps_(cycle.value()) {}
  // Books `cycles` at or after `arrival`; returns the start. Cycles before `now` are forgotten.
  sc_core::sc_time book(sc_core::sc_time arrival, int64_t cycles, sc_core::sc_time now);
  // The same on the grid: from the first cycle the request may use (at or after `now_cycle`);
  // returns the first cycle it got. The hot paths call this one, in integers.
  int64_t book_cycles(int64_t from, int64_t cycles, int64_t now_cycle) {
    if (now_cycle >= base_ + 64) forget_before(now_cycle);
    if (from < base_) from = base_;
    if (from < now_cycle) from = now_cycle;
    // Fast path: a request that fits in one word and finds its cycles free (most do).
    const uint64_t off = static_cast<uint64_t>(from - base_);
    const size_t idx = head_ + off / 64;
    const int bit = static_cast<int>(off % 64);
    if (cycles >= 1 && cycles <= 64 - bit) {
      const uint64_t ones = (cycles == 64 ? ~uint64_t(0) : (uint64_t(1) << cycles) - 1) << bit;
      if (idx >= words_.size()) words_.resize(idx + 1, 0);
      if ((words_[idx] & ones) == 0) {
        words_[idx] |= ones;
        return from;
      }
      if (cycles == 1) {  // the first free cycle at or after `from`, a word at a time
        uint64_t free = ~words_[idx] & (~uint64_t(0) << bit);
        size_t i = idx;
        while (free == 0 && ++i < words_.size()) free = ~words_[i];
        if (i == words_.size()) {  // busy to the end of what is booked: the next cycle after it
          words_.push_back(0);
          free = ~uint64_t(0);
        }
        const int b = __builtin_ctzll(free);
        words_[i] |= uint64_t(1) << b;
        return base_ + static_cast<int64_t>(i - head_) * 64 + b;
      }
    }
    const int64_t start = first_free_run(from, cycles > 1 ? cycles : 1);  // nothing passes a busy path
    if (cycles > 0) mark(start, cycles);
    return start;
  }
  // Books `cycles` single cycles, each the first free one after the one before (the first at or
  // after `from`): other bookings may lie between them. Returns the cycle after the last.
  int64_t book_spread(int64_t from, int64_t cycles, int64_t now_cycle) {
    if (cycles <= 1) return book_cycles(from, cycles, now_cycle) + cycles;
    if (now_cycle >= base_ + 64) forget_before(now_cycle);
    if (from < base_) from = base_;
    if (from < now_cycle) from = now_cycle;
    const uint64_t off = static_cast<uint64_t>(from - base_);
    const int bit = static_cast<int>(off % 64);
    if (cycles < 64 - bit) {  // fast path: the cycles right after `from` are free (most requests)
      const size_t idx = head_ + off / 64;
      const uint64_t ones = ((uint64_t(1) << cycles) - 1) << bit;
      if (idx >= words_.size()) words_.resize(idx + 1, 0);
      if ((words_[idx] & ones) == 0) {
        words_[idx] |= ones;
        return from + cycles;
      }
    }
    uint64_t allowed = ~uint64_t(0) << bit;
    for (size_t i = head_ + off / 64;; ++i, allowed = ~uint64_t(0)) {  // a word's free cycles at a time
      if (i >= words_.size()) words_.resize(i + 1, 0);
      for (uint64_t free = ~words_[i] & allowed; free != 0;) {
        const uint64_t lowest = free & (~free + 1);
        words_[i] |= lowest;
        free ^= lowest;
        if (--cycles == 0) return base_ + static_cast<int64_t>(i - head_) * 64 + __builtin_ctzll(lowest) + 1;
      }
    }
  }
  // The first grid cycle at or after `t` (its clock edge).
  int64_t edge_at_or_after(sc_core::sc_time t) const { return edge_at_or_after_ps(t.value()); }
  int64_t edge_at_or_after_ps(uint64_t ps) const { return static_cast<int64_t>((ps + cycle_ps_ - 1) / cycle_ps_); }
  int64_t cycle_of(sc_core::sc_time t) const { return static_cast<int64_t>(t.value() / cycle_ps_); }
  uint64_t cycle_ps() const { return cycle_ps_; }
  // The cycle after the last booked one (0 when nothing is booked), for statistics and tests.
  int64_t horizon_cycle() const;

 private:
  int64_t first_free_run(int64_t from, int64_t cycles) const;
  int64_t first_free_run_short(int64_t from, int cycles) const;
  void mark(int64_t from, int64_t cycles);
  void forget_before(int64_t cycle);

  uint64_t cycle_ps_;                // the grid, in sc_time units
  int64_t base_ = 0;                 // the cycle of bit 0 of words_[head_]
  size_t head_ = 0;
  std::vector<uint64_t> words_;      // busy bits, 64 cycles a word, from words_[head_]
};

}  // namespace tmasim::sc
