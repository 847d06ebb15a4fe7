// What a scenario's user text may change in the CUDA that `tmasim cuda` emits: comments and the
// bytes inside string literals, nothing else. Shared by test_scenario.cpp and the scenario
// fuzz target.
//
// code_tokens() lexes C++ the way a compiler's first phases do (backslash-newline spliced first,
// then comments, string and character literals, raw strings), and returns the tokens outside
// comments with every literal reduced to its kind. Emitting a scenario as written and again with
// every user string replaced by a neutral one must give the same tokens: a name that ends a
// comment's line, splices the next line into it or closes a literal changes them.
#pragma once
#include <cctype>
#include <string>
#include <vector>

#include "cuda_emit.hpp"
#include "scenario.hpp"

namespace tmasim::test {

inline bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Phase 2: a backslash right before a newline joins the two lines.
inline std::string splice_lines(const std::string& src) {
  std::string s;
  s.reserve(src.size());
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i] == '\\' && i + 1 < src.size() && src[i + 1] == '\n') { ++i; continue; }
    if (src[i] == '\\' && i + 2 < src.size() && src[i + 1] == '\r' && src[i + 2] == '\n') { i += 2; continue; }
    s += src[i];
  }
  return s;
}

// Index past a quoted literal that opens at s[i]; npos when a newline or the end comes first.
inline size_t skip_quoted(const std::string& s, size_t i) {
  const char quote = s[i];
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') { ++i; continue; }
    if (s[i] == '\n') return std::string::npos;
    if (s[i] == quote) return i + 1;
  }
  return std::string::npos;
}

// Index past a raw string R"delim( ... )delim" whose quote is s[i]; npos when unterminated.
inline size_t skip_raw(const std::string& s, size_t i) {
  const size_t open = s.find('(', i);
  if (open == std::string::npos) return open;
  const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
  const size_t end = s.find(close, open);
  return end == std::string::npos ? end : end + close.size();
}

inline std::vector<std::string> code_tokens(const std::string& source) {
  const std::string s = splice_lines(source);
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (s.compare(i, 2, "//") == 0) {
      i = s.find('\n', i);
      if (i == std::string::npos) break;
      continue;
    }
    if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      if (end == std::string::npos) { out.push_back("<unterminated comment>"); break; }
      i = end + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      const size_t end = skip_quoted(s, i);
      if (end == std::string::npos) { out.push_back("<unterminated literal>"); break; }
      out.push_back(c == '"' ? "\"\"" : "''");
      i = end;
      continue;
    }
    if (ident_char(c)) {
      size_t j = i;
      // A pp-number also takes digit separators and exponent signs: 1'000, 1e+5.
      const bool number = std::isdigit(static_cast<unsigned char>(c));
      while (j < s.size() && (ident_char(s[j]) || (number && (s[j] == '.' || s[j] == '\'' ||
                                                               ((s[j] == '+' || s[j] == '-') &&
                                                                (s[j - 1] == 'e' || s[j - 1] == 'E'))))))
        ++j;
      const std::string word = s.substr(i, j - i);
      if (j < s.size() && s[j] == '"' && !word.empty() && word.back() == 'R' && word.size() <= 3) {
        const size_t end = skip_raw(s, j);
        if (end == std::string::npos) { out.push_back("<unterminated literal>"); break; }
        out.push_back("R\"\"");
        i = end;
        continue;
      }
      out.push_back(word);
      i = j;
      continue;
    }
    out.push_back(std::string(1, c));
    ++i;
  }
  return out;
}

// The same scenario with every piece of free text a user writes replaced by a plain one.
inline void neutralise_steps(std::vector<sc::StepSpec>& steps) {
  for (sc::StepSpec& s : steps) {
    if (s.kind == sc::StepSpec::Kind::stamp) s.var = "stamp";
    neutralise_steps(s.body);
  }
}

inline sc::ScenarioSpec with_neutral_text(sc::ScenarioSpec spec) {
  spec.name = "scenario";
  for (sc::CtaGroupSpec& g : spec.groups)
    for (sc::ThreadSpec& t : g.threads) {
      t.name = "thread";
      neutralise_steps(t.program);
    }
  return spec;
}

// Empty when the user's text changed nothing but comments and literals; else where it did.
inline std::string user_text_changes_code(const sc::ScenarioSpec& spec, const sc::Scenario& built,
                                          const sc::TimingConfig& cfg) {
  const std::vector<std::string> as_written = code_tokens(sc::emit_cuda(spec, built, cfg));
  const std::vector<std::string> neutral = code_tokens(sc::emit_cuda(with_neutral_text(spec), built, cfg));
  for (size_t k = 0; k < as_written.size() && k < neutral.size(); ++k)
    if (as_written[k] != neutral[k])
      return "token " + std::to_string(k) + ": '" + as_written[k] + "' where the emitter writes '" + neutral[k] + "'";
  if (as_written.size() != neutral.size())
    return std::to_string(as_written.size()) + " tokens where the emitter writes " + std::to_string(neutral.size());
  return "";
}

}  // namespace tmasim::test
