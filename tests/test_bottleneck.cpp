// What limits a run (issue 32): each thread's time split by what its steps are sums to its time
// in its CTA, and the verdict names the role a program makes the bottleneck.
#include <gtest/gtest.h>

#include <numeric>

#include "bottleneck.hpp"
#include "scenario_fixtures.hpp"

namespace tmasim::sc {
namespace {

TimingConfig h100() { return TimingConfig::from_json_file(std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json"); }

TEST(Bottleneck, EachThreadsSplitSumsToItsTimeInItsCta) {
  const Measurement m = run_on(pipeline(), h100());
  ASSERT_EQ(m.thread_split.size(), 2u);
  for (size_t c = 0; c < m.thread_split.size(); ++c) {
    ASSERT_EQ(m.thread_split[c].size(), 2u);
    for (size_t t = 0; t < 2; ++t) {
      const auto& split = m.thread_split[c][t];
      ASSERT_EQ(split.size(), static_cast<size_t>(StepTime::count));
      const double sum = std::accumulate(split.begin(), split.end(), 0.0);
      EXPECT_NEAR(sum, m.thread_end_cycles[c][t] - m.cta_start_cycles[c], 1e-6) << "CTA " << c << " thread " << t;
    }
  }
}

// The fixture's pipeline with the consumer's read made slow ("cycles") or the producer's load.
std::string verdict_of(const char* slow_step) {
  json j = pipeline();
  j["params"]["KT"] = 16;
  auto& producer = j["ctas"][0]["threads"][0]["program"][0]["body"];
  auto& consumer = j["ctas"][0]["threads"][1]["program"][0]["body"];
  if (std::string(slow_step) == "read") consumer[1]["cycles"] = 5000;
  else producer[2]["cycles"] = 5000;
  const TimingConfig cfg = h100();
  return cli::bottleneck(run_on(j, cfg), cfg).verdict;
}

TEST(Bottleneck, TheVerdictNamesTheRoleThatLimits) {
  EXPECT_EQ(verdict_of("read").rfind("consumer-bound: read", 0), 0u) << verdict_of("read");
  EXPECT_EQ(verdict_of("load").rfind("producer-bound: issue", 0), 0u) << verdict_of("load");
}

}  // namespace
}  // namespace tmasim::sc
