// Each run in a child process: SystemC elaborates once per process, so a caller that runs many
// experiments (compare, sweep, calibrate) forks one child a run.
#pragma once
#include "experiment.hpp"

namespace tmasim::sc {

// Runs the experiment in a child process (SystemC elaborates once per process); a child that
// fails reports why, a child killed by a signal is reported with the signal.
Measurement run_in_child(const Experiment& e);

// The same in two halves, so that several children can run at once: start_child forks and
// returns at once; finish_child reads the child's result, waits for it and throws as above.
struct Child {
  int pid = -1, fd = -1;
};
Child start_child(const Experiment& e);
Measurement finish_child(Child c);

}  // namespace tmasim::sc
