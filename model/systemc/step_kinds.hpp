// The scenario language's step kinds, declared once. Each line: the kind (and the key that
// names it in a file), the other keys such a step takes besides "if" and "comment", and the TMA
// operation it issues. A kind that takes "cycles" lets a step state the least time it takes of
// its thread (the cost of that step in the user's own code; docs/scenarios.md). The parser finds
// a step's kind and refuses unknown keys from this table, docs/scenarios.md is checked against
// it (ctest docs_scenarios_lists_every_step), and the expander, the simulation and the CUDA
// emitter each have one case per kind.
// docs/architecture.md, "Adding a scenario step", walks through one.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tmasim/types.hpp"

namespace tmasim::sc {

#define TMASIM_NO_TMA_OP std::nullopt
#define TMASIM_STEP_KINDS(X)                                                                 \
  X(loop, "count body unroll", TMASIM_NO_TMA_OP)                                             \
  X(load, "coords im2col_offsets smem_offset barrier multicast cta_mask cycles", Op::load)   \
  X(store, "coords smem_offset reduce_op cycles", Op::store)                                 \
  X(reduce, "coords smem_offset reduce_op cycles", Op::reduce)                               \
  X(prefetch, "coords im2col_offsets cycles", Op::prefetch)                                  \
  X(arrive, "bytes cta scope cycles", TMASIM_NO_TMA_OP)                                      \
  X(wait, "phase parity cycles", TMASIM_NO_TMA_OP)                                           \
  X(wait_stores, "read_only cycles", TMASIM_NO_TMA_OP)                                       \
  X(read, "cycles", TMASIM_NO_TMA_OP)                                                        \
  X(write, "cycles", TMASIM_NO_TMA_OP)                                                       \
  X(fence, "cycles", TMASIM_NO_TMA_OP)                                                       \
  X(delay, "", TMASIM_NO_TMA_OP)                                                             \
  X(compute, "", TMASIM_NO_TMA_OP)                                                           \
  X(mma, "cycles", TMASIM_NO_TMA_OP)                                                         \
  X(mma_commit, "cycles", TMASIM_NO_TMA_OP)                                                  \
  X(mma_wait, "cycles", TMASIM_NO_TMA_OP)                                                    \
  X(sync, "cycles", TMASIM_NO_TMA_OP)                                                        \
  X(stamp, "", TMASIM_NO_TMA_OP)

#define TMASIM_STEP_KIND_ENUM(kind, keys, op) kind,
enum class StepKind { TMASIM_STEP_KINDS(TMASIM_STEP_KIND_ENUM) };
#undef TMASIM_STEP_KIND_ENUM

struct StepKindInfo {
  StepKind kind;
  std::string name;               // the key that names the step: {"load": "A", ...}
  std::vector<std::string> keys;  // every key the step may have
  std::optional<Op> tma_op;       // the TMA operation it issues, if any
};

// Every kind, in declaration order.
const std::vector<StepKindInfo>& step_kinds();
const StepKindInfo& step_kind(StepKind kind);

}  // namespace tmasim::sc
