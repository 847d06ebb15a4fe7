// tmasim config: the effective configuration (after `extends` and --set), or the reference of
// every key (the table of docs/config.md).
#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.hpp"
#include "timing_config.hpp"

namespace tmasim::cli {

namespace {

struct ConfigOptions {
  std::string config;
  std::vector<std::string> set;
  bool doc = false;
};

int config(const ConfigOptions& o) {
  if (o.doc) {
    std::cout << sc::config_reference_markdown();
    return 0;
  }
  nlohmann::json j = sc::read_config_file(o.config);
  std::vector<std::pair<std::string, std::string>> sets;
  for (const std::string& a : o.set) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos) throw Error("--set " + a + ": expected section.key=value");
    sets.emplace_back(a.substr(0, eq), a.substr(eq + 1));
  }
  sc::apply_config_overrides(j, sets);
  const sc::TimingConfig cfg = sc::TimingConfig::from_json(j, "configuration '" + o.config + "'");
  std::cout << sc::to_json(cfg).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace

void add_config(CLI::App& app) {
  auto o = std::make_shared<ConfigOptions>();
  o->config = default_config_path();
  CLI::App* sub = app.add_subcommand(
      "config", "Print the effective configuration (its `extends` chain resolved, --set applied, every key with\n"
                "the value a run uses, defaults included) as JSON, or with --doc the reference table of every key.");
  sub->add_option("--config", o->config, "timing configuration")->capture_default_str()->check(CLI::ExistingFile);
  sub->add_option("--set", o->set, "override a configuration key: --set section.key=value (repeatable)");
  sub->add_flag("--doc", o->doc, "print the reference table of every key (name, unit, default, range, meaning) as Markdown");
  sub->add_flag("--print", "print the effective configuration (the default)");
  sub->callback([o]() { throw CLI::RuntimeError(config(*o)); });
}

}  // namespace tmasim::cli
