#include "scenario_constants.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace tmasim::sc {

namespace {

// The variables a program's loops bind.
void loop_names(const std::vector<StepSpec>& prog, std::set<std::string>& out) {
  for (const StepSpec& s : prog) {
    if (s.kind == StepSpec::Kind::loop) out.insert(s.var);
    loop_names(s.body, out);
  }
}

// f(x) for every expression step `s` itself evaluates (not its loop body's). S: StepSpec, const or not.
template <class S, class F>
void for_each_own_expression(S& s, F f) {
  for (auto* x : {&s.cond, &s.count, &s.smem_offset, &s.barrier, &s.multicast, &s.cta_mask, &s.bytes, &s.target_cta,
                  &s.phase, &s.parity, &s.pending, &s.rows, &s.cols, &s.cycles, &s.a_offset, &s.b_offset, &s.a_leading,
                  &s.b_leading, &s.least_cycles})
    f(*x);
  for (auto& x : s.coords) f(x);
  for (auto& x : s.im2col_offsets) f(x);
}

// f(x) for every expression a step of `prog` (and of its loops' bodies) evaluates.
template <class F>
void for_each_expression(std::vector<StepSpec>& prog, F f) {
  for (StepSpec& s : prog) {
    for_each_own_expression(s, f);
    for_each_expression(s.body, f);
  }
}

int divisions_of(const StepSpec& loop, const Vars& constants) {
  std::set<std::string> seen;
  auto add = [&](const Expression& x) {
    for (std::string& d : x.runtime_divisions(loop.var, constants)) seen.insert(std::move(d));
  };
  for (const StepSpec& s : loop.body) {
    if (s.kind == StepSpec::Kind::loop) {  // a nested loop: its count and condition, once an iteration
      add(s.cond);
      add(s.count);
    } else {
      for_each_own_expression(s, add);
    }
  }
  return static_cast<int>(seen.size());
}

void add_loop_divisions(const std::vector<StepSpec>& prog, const Vars& constants, std::map<const StepSpec*, int>& out) {
  for (const StepSpec& s : prog)
    if (s.kind == StepSpec::Kind::loop) {
      out[&s] = divisions_of(s, constants);
      add_loop_divisions(s.body, constants, out);
    }
}

// Each step of `prog` that is not a loop: its in-line divisions (step_inline_divisions). `rolled`: the
// variables of the rolled loops around it.
void add_inline_divisions(const std::vector<StepSpec>& prog, std::vector<std::string>& rolled, const Vars& constants,
                          std::map<const StepSpec*, int>& out) {
  for (const StepSpec& s : prog) {
    if (s.kind == StepSpec::Kind::loop) {
      const bool is_rolled = s.unroll != 1;
      if (is_rolled) rolled.push_back(s.var);
      add_inline_divisions(s.body, rolled, constants, out);
      if (is_rolled) rolled.pop_back();
      continue;
    }
    std::set<std::string> seen;
    if (!rolled.empty())
      for_each_own_expression(s, [&](const Expression& x) {
        for (std::string& d : x.inline_divisions(rolled, constants)) seen.insert(std::move(d));
      });
    if (!seen.empty()) out[&s] = static_cast<int>(seen.size());
  }
}

}  // namespace

std::map<const StepSpec*, int> loop_divisions(const ScenarioSpec& spec) {
  const Vars constants = spec.globals();
  std::map<const StepSpec*, int> out;
  for (const CtaGroupSpec& group : spec.groups)
    for (const ThreadSpec& t : group.threads) add_loop_divisions(t.program, constants, out);
  return out;
}

std::map<const StepSpec*, int> step_inline_divisions(const ScenarioSpec& spec) {
  const Vars constants = spec.globals();
  std::map<const StepSpec*, int> out;
  for (const CtaGroupSpec& group : spec.groups)
    for (const ThreadSpec& t : group.threads) {
      std::vector<std::string> rolled;
      add_inline_divisions(t.program, rolled, constants, out);
    }
  return out;
}

void bind_constants(ScenarioSpec& spec, const Vars& globals) {
  for (CtaGroupSpec& group : spec.groups) {
    std::set<std::string> local{group.var, "cluster_rank"};
    for (const ThreadSpec& t : group.threads) {
      if (!t.var.empty()) local.insert(t.var);
      loop_names(t.program, local);
    }
    Vars constants;
    for (const auto& v : globals)
      if (!local.count(v.first)) constants.push_back(v);
    for (ThreadSpec& t : group.threads)
      for_each_expression(t.program, [&](Expression& x) { x = x.with_constants(constants); });
  }
}

}  // namespace tmasim::sc
