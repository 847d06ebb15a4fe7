#include "sweep_axis.hpp"

#include <sstream>

#include "tmasim/types.hpp"

namespace tmasim::cli {

Axis parse_axis(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size() || text.back() == ',')
    throw Error("--set '" + text + "': expected KEY=V1,V2,... (a scenario parameter or section.key)");
  Axis a;
  a.key = text.substr(0, eq);
  a.config = a.key.find('.') != std::string::npos;
  std::stringstream ss(text.substr(eq + 1));
  std::string v;
  while (std::getline(ss, v, ','))
    if (v.empty()) throw Error("--set '" + text + "': an empty value");
    else a.values.push_back(v);
  return a;
}

}  // namespace tmasim::cli
