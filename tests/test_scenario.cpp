// The scenario language: strict parsing, parameters and --set, the read checks, deadlock
// reports, and the CUDA emitter's output for the same tree.
#include <gtest/gtest.h>

#include "cuda_emit.hpp"
#include "scenario.hpp"
#include "tmasim/expression.hpp"

namespace tmasim::sc {
namespace {

using nlohmann::json;

// One CTA: a producer loads KT tiles through two stages; a consumer waits and reads them.
json pipeline() {
  return json::parse(R"({
    "name": "t", "params": {"KT": 4, "ROWS": 64},
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 1024],
                      "global_strides": [128], "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"}},
    "ctas": [{"count": 2, "barriers": [1, 1, 1, 1], "threads": [
      {"name": "producer", "program": [{"loop": "k", "count": "KT", "body": [
        {"if": "k >= 2", "wait": "2 + k % 2", "parity": "(k / 2 - 1) % 2"},
        {"arrive": "k % 2", "bytes": "bytes_T"},
        {"load": "T", "coords": [0, "ROWS * k"], "smem_offset": "(k % 2) * 8192", "barrier": "k % 2"}]}]},
      {"name": "consumer", "program": [{"loop": "k", "count": "KT", "body": [
        {"wait": "k % 2", "parity": "(k / 2) % 2"},
        {"read": {"rows": 64, "cols": 64, "swizzle": "128b", "smem_offset": "(k % 2) * 8192"}},
        {"arrive": "2 + k % 2"}]}]}]}]})");
}

std::string error_of(const json& j, const ParamOverrides& set = {}) {
  try {
    Scenario s;
    build_scenario(parse_scenario(j, set), TimingConfig{}, s);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

size_t steps_of(const Scenario& s) {
  size_t n = 0;
  for (const CtaProgram& c : s.experiment.ctas)
    for (const ThreadProgram& t : c.threads) n += t.steps.size();
  return n;
}

TEST(Scenario, BuildsThreadsBarriersAndSteps) {
  Scenario s;
  build_scenario(parse_scenario(pipeline()), TimingConfig{}, s);
  ASSERT_EQ(s.experiment.ctas.size(), 2u);
  const CtaProgram& c = s.experiment.ctas[1];
  ASSERT_EQ(c.threads.size(), 2u);
  EXPECT_EQ(c.threads[0].name, "producer");
  EXPECT_EQ(c.barrier_counts, (std::vector<int>{1, 1, 1, 1}));
  // Producer: 4 arrivals + 4 loads + 2 waits (k >= 2); consumer: 3 steps per tile.
  EXPECT_EQ(c.threads[0].steps.size(), 10u);
  EXPECT_EQ(c.threads[1].steps.size(), 12u);
  EXPECT_EQ(c.threads[0].steps[9].ins.coords, (std::vector<int32_t>{0, 192}));
  // Consumer steps per tile: wait, read, arrive. Tile 1 waits for phase 0 of barrier 1
  // (parity 0), tile 2 for phase 1 of barrier 0 (parity 1).
  EXPECT_EQ(c.threads[1].steps[3].parity, 0);
  EXPECT_EQ(c.threads[1].steps[3].barrier, 1);
  EXPECT_EQ(c.threads[1].steps[6].parity, 1);
  EXPECT_EQ(c.threads[1].steps[6].barrier, 0);
}

TEST(Scenario, SetOverridesAParameter) {
  Scenario s;
  build_scenario(parse_scenario(pipeline(), parse_overrides({"KT=8"})), TimingConfig{}, s);
  EXPECT_EQ(steps_of(s), 2u * (8 + 8 + 6 + 3 * 8));
  EXPECT_NE(error_of(pipeline(), {{"KTT", "8"}}).find("no parameter 'KTT'"), std::string::npos);
  EXPECT_THROW(parse_overrides({"KT"}), Error);
  EXPECT_THROW(parse_overrides({"KT=(1"}), Error);
}

TEST(Scenario, UnknownKeysAreErrorsNamingTheStep) {
  json j = pipeline();
  j["ctas"][0]["threads"][0]["program"][0]["body"][2]["smem_ofset"] = 0;
  const std::string e = error_of(j);
  EXPECT_NE(e.find("ctas[0].threads[0].program[0].body[2]"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key 'smem_ofset'"), std::string::npos) << e;
  json top = pipeline();
  top["tensor"] = json::object();
  EXPECT_NE(error_of(top).find("unknown key 'tensor'"), std::string::npos);
  json two = pipeline();
  two["ctas"][0]["threads"][1]["program"][0]["body"][1]["wait"] = 0;
  EXPECT_NE(error_of(two).find("one kind"), std::string::npos);
}

TEST(Scenario, ReadBeforeAnyWaitIsAnError) {
  json j = pipeline();
  auto& body = j["ctas"][0]["threads"][1]["program"][0]["body"];
  body.erase(body.begin());  // no wait before the read
  const std::string e = error_of(j);
  EXPECT_NE(e.find("before waiting"), std::string::npos) << e;
  EXPECT_NE(e.find("thread 'consumer'"), std::string::npos) << e;
}

TEST(Scenario, ReadWithAnotherSwizzleThanTheLoadIsAnError) {
  json j = pipeline();
  j["ctas"][0]["threads"][1]["program"][0]["body"][1]["read"]["swizzle"] = "64b";
  const std::string e = error_of(j);
  EXPECT_NE(e.find("disagrees with the 128b swizzle"), std::string::npos) << e;
}

TEST(Scenario, ReadOfMemoryNoLoadFillsIsAnError) {
  json j = pipeline();
  j["ctas"][0]["threads"][1]["program"][0]["body"][1]["read"]["smem_offset"] = 65536;
  EXPECT_NE(error_of(j).find("no load fills"), std::string::npos);
}

TEST(Scenario, OutOfRangeValuesNameTheField) {
  json j = pipeline();
  j["ctas"][0]["threads"][0]["program"][0]["body"][2]["barrier"] = 9;
  EXPECT_NE(error_of(j).find("barrier 9 out of range 0..3"), std::string::npos);
  json c = pipeline();
  c["ctas"][0]["cluster_size"] = 3;
  EXPECT_NE(error_of(c).find("cluster_size must be 1, 2, 4 or 8"), std::string::npos);
  json l = pipeline();
  l["params"]["KT"] = 2000000;
  EXPECT_NE(error_of(l).find("loop count 2000000 out of range"), std::string::npos);
}

TEST(Scenario, DeadlockNamesCtaThreadBarrierPhaseAndCycle) {
  json j = pipeline();
  // The consumer also waits for a third phase of barrier 0 that the producer never starts.
  j["ctas"][0]["threads"][1]["program"].push_back(json::parse(R"({"wait": 0, "phase": 2})"));
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  try {
    run_in_child(s.experiment);
    FAIL() << "a deadlocked scenario finished";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("deadlock at cycle "), std::string::npos) << m;
    EXPECT_NE(m.find("CTA 0 thread 'consumer' waits on barrier 0 for phase 2"), std::string::npos) << m;
    EXPECT_NE(m.find("CTA 1 thread 'consumer'"), std::string::npos) << m;
    EXPECT_NE(m.find("at ctas[0].threads[1].program[1]"), std::string::npos) << m;
  }
}

TEST(Scenario, FinishedRunReportsEveryCtaAndThread) {
  Scenario s;
  build_scenario(parse_scenario(pipeline()), TimingConfig{}, s);
  const Measurement m = run_in_child(s.experiment);
  ASSERT_EQ(m.cta_end_cycles.size(), 2u);
  ASSERT_EQ(m.thread_end_cycles[0].size(), 2u);
  EXPECT_GT(m.cta_end_cycles[0], 0);
  EXPECT_EQ(m.end_cycles, std::max(m.cta_end_cycles[0], m.cta_end_cycles[1]));
  EXPECT_EQ(m.ops, 8u);
  EXPECT_EQ(m.read_instructions, 2u * 4 * 16);
}

// A prefetch whose rows start left of the tensor brings their in-bound part into L2: the load
// of the same box that follows finds it there (the traversal's in-bound window, as for loads).
TEST(Scenario, PrefetchStartingOutOfBoundsWarmsTheInBoundPart) {
  const json j = json::parse(R"({
    "name": "p",
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                      "global_strides": [128], "box_dims": [64, 16], "element_strides": [1, 1]}},
    "ctas": [{"count": 1, "barriers": [1], "program": [
      {"prefetch": "T", "coords": [-32, 0]},
      {"delay": 5000},
      {"arrive": 0, "bytes": "bytes_T"},
      {"load": "T", "coords": [-32, 0], "smem_offset": 0, "barrier": 0},
      {"wait": 0, "phase": 0}]}]})");
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  const Measurement m = run_in_child(s.experiment);
  EXPECT_EQ(m.l2_misses, 16u);  // the prefetch's 16 rows of 64 in-bound bytes
  EXPECT_EQ(m.l2_hits, 16u);    // the load's rows, all resident
}

TEST(Scenario, MbarrierCountsArrivalsAndTransactions) {
  // Two consumers must both arrive before the producer's wait on barrier 2 completes.
  json j = pipeline();
  j["ctas"][0]["barriers"] = {1, 1, 2, 2};
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  EXPECT_THROW(run_in_child(s.experiment), Error);  // one consumer: the producer waits forever
  j["ctas"][0]["threads"][1]["count"] = 2;
  j["ctas"][0]["threads"][1]["var"] = "w";
  Scenario two;
  build_scenario(parse_scenario(j), TimingConfig{}, two);
  EXPECT_EQ(run_in_child(two.experiment).ops, 8u);
}

TEST(Expression, PrecedenceAndOperatorsAsInC) {
  EXPECT_EQ(eval_expression("1 + 2 * 3", {}), 7);
  EXPECT_EQ(eval_expression("(1 << 4) - 1", {}), 15);
  EXPECT_EQ(eval_expression("1 << 2 + 1", {}), 8);
  EXPECT_EQ(eval_expression("6 & 3 | 8", {}), 10);
  EXPECT_EQ(eval_expression("-7 / 2", {}), -3);
  EXPECT_EQ(eval_expression("-7 % 2", {}), -1);
  EXPECT_EQ(eval_expression("k >= 2 && k < 4", {{"k", 3}}), 1);
  EXPECT_EQ(eval_expression("!(k == 3) || 0", {{"k", 3}}), 0);
  EXPECT_EQ(eval_expression("k", {{"k", 1}, {"k", 2}}), 2);  // innermost wins
}

TEST(Expression, ErrorsInsteadOfUndefinedBehaviour) {
  EXPECT_THROW(eval_expression("1 / 0", {}), Error);
  EXPECT_THROW(eval_expression("5 % (2 - 2)", {}), Error);
  EXPECT_THROW(eval_expression("9223372036854775807 + 1", {}), Error);
  EXPECT_THROW(eval_expression("99999999999999999999", {}), Error);
  EXPECT_THROW(eval_expression("1 << 63", {}), Error);
  EXPECT_THROW(eval_expression("x + 1", {}), Error);
  EXPECT_THROW(eval_expression("2k", {}), Error);
  EXPECT_THROW(eval_expression(std::string(100, '(') + "1" + std::string(100, ')'), {}), Error);
  EXPECT_THROW(eval_expression(std::string(100, '-') + "1", {}), Error);
}

TEST(Expression, PrintsAsC) {
  const Expression e = Expression::parse("(k % S) * 16384 + w");
  EXPECT_EQ(e.to_c("v_"), "(((v_k % v_S) * 16384LL) + v_w)");
  EXPECT_EQ(e.names(), (std::vector<std::string>{"k", "S", "w"}));
}

TEST(CudaEmit, CompilesTheProgramNotAnInterpreter) {
  const ScenarioSpec spec = parse_scenario(pipeline());
  Scenario s;
  build_scenario(spec, TimingConfig{}, s);
  const std::string cu = emit_cuda(spec, s, TimingConfig{});
  // The loop, its expressions and the instruction for the map's rank, compiled in.
  EXPECT_NE(cu.find("for (long long v_k = 0; v_k < v_KT; ++v_k)"), std::string::npos);
  EXPECT_NE(cu.find("tma_load<2>(smem + (uint32_t)(((v_k % 2LL) * 8192LL))"), std::string::npos);
  EXPECT_NE(cu.find("mbar_wait(smem_u32(&bars[(2LL + (v_k % 2LL))])"), std::string::npos);
  EXPECT_NE(cu.find("constexpr int kWarps = 2;"), std::string::npos);
  EXPECT_NE(cu.find("mbar_init(smem_u32(&bars[3]), 1);"), std::string::npos);
  EXPECT_NE(cu.find("CU_TENSOR_MAP_SWIZZLE_128B"), std::string::npos);
  // The swizzle of the reads is the model's (CuTe Swizzle<3,4,3>: bits 7-9 into 4-6).
  EXPECT_NE(cu.find("a ^= (a & 896u) >> 3;"), std::string::npos);
}

TEST(CudaEmit, RefusesWhatItCannotRunFaithfully) {
  json j = pipeline();
  j["ctas"][0]["threads"][1]["count"] = "cta + 1";  // a warp count that differs per CTA
  const ScenarioSpec spec = parse_scenario(j);
  EXPECT_THROW(emit_cuda(spec, Scenario{}, TimingConfig{}), Error);
}

}  // namespace
}  // namespace tmasim::sc

// libsystemc wants an sc_main; GoogleTest's main runs the tests, and the simulations run in
// forked children through run_experiment.
int sc_main(int, char**) { return 0; }
