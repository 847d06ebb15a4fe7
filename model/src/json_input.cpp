#include "tmasim/json_input.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "tmasim/types.hpp"

namespace tmasim {

using nlohmann::json;

Fields::Fields(const json& j, std::string where, const char* what) : j_(j), where_(std::move(where)) {
  if (!j.is_object()) fail(std::string(what) + " must be a JSON object");
}

void Fields::fail(const std::string& why) const { throw Error(where_ + ": " + why); }

void Fields::allow(std::initializer_list<const char*> keys) const {
  allow(std::vector<std::string>(keys.begin(), keys.end()));
}

void Fields::allow(const std::vector<std::string>& keys) const {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    const std::string& k = it.key();
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
    const std::string near = nearest_word(k, keys);
    fail("unknown key '" + k + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
}

std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.size() > 256) return "";
  std::string best;
  size_t best_distance = word.size() / 3 + 1;
  std::vector<size_t> row(word.size() + 1), next(word.size() + 1);
  for (const std::string& c : candidates) {
    if (c.size() > 256) continue;
    for (size_t i = 0; i <= word.size(); ++i) row[i] = i;
    for (size_t j = 1; j <= c.size(); ++j) {
      next[0] = j;
      for (size_t i = 1; i <= word.size(); ++i)
        next[i] = std::min({row[i] + 1, next[i - 1] + 1, row[i - 1] + (word[i - 1] == c[j - 1] ? 0 : 1)});
      std::swap(row, next);
    }
    if (row[word.size()] < best_distance) {
      best_distance = row[word.size()];
      best = c;
    }
  }
  return best;
}

std::string nearest_and_all(const std::string& word, const std::vector<std::string>& names, const std::string& label) {
  const std::string near = nearest_word(word, names);
  std::string all;
  for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
  return " (" + (near.empty() ? std::string() : "did you mean '" + near + "'? ") + label + " " + all + ")";
}

const json& Fields::at(const char* key) const {
  auto it = j_.find(key);
  if (it == j_.end()) fail(std::string("missing field '") + key + "'");
  return *it;
}

namespace {
std::string range(int64_t lo, int64_t hi) { return std::to_string(lo) + ".." + std::to_string(hi); }
}  // namespace

int64_t Fields::integer(const char* key, int64_t lo, int64_t hi) const {
  const json& v = at(key);
  // A number written with a fraction or an exponent is not an integer; one past int64 is
  // stored unsigned by the parser.
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    fail(std::string("field '") + key + "' = " + json_text(v) + " is out of range " + range(lo, hi));
  if (!v.is_number_integer()) fail(std::string("field '") + key + "' must be an integer, got " + json_text(v));
  const int64_t x = v.get<int64_t>();
  if (x < lo || x > hi) fail(std::string("field '") + key + "' = " + std::to_string(x) + " is out of range " + range(lo, hi));
  return x;
}

int64_t Fields::integer_or(const char* key, int64_t fallback, int64_t lo, int64_t hi) const {
  return has(key) ? integer(key, lo, hi) : fallback;
}

std::vector<int64_t> Fields::integers(const char* key, size_t min_count, size_t max_count, int64_t lo,
                                      int64_t hi) const {
  const json& v = at(key);
  if (!v.is_array()) fail(std::string("field '") + key + "' must be an array of integers");
  if (v.size() < min_count || v.size() > max_count)
    fail(std::string("field '") + key + "' must hold " +
         (min_count == max_count ? std::to_string(min_count) : std::to_string(min_count) + " to " + std::to_string(max_count)) +
         " integers, got " + std::to_string(v.size()));
  std::vector<int64_t> out;
  for (const json& e : v) {
    if (!e.is_number_integer() || (e.is_number_unsigned() && e.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)))
      fail(std::string("field '") + key + "' holds a non-integer: " + json_text(e));
    const int64_t x = e.get<int64_t>();
    if (x < lo || x > hi)
      fail(std::string("field '") + key + "' holds " + std::to_string(x) + ", out of range " + range(lo, hi));
    out.push_back(x);
  }
  return out;
}

double Fields::number(const char* key, double lo, double hi) const {
  const json& v = at(key);
  if (!v.is_number()) fail(std::string("field '") + key + "' must be a number, got " + json_text(v));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi)
    fail(std::string("field '") + key + "' = " + json_text(v) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return x;
}

std::vector<double> Fields::numbers(const char* key, size_t max_count, double lo, double hi) const {
  const json& v = at(key);
  if (!v.is_array() || v.size() > max_count)
    fail(std::string("field '") + key + "' must be an array of at most " + std::to_string(max_count) + " numbers");
  std::vector<double> out;
  for (const json& e : v) {
    const double x = e.is_number() ? e.get<double>() : std::nan("");
    if (!std::isfinite(x) || x < lo || x > hi) fail(std::string("field '") + key + "' holds " + json_text(e) + ", not a number in range");
    out.push_back(x);
  }
  return out;
}

double Fields::number_or(const char* key, double fallback, double lo, double hi) const {
  return has(key) ? number(key, lo, hi) : fallback;
}

std::string Fields::string(const char* key) const {
  const json& v = at(key);
  if (!v.is_string()) fail(std::string("field '") + key + "' must be a string, got " + json_text(v));
  return v.get<std::string>();
}

std::string Fields::string_or(const char* key, const std::string& fallback) const {
  return has(key) ? string(key) : fallback;
}

bool Fields::boolean_or(const char* key, bool fallback) const {
  if (!has(key)) return fallback;
  const json& v = at(key);
  if (!v.is_boolean()) fail(std::string("field '") + key + "' must be true or false, got " + json_text(v));
  return v.get<bool>();
}

Fields Fields::object(const char* key) const { return Fields(at(key), where_ + "." + key, key); }

std::string json_text(const nlohmann::json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

json parse_json_text(const std::string& text, const std::string& where) {
  // The parser recurses once per level: measure the depth first (outside strings).
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        throw Error(where + ": JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  // A key given twice in one object is an error (the parser would keep the last one, silently).
  std::vector<std::unordered_set<std::string>> keys;  // the keys seen, per open object (a set: an
                                                      // object of 10^5 keys is checked in linear time)
  const json::parser_callback_t no_duplicates = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      keys.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      if (!keys.empty()) keys.pop_back();
    } else if (event == json::parse_event_t::key && !keys.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!keys.back().insert(key).second) throw Error(where + ": the key '" + key + "' is given twice in one object");
    }
    return true;
  };
  try {
    return json::parse(text, no_duplicates);
  } catch (const json::exception& e) {
    throw Error(where + ": not valid JSON (" + e.what() + ")");
  }
}

}  // namespace tmasim
