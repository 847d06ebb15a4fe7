// The booking calendar of shared resources: requests take the earliest gap at or after their
// arrival, so early bookings of far-future transfers never hold back earlier requests.
#include <gtest/gtest.h>

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

}  // namespace
