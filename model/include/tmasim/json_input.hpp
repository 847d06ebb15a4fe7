// The one way tmasim reads JSON that a user or a GPU run wrote: typed, range-checked access
// to the fields of one object, with errors that name where the object came from (file, line,
// step) and the field. No raw get<>/value() on untrusted input anywhere else.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tmasim {

class Fields {
 public:
  // `where` names the object in errors ("scenario.json: ctas[0]", "timing.jsonl:12");
  // throws Error unless `j` is an object. Keeps a reference to `j`: it must outlive the Fields.
  Fields(const nlohmann::json& j, std::string where, const char* what = "an object");

  [[noreturn]] void fail(const std::string& why) const;
  // Every key of the object must be one of these (a misspelt key is an error).
  // An unknown key's error suggests the nearest allowed one ("did you mean 'l2_hit_cycles'?").
  void allow(std::initializer_list<const char*> keys) const;
  void allow(const std::vector<std::string>& keys) const;
  bool has(const char* key) const { return j_.contains(key); }
  const nlohmann::json& at(const char* key) const;  // required
  const nlohmann::json& raw() const { return j_; }
  const std::string& where() const { return where_; }

  int64_t integer(const char* key, int64_t lo, int64_t hi) const;
  int64_t integer_or(const char* key, int64_t fallback, int64_t lo, int64_t hi) const;
  std::vector<int64_t> integers(const char* key, size_t min_count, size_t max_count, int64_t lo, int64_t hi) const;
  double number(const char* key, double lo, double hi) const;  // finite, integer or not
  std::vector<double> numbers(const char* key, size_t max_count, double lo, double hi) const;
  double number_or(const char* key, double fallback, double lo, double hi) const;
  std::string string(const char* key) const;
  std::string string_or(const char* key, const std::string& fallback) const;
  bool boolean_or(const char* key, bool fallback) const;
  Fields object(const char* key) const;  // a nested object, named where.key

 private:
  const nlohmann::json& j_;
  std::string where_;
};

// The candidate nearest to `word` by edit distance when it is close enough to be a slip of the
// keyboard (at most a third of its letters differ); empty otherwise.
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean 'x'? LABEL a, b, c)": the nearest of `names` to `word`, if any, and all of them.
std::string nearest_and_all(const std::string& word, const std::vector<std::string>& names, const std::string& label);

// A value as JSON text for a message; bytes that are not UTF-8 (a --set value from the command
// line) are replaced, never an exception of the serializer's.
std::string json_text(const nlohmann::json& v);

// JSON text is parsed only when its nesting depth is at most this (the parser recurses).
constexpr int kMaxJsonDepth = 64;

// Parses text that a user wrote; throws Error naming `where` on invalid or too deep JSON.
nlohmann::json parse_json_text(const std::string& text, const std::string& where);

}  // namespace tmasim
