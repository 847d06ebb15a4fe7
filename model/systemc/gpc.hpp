// A GPC: a group of the chip's SMs (gpu.gpc_sms says how many each). A cluster's CTAs run in one
// GPC on the H100; the model's scheduler places a cluster inside one when gpu.cluster_in_gpc is on.
#pragma once
#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include "sm.hpp"

namespace tmasim::sc {

class Gpc : public sc_core::sc_module {
 public:
  // SMs first_sm .. first_sm + count - 1 of the chip.
  Gpc(sc_core::sc_module_name name, int first_sm, int count, int slots, sc_core::sc_time cycle) : sc_module(name) {
    for (int s = first_sm; s < first_sm + count; ++s)
      sms.push_back(std::make_unique<Sm>(("sm_" + std::to_string(s)).c_str(), s, slots, cycle));
  }
  std::vector<std::unique_ptr<Sm>> sms;
};

}  // namespace tmasim::sc
