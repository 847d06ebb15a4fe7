// Fuzz target: `--set` as `tmasim run` and `sweep` take it. Each line of the input is one setting:
// "NAME=VALUE" a scenario parameter, "section.key=VALUE" a configuration key, "sweep KEY=V1,V2,..."
// a sweep's axis. The settings are applied to a warp-specialised GEMM feed and the H100
// configuration, and the run built (timing only) and costed: an Error, never a crash.
#include <map>
#include <sstream>
#include <string>

#include "cli_input.hpp"
#include "host_budget.hpp"
#include "run_setup.hpp"
#include "tmasim/golden.hpp"

namespace {
const nlohmann::json& file_json(const char* relative) {
  static std::map<std::string, nlohmann::json> cache;
  auto it = cache.find(relative);
  if (it == cache.end())
    it = cache.emplace(relative, tmasim::read_json_file(std::string(TMASIM_SOURCE_DIR) + "/" + relative, "seed")).first;
  return it->second;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmasim;
  if (size > 4096) return 0;
  const nlohmann::json& scenario = file_json("tests/scenarios/warp_specialized.json");
  const nlohmann::json& config = file_json("configs/h100.json");
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::vector<std::string> sets;
  std::string line;
  try {
    while (std::getline(in, line)) {
      if (line.rfind("sweep ", 0) == 0) (void)cli::parse_axis(line.substr(6));
      else sets.push_back(line);
    }
    sc::Scenario s;
    (void)cli::build_run(scenario, config, "configs/h100.json", cli::split_settings(sets), s, false);
    const sc::RunFootprint f = sc::footprint_of(s.experiment);
    (void)sc::estimated_cpu_seconds(f);
    (void)sc::describe(f);
  } catch (const Error&) {
  }
  return 0;
}
