// One swept setting of `tmasim sweep`: KEY=V1,V2,... (a scenario parameter, or section.key of
// the configuration). Parsed apart from the command so that it can be fuzzed.
#pragma once
#include <string>
#include <vector>

namespace tmasim::cli {

struct Axis {
  std::string key;
  std::vector<std::string> values;
  bool config = false;  // section.key of the configuration; otherwise a scenario parameter
};

// Throws Error naming the setting when it is malformed.
Axis parse_axis(const std::string& text);

}  // namespace tmasim::cli
