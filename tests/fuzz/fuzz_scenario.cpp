// Fuzz target: a scenario file from bytes through every reader and check that runs before a
// simulation (JSON, parse_scenario, build_scenario, the CUDA emitter). Bad input must end in
// tmasim::Error (or nlohmann's parse error for bytes that are not JSON), never a crash, a
// sanitizer report or unbounded work. Whatever the parser accepts, the emitted CUDA's code (its
// tokens outside comments and string literals) must be the emitter's own: the user's text
// (names, stamp labels) may change comments and literals only (issue 33, code injection).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../emitted_code.hpp"
#include "cuda_emit.hpp"
#include "scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  try {
    const tmasim::sc::ScenarioSpec spec = tmasim::sc::parse_scenario(j, {{"K", "2"}});
    (void)spec;
  } catch (const tmasim::Error&) {
  }
  try {
    const tmasim::sc::ScenarioSpec spec = tmasim::sc::parse_scenario(j);
    if (spec.global_bytes > (int64_t(64) << 20)) return 0;  // the fuzzer's memory, not a bug
    tmasim::sc::Scenario built;
    tmasim::sc::TimingConfig cfg;
    tmasim::sc::build_scenario(spec, cfg, built);
    const std::string changed = tmasim::test::user_text_changes_code(spec, built, cfg);
    if (!changed.empty()) {
      std::fprintf(stderr, "user text changed the emitted code: %s\n", changed.c_str());
      std::abort();
    }
  } catch (const tmasim::Error&) {
  }
  return 0;
}
