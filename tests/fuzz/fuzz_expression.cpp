// Fuzz target: scenario expressions. Parsing, evaluation (checked arithmetic) and printing as
// C must end in a value or tmasim::Error, whatever the text.
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
  return 0;
}
