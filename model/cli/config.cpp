// tmasim config: the effective configuration (after `extends` and --set), or the reference of
// every key (the table of docs/config.md).
#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.hpp"
#include "run_setup.hpp"
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
  const sc::TimingConfig cfg = configuration_with(sc::read_config_file(o.config), o.config,
                                                 config_settings_only(o.set, "config", "it prints a configuration"));
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
