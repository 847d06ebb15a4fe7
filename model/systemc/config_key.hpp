// Configuration keys, each declared once, beside the component that uses it.
//
// A section of a configuration file is an X-macro list of its keys, one line a key:
//
//   #define TMASIM_MEMORY_KEYS(X)
//     X(int, l2_hit_cycles, "l2_hit_cycles", 200, 0, 1e6, optional, "cycles", "L2 hit latency")
//     X(...)                                  (each line but the last ends in a backslash)
//
// (C++ type, field, key in the file, default, range lo..hi, required or optional, unit, meaning).
// The section's struct declares its fields from it (TMASIM_CONFIG_FIELD) and lists its keys
// (TMASIM_CONFIG_SECTION); the reader, the range checks, `tmasim config --print` and the table
// of docs/config.md (`tmasim config --doc`) all take them from there. A string key's unit is
// the list of values it may take ("cpp|rtl").
#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tmasim::sc {

enum class KeyNeed { required, optional };

template <class Section>
struct ConfigKey {
  using Field = std::variant<int Section::*, int64_t Section::*, double Section::*, bool Section::*,
                             std::string Section::*>;
  const char* name;
  const char* unit;
  const char* meaning;
  double lo, hi;
  KeyNeed need;
  Field field;
};

#define TMASIM_CONFIG_FIELD(type, field, key, def, lo, hi, need, unit, meaning) type field = def;
#define TMASIM_CONFIG_KEY(type, field, key, def, lo, hi, need, unit, meaning) \
  ConfigKey<Self>{key, unit, meaning, lo, hi, KeyNeed::need, &Self::field},
// Inside the section's struct: its name in the file and its keys.
#define TMASIM_CONFIG_SECTION(Self_, name_, KEYS)                               \
  static constexpr const char* kSection = name_;                                \
  static const std::vector<ConfigKey<Self_>>& keys() {                          \
    using Self = Self_;                                                         \
    static const std::vector<ConfigKey<Self>> all = {KEYS(TMASIM_CONFIG_KEY)};  \
    return all;                                                                 \
  }

}  // namespace tmasim::sc
