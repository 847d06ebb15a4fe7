// The SM clock as SystemC time: one cycle of the configuration's sm_clock_mhz.
#pragma once
#include <systemc>

#include "timing_config.hpp"

namespace tmasim::sc {

inline sc_core::sc_time cycle_time(const TimingConfig& c) {
  return sc_core::sc_time(1000.0 / c.sm_clock_mhz, sc_core::SC_NS);
}

}  // namespace tmasim::sc
