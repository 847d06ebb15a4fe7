#include "run_setup.hpp"

#include <iomanip>
#include <iostream>
#include <sstream>

#include "host_budget.hpp"
#include "timing_config.hpp"
#include "tmasim/types.hpp"

namespace tmasim::cli {

namespace {
// A configuration key outside any section (sm_clock_mhz): set without a dot, it is the configuration's.
bool is_top_level_config_key(const std::string& name) {
  const nlohmann::json& keys = sc::config_keys();
  return keys.contains(name) && !keys.at(name).is_object();
}
}  // namespace

Settings split_settings(const std::vector<std::string>& assignments) {
  Settings out;
  for (const std::string& a : assignments) {
    const size_t eq = a.find('='), dot = a.find('.');
    const bool config = eq != std::string::npos &&
                        ((dot != std::string::npos && dot < eq) || is_top_level_config_key(a.substr(0, eq)));
    if (config) out.config.emplace_back(a.substr(0, eq), a.substr(eq + 1));
    else out.params.push_back(a);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> config_settings_only(const std::vector<std::string>& assignments,
                                                                      const std::string& command, const std::string& why) {
  for (const std::string& a : assignments)
    if (a.find('=') == std::string::npos) throw Error("--set " + a + ": expected section.key=VALUE");
  Settings settings = split_settings(assignments);
  if (!settings.params.empty())
    throw Error("--set " + settings.params.front() + ": " + command + " takes configuration keys only (section.key=VALUE); " +
                why);
  return std::move(settings.config);
}

sc::TimingConfig configuration_with(nlohmann::json config, const std::string& config_path,
                                    const std::vector<std::pair<std::string, std::string>>& keys) {
  sc::apply_config_overrides(config, keys);
  return sc::TimingConfig::from_json(config, "configuration '" + config_path + "'");
}

sc::TimingConfig build_run(const nlohmann::json& scenario, nlohmann::json config, const std::string& config_path,
                           const Settings& settings, sc::Scenario& out, bool move_bytes) {
  sc::TimingConfig cfg = configuration_with(std::move(config), config_path, settings.config);
  cfg.smem.move_bytes = move_bytes;
  build_scenario(sc::parse_scenario(scenario, sc::parse_overrides(settings.params)), cfg, out);
  return cfg;
}

namespace {
std::string number_text(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
}  // namespace

void check_budget(const sc::Experiment& e, double budget, size_t runs) {
  const sc::RunFootprint f = sc::footprint_of(e);
  const double secs = sc::estimated_cpu_seconds(f) * static_cast<double>(runs);
  std::ostringstream est;
  est << (runs > 1 ? "this sweep is estimated at about " : "this run is estimated at about ") << std::fixed
      << std::setprecision(0) << secs << " CPU seconds (" << sc::describe(f)
      << (runs > 1 ? ", its first point, times " + std::to_string(runs) + " points" : "") << ")";
  if (budget > 0 && secs > budget)
    throw Error(est.str() + ", past --budget " + number_text(budget) +
                ": give a larger --budget (0: no limit), fewer CTAs or steps" + (f.moves_bytes ? ", or --timing-only" : ""));
  if (secs > 30) std::cerr << "tmasim: " << est.str() << "\n";
}

}  // namespace tmasim::cli
