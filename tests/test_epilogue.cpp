// An epilogue's own steps (issue 30): `write` stages a tile in shared memory with stmatrix.x4
// through the banked shared memory, `fence` (fence.proxy.async) makes it visible to a TMA store.
#include <gtest/gtest.h>

#include "cuda_emit.hpp"
#include "scenario_fixtures.hpp"

namespace tmasim::sc {
namespace {

// One warp writes a 64x64 fp16 tile (16 stmatrix.x4), fences, and stores it with the TMA.
json epilogue(const std::string& swizzle, bool fence = true) {
  json j = json::parse(R"J({
    "name": "e", "tensors": {"C": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                                   "global_strides": [128], "box_dims": [64, 64], "element_strides": [1, 1]}},
    "ctas": [{"count": 1, "program": [
      {"write": {"rows": 64, "cols": 64, "dtype": "float16", "smem_offset": 0}},
      {"fence": "proxy_async"},
      {"store": "C", "coords": [0, 0], "smem_offset": 0},
      {"wait_stores": 0}]}]})J");
  j["tensors"]["C"]["swizzle"] = swizzle;
  j["ctas"][0]["program"][0]["write"]["swizzle"] = swizzle;
  if (!fence) j["ctas"][0]["program"].erase(1);
  return j;
}

std::string build_error(const json& j) {
  try {
    Scenario s;
    build_scenario(parse_scenario(j), TimingConfig{}, s);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A stmatrix.x4 writes four 8x8 matrices, each 8 rows of 16 bytes. Swizzled (128B) the 8 rows of a
// matrix fall in 8 different 16-byte bank groups: one wavefront a matrix. Unswizzled, rows 128 bytes
// apart all fall in the same 4 banks: 8 wavefronts a matrix, 7 of them conflicts.
TEST(Epilogue, AWriteBooksStmatrixWavefrontsWithTheirBankConflicts) {
  TimingConfig cfg;
  const Measurement swizzled = run_on(epilogue("128b"), cfg), plain = run_on(epilogue("none"), cfg);
  // The TMA store's read of the tile adds its own wavefronts (8 KiB at 128 bytes each) to both.
  EXPECT_EQ(swizzled.smem_wavefronts, 16u * 4 + 64);
  EXPECT_EQ(swizzled.smem_conflicts, 0u);
  EXPECT_EQ(plain.smem_wavefronts, 16u * 32 + 64);
  EXPECT_EQ(plain.smem_conflicts, 16u * 28);
  EXPECT_EQ(swizzled.read_instructions, 0u);  // the report's consumer reads are ldmatrix only
  EXPECT_GT(plain.end_cycles, swizzled.end_cycles);
}

TEST(Epilogue, TheWriteAndTheFenceCostWhatTheConfigurationSays) {
  TimingConfig cfg;
  cfg.stmatrix_cycles = 10;
  const double base = run_on(epilogue("128b"), cfg).end_cycles;
  cfg.stmatrix_cycles = 20;  // 16 stmatrix.x4, issue-bound when swizzled
  EXPECT_NEAR(run_on(epilogue("128b"), cfg).end_cycles - base, 16 * 10, 1.0);
  cfg.stmatrix_cycles = 10;
  cfg.fence_proxy_cycles = 300;
  EXPECT_NEAR(run_on(epilogue("128b"), cfg).end_cycles - base, 300 - TimingConfig{}.fence_proxy_cycles, 1.0);
}

TEST(Epilogue, AWriteNotFencedBeforeTheStoreIsRefused) {
  EXPECT_EQ(build_error(epilogue("128b")), "");
  const std::string e = build_error(epilogue("128b", false));
  EXPECT_NE(e.find("ctas[0].program[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("this write (stmatrix) reaches the store at ctas[0].program[1] with no fence between"),
            std::string::npos) << e;
  json at_end = epilogue("128b");
  at_end["ctas"][0]["program"] = json::array({at_end["ctas"][0]["program"][0]});
  EXPECT_NE(build_error(at_end).find("reaches the end of its thread"), std::string::npos);
  json bad = epilogue("128b");
  bad["ctas"][0]["program"][1]["fence"] = "acquire";
  EXPECT_NE(build_error(bad).find("'fence' must be \"proxy_async\""), std::string::npos);
  json wide = epilogue("128b");
  wide["ctas"][0]["program"][0]["write"]["rows"] = 72;
  EXPECT_NE(build_error(wide).find("write rows and cols must be multiples of 16"), std::string::npos);
}

TEST(Epilogue, TheEmitterWritesStmatrixAndTheFence) {
  const ScenarioSpec spec = parse_scenario(epilogue("128b"));
  Scenario s;
  build_scenario(spec, TimingConfig{}, s);
  const std::string cu = emit_cuda(spec, s, TimingConfig{});
  EXPECT_NE(cu.find("stmatrix_x4(smem + a, 0u);"), std::string::npos);
  EXPECT_NE(cu.find("stmatrix.sync.aligned.m8n8.x4.shared.b16"), std::string::npos);
  EXPECT_NE(cu.find("fence_proxy_async();"), std::string::npos);
  EXPECT_NE(cu.find("fence.proxy.async.shared::cta;"), std::string::npos);
  EXPECT_NE(cu.find("a ^= (a & 896u) >> 3;"), std::string::npos);  // the tile's 128B swizzle
}

}  // namespace
}  // namespace tmasim::sc
