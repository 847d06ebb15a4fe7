#include "timing_config.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <type_traits>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

namespace {

constexpr int kMaxExtends = 8;
const nlohmann::json kAbsent = nlohmann::json::object();  // Fields keeps a reference

template <class Section>
void read_key(const Fields& sec, const ConfigKey<Section>& k, Section& s) {
  const bool required = k.need == KeyNeed::required;
  if (required) (void)sec.at(k.name);
  std::visit(
      [&](auto field) {
        auto& v = s.*field;
        using T = std::remove_reference_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          v = sec.boolean_or(k.name, v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          v = sec.string_or(k.name, v);
          if (v.size() > 4096) sec.fail(std::string(k.name) + " is longer than 4096 characters");
          const bool choice = std::string(k.unit).find('|') != std::string::npos;
          if (choice && ("|" + std::string(k.unit) + "|").find("|" + v + "|") == std::string::npos)
            sec.fail(std::string(k.name) + " must be one of " + k.unit + ", got \"" + v + "\"");
        } else if constexpr (std::is_integral_v<T>) {
          v = static_cast<T>(sec.integer_or(k.name, v, static_cast<int64_t>(k.lo), static_cast<int64_t>(k.hi)));
        } else {
          v = static_cast<T>(sec.number_or(k.name, v, k.lo, k.hi));
        }
      },
      k.field);
}

template <class Section>
std::vector<std::string> key_names() {
  std::vector<std::string> names;
  for (const ConfigKey<Section>& k : Section::keys()) names.push_back(k.name);
  return names;
}

// A section of the file; an absent one reads as empty (its keys take their defaults).
Fields section_or_empty(const Fields& top, const std::string& name) {
  return top.has(name.c_str()) ? top.object(name.c_str()) : Fields(kAbsent, top.where() + "." + name);
}

// The section's object in the file (absent: every key takes its default, unless one is required).
template <class Section>
Fields section_fields(const Fields& top) {
  const std::string name = Section::kSection;
  if (name.empty()) return top;
  bool required = false;
  for (const ConfigKey<Section>& k : Section::keys()) required |= k.need == KeyNeed::required;
  return required ? top.object(name.c_str()) : section_or_empty(top, name);
}

template <class Section>
void read_section(const Fields& top, Section& s) {
  const Fields sec = section_fields<Section>(top);
  if (!std::string(Section::kSection).empty()) sec.allow(key_names<Section>());
  for (const ConfigKey<Section>& k : Section::keys()) read_key(sec, k, s);
}

// Every section of a configuration, each once, in the order of the file's documentation.
template <class Visit>
void for_each_section(TimingConfig& c, Visit&& visit) {
  visit(static_cast<ClockParams&>(c));
  visit(c.smem);
  visit(static_cast<GpuParams&>(c));
  visit(static_cast<IssueParams&>(c));
  visit(static_cast<TmaParams&>(c));
  visit(static_cast<MemoryParams&>(c));
  visit(static_cast<ThreadParams&>(c));
  visit(static_cast<ComputeParams&>(c));
  visit(static_cast<TensorParams&>(c));
}

// What the keys alone cannot say: which values of one key another allows.
void check_across_keys(const TimingConfig& c, const Fields& top) {
  if (c.sector_bytes > c.l2_line_bytes || c.l2_line_bytes % c.sector_bytes != 0)
    section_or_empty(top, "memory")
        .fail("l2_line_bytes (" + std::to_string(c.l2_line_bytes) + ") must be a whole number of sector_bytes (" +
              std::to_string(c.sector_bytes) + ")");
  if (c.l2_fetch_bytes > 0 && (c.l2_fetch_bytes % c.sector_bytes != 0 || c.l2_line_bytes % c.l2_fetch_bytes != 0 ||
                               c.l2_line_bytes / c.l2_fetch_bytes > 8))
    section_or_empty(top, "memory")
        .fail("l2_fetch_bytes (" + std::to_string(c.l2_fetch_bytes) +
              ") must be a whole number of sector_bytes and divide l2_line_bytes into at most 8 units");
  try {
    (void)gpc_sizes(c);
  } catch (const Error& e) {
    section_or_empty(top, "gpu").fail(e.what());
  }
  try {
    (void)l2_half_of_sm(c);
    (void)gpc_path_of_sm(c);
  } catch (const Error& e) {
    section_or_empty(top, "memory").fail(e.what());
  }
  if (c.rtl_agu && c.agu_bytes_per_cycle != 16 && c.agu_bytes_per_cycle != 128)
    section_or_empty(top, "tma")
        .fail("agu = \"rtl\" needs agu_bytes_per_cycle 16 or 128 (the RTL generators' two widths), got " +
              std::to_string(c.agu_bytes_per_cycle));
}

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

}  // namespace

TimingConfig TimingConfig::from_json_file(const std::string& path) {
  return from_json(read_config_file(path), "configuration '" + path + "'");
}

TimingConfig TimingConfig::from_json(const nlohmann::json& j, const std::string& where) {
  const Fields top(j, where, "a configuration");
  std::vector<std::string> allowed = {"device", "comment", "provenance", "extends"};
  TimingConfig c;
  for_each_section(c, [&](auto& s) {
    using Section = std::remove_reference_t<decltype(s)>;
    if (std::string(Section::kSection).empty()) {
      for (const std::string& n : key_names<Section>()) allowed.push_back(n);
    } else {
      allowed.push_back(Section::kSection);
    }
  });
  top.allow(allowed);
  if (top.has("device")) (void)top.string("device");
  if (top.has("extends")) top.fail("'extends' names another file: read the configuration with read_config_file");
  for_each_section(c, [&](auto& s) { read_section(top, s); });
  c.set_sm_clock_mhz(c.sm_clock_mhz);
  c.rtl_agu = c.agu == "rtl";
  check_across_keys(c, top);
  return c;
}

std::vector<int> gpc_sizes(const TimingConfig& c) {
  if (c.gpc_sms.empty()) return {c.sms};
  std::vector<int> sizes;
  int64_t total = 0;
  size_t at = 0;
  while (at <= c.gpc_sms.size()) {
    const size_t comma = std::min(c.gpc_sms.find(',', at), c.gpc_sms.size());
    const std::string item = c.gpc_sms.substr(at, comma - at);
    if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string::npos || std::stoi(item) < 1)
      throw Error("gpc_sms must list each GPC's SMs as positive integers, comma-separated: '" + item + "'");
    sizes.push_back(std::stoi(item));
    total += sizes.back();
    at = comma + 1;
  }
  if (total != c.sms)
    throw Error("gpc_sms lists " + std::to_string(total) + " SMs, gpu.sms is " + std::to_string(c.sms));
  return sizes;
}

std::vector<int> gpc_of_sm(const TimingConfig& c) {
  const std::vector<int> sizes = gpc_sizes(c);
  std::vector<int> of_sm;
  for (size_t g = 0; g < sizes.size(); ++g) of_sm.insert(of_sm.end(), static_cast<size_t>(sizes[g]), static_cast<int>(g));
  return of_sm;
}

namespace {

// A per-GPC list (`key`: comma-separated numbers of at most `digits` digits up to `max`, one per GPC
// of gpu.gpc_sms), spread over each GPC's SMs. `what` names an item in the error.
std::vector<int> per_gpc_list_by_sm(const TimingConfig& c, const std::string& list, const char* key, const char* what,
                                    size_t digits, int max) {
  const std::vector<int> sizes = gpc_sizes(c);
  std::vector<int> values;
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, comma - at);
    if (item.empty() || item.size() > digits || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(item) > max)
      throw Error(std::string(key) + " must list " + what + " 0-" + std::to_string(max) + ", comma-separated: '" + item + "'");
    values.push_back(std::stoi(item));
    at = comma + 1;
  }
  if (values.size() != sizes.size())
    throw Error(std::string(key) + " lists " + std::to_string(values.size()) + " GPCs, gpu.gpc_sms " + std::to_string(sizes.size()));
  std::vector<int> of_sm;
  for (int g : gpc_of_sm(c)) of_sm.push_back(values[static_cast<size_t>(g)]);
  return of_sm;
}

}  // namespace

std::vector<int> gpc_path_of_sm(const TimingConfig& c) {
  if (c.gpc_path_of_gpc.empty()) return gpc_of_sm(c);
  return per_gpc_list_by_sm(c, c.gpc_path_of_gpc, "gpc_path_of_gpc", "each GPC's path as a number", 3, 999);
}

std::vector<int> l2_half_of_sm(const TimingConfig& c) {
  if (c.l2_half_of_gpc.empty()) return {};
  return per_gpc_list_by_sm(c, c.l2_half_of_gpc, "l2_half_of_gpc", "each GPC's L2 half as a digit", 1, 7);
}

nlohmann::json read_config_file(const std::string& path) {
  std::vector<std::string> chain = {path};
  nlohmann::json j = read_json_file(path, "configuration");
  std::vector<nlohmann::json> layers;
  while (j.is_object() && j.contains("extends")) {
    const Fields f(j, "configuration '" + chain.back() + "'");
    const std::string named = f.string("extends");
    const std::string base = !named.empty() && named[0] == '/' ? named : folder_of(chain.back()) + named;
    for (const std::string& seen : chain)
      if (seen == base) f.fail("'extends' makes a cycle through '" + base + "'");
    if (chain.size() > kMaxExtends) f.fail("'extends' chains more than " + std::to_string(kMaxExtends) + " files");
    j.erase("extends");
    layers.push_back(std::move(j));
    chain.push_back(base);
    j = read_json_file(base, "configuration");
  }
  // The base first, then each file that extends it: a later file's keys win, section by section.
  for (auto layer = layers.rbegin(); layer != layers.rend(); ++layer) {
    if (!j.is_object()) break;  // from_json names the problem
    for (auto it = layer->begin(); it != layer->end(); ++it) {
      if (it->is_object() && j.contains(it.key()) && j[it.key()].is_object() && it.key() != "provenance") {
        for (auto kv = it->begin(); kv != it->end(); ++kv) j[it.key()][kv.key()] = kv.value();
      } else {
        j[it.key()] = it.value();
      }
    }
  }
  return j;
}

namespace {

std::vector<std::string> keys_of(const nlohmann::json& object, bool sections) {
  std::vector<std::string> out;
  for (auto it = object.begin(); it != object.end(); ++it)
    if (it.value().is_object() == sections) out.push_back(it.key());
  return out;
}

// A --set of a section or key the configuration does not have is the option's mistake, not the
// file's: say so, with the nearest name and what there is.
void refuse_unknown_setting(const std::string& key, const std::string& section, const std::string& field) {
  const nlohmann::json& known = config_keys();
  if (!known.contains(section) || !known.at(section).is_object())
    throw Error("--set " + key + ": the configuration has no section '" + section + "'" +
                nearest_and_all(section, keys_of(known, true), "there are:"));
  if (!known.at(section).contains(field))
    throw Error("--set " + key + ": the section '" + section + "' has no key '" + field + "'" +
                nearest_and_all(field, keys_of(known.at(section), false), "there are:"));
}

}  // namespace

const nlohmann::json& config_keys() {
  static const nlohmann::json keys = to_json(TimingConfig{});
  return keys;
}

void apply_config_overrides(nlohmann::json& j, const std::vector<std::pair<std::string, std::string>>& sets) {
  for (const auto& [key, text] : sets) {
    nlohmann::json value;
    try {
      value = parse_json_text(text, "--set " + key);  // depth-limited, as the file readers are
    } catch (const Error&) {
      value = text;  // a bare word: a string value (tma.agu=rtl)
    }
    const size_t dot = key.find('.');
    if (dot == std::string::npos) {
      if (!j.contains(key)) throw Error("--set " + key + ": the configuration has no key '" + key + "'");
      j[key] = value;
      continue;
    }
    const std::string section = key.substr(0, dot), field = key.substr(dot + 1);
    if (!j.is_object() || (j.contains(section) && !j[section].is_object()))
      throw Error("--set " + key + ": '" + section + "' is not a section of the configuration");
    refuse_unknown_setting(key, section, field);
    j[section][field] = value;
  }
}

nlohmann::json to_json(const TimingConfig& config) {
  TimingConfig c = config;
  nlohmann::json j = nlohmann::json::object();
  for_each_section(c, [&](auto& s) {
    using Section = std::remove_reference_t<decltype(s)>;
    const std::string name = Section::kSection;
    nlohmann::json& out = name.empty() ? j : j[name];
    for (const ConfigKey<Section>& k : Section::keys())
      std::visit([&](auto field) { out[k.name] = s.*field; }, k.field);
  });
  return j;
}

namespace {

// A range bound as the documentation writes it: 2^k and 10^k for the large round ones.
std::string bound_text(double v) {
  if (v > 4096 && std::exp2(std::round(std::log2(v))) == v) return "2^" + std::to_string(std::lround(std::log2(v)));
  if (v >= 1e6 && std::pow(10.0, std::round(std::log10(v))) == v) return "10^" + std::to_string(std::lround(std::log10(v)));
  std::ostringstream os;
  os << v;
  return os.str();
}

template <class T>
std::string value_text(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return v ? "`true`" : "`false`";
  if constexpr (std::is_same_v<T, std::string>) return "`" + v + "`";
  if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, std::string>) {
    std::ostringstream os;
    os << v;
    return os.str();
  }
}

// "cpp|rtl" as "`cpp`, `rtl`".
std::string choices_text(const std::string& choices) {
  std::string out = "`";
  for (char ch : choices) out += ch == '|' ? std::string("`, `") : std::string(1, ch);
  return out + "`";
}

template <class Section>
void reference_rows(std::ostream& os) {
  static const Section defaults = Section();
  const std::string prefix = std::string(Section::kSection).empty() ? "" : std::string(Section::kSection) + ".";
  for (const ConfigKey<Section>& k : Section::keys()) {
    std::string unit = k.unit, def, range = "-";
    std::visit(
        [&](auto field) {
          using T = std::decay_t<decltype(defaults.*field)>;
          def = k.need == KeyNeed::required ? "required" : value_text(defaults.*field);
          if constexpr (std::is_same_v<T, bool>) unit = "`true`, `false`";
          if constexpr (std::is_same_v<T, std::string>) {
            if (std::string(k.unit).find('|') != std::string::npos) unit = choices_text(k.unit);
            if (def == "``") def = "(empty)";
          }
          if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) range = bound_text(k.lo) + "-" + bound_text(k.hi);
        },
        k.field);
    os << "| `" << prefix << k.name << "` | " << unit << " | " << def << " | " << range << " | " << k.meaning << " |\n";
  }
}

}  // namespace

std::string config_reference_markdown() {
  std::ostringstream os;
  os << "| key | unit | default | range | meaning |\n| --- | --- | --- | --- | --- |\n"
     << "| `extends` | path | | | another configuration this one starts from (relative to this file's folder); "
        "this file's keys replace its keys, section by section |\n"
     << "| `device` | text | | | free text, the machine described |\n"
     << "| `comment`, `provenance` | any | | | free text (what the values were fitted to) |\n";
  TimingConfig c;
  for_each_section(c, [&](auto& s) { reference_rows<std::remove_reference_t<decltype(s)>>(os); });
  return os.str();
}

}  // namespace tmasim::sc
