#include "tmasim/golden.hpp"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

#include "tmasim/conflicts.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim {

using nlohmann::json;

int for_each_json_line(const std::string& path, const std::function<void(const json&, int)>& fn) {
  // gzclose also on an exception from fn: the zlib state must not leak.
  std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.c_str(), "rb"), gzclose);  // plain files too
  if (!f) throw Error("cannot open '" + path + "'");
  constexpr size_t kMaxLine = size_t(64) << 20;
  std::string line;
  char buf[1 << 16];
  int line_no = 0, objects = 0;
  auto flush = [&]() {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) return;
    const json j = parse_json_text(line, path + ":" + std::to_string(line_no));
    ++objects;
    fn(j, line_no);
  };
  int n;
  while ((n = gzread(f.get(), buf, sizeof buf)) > 0) {
    for (int i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        flush();
        line.clear();
      } else {
        line += buf[i];
        if (line.size() > kMaxLine) throw Error(path + ":" + std::to_string(line_no + 1) + ": a line longer than 64 MiB");
      }
    }
  }
  int err = 0;
  const char* msg = gzerror(f.get(), &err);
  if (n < 0 || err < 0)
    throw Error(path + ": read error after line " + std::to_string(line_no) + " (" + (msg ? msg : "zlib") + ")");
  if (!line.empty()) flush();
  return objects;
}

json read_json_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(std::string("cannot open ") + what + " '" + path + "'");
  // At most the limit and one byte more: a file that is a device or a pipe (/dev/zero) never grows memory.
  constexpr size_t kLimit = size_t(256) << 20;
  std::string text;
  char buf[1 << 16];
  while (in && text.size() <= kLimit) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<size_t>(in.gcount()));
  }
  if (text.size() > kLimit) throw Error(std::string(what) + " '" + path + "' is larger than 256 MiB");
  return parse_json_text(text, std::string(what) + " '" + path + "'");
}

const json& require(const json& j, const char* field) {
  if (!j.is_object()) throw Error("expected a JSON object holding '" + std::string(field) + "'");
  auto it = j.find(field);
  if (it == j.end()) throw Error(std::string("missing field '") + field + "'");
  return *it;
}

int64_t require_int(const json& j, const char* field) {
  const json& v = require(j, field);
  if (!v.is_number_integer()) throw Error(std::string("field '") + field + "' must be an integer, got " + json_text(v));
  return v.get<int64_t>();
}

std::vector<int64_t> require_ints(const json& j, const char* field) {
  const json& v = require(j, field);
  if (!v.is_array()) throw Error(std::string("field '") + field + "' must be an array of integers");
  std::vector<int64_t> out;
  for (const json& e : v) {
    if (!e.is_number_integer()) throw Error(std::string("field '") + field + "' holds a non-integer: " + json_text(e));
    out.push_back(e.get<int64_t>());
  }
  return out;
}

std::string require_string(const json& j, const char* field) {
  const json& v = require(j, field);
  if (!v.is_string()) throw Error(std::string("field '") + field + "' must be a string, got " + json_text(v));
  return v.get<std::string>();
}

std::vector<uint8_t> parse_hex(const std::string& hex, const char* field) {
  if (hex.size() % 2) throw Error(std::string("field '") + field + "' has an odd number of hex digits");
  std::vector<uint8_t> out(hex.size() / 2);
  auto nib = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw Error(std::string("field '") + field + "' holds a non-hex character");
  };
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(nib(hex[2 * i]) << 4 | nib(hex[2 * i + 1]));
  return out;
}

namespace {

// Every name of an enumeration (types.cpp's table, in order).
template <class E>
std::vector<std::string> enum_names() {
  std::vector<std::string> out;
  for (int i = 0; i < 256 && name(static_cast<E>(i)) != "invalid"; ++i) out.emplace_back(name(static_cast<E>(i)));
  return out;
}

template <class E>
E require_enum(const json& j, const char* field, std::optional<E> (*parse)(std::string_view), const std::string& where) {
  std::string s = require_string(j, field);
  if (auto e = parse(s)) return *e;
  throw UnknownEnum((where.empty() ? "" : where + ": ") + "field '" + field + "': unknown value '" + s + "'" +
                    nearest_and_all(s, enum_names<E>(), "one of"));
}

template <class E>
E optional_enum(const json& j, const char* field, E fallback, std::optional<E> (*parse)(std::string_view),
                const std::string& where) {
  return j.contains(field) ? require_enum(j, field, parse, where) : fallback;
}

}  // namespace

TensorMap parse_tensor_map(const json& j, const std::string& where, bool strict) {
  // Structure and magnitudes only (every count up to 8 entries, every value within 2^48): the
  // driver's rules, counts per rank included, are validate()'s to judge.
  const Fields f(j, where, "a tensor map");
  if (strict)
    f.allow({"mode", "dtype", "rank", "global_dims", "global_strides", "box_dims", "pixel_box_lower_corner",
             "pixel_box_upper_corner", "channels_per_pixel", "pixels_per_column", "element_strides", "interleave",
             "swizzle", "l2_promotion", "oob_fill"});
  constexpr int64_t kBig = int64_t(1) << 48;
  TensorMap m;
  m.mode = optional_enum(j, "mode", TensorMode::tiled, parse_mode, where);
  m.dtype = require_enum(j, "dtype", parse_dtype, where);
  m.rank = static_cast<int>(f.integer("rank", -8, 8));
  m.global_dims = f.integers("global_dims", 0, 8, -kBig, kBig);
  m.global_strides = f.integers("global_strides", 0, 8, -kBig, kBig);
  m.element_strides = f.has("element_strides") ? f.integers("element_strides", 0, 8, -kBig, kBig)
                                                : std::vector<int64_t>(static_cast<size_t>(std::max(m.rank, 0)), 1);
  if (m.mode == TensorMode::tiled) {
    m.box_dims = f.integers("box_dims", 0, 8, -kBig, kBig);
  } else {
    m.lower_corner = f.integers("pixel_box_lower_corner", 0, 8, -kBig, kBig);
    m.upper_corner = f.integers("pixel_box_upper_corner", 0, 8, -kBig, kBig);
    m.channels_per_pixel = f.integer("channels_per_pixel", -kBig, kBig);
    m.pixels_per_column = f.integer("pixels_per_column", -kBig, kBig);
  }
  m.interleave = optional_enum(j, "interleave", Interleave::none, parse_interleave, where);
  m.swizzle = optional_enum(j, "swizzle", Swizzle::none, parse_swizzle, where);
  m.l2_promotion = optional_enum(j, "l2_promotion", L2Promotion::none, parse_l2_promotion, where);
  m.oob_fill = optional_enum(j, "oob_fill", OobFill::zero, parse_oob_fill, where);
  return m;
}

namespace {

constexpr int64_t kMaxBuffer = int64_t(1) << 28;  // 256 MiB; the largest H100 case needs 1.2 MiB

// Bytes of the case's global buffer the tensor can touch: its base offset plus the farthest
// element, so the model sees the same fill the GPU saw.
int64_t global_extent(const TensorMap& m, int64_t base_offset) {
  const int64_t far = m.global_span_bytes();
  return far > kMaxBuffer ? INT64_MAX : base_offset + far + 64;
}

std::string first_difference(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const char* what) {
  size_t n = std::min(got.size(), want.size());
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      std::ostringstream os;
      size_t count = 0;
      for (size_t k = i; k < n; ++k) count += got[k] != want[k];
      os << what << " differs at offset " << i << ": model 0x" << std::hex << int(got[i]) << ", GPU 0x"
         << int(want[i]) << std::dec << " (" << count << " bytes differ)";
      return os.str();
    }
  }
  if (got.size() != want.size()) return std::string(what) + " sizes differ";
  return "";
}

// The case's global memory: section 1's fill, or the provenance fill of the interleave probe
// (each 4-byte word holds its own index).
std::vector<uint8_t> filled_global(const Fields& f, size_t size) {
  std::vector<uint8_t> global(size);
  const std::string fill = f.string_or("global_fill", "golden");
  if (fill == "u32_word_index") {
    for (size_t i = 0; i < global.size(); ++i) global[i] = static_cast<uint8_t>((i / 4) >> (8 * (i % 4)));
  } else if (fill == "golden") {
    for (size_t i = 0; i < global.size(); ++i) global[i] = golden_fill(i);
  } else {
    throw Error("unknown global_fill '" + fill + "'");
  }
  return global;
}

// Where the model's shared memory (the captured window), global window and transaction bytes
// first differ from the GPU's; empty when they agree.
std::string first_disagreement(const json& c, const Fields& f, const std::vector<uint8_t>& smem,
                               const std::vector<uint8_t>& global_window, int64_t tx) {
  std::string diff;
  if (c.contains("expected_smem_hex")) {
    diff = first_difference(smem, parse_hex(require_string(c, "expected_smem_hex"), "expected_smem_hex"), "shared memory");
    if (diff.empty() && c.contains("expected_smem_hex_ctas"))
      for (const json& h : require(c, "expected_smem_hex_ctas"))
        if (diff.empty() && h.is_string()) diff = first_difference(smem, parse_hex(h, "expected_smem_hex_ctas"), "multicast destination");
  }
  if (diff.empty() && c.contains("expected_global_hex"))
    diff = first_difference(global_window, parse_hex(require_string(c, "expected_global_hex"), "expected_global_hex"),
                            "global memory");
  if (diff.empty() && f.has("tx_bytes") && f.integer("tx_bytes", 0, INT64_MAX) != tx)
    diff = "transaction bytes: model " + std::to_string(tx) + ", GPU " + std::to_string(f.integer("tx_bytes", 0, INT64_MAX));
  return diff;
}

// The case's instruction. Coordinates are 32-bit registers and offsets 16-bit: larger values
// are errors, not truncated.
TmaInstruction case_instruction(const json& c, const Fields& f) {
  TmaInstruction ins;
  ins.op = require_enum(c, "op", parse_op, "");
  if (ins.op == Op::reduce) ins.reduce_op = require_enum(c, "reduce_op", parse_reduce_op, "");
  for (int64_t v : f.integers("coords", 1, 5, INT32_MIN, INT32_MAX)) ins.coords.push_back(static_cast<int32_t>(v));
  if (f.has("im2col_offsets"))
    for (int64_t v : f.integers("im2col_offsets", 0, 3, 0, 65535)) ins.im2col_offsets.push_back(static_cast<int32_t>(v));
  ins.smem_offset = static_cast<uint32_t>(f.integer("smem_offset", 0, (1 << 20) - 1));
  return ins;
}

// A case whose launch trapped: the model must refuse the instruction with the same error.
CaseResult judge_trap(CaseResult r, const TensorMap& m, const TmaInstruction& ins, const std::string& launch) {
  try {
    check_instruction(m, ins);
  } catch (const Fault& f) {
    bool same = launch == f.cuda_error();
    r.verdict = same ? Verdict::pass : Verdict::fail;
    r.detail = same ? std::string("refused: ") + f.what() : std::string("model raises ") + f.cuda_error() + " instead: " + f.what();
    return r;
  }
  r.verdict = Verdict::fail;
  r.detail = "the GPU trapped (" + launch + ") but the model accepts the instruction";
  return r;
}

CaseResult judge(const json& c) {
  CaseResult r;
  const Fields f(c, "a case", "a case");
  r.name = f.string_or("name", "<unnamed>");
  const std::string encode = f.string("encode_result");
  TensorMap m;
  try {
    m = parse_tensor_map(require(c, "tensor_map"));
  } catch (const UnknownEnum& e) {
    // A value outside the driver's enumeration: the encode call must have refused it.
    r.verdict = encode != "CUDA_SUCCESS" ? Verdict::pass : Verdict::fail;
    r.detail = std::string("rejected: ") + e.what();
    return r;
  }
  const int64_t base_offset = f.integer_or("global_base_offset", 0, 0, kMaxBuffer);
  m.global_address = static_cast<uint64_t>(base_offset);  // the buffer starts at address 0
  auto rejected = validate(m);
  if (encode != "CUDA_SUCCESS") {
    r.verdict = rejected ? Verdict::pass : Verdict::fail;
    r.detail = rejected ? "rejected: " + rejected->rule : "driver returned " + encode + " but the model accepts the map";
    return r;
  }
  if (rejected) {
    r.verdict = Verdict::fail;
    r.detail = "driver accepted the map but the model rejects it: " + rejected->rule + ": " + rejected->message;
    return r;
  }
  if (!c.contains("coords")) {
    r.verdict = Verdict::pass;
    r.detail = "accepted";
    return r;
  }
  const std::string launch = f.string_or("launch_error", "");
  // The traps the model predicts; other launch errors (an illegal address) may be the
  // harness's own window and are inconclusive.
  const bool judged_trap = launch == "cudaErrorIllegalInstruction" || launch == "cudaErrorMisalignedAddress";
  if (c.contains("skipped") || f.boolean_or("hang", false) || (!launch.empty() && !judged_trap)) {
    r.verdict = Verdict::skip;
    r.detail = !launch.empty() ? launch : c.contains("skipped") ? "skipped" : "hang";
    return r;
  }
  const TmaInstruction ins = case_instruction(c, f);
  if (judged_trap) return judge_trap(r, m, ins, launch);

  const int64_t gwin_off = f.integer_or("global_window_offset", 0, 0, kMaxBuffer);
  const int64_t gwin = f.integer_or("global_window", 0, 0, kMaxBuffer);
  const int64_t gsize = std::max(global_extent(m, base_offset), gwin_off + gwin);
  if (gsize > kMaxBuffer) throw Error("the case's global buffer would exceed 256 MiB");
  std::vector<uint8_t> global = filled_global(f, static_cast<size_t>(gsize));
  const int64_t window = f.integer("smem_window", 0, 1 << 20);
  // The GPU may have written past the captured window; give the model the room and compare
  // only the captured bytes.
  const int64_t room = std::max<int64_t>(window, int64_t(ins.smem_offset) + m.smem_footprint());
  if (room > (1 << 20)) throw Error("the box needs more than 1 MiB of shared memory");
  std::vector<uint8_t> smem(static_cast<size_t>(room));
  const bool load_like = ins.op == Op::load || ins.op == Op::prefetch;
  const uint8_t poison = static_cast<uint8_t>(f.integer_or("poison", 0, 0, 255));
  for (size_t i = 0; i < smem.size(); ++i) smem[i] = load_like ? poison : golden_fill(i);

  int64_t tx = 0;
  try {
    tx = execute(m, ins, GlobalMemory{global.data(), global.size(), 0}, SharedMemory{smem.data(), smem.size()});
  } catch (const Fault& f) {
    bool expected = launch == f.cuda_error();
    r.verdict = expected ? Verdict::pass : Verdict::fail;
    r.detail = expected ? std::string("refused: ") + f.what() : std::string("model faulted (") + f.cuda_error() + "): " + f.what();
    return r;
  }
  if (judged_trap) {
    r.verdict = Verdict::fail;
    r.detail = "the GPU trapped (" + launch + ") but the model executed the copy";
    return r;
  }
  const std::vector<uint8_t> got(global.begin() + gwin_off, global.begin() + std::min<int64_t>(gsize, gwin_off + gwin));
  smem.resize(static_cast<size_t>(window));
  const std::string diff = first_disagreement(c, f, smem, got, tx);
  r.verdict = diff.empty() ? Verdict::pass : Verdict::fail;
  r.detail = diff;
  return r;
}

}  // namespace

CaseResult judge_case(const json& c) {
  try {
    return judge(c);
  } catch (const Error& e) {
    std::string name = "<not an object>";
    if (c.is_object()) name = c.contains("name") && c["name"].is_string() ? c["name"].get<std::string>() : "<unnamed>";
    return CaseResult{name, Verdict::fail, std::string("malformed case: ") + e.what()};
  } catch (const json::exception& e) {
    return CaseResult{"<malformed>", Verdict::fail, std::string("malformed case: ") + e.what()};
  }
}

WarpAccess pattern_access(const Fields& p) {
  WarpAccess a;
  const std::string op = p.string_or("op", "ld");
  auto parsed = parse_smem_op(op);
  if (!parsed) p.fail("unknown op '" + op + "' (ld, st, ldmatrix, stmatrix)");
  a.op = *parsed;
  a.width = static_cast<int>(p.integer_or("width", 4, 1, 16));
  a.num = static_cast<int>(p.integer_or("num", 1, 1, 4));
  a.trans = p.boolean_or("trans", false);
  const std::vector<int64_t> addr = p.integers("addr", 32, 32, -1, kMaxSmemAddress);
  std::copy(addr.begin(), addr.end(), a.addr.begin());
  check_access(a);
  return a;
}

}  // namespace tmasim
