// Command-line text the subcommands read beyond what CLI11 checks, parsed apart from the
// commands so that it can be fuzzed (tests/fuzz/fuzz_cli.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tmasim::cli {

// The whole of `text` as an integer, decimal or 0x hex; nullopt otherwise (or out of 64 bits).
std::optional<int64_t> parse_int(const std::string& text);

// A comma-separated list of integers, decimal or 0x hex, each checked; Error names `flag`.
std::vector<int64_t> int_list(const std::string& text, const char* flag);

// A CSV cell of text: quoted, its quotes and line ends made single quotes.
std::string quoted_cell(std::string text);

// One swept setting of `tmasim sweep`: KEY=V1,V2,... (a scenario parameter, or section.key of
// the configuration).
struct Axis {
  std::string key;
  std::vector<std::string> values;
};

// Throws Error naming the setting when it is malformed.
Axis parse_axis(const std::string& text);

}  // namespace tmasim::cli
