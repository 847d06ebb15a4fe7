// Fuzz target: a GPU result file as `tmasim compare` reads it (a stream of JSON lines, kept only
// for the scenarios compared) and judges it against a measurement, and as `tmasim costs` reads its
// stamps against a stamped scenario: every input ends in a verdict, costs or an Error, never a
// crash, a sanitizer report or memory that grows with the file.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "gpu_results.hpp"
#include "step_costs.hpp"
#include "tmasim/json_input.hpp"

namespace {

// Two CTAs of a producer and a consumer whose loop stamps around its read (tmasim costs).
const tmasim::sc::Scenario& stamped(nlohmann::json& file) {
  static nlohmann::json j = nlohmann::json::parse(R"({
    "name": "a",
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 1024],
                      "global_strides": [128], "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}},
    "ctas": [{"count": 2, "barriers": [1, 1], "threads": [
      {"name": "producer", "program": [{"loop": "k", "count": 2, "body": [
        {"arrive": "k", "bytes": "bytes_T"}, {"load": "T", "coords": [0, "64 * k"], "smem_offset": "k * 8192", "barrier": "k"}]}]},
      {"name": "consumer", "program": [{"stamp": "s"}, {"loop": "k", "count": 2, "body": [
        {"wait": "k", "phase": 0}, {"stamp": "b"}, {"read": {"rows": 64, "cols": 64, "swizzle": "128b", "smem_offset": "k * 8192"}},
        {"stamp": "a"}]}]}]}]})");
  static const tmasim::sc::Scenario built = [] {
    tmasim::sc::Scenario s;
    tmasim::sc::build_scenario(tmasim::sc::parse_scenario(j), tmasim::sc::TimingConfig{}, s);
    return s;
  }();
  file = j;
  return built;
}

}  // namespace

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
          try {
            nlohmann::json file;
            const sc::Scenario& built = stamped(file);
            (void)cli::step_costs(file, built, result, l2, 31);
          } catch (const Error&) {
          }
        }
  } catch (const Error&) {
  }
  return 0;
}
