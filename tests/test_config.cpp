// Configuration keys declared once (timing_config.hpp): the reader, `extends`, the effective
// configuration and the reference table all come from the same declarations.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "timing_config.hpp"
#include "tmasim/types.hpp"

namespace tmasim::sc {
namespace {

using nlohmann::json;

const std::string kConfigs = std::string(TMASIM_SOURCE_DIR) + "/configs/";

// A folder of configuration files for one test, removed after it.
class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tmasim_config_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const json& j) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << j.dump(2);
    return path;
  }
  std::string error_of(const std::string& path) {
    try {
      (void)TimingConfig::from_json_file(path);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  std::string dir_;
};

TEST_F(ConfigFiles, ExtendsReadsTheBaseFirstThenReplacesItsKeysSectionBySection) {
  const json base = json::parse(std::ifstream(kConfigs + "h100.json"));
  write("base.json", base);
  const std::string derived =
      write("derived.json", {{"extends", "base.json"}, {"memory", {{"l2_hit_cycles", 321}}}, {"smem", {{"banks", 64}}}});
  const TimingConfig a = TimingConfig::from_json(base, "base"), b = TimingConfig::from_json_file(derived);
  EXPECT_EQ(b.l2_hit_cycles, 321);
  EXPECT_EQ(b.smem.banks, 64);
  EXPECT_EQ(b.l2_miss_cycles, a.l2_miss_cycles);  // the same section's other keys stay the base's
  EXPECT_EQ(b.smem.size_bytes, a.smem.size_bytes);
  EXPECT_EQ(b.wait_cycles, a.wait_cycles);        // and other sections
  json expected = to_json(a);
  expected["memory"]["l2_hit_cycles"] = 321;
  expected["smem"]["banks"] = 64;
  EXPECT_EQ(to_json(b), expected);
}

TEST_F(ConfigFiles, AnExtendsCycleOrAMissingBaseIsAnErrorNamingTheFile) {
  write("a.json", {{"extends", "b.json"}});
  const std::string b = write("b.json", {{"extends", "a.json"}});
  EXPECT_NE(error_of(b).find("'extends' makes a cycle"), std::string::npos) << error_of(b);
  const std::string c = write("c.json", {{"extends", "missing.json"}});
  EXPECT_NE(error_of(c).find("missing.json"), std::string::npos) << error_of(c);
}

TEST(Config, TheRtlAguConfigurationIsTheDefaultButForItsOneKey) {
  json a = to_json(TimingConfig::from_json_file(kConfigs + "h100.json"));
  const json b = to_json(TimingConfig::from_json_file(kConfigs + "h100_rtl_agu.json"));
  EXPECT_EQ(a["tma"]["agu"], "cpp");
  EXPECT_EQ(b["tma"]["agu"], "rtl");
  a["tma"]["agu"] = "rtl";
  EXPECT_EQ(a, b);
}

TEST(Config, TheEffectiveConfigurationReadsBackAsItself) {
  const TimingConfig c = TimingConfig::from_json_file(kConfigs + "h100.json");
  const json once = to_json(c);
  EXPECT_EQ(to_json(TimingConfig::from_json(once, "effective")), once);
  EXPECT_EQ(once["sm_clock_mhz"], 1980);
  EXPECT_EQ(once["thread"]["wait_cycles"], 141.4);
}

TEST(Config, EveryDeclaredKeyIsInTheReferenceWithItsRange) {
  const std::string doc = config_reference_markdown();
  const json keys = to_json(TimingConfig{});
  int rows = 0;
  for (auto it = keys.begin(); it != keys.end(); ++it) {
    if (!it->is_object()) {
      EXPECT_NE(doc.find("| `" + it.key() + "` |"), std::string::npos) << it.key();
      ++rows;
      continue;
    }
    for (auto k = it->begin(); k != it->end(); ++k, ++rows)
      EXPECT_NE(doc.find("| `" + it.key() + "." + k.key() + "` |"), std::string::npos) << k.key();
  }
  EXPECT_GE(rows, 48);
  EXPECT_NE(doc.find("| `memory.l2_hit_cycles` | cycles | 200 | 0-10^6 | L2 hit latency |"), std::string::npos);
}

TEST(Config, ErrorsNameTheRuleAndSuggestTheNearestKey) {
  json j = json::parse(std::ifstream(kConfigs + "h100.json"));
  auto error = [](const json& c) {
    try {
      (void)TimingConfig::from_json(c, "configuration 'x.json'");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  json misspelt = j;
  misspelt["memory"]["l2_hit_cyles"] = 1;
  EXPECT_EQ(error(misspelt), "configuration 'x.json'.memory: unknown key 'l2_hit_cyles' (did you mean 'l2_hit_cycles'?)");
  json far = j;
  far["memory"]["bogus"] = 1;
  EXPECT_EQ(error(far), "configuration 'x.json'.memory: unknown key 'bogus'");
  json range = j;
  range["gpu"] = {{"sms", 0}};
  EXPECT_EQ(error(range), "configuration 'x.json'.gpu: field 'sms' = 0 is out of range 1..4096");
  json choice = j;
  choice["tma"]["agu"] = "verilog";
  EXPECT_EQ(error(choice), "configuration 'x.json'.tma: agu must be one of cpp|rtl, got \"verilog\"");
  json required = j;
  required["smem"].erase("banks");
  EXPECT_EQ(error(required), "configuration 'x.json'.smem: missing field 'banks'");
  json paths = j;
  paths["memory"]["gpc_path_of_gpc"] = "0,0,0,0,1,2,3,4,0,5,6";  // one GPC short
  EXPECT_EQ(error(paths), "configuration 'x.json'.memory: gpc_path_of_gpc lists 11 GPCs, gpu.gpc_sms 12");
  paths["memory"]["gpc_path_of_gpc"] = "0,0,0,0,1,2,3,4,0,5,6,x";
  EXPECT_EQ(error(paths), "configuration 'x.json'.memory: gpc_path_of_gpc must list each GPC's path as a number 0-999, "
                          "comma-separated: 'x'");
  json nested = j;
  nested["extends"] = "h100.json";  // only a file's reader resolves it
  EXPECT_NE(error(nested).find("extends"), std::string::npos);
}

TEST(Config, ASetValueIsParsedWithTheDepthLimit) {
  json j = json::parse(std::ifstream(kConfigs + "h100.json"));
  const std::string deep(100000, '[');
  apply_config_overrides(j, {{"memory.l2_hit_cycles", deep}});  // a string, not a stack overflow
  EXPECT_TRUE(j["memory"]["l2_hit_cycles"].is_string());
  EXPECT_THROW((void)TimingConfig::from_json(j, "x"), Error);
}

}  // namespace
}  // namespace tmasim::sc
