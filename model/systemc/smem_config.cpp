#include "smem_config.hpp"

#include "timing_config.hpp"

namespace tmasim::sc {

SmemConfig SmemConfig::from_json_file(const std::string& path) { return TimingConfig::from_json_file(path).smem; }

SmemConfig SmemConfig::from_json(const nlohmann::json& j, const std::string& where) {
  return TimingConfig::from_json(j, where).smem;
}

}  // namespace tmasim::sc
