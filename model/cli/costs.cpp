// tmasim costs: the cost of a step in the user's own code, measured on the GPU between two stamps
// and written into the scenario as the step's "cycles" (docs/scenarios.md, "A step's own cost").
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "scenario.hpp"
#include "timing_config.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::cli {

namespace {

using nlohmann::json;

struct CostsOptions {
  std::string scenario, results, config, l2 = "warm", out;
  std::vector<std::string> set;
};

// The step kinds whose time is the thread's own: a wait's is another thread's or the memory's.
bool own_cost(sc::StepKind k) {
  using K = sc::StepKind;
  const auto& keys = sc::step_kind(k).keys;
  const bool takes_cycles = std::find(keys.begin(), keys.end(), "cycles") != keys.end();
  return takes_cycles && k != K::wait && k != K::wait_stores && k != K::mma_wait && k != K::sync;
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

// The result of the scenario in `path`, by its name or as the file's one result.
json result_of(const std::string& path, const std::string& name) {
  Wanted w;
  w.names = {name};
  w.one_scenario = true;
  Results r = read_results(path, w);
  if (r.twice.count(name)) throw Error(path + ": more than one result for scenario '" + name + "'");
  if (r.by_name.count(name)) return r.by_name[name];
  if (r.only) return *r.only;
  throw Error(path + ": no result for scenario '" + name + "'");
}

// What the intervals between consecutive stamps say, over every warp of every CTA.
struct Intervals {
  std::vector<double> back_to_back;  // no step between: the stamp's own cost
  // One step between, or n runs of one step (a loop of it): the interval and n, by the step's origin.
  std::map<uint32_t, std::vector<std::pair<double, size_t>>> by_step;
  std::map<std::string, int> unattributed;  // why not, and how often
};

// Sorts the intervals of one warp: its GPU stamps against the stamp steps of its expanded program.
void sort_intervals(const sc::ThreadProgram& thread, const std::vector<double>& gpu,
                    const std::string& who, Intervals& out) {
  std::vector<size_t> at;
  for (size_t i = 0; i < thread.steps.size(); ++i)
    if (thread.steps[i].kind == sc::Step::Kind::stamp) at.push_back(i);
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
    const sc::Step& s = thread.steps[first];
    const bool one_origin = std::all_of(thread.steps.begin() + static_cast<long>(first),
                                        thread.steps.begin() + static_cast<long>(last),
                                        [&](const sc::Step& x) { return x.origin == s.origin; });
    if (!one_origin) {
      ++out.unattributed["several steps between two stamps"];
      continue;
    }
    out.by_step[s.origin].emplace_back(d, last - first);
  }
}

int costs(const CostsOptions& o) {
  json j = read_json_file(o.scenario, "scenario");
  const sc::TimingConfig cfg = sc::TimingConfig::from_json_file(o.config);
  const sc::ScenarioSpec spec = sc::parse_scenario(j, sc::parse_overrides(o.set));
  sc::Scenario built;
  build_scenario(spec, cfg, built);
  const json result = result_of(o.results, spec.name);
  const Fields r(result, o.results + ": result for " + spec.name, "a GPU result");
  for (const char* bad : {"hang", "launch_error", "encode_error"})
    if (r.has(bad)) throw Error(o.results + ": the GPU run of '" + spec.name + "' did not finish (" + bad + ")");
  const Fields state = r.object(o.l2.c_str());
  if (!state.has("stamps")) throw Error(o.results + ": the result has no stamps (the scenario needs stamp steps)");
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
  const bool measured = !iv.back_to_back.empty();
  const double stamp = measured ? median(iv.back_to_back) : cfg.stamp_cycles;

  std::fprintf(stderr, "tmasim costs: %s, %s L2; a stamp's own cost %.0f cycles (%s)\n", spec.name.c_str(),
               o.l2.c_str(), stamp, measured ? "measured: stamps back to back" : "thread.stamp_cycles");
  for (const auto& [origin, runs] : iv.by_step) {
    const std::string& where = e.origins.at(origin);
    json& step = step_at(j, where);
    std::string kind = "?";
    bool own = false;
    for (const sc::StepKindInfo& k : sc::step_kinds())
      if (step.contains(k.name)) kind = k.name, own = own_cost(k.kind);
    std::vector<double> each;
    for (const auto& [d, n] : runs) each.push_back((d - stamp) / static_cast<double>(n));
    const double cycles = std::max(0.0, median(each));
    if (own) step["cycles"] = static_cast<int64_t>(std::llround(cycles));
    std::fprintf(stderr, "  %s (%s): %.0f cycles, median of %zu runs; %s\n", where.c_str(), kind.c_str(), cycles,
                 runs.size(), own ? "written" : "not written: its time is not the thread's own");
  }
  for (const auto& [why, n] : iv.unattributed) std::fprintf(stderr, "  %d intervals not attributed: %s\n", n, why.c_str());
  const std::string text = j.dump(1) + "\n";
  if (o.out.empty()) {
    std::cout << text;
    if (!std::cout.flush()) throw Error("cannot write the scenario to standard output");
  } else {
    std::ofstream f(o.out);
    f << text;
    f.close();
    if (!f) throw Error("cannot write " + o.out);
  }
  return 0;
}

}  // namespace

void add_costs(CLI::App& app) {
  auto o = std::make_shared<CostsOptions>();
  o->config = default_config_path();
  CLI::App* sub = app.add_subcommand(
      "costs", "Measure the cost of steps in your own code: from a GPU result with stamps (a stamp before and after\n"
               "each step to measure, anywhere in a thread's program, loops included; two stamps back to back\n"
               "measure a stamp's own cost), write each step's median time between its stamps, less a stamp's\n"
               "own cost, into the scenario as its \"cycles\" (the least it takes of its thread). Prints the\n"
               "scenario (or writes --out) and a table on stderr.");
  sub->add_option("scenario", o->scenario, "scenario JSON")->required()->check(CLI::ExistingFile);
  sub->add_option("--results", o->results, "the GPU result: a JSON file, a JSON Lines file or a directory")
      ->required()
      ->check(CLI::ExistingPath);
  sub->add_option("--l2", o->l2, "which GPU runs: warm (default), cold or cold_clean")
      ->capture_default_str()
      ->check(CLI::IsMember({"cold", "cold_clean", "warm"}));
  sub->add_option("--config", o->config, "timing configuration (to build the scenario)")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  sub->add_option("--set", o->set, "override a scenario parameter as the GPU run had it: --set NAME=VALUE");
  sub->add_option("-o,--out", o->out, "write the scenario here instead of standard output");
  sub->callback([o]() { throw CLI::RuntimeError(costs(*o)); });
}

}  // namespace tmasim::cli
