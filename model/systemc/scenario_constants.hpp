// A scenario's parameters bound into its step expressions once, before the steps are expanded:
// a step's expressions then name only the variables its CTA, thread and loops bind, and an
// expansion (done once to check the scenario and once more as each thread runs) looks up those
// alone.
#pragma once
#include <map>

#include "scenario.hpp"

namespace tmasim::sc {

// Every expression of every group's steps with the names of `globals` (the params and
// bytes_<tensor>) bound, except those a variable of the group (its CTA's, cluster_rank, a
// thread's, a loop's) may shadow. The expressions evaluate as before, with the same errors.
void bind_constants(ScenarioSpec& spec, const Vars& globals);

// For every loop, the divisions and remainders by a constant that is not a power of two that one
// iteration computes from its variable, each dividend and divisor once (k / 3 and k % 3 are one):
// its body's own steps, and of a nested loop its count and condition (thread.divide_cycles).
// Counted on the expressions as written, before bind_constants.
std::map<const StepSpec*, int> loop_divisions(const ScenarioSpec& spec);

// For every step that is not a loop and computes any, the divisions and remainders by a constant it computes in line
// from the variable of a rolled loop around it: of a value computed from that variable, not of a
// loop's variable alone (`k / S` and `k % S` are the thread's counters), each dividend and divisor
// once (thread.inline_division_cycles). Counted on the expressions as written, before bind_constants.
std::map<const StepSpec*, int> step_inline_divisions(const ScenarioSpec& spec);

}  // namespace tmasim::sc
