// A step's own cost (issue 29, the user's own code): "cycles" on a step is the least it takes of
// its thread; the emitted CUDA spins to the same deadline. Judged on the H100 by
// tests/golden/floor_probe (ctest scenario_floor_probe_*); here, what the model makes of it.
#include <gtest/gtest.h>

#include <string>

#include "cuda_emit.hpp"
#include "scenario_fixtures.hpp"

namespace tmasim::sc {
namespace {

// One CTA, one thread: four 16 KiB tiles loaded and waited on, then `step` between two stamps.
json stamped(const json& step) {
  json j = json::parse(R"({
    "name": "cost",
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 512],
                      "global_strides": [128], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}},
    "ctas": [{"count": 1, "barriers": [1, 1], "program": [
      {"arrive": 0, "bytes": "bytes_T"}, {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
      {"wait": 0, "phase": 0}, {"stamp": "before"}, {"stamp": "after"}]}]})");
  auto& program = j["ctas"][0]["program"];
  program.insert(program.begin() + 4, step);
  return j;
}

double interval(const json& j, const TimingConfig& cfg) {
  const Measurement m = run_on(j, cfg);
  const auto& s = m.stamps.at(0).at(0);
  return s.at(1) - s.at(0);
}

TimingConfig h100() { return TimingConfig::from_json_file(std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json"); }

const json kRead = {{"read", {{"rows", 128}, {"cols", 64}, {"swizzle", "128b"}}}};

TEST(StepCost, AStepTakesAtLeastItsCycles) {
  TimingConfig cfg = h100();
  cfg.stamp_cycles = 0;
  const double own = interval(stamped(kRead), cfg);  // the model's default: 32 ldmatrix.x4 at 13.3
  EXPECT_NEAR(own, 32 * cfg.ldmatrix_looped_cycles, 40);
  json floored = kRead;
  floored["cycles"] = 1000;
  EXPECT_DOUBLE_EQ(interval(stamped(floored), cfg), 1000);
  floored["cycles"] = "2 * 600";  // an expression
  EXPECT_DOUBLE_EQ(interval(stamped(floored), cfg), 1200);
  // A floor below the step's own time changes nothing.
  floored["cycles"] = 10;
  EXPECT_DOUBLE_EQ(interval(stamped(floored), cfg), own);
}

TEST(StepCost, AFloorNeverShortensAWait) {
  TimingConfig cfg = h100();
  cfg.stamp_cycles = 0;
  // Barrier 1 completes when a second load lands: the wait lasts the load's round trip, more
  // than its floor of 50, and exactly its floor of 5000.
  json j = stamped({{"wait", 1}, {"phase", 0}});
  auto& program = j["ctas"][0]["program"];
  program.insert(program.begin() + 3, json{{"arrive", 1}, {"bytes", "bytes_T"}});
  program.insert(program.begin() + 4, json{{"load", "T"}, {"coords", {0, 128}}, {"smem_offset", 16384}, {"barrier", 1}});
  const double own = interval(j, cfg);
  EXPECT_GT(own, 300);
  program[6]["cycles"] = 50;
  EXPECT_DOUBLE_EQ(interval(j, cfg), own);
  program[6]["cycles"] = 5000;
  EXPECT_DOUBLE_EQ(interval(j, cfg), 5000);
}

TEST(StepCost, AStampTakesItsOwnCycles) {
  TimingConfig cfg = h100();
  ASSERT_DOUBLE_EQ(cfg.stamp_cycles, 31);  // tests/golden/floor_probe/stamped_*: 31 apart
  json j = stamped(kRead);
  j["ctas"][0]["program"].erase(4);  // two stamps back to back
  EXPECT_DOUBLE_EQ(interval(j, cfg), 31);
}

TEST(StepCost, OnlyStepsWithAnOwnCostTakeCycles) {
  for (const json& step : {json{{"delay", 10}, {"cycles", 5}}, json{{"stamp", "x"}, {"cycles", 5}},
                           json{{"loop", "k"}, {"count", 2}, {"body", json::array()}, {"cycles", 5}}}) {
    const std::string e = error_of(stamped(step));
    EXPECT_NE(e.find("unknown key 'cycles'"), std::string::npos) << step.dump() << ": " << e;
  }
  json negative = kRead;
  negative["cycles"] = -1;
  EXPECT_NE(error_of(stamped(negative)).find("cycles (the least the step takes of its thread) must be 0..2^32"),
            std::string::npos);
}

TEST(StepCost, TheEmittedStepSpinsToItsDeadline) {
  json floored = kRead;
  floored["cycles"] = "3 * 400";
  const json j = stamped(floored);
  const ScenarioSpec spec = parse_scenario(j);
  Scenario built;
  build_scenario(spec, h100(), built);
  const std::string cuda = emit_cuda(spec, built, h100());
  const size_t start = cuda.find("const long long step_start = clock64();");
  ASSERT_NE(start, std::string::npos);
  const size_t read = cuda.find("ldmatrix_x4(", start);
  const size_t spin = cuda.find("spin_until(step_start + (long long)(((long long)(3 * 400))));", start);
  EXPECT_LT(read, spin);
  EXPECT_NE(spin, std::string::npos);
  // Without "cycles" nothing is added.
  const ScenarioSpec plain = parse_scenario(stamped(kRead));
  Scenario b2;
  build_scenario(plain, h100(), b2);
  EXPECT_EQ(emit_cuda(plain, b2, h100()).find("step_start"), std::string::npos);
}

}  // namespace
}  // namespace tmasim::sc
