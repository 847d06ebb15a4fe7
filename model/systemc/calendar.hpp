// A resource that serves one request at a time and is booked in advance (a data path, a port,
// the DRAM interface). Each request takes the earliest gap at or after its arrival that is
// long enough for it, so a booking made early for a far-future transfer never holds back a
// request that arrives before that transfer: service follows simulated time, not the order
// in which the processes happened to book.
#pragma once
#include <map>
#include <systemc>

namespace tmasim::sc {

class Calendar {
 public:
  // Books `duration` at or after `arrival`; returns the start. Forgets intervals that ended
  // before `now` (nothing can be booked in the past).
  sc_core::sc_time book(sc_core::sc_time arrival, sc_core::sc_time duration, sc_core::sc_time now);
  // The end of the last booking (for queue-depth statistics).
  sc_core::sc_time horizon() const { return busy_.empty() ? sc_core::SC_ZERO_TIME : busy_.rbegin()->second; }
  size_t intervals() const { return busy_.size(); }

 private:
  std::map<sc_core::sc_time, sc_core::sc_time> busy_;  // start -> end; disjoint, never adjacent
};

}  // namespace tmasim::sc
