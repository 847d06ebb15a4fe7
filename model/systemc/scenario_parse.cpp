// Scenario files into a tree of step specifications (ScenarioSpec), strictly.
#include "scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

using nlohmann::json;

namespace {

constexpr int kMaxNesting = 16;

// A scenario object: the core's typed fields plus integers written as expressions.
class Fields : public tmasim::Fields {
 public:
  Fields(const json& j, std::string where, const char* what) : tmasim::Fields(j, std::move(where), what) {}
  Expression expr(const char* k) const { return to_expr(at(k), k); }
  Expression expr_or(const char* k, int64_t fallback) const {
    return has(k) ? expr(k) : Expression::constant(fallback);
  }
  Expression expr_opt(const char* k) const { return has(k) ? expr(k) : Expression(); }
  std::vector<Expression> exprs(const char* k) const {
    std::vector<Expression> out;
    if (!has(k)) return out;
    if (!at(k).is_array() || at(k).size() > 8) fail(std::string("field '") + k + "' must be an array of at most 8 entries");
    for (const json& x : at(k)) out.push_back(to_expr(x, k));
    return out;
  }
  std::string str(const char* k, const std::string& fallback) const { return string_or(k, fallback); }
  Expression to_expr(const json& v, const char* k) const {
    try {
      if (v.is_number_integer() && !(v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)))
        return Expression::constant(v.get<int64_t>());
      if (v.is_boolean()) return Expression::constant(v.get<bool>() ? 1 : 0);
      if (v.is_string()) return Expression::parse(v.get<std::string>());
    } catch (const Error& e) {
      fail(std::string("field '") + k + "': " + e.what());
    }
    fail(std::string("field '") + k + "' must be an integer or an expression string");
  }
};

// "m64n128k16": exactly the letters m, n, k each followed by 1-3 digits, nothing else.
bool parse_mma_shape(const std::string& text, int& m, int& n, int& k) {
  size_t i = 0;
  auto field = [&](char letter, int& out) {
    if (i >= text.size() || text[i++] != letter) return false;
    const size_t start = i;
    out = 0;
    while (i < text.size() && i - start < 3 && std::isdigit(static_cast<unsigned char>(text[i]))) out = out * 10 + (text[i++] - '0');
    return i > start;
  };
  return field('m', m) && field('n', n) && field('k', k) && i == text.size();
}

bool is_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

struct SpecParser {
  ScenarioSpec& spec;

  int tensor(const Fields& f, const char* key) const {
    const json& v = f.at(key);
    if (!v.is_string()) f.fail(std::string("field '") + key + "' must name a tensor");
    const std::string n = v.get<std::string>();
    for (size_t k = 0; k < spec.tensor_names.size(); ++k)
      if (spec.tensor_names[k] == n) return static_cast<int>(k);
    f.fail("unknown tensor '" + n + "'");
  }

  std::vector<StepSpec> program(const json& j, const std::string& where, int depth) const {
    if (!j.is_array()) throw Error(where + ": a program must be an array of steps");
    if (depth > kMaxNesting) throw Error(where + ": loops nested more than " + std::to_string(kMaxNesting) + " deep");
    std::vector<StepSpec> out;
    for (size_t i = 0; i < j.size(); ++i) out.push_back(step(j[i], where + "[" + std::to_string(i) + "]", depth));
    return out;
  }

  void tma_op(const Fields& f, const StepKindInfo& kind, StepSpec& s) const {
    if (s.kind != StepSpec::Kind::reduce && f.has("reduce_op")) f.fail("reduce_op belongs to reduce steps");
    s.map = tensor(f, kind.name.c_str());
    s.coords = f.exprs("coords");
    if (static_cast<int>(s.coords.size()) != spec.maps[s.map].rank)
      f.fail("coords must have " + std::to_string(spec.maps[s.map].rank) + " entries (the tensor's rank)");
    s.im2col_offsets = f.exprs("im2col_offsets");
    if (!s.im2col_offsets.empty() && spec.maps[s.map].mode != TensorMode::im2col)
      f.fail("im2col_offsets belong to loads of im2col tensors; '" + spec.tensor_names[s.map] + "' is tiled");
    s.smem_offset = f.expr_or("smem_offset", 0);
    s.barrier = f.expr_or("barrier", 0);
    s.multicast = f.expr_opt("multicast");
    s.cta_mask = f.expr_opt("cta_mask");
    if (s.kind == StepSpec::Kind::reduce) {
      auto r = parse_reduce_op(f.str("reduce_op", "add"));
      if (!r) f.fail("unknown reduce_op");
      s.reduce_op = *r;
    }
  }

  static void wait_stores(const Fields& f, StepSpec& s) {
    const json& v = f.at("wait_stores");
    s.pending = v.is_boolean() ? Expression::constant(0) : f.expr("wait_stores");
    s.read_only = f.boolean_or("read_only", false);
  }

  // A read (ldmatrix.x4) or write (stmatrix.x4) of a 16-bit tile: `key` is "read" or "write".
  static void tile(const Fields& f, const std::string& where, const char* key, StepSpec& s) {
    Fields t(f.at(key), where + "." + key, key);
    t.allow({"rows", "cols", "dtype", "swizzle", "smem_offset"});
    s.rows = t.expr("rows");
    s.cols = t.expr("cols");
    auto dt = parse_dtype(t.str("dtype", "float16"));
    if (!dt || dtype_bytes(*dt) != 2)
      t.fail("ldmatrix and stmatrix move 16-bit elements: dtype must be float16, bfloat16 or uint16");
    auto sw = parse_swizzle(t.str("swizzle", "none"));
    if (!sw || (*sw != Swizzle::none && *sw != Swizzle::b32 && *sw != Swizzle::b64 && *sw != Swizzle::b128))
      t.fail("swizzle must be none, 32b, 64b or 128b");
    s.dtype = *dt;
    s.swizzle = *sw;
    s.smem_offset = t.expr_or("smem_offset", 0);
  }

  static void compute(const Fields& f, const std::string& where, StepSpec& s) {
    Fields c(f.at("compute"), where + ".compute", "compute");
    c.allow({"mma", "count"});
    const std::string shape = c.str("mma", "");
    if (!parse_mma_shape(shape, s.mma_m, s.mma_n, s.mma_k) || s.mma_m != 64 ||
        s.mma_n < 8 || s.mma_n > 256 || s.mma_n % 8 != 0 || (s.mma_k != 16 && s.mma_k != 32 && s.mma_k != 8))
      c.fail("mma must be a wgmma shape m64nNkK with N a multiple of 8 up to 256 and K 8, 16 or 32, e.g. m64n128k16");
    s.count = c.expr_or("count", 1);
  }

  // One operand of an mma: {"smem_offset": E, "swizzle": "128b", "major": "k"}, or MN-major
  // {"smem_offset": E, "swizzle": "128b", "major": "mn", "leading_bytes": E}.
  static void mma_operand(const Fields& m, const char* key, Expression& offset, Swizzle& swizzle, bool& mn_major,
                          Expression& leading) {
    Fields o(m.at(key), m.where() + "." + key, key);
    o.allow({"smem_offset", "swizzle", "major", "leading_bytes"});
    offset = o.expr("smem_offset");
    auto sw = parse_swizzle(o.str("swizzle", "128b"));
    if (!sw || (*sw != Swizzle::b32 && *sw != Swizzle::b64 && *sw != Swizzle::b128))
      o.fail("swizzle must be 32b, 64b or 128b (an operand as TMA boxes of rows of the swizzle's span "
             "write it; unswizzled operands need the core-matrix layout, not supported yet)");
    swizzle = *sw;
    const std::string major = o.str("major", "k");
    if (major != "k" && major != "mn")
      o.fail("major must be \"k\" (K along the span) or \"mn\" (M or N along the span, K along the rows)");
    mn_major = major == "mn";
    if (o.has("leading_bytes") && !mn_major)
      o.fail("leading_bytes is an MN-major operand's (a K-major operand walks K inside one span)");
    leading = o.expr_or("leading_bytes", 0);
  }

  // {"mma": {"shape": "m64n128k16" | "n": E (params only), "dtype": "float16", "a": {...} | "registers",
  //          "b": {...}, "count": E}}
  void mma(const Fields& f, const std::string& where, StepSpec& s) const {
    Fields m(f.at("mma"), where + ".mma", "mma");
    m.allow({"shape", "n", "dtype", "a", "b", "count"});
    const std::string type = m.str("dtype", "float16");
    static const std::pair<const char*, MmaType> types[] = {{"float16", MmaType::f16}, {"bfloat16", MmaType::bf16},
                                                            {"tfloat32", MmaType::tf32}, {"e4m3", MmaType::e4m3},
                                                            {"e5m2", MmaType::e5m2}};
    bool known = false;
    for (const auto& [name, t] : types)
      if (type == name) s.mma_type = t, known = true;
    if (!known) m.fail("dtype '" + type + "' is not a wgmma input type: float16, bfloat16, tfloat32, e4m3 or e5m2");
    const int k_of_type = mma_k_of(s.mma_type);
    std::string shape = m.str("shape", "");
    if (m.has("n")) {  // a tile width given by a parameter: the shape m64nNk of the type
      if (m.has("shape")) m.fail("give 'shape' or 'n', not both");
      int64_t n = 0;
      try {
        n = m.expr("n").eval(spec.globals());
      } catch (const Error& e) {
        m.fail(std::string("'n' must be a constant over params: ") + e.what());
      }
      shape = "m64n" + std::to_string(n) + "k" + std::to_string(k_of_type);
    }
    if (!parse_mma_shape(shape, s.mma_m, s.mma_n, s.mma_k) || s.mma_m != 64 || s.mma_n < 8 || s.mma_n > 256 ||
        s.mma_n % 8 != 0 || s.mma_k != k_of_type)
      m.fail("shape must be m64nNk" + std::to_string(k_of_type) + " for " + type +
             ", N a multiple of 8 from 8 to 256 (e.g. m64n128k" + std::to_string(k_of_type) + "), got '" + shape + "'");
    if (m.at("a").is_string()) {
      if (m.at("a").get<std::string>() != "registers") m.fail("'a' is an operand object or \"registers\"");
      s.a_in_registers = true;
    } else {
      mma_operand(m, "a", s.a_offset, s.a_swizzle, s.a_mn_major, s.a_leading);
    }
    mma_operand(m, "b", s.b_offset, s.b_swizzle, s.b_mn_major, s.b_leading);
    s.count = m.expr_or("count", 1);
    const bool sixteen_bit = s.mma_type == MmaType::f16 || s.mma_type == MmaType::bf16;
    if ((s.a_mn_major || s.b_mn_major) && !sixteen_bit)
      m.fail("an MN-major operand needs a 16-bit type (float16, bfloat16): wgmma transposes no other, " + type +
             " operands are K-major");
  }

  // The one kind a step names (step_kinds.hpp).
  static const StepKindInfo& kind_of(const Fields& f) {
    const StepKindInfo* found = nullptr;
    for (const StepKindInfo& k : step_kinds())
      if (f.has(k.name.c_str())) {
        if (found) f.fail("a step has one kind, not both '" + found->name + "' and '" + k.name + "'");
        found = &k;
      }
    if (!found) {
      std::string names;
      for (const StepKindInfo& k : step_kinds()) names += (names.empty() ? "" : ", ") + k.name;
      f.fail("a step needs one of " + names);
    }
    return *found;
  }

  StepSpec step(const json& j, const std::string& where, int depth) const {
    Fields f(j, where, "a step");
    StepSpec s;
    s.where = where;
    s.cond = f.expr_opt("if");
    const StepKindInfo& kind = kind_of(f);
    s.kind = kind.kind;
    f.allow(kind.keys);
    s.least_cycles = f.expr_opt("cycles");
    switch (s.kind) {
      case StepSpec::Kind::loop:
        s.var = f.str("loop", "");
        if (!is_name(s.var)) f.fail("'loop' must name the loop variable");
        s.count = f.expr("count");
        s.body = program(f.at("body"), where + ".body", depth + 1);
        if (f.has("unroll")) s.unroll = f.boolean_or("unroll", false) ? 1 : 0;
        break;
      case StepSpec::Kind::load:
      case StepSpec::Kind::store:
      case StepSpec::Kind::reduce:
      case StepSpec::Kind::prefetch:
        tma_op(f, kind, s);
        break;
      case StepSpec::Kind::arrive:
        s.barrier = f.expr("arrive");
        s.bytes = f.expr_or("bytes", 0);
        s.target_cta = f.expr_opt("cta");
        if (f.has("scope")) {
          if (s.target_cta.empty()) f.fail("'scope' applies to an arrive addressed by cluster rank ('cta'); a local arrive is at CTA scope");
          const std::string scope = f.str("scope", "");
          if (scope != "cta" && scope != "cluster") f.fail("'scope' must be \"cta\" or \"cluster\" (the arrive's release scope)");
          s.release_cta = scope == "cta";
        }
        break;
      case StepSpec::Kind::wait:
        s.barrier = f.expr("wait");
        if (f.has("phase") == f.has("parity")) f.fail("a wait needs either 'phase' or 'parity'");
        s.phase = f.expr_opt("phase");
        s.parity = f.expr_opt("parity");
        break;
      case StepSpec::Kind::wait_stores:
        wait_stores(f, s);
        break;
      case StepSpec::Kind::read:
        tile(f, where, "read", s);
        break;
      case StepSpec::Kind::write:
        tile(f, where, "write", s);
        break;
      case StepSpec::Kind::fence:
        if (f.at("fence") != json("proxy_async"))
          f.fail("'fence' must be \"proxy_async\" (fence.proxy.async: the thread's shared-memory writes made "
                 "visible to the TMA)");
        break;
      case StepSpec::Kind::delay:
        s.cycles = f.expr("delay");
        break;
      case StepSpec::Kind::compute:
        compute(f, where, s);
        break;
      case StepSpec::Kind::mma:
        mma(f, where, s);
        break;
      case StepSpec::Kind::mma_commit:
        if (f.at("mma_commit") != json(true)) f.fail("'mma_commit' must be true");
        break;
      case StepSpec::Kind::mma_wait:
        s.pending = f.expr("mma_wait");
        break;
      case StepSpec::Kind::sync:
        break;
      case StepSpec::Kind::stamp:
        if (!f.at("stamp").is_string()) f.fail("'stamp' must be a label string");
        s.var = f.at("stamp").get<std::string>();
        break;
    }
    return s;
  }
};

}  // namespace

Vars ScenarioSpec::globals() const {
  Vars v = params;
  for (size_t k = 0; k < maps.size(); ++k) v.emplace_back("bytes_" + tensor_names[k], maps[k].transaction_bytes());
  return v;
}

ParamOverrides parse_overrides(const std::vector<std::string>& assignments) {
  ParamOverrides out;
  for (const std::string& a : assignments) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || !is_name(a.substr(0, eq)) || eq + 1 == a.size())
      throw Error("--set '" + a + "': expected name=value");
    Expression::parse(a.substr(eq + 1));  // the value must be a valid expression
    out.emplace_back(a.substr(0, eq), a.substr(eq + 1));
  }
  return out;
}

namespace {

// Params: constants in file order, each may use the ones before it; --set replaces a value.
// Params in any order: each is evaluated once the ones it names are (a JSON object's keys come
// sorted, not as written), a cycle or an unknown name being an error naming the parameter.
void parse_params(const Fields& top, const ParamOverrides& overrides, ScenarioSpec& spec) {
  std::set<std::string> used;
  std::vector<std::pair<std::string, Expression>> pending;
  if (top.has("params")) {
    Fields p(top.at("params"), "params", "params");
    constexpr size_t kMaxParams = 4096;  // names are looked up linearly while expanding: bounded
    if (top.at("params").is_object() && top.at("params").size() > kMaxParams)
      p.fail("at most " + std::to_string(kMaxParams) + " params, got " + std::to_string(top.at("params").size()));
    for (auto& [name, v] : top.at("params").items()) {
      if (!is_name(name)) p.fail("'" + name + "' is not a valid parameter name");
      Expression e = p.to_expr(v, name.c_str());
      for (auto& [k, text] : overrides)
        if (k == name) {
          e = Expression::parse(text);
          used.insert(k);
        }
      pending.emplace_back(name, std::move(e));
    }
    // Kahn's order over the params' references to each other: linear in their number and names.
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < pending.size(); ++i) index.emplace(pending[i].first, i);
    std::vector<std::vector<size_t>> users(pending.size());
    std::vector<size_t> waiting(pending.size(), 0);
    for (size_t i = 0; i < pending.size(); ++i)
      for (const std::string& n : pending[i].second.names()) {
        const auto it = index.find(n);
        if (it == index.end()) continue;  // not a param: eval names it
        users[it->second].push_back(i);
        ++waiting[i];
      }
    std::vector<size_t> ready;  // first in, first out: params that name none keep the file's order
    for (size_t i = 0; i < pending.size(); ++i)
      if (waiting[i] == 0) ready.push_back(i);
    for (size_t next = 0; next < ready.size(); ++next) {
      const size_t i = ready[next];
      try {
        spec.params.emplace_back(pending[i].first, pending[i].second.eval(spec.params));
      } catch (const Error& err) {
        p.fail(std::string("'") + pending[i].first + "': " + err.what());
      }
      for (size_t u : users[i])
        if (--waiting[u] == 0) ready.push_back(u);
    }
    for (size_t i = 0; i < pending.size(); ++i)
      if (waiting[i] > 0)
        p.fail("'" + pending[i].first + "': its expression '" + pending[i].second.text() +
               "' depends on itself through other params");
  }
  for (auto& [k, text] : overrides) {
    if (used.count(k)) continue;
    std::vector<std::string> names;
    for (const auto& [name, e] : pending) names.push_back(name);
    throw Error("--set " + k + ": the scenario has no parameter '" + k + "'" +
                (names.empty() ? std::string(" (it has no params)") : nearest_and_all(k, names, "its params:")));
  }
}

// Tensors: laid out one after another in one global memory, each at a 1 KiB boundary.
// A tensor's integer fields may be expressions over params (`"global_dims": ["K", "M"]`): their
// values, so that the map's reader sees the integers of golden-case.md.
json with_params(const json& t, const std::string& where, const Vars& params) {
  if (!t.is_object()) return t;
  json out = t;
  auto value = [&](const json& v, const std::string& key) -> json {
    if (!v.is_string()) return v;
    try {
      return Expression::parse(v.get<std::string>()).eval(params);
    } catch (const Error& e) {
      throw Error(where + ": field '" + key + "': " + e.what());
    }
  };
  for (const char* key : {"global_dims", "global_strides", "box_dims", "element_strides", "lower_corner", "upper_corner",
                          "channels_per_pixel", "pixels_per_column"}) {
    if (!out.contains(key)) continue;
    json& f = out[key];
    if (f.is_array())
      for (json& x : f) x = value(x, key);
    else
      f = value(f, key);
  }
  return out;
}

void parse_tensors(const Fields& top, ScenarioSpec& spec) {
  int64_t next = 0;
  Fields tensors(top.at("tensors"), "tensors", "tensors");
  for (auto& [name, t] : top.at("tensors").items()) {
    if (!is_name(name)) tensors.fail("'" + name + "' is not a valid tensor name");
    TensorMap m = parse_tensor_map(with_params(t, "tensors." + name, spec.params), "tensors." + name, true);
    m.global_address = static_cast<uint64_t>(next);
    if (auto bad = validate(m)) throw Error("tensor '" + name + "': " + bad->rule + ": " + bad->message);
    const int64_t extent = m.global_span_bytes();
    if (extent > (int64_t(1) << 30))
      throw Error("tensor '" + name + "': the scenario's tensors exceed 1 GiB of global memory (the budget)");
    next = (next + extent + 1023) / 1024 * 1024;
    if (next > (int64_t(1) << 30)) throw Error("tensor '" + name + "': the scenario's tensors exceed 1 GiB of global memory (the budget)");
    spec.tensor_names.push_back(name);
    spec.maps.push_back(m);
  }
  spec.global_bytes = next;
}

std::vector<int> parse_barriers(const Fields& f, const Vars& globals) {
  if (!f.has("barriers")) return std::vector<int>(8, 1);
  std::vector<int> counts;
  const json& b = f.at("barriers");
  if (b.is_object()) {  // {"count": E, "arrivals": E of the barrier's index b}
    const Fields g(b, f.where() + ".barriers", "barriers");
    g.allow({"count", "arrivals"});
    const int64_t n = g.expr("count").eval(globals);
    if (n < 1 || n > 32) g.fail("'count' must be 1 to 32 barriers, got " + std::to_string(n));
    const Expression arrivals = g.expr("arrivals");
    for (int64_t i = 0; i < n; ++i) {
      Vars with_index = globals;
      with_index.emplace_back("b", i);  // looked up last to first: the index shadows a param named b
      const int64_t c = arrivals.eval(with_index);
      if (c < 1 || c > 1024)
        g.fail("barrier " + std::to_string(i) + ": an mbarrier's arrival count must be 1..1024, got " + std::to_string(c));
      counts.push_back(static_cast<int>(c));
    }
    return counts;
  }
  if (!b.is_array() || b.empty() || b.size() > 32)
    f.fail("'barriers' must list 1 to 32 arrival counts, or be {\"count\": E, \"arrivals\": E} (b: the barrier's index)");
  for (const json& x : b) {
    const int64_t c = f.to_expr(x, "barriers").eval(globals);
    if (c < 1 || c > 1024) f.fail("an mbarrier's arrival count must be 1..1024");
    counts.push_back(static_cast<int>(c));
  }
  return counts;
}

std::vector<ThreadSpec> parse_threads(const SpecParser& parser, const Fields& f, const std::string& where) {
  std::vector<ThreadSpec> threads;
  if (f.has("program") == f.has("threads")) f.fail("a CTA group has either 'program' (one thread) or 'threads'");
  if (f.has("program")) {
    ThreadSpec t;
    t.name = "main";
    t.count = Expression::constant(1);
    t.program = parser.program(f.at("program"), where + ".program", 0);
    threads.push_back(std::move(t));
    return threads;
  }
  const json& th = f.at("threads");
  if (!th.is_array() || th.empty()) f.fail("'threads' must be a non-empty array");
  for (size_t t = 0; t < th.size(); ++t) {
    const std::string tw = where + ".threads[" + std::to_string(t) + "]";
    Fields tf(th[t], tw, "a thread");
    tf.allow({"name", "count", "var", "warpgroup", "program", "comment"});
    ThreadSpec ts;
    ts.warpgroup = tf.boolean_or("warpgroup", false);
    ts.name = tf.str("name", "thread" + std::to_string(t));
    ts.var = tf.str("var", "");
    if (!ts.var.empty() && !is_name(ts.var)) tf.fail("'var' must be a name");
    ts.count = tf.expr_or("count", 1);
    ts.program = parser.program(tf.at("program"), tw + ".program", 0);
    threads.push_back(std::move(ts));
  }
  return threads;
}

CtaGroupSpec parse_group(const SpecParser& parser, const json& j, const std::string& where, const Vars& globals) {
  Fields f(j, where, "a CTA group");
  f.allow({"count", "var", "sm", "cluster_size", "registers", "barriers", "program", "threads", "comment"});
  CtaGroupSpec group;
  group.var = f.str("var", "cta");
  if (!is_name(group.var)) f.fail("'var' must be a name");
  group.count = f.expr_or("count", 1);
  group.pinned = f.has("sm");
  if (group.pinned) group.sm = f.expr("sm");
  const int64_t cluster = f.expr_or("cluster_size", 1).eval(globals);
  if (cluster < 1 || cluster > 8 || (cluster & (cluster - 1)) != 0) f.fail("cluster_size must be 1, 2, 4 or 8");
  group.cluster_size = static_cast<int>(cluster);
  const int64_t registers = f.expr_or("registers", 0).eval(globals);
  if (registers != 0 && (registers < 16 || registers > 255))
    f.fail("registers (a thread's, as ncu's \"Registers Per Thread\") must be 16 to 255, got " +
           std::to_string(registers));
  group.registers_per_thread = static_cast<int>(registers);
  group.barrier_counts = parse_barriers(f, globals);
  group.threads = parse_threads(parser, f, where);
  return group;
}

}  // namespace

ScenarioSpec parse_scenario(const json& j, const ParamOverrides& overrides) {
  Fields top(j, "scenario", "a scenario");
  top.allow({"name", "comment", "params", "tensors", "ctas"});
  ScenarioSpec spec;
  spec.name = top.str("name", "<unnamed>");
  parse_params(top, overrides, spec);
  parse_tensors(top, spec);
  const json& ctas = top.at("ctas");
  if (!ctas.is_array() || ctas.empty()) throw Error("ctas: must be a non-empty array of CTA groups");
  SpecParser parser{spec};
  const Vars globals = spec.globals();
  for (size_t g = 0; g < ctas.size(); ++g)
    spec.groups.push_back(parse_group(parser, ctas[g], "ctas[" + std::to_string(g) + "]", globals));
  return spec;
}

}  // namespace tmasim::sc
