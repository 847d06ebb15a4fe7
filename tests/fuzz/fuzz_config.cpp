// Fuzz target: a timing configuration file (TimingConfig and SmemConfig readers).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "timing_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/tmasim_fuzz_config_" + std::to_string(getpid()) + ".json";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    (void)tmasim::sc::TimingConfig::from_json_file(path);
  } catch (const tmasim::Error&) {
  }
  return 0;
}
