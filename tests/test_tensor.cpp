// Warpgroup MMA (`mma` steps, tensor_cores.hpp): what a scenario may ask of it, what the
// tensor cores and the shared-memory data path make of it, what the CUDA emitter writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cuda_emit.hpp"
#include "scenario_fixtures.hpp"

namespace tmasim::sc {
namespace {

// One CTA: a warp loads A (64 rows a warpgroup) and B (N rows) once; WG warpgroups then issue
// ITERS x COUNT wgmma m64nNk16 of them, one commit group each, one group kept in flight.
json mma_loop(int n, int warpgroups, bool a_in_registers = false) {
  json j = json::parse(R"({
    "name": "m", "params": {"ITERS": 32, "COUNT": 4},
    "tensors": {
      "A": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 128], "global_strides": [128],
            "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"},
      "B": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 256], "global_strides": [128],
            "box_dims": [64, 256], "element_strides": [1, 1], "swizzle": "128b"}},
    "ctas": [{"count": 1, "barriers": [1], "threads": [
      {"name": "consumer", "warpgroup": true, "count": 2, "var": "w", "program": [
        {"wait": 0, "parity": 0},
        {"stamp": "start"},
        {"loop": "i", "count": "ITERS", "body": [
          {"mma": {"shape": "m64n128k16", "dtype": "float16", "count": "COUNT",
                   "a": {"smem_offset": "w * 8192", "swizzle": "128b"}, "b": {"smem_offset": 16384, "swizzle": "128b"}}},
          {"mma_commit": true},
          {"mma_wait": 1}]},
        {"mma_wait": 0},
        {"stamp": "end"}]},
      {"name": "producer", "program": [
        {"arrive": 0, "bytes": "bytes_A + bytes_B"},
        {"load": "A", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
        {"load": "B", "coords": [0, 0], "smem_offset": 16384, "barrier": 0}]}]}]})");
  json& consumer = j["ctas"][0]["threads"][0];
  consumer["count"] = warpgroups;
  json& mma = consumer["program"][2]["body"][0]["mma"];
  mma["shape"] = "m64n" + std::to_string(n) + "k16";
  if (a_in_registers) mma["a"] = "registers";
  return j;
}

json& mma_step(json& j) { return j["ctas"][0]["threads"][0]["program"][2]["body"][0]["mma"]; }

// Cycles a wgmma of the first warpgroup, from its stamps.
double cycles_each(const json& j, const TimingConfig& cfg) {
  const Measurement m = run_on(j, cfg);
  const std::vector<double>& s = m.stamps.at(0).at(0);
  return (s.at(1) - s.at(0)) / (32.0 * 4);
}

// m64n256k16 is bound by the tensor cores (128 cycles; its operands are 80 wavefronts); twice as
// fast, by its operands' wavefronts on the shared-memory data path.
TEST(Tensor, AWgmmaTakesItsFlopsAtTheTypesRate) {
  TimingConfig cfg;
  EXPECT_NEAR(cycles_each(mma_loop(256, 1), cfg), 2.0 * 64 * 256 * 16 / cfg.f16_flops_per_cycle, 2.0);
  cfg.f16_flops_per_cycle *= 2;  // "what if the tensor cores were twice as fast?"
  EXPECT_NEAR(cycles_each(mma_loop(256, 1), cfg), (2048 + 8192) / 128.0, 2.0);
}

TEST(Tensor, WarpgroupsOfAnSmShareItsTensorCores) {
  TimingConfig cfg;
  const double one = cycles_each(mma_loop(256, 1), cfg), two = cycles_each(mma_loop(256, 2), cfg);
  EXPECT_NEAR(two / one, 2.0, 0.05);
  // The run's report: every wgmma and its flops counted, the SM's tensor cores busy most of the run.
  const Measurement m = run_on(mma_loop(256, 2), cfg);
  EXPECT_EQ(m.mma_instructions, 2u * 32 * 4);
  EXPECT_DOUBLE_EQ(m.mma_flops, 2.0 * 32 * 4 * 2.0 * 64 * 256 * 16);
  EXPECT_EQ(m.tensor_sms, 1);
  EXPECT_NEAR(m.tensor_busy_cycles, 2 * 32 * 4 * 128.0, 1.0);
}

// A narrow wgmma reads more operand bytes than it computes: N = 8 takes the A (2 KiB) and B
// (256 B) wavefronts of the SM's shared-memory data path, 18 at 128 B; from registers, A comes
// at tensor.register_a_bytes_per_cycle, and a warpgroup issues one each tensor.issue_cycles.
TEST(Tensor, NarrowWgmmaAreBoundByTheirOperands) {
  TimingConfig cfg;
  EXPECT_NEAR(cycles_each(mma_loop(8, 1), cfg), 18.0, 1.0);
  cfg.smem.banks = 64;  // "what if shared memory were twice as wide?"
  EXPECT_NEAR(cycles_each(mma_loop(8, 1), cfg), std::max(9.0, cfg.mma_issue_cycles), 1.0);
  TimingConfig regs;
  EXPECT_NEAR(cycles_each(mma_loop(8, 1, true), regs), regs.mma_issue_cycles, 1.0);
  EXPECT_NEAR(cycles_each(mma_loop(8, 2, true), regs) / 2, 2048 / regs.register_a_bytes_per_cycle, 1.0);
}

TEST(Tensor, MmaWaitWaitsForTheGroupsLatency) {
  TimingConfig cfg;
  json j = mma_loop(128, 1);
  j["params"]["COUNT"] = 1;
  j["ctas"][0]["threads"][0]["program"][2]["body"][2]["mma_wait"] = 0;
  const double each = cycles_each(j, cfg) * 4;  // one wgmma an iteration
  EXPECT_NEAR(each, 64 + cfg.mma_latency_cycles, 4.0);
}

TEST(Tensor, StampsOfAWarpgroupAreItsFirstWarps) {
  json j = mma_loop(64, 2);
  std::swap(j["ctas"][0]["threads"][0], j["ctas"][0]["threads"][1]);  // the producer first: warps 0, then 4..11
  const Measurement m = run_on(j, TimingConfig{});
  ASSERT_EQ(m.stamps.at(0).size(), 12u);
  EXPECT_TRUE(m.stamps[0][1].empty());
  EXPECT_EQ(m.stamps[0][4].size(), 2u);
  EXPECT_EQ(m.stamps[0][8].size(), 2u);
}

TEST(Tensor, ErrorsNameTheRule) {
  json plain = mma_loop(128, 1);
  plain["ctas"][0]["threads"][0].erase("warpgroup");
  EXPECT_NE(error_of(plain).find("runs in a warpgroup's thread"), std::string::npos) << error_of(plain);
  json misaligned = mma_loop(128, 1);
  mma_step(misaligned)["b"]["smem_offset"] = 16384 + 512;
  EXPECT_NE(error_of(misaligned).find("must be a multiple of 1024"), std::string::npos) << error_of(misaligned);
  json swizzle = mma_loop(128, 1);
  swizzle["params"]["COUNT"] = 2;
  mma_step(swizzle)["b"]["swizzle"] = "64b";
  EXPECT_NE(error_of(swizzle).find("disagrees with the 128b swizzle"), std::string::npos) << error_of(swizzle);
  json past = mma_loop(128, 1);
  past["params"]["COUNT"] = 5;
  EXPECT_NE(error_of(past).find("past the 128-byte span"), std::string::npos) << error_of(past);
  json type = mma_loop(128, 1);
  mma_step(type)["dtype"] = "tfloat32";
  mma_step(type)["shape"] = "m64n128k8";
  EXPECT_NE(error_of(type).find("elements of 4 bytes"), std::string::npos) << error_of(type);
  json shape = mma_loop(128, 1);
  mma_step(shape)["shape"] = "m64n120k32";
  EXPECT_NE(error_of(shape).find("shape must be m64nNk16 for float16"), std::string::npos) << error_of(shape);
  json unwaited = mma_loop(128, 1);
  unwaited["ctas"][0]["threads"][0]["program"].erase(0);
  EXPECT_NE(error_of(unwaited).find("reads a stage before waiting"), std::string::npos) << error_of(unwaited);
  json rows = mma_loop(128, 1);
  rows["tensors"]["B"]["box_dims"] = {32, 256};
  EXPECT_NE(error_of(rows).find("writes rows of 64"), std::string::npos) << error_of(rows);
  json group_wait = mma_loop(128, 1);
  group_wait["ctas"][0]["threads"][0]["program"][2]["body"][2]["mma_wait"] = 8;
  EXPECT_NE(error_of(group_wait).find("mma_wait allows 0..7"), std::string::npos) << error_of(group_wait);
  json read = mma_loop(128, 1);
  read["ctas"][0]["threads"][0]["program"][1] = json::parse(
      R"({"read": {"rows": 64, "cols": 64, "swizzle": "128b", "smem_offset": 0}})");
  EXPECT_NE(error_of(read).find("not a warpgroup's"), std::string::npos) << error_of(read);
}

// The tile width may come from a param ("n": E), as examples/gemm_hopper.json's BN does.
TEST(Tensor, TheWidthMayBeAParam) {
  json j = mma_loop(128, 1);
  j["params"]["BN"] = 64;
  mma_step(j).erase("shape");
  mma_step(j)["n"] = "BN * 2";
  Scenario s;
  build_scenario(parse_scenario(j, {{"BN", "32"}}), TimingConfig{}, s);
  const std::vector<Step> steps = materialize(s.experiment.ctas[0].threads[0]);
  const auto mma = std::find_if(steps.begin(), steps.end(), [](const Step& st) { return st.kind == Step::Kind::mma; });
  ASSERT_NE(mma, steps.end());
  EXPECT_EQ(mma->mma.n, 64);
  mma_step(j)["shape"] = "m64n64k16";
  EXPECT_NE(error_of(j).find("give 'shape' or 'n', not both"), std::string::npos) << error_of(j);
}

// The emitted program issues the wgmma the step names, with descriptors of its operands, and
// gives a producer's idle warps' registers to the warpgroups.
TEST(Tensor, TheEmitterWritesRealWgmma) {
  json j = mma_loop(256, 2);
  std::swap(j["ctas"][0]["threads"][0], j["ctas"][0]["threads"][1]);
  Scenario s;
  const ScenarioSpec spec = parse_scenario(j);
  build_scenario(spec, TimingConfig{}, s);
  const std::string cu = emit_cuda(spec, s, TimingConfig{});
  EXPECT_NE(cu.find("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"), std::string::npos);
  EXPECT_NE(cu.find("gmma_desc(smem + (uint32_t)(((long long)((int)v_w * 8192))) + (uint32_t)j * 32u, 1, 1024u)"), std::string::npos);
  EXPECT_NE(cu.find("setmaxnreg_inc<232>"), std::string::npos);
  EXPECT_NE(cu.find("constexpr int kWarps = 12;"), std::string::npos);
}

// B as it lies when N is contiguous (V of attention, a transposed B): K rows of 64 N a box, the
// two 64-column chunks of N = 128 `leading` bytes apart; wgmma reads it MN-major.
json mn_major_loop(int leading) {
  json j = mma_loop(128, 1);
  j["tensors"]["B"] = json::parse(R"({"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [128, 64],
      "global_strides": [256], "box_dims": [64, 64], "element_strides": [1, 1], "swizzle": "128b"})");
  json& producer = j["ctas"][0]["threads"][1]["program"];
  producer[0]["bytes"] = "bytes_A + 2 * bytes_B";
  producer[2]["smem_offset"] = 16384;
  producer.push_back(json::parse(R"({"load": "B", "coords": [64, 0], "barrier": 0})"));
  producer[3]["smem_offset"] = 16384 + leading;
  mma_step(j)["b"] = {{"smem_offset", 16384}, {"swizzle", "128b"}, {"major", "mn"}, {"leading_bytes", leading}};
  return j;
}

// An MN-major operand runs as a K-major one of the same bytes (the data path reads as many) and is
// emitted as PTX's transposed operand: imm-trans-b 1, K advanced 16 rows (2048 bytes) a wgmma, the
// descriptor's leading byte offset the distance between chunks (tb/gpu/wgmma_operand_check.cu
// checked such descriptors on the H100, bit-exact).
TEST(Tensor, MnMajorOperandsAreTransposedWgmma) {
  TimingConfig cfg;
  json j = mn_major_loop(16384);
  EXPECT_NEAR(cycles_each(j, cfg), cycles_each(mma_loop(128, 1), cfg), 1.0);
  Scenario s;
  const ScenarioSpec spec = parse_scenario(j);
  build_scenario(spec, cfg, s);
  const std::string cu = emit_cuda(spec, s, cfg);
  EXPECT_NE(cu.find("wgmma_m64n128k16_f16_ss_bt"), std::string::npos);
  EXPECT_NE(cu.find("p, 1, 1, 0, 1;"), std::string::npos);
  EXPECT_NE(cu.find("gmma_desc(smem + (uint32_t)(((long long)16384)) + (uint32_t)j * 2048u, 1, 1024u, (uint32_t)(((long long)16384)))"),
            std::string::npos);
}

TEST(Tensor, MnMajorErrorsNameTheRule) {
  json no_leading = mn_major_loop(8192);
  mma_step(no_leading)["b"].erase("leading_bytes");
  EXPECT_NE(error_of(no_leading).find("spans 2 chunks of 64 elements, so it needs leading_bytes"), std::string::npos)
      << error_of(no_leading);
  json k_leading = mma_loop(128, 1);
  mma_step(k_leading)["b"]["leading_bytes"] = 8192;
  EXPECT_NE(error_of(k_leading).find("leading_bytes is an MN-major operand's"), std::string::npos) << error_of(k_leading);
  json tf32 = mn_major_loop(8192);
  mma_step(tf32)["dtype"] = "tfloat32";
  mma_step(tf32)["shape"] = "m64n128k8";
  EXPECT_NE(error_of(tf32).find("needs a 16-bit type"), std::string::npos) << error_of(tf32);
  json major = mma_loop(128, 1);
  mma_step(major)["b"]["major"] = "m";
  EXPECT_NE(error_of(major).find("major must be \"k\""), std::string::npos) << error_of(major);
  json ragged = mn_major_loop(8192);
  mma_step(ragged)["shape"] = "m64n96k16";
  EXPECT_NE(error_of(ragged).find("not whole chunks"), std::string::npos) << error_of(ragged);
  json unfilled = mn_major_loop(16384);
  mma_step(unfilled)["a"] = "registers";
  unfilled["params"]["COUNT"] = 5;  // 80 K rows, of the 64 the boxes write
  EXPECT_NE(error_of(unfilled).find("reads shared memory [24576, 26624) that no load fills"), std::string::npos)
      << error_of(unfilled);
}

// A CTA group's `registers` (a thread's) limits how many CTAs an SM holds by its register file:
// two CTAs of 8 warps at 255 registers (8192 a warp) take one SM in turn, at 128 together.
TEST(Tensor, RegistersLimitTheCtasAnSmHolds) {
  json j = json::parse(R"({"name": "r", "tensors": {}, "ctas": [{"count": 2, "registers": 255, "threads": [
      {"name": "w", "warpgroup": true, "count": 2, "program": [{"delay": 20000}]}]}]})");
  TimingConfig cfg;
  cfg.sms = 1;
  EXPECT_GE(run_on(j, cfg).end_cycles, 40000);
  j["ctas"][0]["registers"] = 128;
  EXPECT_LT(run_on(j, cfg).end_cycles, 30000);
  j["ctas"][0]["registers"] = 300;
  EXPECT_NE(error_of(j).find("registers (a thread's"), std::string::npos) << error_of(j);
  Scenario s;
  j["ctas"][0]["registers"] = 255;
  const ScenarioSpec spec = parse_scenario(j);
  build_scenario(spec, cfg, s);
  EXPECT_NE(emit_cuda(spec, s, cfg).find("__launch_bounds__(kThreads, 1)"), std::string::npos);
  j["ctas"][0]["registers"] = 64;
  Scenario s2;
  const ScenarioSpec spec2 = parse_scenario(j);
  build_scenario(spec2, cfg, s2);
  EXPECT_NE(emit_cuda(spec2, s2, cfg).find("__launch_bounds__(kThreads, 4)"), std::string::npos);
}

}  // namespace
}  // namespace tmasim::sc
