#include "scenario.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <functional>

#include "tmasim/golden.hpp"

namespace tmasim::sc {

using nlohmann::json;
using Vars = std::vector<std::pair<std::string, int64_t>>;

namespace {

class Parser {
 public:
  Parser(const std::string& s, const Vars& v) : s_(s), v_(v) {}
  int64_t parse() {
    int64_t x = comparison();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_, 1) + "'");
    return x;
  }

 private:
  [[noreturn]] void fail(const std::string& why) { throw Error("expression '" + s_ + "': " + why); }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* op) {
    skip();
    size_t n = std::char_traits<char>::length(op);
    if (s_.compare(i_, n, op) == 0) {
      i_ += n;
      return true;
    }
    return false;
  }
  int64_t comparison() {
    int64_t a = sum();
    if (eat("<=")) return a <= sum();
    if (eat(">=")) return a >= sum();
    if (eat("==")) return a == sum();
    if (eat("!=")) return a != sum();
    if (eat("<")) return a < sum();
    if (eat(">")) return a > sum();
    return a;
  }
  int64_t sum() {
    int64_t a = product();
    for (;;) {
      if (eat("+")) a += product();
      else if (eat("-")) a -= product();
      else return a;
    }
  }
  int64_t product() {
    int64_t a = unary();
    for (;;) {
      if (eat("*")) {
        a *= unary();
      } else if (eat("/") || eat("%")) {
        const bool div = s_[i_ - 1] == '/';
        int64_t b = unary();
        if (b == 0) fail("division by zero");
        a = div ? a / b : a % b;
      } else {
        return a;
      }
    }
  }
  int64_t unary() {
    if (eat("-")) return -unary();
    if (eat("(")) {
      int64_t x = comparison();
      if (!eat(")")) fail("missing ')'");
      return x;
    }
    skip();
    size_t start = i_;
    if (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      return std::stoll(s_.substr(start, i_ - start));
    }
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    if (start == i_) fail("expected a number or a name");
    const std::string name = s_.substr(start, i_ - start);
    for (auto it = v_.rbegin(); it != v_.rend(); ++it)
      if (it->first == name) return it->second;
    fail("unknown name '" + name + "'");
  }
  const std::string& s_;
  const Vars& v_;
  size_t i_ = 0;
};

int64_t value(const json& j, const char* field, const Vars& vars) {
  if (j.is_number_integer()) return j.get<int64_t>();
  if (j.is_string()) return eval_expression(j.get<std::string>(), vars);
  throw Error(std::string("field '") + field + "' must be an integer or an expression string");
}

int64_t field(const json& step, const char* name, const Vars& vars, int64_t fallback, bool required = false) {
  if (!step.contains(name)) {
    if (required) throw Error(std::string("missing field '") + name + "'");
    return fallback;
  }
  return value(step[name], name, vars);
}

std::vector<int32_t> int_list(const json& step, const char* name, const Vars& vars) {
  std::vector<int32_t> out;
  if (!step.contains(name)) return out;
  if (!step[name].is_array()) throw Error(std::string("field '") + name + "' must be an array");
  for (const json& x : step[name]) out.push_back(static_cast<int32_t>(value(x, name, vars)));
  return out;
}

}  // namespace

int64_t eval_expression(const std::string& text, const Vars& vars) { return Parser(text, vars).parse(); }

void build_scenario(const json& j, const TimingConfig& cfg, Scenario& out) {
  if (!j.is_object()) throw Error("a scenario must be a JSON object");
  out.name = j.value("name", std::string("<unnamed>"));
  Experiment& e = out.experiment;
  e.cfg = cfg;
  Vars globals;
  // Tensors: laid out one after another in one global memory, each at a 1 KiB boundary.
  int64_t next = 0;
  std::vector<int64_t> bases;
  for (auto& [name, t] : require(j, "tensors").items()) {
    TensorMap m = parse_tensor_map(t);
    m.global_address = static_cast<uint64_t>(next);
    if (auto bad = validate(m)) throw Error("tensor '" + name + "': " + bad->rule + ": " + bad->message);
    int64_t extent = m.global_dims[0] * (m.mode == TensorMode::im2col ? m.elem_bytes() : m.unit_bytes());
    for (int d = 1; d < m.rank; ++d) extent += (m.global_dims[d] - 1) * m.global_strides[d - 1];
    next = (next + extent + 1023) / 1024 * 1024;
    if (next > (int64_t(1) << 31)) throw Error("the scenario's tensors exceed 2 GiB of global memory");
    out.tensor_names.push_back(name);
    e.maps.push_back(m);
    globals.emplace_back("bytes_" + name, m.transaction_bytes());
  }
  out.global.resize(static_cast<size_t>(next));
  for (size_t i = 0; i < out.global.size(); ++i) out.global[i] = golden_fill(i);
  e.global = &out.global;
  auto tensor_index = [&](const std::string& n) {
    for (size_t k = 0; k < out.tensor_names.size(); ++k)
      if (out.tensor_names[k] == n) return static_cast<int>(k);
    throw Error("unknown tensor '" + n + "'");
  };

  std::function<void(const json&, Vars&, std::vector<Step>&)> expand = [&](const json& prog, Vars& vars,
                                                                           std::vector<Step>& steps) {
    if (!prog.is_array()) throw Error("a program must be an array of steps");
    for (const json& s : prog) {
      if (!s.is_object()) throw Error("a step must be an object");
      if (s.contains("if") && value(s["if"], "if", vars) == 0) continue;
      if (s.contains("loop")) {
        const std::string var = s["loop"].get<std::string>();
        const int64_t count = field(s, "count", vars, 0, true);
        if (count < 0 || count > 1000000) throw Error("loop count out of range");
        for (int64_t k = 0; k < count; ++k) {
          vars.emplace_back(var, k);
          expand(require(s, "body"), vars, steps);
          vars.pop_back();
        }
        continue;
      }
      Step st{Step::Kind::mark_start};
      const char* ops[] = {"load", "store", "reduce", "prefetch"};
      const Step::Kind kinds[] = {Step::Kind::load, Step::Kind::store, Step::Kind::reduce, Step::Kind::prefetch};
      bool is_op = false;
      for (int k = 0; k < 4; ++k) {
        if (!s.contains(ops[k])) continue;
        is_op = true;
        st.kind = kinds[k];
        st.map = tensor_index(s[ops[k]].get<std::string>());
        st.ins.op = static_cast<Op>(k);
        if (k == 2) {
          auto r = parse_reduce_op(s.value("reduce_op", std::string("add")));
          if (!r) throw Error("unknown reduce_op");
          st.ins.reduce_op = *r;
        }
        st.ins.coords = int_list(s, "coords", vars);
        st.ins.im2col_offsets = int_list(s, "im2col_offsets", vars);
        st.ins.smem_offset = static_cast<uint32_t>(field(s, "smem_offset", vars, 0));
        st.barrier = static_cast<int>(field(s, "barrier", vars, 0));
        st.multicast = static_cast<int>(field(s, "multicast", vars, 1));
        check_instruction(e.maps[st.map], st.ins);  // refuse what the hardware refuses, up front
      }
      if (is_op) {
      } else if (s.contains("arrive")) {
        st.kind = Step::Kind::arrive_expect_tx;
        st.barrier = static_cast<int>(value(s["arrive"], "arrive", vars));
        st.bytes = field(s, "bytes", vars, 0, true);
      } else if (s.contains("wait")) {
        st.kind = Step::Kind::wait_barrier;
        st.barrier = static_cast<int>(value(s["wait"], "wait", vars));
        st.phase = static_cast<int>(field(s, "phase", vars, 0, true));
      } else if (s.contains("wait_stores")) {
        st.kind = Step::Kind::wait_stores;
      } else if (s.contains("read")) {
        st.kind = Step::Kind::read;
        const json& t = s["read"];
        st.tile.rows = static_cast<int>(field(t, "rows", vars, 0, true));
        st.tile.cols = static_cast<int>(field(t, "cols", vars, 0, true));
        auto dt = parse_dtype(t.value("dtype", std::string("float16")));
        auto sw = parse_swizzle(t.value("swizzle", std::string("none")));
        if (!dt || dtype_bytes(*dt) != 2) throw Error("read: ldmatrix needs a 16-bit dtype");
        if (!sw) throw Error("read: unknown swizzle");
        st.tile.dtype = *dt;
        st.tile.swizzle = *sw;
        st.tile.smem_offset = static_cast<uint32_t>(field(t, "smem_offset", vars, 0));
      } else {
        throw Error("unknown step " + s.dump());
      }
      if (st.barrier < 0 || st.barrier >= e.barriers_per_cta) throw Error("barrier index out of range 0..7");
      steps.push_back(st);
    }
  };

  for (const json& group : require(j, "ctas")) {
    const int64_t count = field(group, "count", globals, 1);
    const std::string var = group.value("var", std::string("cta"));
    const int cluster = static_cast<int>(field(group, "cluster_size", globals, 1));
    if (count < 1 || count > 4096) throw Error("ctas.count out of range");
    for (int64_t c = 0; c < count; ++c) {
      Vars vars = globals;
      vars.emplace_back(var, c);
      CtaProgram p;
      p.sm = static_cast<int>(field(group, "sm", vars, c));
      p.cluster_size = cluster;
      p.cluster_rank = static_cast<int>(c % cluster);
      try {
        expand(require(group, "program"), vars, p.steps);
      } catch (const Error& err) {
        throw Error("CTA " + std::to_string(e.ctas.size()) + ": " + err.what());
      }
      e.ctas.push_back(std::move(p));
    }
  }
  if (e.ctas.empty()) throw Error("the scenario has no CTAs");
}

Measurement run_in_child(const Experiment& e) {
  int fd[2];
  if (pipe(fd) != 0) throw Error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw Error("fork failed");
  if (pid == 0) {
    close(fd[0]);
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    Measurement m;
    int ok = 1;
    try {
      m = run_experiment(e);
    } catch (const std::exception& ex) {
      std::fprintf(stderr, "tmasim: simulation error: %s\n", ex.what());
      ok = 0;
    }
    if (write(fd[1], &ok, sizeof ok) < 0 || write(fd[1], &m, sizeof m) < 0) _exit(2);
    _exit(0);
  }
  close(fd[1]);
  int ok = 0;
  Measurement m;
  bool got = read(fd[0], &ok, sizeof ok) == sizeof ok && read(fd[0], &m, sizeof m) == sizeof m;
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!got || !ok) throw Error("the simulation failed");
  return m;
}

}  // namespace tmasim::sc
