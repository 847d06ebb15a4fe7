#include "host_budget.hpp"

#include <fstream>
#include <sstream>

#include "tmasim/json_input.hpp"

namespace tmasim::sc {

namespace {
// Resident memory a SystemC thread takes beyond its stack's untouched pages: 17 KiB measured for a
// warp of one delay step (64000 warps, 1.1 GB); rounded up for a deeper call chain.
constexpr uint64_t kBytesPerProcess = 32 << 10;
// Mappings the process has besides the threads' stacks (libraries, heap, the trace file): headroom.
constexpr uint64_t kOtherMappings = 4096;
// CPU time per step, per TMA operation (the more with bytes) and per process created: the speed
// benchmark's 18 runs (scripts/bench_speed.py, 2026-11-27) within -48%..+54% (docs/input.md).
constexpr double kSecondsPerStep = 1.0 / 400.0e3, kSecondsPerOp = 1.0 / 50.0e3, kSecondsPerOpWithBytes = 1.0 / 18.0e3;
constexpr double kSecondsPerProcess = 1.0 / 15.0e3;

uint64_t meminfo_bytes(const char* key) {
  std::ifstream in("/proc/meminfo");
  std::string name, unit;
  uint64_t kib = 0;
  while (in >> name >> kib) {
    std::getline(in, unit);
    if (name == key) return kib << 10;
  }
  return 0;
}

std::string gib(uint64_t bytes) {
  std::ostringstream os;
  os.precision(2);
  os << std::fixed << static_cast<double>(bytes) / double(1 << 30) << " GiB";
  return os.str();
}
}  // namespace

RunFootprint footprint_of(const Experiment& e) {
  RunFootprint f;
  f.moves_bytes = e.cfg.smem.move_bytes;
  f.processes = 1 + e.ctas.size();  // the GPU's scheduler and each CTA's TMA unit
  for (const CtaProgram& cta : e.ctas)
    for (const ThreadProgram& t : cta.threads) {
      ++f.processes;
      const StepSummary summary = summary_of(t);
      f.steps += summary.steps;
      f.tma_ops += summary.tma_ops;
    }
  f.memory_bytes = f.processes * kBytesPerProcess;
  if (f.moves_bytes)
    f.memory_bytes += e.ctas.size() * static_cast<uint64_t>(e.cfg.smem.size_bytes) + (e.global ? e.global->size() : 0);
  return f;
}

HostLimits host_limits() {
  HostLimits h;
  std::ifstream maps("/proc/sys/vm/max_map_count");
  maps >> h.max_map_count;
  h.available_bytes = meminfo_bytes("MemAvailable:");
  return h;
}

void check_host_can_hold(const RunFootprint& f, const HostLimits& host) {
  if (host.max_map_count > kOtherMappings && f.processes > host.max_map_count - kOtherMappings)
    throw Error("this run needs " + std::to_string(f.processes) +
                " SystemC threads (one per scenario thread and per CTA's TMA unit), each a memory mapping of its "
                "own; this machine allows a process " + std::to_string(host.max_map_count) +
                " mappings (vm.max_map_count), so at most " + std::to_string(host.max_map_count - kOtherMappings) +
                " threads: use fewer CTAs or threads (or raise vm.max_map_count)");
  if (host.available_bytes > 0 && f.memory_bytes > host.available_bytes)
    throw Error("this run needs about " + gib(f.memory_bytes) + " of memory (" + describe(f) +
                ") and this machine has " + gib(host.available_bytes) + " available: use fewer CTAs or threads" +
                (f.moves_bytes ? ", or --timing-only" : ""));
}

double estimated_cpu_seconds(const RunFootprint& f) {
  return static_cast<double>(f.steps) * kSecondsPerStep +
         static_cast<double>(f.tma_ops) * (f.moves_bytes ? kSecondsPerOpWithBytes : kSecondsPerOp) +
         static_cast<double>(f.processes) * kSecondsPerProcess;
}

std::string describe(const RunFootprint& f) {
  return std::to_string(f.processes) + " SystemC threads, " + std::to_string(f.steps) + " steps, " +
         std::to_string(f.tma_ops) + " TMA operations" + (f.moves_bytes ? " moving bytes" : ", timing only");
}

}  // namespace tmasim::sc
