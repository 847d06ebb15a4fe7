// The booking calendar of shared resources: requests take the earliest gap at or after their
// arrival, so early bookings of far-future transfers never hold back earlier requests.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "calendar.hpp"

namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using tmasim::sc::Calendar;

sc_time ns(double v) { return sc_time(v, SC_NS); }

TEST(Calendar, BackToBackRequestsQueue) {
  Calendar c;
  EXPECT_EQ(c.book(ns(0), ns(10), ns(0)), ns(0));
  EXPECT_EQ(c.book(ns(0), ns(10), ns(0)), ns(10));
  EXPECT_EQ(c.book(ns(5), ns(10), ns(0)), ns(20));
  EXPECT_EQ(c.intervals(), 1u);  // merged into one busy stretch
  EXPECT_EQ(c.horizon(), ns(30));
}

TEST(Calendar, AnEarlierRequestUsesTheGapBeforeAFutureBooking) {
  Calendar c;
  EXPECT_EQ(c.book(ns(1000), ns(100), ns(0)), ns(1000));  // a TMA write booked for when its data lands
  EXPECT_EQ(c.book(ns(10), ns(50), ns(0)), ns(10));       // a read now is not held behind it
  EXPECT_EQ(c.book(ns(970), ns(50), ns(0)), ns(1100));    // too long for the gap before 1000
  EXPECT_EQ(c.book(ns(60), ns(900), ns(0)), ns(60));      // exactly fills 60..960
  EXPECT_EQ(c.book(ns(0), ns(10), ns(0)), ns(0));
  EXPECT_EQ(c.book(ns(0), ns(1), ns(0)), ns(960));        // the first gap left
}

TEST(Calendar, ForgetsThePast) {
  Calendar c;
  for (int i = 0; i < 100; ++i) c.book(ns(i * 20), ns(10), ns(i * 20));
  EXPECT_LE(c.intervals(), 2u);
}

TEST(Calendar, ZeroDurationTakesNoTime) {
  Calendar c;
  c.book(ns(0), ns(10), ns(0));
  EXPECT_EQ(c.book(ns(5), ns(0), ns(0)), ns(10));  // it still waits for the path to be free
  EXPECT_EQ(c.book(ns(10), ns(5), ns(0)), ns(10));
}

// The calendar's rule in its plainest form, to check the blocked one against: the busy intervals
// in one sorted list, walked one by one.
struct ReferenceCalendar {
  std::vector<std::pair<uint64_t, uint64_t>> busy;  // [start, end), disjoint, never adjacent, by start
  uint64_t book(uint64_t arrival, uint64_t duration, uint64_t now) {
    busy.erase(std::remove_if(busy.begin(), busy.end(), [&](const auto& i) { return i.second <= now; }), busy.end());
    uint64_t start = arrival;
    size_t k = 0;
    while (k < busy.size() && busy[k].first <= arrival) ++k;
    if (k > 0 && busy[k - 1].second > start) start = busy[k - 1].second;
    while (k < busy.size() && busy[k].first < start + duration) start = std::max(start, busy[k++].second);
    if (duration == 0) return start;
    uint64_t end = start + duration;
    if (k < busy.size() && busy[k].first == end) {
      end = busy[k].second;
      busy.erase(busy.begin() + static_cast<std::ptrdiff_t>(k));
    }
    if (k > 0 && busy[k - 1].second == start) {
      busy[k - 1].second = end;
      return start;
    }
    busy.insert(busy.begin() + static_cast<std::ptrdiff_t>(k), {start, end});
    return start;
  }
};

// A reproducible stream of random numbers for the random-booking tests of both calendars.
struct Lcg {
  uint64_t state;
  uint64_t operator()(uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  }
};

// Many small bookings arriving out of order (a path shared by every SM: slivers between them that
// longer requests cannot use), some long ones, zero ones and `now` advancing: hundreds of
// intervals at once, so that blocks fill, split, empty and are passed whole.
TEST(Calendar, AgreesWithAnIntervalListReferenceOnRandomBookings) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    Calendar c;
    ReferenceCalendar ref;
    Lcg next{seed};
    uint64_t now = 0;
    size_t most = 0;
    for (int i = 0; i < 20000; ++i) {
      if (next(16) == 0) now += next(seed == 3 ? 600 : seed == 2 ? 20 : 400);
      const uint64_t arrival = now + next(seed == 2 ? 5000 : 20000);
      const uint64_t r = next(20);
      const uint64_t duration = r == 0 ? 0 : r == 1 ? 50 + next(400) : 1 + next(seed == 1 ? 12 : 3);
      const uint64_t want = ref.book(arrival, duration, now);
      const sc_time got = c.book(sc_time::from_value(arrival), sc_time::from_value(duration), sc_time::from_value(now));
      ASSERT_EQ(got.value(), want) << "seed " << seed << ", booking " << i << ": " << duration << " arriving at " << arrival
                                   << ", now " << now;
      ASSERT_EQ(c.intervals(), ref.busy.size()) << "seed " << seed << ", booking " << i;
      most = std::max(most, c.intervals());
    }
    EXPECT_GT(most, 300u) << "seed " << seed << ": too few intervals at once to fill and pass blocks";
    EXPECT_EQ(c.horizon().value(), ref.busy.empty() ? 0 : ref.busy.back().second);
  }
}

}  // namespace

// The shared-memory data path's calendar: whole cycles on the SM's clock grid.
namespace {

using tmasim::sc::CycleCalendar;
const sc_time kCycle = sc_time(1, SC_NS);
sc_time cycles(double c) { return kCycle * c; }

TEST(CycleCalendar, BackToBackRequestsQueue) {
  CycleCalendar c(kCycle);
  EXPECT_EQ(c.book(cycles(0), 4, cycles(0)), cycles(0));
  EXPECT_EQ(c.book(cycles(0), 4, cycles(0)), cycles(4));
  EXPECT_EQ(c.book(cycles(2), 1, cycles(0)), cycles(8));
  EXPECT_EQ(c.horizon_cycle(), 9);
}

TEST(CycleCalendar, AnArrivalBetweenEdgesWaitsForTheNextEdge) {
  CycleCalendar c(kCycle);
  EXPECT_EQ(c.book(cycles(2.3), 1, cycles(0)), cycles(3));
  EXPECT_EQ(c.book(cycles(3), 1, cycles(0)), cycles(4));  // cycle 3 is taken
}

TEST(CycleCalendar, AnEarlierRequestUsesTheGapBeforeAFutureBooking) {
  CycleCalendar c(kCycle);
  EXPECT_EQ(c.book(cycles(1000), 100, cycles(0)), cycles(1000));  // a TMA write booked for when its data lands
  EXPECT_EQ(c.book(cycles(10), 50, cycles(0)), cycles(10));       // a read now is not held behind it
  EXPECT_EQ(c.book(cycles(970), 50, cycles(0)), cycles(1100));    // too long for the gap before 1000
  EXPECT_EQ(c.book(cycles(60), 900, cycles(0)), cycles(60));      // exactly fills 60..960
  EXPECT_EQ(c.book(cycles(0), 1, cycles(0)), cycles(0));
  EXPECT_EQ(c.book(cycles(0), 1, cycles(0)), cycles(1));
}

TEST(CycleCalendar, FindsARunAmongManySingleCycleBookings) {
  CycleCalendar c(kCycle);
  for (int k = 0; k < 300; k += 2) c.book(cycles(k), 1, cycles(0));  // every other cycle, across words
  EXPECT_EQ(c.book(cycles(0), 2, cycles(0)), cycles(299));            // the first two free cycles in a row
  EXPECT_EQ(c.book(cycles(0), 1, cycles(0)), cycles(1));
  EXPECT_EQ(c.book(cycles(63), 1, cycles(0)), cycles(63));           // a word's last bit
  EXPECT_EQ(c.book(cycles(63), 1, cycles(0)), cycles(65));
}

// smem.interleave_wavefronts: a request's cycles are each the first free one after the last, so
// a 4-wavefront ldmatrix among a box's rows (one every other cycle) takes the gaps, where a run of
// four waits until the rows end.
TEST(CycleCalendar, ASpreadRequestTakesTheGapsBetweenOtherBookings) {
  CycleCalendar c(kCycle);
  for (int k = 0; k < 300; k += 2) c.book(cycles(k), 1, cycles(0));
  EXPECT_EQ(c.book_spread(0, 4, 0), 8);  // cycles 1, 3, 5, 7
  EXPECT_EQ(c.book_spread(0, 1, 0), 10);  // cycle 9
  EXPECT_EQ(c.book_cycles(0, 4, 0), 299);  // four in a row: after the last row
  EXPECT_EQ(c.book_spread(0, 0, 0), 11);  // none taken, at the first free cycle
}

TEST(CycleCalendar, ForgetsThePastAndNeverBooksIt) {
  CycleCalendar c(kCycle);
  for (int i = 0; i < 1000; ++i) c.book(cycles(i * 20), 10, cycles(i * 20));
  EXPECT_EQ(c.book(cycles(0), 1, cycles(20000)), cycles(20000));  // an arrival in the past is served now
  EXPECT_EQ(c.book(cycles(19995), 1, cycles(19995)), cycles(19995));
  EXPECT_EQ(c.horizon_cycle(), 20001);
}

TEST(CycleCalendar, ZeroCyclesTakeNoTimeButWaitForAFreeCycle) {
  CycleCalendar c(kCycle);
  c.book(cycles(0), 10, cycles(0));
  EXPECT_EQ(c.book(cycles(5), 0, cycles(0)), cycles(10));
  EXPECT_EQ(c.book(cycles(10), 5, cycles(0)), cycles(10));
}

// The definitions the calendar is checked against, cycle by cycle (driven by Lcg, above).
struct ReferenceGrid {
  std::vector<bool> busy;
  bool free_at(int64_t k) const { return k >= static_cast<int64_t>(busy.size()) || !busy[static_cast<size_t>(k)]; }
  void take(int64_t k) {
    if (busy.size() <= static_cast<size_t>(k)) busy.resize(static_cast<size_t>(k) + 1, false);
    busy[static_cast<size_t>(k)] = true;
  }
  // A run of n cycles (n = 0 waits for one free cycle): the first c >= from with [c, c + max(n, 1)) free.
  int64_t book_run(int64_t from, int64_t n) {
    auto run_free = [&](int64_t w) {
      for (int64_t k = w; k < w + std::max<int64_t>(n, 1); ++k)
        if (!free_at(k)) return false;
      return true;
    };
    while (!run_free(from)) ++from;
    for (int64_t k = from; k < from + n; ++k) take(k);
    return from;
  }
  // n single cycles, each the first free one after the one before (the first at or after `from`);
  // the cycle after the last (n = 0: the first free cycle, none taken).
  int64_t book_spread(int64_t from, int64_t n) {
    while (!free_at(from)) ++from;
    int64_t end = from;
    for (int64_t k = 0; k < n; ++k, ++from) {
      while (!free_at(from)) ++from;
      take(from);
      end = from + 1;
    }
    return end;
  }
};

// Random bookings of 0..150 cycles (the fast single-word path, the window search, the long walk),
// arrivals up to 300 cycles ahead, `now` advancing now and then.
TEST(CycleCalendar, AgreesWithACycleByCycleReferenceOnRandomBookings) {
  CycleCalendar c(kCycle);
  ReferenceGrid ref;
  Lcg next{12345};
  int64_t now = 0;
  for (int i = 0; i < 8000; ++i) {
    if (next(8) == 0) now += static_cast<int64_t>(next(40));
    const int64_t arrival = now + static_cast<int64_t>(next(300));
    const int64_t n = next(10) == 0 ? static_cast<int64_t>(next(151)) : static_cast<int64_t>(1 + next(6));
    const int64_t want = ref.book_run(arrival, n);
    ASSERT_EQ(c.book(cycles(static_cast<double>(arrival)), n, cycles(static_cast<double>(now))),
              cycles(static_cast<double>(want)))
        << "booking " << i << ": " << n << " cycles arriving at " << arrival << ", now " << now;
  }
}

// book_spread mixed with runs, against the reference.
TEST(CycleCalendar, ASpreadRequestAgreesWithACycleByCycleReference) {
  CycleCalendar c(kCycle);
  ReferenceGrid ref;
  Lcg next{777};
  int64_t now = 0;
  for (int i = 0; i < 8000; ++i) {
    if (next(8) == 0) now += static_cast<int64_t>(next(40));
    const int64_t arrival = now + static_cast<int64_t>(next(300));
    const int64_t n = static_cast<int64_t>(next(9));
    if (next(2) == 0)
      ASSERT_EQ(c.book_cycles(arrival, n, now), ref.book_run(arrival, n)) << "run " << i;
    else
      ASSERT_EQ(c.book_spread(arrival, n, now), ref.book_spread(arrival, n)) << "spread " << i << ": " << n << " cycles from " << arrival;
  }
}

}  // namespace
