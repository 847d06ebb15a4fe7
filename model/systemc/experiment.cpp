#include "experiment.hpp"

#include "tmasim/types.hpp"

namespace tmasim::sc {

L2Start l2_start_from_name(const std::string& name) {
  if (name == "cold") return L2Start::cold;
  if (name == "cold_clean") return L2Start::cold_clean;
  if (name == "warm") return L2Start::warm;
  throw Error("the L2 start state must be cold (after a write flush: dirty lines), cold_clean (clean lines) or warm "
              "(after a run of the same program), got '" + name + "'");
}

nlohmann::json to_json(const Measurement& m) {
  return {{"start_cycles", m.start_cycles},       {"issued_cycles", m.issued_cycles},
          {"end_cycles", m.end_cycles},           {"ops", m.ops},
          {"smem_wavefronts", m.smem_wavefronts}, {"smem_conflicts", m.smem_conflicts},
          {"l2_hits", m.l2_hits},                 {"l2_misses", m.l2_misses}, {"l2_writebacks", m.l2_writebacks},
          {"tma_bytes", m.tma_bytes},             {"read_instructions", m.read_instructions},
          {"read_wavefronts", m.read_wavefronts}, {"read_ideal", m.read_ideal},
          {"max_queue", m.max_queue},             {"cta_end_cycles", m.cta_end_cycles},
          {"cta_start_cycles", m.cta_start_cycles}, {"cta_sm", m.cta_sm},
          {"thread_end_cycles", m.thread_end_cycles}, {"stamps", m.stamps}};
}

Measurement measurement_from_json(const nlohmann::json& j) {
  Measurement m;
  m.start_cycles = j.at("start_cycles").get<double>();
  m.issued_cycles = j.at("issued_cycles").get<double>();
  m.end_cycles = j.at("end_cycles").get<double>();
  m.ops = j.at("ops").get<uint64_t>();
  m.smem_wavefronts = j.at("smem_wavefronts").get<uint64_t>();
  m.smem_conflicts = j.at("smem_conflicts").get<uint64_t>();
  m.l2_hits = j.at("l2_hits").get<uint64_t>();
  m.l2_misses = j.at("l2_misses").get<uint64_t>();
  m.l2_writebacks = j.at("l2_writebacks").get<uint64_t>();
  m.tma_bytes = j.at("tma_bytes").get<uint64_t>();
  m.read_instructions = j.at("read_instructions").get<uint64_t>();
  m.read_wavefronts = j.at("read_wavefronts").get<uint64_t>();
  m.read_ideal = j.at("read_ideal").get<uint64_t>();
  m.max_queue = j.at("max_queue").get<int>();
  m.cta_end_cycles = j.at("cta_end_cycles").get<std::vector<double>>();
  m.cta_start_cycles = j.at("cta_start_cycles").get<std::vector<double>>();
  m.cta_sm = j.at("cta_sm").get<std::vector<int>>();
  m.thread_end_cycles = j.at("thread_end_cycles").get<std::vector<std::vector<double>>>();
  m.stamps = j.at("stamps").get<std::vector<std::vector<std::vector<double>>>>();
  return m;
}

}  // namespace tmasim::sc
