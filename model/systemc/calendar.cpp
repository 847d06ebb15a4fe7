#include "calendar.hpp"

#include <algorithm>
#include <iterator>

namespace tmasim::sc {

using sc_core::sc_time;

sc_time Calendar::book(sc_time arrival, sc_time duration, sc_time now) {
  while (head_ < busy_.size() && busy_[head_].end <= now) ++head_;
  if (head_ == busy_.size()) {
    busy_.clear();
    head_ = 0;
  } else if (head_ >= 64 && head_ * 2 >= busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
  if (head_ == busy_.size() || arrival >= busy_.back().end) {  // after every booking: most requests
    if (duration == sc_core::SC_ZERO_TIME) return arrival;
    if (head_ < busy_.size() && busy_.back().end == arrival)
      busy_.back().end = arrival + duration;
    else
      busy_.push_back({arrival, arrival + duration});
    return arrival;
  }
  const auto first = busy_.begin() + static_cast<std::ptrdiff_t>(head_);
  const auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  sc_time start = arrival;
  auto next = std::upper_bound(first, busy_.end(), Interval{start, start}, by_start);
  if (next != first && std::prev(next)->end > start) start = std::prev(next)->end;
  while (next != busy_.end() && next->start < start + duration) {
    if (next->end > start) start = next->end;
    ++next;
  }
  if (duration == sc_core::SC_ZERO_TIME) return start;
  // Insert [start, end), merged with the intervals it touches.
  sc_time end = start + duration;
  auto after = std::lower_bound(first, busy_.end(), Interval{start, start}, by_start);
  if (after != busy_.end() && after->start == end) {
    end = after->end;
    after = busy_.erase(after);
  }
  if (after != first && std::prev(after)->end == start) {
    std::prev(after)->end = end;
    return start;
  }
  busy_.insert(after, Interval{start, end});
  return start;
}

}  // namespace tmasim::sc

namespace tmasim::sc {

void CycleCalendar::forget_before(int64_t cycle) {
  while (head_ < words_.size() && base_ + 64 <= cycle) {
    ++head_;
    base_ += 64;
  }
  if (head_ == words_.size()) {
    words_.clear();
    head_ = 0;
    if (base_ < cycle) base_ = cycle / 64 * 64;
  } else if (head_ >= 64 && head_ * 2 >= words_.size()) {
    words_.erase(words_.begin(), words_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

int64_t CycleCalendar::first_free_run(int64_t from, int64_t cycles) const {
  if (cycles <= 64) return first_free_run_short(from, static_cast<int>(cycles));
  int64_t start = from, c = from;
  for (;;) {
    const uint64_t off = static_cast<uint64_t>(c - base_);
    const size_t idx = head_ + off / 64;
    if (idx >= words_.size()) return start;  // nothing booked from here on
    const int bit = static_cast<int>(off % 64);
    const int avail = 64 - bit;
    const uint64_t busy = words_[idx] >> bit;
    if (busy == 0) {
      c += avail;
      if (c - start >= cycles) return start;
      continue;
    }
    const int free_len = __builtin_ctzll(busy);
    if (c + free_len - start >= cycles) return start;
    const uint64_t rest = ~(busy >> free_len);  // zeros where busy
    const int busy_len = rest == 0 ? avail - free_len : std::min(__builtin_ctzll(rest), avail - free_len);
    c += free_len + busy_len;
    start = c;
  }
}

// Up to 64 cycles: the busy bits of the next 65..128 cycles at once, and a bit set at each start
// of a free run long enough (free &= free >> k, doubling), so that a request among many small
// bookings looks at a window at a time, not at every gap in turn.
int64_t CycleCalendar::first_free_run_short(int64_t from, int cycles) const {
  using u128 = unsigned __int128;
  for (int64_t c = from;;) {
    const uint64_t off = static_cast<uint64_t>(c - base_);
    const size_t idx = head_ + off / 64;
    if (idx >= words_.size()) return c;  // nothing booked from here on
    const int bit = static_cast<int>(off % 64);
    const uint64_t lo = words_[idx], hi = idx + 1 < words_.size() ? words_[idx + 1] : 0;
    const u128 busy = (static_cast<u128>(hi) << 64 | lo) >> bit;
    // Window bits read from the two words (past them the shift brings in zeros: free only when
    // nothing is booked there).
    const int known = idx + 2 >= words_.size() ? 128 : 128 - bit;
    u128 runs = ~busy;
    for (int have = 1; have < cycles;) {
      const int step = std::min(have, cycles - have);
      runs &= runs >> step;
      have += step;
    }
    const int starts = known - cycles + 1;  // the starts whose whole run lies in the window
    if (starts < 128) runs &= (u128(1) << starts) - 1;
    if (runs != 0) {
      const uint64_t low = static_cast<uint64_t>(runs);
      return c + (low ? __builtin_ctzll(low) : 64 + __builtin_ctzll(static_cast<uint64_t>(runs >> 64)));
    }
    c += starts;
  }
}

void CycleCalendar::mark(int64_t from, int64_t cycles) {
  const size_t last = head_ + static_cast<size_t>((from + cycles - 1 - base_) / 64);
  if (last >= words_.size()) words_.resize(last + 1, 0);
  for (int64_t c = from; c < from + cycles;) {
    const uint64_t off = static_cast<uint64_t>(c - base_);
    const int bit = static_cast<int>(off % 64);
    const int n = static_cast<int>(std::min<int64_t>(64 - bit, from + cycles - c));
    const uint64_t ones = n == 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1) << bit;
    words_[head_ + off / 64] |= ones;
    c += n;
  }
}

sc_time CycleCalendar::book(sc_time arrival, int64_t cycles, sc_time now) {
  const int64_t start = book_cycles(edge_at_or_after(arrival), cycles, cycle_of(now));
  return sc_time::from_value(static_cast<uint64_t>(start) * cycle_ps_);
}

int64_t CycleCalendar::horizon_cycle() const {
  for (size_t i = words_.size(); i > head_; --i)
    if (words_[i - 1]) return base_ + static_cast<int64_t>(i - 1 - head_) * 64 + 64 - __builtin_clzll(words_[i - 1]);
  return 0;
}

}  // namespace tmasim::sc
