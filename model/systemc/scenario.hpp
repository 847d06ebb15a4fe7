// Scenario files for `tmasim run`: tensors, and programs of CTAs (TMA operations, mbarrier
// arrivals and waits, consumer reads of shared memory), with loops and integer expressions.
//
//   {"name": "...", "tensors": {"A": {<tensor map fields>}},
//    "ctas": [{"count": 8, "var": "cta", "sm": "cta", "program": [
//       {"loop": "k", "count": 16, "body": [
//          {"wait": "k % 4", "phase": "k / 4 - 1", "if": "k >= 4"},
//          {"arrive": "k % 4", "bytes": "bytes_A"},
//          {"load": "A", "coords": ["64 * k", "128 * cta"], "smem_offset": "(k % 4) * 16384", "barrier": "k % 4"},
//          {"read": {"rows": 128, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": 0}}]}]}]}
//
// Steps: load / store / reduce (with "reduce_op") / prefetch (value: tensor name), arrive, wait,
// wait_stores, read, loop. Any integer may be an expression (+ - * / % ( ) < <= > >= == !=)
// over loop variables, the CTA variable and bytes_<tensor>; "if" skips a step when false.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "simulation.hpp"

namespace tmasim::sc {

struct Scenario {
  std::string name;
  Experiment experiment;
  std::vector<uint8_t> global;
  std::vector<std::string> tensor_names;
};

// Throws Error naming the step and field of a malformed scenario.
void build_scenario(const nlohmann::json& j, const TimingConfig& cfg, Scenario& out);

// Evaluates an integer expression; exposed for tests.
int64_t eval_expression(const std::string& text, const std::vector<std::pair<std::string, int64_t>>& vars);

// Runs the experiment in a child process (SystemC elaborates once per process).
Measurement run_in_child(const Experiment& e);

}  // namespace tmasim::sc
