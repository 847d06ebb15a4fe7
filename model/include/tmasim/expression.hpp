// Integer expressions of scenario files: + - * / % ( ), shifts << >>, bitwise & |,
// comparisons (< <= > >= == !=), logical && || !, unary minus, decimal literals and names,
// with C's precedence. Parsed once into a tree,
// evaluated with checked 64-bit arithmetic (overflow and division by zero are errors), and
// printable as C so that the CUDA emitter compiles the very same expression into a kernel.
// Division and remainder truncate towards zero, as in C.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tmasim {

// Variables in scope, innermost last (a lookup searches from the back).
using Vars = std::vector<std::pair<std::string, int64_t>>;

// The values a name can take, both ends included.
struct ValueRange {
  int64_t lo = 0, hi = 0;
};
using Ranges = std::vector<std::pair<std::string, ValueRange>>;

// `var / divisor` or `var % divisor` with a constant divisor > 1: what a compiled loop can keep as
// a wrapping counter (CUTLASS's pipeline stage and phase) instead of dividing every iteration.
struct CounterSite {
  std::string var;
  int64_t divisor = 0;
  bool remainder = false;
};
// The C name of the counter holding a site's value, or nullopt to compute it as written.
using CounterNames = std::function<std::optional<std::string>(const CounterSite&)>;

class Expression {
 public:
  Expression() = default;
  static Expression parse(const std::string& text);  // throws Error naming the problem
  static Expression constant(int64_t v);
  int64_t eval(const Vars& vars) const;
  // The same expression with the names of `constants` bound to their values and every operation
  // on values alone computed once (unless that fails: its error stays for eval to meet). With the
  // caller's variables never binding a name of `constants`, eval gives what it gives on this one
  // with them added, and the same errors; the text is this one's.
  Expression with_constants(const Vars& constants) const;
  // C source for the expression, each name written as prefix + name.
  std::string to_c(const std::string& prefix) const;
  // The range of the expression's value when each name lies in its range, provided every value
  // its evaluation passes through provably fits 32 bits (no name without a range, no divisor
  // that may be zero, no shift that may leave 32 bits); nullopt otherwise.
  std::optional<ValueRange> int32_range(const Ranges& ranges) const;
  // C source computing in 32-bit int (valid where int32_range holds: the same values as the
  // 64-bit form, without its multiword multiplies and divisions), widened to long long.
  std::string to_c_int32(const std::string& prefix) const;
  // Either form, with each site whose divisor reads only `constants` written as the counter
  // `counters` names (a C int), where it names one.
  std::string to_c(const std::string& prefix, bool int32, const Vars& constants, const CounterNames& counters) const;
  // Names the expression reads.
  std::vector<std::string> names() const;
  // Each division or remainder whose dividend reads `var` and whose divisor reads only the names
  // of `constants` and is not a power of two (a compiled loop computes it with a multiply by a
  // magic number every iteration, not a shift or a mask), as "DIVIDEND / DIVISOR": x / 3 and x % 3 alike.
  std::vector<std::string> runtime_divisions(const std::string& var, const Vars& constants) const;
  // Each division or remainder by a constant (power of two or not) whose divisor reads only the
  // names of `constants` and whose dividend reads a name of `vars` without being one name alone or
  // one name divided by a constant (`(k + 1) % S`, not `k % S` or `(k / T) % S`), as
  // "DIVIDEND / DIVISOR": computed in line where `k / S` and `k % S` of a loop's variable are counters.
  std::vector<std::string> inline_divisions(const std::vector<std::string>& vars, const Vars& constants) const;
  const std::string& text() const { return text_; }
  bool empty() const { return !root_; }

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
};

// Parses and evaluates in one call (tests, one-off values).
int64_t eval_expression(const std::string& text, const Vars& vars);

}  // namespace tmasim
