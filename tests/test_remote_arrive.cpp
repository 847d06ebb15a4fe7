// Arrivals on another CTA's barrier (issue 30): the release scope a scenario chooses, what each
// costs the arriving thread, the time the arrival takes to reach the peer, and the DRAM's rate
// per SM cycle when the SM clock is not the one the rates were stated at. Judged on the H100 by
// tests/golden/arrive_scope_probe (ctests scenario_arrive_scope_probe_*); here, the mechanisms.
#include <gtest/gtest.h>

#include <string>

#include "cuda_emit.hpp"
#include "scenario_fixtures.hpp"

namespace tmasim::sc {
namespace {

TimingConfig h100() { return TimingConfig::from_json_file(std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json"); }

// A cluster of two CTAs; in each, one thread arrives N times on barrier 0 of rank `target`
// between two stamps.
json arrivals(const std::string& target, const std::string& scope, int n = 16) {
  json j = json::parse(R"({
    "name": "arrivals", "params": {"N": 16}, "tensors": {},
    "ctas": [{"count": 2, "cluster_size": 2, "barriers": [16], "program": [
      {"stamp": "a"}, {"loop": "k", "count": "N", "body": []}, {"stamp": "b"},
      {"wait": 0, "phase": 0}, {"stamp": "c"}]}]})");
  json arrive = {{"arrive", 0}, {"cta", target}};
  if (!scope.empty()) arrive["scope"] = scope;
  j["params"]["N"] = n;
  j["ctas"][0]["barriers"][0] = n;
  j["ctas"][0]["program"][1]["body"].push_back(arrive);
  return j;
}

double stamps_apart(const Measurement& m, int from, int to) {
  const auto& s = m.stamps.at(0).at(0);
  return s.at(to) - s.at(from);
}

TEST(RemoteArrive, ScopeChoosesTheArrivesCost) {
  TimingConfig cfg = h100();
  cfg.stamp_cycles = 0;
  cfg.loop_iteration_cycles = 0;  // the arrives' cost alone between the stamps
  cfg.remote_arrive_cycles = 6;
  cfg.cluster_arrive_cycles = 700;
  cfg.cluster_arrive_waits_for_reads = false;
  EXPECT_DOUBLE_EQ(stamps_apart(run_on(arrivals("cluster_rank", "cta"), cfg), 0, 1), 16 * 6);
  EXPECT_DOUBLE_EQ(stamps_apart(run_on(arrivals("cluster_rank", "cluster"), cfg), 0, 1), 16 * 700);
  EXPECT_DOUBLE_EQ(stamps_apart(run_on(arrivals("cluster_rank", ""), cfg), 0, 1), 16 * 700);  // the default
}

TEST(RemoteArrive, AnArrivalReachesAPeerItsLatencyLater) {
  TimingConfig cfg = h100();
  cfg.stamp_cycles = 0;
  cfg.remote_arrive_cycles = 0;
  cfg.wait_cycles = 0;
  cfg.straight_wait_cycles = 0;  // the waits are straight-line code
  cfg.wait_wakeup_cycles = 0;
  cfg.remote_arrive_latency_cycles = 500;
  // To its own rank: the barrier completes as the last arrive is made.
  EXPECT_DOUBLE_EQ(stamps_apart(run_on(arrivals("cluster_rank", "cta"), cfg), 1, 2), 0);
  // To the peer: the last arrival lands 500 cycles after it was made.
  EXPECT_DOUBLE_EQ(stamps_apart(run_on(arrivals("1 - cluster_rank", "cta"), cfg), 1, 2), 500);
}

TEST(RemoteArrive, ScopeIsCheckedAndEmitted) {
  json bad = arrivals("cluster_rank", "gpu");
  EXPECT_NE(error_of(bad).find("'scope' must be \"cta\" or \"cluster\""), std::string::npos);
  json local = arrivals("cluster_rank", "cta");
  local["ctas"][0]["program"][1]["body"][0].erase("cta");
  EXPECT_NE(error_of(local).find("'scope' applies to an arrive addressed by cluster rank"), std::string::npos);

  for (const std::string scope : {"cta", "cluster"}) {
    const ScenarioSpec spec = parse_scenario(arrivals("1 - cluster_rank", scope));
    Scenario built;
    build_scenario(spec, h100(), built);
    const std::string cuda = emit_cuda(spec, built, h100());
    const bool cta_scope = cuda.find("(uint32_t)(((long long)0)), true);") != std::string::npos;
    EXPECT_EQ(cta_scope, scope == "cta") << scope;
    EXPECT_NE(cuda.find("mbar_arrive_remote(peer_address("), std::string::npos);
  }
}

TEST(DramClock, TheDramsRatePerCycleFollowsTheSmClock) {
  TimingConfig cfg = h100();
  cfg.dram_rates_at_mhz = 1980;
  cfg.sm_clock_mhz = 1980;
  EXPECT_DOUBLE_EQ(cfg.dram_read_bytes_per_cycle(), cfg.hbm_bytes_per_cycle);
  cfg.sm_clock_mhz = 1584;  // 0.8x: the DRAM moves 1.25x as many bytes per SM cycle
  EXPECT_DOUBLE_EQ(cfg.dram_read_bytes_per_cycle(), cfg.hbm_bytes_per_cycle * 1.25);
  EXPECT_DOUBLE_EQ(cfg.dram_write_bytes_per_cycle(), cfg.hbm_write_bytes_per_cycle * 1.25);
  cfg.dram_rates_at_mhz = 0;  // stated at whatever clock the SM runs
  EXPECT_DOUBLE_EQ(cfg.dram_read_bytes_per_cycle(), cfg.hbm_bytes_per_cycle);

  // A stream from DRAM on many SMs: fewer cycles at a lower SM clock, as many as the DRAM's rate gives.
  TimingConfig fast = h100(), slow = h100();
  slow.set_sm_clock_mhz(1584);
  const json stream = load_stream(32, 16);  // 8 MiB from DRAM, more than the DRAM gives 32 SMs
  const double at_1980 = run_on(stream, fast).end_cycles, at_1584 = run_on(stream, slow).end_cycles;
  EXPECT_LT(at_1584, at_1980 * 0.9);
  EXPECT_GT(at_1584, at_1980 * 0.75);
}

}  // namespace
}  // namespace tmasim::sc
