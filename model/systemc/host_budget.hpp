// What a run will ask of the machine it runs on, known before it starts: the SystemC processes
// (each a coroutine whose stack is a memory mapping of its own), the memory they and the model's
// data take, and an estimate of the CPU time. A run this machine cannot hold is refused with the
// numbers, never a child that dies of bad_alloc a minute later (issue 33).
#pragma once
#include <cstdint>
#include <string>

#include "experiment.hpp"

namespace tmasim::sc {

struct RunFootprint {
  uint64_t processes = 0;     // SystemC threads: one per scenario thread and per CTA's TMA unit
  uint64_t memory_bytes = 0;  // their stacks as used, shared memory and global memory when bytes move
  uint64_t tma_ops = 0;       // TMA operations issued
  uint64_t steps = 0;         // steps of every thread
  bool moves_bytes = false;
};

RunFootprint footprint_of(const Experiment& e);

// The host's limits: the mappings a process may have (vm.max_map_count) and the memory available
// (MemAvailable); 0 where the system does not say.
struct HostLimits {
  uint64_t max_map_count = 0, available_bytes = 0;
};
HostLimits host_limits();

// Throws tmasim::Error naming the numbers when the run needs more processes or memory than the
// host allows.
void check_host_can_hold(const RunFootprint& f, const HostLimits& host);

// CPU seconds on this project's reference machine (docs/input.md says how the rates were measured):
// an estimate to warn or refuse with, not a promise.
double estimated_cpu_seconds(const RunFootprint& f);
std::string describe(const RunFootprint& f);

}  // namespace tmasim::sc
