// The counters `tmasim cuda` keeps for the loops it emits: a loop variable's quotient and
// remainder by a constant (k / S, k % S) as CUTLASS's PipelineState keeps a pipeline's phase and
// stage, stepped with the variable, so that the loop's body divides by nothing.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tmasim/expression.hpp"

namespace tmasim::sc {

class LoopCounters {
 public:
  // A loop being emitted (`id` unique in the program), innermost last.
  void enter(const std::string& var, int id) { loops_.push_back(Loop{var, id, {}}); }
  // The C name of the counter holding `site`, of the innermost loop of its variable; noted as used.
  std::optional<std::string> name(const CounterSite& site) {
    for (auto f = loops_.rbegin(); f != loops_.rend(); ++f)
      if (f->var == site.var) {
        if (site.divisor > kMaxDivisor) return std::nullopt;
        f->divisors.insert(site.divisor);
        return c_name(*f, site.divisor, site.remainder);
      }
    return std::nullopt;
  }
  struct Emitted {
    std::string declarations;  // one line each, before the loop (empty: none used)
    std::string step;          // the for's step: ++v_var and each counter's
  };
  // Leaves the innermost loop: what its for statement needs for the counters its body used.
  Emitted leave(const std::string& indent) {
    const Loop f = loops_.back();
    loops_.pop_back();
    Emitted out{"", "++v_" + f.var};
    for (const int64_t d : f.divisors) {
      const std::string q = c_name(f, d, false), r = c_name(f, d, true);
      out.declarations += indent + "int " + q + " = 0, " + r + " = 0;\n";
      out.step += ", (++" + r + " == " + std::to_string(d) + " ? (" + r + " = 0, ++" + q + ") : 0)";
    }
    return out;
  }

 private:
  struct Loop {
    std::string var;
    int id = 0;
    std::set<int64_t> divisors;  // those the body reads a counter of
  };
  static std::string c_name(const Loop& f, int64_t divisor, bool remainder) {
    return (remainder ? "rem" : "quo") + std::to_string(divisor) + "_" + f.var + "_" + std::to_string(f.id);
  }
  static constexpr int64_t kMaxDivisor = int64_t(1) << 30;  // the counters are C ints
  std::vector<Loop> loops_;
};

}  // namespace tmasim::sc
