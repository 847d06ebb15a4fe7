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

// One layout for a run's result, whoever writes it: the simulating child to its parent, `tmasim run
// --stats`, the sweep's CSV columns (docs/outputs.md). Each field's name and its member, once.
namespace {

template <class Visit>
void for_each_field(Measurement& m, Visit&& visit) {
  visit("cycles", m.end_cycles);
  visit("start_cycles", m.start_cycles);
  visit("issued_cycles", m.issued_cycles);
  visit("tma_operations", m.ops);
  visit("tma_bytes", m.tma_bytes);
  visit("l2_hits", m.l2_hits);
  visit("l2_misses", m.l2_misses);
  visit("l2_writebacks", m.l2_writebacks);
  visit("l2_output_bytes", m.l2_output_bytes);
  visit("smem_wavefronts", m.smem_wavefronts);
  visit("smem_conflict_wavefronts", m.smem_conflicts);
  visit("read_instructions", m.read_instructions);
  visit("read_wavefronts", m.read_wavefronts);
  visit("read_ideal_wavefronts", m.read_ideal);
  visit("max_queue_occupancy", m.max_queue);
  visit("mma_instructions", m.mma_instructions);
  visit("mma_flops", m.mma_flops);
  visit("tensor_busy_cycles", m.tensor_busy_cycles);
  visit("tensor_sms", m.tensor_sms);
  visit("cta_start_cycles", m.cta_start_cycles);
  visit("cta_end_cycles", m.cta_end_cycles);
  visit("cta_sm", m.cta_sm);
  visit("thread_end_cycles", m.thread_end_cycles);
  visit("stamps", m.stamps);
  visit("thread_split", m.thread_split);
  visit("thread_names", m.thread_names);
}

}  // namespace

nlohmann::json to_json(const Measurement& measurement) {
  Measurement m = measurement;
  nlohmann::json j = nlohmann::json::object();
  for_each_field(m, [&](const char* name, const auto& field) { j[name] = field; });
  return j;
}

Measurement measurement_from_json(const nlohmann::json& j) {
  Measurement m;
  for_each_field(m, [&](const char* name, auto& field) { j.at(name).get_to(field); });
  return m;
}

}  // namespace tmasim::sc
