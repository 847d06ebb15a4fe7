#include "cli_input.hpp"

#include <sstream>

#include "tmasim/types.hpp"

namespace tmasim::cli {

std::string quoted_cell(std::string text) {
  for (char& ch : text)
    if (ch == '"' || ch == '\n' || ch == '\r') ch = '\'';
  return "\"" + text + "\"";
}

std::optional<int64_t> parse_int(const std::string& text) {
  size_t used = 0;
  int64_t x = 0;
  try {
    x = std::stoll(text, &used, 0);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (text.empty() || used != text.size()) return std::nullopt;
  return x;
}

std::vector<int64_t> int_list(const std::string& text, const char* flag) {
  std::vector<int64_t> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const std::optional<int64_t> x = parse_int(item);
    if (!x) throw Error(std::string(flag) + ": '" + item + "' is not an integer (expected a comma-separated list)");
    v.push_back(*x);
  }
  if (v.empty()) throw Error(std::string(flag) + ": empty list");
  return v;
}

Axis parse_axis(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size() || text.back() == ',')
    throw Error("--set '" + text + "': expected KEY=V1,V2,... (a scenario parameter or section.key)");
  Axis a;
  a.key = text.substr(0, eq);
  std::stringstream ss(text.substr(eq + 1));
  std::string v;
  while (std::getline(ss, v, ','))
    if (v.empty()) throw Error("--set '" + text + "': an empty value");
    else a.values.push_back(v);
  return a;
}

}  // namespace tmasim::cli
