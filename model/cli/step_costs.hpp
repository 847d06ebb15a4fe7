// The steps' own costs a GPU result's stamps show (`tmasim costs`; docs/scenarios.md, "A step's
// own cost"): apart from the command so that the fuzz target `results` reads stamps as it does.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

namespace tmasim::cli {

struct StepCosts {
  double stamp = 0;             // a stamp's own cost, taken off each interval
  bool stamp_measured = false;  // from stamps back to back; else thread.stamp_cycles
  struct Line {
    std::string where, kind;    // the scenario file's step, e.g. ctas[0].threads[1].program[0].body[2]
    double cycles = 0;          // the median over its runs, less a stamp
    size_t runs = 0;
    bool written = false;       // a wait's time is not its own: reported, not written
  };
  std::vector<Line> lines;
  std::map<std::string, int> unattributed;  // intervals no one step explains: why, how many
};

// Matches the GPU's stamps in `result` (L2 state `l2`) to the stamp steps `built` runs, writes
// each measured step's "cycles" into `scenario` (the file `built` was built from) and says what
// it found. Throws Error for a result that does not fit the scenario.
StepCosts step_costs(nlohmann::json& scenario, const sc::Scenario& built, const nlohmann::json& result,
                     const std::string& l2, double stamp_cycles);

}  // namespace tmasim::cli
