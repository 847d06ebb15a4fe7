// What a scenario's consumer steps read of shared memory, checked before anything runs.
#pragma once
#include "scenario.hpp"

namespace tmasim::sc {

// A `read` (or an mma's operand) must touch shared memory that loads fill (an mma operand all of
// it), after its thread waited on one of those loads' barriers, with their swizzle (an operand:
// their rows of the span and their element size); records the CTA's shared-memory extent in `out`.
void check_reads(const Experiment& e, Scenario& out);

}  // namespace tmasim::sc
