// What a scenario's consumer steps read and write of shared memory, checked before anything runs.
#pragma once
#include "scenario.hpp"

namespace tmasim::sc {

// A `read` (or an mma's operand) must touch shared memory that loads fill (an mma operand all of
// it), after its thread waited on one of those loads' barriers, with their swizzle (an operand:
// their rows of the span and their element size); records the CTA's shared-memory extent in `out`.
void check_reads(const Experiment& e, Scenario& out);

// A `write` (stmatrix) must be followed, in its thread, by a `fence` (fence.proxy.async) before the
// thread's next arrive, sync or TMA store, and before its end: without it the TMA's async proxy
// need not see the writes. Records the writes' shared-memory extent in `out`.
void check_writes(const Experiment& e, Scenario& out);

// The stamps fit the GPU's buffer: CTAs x warps x the most stamps of any thread (out.max_stamps).
void check_stamp_slots(const Experiment& e, const Scenario& out);

}  // namespace tmasim::sc
