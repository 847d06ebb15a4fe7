#include "run_setup.hpp"

#include "timing_config.hpp"

namespace tmasim::cli {

Settings split_settings(const std::vector<std::string>& assignments) {
  Settings out;
  for (const std::string& a : assignments) {
    const size_t eq = a.find('='), dot = a.find('.');
    if (eq != std::string::npos && dot != std::string::npos && dot < eq) out.config.emplace_back(a.substr(0, eq), a.substr(eq + 1));
    else out.params.push_back(a);
  }
  return out;
}

sc::TimingConfig build_run(const nlohmann::json& scenario, nlohmann::json config, const std::string& config_path,
                           const Settings& settings, sc::Scenario& out, bool move_bytes) {
  sc::apply_config_overrides(config, settings.config);
  sc::TimingConfig cfg = sc::TimingConfig::from_json(config, "configuration '" + config_path + "'");
  cfg.smem.move_bytes = move_bytes;
  build_scenario(sc::parse_scenario(scenario, sc::parse_overrides(settings.params)), cfg, out);
  return cfg;
}

}  // namespace tmasim::cli
