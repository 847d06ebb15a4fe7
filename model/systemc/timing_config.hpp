// Every timing and geometry parameter of the model, read from a configuration file
// (configs/h100.json). Each section's keys are declared once, in the header of the block that
// uses them (config_key.hpp says how): gpu_params.hpp, thread_params.hpp (issue, thread, compute),
// tensor_params.hpp, tma_params.hpp, memory_params.hpp, smem_config.hpp. The reader, the range checks, `tmasim
// config --print` and the table of docs/config.md (`tmasim config --doc`) come from those lists.
// No SystemC here: the scenario reader and the CUDA emitter use it too.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_key.hpp"
#include "gpu_params.hpp"
#include "memory_params.hpp"
#include "smem_config.hpp"
#include "tensor_params.hpp"
#include "thread_params.hpp"
#include "tma_params.hpp"

namespace tmasim::sc {

// The configuration's top level.
#define TMASIM_CLOCK_KEYS(X) \
  X(double, sm_clock_mhz, "sm_clock_mhz", 1980, 100, 10000, required, "MHz", \
    "SM clock: converts cycles to time")

struct ClockParams {
  TMASIM_CLOCK_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(ClockParams, "", TMASIM_CLOCK_KEYS)
};

struct TimingConfig : ClockParams, GpuParams, IssueParams, TmaParams, MemoryParams, ThreadParams, ComputeParams,
                      TensorParams {
  SmemConfig smem;
  bool rtl_agu = false;  // tma.agu = "rtl": generate addresses with the Verilated rtl/tma_agu*.sv

  // The DRAM's rates per SM cycle at sm_clock_mhz (memory.dram_rates_at_mhz).
  double dram_read_bytes_per_cycle() const { return hbm_bytes_per_cycle * dram_clock_ratio(); }
  double dram_write_bytes_per_cycle() const {
    return (hbm_write_bytes_per_cycle > 0 ? hbm_write_bytes_per_cycle : hbm_bytes_per_cycle) * dram_clock_ratio();
  }
  double dram_clock_ratio() const { return dram_rates_at_mhz > 0 ? dram_rates_at_mhz / sm_clock_mhz : 1.0; }
  // The SM clock, and the shared memory's cycle that follows from it.
  void set_sm_clock_mhz(double mhz) {
    sm_clock_mhz = mhz;
    smem.cycle_ns = 1000.0 / mhz;
  }

  static TimingConfig from_json_file(const std::string& path);
  // `j` is a whole configuration; `extends` must have been resolved (read_config_file).
  static TimingConfig from_json(const nlohmann::json& j, const std::string& where);
};

// The SMs of each GPC (gpu.gpc_sms; one GPC of gpu.sms when empty); an Error if they do not add up.
std::vector<int> gpc_sizes(const TimingConfig& c);
// The GPC of each SM (SMs numbered GPC after GPC, as gpc_sizes lists them).
std::vector<int> gpc_of_sm(const TimingConfig& c);
// The path from the L2 each SM's GPC takes (memory.gpc_path_of_gpc over gpu.gpc_sms; by default
// the GPC's own, numbered as the GPCs).
std::vector<int> gpc_path_of_sm(const TimingConfig& c);
// The L2 half nearest to each SM (memory.l2_half_of_gpc over gpu.gpc_sms); empty for one L2.
std::vector<int> l2_half_of_sm(const TimingConfig& c);

// A configuration file as JSON, with its `extends` chain resolved: the file it names (relative
// to this one's folder) is read first, and this one's keys replace its keys, section by section.
nlohmann::json read_config_file(const std::string& path);

// Every section and key a configuration may have, with its default (to_json of a default TimingConfig).
const nlohmann::json& config_keys();

// `--set section.key=value` on a configuration before it is read (values are JSON; a bare
// word is a string). Unknown sections and keys are then refused by from_json.
void apply_config_overrides(nlohmann::json& j, const std::vector<std::pair<std::string, std::string>>& sets);

// The effective configuration as a file would hold it: every key of every section.
nlohmann::json to_json(const TimingConfig& c);
// The reference table of every key (name, unit, default, range, meaning), as Markdown.
std::string config_reference_markdown();

}  // namespace tmasim::sc
