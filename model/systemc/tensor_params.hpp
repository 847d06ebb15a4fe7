// The tensor cores' parameters (the configuration's "tensor" section): warpgroup MMA (`mma` steps,
// wgmma.mma_async), an SM's four tensor cores taken together.
#pragma once
#include <cstdint>
#include <string>

#include "config_key.hpp"

namespace tmasim::sc {

#define TMASIM_TENSOR_KEYS(X) \
  X(double, f16_flops_per_cycle, "f16_flops_per_cycle", 4096, 1, 1e9, optional, "FLOP/cycle", \
    "an SM's dense f16/bf16 rate (f32 accumulators): a wgmma of m x n x k takes 2mnk / this") \
  X(double, tf32_flops_per_cycle, "tf32_flops_per_cycle", 2048, 1, 1e9, optional, "FLOP/cycle", \
    "the same for tf32") \
  X(double, fp8_flops_per_cycle, "fp8_flops_per_cycle", 8192, 1, 1e9, optional, "FLOP/cycle", \
    "the same for e4m3/e5m2") \
  X(double, mma_issue_cycles, "issue_cycles", 17, 0, 1e6, optional, "cycles", \
    "the warpgroup's cost to issue one wgmma (the thread goes on after it)") \
  X(double, mma_latency_cycles, "latency_cycles", 59, 0, 1e6, optional, "cycles", \
    "from the end of a wgmma's turn on the tensor cores to its completion (`mma_wait`)") \
  X(double, register_a_bytes_per_cycle, "register_a_bytes_per_cycle", 154, 1, 1e9, optional, "B/cycle", \
    "an A operand in registers enters the tensor cores at this rate (SM-wide): a wgmma of A from " \
    "registers holds them at least 64k x element bytes / this") \
  X(bool, mma_smem_operands, "smem_operands", true, 0, 0, optional, "", \
    "operands in shared memory are read through the SM's shared-memory data path (`smem.banks` x " \
    "`smem.bank_bytes` a cycle, shared with TMA writes and ldmatrix): a wgmma takes at least its " \
    "operand bytes' wavefronts; B is read once for the warpgroup's four warps")

struct TensorParams {
  TMASIM_TENSOR_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(TensorParams, "tensor", TMASIM_TENSOR_KEYS)
};

}  // namespace tmasim::sc
