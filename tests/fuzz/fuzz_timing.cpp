// Fuzz target: timing records (section 3) built into experiments, as `tmasim calibrate` does
// before it simulates them.
#include <string>

#include "timing_records.hpp"
#include "tmasim/json_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  try {
    const nlohmann::json j = tmasim::parse_json_text(std::string(reinterpret_cast<const char*>(data), size), "record");
    const tmasim::Fields r(j, "record", "a timing record");
    const tmasim::sc::TimingConfig cfg;
    std::vector<uint8_t> global;
    if (r.string_or("kind", "") == "burst") (void)tmasim::sc::burst_experiment(r, cfg, global, size % 2 == 0);
    else (void)tmasim::sc::stream_experiment(r, cfg, global, 24);
  } catch (const tmasim::Error&) {
  }
  return 0;
}
