// Scenarios the model's tests share: a two-stage pipeline of one producer and one consumer, and
// a stream of loads per CTA; and how a test builds and runs one.
#pragma once
#include <string>

#include "child_run.hpp"
#include "scenario.hpp"
#include "tmasim/types.hpp"

namespace tmasim::sc {

using nlohmann::json;

// One CTA: a producer loads KT tiles through two stages; a consumer waits and reads them.
inline json pipeline() {
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

inline std::string error_of(const json& j, const ParamOverrides& set = {}, const TimingConfig& cfg = {}) {
  try {
    Scenario s;
    build_scenario(parse_scenario(j, set), cfg, s);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A stream of loads per CTA through four stages of 16 KiB, refilled as they land: `ctas` CTAs
// of `loads` loads (a multiple of 4) from rows of their own, optionally all pinned to SM 0.
inline json load_stream(int ctas, int loads, bool pinned = false) {
  json j = json::parse(R"J({
    "name": "s", "params": {"LOADS": 8},
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 65536],
                      "global_strides": [128], "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"}},
    "ctas": [{"count": 2, "barriers": [1, 1, 1, 1], "program": [
      {"loop": "t", "count": "LOADS", "body": [
        {"if": "t >= 4", "wait": "t % 4", "phase": "t / 4 - 1"},
        {"arrive": "t % 4", "bytes": "bytes_T"},
        {"load": "T", "coords": [0, "128 * (cta * LOADS + t)"], "smem_offset": "(t % 4) * 16384", "barrier": "t % 4"}]},
      {"loop": "s", "count": 4, "body": [{"wait": "s", "phase": "LOADS / 4 - 1"}]}]}]})J");
  j["params"]["LOADS"] = loads;
  j["ctas"][0]["count"] = ctas;
  if (pinned) j["ctas"][0]["sm"] = 0;
  return j;
}

// What a run refuses once it has built: "" when it finishes.
inline std::string run_error_of(const json& j) {
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  try {
    run_in_child(s.experiment);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline Measurement run_on(const json& j, const TimingConfig& cfg) {
  Scenario s;
  build_scenario(parse_scenario(j), cfg, s);
  return run_in_child(s.experiment);
}

}  // namespace tmasim::sc
