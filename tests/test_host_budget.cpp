// Issue 33: a run the host cannot hold is refused before it starts, with the numbers (4096 CTAs of
// 32 warps, within the scenario limits, died of bad_alloc in the child after a minute: every
// SystemC thread's stack is a mapping of its own, and vm.max_map_count is 65530 by default).
#include <gtest/gtest.h>

#include <string>

#include "host_budget.hpp"
#include "scenario.hpp"

namespace tmasim::sc {
namespace {

using nlohmann::json;

Scenario grid(int ctas, int warps, bool move_bytes) {
  const json j = {{"name", "grid"}, {"tensors", json::object()},
                  {"ctas", {{{"count", ctas}, {"threads", {{{"name", "w"}, {"count", warps}, {"program", {{{"delay", 10}}}}}}}}}}};
  TimingConfig cfg;
  cfg.smem.move_bytes = move_bytes;
  Scenario s;
  build_scenario(parse_scenario(j), cfg, s);
  return s;
}

std::string refusal(const RunFootprint& f, const HostLimits& h) {
  try {
    check_host_can_hold(f, h);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(HostBudget, CountsAThreadPerWarpAndATmaUnitPerCta) {
  const RunFootprint f = footprint_of(grid(4096, 32, false).experiment);
  EXPECT_EQ(f.processes, 4096u * 32 + 4096 + 1);
  EXPECT_EQ(f.steps, 4096u * 32);
  EXPECT_EQ(f.tma_ops, 0u);
  EXPECT_FALSE(f.moves_bytes);
}

TEST(HostBudget, MoreThreadsThanTheHostMapsAreRefused) {
  const HostLimits debian_default{65530, uint64_t(64) << 30};
  const std::string why = refusal(footprint_of(grid(4096, 32, false).experiment), debian_default);
  EXPECT_NE(why.find("135169 SystemC threads"), std::string::npos) << why;
  EXPECT_NE(why.find("vm.max_map_count"), std::string::npos) << why;
  EXPECT_EQ(refusal(footprint_of(grid(1024, 32, false).experiment), debian_default), "");
}

TEST(HostBudget, MoreMemoryThanAvailableIsRefused) {
  const RunFootprint f = footprint_of(grid(4096, 1, true).experiment);  // 4096 CTAs' shared memory
  EXPECT_GT(f.memory_bytes, uint64_t(4096) * 200 * 1024);
  const std::string why = refusal(f, HostLimits{1 << 20, uint64_t(512) << 20});
  EXPECT_NE(why.find("available"), std::string::npos) << why;
  EXPECT_NE(why.find("--timing-only"), std::string::npos) << why;
  EXPECT_EQ(refusal(footprint_of(grid(4096, 1, false).experiment), HostLimits{1 << 20, uint64_t(512) << 20}), "");
}

TEST(HostBudget, TheEstimateGrowsWithTheWork) {
  const double small = estimated_cpu_seconds(footprint_of(grid(64, 4, false).experiment));
  const double large = estimated_cpu_seconds(footprint_of(grid(4096, 4, false).experiment));
  EXPECT_GT(small, 0);
  EXPECT_NEAR(large / small, 64.0, 2.0);
}

}  // namespace
}  // namespace tmasim::sc
