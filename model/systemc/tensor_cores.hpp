// An SM's four tensor cores taken together: they serve one warpgroup's wgmma.mma_async at a time,
// in the order the warpgroups issue them (simulated time), each for 2mnk / the type's rate
// (tensor.*_flops_per_cycle; an A operand in registers enters at tensor.register_a_bytes_per_cycle,
// so a narrow wgmma of A from registers takes at least that), while its shared-memory operands (A unless in registers, B) go
// through the SM's shared-memory data path one wavefront a cycle, taking cycles that TMA writes
// and ldmatrix would otherwise have. A wgmma's results are there tensor.latency_cycles after the
// later of the two ends.
#pragma once
#include <systemc>

#include <algorithm>
#include <cmath>

#include "calendar.hpp"
#include "experiment.hpp"

namespace tmasim::sc {

class TensorCores {
 public:
  // `op.count` wgmma of `op`'s shape issued at `now`; returns when the last one's results are there.
  sc_core::sc_time submit(const MmaOp& op, sc_core::sc_time now, const TimingConfig& cfg, CycleCalendar& smem_path) {
    const uint64_t cycle_ps = smem_path.cycle_ps();
    const int64_t now_cycle = smem_path.edge_at_or_after(now);
    const int64_t start = std::max(now_cycle, free_cycle_);
    double compute = op.count * op.flops() / flops_per_cycle(op.type, cfg);
    if (op.a_in_registers)
      compute = std::max(compute, op.count * double(op.a_bytes()) / cfg.register_a_bytes_per_cycle);
    int64_t end = start + static_cast<int64_t>(std::ceil(compute));
    if (cfg.mma_smem_operands) {
      const int64_t path_bytes = int64_t(cfg.smem.banks) * cfg.smem.bank_bytes;
      const int64_t wavefronts = (op.count * op.operand_bytes() + path_bytes - 1) / path_bytes;
      end = std::max(end, smem_path.book_spread(start, wavefronts, now_cycle));
    }
    free_cycle_ = end;
    busy_cycles_ += end - start;
    const double done_ps = (static_cast<double>(end) + cfg.mma_latency_cycles) * static_cast<double>(cycle_ps);
    return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(done_ps));
  }
  int64_t busy_cycles() const { return busy_cycles_; }

  static double flops_per_cycle(MmaType type, const TimingConfig& cfg) {
    switch (type) {
      case MmaType::tf32: return cfg.tf32_flops_per_cycle;
      case MmaType::e4m3:
      case MmaType::e5m2: return cfg.fp8_flops_per_cycle;
      default: return cfg.f16_flops_per_cycle;
    }
  }

 private:
  int64_t free_cycle_ = 0;  // the first cycle the tensor cores are free
  int64_t busy_cycles_ = 0;
};

}  // namespace tmasim::sc
