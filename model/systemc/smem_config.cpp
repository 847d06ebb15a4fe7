#include "smem_config.hpp"

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

SmemConfig SmemConfig::from_json_file(const std::string& path) {
  return from_json(read_json_file(path, "configuration"), "configuration '" + path + "'");
}

SmemConfig SmemConfig::from_json(const nlohmann::json& j, const std::string& where) {
  const Fields top(j, where, "a configuration");
  const Fields s = top.object("smem");
  s.allow({"size_bytes", "banks", "bank_bytes", "wavefront_cycles", "tma_write_bytes_per_cycle",
           "interleave_wavefronts"});
  SmemConfig c;
  c.size_bytes = s.integer("size_bytes", 1024, int64_t(1) << 24);
  c.geometry.banks = static_cast<int>(s.integer("banks", 1, 1024));
  c.geometry.bank_bytes = static_cast<int>(s.integer("bank_bytes", 4, 8));
  c.wavefront_cycles = static_cast<int>(s.integer("wavefront_cycles", 1, 64));
  c.tma_write_bytes_per_cycle = static_cast<int>(s.integer("tma_write_bytes_per_cycle", 16, 1024));
  c.interleave_wavefronts = s.boolean_or("interleave_wavefronts", c.interleave_wavefronts);
  c.cycle_ns = 1000.0 / top.number("sm_clock_mhz", 100, 10000);
  return c;
}

}  // namespace tmasim::sc
