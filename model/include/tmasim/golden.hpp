// Golden-case files (shared/spec/golden-case.md): reading JSON Lines, plain or gzip, and
// judging a TMA copy case against the functional model as section 1 prescribes.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tmasim/tensor_map.hpp"
#include "tmasim/tma.hpp"

namespace tmasim {

// Calls `line` for every non-empty line of a .jsonl or .jsonl.gz file; throws Error when the
// file cannot be read or a line is not JSON (naming the file and line number).
// Returns the number of JSON objects read.
int for_each_json_line(const std::string& path, const std::function<void(const nlohmann::json&, int line_no)>& line);

// A tensor-map field holds a name outside the driver's enumeration.
class UnknownEnum : public Error {
 public:
  using Error::Error;
};

// Reads a whole JSON file; `what` names it in errors ("configuration", "scenario").
nlohmann::json read_json_file(const std::string& path, const char* what);

// Reads a tensor map object (section 1 field names). Throws Error naming `where` and the bad
// field; `strict` (a user's file) also refuses unknown keys, which golden files may carry.
TensorMap parse_tensor_map(const nlohmann::json& j, const std::string& where = "tensor_map", bool strict = false);

// The global fill of section 1: byte i of a case's buffer.
constexpr uint8_t golden_fill(uint64_t i) { return static_cast<uint8_t>(static_cast<uint32_t>(i * 2654435761u) >> 24); }

enum class Verdict { pass, fail, skip };

struct CaseResult {
  std::string name;
  Verdict verdict = Verdict::skip;
  std::string detail;  // for fail: what differed; for skip: why inconclusive
};

// Judges one case. Malformed cases are failures whose detail says what is malformed.
CaseResult judge_case(const nlohmann::json& c);

// Field access with errors that name the field.
const nlohmann::json& require(const nlohmann::json& j, const char* field);
int64_t require_int(const nlohmann::json& j, const char* field);
std::vector<int64_t> require_ints(const nlohmann::json& j, const char* field);
std::string require_string(const nlohmann::json& j, const char* field);
std::vector<uint8_t> parse_hex(const std::string& hex, const char* field);

// Section 2: one measured shared-memory access pattern (op, width, num, trans, 32 lane
// addresses below kMaxSmemAddress), checked (check_access). Throws Error naming the field.
constexpr int64_t kMaxSmemAddress = (int64_t(1) << 24) - 1;
struct WarpAccess;
class Fields;
WarpAccess pattern_access(const Fields& pattern);

}  // namespace tmasim
