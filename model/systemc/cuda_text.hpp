// How `tmasim cuda` writes values and user text into the program it emits.
#pragma once
#include <string>
#include <vector>

#include "tmasim/types.hpp"

namespace tmasim::sc {

// The driver's name of an element type (CU_TENSOR_MAP_DATA_TYPE_...).
const char* driver_dtype(DType d);
// User text as a comment may hold it: printable ASCII but '\\' and '?', the rest as \xNN.
std::string comment_text(const std::string& s);
// The body of a C string literal whose value is `s`, safe to write unescaped into JSON.
std::string json_safe_c_literal(const std::string& s);

template <class T>
std::string list(const std::vector<T>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s.empty() ? "0" : s;
}

}  // namespace tmasim::sc
