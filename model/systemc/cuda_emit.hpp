// `tmasim cuda`: compiles a scenario into a self-contained CUDA program for a Hopper GPU that
// runs exactly that scenario (same tensor maps, encoded by the driver from the same fields;
// the same programs with their loops and expressions compiled in, each scenario thread a warp)
// and writes its timings as JSON (docs/scenarios.md, "Running a scenario on the GPU").
#pragma once
#include <string>

#include "scenario.hpp"

namespace tmasim::sc {

// `built` is the scenario as build_scenario expanded it (its checks passed).
std::string emit_cuda(const ScenarioSpec& spec, const Scenario& built, const TimingConfig& cfg);

}  // namespace tmasim::sc
