// One timing experiment: CTAs, each with one or more threads (a producer, consumer warps)
// running programs of TMA issues, mbarrier arrivals and waits, shared-memory reads and
// delays, on TMA units of SMs that share a memory system. Built, run to completion and
// measured in one call; SystemC allows one elaboration per process, so callers that run
// many experiments fork first (run_in_child).
#pragma once
#include <string>

#include "experiment.hpp"

namespace tmasim::sc {

// Throws Error when the run cannot finish: a deadlock names the CTA, thread, barrier, phase
// and cycle of every blocked thread.
Measurement run_experiment(const Experiment& e);

// The process exits right after its run (run_in_child's child): the run leaves its CTAs' modules
// to the exit, since SystemC removes each from its registry by a linear search (quadratic in CTAs).
void exit_after_run();

// Where the running simulation is (the origin of the step a thread last started), for a
// crash report; nullptr outside a simulation.
const char* current_step_origin();

}  // namespace tmasim::sc
