// The shared memory's geometry and data path (the configuration's "smem" section). No SystemC.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tmasim/conflicts.hpp"

namespace tmasim::sc {

struct SmemConfig {
  int64_t size_bytes = 233472;
  BankGeometry geometry;
  double cycle_ns = 1.0 / 1.98;  // one SM clock
  int wavefront_cycles = 1;
  int tma_write_bytes_per_cycle = 128;
  // A request's wavefronts each take the first free cycle after the last (other requests'
  // wavefronts pass between them), instead of a run of free cycles together.
  bool interleave_wavefronts = false;
  // Run options, not read from a configuration: keep the bytes (off in timing-only runs),
  // count busy cycles per bank (the conflict model's detailed path: benches and reports only),
  // and remember what repeated patterns needed (a box's rows by its pattern id, a TMA unit's plans
  // of boxes inside their tensors; off only to check that remembering changes nothing).
  bool move_bytes = true;
  bool bank_statistics = false;
  bool remember_patterns = true;

  // Reads the "smem" object and "sm_clock_mhz" of a configuration file (configs/h100.json).
  static SmemConfig from_json_file(const std::string& path);
  static SmemConfig from_json(const nlohmann::json& j, const std::string& where);
};

}  // namespace tmasim::sc
