// Scenario files for `tmasim run`, `tmasim cuda` and `tmasim compare` (docs/scenarios.md):
// tensors, and CTAs whose threads (a producer, consumer warps) run programs of TMA
// operations, mbarrier arrivals and waits, shared-memory reads, delays and compute, with
// loops, conditions and integer expressions over named parameters.
//
//   {"name": "...", "params": {"STAGES": 4, "KT": 16},
//    "tensors": {"A": {<tensor map fields>}},
//    "ctas": [{"count": 8, "var": "cta", "cluster_size": 1, "barriers": [1, 1, 1, 1, 1, 1, 1, 1],
//              "threads": [{"name": "producer", "program": [...]},
//                          {"name": "consumer", "count": 2, "var": "w", "program": [...]}]}]}
//
// The file is parsed once into a tree of step specifications (ScenarioSpec), strictly: an
// unknown key, a wrong type or a malformed expression is an error naming the step. The tree
// is then expanded for the model (build_scenario) or compiled into CUDA (emit_cuda).
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment.hpp"
#include "step_kinds.hpp"
#include "tmasim/expression.hpp"

namespace tmasim::sc {

struct StepSpec {
  using Kind = StepKind;  // step_kinds.hpp
  Kind kind = Kind::loop;
  std::string where;   // e.g. "ctas[0].threads[1].program[2].body[0]"
  Expression cond;     // "if": the step runs when non-zero (empty: always)
  // loop
  std::string var;
  Expression count;
  std::vector<StepSpec> body;
  int unroll = -1;     // "unroll": 1 the compiled loop is straight-line code, 0 rolled; -1 not stated (rolled)
  // TMA operations
  int map = -1;
  ReduceOp reduce_op = ReduceOp::add;
  std::vector<Expression> coords, im2col_offsets;
  Expression smem_offset, barrier, multicast, cta_mask;
  // arrive / wait / wait_stores
  Expression bytes, target_cta, phase, parity, pending;
  bool read_only = false;
  bool release_cta = false;  // arrive with "cta": "scope": "cta" (release at CTA scope, not cluster)
  // read: a 16-bit tile read with ldmatrix.x4, 16x16 blocks
  Expression rows, cols;
  DType dtype = DType::f16;
  Swizzle swizzle = Swizzle::none;
  // delay: cycles; compute: `count` MMAs of mma_m x mma_n x mma_k
  Expression cycles;
  int mma_m = 0, mma_n = 0, mma_k = 0;
  // mma: the type, and each operand's offset and swizzle (A may be in registers); `count`
  MmaType mma_type = MmaType::f16;
  bool a_in_registers = false;
  Expression a_offset, b_offset;
  Swizzle a_swizzle = Swizzle::b128, b_swizzle = Swizzle::b128;
  // "major": "mn": the operand's M (A) or N (B) dimension runs along the swizzle's span, K along
  // its rows; chunks of a span's elements lie `leading_bytes` apart (the descriptor's leading offset)
  bool a_mn_major = false, b_mn_major = false;
  Expression a_leading, b_leading;
  // "cycles" (the kinds that take it, step_kinds.hpp): the least the step takes of its thread
  Expression least_cycles;
};

struct ThreadSpec {
  std::string name, var;
  bool warpgroup = false;  // four warps (wgmma's unit): `count` warpgroups
  Expression count;  // replicated warps running the same program, `var` = 0..count-1
  std::vector<StepSpec> program;
};

struct CtaGroupSpec {
  std::string var = "cta";
  Expression count, sm;  // sm: the SM the CTA is pinned to (the model only)
  bool pinned = false;   // sm given; else the GPU's scheduler places the CTA
  int cluster_size = 1;
  int registers_per_thread = 0;     // "registers": what a thread holds; 0 (absent): not limiting
  std::vector<int> barrier_counts;  // arrival count per mbarrier
  std::vector<ThreadSpec> threads;
};

struct ScenarioSpec {
  std::string name;
  Vars params;                          // in file order, overrides applied
  std::vector<std::string> tensor_names;
  std::vector<TensorMap> maps;          // validated, laid out in one global memory
  int64_t global_bytes = 0;
  std::vector<CtaGroupSpec> groups;
  Vars globals() const;                 // params and bytes_<tensor>
};

// Named overrides of `params` (`--set name=value`); each value is an expression.
using ParamOverrides = std::vector<std::pair<std::string, std::string>>;
ParamOverrides parse_overrides(const std::vector<std::string>& assignments);

ScenarioSpec parse_scenario(const nlohmann::json& j, const ParamOverrides& overrides = {});

struct Scenario {
  std::string name;
  Experiment experiment;
  std::vector<uint8_t> global;
  std::vector<std::string> tensor_names;
  std::vector<std::string> cta_groups;  // per CTA: "group g, cta = v"
  int64_t smem_bytes = 0;               // shared memory the busiest CTA touches
  int max_stamps = 0;                   // stamp steps of the thread that executes the most
  Vars params;                          // the scenario's params as built (after --set)
  std::map<uint32_t, std::string> stamp_labels;  // by step origin (Experiment::origins): its label
};

// Expands the scenario for the model, checks it (reads of stages never loaded or never
// waited on, swizzles that disagree with the load, shared-memory bounds, the expansion
// budget) and throws Error naming the step on any problem.
void build_scenario(const ScenarioSpec& spec, const TimingConfig& cfg, Scenario& out);
void build_scenario(const nlohmann::json& j, const TimingConfig& cfg, Scenario& out);

// Cycles of one MMA of the given shape on the configuration's tensor cores.
double mma_cycles(const TimingConfig& cfg, int m, int n, int k);

}  // namespace tmasim::sc
