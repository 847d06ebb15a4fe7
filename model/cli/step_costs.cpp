// tmasim costs' reading of a GPU result's stamps (step_costs.hpp).
#include "step_costs.hpp"

#include <algorithm>
#include <cmath>

#include "gpu_results.hpp"  // median
#include "tmasim/json_input.hpp"

namespace tmasim::cli {

namespace {

using nlohmann::json;

// Whether a step of the file's kind `k`, run as the model's kind `run`, has a cost of its own to
// write: it takes "cycles", and its time is not a wait on others.
bool own_cost(sc::StepKind k, sc::Step::Kind run) {
  const auto& keys = sc::step_kind(k).keys;
  return std::find(keys.begin(), keys.end(), "cycles") != keys.end() && !sc::waits_on_others(sc::step_time_of(run));
}

// The model's steps are expanded from the file's; a step's origin names the file's step, e.g.
// "ctas[0].threads[1].program[0].body[2]": the object there.
json& step_at(json& scenario, const std::string& where) {
  json* at = &scenario;
  size_t pos = 0;
  while (pos < where.size()) {
    const size_t open = where.find('[', pos), close = where.find(']', pos);
    if (open == std::string::npos || close == std::string::npos) throw Error("internal: step path " + where);
    at = &(*at)[where.substr(pos, open - pos)][std::stoul(where.substr(open + 1, close - open - 1))];
    pos = close + 2;  // past "]."
  }
  return *at;
}

// What the intervals between consecutive stamps say, over every warp of every CTA.
struct Intervals {
  std::vector<double> back_to_back;  // no step between: the stamp's own cost
  // One step between, or n runs of one step (a loop of it): the interval and n, by the step's origin.
  std::map<uint32_t, std::vector<std::pair<double, size_t>>> by_step;
  std::map<uint32_t, sc::Step::Kind> kind;  // by the step's origin: what the model runs it as
  std::map<std::string, int> unattributed;  // why not, and how often
};

// Sorts the intervals of one warp: its GPU stamps against the stamp steps of its expanded program.
void sort_intervals(const sc::ThreadProgram& program, const std::vector<double>& gpu,
                    const std::string& who, Intervals& out) {
  const std::vector<sc::Step> steps = sc::materialize(program);
  std::vector<size_t> at;
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].kind == sc::Step::Kind::stamp) at.push_back(i);
  if (gpu.size() != at.size())
    throw Error(who + ": the GPU recorded " + std::to_string(gpu.size()) + " stamps where the program runs " +
                std::to_string(at.size()) + " (not the same program?)");
  for (size_t k = 0; k + 1 < at.size(); ++k) {
    const double d = gpu[k + 1] - gpu[k];
    const size_t first = at[k] + 1, last = at[k + 1];
    if (first == last) {
      out.back_to_back.push_back(d);
      continue;
    }
    const sc::Step& s = steps[first];
    const bool one_origin = std::all_of(steps.begin() + static_cast<long>(first),
                                        steps.begin() + static_cast<long>(last),
                                        [&](const sc::Step& x) { return x.origin == s.origin; });
    if (!one_origin) {
      ++out.unattributed["several steps between two stamps"];
      continue;
    }
    out.by_step[s.origin].emplace_back(d, last - first);
    out.kind[s.origin] = s.kind;
  }
}

}  // namespace

StepCosts step_costs(json& j, const sc::Scenario& built, const json& result, const std::string& l2,
                     double stamp_cycles) {
  const Fields r(result, "the GPU result", "a GPU result");
  for (const char* bad : {"hang", "launch_error", "encode_error"})
    if (r.has(bad)) throw Error("the GPU run of '" + built.name + "' did not finish (" + bad + ")");
  const Fields state = r.object(l2.c_str());
  if (!state.has("stamps")) throw Error("the GPU result has no stamps (the scenario needs stamp steps)");
  const json& stamps = state.at("stamps");
  const sc::Experiment& e = built.experiment;
  if (!stamps.is_array() || stamps.size() != e.ctas.size())
    state.fail("'stamps' must hold one array per CTA (" + std::to_string(e.ctas.size()) + ")");
  Intervals iv;
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const std::vector<int> first = sc::first_warps(e.ctas[c]);
    for (size_t t = 0; t < e.ctas[c].threads.size(); ++t) {
      const size_t warp = static_cast<size_t>(first[t]);
      if (!stamps[c].is_array() || warp >= stamps[c].size()) state.fail("'stamps' lacks warp " + std::to_string(warp));
      const json holder{{"cycles", stamps[c][warp]}};
      const Fields w(holder, state.where() + ".stamps", "stamps");
      const std::string who = "CTA " + std::to_string(c) + " thread '" + e.ctas[c].threads[t].name + "'";
      sort_intervals(e.ctas[c].threads[t], w.numbers("cycles", 1 << 20, 0, 1e15), who, iv);
    }
  }
  StepCosts out;
  out.stamp_measured = !iv.back_to_back.empty();
  out.stamp = out.stamp_measured ? median(iv.back_to_back) : stamp_cycles;
  out.unattributed = iv.unattributed;
  for (const auto& [origin, runs] : iv.by_step) {
    StepCosts::Line line;
    line.where = e.origins.at(origin);
    json& step = step_at(j, line.where);
    for (const sc::StepKindInfo& k : sc::step_kinds())
      if (step.contains(k.name)) line.kind = k.name, line.written = own_cost(k.kind, iv.kind.at(origin));
    std::vector<double> each;
    for (const auto& [d, n] : runs) each.push_back((d - out.stamp) / static_cast<double>(n));
    line.cycles = std::max(0.0, median(each));
    line.runs = runs.size();
    if (line.written) step["cycles"] = static_cast<int64_t>(std::llround(line.cycles));
    out.lines.push_back(line);
  }
  return out;
}

}  // namespace tmasim::cli
