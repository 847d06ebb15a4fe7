#include "step_kinds.hpp"

#include <sstream>

namespace tmasim::sc {

namespace {

StepKindInfo info(StepKind kind, const char* name, const char* keys, std::optional<Op> op) {
  StepKindInfo k{kind, name, {name, "if", "comment"}, op};
  std::istringstream words(keys);
  for (std::string w; words >> w;) k.keys.push_back(w);
  return k;
}

}  // namespace

const std::vector<StepKindInfo>& step_kinds() {
#define TMASIM_STEP_KIND_INFO(kind, keys, op) info(StepKind::kind, #kind, keys, op),
  static const std::vector<StepKindInfo> all = {TMASIM_STEP_KINDS(TMASIM_STEP_KIND_INFO)};
#undef TMASIM_STEP_KIND_INFO
  return all;
}

const StepKindInfo& step_kind(StepKind kind) { return step_kinds()[static_cast<size_t>(kind)]; }

}  // namespace tmasim::sc
