// tmasim cuda: a scenario as a self-contained CUDA program for a Hopper GPU.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "cuda_emit.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::cli {

namespace {

struct CudaOptions {
  std::string scenario, out, config;
  std::vector<std::string> set;
};

int cuda(const CudaOptions& o) {
  const nlohmann::json j = read_json_file(o.scenario, "scenario");
  const sc::TimingConfig cfg = sc::TimingConfig::from_json_file(o.config);
  const sc::ScenarioSpec spec = sc::parse_scenario(j, sc::parse_overrides(o.set));
  sc::Scenario built;
  build_scenario(spec, cfg, built);  // every check the model makes, before a line is emitted
  const std::string source = emit_cuda(spec, built, cfg);
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) throw Error("cannot create " + o.out + ": " + ec.message());
  const std::string path = o.out + "/scenario.cu";
  std::ofstream f(path);
  f << source;
  f.close();
  if (!f) throw Error("cannot write " + path);
  std::cout << "tmasim cuda: " << spec.name << ": " << built.experiment.ctas.size() << " CTAs -> " << path << "\n"
            << "  build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o " << o.out << "/scenario " << path
            << "\n  run:   " << o.out << "/scenario RESULT.json [REPETITIONS]\n";
  return 0;
}

}  // namespace

void add_cuda(CLI::App& app) {
  auto o = std::make_shared<CudaOptions>();
  o->config = default_config_path();
  CLI::App* sub = app.add_subcommand(
      "cuda", "Emit a self-contained CUDA program (sm_90a) that runs the scenario on a Hopper GPU: the same tensor\n"
              "maps, each scenario thread a warp executing its program with the loops and expressions compiled in,\n"
              "every wait with a time-out; it writes per-CTA and per-warp clock64 cycles and kernel times (median,\n"
              "min, max over repetitions, cold and warm L2) as JSON for `tmasim compare`.");
  sub->add_option("scenario", o->scenario, "scenario JSON")->required()->check(CLI::ExistingFile);
  sub->add_option("-o,--out", o->out, "output directory (gets scenario.cu)")->required();
  sub->add_option("--config", o->config, "timing configuration (compute steps' MMA time)")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  sub->add_option("--set", o->set, "override a scenario parameter: --set NAME=VALUE (repeatable)");
  sub->callback([o]() { throw CLI::RuntimeError(cuda(*o)); });
}

}  // namespace tmasim::cli
