// The scenario language: strict parsing, parameters and --set, the read checks, deadlock
// reports, and the CUDA emitter's output for the same tree.
#include <map>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "child_run.hpp"
#include "cuda_emit.hpp"
#include "emitted_code.hpp"
#include "scenario_fixtures.hpp"
#include "scenario.hpp"
#include "tmasim/expression.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::sc {
namespace {

using nlohmann::json;

size_t steps_of(const Scenario& s) {
  size_t n = 0;
  for (const CtaProgram& c : s.experiment.ctas)
    for (const ThreadProgram& t : c.threads) n += materialize(t).size();
  return n;
}

TEST(Scenario, BuildsThreadsBarriersAndSteps) {
  Scenario s;
  build_scenario(parse_scenario(pipeline()), TimingConfig{}, s);
  ASSERT_EQ(s.experiment.ctas.size(), 2u);
  const CtaProgram& c = s.experiment.ctas[1];
  ASSERT_EQ(c.threads.size(), 2u);
  EXPECT_EQ(c.threads[0].name, "producer");
  EXPECT_EQ(c.barrier_counts, (std::vector<int>{1, 1, 1, 1}));
  // Producer: 4 arrivals + 4 loads + 2 waits (k >= 2); consumer: 3 steps per tile.
  const std::vector<Step> producer = materialize(c.threads[0]), consumer = materialize(c.threads[1]);
  EXPECT_EQ(producer.size(), 10u);
  EXPECT_EQ(consumer.size(), 12u);
  EXPECT_EQ(producer[9].ins.coords, (std::vector<int32_t>{0, 192}));
  // Consumer steps per tile: wait, read, arrive. Tile 1 waits for phase 0 of barrier 1
  // (parity 0), tile 2 for phase 1 of barrier 0 (parity 1).
  EXPECT_EQ(consumer[3].parity, 0);
  EXPECT_EQ(consumer[3].barrier, 1);
  EXPECT_EQ(consumer[6].parity, 1);
  EXPECT_EQ(consumer[6].barrier, 0);
  // What the build's walk counted is what a walk yields.
  EXPECT_EQ(c.threads[0].generated.steps, 10u);
  EXPECT_EQ(c.threads[0].generated.tma_ops, 4u);
  EXPECT_EQ(c.threads[1].generated.steps, 12u);
  EXPECT_TRUE(c.threads[1].generated.has(Step::Kind::read));
  EXPECT_FALSE(c.threads[0].generated.has(Step::Kind::read));
}

// A timing-only run needs global memory's extent, not its bytes: it allocates none, and runs to
// the cycles of the run that moves them.
TEST(Scenario, ATimingOnlyBuildAllocatesNoGlobalBytes) {
  TimingConfig bytes, timing;
  timing.smem.move_bytes = false;
  Scenario a, b;
  build_scenario(parse_scenario(pipeline()), bytes, a);
  build_scenario(parse_scenario(pipeline()), timing, b);
  EXPECT_EQ(a.global.size(), 64u * 1024 * 2);  // T: 64 x 1024 fp16
  EXPECT_TRUE(b.global.empty());
  EXPECT_EQ(b.experiment.global_bytes, a.global.size());
  EXPECT_EQ(run_in_child(a.experiment).end_cycles, run_in_child(b.experiment).end_cycles);
}

TEST(Scenario, SetOverridesAParameter) {
  Scenario s;
  build_scenario(parse_scenario(pipeline(), parse_overrides({"KT=8"})), TimingConfig{}, s);
  EXPECT_EQ(steps_of(s), 2u * (8 + 8 + 6 + 3 * 8));
  EXPECT_NE(error_of(pipeline(), {{"KTT", "8"}}).find("no parameter 'KTT'"), std::string::npos);
  EXPECT_THROW(parse_overrides({"KT"}), Error);
  EXPECT_THROW(parse_overrides({"KT=(1"}), Error);
}

TEST(Scenario, UnknownKeysAreErrorsNamingTheStep) {
  json j = pipeline();
  j["ctas"][0]["threads"][0]["program"][0]["body"][2]["smem_ofset"] = 0;
  const std::string e = error_of(j);
  EXPECT_NE(e.find("ctas[0].threads[0].program[0].body[2]"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key 'smem_ofset'"), std::string::npos) << e;
  json top = pipeline();
  top["tensor"] = json::object();
  EXPECT_NE(error_of(top).find("unknown key 'tensor'"), std::string::npos);
  json two = pipeline();
  two["ctas"][0]["threads"][1]["program"][0]["body"][1]["wait"] = 0;
  EXPECT_NE(error_of(two).find("one kind"), std::string::npos);
}

TEST(Scenario, ReadBeforeAnyWaitIsAnError) {
  json j = pipeline();
  auto& body = j["ctas"][0]["threads"][1]["program"][0]["body"];
  body.erase(body.begin());  // no wait before the read
  const std::string e = error_of(j);
  EXPECT_NE(e.find("before waiting"), std::string::npos) << e;
  EXPECT_NE(e.find("thread 'consumer'"), std::string::npos) << e;
}

TEST(Scenario, ReadWithAnotherSwizzleThanTheLoadIsAnError) {
  json j = pipeline();
  j["ctas"][0]["threads"][1]["program"][0]["body"][1]["read"]["swizzle"] = "64b";
  const std::string e = error_of(j);
  EXPECT_NE(e.find("disagrees with the 128b swizzle"), std::string::npos) << e;
}

TEST(Scenario, ReadOfMemoryNoLoadFillsIsAnError) {
  json j = pipeline();
  j["ctas"][0]["threads"][1]["program"][0]["body"][1]["read"]["smem_offset"] = 65536;
  EXPECT_NE(error_of(j).find("no load fills"), std::string::npos);
}

// The read checks look at each distinct read once (its step, what it reads, the barriers waited on
// by then): the refusal still names the first step that fails, here a late one of the second CTA.
TEST(Scenario, TheReadRefusedIsTheFirstThatFailsAmongRepeatedReads) {
  json j = pipeline();
  j["params"]["KT"] = 8;
  j["ctas"][0]["threads"][1]["program"][0]["body"][1]["read"]["smem_offset"] = "(k % 2) * 8192 + (cta == 1 && k == 6) * 65536";
  const std::string e = error_of(j);
  EXPECT_NE(e.find("(CTA 1, thread 'consumer')"), std::string::npos) << e;
  EXPECT_NE(e.find("reads shared memory [65536, 73728) that no load fills"), std::string::npos) << e;
}

// Past the distinct reads the build keeps (2^18 of them), a thread's reads are checked on a walk of
// their own: the same refusal, of the same step.
TEST(Scenario, ReadsBeyondTheKeptOnesAreCheckedAllTheSame) {
  json j = json::parse(R"({
    "name": "many-reads", "params": {"N": 130559},
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [256, 256],
                      "global_strides": [512], "box_dims": [256, 256], "element_strides": [1, 1], "swizzle": "none"}},
    "ctas": [{"count": 1, "barriers": [1], "threads": [
      {"name": "producer", "program": [
        {"arrive": 0, "bytes": "bytes_T"},
        {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0}]},
      {"name": "consumer", "program": [
        {"wait": 0, "parity": 0},
        {"loop": "k", "count": "N", "body": [
          {"read": {"rows": 16, "cols": 16, "swizzle": "none", "smem_offset": "k"}},
          {"read": {"rows": 16, "cols": 16, "swizzle": "none", "smem_offset": "k + 1"}},
          {"read": {"rows": 16, "cols": 16, "swizzle": "none", "smem_offset": "k + 2"}}]},
        {"read": {"rows": 16, "cols": 16, "swizzle": "none", "smem_offset": 140000}}]}]}]})");
  const std::string e = error_of(j);
  EXPECT_NE(e.find("ctas[0].threads[1].program[2] (CTA 0, thread 'consumer')"), std::string::npos) << e;
  EXPECT_NE(e.find("reads shared memory [140000, 140512) that no load fills"), std::string::npos) << e;
  j["ctas"][0]["threads"][1]["program"].erase(2);
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  EXPECT_EQ(s.smem_bytes, 131072);  // the box; the last read ends with it (130558 + 2 + 512)
}

TEST(Scenario, OutOfRangeValuesNameTheField) {
  json j = pipeline();
  j["ctas"][0]["threads"][0]["program"][0]["body"][2]["barrier"] = 9;
  EXPECT_NE(error_of(j).find("barrier 9 out of range 0..3"), std::string::npos);
  json c = pipeline();
  c["ctas"][0]["cluster_size"] = 3;
  EXPECT_NE(error_of(c).find("cluster_size must be 1, 2, 4 or 8"), std::string::npos);
  json l = pipeline();
  l["params"]["KT"] = 2000000;
  EXPECT_NE(error_of(l).find("loop count 2000000 out of range"), std::string::npos);
}

TEST(Scenario, DeadlockNamesCtaThreadBarrierPhaseAndCycle) {
  json j = pipeline();
  // The consumer also waits for a third phase of barrier 0 that the producer never starts.
  j["ctas"][0]["threads"][1]["program"].push_back(json::parse(R"({"wait": 0, "phase": 2})"));
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  try {
    run_in_child(s.experiment);
    FAIL() << "a deadlocked scenario finished";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("deadlock at cycle "), std::string::npos) << m;
    EXPECT_NE(m.find("CTA 0 thread 'consumer' waits on barrier 0 for phase 2"), std::string::npos) << m;
    EXPECT_NE(m.find("CTA 1 thread 'consumer'"), std::string::npos) << m;
    EXPECT_NE(m.find("at ctas[0].threads[1].program[1]"), std::string::npos) << m;
  }
}

TEST(Scenario, FinishedRunReportsEveryCtaAndThread) {
  Scenario s;
  build_scenario(parse_scenario(pipeline()), TimingConfig{}, s);
  const Measurement m = run_in_child(s.experiment);
  ASSERT_EQ(m.cta_end_cycles.size(), 2u);
  ASSERT_EQ(m.thread_end_cycles[0].size(), 2u);
  EXPECT_GT(m.cta_end_cycles[0], 0);
  EXPECT_EQ(m.end_cycles, std::max(m.cta_end_cycles[0], m.cta_end_cycles[1]));
  EXPECT_EQ(m.ops, 8u);
  EXPECT_EQ(m.read_instructions, 2u * 4 * 16);
}

// A prefetch whose rows start left of the tensor brings their in-bound part into L2: the load
// of the same box that follows finds it there (the traversal's in-bound window, as for loads).
TEST(Scenario, PrefetchStartingOutOfBoundsWarmsTheInBoundPart) {
  const json j = json::parse(R"({
    "name": "p",
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                      "global_strides": [128], "box_dims": [64, 16], "element_strides": [1, 1]}},
    "ctas": [{"count": 1, "barriers": [1], "program": [
      {"prefetch": "T", "coords": [-32, 0]},
      {"delay": 5000},
      {"arrive": 0, "bytes": "bytes_T"},
      {"load": "T", "coords": [-32, 0], "smem_offset": 0, "barrier": 0},
      {"wait": 0, "phase": 0}]}]})");
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  const Measurement m = run_in_child(s.experiment);
  EXPECT_EQ(m.l2_misses, 16u);  // the prefetch's 16 rows of 64 in-bound bytes
  EXPECT_EQ(m.l2_hits, 16u);    // the load's rows, all resident
}

TEST(Scenario, MbarrierCountsArrivalsAndTransactions) {
  // Two consumers must both arrive before the producer's wait on barrier 2 completes.
  json j = pipeline();
  j["ctas"][0]["barriers"] = {1, 1, 2, 2};
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  EXPECT_THROW(run_in_child(s.experiment), Error);  // one consumer: the producer waits forever
  j["ctas"][0]["threads"][1]["count"] = 2;
  j["ctas"][0]["threads"][1]["var"] = "w";
  Scenario two;
  build_scenario(parse_scenario(j), TimingConfig{}, two);
  EXPECT_EQ(run_in_child(two.experiment).ops, 8u);
}

// A CTA must not end with bulk copies into its shared memory unobserved: on the GPU such a program
// did not finish (tests/golden/release_load_probe, run 4). The last phase to take bytes is what
// counts, whether or not its box has landed by the end.
TEST(Scenario, ACtaEndingWithLoadsNoThreadWaitsForIsRefused) {
  EXPECT_EQ(run_error_of(load_stream(1, 8)), "");
  json armed = load_stream(1, 8);  // an expect_tx no load answers leaves no copy in flight
  armed["ctas"][0]["barriers"].push_back(1);
  armed["ctas"][0]["program"].push_back(json::parse(R"({"arrive": 4, "bytes": 16384})"));
  EXPECT_EQ(run_error_of(armed), "");
  json three = load_stream(1, 8);
  three["ctas"][0]["program"][1]["count"] = 3;  // the final waits leave out barrier 3
  const std::string e = run_error_of(three);
  EXPECT_NE(e.find("CTA 0 ends with loads into its shared memory that no thread waits for: phase 1 of barrier 3 "
                   "completes a load and its threads waited through phase 0"),
            std::string::npos)
      << e;
  const std::string odd = run_error_of(load_stream(1, 9));  // a ninth load on barrier 0; the waits stop at phase 1
  EXPECT_NE(odd.find("phase 2 of barrier 0 completes a load and its threads waited through phase 1"),
            std::string::npos)
      << odd;
}

// The GPU waits by parity: a wait for a phase two behind the barrier, or ahead of the one in
// progress, would not do there what the model would do, so it is refused with the rule named.
TEST(Scenario, AWaitThatParityCannotTellIsRefused) {
  json j = json::parse(R"({
    "name": "w",
    "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                      "global_strides": [128], "box_dims": [64, 16], "element_strides": [1, 1]}},
    "ctas": [{"count": 1, "barriers": [1], "program": [
      {"arrive": 0, "bytes": "bytes_T"},
      {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
      {"wait": 0, "phase": 0},
      {"arrive": 0, "bytes": "bytes_T"},
      {"load": "T", "coords": [0, 16], "smem_offset": 0, "barrier": 0},
      {"wait": 0, "phase": 1}]}]})");
  EXPECT_EQ(run_error_of(j), "");
  json behind = j;
  behind["ctas"][0]["program"].push_back(json::parse(R"({"wait": 0, "phase": 0})"));
  const std::string b = run_error_of(behind);
  EXPECT_NE(b.find("ctas[0].program[6] (CTA 0, thread 'main'): "), std::string::npos) << b;
  EXPECT_NE(b.find("a wait for phase 0 of barrier 0 made when 2 of its phases have completed"), std::string::npos) << b;
  EXPECT_NE(b.find("wait for a later phase"), std::string::npos) << b;
  json ahead = j;
  ahead["ctas"][0]["program"][2]["phase"] = 1;
  const std::string a = run_error_of(ahead);
  EXPECT_NE(a.find("a wait for phase 1 of barrier 0 made when 0 of its phases have completed"), std::string::npos) << a;
  EXPECT_NE(a.find("return before the phase completes"), std::string::npos) << a;
}

TEST(Expression, PrecedenceAndOperatorsAsInC) {
  EXPECT_EQ(eval_expression("1 + 2 * 3", {}), 7);
  EXPECT_EQ(eval_expression("(1 << 4) - 1", {}), 15);
  EXPECT_EQ(eval_expression("1 << 2 + 1", {}), 8);
  EXPECT_EQ(eval_expression("6 & 3 | 8", {}), 10);
  EXPECT_EQ(eval_expression("-7 / 2", {}), -3);
  EXPECT_EQ(eval_expression("-7 % 2", {}), -1);
  EXPECT_EQ(eval_expression("k >= 2 && k < 4", {{"k", 3}}), 1);
  EXPECT_EQ(eval_expression("!(k == 3) || 0", {{"k", 3}}), 0);
  EXPECT_EQ(eval_expression("k", {{"k", 1}, {"k", 2}}), 2);  // innermost wins
}

TEST(Expression, ErrorsInsteadOfUndefinedBehaviour) {
  EXPECT_THROW(eval_expression("1 / 0", {}), Error);
  EXPECT_THROW(eval_expression("5 % (2 - 2)", {}), Error);
  EXPECT_THROW(eval_expression("9223372036854775807 + 1", {}), Error);
  EXPECT_THROW(eval_expression("99999999999999999999", {}), Error);
  EXPECT_THROW(eval_expression("1 << 63", {}), Error);
  EXPECT_THROW(eval_expression("x + 1", {}), Error);
  EXPECT_THROW(eval_expression("2k", {}), Error);
  EXPECT_THROW(eval_expression(std::string(100, '(') + "1" + std::string(100, ')'), {}), Error);
  EXPECT_THROW(eval_expression(std::string(100, '-') + "1", {}), Error);
}

// Binding constants changes no value and no error: the same expression with (k, i) bound and
// (N, M) as constants, against the text evaluated with all four bound. Errors in a constant part
// (1 / 0) stay errors where the evaluation reaches them, and only there (short-circuits).
TEST(Expression, BindingConstantsChangesNoValueNorError) {
  const Vars constants{{"N", 12}, {"M", 0}, {"BIG", INT64_MAX}};
  for (const char* text : {"k * N + i", "(k + N) / 3 % N", "N / M", "M && N / M", "k && N / M", "BIG + 1", "BIG + k",
                           "k < N ? 1 : 2", "k << (N - 10)", "-N + k * -i", "!M + !k", "M || k / M", "unknown + N"}) {
    Expression x;
    try {
      x = Expression::parse(text);
    } catch (const Error&) {
      continue;  // not this grammar
    }
    const Expression bound = x.with_constants(constants);
    EXPECT_EQ(bound.text(), x.text());
    for (int64_t k : {0, 1, 5})
      for (int64_t i : {0, 3}) {
        Vars all = constants;
        all.emplace_back("k", k);
        all.emplace_back("i", i);
        const Vars locals{{"k", k}, {"i", i}};
        std::string want, got;
        int64_t a = 0, b = 0;
        try { a = x.eval(all); } catch (const Error& e) { want = e.what(); }
        try { b = bound.eval(locals); } catch (const Error& e) { got = e.what(); }
        EXPECT_EQ(got, want) << text << " k=" << k << " i=" << i;
        if (want.empty()) {
          EXPECT_EQ(b, a) << text << " k=" << k << " i=" << i;
        }
      }
  }
}

TEST(Expression, PrintsAsC) {
  const Expression e = Expression::parse("(k % S) * 16384 + w");
  EXPECT_EQ(e.to_c("v_"), "(((v_k % v_S) * 16384LL) + v_w)");
  EXPECT_EQ(e.names(), (std::vector<std::string>{"k", "S", "w"}));
}

// The emitter's 32-bit form: taken only where every value provably fits, and then the same value.
TEST(Expression, Int32RangeBoundsEveryValueOrRefuses) {
  const Ranges r{{"k", {0, 127}}, {"S", {3, 3}}, {"w", {0, 1}}, {"big", {0, int64_t(1) << 40}}, {"z", {-1, 1}}};
  const auto range = [&](const char* text) { return Expression::parse(text).int32_range(r); };
  ASSERT_TRUE(range("(k / S - 1) % 2"));
  EXPECT_EQ(range("(k / S - 1) % 2")->lo, -1);  // k / S - 1 may be -1: C's remainder keeps the sign
  EXPECT_EQ(range("(k / S - 1) % 2")->hi, 1);
  EXPECT_EQ(range("(k % S) * 16384 + w * 8192")->hi, 2 * 16384 + 8192);
  EXPECT_EQ(range("1 << w")->hi, 2);
  EXPECT_FALSE(range("big % S"));                  // a name past 32 bits
  EXPECT_FALSE(range("k * 100000 * 100000"));      // an intermediate past 32 bits
  EXPECT_FALSE(range("k / z"));                    // a divisor that may be zero
  EXPECT_FALSE(range("1 << k"));                   // a shift that may leave 32 bits
  EXPECT_FALSE(range("k + unknown"));              // a name without a range
  EXPECT_EQ(Expression::parse("(k % S) * 16384").to_c_int32("v_"), "((long long)(((int)v_k % (int)v_S) * 16384))");
  for (int64_t k = 0; k < 128; ++k)  // within the range, the value is the 64-bit one, as C computes it in int
    for (const char* text : {"(k / S - 1) % 2", "(k + 5) / S * -3 % 7", "(k >> 2) | (k & 3)"}) {
      const Expression e = Expression::parse(text);
      ASSERT_TRUE(e.int32_range(r)) << text;
      const int64_t v = e.eval({{"k", k}, {"S", 3}, {"w", 1}});
      EXPECT_LE(e.int32_range(r)->lo, v) << text << " at k " << k;
      EXPECT_GE(e.int32_range(r)->hi, v) << text << " at k " << k;
    }
}

// Divisions a compiled loop computes every iteration: by a constant (params only) that is not a
// power of two, of a value read from the loop's variable.
TEST(Expression, FindsTheRuntimeDivisionsOfALoopVariable) {
  const Vars params{{"S", 6}, {"P", 4}, {"C", 3}};
  using V = std::vector<std::string>;
  EXPECT_EQ(Expression::parse("(k % S) * 16384 + k / S").runtime_divisions("k", params), (V{"k / 6", "k / 6"}));
  EXPECT_EQ(Expression::parse("k % P + (k / P) % 2").runtime_divisions("k", params), V{});  // powers of two
  EXPECT_EQ(Expression::parse("(k + 1) % (C * 2)").runtime_divisions("k", params), V{"(k + 1LL) / 6"});
  EXPECT_EQ(Expression::parse("w % S").runtime_divisions("k", params), V{});    // not the loop's variable
  EXPECT_EQ(Expression::parse("k % w").runtime_divisions("k", params), V{});    // divisor not a constant
  EXPECT_EQ(Expression::parse("(k / C) / C").runtime_divisions("k", params), (V{"(k / C) / 3", "k / 3"}));
}

// Divisions a step computes in line (thread.inline_division_cycles): by any constant, of a value read
// from a rolled loop's variable that is not a counter (the variable alone, or it divided by a constant).
TEST(Expression, FindsTheInlineDivisionsOfLoopVariables) {
  const Vars params{{"S", 4}, {"KT", 16}, {"C", 3}};
  using V = std::vector<std::string>;
  const std::vector<std::string> loops{"i", "k"};
  EXPECT_EQ(Expression::parse("(i * KT + k) % S").inline_divisions(loops, params), V{"((i * KT) + k) / 4"});
  EXPECT_EQ(Expression::parse("(k + 4) / S - 2").inline_divisions(loops, params), V{"(k + 4LL) / 4"});
  EXPECT_EQ(Expression::parse("(k + 1) % C").inline_divisions(loops, params), V{"(k + 1LL) / 3"});  // not a power of two
  EXPECT_EQ(Expression::parse("k % S + S * (k / S)").inline_divisions(loops, params), V{});  // counters
  EXPECT_EQ(Expression::parse("(k / KT) % S").inline_divisions(loops, params), V{});  // a counter's remainder
  EXPECT_EQ(Expression::parse("(w + 1) % S").inline_divisions(loops, params), V{});  // no loop's variable
  EXPECT_EQ(Expression::parse("(k + 1) % w").inline_divisions(loops, params), V{});  // divisor not a constant
  EXPECT_EQ(Expression::parse("((k + 1) % S) / 2").inline_divisions(loops, params),
            (V{"((k + 1LL) % S) / 2", "(k + 1LL) / 4"}));
}

// The emitter's counters: `k / d` and `k % d` of a loop variable by a constant d > 1, and only
// those, are written as the counters the loop keeps; with the counters stepped as the emitted loop
// steps them, every expression keeps its value.
TEST(Expression, WritesALoopVariablesQuotientsAndRemaindersAsCounters) {
  const Vars params{{"S", 3}, {"P", 4}, {"ONE", 1}};
  std::vector<std::string> sites;
  const CounterNames names = [&](const CounterSite& s) -> std::optional<std::string> {
    if (s.var != "k") return std::nullopt;
    sites.push_back(s.var + (s.remainder ? "%" : "/") + std::to_string(s.divisor));
    return std::string(s.remainder ? "r" : "q") + std::to_string(s.divisor);
  };
  const auto as_c = [&](const char* text) { return Expression::parse(text).to_c("", false, params, names); };
  EXPECT_EQ(as_c("(k % S) * 16384 + (k / S - 1) % 2"), "(((long long)r3 * 16384LL) + (((long long)q3 - 1LL) % 2LL))");
  EXPECT_EQ(as_c("k % (P * 2) + k / P"), "((long long)r8 + (long long)q4)");
  EXPECT_EQ(as_c("(k + 1) % S"), "((k + 1LL) % S)");  // not the variable itself
  EXPECT_EQ(as_c("k % w"), "(k % w)");                // not a constant divisor
  EXPECT_EQ(as_c("k % ONE + k / 1"), "((k % ONE) + (k / 1LL))");  // a divisor of 1 folds anyway
  EXPECT_EQ(as_c("j % S"), "(j % S)");                // not a loop the callback keeps counters for
  EXPECT_EQ(Expression::parse("(k % S) * 16384").to_c("v_", true, params, names), "((long long)(r3 * 16384))");
  EXPECT_EQ(sites, (std::vector<std::string>{"k%3", "k/3", "k%8", "k/4", "k%3"}));

  for (const char* text : {"(k % S) * 16384 + (k / S - 1) % 2", "k % (P * 2) + k / P", "(k / S) % 2 + 3 * (k % P)"}) {
    const Expression e = Expression::parse(text);
    std::string c = e.to_c("", false, params, names);
    for (const std::string cast : {"(long long)", "LL"})
      for (size_t at; (at = c.find(cast)) != std::string::npos;) c.erase(at, cast.size());
    const Expression counted = Expression::parse(c);
    std::map<int64_t, std::pair<int64_t, int64_t>> counters{{3, {0, 0}}, {4, {0, 0}}, {8, {0, 0}}};  // d: q, r
    for (int64_t k = 0; k < 50; ++k) {
      Vars vars{{"S", 3}, {"P", 4}};
      for (const auto& [d, qr] : counters) {
        vars.emplace_back("q" + std::to_string(d), qr.first);
        vars.emplace_back("r" + std::to_string(d), qr.second);
      }
      EXPECT_EQ(counted.eval(vars), e.eval({{"k", k}, {"S", 3}, {"P", 4}})) << text << " at k " << k;
      for (auto& [d, qr] : counters)  // as the emitted loop steps them
        if (++qr.second == d) qr.second = 0, ++qr.first;
    }
  }
}

TEST(CudaEmit, CompilesTheProgramNotAnInterpreter) {
  const ScenarioSpec spec = parse_scenario(pipeline());
  Scenario s;
  build_scenario(spec, TimingConfig{}, s);
  const std::string cu = emit_cuda(spec, s, TimingConfig{});
  // The loop, its expressions and the instruction for the map's rank, compiled in.
  // The stage k % 2 and its phase k / 2 are counters the loop steps (as CUTLASS's PipelineState),
  // not divisions in its body.
  EXPECT_NE(cu.find("int quo2_k_0 = 0, rem2_k_0 = 0;\n"), std::string::npos);
  EXPECT_NE(cu.find("for (long long v_k = 0; v_k < ((long long)(int)v_KT); ++v_k, (++rem2_k_0 == 2 ? (rem2_k_0 = 0, ++quo2_k_0) : 0))"),
            std::string::npos);
  EXPECT_EQ(cu.find("v_k % 2"), std::string::npos);
  // Its indices in 32-bit int, as the loop's range (0 .. KT - 1) proves they fit.
  EXPECT_NE(cu.find("tma_load<2>(smem + (uint32_t)(((long long)(rem2_k_0 * 8192)))"), std::string::npos);
  EXPECT_NE(cu.find("mbar_wait(smem_u32(&bars[((long long)(2 + rem2_k_0))])"), std::string::npos);
  EXPECT_NE(cu.find("constexpr int kWarps = 2;"), std::string::npos);
  EXPECT_NE(cu.find("mbar_init(smem_u32(&bars[3]), 1);"), std::string::npos);
  EXPECT_NE(cu.find("CU_TENSOR_MAP_SWIZZLE_128B"), std::string::npos);
  // The swizzle of the reads is the model's (CuTe Swizzle<3,4,3>: bits 7-9 into 4-6).
  EXPECT_NE(cu.find("a ^= (a & 896u) >> 3;"), std::string::npos);
}

// Issue 33: a scenario's name, its threads' names and its stamp labels were written raw into
// comments, so a newline in one injected lines of code into a program compiled and run on a GPU.
TEST(CudaEmit, UserTextCannotInjectCode) {
  const std::vector<std::string> hostile = {
      "x\nint injected = 1; //",     // a newline ends the comment
      "x\r\nint injected = 1; //",  // so does CR LF
      "ends in a backslash \\",    // would splice the next emitted line into the comment
      "trigraph ?\?/",                 // the same through a trigraph
      "quote \" */ /* and slashes",
      std::string("nul \0 and del \x7f and \xc3\xa9", 22)};
  for (const std::string& text : hostile) {
    json j = pipeline();
    j["name"] = text;
    j["ctas"][0]["threads"][0]["name"] = text;
    j["ctas"][0]["threads"][1]["program"][0]["body"].push_back({{"stamp", text}});
    const ScenarioSpec spec = parse_scenario(j);
    Scenario s;
    build_scenario(spec, TimingConfig{}, s);
    EXPECT_EQ(test::user_text_changes_code(spec, s, TimingConfig{}), "") << text;
    const std::string cu = emit_cuda(spec, s, TimingConfig{});
    EXPECT_EQ(cu.find("\nint injected"), std::string::npos) << text;  // no line of its own
    // The user's bytes are written as escapes: the program is ASCII.
    EXPECT_TRUE(std::all_of(cu.begin(), cu.end(), [](char c) { return static_cast<unsigned char>(c) < 128; })) << text;
  }
}

TEST(CudaEmit, TheInjectionCheckSeesASplicedOrBrokenLine) {
  const std::string base = "int a; // name\nint b;\n";
  EXPECT_EQ(test::code_tokens(base), test::code_tokens("int a; // other name\nint b;\n"));
  EXPECT_NE(test::code_tokens(base), test::code_tokens("int a; // name\\\nint b;\n"));
  EXPECT_NE(test::code_tokens(base), test::code_tokens("int a; // na\nme\nint b;\n"));
  EXPECT_EQ(test::code_tokens("f(\"a // b\"); /* c \" */ g('\\'');"),
            (std::vector<std::string>{"f", "(", "\"\"", ")", ";", "g", "(", "''", ")", ";"}));
  EXPECT_EQ(test::code_tokens("R\"x(a\")\" b)x\" 1'000"), (std::vector<std::string>{"R\"\"", "1'000"}));
}

TEST(CudaEmit, RefusesWhatItCannotRunFaithfully) {
  json j = pipeline();
  j["ctas"][0]["threads"][1]["count"] = "cta + 1";  // a warp count that differs per CTA
  const ScenarioSpec spec = parse_scenario(j);
  EXPECT_THROW(emit_cuda(spec, Scenario{}, TimingConfig{}), Error);
}

}  // namespace

// The L2's start states (the GPU harness's cold, cold_clean and warm runs).
Measurement run_from(const json& j, TimingConfig cfg, L2Start start) {
  Scenario s;
  build_scenario(parse_scenario(j), cfg, s);
  s.experiment.l2_start = start;
  return run_in_child(s.experiment);
}

// 8 CTAs x 8 loads of 16 KiB: 8192 lines of 128 bytes filled. After a write flush, the first
// fills evict the flush's lines, flush_dirty_fraction of them dirty, each written back.
TEST(L2Start, AWriteFlushsDirtyLinesAreWrittenBackAsFillsEvictThem) {
  TimingConfig cfg;
  cfg.flush_dirty_fraction = 0.25;
  const json j = load_stream(8, 8);
  const Measurement cold = run_from(j, cfg, L2Start::cold);
  const Measurement clean = run_from(j, cfg, L2Start::cold_clean);
  EXPECT_EQ(cold.l2_misses, clean.l2_misses);
  EXPECT_EQ(cold.l2_writebacks, 8192u / 4);  // a quarter of the lines the run filled
  EXPECT_EQ(clean.l2_writebacks, 0u);
  cfg.l2_bytes = 128 * 1024;  // 1024 lines: only the first 1024 fills meet the flush's lines
  EXPECT_EQ(run_from(j, cfg, L2Start::cold).l2_writebacks, 1024u / 4);
}

// Write-backs share the DRAM's bandwidth with the fills: on a DRAM-bound stream, every line
// dirty makes the run about twice as long; with none dirty, cold is cold_clean to the cycle.
TEST(L2Start, WriteBacksCostDramBandwidth) {
  TimingConfig cfg;
  cfg.hbm_bytes_per_cycle = 64;  // far below the SMs' ports: DRAM-bound
  const json j = load_stream(8, 8);
  const Measurement clean = run_from(j, cfg, L2Start::cold_clean);
  EXPECT_EQ(run_from(j, cfg, L2Start::cold).end_cycles, clean.end_cycles);  // flush_dirty_fraction 0
  cfg.flush_dirty_fraction = 1;
  const Measurement dirty = run_from(j, cfg, L2Start::cold);
  EXPECT_NEAR(dirty.end_cycles / clean.end_cycles, 2.0, 0.15);
}

// A warm run finds the lines the same program reached in L2: no misses when they fit, faster
// than from clean lines; when the program reaches more than the L2 holds, some miss again.
TEST(L2Start, WarmFindsTheProgramsLinesResident) {
  TimingConfig cfg;
  const json j = load_stream(8, 8);
  const Measurement warm = run_from(j, cfg, L2Start::warm);
  const Measurement clean = run_from(j, cfg, L2Start::cold_clean);
  EXPECT_EQ(warm.l2_misses, 0u);
  EXPECT_GT(warm.l2_hits, 0u);
  EXPECT_LT(warm.end_cycles, 0.8 * clean.end_cycles);
  cfg.l2_bytes = 256 * 1024;  // a quarter of the 1 MiB the program reads
  const Measurement small = run_from(j, cfg, L2Start::warm);
  EXPECT_GT(small.l2_misses, 0u);
  EXPECT_EQ(small.l2_writebacks, 0u);
}

// The chip's L2 output (memory.l2_bytes_per_cycle) bounds what all SMs read from L2 together.
TEST(L2Start, TheL2OutputBoundsReadsFromL2) {
  TimingConfig cfg;
  const json j = load_stream(32, 8);  // 4 MiB, all of it in L2 when warm
  const Measurement unlimited = run_from(j, cfg, L2Start::warm);
  cfg.l2_bytes_per_cycle = 512;
  const Measurement limited = run_from(j, cfg, L2Start::warm);
  EXPECT_GE(limited.end_cycles, 4.0 * 1024 * 1024 / 512);
  EXPECT_GT(limited.end_cycles, 1.5 * unlimited.end_cycles);
}

// The TMA unit's port into shared memory: at 16 bytes a cycle a 128-byte row holds the data path
// 8 cycles, so one CTA's 8 boxes of 16 KiB need at least 8 x 1024 cycles; at 128 a row is one
// wavefront, as the conflict model says.
TEST(BankedSmem, TheTmaPortRateBoundsBoxWrites) {
  TimingConfig cfg;
  const Measurement wide = run_on(load_stream(1, 8), cfg);
  cfg.smem.tma_write_bytes_per_cycle = 16;
  const Measurement narrow = run_on(load_stream(1, 8), cfg);
  EXPECT_GE(narrow.end_cycles, 8.0 * 1024);
  EXPECT_LT(wide.end_cycles, 8.0 * 1024);
  EXPECT_EQ(narrow.smem_wavefronts, wide.smem_wavefronts);  // the banks' count is unchanged
}

// One CTA: one load, then (after `spin` cycles) a wait on its barrier, the loop's start marked.
Measurement run_waiting(const TimingConfig& cfg, bool poll, int spin) {
  json j = json::parse(R"J({
    "name": "w", "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                                   "global_strides": [128], "box_dims": [64, 1], "element_strides": [1, 1]}},
    "ctas": [{"count": 1, "barriers": [1], "program": [
      {"arrive": 0, "bytes": "bytes_T"}, {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
      {"delay": 0}, {"wait": 0, "phase": 0}]}]})J");
  j["ctas"][0]["program"][2]["delay"] = spin;
  Scenario s;
  build_scenario(parse_scenario(j), cfg, s);
  ThreadProgram& thread = s.experiment.ctas.at(0).threads.at(0);
  std::vector<Step> steps = materialize(thread);
  steps.back().poll = poll;
  steps.insert(steps.end() - 1, Step{Step::Kind::mark_issued});
  thread.steps = steps;
  thread.source.reset();
  return run_in_child(s.experiment);
}

// The tb/gpu harness waits in a test_wait loop (test_wait, clock64, compare): it samples the
// phase poll_offset_cycles after it starts and every poll_cycles after that, and sees the flip
// at the first sample at or after it; a flip before the loop is seen at the first sample.
TEST(Wait, ATestWaitLoopSeesTheFlipAtItsNextSample) {
  for (double miss : {200.0, 333.0, 500.0, 700.0}) {
    TimingConfig cfg;
    cfg.l2_miss_cycles = miss;
    cfg.l2_miss_jitter_cycles = 0;
    cfg.wait_cycles = cfg.wait_wakeup_cycles = 0;  // try_wait ends at the flip itself
    const Measurement at_flip = run_waiting(cfg, false, 0);
    const double flip = at_flip.end_cycles - at_flip.issued_cycles;  // after the loop's start
    ASSERT_GT(flip, 0);
    cfg.poll_cycles = 81;
    cfg.poll_offset_cycles = 40;
    double seen = 40;
    while (seen < flip - 1e-6) seen += 81;
    const Measurement polled = run_waiting(cfg, true, 0);
    EXPECT_NEAR(polled.end_cycles - polled.issued_cycles, seen, 1e-6) << "flip " << flip << " cycles in";
    EXPECT_NEAR(run_waiting(cfg, false, 0).end_cycles, at_flip.end_cycles, 1e-6);  // try_wait: no loop
    const Measurement late = run_waiting(cfg, true, 3000);  // the flip long before the loop
    EXPECT_NEAR(late.end_cycles - late.issued_cycles, 40, 1e-6);
  }
}

// A load right after the arrive.expect_tx that armed its barrier waits thread.armed_load_cycles
// more (the H100's interleaved arrive/load loops: tests/golden/wait_probe); a load with another
// step between, or on another barrier, does not.
TEST(ThreadCosts, ALoadRightAfterTheArriveThatArmedItsBarrierWaits) {
  auto program = [](bool step_between, int load_barrier) {
    json j = json::parse(R"J({
      "name": "a", "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                                     "global_strides": [128], "box_dims": [64, 1], "element_strides": [1, 1]}},
      "ctas": [{"count": 1, "barriers": [1, 1], "program": [{"arrive": 0, "bytes": "bytes_T"}]}]})J");
    json& p = j["ctas"][0]["program"];
    if (load_barrier == 1) p.push_back({{"arrive", 1}, {"bytes", "bytes_T"}});  // arms barrier 1 last (never awaited)
    if (step_between) p.push_back({{"delay", 0}});
    p.push_back({{"load", "T"}, {"coords", {0, 0}}, {"smem_offset", 0}, {"barrier", 0}});
    p.push_back({{"wait", 0}, {"phase", 0}});
    return j;
  };
  for (auto [between, barrier, extra] : {std::tuple{false, 0, 300.0}, {true, 0, 0.0}, {false, 1, 0.0}}) {
    TimingConfig cfg;
    const double base = run_on(program(between, barrier), cfg).end_cycles;
    cfg.armed_load_cycles = 300;
    EXPECT_NEAR(run_on(program(between, barrier), cfg).end_cycles - base, extra, 1e-6)
        << "step between: " << between << ", load after arming barrier " << barrier;
  }
}

// With thread.armed_load_holds_thread_only the armed cycles hold the thread after the load leaves
// (tests/golden/stream_probe): a load-arrive-wait round trip no longer pays them, a loop bound by
// its thread still does.
TEST(ThreadCosts, AnArmedLoadCanHoldTheThreadWithoutDelayingTheLoad) {
  auto stream = [](int stages) {
    json j = read_json_file(std::string(TMASIM_SOURCE_DIR) + "/tests/golden/stream_probe/b4k_s1_n32.json", "scenario");
    j["params"]["S"] = stages;
    j["ctas"][0]["barriers"] = std::vector<int>(static_cast<size_t>(stages), 1);
    return j;
  };
  TimingConfig cfg = TimingConfig::from_json_file(std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json");
  ASSERT_GT(cfg.armed_load_cycles, 0);
  const double armed = cfg.armed_load_cycles;
  for (int stages : {1, 8}) {
    cfg.armed_load_holds_thread_only = false;
    const double before = run_on(stream(stages), cfg).end_cycles;
    cfg.armed_load_holds_thread_only = true;
    const double after = run_on(stream(stages), cfg).end_cycles;
    if (stages == 1)  // one load in flight: each of the 32 round trips is shorter by the armed cycles
      EXPECT_NEAR(before - after, 32 * armed, 2 * armed);
    else  // eight in flight: the thread sets the pace, and pays them either way
      EXPECT_NEAR(before - after, 0, armed);
  }
}

// thread.straight_armed_load_cycles: in straight-line code an armed load pays these in place of
// armed_load_cycles; with straight_armed_holds_thread_only after it leaves (a load waited for at once
// then pays none of them, tests/golden/armed_delay_probe), else before (all of them). A rolled loop
// keeps armed_load_cycles.
TEST(ThreadCosts, AStraightLineArmedLoadPaysItsOwnCostOnTheThreadOrBeforeTheLoad) {
  auto program = [](const char* unroll) {
    json j = json::parse(R"J({
      "name": "a", "tensors": {"T": {"mode": "tiled", "dtype": "uint8", "rank": 2, "global_dims": [16, 512],
                                     "global_strides": [16], "box_dims": [16, 16], "element_strides": [1, 1]}},
      "ctas": [{"count": 1, "barriers": [1, 1, 1, 1], "program": [{"loop": "k", "count": 4, "body": [
        {"arrive": "k", "bytes": "bytes_T"},
        {"load": "T", "coords": [0, "16 * k"], "smem_offset": "256 * k", "barrier": "k"},
        {"wait": "k", "phase": 0}]}]}]})J");
    if (unroll) j["ctas"][0]["program"][0]["unroll"] = json::parse(unroll);
    return j;
  };
  TimingConfig cfg;
  cfg.straight_line_costs = true;
  cfg.armed_load_cycles = 200;
  const double rolled = run_on(program("false"), cfg).end_cycles, straight = run_on(program("true"), cfg).end_cycles;
  cfg.straight_armed_load_cycles = 100;
  cfg.straight_armed_holds_thread_only = false;
  EXPECT_NEAR(run_on(program("false"), cfg).end_cycles, rolled, 1e-6);  // a rolled loop: armed_load_cycles
  EXPECT_NEAR(run_on(program("true"), cfg).end_cycles, straight - 4 * 100, 1e-6);  // 100 before each load, not 200
  cfg.straight_armed_holds_thread_only = true;  // the load leaves at once; the wait covers the thread's 100
  EXPECT_NEAR(run_on(program("true"), cfg).end_cycles, straight - 4 * 200, 1e-6);
}

// issue.first_cycles is a thread's first load's (tests/golden/first_issue_probe: ~205 on the H100
// whatever its map; a store or a prefetch before it pays its own cost and does not take it off).
TEST(ThreadCosts, AThreadsFirstLoadPaysTheFirstCostWhateverIssuesBeforeIt) {
  auto program = [](bool store_first) {
    json j = json::parse(R"J({
      "name": "f", "tensors": {"T": {"mode": "tiled", "dtype": "uint8", "rank": 2, "global_dims": [16, 512],
                                     "global_strides": [16], "box_dims": [16, 16], "element_strides": [1, 1]}},
      "ctas": [{"count": 1, "barriers": [1], "program": [
        {"arrive": 0, "bytes": "bytes_T"},
        {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0}, {"stamp": "issued"},
        {"wait": 0, "phase": 0}]}]})J");
    if (store_first)
      j["ctas"][0]["program"].insert(j["ctas"][0]["program"].begin(),
                                     json{{"store", "T"}, {"coords", {0, 16}}, {"smem_offset", 1024}});
    return j;
  };
  TimingConfig cfg;
  cfg.issue_cycles = 20;
  cfg.issue_first_cycles = 200;
  cfg.arrive_cycles = 0;
  EXPECT_NEAR(run_on(program(false), cfg).stamps.at(0).at(0).at(0), 200, 1e-6);
  EXPECT_NEAR(run_on(program(true), cfg).stamps.at(0).at(0).at(0), 20 + 200, 1e-6);  // the store: issue.cycles
}

// A consumer's read of a tile of more than TileLayout::kReadUnrolledRowBlocks row blocks runs as a
// loop in the emitted CUDA, its ldmatrix every thread.ldmatrix_looped_cycles (H100: a 128x64 tile
// ~13.3 cycles an ldmatrix, the same bytes as 64x64 tiles ~8.6-9.1): a 64-row tile is unchanged.
TEST(ThreadCosts, AReadOfMoreRowBlocksThanTheUnrollRunsAsALoop) {
  auto program = [](int rows) {
    json j = json::parse(R"J({
      "name": "r", "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 128],
                                     "global_strides": [128], "box_dims": [64, 128], "element_strides": [1, 1],
                                     "swizzle": "128b"}},
      "ctas": [{"count": 1, "barriers": [1], "program": [
        {"arrive": 0, "bytes": "bytes_T"}, {"load": "T", "coords": [0, 0], "smem_offset": 0, "barrier": 0},
        {"wait": 0, "phase": 0}, {"read": {"rows": 64, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": 0}}]}]})J");
    j["ctas"][0]["program"][3]["read"]["rows"] = rows;
    return j;
  };
  EXPECT_FALSE((TileLayout{64, 64}).read_is_looped());
  EXPECT_TRUE((TileLayout{128, 64}).read_is_looped());
  TimingConfig cfg;
  cfg.ldmatrix_cycles = 10;
  const double unrolled = run_on(program(64), cfg).end_cycles, looped = run_on(program(128), cfg).end_cycles;
  cfg.ldmatrix_looped_cycles = 20;
  EXPECT_NEAR(run_on(program(64), cfg).end_cycles, unrolled, 1e-6);
  EXPECT_NEAR(run_on(program(128), cfg).end_cycles - looped, 32 * (20 - 10), 1.0);  // 32 ldmatrix.x4
}

// thread.divide_cycles: each iteration of a loop pays it once per distinct division of its
// variable by a constant that is not a power of two (k / S and k % S once), before its first step.
TEST(ThreadCosts, ALoopPaysForItsNonPowerOfTwoDivisions) {
  auto program = [](int stages) {
    json j = json::parse(R"J({
      "name": "d", "params": {"S": 4},
      "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 64],
                        "global_strides": [128], "box_dims": [64, 1], "element_strides": [1, 1]}},
      "ctas": [{"count": 1, "barriers": [1, 1, 1, 1, 1, 1], "program": [
        {"loop": "s", "count": 6, "body": [{"arrive": "s"}]},
        {"loop": "k", "count": 12, "body": [{"wait": "k % S", "phase": 0}, {"delay": "k / S"}]}]}]})J");
    j["params"]["S"] = stages;
    return j;
  };
  TimingConfig cfg;
  const double three = run_on(program(3), cfg).end_cycles, four = run_on(program(4), cfg).end_cycles;
  cfg.divide_cycles = 100;
  EXPECT_NEAR(run_on(program(4), cfg).end_cycles, four, 1e-6);  // a power of two: a mask and a shift
  EXPECT_NEAR(run_on(program(3), cfg).end_cycles - three, 12 * 100, 1e-6);  // k / 3: once an iteration
}

// thread.inline_division_cycles: each step of a rolled loop pays it for each distinct division it
// computes in line (x / S and x % S once); counters, unrolled loops and straight-line code pay nothing.
TEST(ThreadCosts, AStepPaysForTheDivisionsItComputesInLine) {
  json j = json::parse(R"J({
    "name": "d", "params": {"S": 4},
    "tensors": {},
    "ctas": [{"count": 1, "barriers": [1, 1, 1, 1], "program": [
      {"loop": "i", "count": 2, "body": [
        {"loop": "k", "count": 3, "body": [
          {"arrive": "(i * 3 + k) % S"}, {"delay": "(i * 3 + k) / S + k % S"}, {"delay": "k / S"}]},
        {"loop": "u", "count": 2, "unroll": true, "body": [{"delay": "(i + u) % S"}]},
        {"loop": "v", "count": 2, "unroll": true, "body": [{"delay": "(v + 1) % S"}]}]},
      {"delay": "(1 + 2) % S"}]}]})J");
  TimingConfig cfg;
  cfg.inline_division_cycles = 10;
  Scenario s;
  build_scenario(parse_scenario(j), cfg, s);
  const std::vector<Step> steps = materialize(s.experiment.ctas.at(0).threads.at(0));
  ASSERT_EQ(steps.size(), 2u * (3 * 3 + 2 + 2) + 1);
  for (size_t i = 0; i < 2; ++i) {
    const size_t at = 13 * i;
    for (size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(steps[at + 3 * k].thread_cycles, 10.0) << i << " " << k;      // (i * 3 + k) % S
      EXPECT_EQ(steps[at + 3 * k + 1].thread_cycles, 10.0) << i << " " << k;  // the same dividend; k % S a counter
      EXPECT_EQ(steps[at + 3 * k + 2].thread_cycles, 0.0) << i << " " << k;   // k / S a counter
    }
    EXPECT_EQ(steps[at + 9].thread_cycles, 10.0);  // (i + u) % S: i is rolled, so computed in line
    EXPECT_EQ(steps[at + 10].thread_cycles, 10.0);
    EXPECT_EQ(steps[at + 11].thread_cycles, 0.0);  // (v + 1) % S: v unrolled, folded
    EXPECT_EQ(steps[at + 12].thread_cycles, 0.0);
  }
  EXPECT_EQ(steps.back().thread_cycles, 0.0);  // straight-line code
}

// thread.loop_iteration_cycles: every iteration of every loop pays it before its first step, an
// inner loop's iterations as many times as they run.
TEST(ThreadCosts, EveryLoopIterationPaysItsOwnCost) {
  json j = json::parse(R"J({
    "name": "l", "tensors": {},
    "ctas": [{"count": 1, "barriers": [1], "program": [
      {"loop": "i", "count": 4, "body": [{"loop": "k", "count": 3, "body": [{"delay": 10}]}, {"delay": 5}]},
      {"delay": 7}]}]})J");
  TimingConfig cfg;
  const double plain = run_on(j, cfg).end_cycles;
  cfg.loop_iteration_cycles = 50;
  EXPECT_NEAR(run_on(j, cfg).end_cycles - plain, (4 + 4 * 3) * 50, 1e-6);  // 4 of i, 12 of k
}

// thread.straight_line_costs: a wait in straight-line code (outside any loop, or in a loop stated
// "unroll": true) costs straight_wait_cycles and such a loop's iteration straight_iteration_cycles
// (tests/golden/loop_probe: 35-60 cycles a wait unrolled, 79-141 rolled); a loop not stated
// unrolled keeps wait_cycles and loop_iteration_cycles, and with the option off nothing changes.
TEST(ThreadCosts, StraightLineCodePaysItsOwnWaitAndNoLoopCost) {
  auto program = [](const char* unroll) {
    json j = json::parse(R"J({
      "name": "u", "tensors": {},
      "ctas": [{"count": 1, "barriers": [1], "program": [
        {"arrive": 0}, {"delay": 1000},
        {"loop": "k", "count": 16, "body": [{"wait": 0, "phase": 0}]},
        {"wait": 0, "phase": 0}]}]})J");
    if (unroll) j["ctas"][0]["program"][2]["unroll"] = json::parse(unroll);
    return j;
  };
  TimingConfig cfg;
  cfg.wait_cycles = 140;
  cfg.loop_iteration_cycles = 30;
  const double rolled = run_on(program(nullptr), cfg).end_cycles;
  EXPECT_NEAR(run_on(program("true"), cfg).end_cycles, rolled, 1e-6);  // the option off
  cfg.straight_line_costs = true;
  cfg.straight_wait_cycles = 50;
  cfg.straight_iteration_cycles = 0;
  // The last wait is outside any loop: straight-line code in every program.
  EXPECT_NEAR(run_on(program(nullptr), cfg).end_cycles, rolled - 90, 1e-6);
  EXPECT_NEAR(run_on(program("false"), cfg).end_cycles, rolled - 90, 1e-6);
  EXPECT_NEAR(run_on(program("true"), cfg).end_cycles, rolled - 90 - 16 * (90 + 30), 1e-6);
  cfg.straight_iteration_cycles = 5;
  EXPECT_NEAR(run_on(program("true"), cfg).end_cycles, rolled - 90 - 16 * (90 + 25), 1e-6);
}

// thread.start_cycles: every thread of a CTA starts that long after the CTA (the harness's framing,
// tests/golden/unroll_probe: 213-228 cycles), its steps and its first issue after it.
TEST(ThreadCosts, EveryThreadStartsAfterTheFraming) {
  json j = json::parse(R"J({
    "name": "s", "tensors": {},
    "ctas": [{"count": 2, "barriers": [1], "threads": [
      {"name": "a", "program": [{"delay": 100}]},
      {"name": "b", "program": [{"delay": 300}]}]}]})J");
  TimingConfig cfg;
  const double plain = run_on(j, cfg).end_cycles;
  cfg.start_cycles = 215;
  EXPECT_NEAR(run_on(j, cfg).end_cycles - plain, 215, 1e-6);  // in parallel: once, not per thread
}

// "unroll" says how the compiled loop runs: a boolean, emitted as the pragma that makes nvcc do so.
TEST(Scenario, UnrollIsABooleanAndTheEmitterStatesIt) {
  json j = json::parse(R"J({
    "name": "u", "tensors": {},
    "ctas": [{"count": 1, "barriers": [1], "program": [
      {"loop": "k", "count": 4, "unroll": 3, "body": [{"arrive": 0}, {"wait": 0, "phase": "k"}]}]}]})J");
  try {
    parse_scenario(j);
    FAIL() << "an 'unroll' of 3 was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'unroll' must be true"), std::string::npos) << e.what();
  }
  auto emitted = [](const json& scenario) {
    const ScenarioSpec spec = parse_scenario(scenario);
    Scenario s;
    build_scenario(spec, TimingConfig{}, s);
    return emit_cuda(spec, s, TimingConfig{});
  };
  for (const bool unroll : {true, false}) {
    j["ctas"][0]["program"][0]["unroll"] = unroll;
    const std::string cu = emitted(j);
    const size_t pragma = cu.find(unroll ? "#pragma unroll\n" : "#pragma unroll 1\n");
    ASSERT_NE(pragma, std::string::npos) << unroll;
    const size_t next_line = cu.find('\n', pragma) + 1;
    const size_t code = cu.find_first_not_of(' ', next_line);
    EXPECT_EQ(cu.compare(code, 22, "for (long long v_k = 0"), 0) << cu.substr(next_line, 60);  // the loop it rules
  }
  j["ctas"][0]["program"][0].erase("unroll");
  const std::string plain = emitted(j);
  EXPECT_EQ(plain.find("#pragma unroll 1\n"), std::string::npos);
  EXPECT_EQ(plain.find("#pragma unroll\n      for (long long v_k"), std::string::npos);
}

// issue.prefetch_cycles: a prefetch's own issue cost in place of issue.cycles (tests/golden/prefetch_probe:
// one CTA's stream pays ~88 cycles an iteration for a prefetch, the model's load issue 54); the loads
// and a thread's first load keep theirs.
TEST(ThreadCosts, APrefetchPaysItsOwnIssueCost) {
  auto program = [](bool prefetch) {
    json j = json::parse(R"J({
      "name": "p", "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [64, 4096],
                                     "global_strides": [128], "box_dims": [64, 64], "element_strides": [1, 1]}},
      "ctas": [{"count": 1, "barriers": [1], "program": [
        {"loop": "t", "count": 8, "body": [
          {"prefetch": "T", "coords": [0, "64 * (t + 8)"]},
          {"arrive": 0, "bytes": "bytes_T"}, {"load": "T", "coords": [0, "64 * t"], "smem_offset": 0, "barrier": 0},
          {"wait": 0, "phase": "t"}]}]}]})J");
    if (!prefetch) j["ctas"][0]["program"][0]["body"].erase(0);
    return j;
  };
  TimingConfig cfg;
  cfg.issue_cycles = 50;
  const double with = run_on(program(true), cfg).end_cycles;
  cfg.issue_prefetch_cycles = 150;
  // Every prefetch pays its own, the first too: a thread's first load keeps first_cycles
  // (tests/golden/first_issue_probe: a prefetch before it does not take it off).
  EXPECT_NEAR(run_on(program(true), cfg).end_cycles - with, 8 * 100, 1.0);
  const double without = run_on(program(false), cfg).end_cycles;
  cfg.issue_prefetch_cycles = 0;
  EXPECT_NEAR(run_on(program(false), cfg).end_cycles, without, 1e-6);
}

// A scenario's program is expanded as it runs, never held: its thread's steps come from its tree,
// the same on every walk, and a step that opens iterations of nested loops carries the arithmetic
// of each (thread.divide_cycles), the inner loop's and the outer's.
TEST(ThreadCosts, NestedLoopsAddTheirArithmeticToTheirFirstStep) {
  json j = json::parse(R"J({
    "name": "n", "tensors": {},
    "ctas": [{"count": 1, "barriers": [1], "program": [
      {"loop": "i", "count": 4, "body": [
        {"loop": "k", "count": 3, "body": [{"delay": "i / 3 + k / 3"}]},
        {"delay": "i % 3"}]}]}]})J");
  TimingConfig cfg;
  cfg.divide_cycles = 100;
  Scenario s;
  build_scenario(parse_scenario(j), cfg, s);
  const ThreadProgram& t = s.experiment.ctas.at(0).threads.at(0);
  EXPECT_TRUE(t.steps.empty());  // nothing held
  EXPECT_EQ(t.generated.steps, 16u);
  const std::vector<Step> steps = materialize(t);
  ASSERT_EQ(steps.size(), 16u);
  EXPECT_EQ(materialize(t).size(), steps.size());  // a second walk
  // i's iteration computes i / 3 and i % 3 (one division), k's computes k / 3: each iteration's
  // first step pays for its loop's.
  for (size_t i = 0; i < 4; ++i)
    for (size_t k = 0; k < 4; ++k)
      EXPECT_EQ(steps[4 * i + k].thread_cycles, k == 0 ? 200.0 : k < 3 ? 100.0 : 0.0) << i << " " << k;
}

// Remembering patterns (a TMA unit's plans of boxes inside their tensors, a box's rows and a
// consumer tile's ldmatrix by their ids in the shared memory) is a speed-up only: every count and
// every cycle of a run is the same without it, over scenarios of every corpus family (stores,
// reductions, multicast, im2col, rings, waves, consumers) and boxes that straddle the tensor's edges.
// Programs of every corpus family, the examples, and boxes straddling a tensor's edges.
std::vector<json> speed_programs() {
  const std::string dir = std::string(TMASIM_SOURCE_DIR) + "/";
  std::vector<json> programs;
  for (const char* f : {"examples/gemm_pipeline.json", "examples/im2col_conv_feed.json", "tests/scenarios/store_epilogue.json",
                        "tests/scenarios/multicast_cluster.json", "tests/scenarios/warp_specialized.json",
                        "tests/golden/scenarios/epilogue/reduce_c16_t4_f1.json",
                        "tests/golden/scenarios/epilogue/store_c132_t16_f1.json",
                        "tests/golden/scenarios/multicast/c128_cl2_s2_r64.json",
                        "tests/golden/scenarios/im2col/c128_hw16_3x3_ctas4.json",
                        "tests/golden/scenarios/gemm_inline/c132_r128_s2.json",
                        "tests/golden/scenarios/l2reuse/all_c32_r128.json", "tests/golden/scenarios/random/r001.json",
                        "tests/golden/scenarios/waves/stream_c132_s4.json"})
    programs.push_back(read_json_file(dir + f, "scenario"));
  // Boxes at every edge of a 100x70 tensor (in part or wholly outside), and the same inside.
  programs.push_back(json::parse(R"J({
    "name": "edges", "tensors": {"T": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [100, 70],
                                       "global_strides": [256], "box_dims": [64, 32], "element_strides": [1, 1], "swizzle": "128b"}},
    "ctas": [{"count": 4, "barriers": [1], "program": [{"loop": "k", "count": 12, "body": [
      {"arrive": 0, "bytes": "bytes_T"},
      {"load": "T", "coords": ["(k % 4) * 40 - 64", "(k / 4) * 40 - 32 + cta"], "smem_offset": "(k % 2) * 4096", "barrier": 0},
      {"wait": 0, "phase": "k"},
      {"read": {"rows": 32, "cols": 64, "swizzle": "128b", "smem_offset": "(k % 2) * 4096"}}]}]}]})J"));
  return programs;
}

// The whole measurement (every count and cycle) of each speed program, cold and warm, with the
// configuration `change` makes of h100.json, against the one with h100.json's own.
void expect_same_measurements(const std::function<void(TimingConfig&)>& change) {
  const TimingConfig h100 = TimingConfig::from_json_file(std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json");
  for (const json& j : speed_programs()) {
    for (L2Start start : {L2Start::cold, L2Start::warm}) {
      std::vector<json> runs;
      for (bool changed : {false, true}) {
        TimingConfig cfg = h100;
        if (changed) change(cfg);
        Scenario s;
        build_scenario(parse_scenario(j), cfg, s);
        s.experiment.l2_start = start;
        runs.push_back(to_json(run_in_child(s.experiment)));
      }
      EXPECT_EQ(runs[0], runs[1]) << j.value("name", "?") << (start == L2Start::warm ? ", warm" : ", cold");
    }
  }
}

TEST(Speed, RememberingPatternsChangesNothing) {
  expect_same_measurements([](TimingConfig& c) { c.smem.remember_patterns = false; });
}

// A timing-only run takes the lean paths (a box's rows booked without their bytes, a load's reads
// passed on as its rows' arrivals); one that moves bytes, the general ones.
TEST(Speed, ATimingOnlyRunMeasuresWhatARunMovingBytesDoes) {
  expect_same_measurements([](TimingConfig& c) { c.smem.move_bytes = false; });
}

TEST(L2Start, NamesAreTheHarnesss) {
  EXPECT_EQ(l2_start_from_name("cold"), L2Start::cold);
  EXPECT_EQ(l2_start_from_name("cold_clean"), L2Start::cold_clean);
  EXPECT_EQ(l2_start_from_name("warm"), L2Start::warm);
  try {
    l2_start_from_name("hot");
    ADD_FAILURE() << "an unknown L2 state was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cold (after a write flush: dirty lines), cold_clean"), std::string::npos);
  }
}
}  // namespace tmasim::sc

// libsystemc wants an sc_main; GoogleTest's main runs the tests, and the simulations run in
// forked children through run_experiment.
extern "C" int sc_main(int, char**) { return 0; }

namespace tmasim::sc {
namespace {

// A param may name params that sort after it (a JSON object's keys come sorted); a cycle is an error.
TEST(Scenario, ParamsResolveInAnyOrderAndRefuseCycles) {
  json j = pipeline();
  j["params"] = {{"A_ROWS", "ROWS"}, {"KT", "A_ROWS / 16"}, {"ROWS", 64}};
  Scenario s;
  build_scenario(parse_scenario(j), TimingConfig{}, s);
  EXPECT_EQ(materialize(s.experiment.ctas[0].threads[0]).size(), 4u * 2 + 2);  // KT = 4: arrive + load, waits from k = 2
  json cyc = pipeline();
  cyc["params"] = {{"KT", "ROWS"}, {"ROWS", "KT"}};
  EXPECT_NE(error_of(cyc).find("depends on itself"), std::string::npos) << error_of(cyc);
}

// Params are bounded (every name is looked up while expanding): a hostile file gets an error.
TEST(Scenario, TooManyParamsIsAnError) {
  json j = pipeline();
  for (int i = 0; i < 5000; ++i) j["params"]["P" + std::to_string(i)] = i;
  EXPECT_NE(error_of(j).find("at most 4096 params, got 5002"), std::string::npos) << error_of(j);
}

// A tensor's integer fields may be expressions over params, so that --set resizes the tensor.
TEST(Scenario, TensorFieldsMayBeParamExpressions) {
  json j = pipeline();
  j["tensors"]["T"]["global_dims"] = {64, "ROWS * 16"};
  j["tensors"]["T"]["box_dims"] = {64, "ROWS"};
  const ScenarioSpec spec = parse_scenario(j, {{"ROWS", "32"}});
  EXPECT_EQ(spec.maps[0].global_dims, (std::vector<int64_t>{64, 512}));
  EXPECT_EQ(spec.maps[0].box_dims, (std::vector<int64_t>{64, 32}));
  json bad = pipeline();
  bad["tensors"]["T"]["box_dims"] = {64, "ROWZ"};
  EXPECT_NE(error_of(bad).find("tensors.T: field 'box_dims'"), std::string::npos) << error_of(bad);
}

}  // namespace
}  // namespace tmasim::sc
