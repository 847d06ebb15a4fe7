// Malformed golden input gives clear errors, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "tmasim/golden.hpp"

using namespace tmasim;
using nlohmann::json;

namespace {
json good_case() {
  return json::parse(R"({"name":"c","op":"load","encode_result":"CUDA_SUCCESS",
    "tensor_map":{"mode":"tiled","dtype":"uint8","rank":2,"global_dims":[64,8],"global_strides":[64],
                  "box_dims":[16,2],"element_strides":[1,1],"interleave":"none","swizzle":"none",
                  "l2_promotion":"none","oob_fill":"zero"},
    "global_base_offset":0,"coords":[0,0],"smem_offset":0,"tx_bytes":32,"smem_window":64,"poison":165})");
}
}  // namespace

TEST(GoldenInput, WrongTypeNamesTheField) {
  json c = good_case();
  c["tensor_map"]["rank"] = "two";
  CaseResult r = judge_case(c);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.detail.find("rank"), std::string::npos);
}

TEST(GoldenInput, MissingFieldNamesTheField) {
  json c = good_case();
  c["tensor_map"].erase("box_dims");
  CaseResult r = judge_case(c);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.detail.find("box_dims"), std::string::npos);
}

TEST(GoldenInput, AbsurdSizesAreRejectedNotAllocated) {
  json c = good_case();
  c["smem_window"] = int64_t(1) << 40;
  EXPECT_EQ(judge_case(c).verdict, Verdict::fail);
  c = good_case();
  c["tensor_map"]["global_dims"] = {int64_t(1) << 32, int64_t(1) << 32};
  c["tensor_map"]["global_strides"] = {int64_t(1) << 33};
  EXPECT_EQ(judge_case(c).verdict, Verdict::fail);
}

TEST(GoldenInput, BadHexIsAnError) {
  json c = good_case();
  c["expected_smem_hex"] = "zz";
  EXPECT_EQ(judge_case(c).verdict, Verdict::fail);
}

TEST(GoldenInput, NotAnObject) { EXPECT_EQ(judge_case(json::array()).verdict, Verdict::fail); }

TEST(GoldenInput, TruncatedFileReportsTheLine) {
  const char* path = "truncated_case.jsonl";
  {
    std::ofstream f(path);
    f << good_case().dump() << "\n" << good_case().dump().substr(0, 40);
  }
  int seen = 0;
  try {
    for_each_json_line(path, [&](const json&, int) { ++seen; });
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(":2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(seen, 1);
  std::remove(path);
}

TEST(GoldenInput, MissingFileIsAnError) {
  EXPECT_THROW(for_each_json_line("no/such/file.jsonl", [](const json&, int) {}), Error);
}
