// What limits a run (issue 32): where each thread role's time goes, how busy each shared unit was,
// and a one-line verdict; in `tmasim run`'s report and its --stats ("bottleneck").
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment.hpp"

namespace tmasim::cli {

struct Bottleneck {
  // Per thread role (a thread's name without its [k]): the median over its threads of the share
  // of the thread's time (launch to end) each StepTime took, and its threads' median time.
  struct Role {
    std::string name;
    std::vector<double> share;  // by StepTime
    double cycles = 0;
    size_t threads = 0;
  };
  std::vector<Role> roles;  // in the scenario's order of first appearance
  // Busy over the run: what each unit moved against its peak rate, averaged over the SMs in use
  // where the unit is an SM's (name -> fraction; a unit the run never used is left out).
  std::map<std::string, double> units;
  std::string verdict;
};

Bottleneck bottleneck(const sc::Measurement& m, const sc::TimingConfig& cfg);

// The report's lines (each starting with two spaces) and the --stats object.
std::string describe(const Bottleneck& b);
nlohmann::json to_json(const Bottleneck& b);

}  // namespace tmasim::cli
