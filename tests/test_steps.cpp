// The step registry (step_kinds.hpp): the parser takes every step kind's name and keys from it,
// and the documentation lists each kind.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "scenario.hpp"
#include "tmasim/types.hpp"

namespace tmasim::sc {
namespace {

using nlohmann::json;

json one_step(const json& step) {
  json j = json::parse(R"({
    "name": "t",
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 1024],
                      "global_strides": [128], "box_dims": [64, 64], "element_strides": [1, 1]}},
    "ctas": [{"count": 1, "program": []}]})");
  j["ctas"][0]["program"].push_back(step);
  return j;
}

std::string parse_error(const json& j) {
  try {
    (void)parse_scenario(j);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(StepKinds, EveryKindIsDeclaredOnceWithItsTmaOperation) {
  std::vector<std::string> names;
  for (const StepKindInfo& k : step_kinds()) {
    EXPECT_EQ(&step_kind(k.kind), &k);
    names.push_back(k.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"loop", "load", "store", "reduce", "prefetch", "arrive", "wait",
                                             "wait_stores", "read", "write", "fence", "delay", "compute", "mma",
                                             "mma_commit", "mma_wait", "sync", "stamp"}));
  EXPECT_EQ(step_kind(StepKind::reduce).tma_op, Op::reduce);
  EXPECT_EQ(step_kind(StepKind::prefetch).tma_op, Op::prefetch);
  EXPECT_FALSE(step_kind(StepKind::arrive).tma_op.has_value());
}

TEST(StepKinds, TheParserTakesNamesAndKeysFromTheRegistry) {
  EXPECT_EQ(parse_error(one_step({{"delay", 5}})), "");
  EXPECT_EQ(parse_error(one_step({{"nap", 5}})),
            "ctas[0].program[0]: a step needs one of loop, load, store, reduce, prefetch, arrive, wait, wait_stores, "
            "read, write, fence, delay, compute, mma, mma_commit, mma_wait, sync, stamp");
  EXPECT_EQ(parse_error(one_step({{"delay", 5}, {"sync", true}})),
            "ctas[0].program[0]: a step has one kind, not both 'delay' and 'sync'");
  EXPECT_EQ(parse_error(one_step({{"load", "T"}, {"coords", {0, 0}}, {"smem_ofset", 0}})),
            "ctas[0].program[0]: unknown key 'smem_ofset' (did you mean 'smem_offset'?)");
  EXPECT_EQ(parse_error(one_step({{"prefetch", "T"}, {"coords", {0, 0}}, {"barrier", 0}})),
            "ctas[0].program[0]: unknown key 'barrier'");  // a prefetch signals no barrier
}

// Issue 33: an im2col_offsets list on a load of a tiled tensor was silently ignored.
TEST(StepKinds, Im2colOffsetsOnATiledLoadAreRefused) {
  EXPECT_EQ(parse_error(one_step({{"load", "T"}, {"coords", {0, 0}}, {"im2col_offsets", {1}}})),
            "ctas[0].program[0]: im2col_offsets belong to loads of im2col tensors; 'T' is tiled");
}

// Issue 33: MMA shapes were read with sscanf("m%dn%dk%d"): overflow and trailing junk accepted.
TEST(StepKinds, AnMmaShapeIsReadStrictly) {
  EXPECT_EQ(parse_error(one_step({{"compute", {{"mma", "m64n128k16"}}}})), "");
  for (const char* bad : {"m64n128k16x", "m64n128k16 ", "m64n4294967424k16", "m+64n128k16", "m64n128", " m64n128k16"})
    EXPECT_NE(parse_error(one_step({{"compute", {{"mma", bad}}}})).find("mma must be a wgmma shape"), std::string::npos)
        << bad;
}

// Issue 33: loops whose bodies yield no step (an `if` on the inner variable) were walked iteration
// by iteration (10^12 here) before any budget counted them; the walk is bounded now.
TEST(StepKinds, LoopsThatYieldNoStepAreStillBounded) {
  json j = one_step({{"loop", "i"}, {"count", 1000000}, {"body", {{{"loop", "k"}, {"count", 1000000},
                     {"body", {{{"if", "k < 0 && i < 0"}, {"delay", 1}}}}}}}});
  try {
    Scenario s;
    build_scenario(parse_scenario(j), TimingConfig{}, s);
    ADD_FAILURE() << "10^12 iterations expanded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("iterations to expand (the expansion budget)"), std::string::npos) << e.what();
  }
}

// Issue 33: the GPU's stamp buffer and result line are CTAs x warps x the most stamps of a thread;
// 2048 CTAs of 32 warps, one of which stamps 300 times (614,400 steps), would list 19.7 M.
TEST(StepKinds, StampSlotsAreBounded) {
  const json j = {{"name", "stamps"}, {"tensors", json::object()},
                  {"ctas", {{{"count", 2048}, {"threads", {{{"name", "w"}, {"count", 32}, {"var", "w"},
                    {"program", {{{"loop", "i"}, {"count", 300}, {"body", {{{"if", "w == 0"}, {"stamp", "s"}}}}},
                                 {{"delay", 1}}}}}}}}}}};
  try {
    Scenario s;
    build_scenario(parse_scenario(j), TimingConfig{}, s);
    ADD_FAILURE() << "19.7 M stamp slots accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("= 19660800 slots, past 4194304"), std::string::npos) << e.what();
  }
}

TEST(StepKinds, TheScenarioGuideListsEveryKind) {
  std::ifstream f(std::string(TMASIM_SOURCE_DIR) + "/docs/scenarios.md");
  std::stringstream doc;
  doc << f.rdbuf();
  for (const StepKindInfo& k : step_kinds())
    EXPECT_NE(doc.str().find("`{\"" + k.name + "\": "), std::string::npos) << k.name << " is not in docs/scenarios.md";
}

}  // namespace
}  // namespace tmasim::sc

namespace tmasim::sc {
namespace {

// Issue 32's error messages: each names where, what is allowed, and the nearest valid value.
TEST(ErrorMessages, AnUnknownEnumValueNamesTheTensorAndTheValues) {
  json j = one_step({{"delay", 5}});
  j["tensors"]["T"]["dtype"] = "bf16";
  EXPECT_EQ(parse_error(j),
            "tensors.T: field 'dtype': unknown value 'bf16' (one of uint8, uint16, uint32, int32, uint64, int64, "
            "float16, float32, float64, bfloat16, float32_ftz, tfloat32, tfloat32_ftz, 16u4_align8b, 16u4_align16b, "
            "16u6_align16b)");
  j["tensors"]["T"]["dtype"] = "float61";
  EXPECT_NE(parse_error(j).find("unknown value 'float61' (did you mean 'float64'? one of uint8,"), std::string::npos);
  j["tensors"]["T"]["dtype"] = "float16";
  j["tensors"]["T"]["swizzle"] = "128";
  EXPECT_NE(parse_error(j).find("tensors.T: field 'swizzle': unknown value '128' (did you mean '128b'? one of none, 32b, 64b, 128b,"), std::string::npos);
}

TEST(ErrorMessages, ASetOfAnUnknownParameterListsTheParams) {
  json j = one_step({{"delay", "D"}});
  j["params"] = {{"D", 5}, {"STAGES", 2}};
  try {
    (void)parse_scenario(j, {{"STAGE", "4"}});
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "--set STAGE: the scenario has no parameter 'STAGE' (did you mean 'STAGES'? its params: D, STAGES)");
  }
}

TEST(ErrorMessages, TheBarriersMayBeACountAndAnExpression) {
  json j = one_step({{"delay", 5}});
  j["params"] = {{"S", 3}};
  j["ctas"][0]["barriers"] = {{"count", "2 * S"}, {"arrivals", "1 + (b >= S) * 3"}};
  const ScenarioSpec spec = parse_scenario(j);
  EXPECT_EQ(spec.groups.at(0).barrier_counts, (std::vector<int>{1, 1, 1, 4, 4, 4}));
  j["ctas"][0]["barriers"] = {{"count", "40"}, {"arrivals", 1}};
  EXPECT_EQ(parse_error(j), "ctas[0].barriers: 'count' must be 1 to 32 barriers, got 40");
  j["ctas"][0]["barriers"] = {{"count", 2}, {"arrivals", "b"}};
  EXPECT_EQ(parse_error(j), "ctas[0].barriers: barrier 0: an mbarrier's arrival count must be 1..1024, got 0");
  j["ctas"][0]["barriers"] = {{"count", 2}, {"arrival", 1}};
  EXPECT_EQ(parse_error(j), "ctas[0].barriers: unknown key 'arrival' (did you mean 'arrivals'?)");
}

TEST(ErrorMessages, ASwizzleSpanErrorSaysHowToSplitTheBox) {
  json j = one_step({{"delay", 5}});
  j["tensors"]["T"]["swizzle"] = "64b";  // 64 fp16 = 128 bytes a row
  const std::string e = parse_error(j);
  EXPECT_NE(e.find("inner box dimension of 128 bytes exceeds the 64-byte span of swizzle 64b: make the box's rows at "
                   "most 64 bytes (box_dims[0] <= 32) and load a row in 2 boxes side by side"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace tmasim::sc
