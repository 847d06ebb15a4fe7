// Fuzz target: a GPU result file as `tmasim compare` reads it (a stream of JSON lines, kept only
// for the scenarios compared) and judges it against a measurement: every input ends in a verdict
// or an Error, never a crash, a sanitizer report or memory that grows with the file.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "gpu_results.hpp"
#include "tmasim/json_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmasim;
  if (size > 65536) return 0;
  static const std::string path = "/tmp/tmasim_fuzz_results_" + std::to_string(getpid()) + ".jsonl";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  // A measurement of 4 CTAs, as the model would give for the scenario "a.json".
  sc::Measurement m;
  m.end_cycles = 1000;
  m.cta_start_cycles = {0, 0, 10, 10};
  m.cta_end_cycles = {900, 950, 990, 1000};
  m.stamps = {{{100, 200}}, {{100}}, {}, {{5, 6, 7}}};
  cli::Wanted wanted;
  wanted.files = {"a.json", "b.json"};
  wanted.names = {"a", "b"};
  wanted.one_scenario = size % 2 == 0;
  try {
    const cli::Results results = cli::read_results(path, wanted);
    for (const auto* by : {&results.by_file, &results.by_name})
      for (const auto& [key, result] : *by)
        for (const char* l2 : {"cold", "warm", "cold_clean"}) {
          cli::Row row;
          row.file = key;
          try {
            cli::judge(row, result, key.size() % 2 ? &m : nullptr, "deadlock at cycle 5", l2, 0.25);
          } catch (const Error&) {
          }
        }
  } catch (const Error&) {
  }
  return 0;
}
