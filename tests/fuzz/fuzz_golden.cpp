// Fuzz target: a golden-case file (section 1), read line by line and judged, as
// `tmasim replay` does: every line ends in a verdict or an Error, never a crash.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "tmasim/golden.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  static const std::string path = "/tmp/tmasim_fuzz_golden_" + std::to_string(getpid()) + ".jsonl";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    tmasim::for_each_json_line(path, [](const nlohmann::json& c, int) { (void)tmasim::judge_case(c); });
  } catch (const tmasim::Error&) {
  }
  return 0;
}
