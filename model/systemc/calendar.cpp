#include "calendar.hpp"

#include <algorithm>

namespace tmasim::sc {

using sc_core::sc_time;

// As a request walks the intervals from its arrival on, it starts at the end of each one it
// does not fit before; a block whose every gap (and the gap into it) is shorter than the request
// is passed whole, its last end taken.
uint64_t Calendar::book_ps(uint64_t arrival, uint64_t duration, uint64_t now) {
  forget(now);
  if (intervals_ == 0 || arrival >= last().end) {  // after every booking: most requests
    if (duration == 0) return arrival;
    if (intervals_ > 0 && last().end == arrival)
      last().end = arrival + duration;
    else
      append({arrival, arrival + duration});
    return arrival;
  }
  Pos p = first_after(arrival);
  uint64_t start = arrival;
  if (!is_first(p) && before(p).end > start) start = before(p).end;
  p = first_fit(p, start, duration);
  if (duration == 0) return start;
  insert_at(p, {start, start + duration});
  return start;
}

void Calendar::forget(uint64_t now) {
  while (intervals_ > 0) {
    Block& x = block(first_);
    if (x.at[x.begin].end > now) break;
    ++x.begin;
    --intervals_;
    if (x.begin == x.end) {
      spare_.push_back(blocks_[first_]);
      ++first_;
    }
  }
  if (intervals_ == 0) {
    for (size_t b = first_; b < blocks_.size(); ++b) spare_.push_back(blocks_[b]);
    blocks_.clear();
    first_ = 0;
  } else if (first_ >= 64 && first_ * 2 >= blocks_.size()) {
    blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
}

uint32_t Calendar::new_block() {
  if (spare_.empty()) {
    pool_.emplace_back();
    return static_cast<uint32_t>(pool_.size() - 1);
  }
  const uint32_t n = spare_.back();
  spare_.pop_back();
  pool_[n] = Block{};
  return n;
}

void Calendar::append(Interval x) {
  if (blocks_.size() == first_ || block(blocks_.size() - 1).end == kBlock) {
    const uint32_t n = new_block();  // before block(): it may move the pool
    blocks_.push_back(n);
  }
  Block& tail = block(blocks_.size() - 1);
  if (tail.end > tail.begin) tail.max_gap = std::max(tail.max_gap, x.start - tail.at[tail.end - 1].end);
  tail.at[tail.end++] = x;
  ++intervals_;
}

// The first interval that starts after t (some interval ends after t).
Calendar::Pos Calendar::first_after(uint64_t t) const {
  const auto starts_after = [&](uint32_t n) { return pool_[n].at[pool_[n].begin].start > t; };
  const auto from = blocks_.begin() + static_cast<std::ptrdiff_t>(first_);
  const auto it = std::partition_point(from, blocks_.end(), [&](uint32_t n) { return !starts_after(n); });
  if (it == from) return {first_, block(first_).begin};
  const size_t b = static_cast<size_t>(it - blocks_.begin()) - 1;
  const Block& x = block(b);
  const Interval* k = std::upper_bound(x.at + x.begin, x.at + x.end, t, [](uint64_t v, const Interval& i) { return v < i.start; });
  if (k == x.at + x.end) return b + 1 < blocks_.size() ? Pos{b + 1, block(b + 1).begin} : Pos{blocks_.size(), 0};
  return {b, static_cast<int>(k - x.at)};
}

// From p (the first interval after the request's earliest start), the interval the request fits
// before, `start` raised to where it fits.
Calendar::Pos Calendar::first_fit(Pos p, uint64_t& start, uint64_t duration) const {
  while (p.b < blocks_.size()) {
    const Block& x = block(p.b);
    for (int k = p.k; k < x.end; ++k) {
      if (x.at[k].start >= start + duration) return {p.b, k};
      start = std::max(start, x.at[k].end);
    }
    size_t b = p.b + 1;
    for (; b < blocks_.size(); ++b) {
      const Block& y = block(b);
      if (y.at[y.begin].start >= start + duration) return {b, y.begin};
      if (y.max_gap >= duration) break;
      start = std::max(start, y.at[y.end - 1].end);
    }
    if (b == blocks_.size()) break;
    const Block& y = block(b);
    start = std::max(start, y.at[y.begin].end);
    p = {b, y.begin + 1};
  }
  return {blocks_.size(), 0};
}

void Calendar::measure_gaps(Block& x) {
  x.max_gap = 0;
  for (int k = x.begin + 1; k < x.end; ++k) x.max_gap = std::max(x.max_gap, x.at[k].start - x.at[k - 1].end);
}

// Inserts x before p (p: the first interval starting at or after x's start), merged with the
// intervals it touches. A block's gaps only shrink or go, or a new one comes at its edge: its bound
// is measured again only where the gap that shrank or went was its largest.
void Calendar::insert_at(Pos p, Interval x) {
  const bool into_next = p.b < blocks_.size() && at(p).start == x.end;
  const bool into_before = !is_first(p) && before(p).end == x.start;
  // The gap before p, between two intervals of p's block, shrinks or goes.
  const bool largest = p.b < blocks_.size() && p.k > block(p.b).begin && is_largest_gap(block(p.b), p.k);
  if (into_next && into_before) {
    Block& y = block(p.b);
    // The gap after p keeps its size or becomes one between blocks.
    const bool next_largest = p.k + 1 < y.end && is_largest_gap(y, p.k + 1);
    before(p).end = at(p).end;
    erase_at(p, largest || next_largest);
    return;
  }
  if (into_next || into_before) {
    if (into_next)
      at(p).start = x.start;
    else
      before(p).end = x.end;
    if (largest) measure_gaps(block(p.b));
    return;
  }
  if (p.b == blocks_.size() || p.k == block(p.b).begin) {  // at a block's start: the end of the one before if it has room
    if (p.b > first_ && block(p.b - 1).end < kBlock)
      p = {p.b - 1, block(p.b - 1).end};
    else if (p.b == blocks_.size()) {
      append(x);
      return;
    }
  }
  if (block(p.b).end - block(p.b).begin == kBlock) p = split(p);
  Block& y = block(p.b);
  if (y.end == kBlock) {  // room before the first in use
    std::copy(y.at + y.begin, y.at + y.end, y.at);
    p.k -= y.begin;
    y.end -= y.begin;
    y.begin = 0;
  }
  const bool has_before = p.k > y.begin, has_next = p.k < y.end;
  const bool split_largest = has_before && has_next && is_largest_gap(y, p.k);
  std::copy_backward(y.at + p.k, y.at + y.end, y.at + y.end + 1);
  y.at[p.k] = x;
  ++y.end;
  ++intervals_;
  if (split_largest)
    measure_gaps(y);
  else if (!has_before && has_next)  // a gap new to the block
    y.max_gap = std::max(y.max_gap, y.at[p.k + 1].start - x.end);
  else if (has_before && !has_next)
    y.max_gap = std::max(y.max_gap, x.start - y.at[p.k - 1].end);
}

// Splits p's full block in two halves; returns p in its half.
Calendar::Pos Calendar::split(Pos p) {
  const uint32_t n = new_block();
  Block& x = block(p.b);
  Block& y = pool_[n];
  const int half = x.begin + kBlock / 2;
  std::copy(x.at + half, x.at + x.end, y.at);
  y.end = x.end - half;
  x.end = half;
  measure_gaps(x);
  measure_gaps(y);
  blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(p.b) + 1, n);
  if (p.k < half) return p;
  return {p.b + 1, p.k - half};
}

void Calendar::erase_at(Pos p, bool measure) {
  Block& x = block(p.b);
  std::copy(x.at + p.k + 1, x.at + x.end, x.at + p.k);
  --x.end;
  --intervals_;
  if (x.end > x.begin) {
    if (measure) measure_gaps(x);
    return;
  }
  spare_.push_back(blocks_[p.b]);
  blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(p.b));
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
