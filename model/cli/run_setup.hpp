// What `tmasim run` and `tmasim sweep` share: the scenario (a file, or the built-in GEMM feed)
// and the configuration, with `--set` settings applied to one or the other.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

namespace tmasim::cli {

// --set NAME=VALUE sets a scenario parameter; --set section.key=VALUE a configuration key.
struct Settings {
  std::vector<std::string> params;                           // NAME=VALUE, for parse_overrides
  std::vector<std::pair<std::string, std::string>> config;  // (section.key, VALUE)
};
Settings split_settings(const std::vector<std::string>& assignments);

// --set's configuration keys for a `command` that takes no scenario parameter; `why` says why one is
// refused. Throws Error naming the first assignment that is not section.key=VALUE.
std::vector<std::pair<std::string, std::string>> config_settings_only(const std::vector<std::string>& assignments,
                                                                      const std::string& command, const std::string& why);

// The configuration `config` (read from `config_path`) with `keys` applied over it. Throws Error for
// an unknown key or a bad value.
sc::TimingConfig configuration_with(nlohmann::json config, const std::string& config_path,
                                    const std::vector<std::pair<std::string, std::string>>& keys);

// The scenario file's JSON, or the built-in one (examples/gemm_pipeline.json) when `path` is empty.
nlohmann::json scenario_json(const std::string& path);

// `config` (read from `config_path`) with the settings' keys applied, then the scenario built on
// it with the settings' parameters; a timing-only run (move_bytes false) moves no bytes and needs
// no global memory image. Throws Error for a bad setting, configuration or scenario.
sc::TimingConfig build_run(const nlohmann::json& scenario, nlohmann::json config, const std::string& config_path,
                           const Settings& settings, sc::Scenario& out, bool move_bytes);

// Refuses a run (or `runs` like it: a sweep) estimated past `budget` CPU seconds (0: none), naming
// the estimate; says so on stderr past 30 s.
void check_budget(const sc::Experiment& e, double budget, size_t runs = 1);

}  // namespace tmasim::cli
