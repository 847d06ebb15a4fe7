// The time of bank-conflicted shared-memory reads (issue 29: conflict-bound consumers), judged
// against tests/golden/smem_probe: one warp's conflicted ldmatrix.x4 takes 2 cycles a wavefront
// (its return path, smem.warp_wavefront_cycles), four warps share the SM's data path at 1.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "scenario_fixtures.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::sc {
namespace {

// The probe's cycles per ldmatrix.x4 for one warp, by row stride (16: conflict-free, 128: 8-way)
// and warps, from the 1024-access runs.
std::map<std::pair<int, int>, double> probe_ldmatrix_cycles() {
  std::map<std::pair<int, int>, double> out;
  for_each_json_line(std::string(TMASIM_SOURCE_DIR) + "/tests/golden/smem_probe/smem_probe.jsonl.gz",
                     [&](const json& r, int) {
    if (r.value("op", "") != "ldmatrix_x4" || r.at("n").get<int>() != 1024) return;
    out[{r.at("param").get<int>(), r.at("warps").get<int>()}] = r.at("median_warp_cycles").get<double>() / 1024;
  });
  return out;
}

// `warps` warps each read a 64x64 fp16 tile (16 ldmatrix.x4) R times, unswizzled (8-way) or 128B
// swizzled (conflict-free); the model's cycles per ldmatrix.x4 of one warp.
double model_ldmatrix_cycles(const std::string& swizzle, int warps, const TimingConfig& cfg) {
  json j = json::parse(R"({
    "name": "reads", "params": {"R": 64},
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                      "global_strides": [128], "box_dims": [64, 64], "element_strides": [1, 1]}},
    "ctas": [{"count": 1, "barriers": [1], "threads": [
      {"name": "load", "program": [{"arrive": 0, "bytes": "bytes_T"}, {"load": "T", "coords": [0, 0], "barrier": 0}]},
      {"name": "readers", "count": 1, "program": [{"wait": 0, "phase": 0}, {"stamp": "a"},
        {"loop": "r", "count": "R", "body": [{"read": {"rows": 64, "cols": 64, "swizzle": "none"}}]}, {"stamp": "b"}]}]}]})");
  j["tensors"]["T"]["swizzle"] = swizzle;
  j["ctas"][0]["threads"][1]["count"] = warps;
  j["ctas"][0]["threads"][1]["program"][2]["body"][0]["read"]["swizzle"] = swizzle;
  const Measurement m = run_on(j, cfg);
  const auto& stamps = m.stamps.at(0).at(1);
  return (stamps.at(1) - stamps.at(0)) / (64.0 * 16);
}

TEST(SmemTiming, OneWarpsConflictedReadsTakeTwoCyclesAWavefrontAsOnTheH100) {
  const auto probe = probe_ldmatrix_cycles();
  const TimingConfig h100 = TimingConfig::from_json_file(std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json");
  ASSERT_EQ(h100.smem.warp_wavefront_cycles, 2);
  // One warp, 8-way (32 wavefronts): the H100 70.3 cycles an ldmatrix.x4, 2 a wavefront.
  const double one = model_ldmatrix_cycles("none", 1, h100);
  EXPECT_NEAR(one / probe.at({128, 1}), 1.0, 0.10) << one << " against " << probe.at({128, 1});
  std::printf("one warp: model %.1f, H100 %.1f; four warps: ", one, probe.at({128, 1}));
  // Four warps, 8-way: the SM's data path, 1 a wavefront for all four (131 an ldmatrix a warp).
  const double four = model_ldmatrix_cycles("none", 4, h100);
  EXPECT_NEAR(four / probe.at({128, 4}), 1.0, 0.10) << four << " against " << probe.at({128, 4});
  std::printf("model %.1f, H100 %.1f cycles an ldmatrix.x4 a warp\n", four, probe.at({128, 4}));
  // Without the warp's return path one warp's conflicted read took half the H100's time.
  TimingConfig off = h100;
  off.smem.warp_wavefront_cycles = 0;
  EXPECT_LT(model_ldmatrix_cycles("none", 1, off) / probe.at({128, 1}), 0.6);
  // Conflict-free reads are the warp's issue, not the path: unchanged by it.
  EXPECT_DOUBLE_EQ(model_ldmatrix_cycles("128b", 1, h100), model_ldmatrix_cycles("128b", 1, off));
}

}  // namespace
}  // namespace tmasim::sc
