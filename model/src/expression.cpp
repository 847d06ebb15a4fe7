#include "tmasim/expression.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <functional>

#include "tmasim/types.hpp"

namespace tmasim {

struct Expression::Node {
  enum class Kind { number, name, unary, binary } kind;
  // The operator, as written (for C) and as a code (for evaluation without string compares).
  enum class Code { neg, lnot, lor, land, bor, band, lt, le, gt, ge, eq, ne, shl, shr, add, sub, mul, div, mod } code;
  std::string op;  // unary: "-", "!"; binary: the operator
  int64_t value = 0;
  std::string name;
  std::shared_ptr<const Node> a, b;
};

namespace {

using NodeP = std::shared_ptr<const Expression::Node>;
using Node = Expression::Node;
using Code = Node::Code;

Code code_of(const std::string& op) {
  static const std::pair<const char*, Code> kCodes[] = {
      {"||", Code::lor}, {"&&", Code::land}, {"|", Code::bor}, {"&", Code::band}, {"<", Code::lt},
      {"<=", Code::le},  {">", Code::gt},    {">=", Code::ge}, {"==", Code::eq},  {"!=", Code::ne},
      {"<<", Code::shl}, {">>", Code::shr},  {"+", Code::add}, {"-", Code::sub},  {"*", Code::mul},
      {"/", Code::div},  {"%", Code::mod}};
  for (const auto& [text, code] : kCodes)
    if (op == text) return code;
  throw Error("expression: unknown operator '" + op + "'");
}

constexpr int kMaxDepth = 64;
constexpr size_t kMaxLength = 4096;

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}
  NodeP parse() {
    if (s_.size() > kMaxLength) fail("longer than " + std::to_string(kMaxLength) + " characters");
    NodeP x = logical_or();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_, 1) + "'");
    return x;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw Error("expression '" + s_ + "': " + why); }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool peek(const char* op) {
    skip();
    return s_.compare(i_, std::char_traits<char>::length(op), op) == 0;
  }
  bool eat(const char* op) {
    if (!peek(op)) return false;
    i_ += std::char_traits<char>::length(op);
    return true;
  }
  static NodeP binary(std::string op, NodeP a, NodeP b) {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::binary;
    n->code = code_of(op);
    n->op = std::move(op);
    n->a = std::move(a);
    n->b = std::move(b);
    return n;
  }
  NodeP logical_or() {
    NodeP a = logical_and();
    while (eat("||")) a = binary("||", a, logical_and());
    return a;
  }
  NodeP logical_and() {
    NodeP a = bit_or();
    while (eat("&&")) a = binary("&&", a, bit_or());
    return a;
  }
  NodeP bit_or() {
    NodeP a = bit_and();
    while (!peek("||") && eat("|")) a = binary("|", a, bit_and());
    return a;
  }
  NodeP bit_and() {
    NodeP a = comparison();
    while (!peek("&&") && eat("&")) a = binary("&", a, comparison());
    return a;
  }
  NodeP comparison() {
    NodeP a = shift();
    for (const char* op : {"<=", ">=", "==", "!=", "<", ">"})
      if (eat(op)) return binary(op, a, shift());
    return a;
  }
  NodeP shift() {
    NodeP a = sum();
    for (;;) {
      if (eat("<<")) a = binary("<<", a, sum());
      else if (eat(">>")) a = binary(">>", a, sum());
      else return a;
    }
  }
  NodeP sum() {
    NodeP a = product();
    for (;;) {
      if (eat("+")) a = binary("+", a, product());
      else if (eat("-")) a = binary("-", a, product());
      else return a;
    }
  }
  NodeP product() {
    NodeP a = unary();
    for (;;) {
      if (eat("*")) a = binary("*", a, unary());
      else if (eat("/")) a = binary("/", a, unary());
      else if (eat("%")) a = binary("%", a, unary());
      else return a;
    }
  }
  NodeP unary() {
    if (++depth_ > kMaxDepth) fail("nested more than " + std::to_string(kMaxDepth) + " deep");
    NodeP r = primary();
    --depth_;
    return r;
  }
  NodeP primary() {
    if (peek("!=")) fail("unexpected '!='");
    for (const char* op : {"-", "!"})
      if (eat(op)) {
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::unary;
        n->code = op[0] == '!' ? Code::lnot : Code::neg;
        n->op = op;
        n->a = unary();
        return n;
      }
    if (eat("(")) {
      NodeP x = logical_or();
      if (!eat(")")) fail("missing ')'");
      return x;
    }
    skip();
    const size_t start = i_;
    auto n = std::make_shared<Node>();
    if (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      int64_t v = 0;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[i_] - '0', &v))
          fail("the number does not fit 64 bits");
        ++i_;
      }
      if (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
        fail("a name may not start with a digit");
      n->kind = Node::Kind::number;
      n->value = v;
      return n;
    }
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    if (start == i_) fail(i_ < s_.size() ? "unexpected '" + s_.substr(i_, 1) + "'" : "expected a number or a name");
    n->kind = Node::Kind::name;
    n->name = s_.substr(start, i_ - start);
    return n;
  }
  const std::string& s_;
  size_t i_ = 0;
  int depth_ = 0;
};

// Out of the evaluation's hot path: its frame holds no strings.
[[noreturn]] [[gnu::noinline]] void fail_eval(const std::string& text, const std::string& why) {
  throw Error("expression '" + text + "': " + why);
}

int64_t eval_node(const Node& n, const Vars& vars, const std::string& text);

// A name's value: the innermost binding first. A scenario's variables are many and short: the
// length and first character settle most comparisons without a call to compare the bytes.
inline int64_t value_of(const Node& n, const Vars& vars, const std::string& text) {
  const size_t len = n.name.size();
  const char first = len ? n.name[0] : '\0';
  for (auto it = vars.rbegin(); it != vars.rend(); ++it)
    if (it->first.size() == len && (len == 0 || it->first[0] == first) && it->first == n.name) return it->second;
  fail_eval(text, "unknown name '" + n.name + "'");
}

// An operand: a number or a name without a call (most are).
inline int64_t operand(const Node& n, const Vars& vars, const std::string& text) {
  if (n.kind == Node::Kind::number) return n.value;
  if (n.kind == Node::Kind::name) return value_of(n, vars, text);
  return eval_node(n, vars, text);
}

int64_t eval_node(const Node& n, const Vars& vars, const std::string& text) {
  switch (n.kind) {
    case Node::Kind::number: return n.value;
    case Node::Kind::name: return value_of(n, vars, text);
    case Node::Kind::unary: {
      const int64_t a = operand(*n.a, vars, text);
      if (n.code == Code::lnot) return a == 0;
      int64_t r;
      if (__builtin_sub_overflow(int64_t(0), a, &r)) fail_eval(text, "overflow");
      return r;
    }
    case Node::Kind::binary: break;
  }
  const int64_t a = operand(*n.a, vars, text);
  if (n.code == Code::land && a == 0) return 0;  // short-circuit, as in C
  if (n.code == Code::lor && a != 0) return 1;
  const int64_t b = operand(*n.b, vars, text);
  int64_t r = 0;
  switch (n.code) {
    case Code::land:
    case Code::lor: return b != 0;
    case Code::shl:
    case Code::shr:
      if (b < 0 || b > 62) fail_eval(text, "shift by " + std::to_string(b) + " (0..62 allowed)");
      if (n.code == Code::shr) return a >> b;
      if (a < 0 || a > (INT64_MAX >> b)) fail_eval(text, "overflow");
      return a << b;
    case Code::band: return a & b;
    case Code::bor: return a | b;
    case Code::lt: return a < b;
    case Code::le: return a <= b;
    case Code::gt: return a > b;
    case Code::ge: return a >= b;
    case Code::eq: return a == b;
    case Code::ne: return a != b;
    case Code::add:
      if (!__builtin_add_overflow(a, b, &r)) return r;
      break;
    case Code::sub:
      if (!__builtin_sub_overflow(a, b, &r)) return r;
      break;
    case Code::mul:
      if (!__builtin_mul_overflow(a, b, &r)) return r;
      break;
    case Code::div:
    case Code::mod:
      if (b == 0) fail_eval(text, "division by zero");
      if (a == INT64_MIN && b == -1) fail_eval(text, "overflow");
      return n.code == Code::div ? a / b : a % b;
    case Code::neg:
    case Code::lnot: break;
  }
  fail_eval(text, "overflow");
}

// `int32`: names cast to int and literals without LL (valid where int32_range holds).
struct CSource {
  const std::string& prefix;
  bool int32;
  const Vars* constants = nullptr;           // with counters: the names a divisor may read
  const CounterNames* counters = nullptr;
};

bool reads_only(const Node& n, const Vars& known);

// n divides by, or takes the remainder of, a value that reads only `constants`.
bool divides_by_constant(const Node& n, const Vars& constants) {
  return n.kind == Node::Kind::binary && (n.code == Code::div || n.code == Code::mod) && reads_only(*n.b, constants);
}

// The counter standing for n, where n is `name / d` or `name % d` with d constant and a counter
// named for it.
std::optional<std::string> counter_for(const Node& n, const CSource& s) {
  if (!s.counters || !divides_by_constant(n, *s.constants) || n.a->kind != Node::Kind::name) return std::nullopt;
  int64_t d = 0;
  try {
    d = eval_node(*n.b, *s.constants, "");
  } catch (const Error&) {
    return std::nullopt;
  }
  if (d <= 1) return std::nullopt;
  return (*s.counters)(CounterSite{n.a->name, d, n.code == Code::mod});
}

void c_node(const Node& n, const CSource& s, std::string& out) {
  if (const auto counter = counter_for(n, s)) {
    out += (s.int32 ? "" : "(long long)") + *counter;
    return;
  }
  switch (n.kind) {
    case Node::Kind::number: out += std::to_string(n.value) + (s.int32 ? "" : "LL"); return;
    case Node::Kind::name: out += (s.int32 ? "(int)" : "") + s.prefix + n.name; return;
    case Node::Kind::unary:
      out += "(" + n.op;
      c_node(*n.a, s, out);
      out += ")";
      return;
    case Node::Kind::binary:
      out += "(";
      c_node(*n.a, s, out);
      out += " " + n.op + " ";
      c_node(*n.b, s, out);
      out += ")";
      return;
  }
}

void c_node(const Node& n, const std::string& prefix, bool int32, std::string& out) {
  c_node(n, CSource{prefix, int32}, out);
}

// Interval arithmetic over the tree (int32_range): each node's range, or nullopt where a value may
// leave 32 bits or the operation may fail.
using Range = std::optional<ValueRange>;

Range in_int32(__int128 lo, __int128 hi) {
  if (lo < INT32_MIN || hi > INT32_MAX) return std::nullopt;
  return ValueRange{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

Range corners(const ValueRange& a, const ValueRange& b, __int128 (*f)(__int128, __int128)) {
  const __int128 v[4] = {f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)};
  return in_int32(*std::min_element(v, v + 4), *std::max_element(v, v + 4));
}

Range remainder_range(const ValueRange& a, const ValueRange& b) {
  const int64_t most = std::max(std::llabs(b.lo), std::llabs(b.hi)) - 1;  // |a % b| < |b|
  if (a.lo >= 0) return ValueRange{0, std::min(a.hi, most)};
  if (a.hi <= 0) return ValueRange{std::max(a.lo, -most), 0};
  return ValueRange{-most, most};
}

Range bitwise_range(const ValueRange& a, const ValueRange& b, Code code) {
  if (a.lo < 0 || b.lo < 0) return std::nullopt;
  if (code == Code::band) return ValueRange{0, std::min(a.hi, b.hi)};
  int64_t all = 1;
  while (all <= std::max(a.hi, b.hi)) all <<= 1;
  return ValueRange{0, all - 1};
}

Range binary_range(const Node& n, const ValueRange& a, const ValueRange& b) {
  switch (n.code) {
    case Code::add: return in_int32(__int128(a.lo) + b.lo, __int128(a.hi) + b.hi);
    case Code::sub: return in_int32(__int128(a.lo) - b.hi, __int128(a.hi) - b.lo);
    case Code::mul: return corners(a, b, [](__int128 x, __int128 y) { return x * y; });
    case Code::div:
    case Code::mod:
      if (b.lo <= 0 && b.hi >= 0) return std::nullopt;  // may divide by zero
      if (n.code == Code::mod) return remainder_range(a, b);
      return corners(a, b, [](__int128 x, __int128 y) { return x / y; });
    case Code::shl:
      if (a.lo < 0 || b.lo < 0 || b.hi > 30) return std::nullopt;
      return in_int32(__int128(a.lo) << b.lo, __int128(a.hi) << b.hi);
    case Code::shr:
      if (b.lo < 0 || b.hi > 31) return std::nullopt;
      return corners(a, b, [](__int128 x, __int128 y) { return x >> static_cast<int>(y); });
    case Code::band:
    case Code::bor: return bitwise_range(a, b, n.code);
    default: return ValueRange{0, 1};  // comparisons and logic
  }
}

Range range_node(const Node& n, const Ranges& ranges) {
  switch (n.kind) {
    case Node::Kind::number: return in_int32(n.value, n.value);
    case Node::Kind::name:
      for (auto it = ranges.rbegin(); it != ranges.rend(); ++it)
        if (it->first == n.name) return in_int32(it->second.lo, it->second.hi);
      return std::nullopt;
    case Node::Kind::unary: {
      const Range a = range_node(*n.a, ranges);
      if (!a) return std::nullopt;
      if (n.code == Code::lnot) return ValueRange{0, 1};
      return in_int32(-__int128(a->hi), -__int128(a->lo));
    }
    case Node::Kind::binary: break;
  }
  const Range a = range_node(*n.a, ranges), b = range_node(*n.b, ranges);
  if (!a || !b) return std::nullopt;
  return binary_range(n, *a, *b);
}

void collect_names(const Node& n, std::vector<std::string>& out) {
  if (n.kind == Node::Kind::name) out.push_back(n.name);
  if (n.a) collect_names(*n.a, out);
  if (n.b) collect_names(*n.b, out);
}

bool reads_name(const Node& n, const std::string& name) {
  return (n.kind == Node::Kind::name && n.name == name) || (n.a && reads_name(*n.a, name)) ||
         (n.b && reads_name(*n.b, name));
}

bool reads_only(const Node& n, const Vars& known) {
  if (n.kind == Node::Kind::name)
    return std::any_of(known.begin(), known.end(), [&](const auto& v) { return v.first == n.name; });
  return (!n.a || reads_only(*n.a, known)) && (!n.b || reads_only(*n.b, known));
}

void collect_divisions(const Node& n, const std::string& var, const Vars& constants, const std::string& text,
                       std::vector<std::string>& out) {
  if (divides_by_constant(n, constants) && reads_name(*n.a, var)) {
    const int64_t d = eval_node(*n.b, constants, text);
    if (d > 0 && (d & (d - 1)) != 0) {
      std::string dividend;
      c_node(*n.a, "", false, dividend);
      out.push_back(dividend + " / " + std::to_string(d));
    }
  }
  if (n.a) collect_divisions(*n.a, var, constants, text, out);
  if (n.b) collect_divisions(*n.b, var, constants, text, out);
}

// A name, or a name divided by a constant or its remainder: what the emitted CUDA keeps as a counter.
bool counter_like(const Node& n, const Vars& constants) {
  return n.kind == Node::Kind::name || (divides_by_constant(n, constants) && n.a->kind == Node::Kind::name);
}

// Each division or remainder by a positive constant whose dividend reads a name of `vars` and is
// not counter_like, as "DIVIDEND / DIVISOR".
void collect_inline_divisions(const Node& n, const std::vector<std::string>& vars, const Vars& constants,
                              const std::string& text, std::vector<std::string>& out) {
  if (divides_by_constant(n, constants) && !counter_like(*n.a, constants) &&
      std::any_of(vars.begin(), vars.end(), [&](const std::string& v) { return reads_name(*n.a, v); })) {
    const int64_t d = eval_node(*n.b, constants, text);
    if (d > 0) {
      std::string dividend;
      c_node(*n.a, "", false, dividend);
      out.push_back(dividend + " / " + std::to_string(d));
    }
  }
  if (n.a) collect_inline_divisions(*n.a, vars, constants, text, out);
  if (n.b) collect_inline_divisions(*n.b, vars, constants, text, out);
}

// n with the names of `constants` replaced by their values and each operation on numbers alone
// computed, unless computing it fails (its error stays for the evaluation to meet).
NodeP fold_node(const NodeP& n, const Vars& constants, const std::string& text) {
  if (n->kind == Node::Kind::number) return n;
  if (n->kind == Node::Kind::name) {
    for (auto it = constants.rbegin(); it != constants.rend(); ++it)
      if (it->first == n->name) {
        auto c = std::make_shared<Node>();
        c->kind = Node::Kind::number;
        c->value = it->second;
        return c;
      }
    return n;
  }
  const NodeP a = fold_node(n->a, constants, text);
  const NodeP b = n->b ? fold_node(n->b, constants, text) : nullptr;
  auto m = std::make_shared<Node>(*n);
  m->a = a;
  m->b = b;
  if (a->kind == Node::Kind::number && (!b || b->kind == Node::Kind::number)) {
    try {
      auto c = std::make_shared<Node>();
      c->kind = Node::Kind::number;
      c->value = eval_node(*m, {}, text);
      return c;
    } catch (const Error&) {
    }
  }
  return m;
}

}  // namespace

std::vector<std::string> Expression::runtime_divisions(const std::string& var, const Vars& constants) const {
  std::vector<std::string> out;
  if (root_) collect_divisions(*root_, var, constants, text_, out);
  return out;
}

std::vector<std::string> Expression::inline_divisions(const std::vector<std::string>& vars, const Vars& constants) const {
  std::vector<std::string> out;
  if (root_) collect_inline_divisions(*root_, vars, constants, text_, out);
  return out;
}

Expression Expression::parse(const std::string& text) {
  Expression e;
  e.text_ = text;
  e.root_ = Parser(text).parse();
  return e;
}

Expression Expression::constant(int64_t v) {
  Expression e;
  e.text_ = std::to_string(v);
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::number;
  n->value = v;
  e.root_ = n;
  return e;
}

int64_t Expression::eval(const Vars& vars) const {
  if (!root_) throw Error("empty expression");
  return eval_node(*root_, vars, text_);
}

Expression Expression::with_constants(const Vars& constants) const {
  Expression e = *this;
  if (root_) e.root_ = fold_node(root_, constants, text_);
  return e;
}

std::string Expression::to_c(const std::string& prefix) const { return to_c(prefix, false, {}, nullptr); }

std::optional<ValueRange> Expression::int32_range(const Ranges& ranges) const {
  if (!root_) return std::nullopt;
  return range_node(*root_, ranges);
}

std::string Expression::to_c_int32(const std::string& prefix) const { return to_c(prefix, true, {}, nullptr); }

std::string Expression::to_c(const std::string& prefix, bool int32, const Vars& constants,
                             const CounterNames& counters) const {
  std::string out = int32 ? "((long long)" : "";
  if (root_) c_node(*root_, CSource{prefix, int32, &constants, counters ? &counters : nullptr}, out);
  return int32 ? out + ")" : out;
}

std::vector<std::string> Expression::names() const {
  std::vector<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

int64_t eval_expression(const std::string& text, const Vars& vars) { return Expression::parse(text).eval(vars); }

}  // namespace tmasim
