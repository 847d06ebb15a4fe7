// Fuzz target: shared-memory access patterns (section 2) and the conflict model they feed,
// on the H100 geometry and on a 64-bank one.
#include <string>

#include "tmasim/conflicts.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  try {
    const nlohmann::json j = tmasim::parse_json_text(std::string(reinterpret_cast<const char*>(data), size), "pattern");
    const tmasim::Fields p(j, "pattern", "a pattern");
    const tmasim::WarpAccess a = tmasim::pattern_access(p);
    tmasim::BankGeometry g;
    (void)tmasim::evaluate(a, g, true);
    g.banks = 64;
    (void)tmasim::evaluate(a, g, false);
  } catch (const tmasim::Error&) {
  }
  return 0;
}
