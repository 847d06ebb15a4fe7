// Fuzz target: scenario expressions. Parsing, evaluation (checked arithmetic) and printing as
// C must end in a value or tmasim::Error, whatever the text; binding constants must change neither.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tmasim/expression.hpp"
#include "tmasim/types.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const tmasim::Expression e = tmasim::Expression::parse(text);
    (void)e.to_c("v_");
    (void)e.names();
    (void)e.eval({{"k", 3}, {"S", -4}, {"N", INT64_MAX}, {"M", INT64_MIN}});
  } catch (const tmasim::Error&) {
  }
  // Binding constants (a scenario's params) changes no value and no error.
  try {
    const tmasim::Expression x = tmasim::Expression::parse(text);
    const tmasim::Vars constants{{"S", -4}, {"N", INT64_MAX}, {"M", INT64_MIN}};
    const tmasim::Expression bound = x.with_constants(constants);
    std::string want, got;
    int64_t a = 0, b = 0;
    try {
      a = x.eval({{"S", -4}, {"N", INT64_MAX}, {"M", INT64_MIN}, {"k", 3}});
    } catch (const tmasim::Error& err) {
      want = err.what();
    }
    try {
      b = bound.eval({{"k", 3}});
    } catch (const tmasim::Error& err) {
      got = err.what();
    }
    if (got != want || a != b) __builtin_trap();
  } catch (const tmasim::Error&) {
  }
  // Where int32_range bounds an expression (the emitter then prints it in 32-bit int), evaluating
  // it at the ranges' ends neither fails nor leaves the bound.
  tmasim::Expression e;
  try {
    e = tmasim::Expression::parse(text);
  } catch (const tmasim::Error&) {
    return 0;
  }
  try {
    const auto range = e.int32_range({{"k", {0, 127}}, {"S", {3, 3}}, {"w", {-2, 5}}});
    if (!range) return 0;
    (void)e.to_c_int32("v_");
    for (int64_t k : {0, 1, 126, 127})
      for (int64_t w : {-2, -1, 0, 5}) {
        const int64_t v = e.eval({{"k", k}, {"S", 3}, {"w", w}});
        if (v < range->lo || v > range->hi) __builtin_trap();
      }
  } catch (const tmasim::Error&) {
    __builtin_trap();  // a bounded expression cannot fail to evaluate
  }
  return 0;
}
