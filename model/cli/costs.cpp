// tmasim costs: the cost of a step in the user's own code, measured on the GPU between two stamps
// and written into the scenario as the step's "cycles" (docs/scenarios.md, "A step's own cost").
#include <CLI/CLI.hpp>

#include <cstdio>

#include "commands.hpp"
#include "step_costs.hpp"
#include "timing_config.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::cli {

namespace {

using nlohmann::json;

struct CostsOptions {
  std::string scenario, results, config, l2 = "warm", out;
  std::vector<std::string> set;
};

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

int costs(const CostsOptions& o) {
  json j = read_json_file(o.scenario, "scenario");
  const sc::TimingConfig cfg = sc::TimingConfig::from_json_file(o.config);
  const sc::ScenarioSpec spec = sc::parse_scenario(j, sc::parse_overrides(o.set));
  sc::Scenario built;
  build_scenario(spec, cfg, built);
  const json result = result_of(o.results, spec.name);
  StepCosts found;
  try {
    found = step_costs(j, built, result, o.l2, cfg.stamp_cycles);
  } catch (const Error& e) {
    throw Error(o.results + ": " + e.what());
  }
  std::fprintf(stderr, "tmasim costs: %s, %s L2; a stamp's own cost %.0f cycles (%s)\n", spec.name.c_str(),
               o.l2.c_str(), found.stamp, found.stamp_measured ? "measured: stamps back to back" : "thread.stamp_cycles");
  for (const StepCosts::Line& l : found.lines)
    std::fprintf(stderr, "  %s (%s): %.0f cycles, median of %zu runs; %s\n", l.where.c_str(), l.kind.c_str(), l.cycles,
                 l.runs, l.written ? "written" : "not written: its time is not the thread's own");
  for (const auto& [why, n] : found.unattributed)
    std::fprintf(stderr, "  %d intervals not attributed: %s\n", n, why.c_str());
  write_output(o.out.empty() ? "-" : o.out, j.dump(1) + "\n", "the scenario");
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
