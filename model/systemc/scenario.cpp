// A scenario's tree of steps expanded for the model (build_scenario), with every check made
// before a simulation: reads of stages never loaded or never waited on, shared-memory bounds,
// the expansion budget.
#include "scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "huge_pages.hpp"
#include "scenario_constants.hpp"
#include "scenario_reads.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::sc {

using nlohmann::json;

namespace {

constexpr int64_t kMaxSteps = 5'000'000;  // expanded steps over all CTAs and threads
constexpr int64_t kMaxLoop = 1'000'000;
constexpr int64_t kMaxWalked = 50'000'000;  // loop iterations looked at while counting, in all

}  // namespace

double mma_cycles(const TimingConfig& cfg, int m, int n, int k) {
  return 2.0 * m * n * k / cfg.mma_flops_per_cycle;
}

namespace {

// What the expansions of a scenario's threads share, for as long as any of their programs lives:
// the scenario's tree (a copy: the programs outlive the caller's; its maps are what the checks
// read), the configuration, each step's origin and each loop's divisions (filled as it is built).
struct ExpansionShared {
  ScenarioSpec spec;
  TimingConfig cfg;
  std::map<const StepSpec*, uint32_t> origins;
  std::map<const StepSpec*, int> divisions;  // by loop: loop_divisions()
  std::map<const StepSpec*, int> inline_divisions;  // by step: step_inline_divisions()
  std::vector<std::string>* origin_names = nullptr;  // while the scenario is built: Experiment::origins
  InstructionChecker checker;                       // spec.maps stay where they are while threads expand
};

// Builds one thread's steps from the step tree, with the variables in scope.
struct Expander {
  ExpansionShared& shared;
  int barriers;
  bool warpgroup = false;  // the thread being expanded is a warpgroup (it may issue `mma`)
  int64_t walked = 0;  // loop iterations walked to count the steps: bounded, whatever they yield

  int64_t eval(const Expression& x, const Vars& vars, const StepSpec& s, const char* field) const {
    try {
      return x.eval(vars);
    } catch (const Error& err) {
      throw Error(s.where + ": " + field + ": " + err.what());
    }
  }
  int32_t eval32(const Expression& x, const Vars& vars, const StepSpec& s, const char* field) const {
    const int64_t v = eval(x, vars, s, field);
    if (v < INT32_MIN || v > INT32_MAX) throw Error(s.where + ": " + field + " = " + std::to_string(v) + " does not fit 32 bits");
    return static_cast<int32_t>(v);
  }
  int barrier_index(const Expression& x, const Vars& vars, const StepSpec& s) const {
    const int64_t b = eval(x, vars, s, "barrier");
    if (b < 0 || b >= barriers)
      throw Error(s.where + ": barrier " + std::to_string(b) + " out of range 0.." + std::to_string(barriers - 1));
    return static_cast<int>(b);
  }

  // Steps `prog` expands to, counted before anything is built, so that a scenario over the
  // budget is refused at once. A loop whose body's counts and conditions do not read its
  // variable is multiplied out instead of walked.
  int64_t count(const std::vector<StepSpec>& prog, Vars& vars, int64_t limit) {
    int64_t n = 0;
    for (const StepSpec& s : prog) {
      if (!s.cond.empty() && eval(s.cond, vars, s, "if") == 0) continue;
      if (s.kind != StepSpec::Kind::loop) {
        ++n;
      } else {
        const int64_t iterations = eval(s.count, vars, s, "count");
        if (iterations < 0 || iterations > kMaxLoop)
          throw Error(s.where + ": loop count " + std::to_string(iterations) + " out of range 0.." + std::to_string(kMaxLoop));
        if (iterations == 0) continue;
        vars.emplace_back(s.var, 0);
        if (!reads(s.body, s.var)) {
          const int64_t body = count(s.body, vars, limit);
          n += body > 0 && iterations > (limit + 1) / body ? limit + 1 : iterations * body;
        } else {
          for (int64_t k = 0; k < iterations && n <= limit; ++k) {
            if (++walked > kMaxWalked)  // a body that yields no step still takes a look per iteration
              throw Error(s.where + ": the scenario's loops take more than " + std::to_string(kMaxWalked) +
                          " iterations to expand (the expansion budget)");
            vars.back().second = k;
            n += count(s.body, vars, limit - n);
          }
        }
        vars.pop_back();
      }
      if (n > limit) return n;
    }
    return n;
  }
  // Whether a loop count or condition in `prog` reads `var`.
  static bool reads(const std::vector<StepSpec>& prog, const std::string& var) {
    auto in = [&](const Expression& e) {
      const auto names = e.names();
      return std::find(names.begin(), names.end(), var) != names.end();
    };
    for (const StepSpec& s : prog)
      if (in(s.cond) || (s.kind == StepSpec::Kind::loop && (in(s.count) || (s.var != var && reads(s.body, var)))))
        return true;
    return false;
  }

  void tma_step(const StepSpec& s, const Vars& vars, int cluster_size, Step& st) {
    st.ins.op = *step_kind(s.kind).tma_op;
    st.kind = model_step_of(st.ins.op);
    st.map = s.map;
    st.ins.reduce_op = s.reduce_op;
    for (const Expression& c : s.coords) st.ins.coords.push_back(eval32(c, vars, s, "coords"));
    for (const Expression& c : s.im2col_offsets) st.ins.im2col_offsets.push_back(eval32(c, vars, s, "im2col_offsets"));
    const int64_t off = eval(s.smem_offset, vars, s, "smem_offset");
    if (off < 0 || off >= shared.cfg.smem.size_bytes)
      throw Error(s.where + ": smem_offset " + std::to_string(off) + " outside shared memory (0.." +
                  std::to_string(shared.cfg.smem.size_bytes - 1) + ", smem.size_bytes)");
    st.ins.smem_offset = static_cast<uint32_t>(off);
    st.barrier = barrier_index(s.barrier, vars, s);
    if (!s.multicast.empty()) {
      const int64_t n = eval(s.multicast, vars, s, "multicast");
      if (n < 1 || n > cluster_size) throw Error(s.where + ": multicast must be 1.." + std::to_string(cluster_size) + " (the cluster size)");
      st.multicast = static_cast<int>(n);
    }
    if (!s.cta_mask.empty()) {
      const int64_t mask = eval(s.cta_mask, vars, s, "cta_mask");
      if (mask < 1 || mask >= (int64_t(1) << cluster_size))
        throw Error(s.where + ": cta_mask " + std::to_string(mask) + " names CTAs outside the cluster of " + std::to_string(cluster_size));
      st.cta_mask = static_cast<uint32_t>(mask);
    }
    try {
      shared.checker.check(shared.spec.maps[st.map], st.ins);  // refuse what the hardware refuses, up front
    } catch (const Error& err) {
      throw Error(s.where + ": " + err.what());
    }
  }

  // A read (ldmatrix.x4) or a write (stmatrix.x4) of a tile, one instruction per 16x16 block.
  void tile_step(const StepSpec& s, const Vars& vars, Step& st) {
    const bool write = s.kind == StepSpec::Kind::write;
    const std::string what = write ? "write (stmatrix" : "read (ldmatrix";
    if (warpgroup)
      throw Error(s.where + ": a " + what + ", one warp's) runs in a warp's thread, not a warpgroup's: give it a "
                  "thread of its own");
    st.kind = write ? Step::Kind::write : Step::Kind::read;
    const int64_t rows = eval(s.rows, vars, s, "rows"), cols = eval(s.cols, vars, s, "cols");
    if (rows < 16 || rows > 256 || rows % 16 || cols < 16 || cols > 256 || cols % 16)
      throw Error(s.where + ": " + (write ? "write" : "read") + " rows and cols must be multiples of 16 from 16 to 256");
    st.tile.rows = static_cast<int>(rows);
    st.tile.cols = static_cast<int>(cols);
    st.tile.dtype = s.dtype;
    st.tile.swizzle = s.swizzle;
    const int64_t off = eval(s.smem_offset, vars, s, "smem_offset");
    if (off < 0 || off + rows * cols * 2 > shared.cfg.smem.size_bytes)
      throw Error(s.where + ": the " + (write ? "write" : "read") + " lies outside shared memory (" +
                  std::to_string(shared.cfg.smem.size_bytes) + " bytes, smem.size_bytes)");
    st.tile.smem_offset = static_cast<uint32_t>(off);
  }

  void wait_step(const StepSpec& s, const Vars& vars, Step& st) {
    st.kind = Step::Kind::wait_barrier;
    st.barrier = barrier_index(s.barrier, vars, s);
    if (!s.parity.empty()) {
      const int64_t p = eval(s.parity, vars, s, "parity");
      if (p != 0 && p != 1) throw Error(s.where + ": parity must be 0 or 1");
      st.parity = static_cast<int>(p);
    } else {
      const int64_t p = eval(s.phase, vars, s, "phase");
      if (p < 0 || p > INT32_MAX) throw Error(s.where + ": phase must be 0 or more");
      st.phase = static_cast<int>(p);
    }
  }

  // An operand in shared memory, aligned to the swizzle's repeat of 8 rows (the descriptor's base offset 0):
  // K-major, `extent` rows (M of A, N of B) of the swizzle's span; MN-major, extent / (span's elements)
  // chunks `leading` bytes apart, each `k_rows` rows (K) of the span. Every chunk inside shared memory.
  void mma_operand(const StepSpec& s, const Vars& vars, const Expression& offset, const Expression& leading_expr,
                   bool mn_major, Swizzle swizzle, int extent, int k_rows, int element_bytes, const char* which,
                   uint32_t& offset_out, uint32_t& leading_out) const {
    const int64_t off = eval(offset, vars, s, which);
    const int64_t span = swizzle_span(swizzle), atom = 8 * span;
    const std::string operand = std::string(which) + " operand";
    if (off < 0 || off % atom != 0)
      throw Error(s.where + ": " + which + ".smem_offset " + std::to_string(off) + " must be a multiple of " +
                  std::to_string(atom) + " (8 rows of the " + std::string(name(swizzle)) +
                  " swizzle's span: the pattern repeats there, and the descriptor names no other phase)");
    int64_t chunks = 1, rows = extent, leading = 0;
    if (mn_major) {
      const int64_t chunk_elements = span / element_bytes;
      chunks = (extent + chunk_elements - 1) / chunk_elements;
      rows = k_rows;
      if (extent % chunk_elements != 0)
        throw Error(s.where + ": the MN-major " + operand + "'s " + std::to_string(extent) +
                    " columns are not whole chunks of the " + std::string(name(swizzle)) + " swizzle's " +
                    std::to_string(chunk_elements) + " elements");
      leading = eval(leading_expr, vars, s, "leading_bytes");
      if (chunks > 1 && (leading <= 0 || leading % atom != 0 || leading >= (int64_t(1) << 18)))
        throw Error(s.where + ": the MN-major " + operand + " spans " + std::to_string(chunks) + " chunks of " +
                    std::to_string(chunk_elements) + " elements, so it needs leading_bytes (from one chunk to the " +
                    "next, the descriptor's leading byte offset): a positive multiple of " + std::to_string(atom) +
                    " below 262144, got " + std::to_string(leading));
    }
    const int64_t end = off + (chunks - 1) * leading + rows * span;
    if (end > shared.cfg.smem.size_bytes)
      throw Error(s.where + ": the " + operand + " (" + std::to_string(chunks) + " x " + std::to_string(rows) +
                  " rows of " + std::to_string(span) + " bytes at " + std::to_string(off) +
                  ") lies outside shared memory (" + std::to_string(shared.cfg.smem.size_bytes) +
                  " bytes, smem.size_bytes)");
    offset_out = static_cast<uint32_t>(off);
    leading_out = static_cast<uint32_t>(leading);
  }

  void mma_step(const StepSpec& s, const Vars& vars, Step& st) const {
    if (!warpgroup)
      throw Error(s.where + ": an mma step runs in a warpgroup's thread (\"warpgroup\": true): wgmma is issued by "
                  "four warps together");
    st.kind = Step::Kind::mma;
    MmaOp& op = st.mma;
    op.m = s.mma_m;
    op.n = s.mma_n;
    op.k = s.mma_k;
    op.type = s.mma_type;
    op.a_in_registers = s.a_in_registers;
    op.a_swizzle = s.a_swizzle;
    op.b_swizzle = s.b_swizzle;
    op.a_mn_major = s.a_mn_major && !s.a_in_registers;
    op.b_mn_major = s.b_mn_major;
    const int64_t count = eval(s.count, vars, s, "count");
    const int row_bytes = op.k * op.element_bytes();  // 32 for every type
    auto fits = [&](Swizzle sw, bool mn_major, const char* which) {
      if (!mn_major && count * row_bytes > swizzle_span(sw))
        throw Error(s.where + ": count " + std::to_string(count) + " wgmma of k" + std::to_string(op.k) + " read " +
                    std::to_string(count * row_bytes) + " bytes of each " + which + " row, past the " +
                    std::to_string(swizzle_span(sw)) + "-byte span of its " + std::string(name(sw)) +
                    " swizzle (one step walks K inside one span; give the next span its own step)");
    };
    if (count < 1) throw Error(s.where + ": mma count must be 1 or more");
    fits(op.b_swizzle, op.b_mn_major, "B");
    op.count = static_cast<int>(count);
    const int k_rows = op.count * op.k;
    mma_operand(s, vars, s.b_offset, s.b_leading, op.b_mn_major, op.b_swizzle, op.n, k_rows, op.element_bytes(), "b",
                op.b_offset, op.b_leading);
    if (!op.a_in_registers) {
      fits(op.a_swizzle, op.a_mn_major, "A");
      mma_operand(s, vars, s.a_offset, s.a_leading, op.a_mn_major, op.a_swizzle, op.m, k_rows, op.element_bytes(),
                  "a", op.a_offset, op.a_leading);
    }
  }

  // The step `s` is with these variables, built in `st` (a fresh step, whose vectors may keep
  // their capacity: a walk builds millions).
  void step(const StepSpec& s, const Vars& vars, int cluster_size, Step& st) {
    st.origin = origin(s);
    switch (s.kind) {
      case StepSpec::Kind::load:
      case StepSpec::Kind::store:
      case StepSpec::Kind::reduce:
      case StepSpec::Kind::prefetch:
        tma_step(s, vars, cluster_size, st);
        break;
      case StepSpec::Kind::arrive:
        st.kind = Step::Kind::arrive_expect_tx;
        st.barrier = barrier_index(s.barrier, vars, s);
        st.bytes = eval(s.bytes, vars, s, "bytes");
        if (st.bytes < 0 || st.bytes >= (int64_t(1) << 20)) throw Error(s.where + ": bytes must be 0..2^20-1 (the transaction count's range)");
        if (!s.target_cta.empty()) {
          const int64_t r = eval(s.target_cta, vars, s, "cta");
          if (r < 0 || r >= cluster_size) throw Error(s.where + ": cta " + std::to_string(r) + " is not a rank of the cluster of " + std::to_string(cluster_size));
          st.target_rank = static_cast<int>(r);
          st.release_cta = s.release_cta;
        }
        break;
      case StepSpec::Kind::wait:
        wait_step(s, vars, st);
        break;
      case StepSpec::Kind::wait_stores: {
        st.kind = Step::Kind::wait_stores;
        const int64_t pending = eval(s.pending, vars, s, "wait_stores");
        if (pending < 0 || pending > 7) throw Error(s.where + ": wait_stores allows 0..7 bulk groups in flight");
        st.pending = static_cast<int>(pending);
        st.read_only = s.read_only;
        break;
      }
      case StepSpec::Kind::read:
      case StepSpec::Kind::write:
        tile_step(s, vars, st);
        break;
      case StepSpec::Kind::fence:
        st.kind = Step::Kind::fence;
        break;
      case StepSpec::Kind::delay:
        st.kind = Step::Kind::delay;
        st.cycles = eval(s.cycles, vars, s, "delay");
        if (st.cycles < 0 || st.cycles > (int64_t(1) << 32)) throw Error(s.where + ": delay must be 0..2^32 cycles");
        break;
      case StepSpec::Kind::compute: {
        st.kind = Step::Kind::delay;
        const int64_t n = eval(s.count, vars, s, "count");
        if (n < 0 || n > (1 << 20)) throw Error(s.where + ": compute count must be 0..2^20");
        st.cycles = static_cast<int64_t>(std::llround(n * mma_cycles(shared.cfg, s.mma_m, s.mma_n, s.mma_k)));
        break;
      }
      case StepSpec::Kind::mma:
        mma_step(s, vars, st);
        break;
      case StepSpec::Kind::mma_commit:
        if (!warpgroup) throw Error(s.where + ": mma_commit runs in a warpgroup's thread (\"warpgroup\": true)");
        st.kind = Step::Kind::mma_commit;
        break;
      case StepSpec::Kind::mma_wait: {
        if (!warpgroup) throw Error(s.where + ": mma_wait runs in a warpgroup's thread (\"warpgroup\": true)");
        st.kind = Step::Kind::mma_wait;
        const int64_t pending = eval(s.pending, vars, s, "mma_wait");
        if (pending < 0 || pending > 7) throw Error(s.where + ": mma_wait allows 0..7 commit groups in flight");
        st.pending = static_cast<int>(pending);
        break;
      }
      case StepSpec::Kind::sync: st.kind = Step::Kind::sync; break;
      case StepSpec::Kind::stamp: st.kind = Step::Kind::stamp; break;
      case StepSpec::Kind::loop: break;
    }
    if (!s.least_cycles.empty()) {
      st.least_cycles = eval(s.least_cycles, vars, s, "cycles");
      if (st.least_cycles < 0 || st.least_cycles > (int64_t(1) << 32))
        throw Error(s.where + ": cycles (the least the step takes of its thread) must be 0..2^32");
    }
  }

  // The step's index in Experiment::origins, given at its first expansion (the scenario's build
  // expands every step a run reaches).
  uint32_t origin(const StepSpec& s) {
    auto it = shared.origins.find(&s);
    if (it != shared.origins.end()) return it->second;
    if (!shared.origin_names) return UINT32_MAX;
    shared.origin_names->push_back(s.where);
    return shared.origins[&s] = static_cast<uint32_t>(shared.origin_names->size() - 1);
  }

  // One iteration's divisions (loop_divisions in scenario_constants.hpp), counted when the scenario was built.
  int loop_divisions(const StepSpec& loop) const { return shared.divisions.at(&loop); }
};

// One thread's steps, expanded as they are asked for: the loops are walked as loops, a frame each.
class ThreadExpansion : public StepStream {
 public:
  // `budget`: the steps the scenario may still expand to, counted down (nullptr: not counted).
  ThreadExpansion(const Expander& builder, Vars vars, const std::vector<StepSpec>& program, int cluster_size,
                  int64_t* budget)
      : x_(builder), vars_(std::move(vars)), cluster_size_(cluster_size), budget_(budget) {
    frames_.push_back({&program, 0, nullptr, 0, 0, 0.0, true});
  }
  const Step* next() override {
    while (!frames_.empty()) {
      Frame& f = frames_.back();
      if (f.next == f.body->size()) {
        end_of_body(f);
        continue;
      }
      const StepSpec& s = (*f.body)[f.next++];
      if (!s.cond.empty() && x_.eval(s.cond, vars_, s, "if") == 0) continue;
      if (s.kind == StepSpec::Kind::loop) {
        enter(s);
        continue;
      }
      if (budget_ && --*budget_ < 0)
        throw Error(s.where + ": the scenario expands to more than " + std::to_string(kMaxSteps) + " steps (the expansion budget)");
      renew_step();
      x_.step(s, vars_, cluster_size_, step_);
      step_.straight = frames_.back().loop == nullptr || frames_.back().loop->unroll == 1;
      if (auto d = x_.shared.inline_divisions.find(&s); d != x_.shared.inline_divisions.end()) step_.thread_cycles += x_.shared.cfg.inline_division_cycles * d->second;
      // Each enclosing loop's iteration pays its own cost before its first step, the innermost first
      // (thread.loop_iteration_cycles, thread.divide_cycles).
      for (auto it = frames_.rbegin(); it != frames_.rend() && it->loop && !it->produced; ++it) {
        if (it->arithmetic > 0) step_.thread_cycles += it->arithmetic;
        it->produced = true;
      }
      return &step_;
    }
    return nullptr;
  }

 private:
  struct Frame {
    const std::vector<StepSpec>* body;
    size_t next;            // the body's step to look at next
    const StepSpec* loop;   // nullptr: the thread's program
    int64_t k, n;           // the iteration, of n
    double arithmetic;      // the thread's own per iteration
    bool produced;          // the iteration has yielded a step
  };
  void enter(const StepSpec& s) {
    const int64_t n = x_.eval(s.count, vars_, s, "count");
    if (n < 0 || n > kMaxLoop) throw Error(s.where + ": loop count " + std::to_string(n) + " out of range 0.." + std::to_string(kMaxLoop));
    if (n == 0) return;
    const TimingConfig& c = x_.shared.cfg;
    const double arithmetic =
        c.straight_line_costs && s.unroll == 1
            ? c.straight_iteration_cycles
            : c.loop_iteration_cycles + (c.divide_cycles > 0 ? c.divide_cycles * x_.loop_divisions(s) : 0.0);
    vars_.emplace_back(s.var, 0);
    frames_.push_back({&s.body, 0, &s, 0, n, arithmetic, false});
  }
  // step_ as a fresh step, its vectors' capacity kept (a walk builds millions of steps).
  void renew_step() {
    std::vector<int32_t> coords = std::move(step_.ins.coords), offsets = std::move(step_.ins.im2col_offsets);
    coords.clear();
    offsets.clear();
    step_ = Step{Step::Kind::mark_start};
    step_.ins.coords = std::move(coords);
    step_.ins.im2col_offsets = std::move(offsets);
  }
  void end_of_body(Frame& f) {
    if (f.loop && ++f.k < f.n) {
      vars_.back().second = f.k;
      f.next = 0;
      f.produced = false;
      return;
    }
    if (f.loop) vars_.pop_back();
    frames_.pop_back();
  }

  Expander x_;
  Vars vars_;
  int cluster_size_;
  int64_t* budget_;
  std::vector<Frame> frames_;
  Step step_;
};

// A scenario thread's program: its tree and variables, expanded afresh by each walk.
class ThreadSource : public StepSource {
 public:
  ThreadSource(std::shared_ptr<ExpansionShared> shared, int barriers, bool warpgroup, Vars vars,
               const std::vector<StepSpec>& program, int cluster_size)
      : shared_(std::move(shared)), barriers_(barriers), warpgroup_(warpgroup), vars_(std::move(vars)),
        program_(program), cluster_size_(cluster_size) {}
  std::unique_ptr<StepStream> start() const override { return start(nullptr); }
  std::unique_ptr<StepStream> start(int64_t* budget) const {
    return std::make_unique<ThreadExpansion>(Expander{*shared_, barriers_, warpgroup_}, vars_, program_, cluster_size_,
                                             budget);
  }

 private:
  std::shared_ptr<ExpansionShared> shared_;
  int barriers_;
  bool warpgroup_;
  Vars vars_;
  const std::vector<StepSpec>& program_;  // in shared_->spec
  int cluster_size_;
};

}  // namespace

namespace {

int64_t thread_count(const ThreadSpec& t, const Vars& vars, const std::string& where) {
  const int64_t n = t.count.eval(vars);
  if (n < 1 || n > 32) throw Error(where + ": thread '" + t.name + "': count must be 1..32 (a CTA has at most 32 warps)");
  return n;
}

Vars cta_vars(const Vars& globals, const CtaGroupSpec& group, int64_t c) {
  Vars vars = globals;
  vars.emplace_back(group.var, c);
  vars.emplace_back("cluster_rank", c % group.cluster_size);
  return vars;
}

// The group's size first: over the budget, nothing is built.
void check_budget(const CtaGroupSpec& group, const Vars& globals, const std::string& where, int64_t count,
                  Expander& x, int64_t budget) {
  for (int64_t c = 0, counted = 0; c < count; ++c) {
    Vars vars = cta_vars(globals, group, c);
    for (const ThreadSpec& t : group.threads) {
      const int64_t n = thread_count(t, vars, where);
      if (!t.var.empty()) vars.emplace_back(t.var, 0);
      for (int64_t k = 0; k < n; ++k) {
        if (!t.var.empty()) vars.back().second = k;
        counted += x.count(t.program, vars, budget - counted);
        if (counted > budget)
          throw Error(where + ": the scenario expands to more than " + std::to_string(kMaxSteps) +
                      " steps (the expansion budget), already at CTA " + std::to_string(c));
      }
      if (!t.var.empty()) vars.pop_back();
    }
  }
}

// Each thread's program is its source (steps expanded as the run asks), walked once here: every
// check a step makes is made before anything runs, and the walk counts what the program holds.
// `use` gathers what its steps do with shared memory (the CTA is e.ctas[index]).
CtaProgram build_cta(const CtaGroupSpec& group, Vars vars, const std::string& where, int64_t c, const TimingConfig& cfg,
                     const std::shared_ptr<ExpansionShared>& shared, int64_t& budget, Scenario& out, size_t index,
                     SmemUse& use) {
  CtaProgram p;
  if (group.pinned) {
    const int64_t sm = group.sm.eval(vars);
    if (sm < 0 || sm >= cfg.sms)
      throw Error(where + ": field 'sm': " + std::to_string(sm) + " is not an SM of the GPU (0.." +
                  std::to_string(cfg.sms - 1) + ", gpu.sms)");
    p.sm = static_cast<int>(sm);
  }
  p.cluster_size = group.cluster_size;
  p.registers_per_thread = group.registers_per_thread;
  p.cluster_rank = static_cast<int>(c % group.cluster_size);
  p.barrier_counts = group.barrier_counts;
  for (const ThreadSpec& t : group.threads) {
    const int64_t n = thread_count(t, vars, where);
    for (int64_t k = 0; k < n; ++k) {
      ThreadProgram tp;
      tp.name = n > 1 ? t.name + "[" + std::to_string(k) + "]" : t.name;
      tp.warps = t.warpgroup ? 4 : 1;
      if (!t.var.empty()) vars.emplace_back(t.var, k);
      auto source = std::make_shared<ThreadSource>(shared, static_cast<int>(group.barrier_counts.size()), t.warpgroup,
                                                   vars, t.program, group.cluster_size);
      const std::unique_ptr<StepStream> walk = source->start(&budget);
      use.begin_thread(index, p.threads.size());
      while (const Step* st = walk->next()) {
        tp.generated.add(*st);
        use.add(out.experiment, p, *st);
      }
      tp.source = std::move(source);
      out.max_stamps = std::max<int>(out.max_stamps, static_cast<int>(tp.generated.stamps));
      if (!t.var.empty()) vars.pop_back();
      p.threads.push_back(std::move(tp));
    }
  }
  if (cta_warps(p) > 32)
    throw Error(where + ": a CTA has at most 32 warps (threads; a warpgroup is 4, starting at a warp that is a multiple of 4)" +
                " and this one has " + std::to_string(cta_warps(p)));
  return p;
}

}  // namespace

void build_scenario(const ScenarioSpec& spec, const TimingConfig& cfg, Scenario& out) {
  out.name = spec.name;
  out.params = spec.params;
  out.tensor_names = spec.tensor_names;
  Experiment& e = out.experiment;
  e.cfg = cfg;
  e.maps = spec.maps;
  e.map_names = spec.tensor_names;
  e.global_bytes = static_cast<uint64_t>(spec.global_bytes);
  out.global.clear();
  if (cfg.smem.move_bytes) {  // a timing-only run reads no byte of it: it allocates none
    reserve_on_huge_pages(out.global, static_cast<size_t>(spec.global_bytes));  // read at random, row by row
    out.global.resize(static_cast<size_t>(spec.global_bytes));
    for (size_t i = 0; i < out.global.size(); ++i) out.global[i] = golden_fill(i);
  }
  e.global = &out.global;
  int64_t budget = kMaxSteps;
  SmemUse use;
  const Vars globals = spec.globals();
  const auto shared = std::make_shared<ExpansionShared>(ExpansionShared{spec, cfg, {}, {}, {}, &e.origins, {}});
  if (cfg.divide_cycles > 0) shared->divisions = loop_divisions(shared->spec);  // the expressions as written
  if (cfg.inline_division_cycles > 0) shared->inline_divisions = step_inline_divisions(shared->spec);
  bind_constants(shared->spec, globals);
  for (size_t g = 0; g < shared->spec.groups.size(); ++g) {
    const CtaGroupSpec& group = shared->spec.groups[g];
    const std::string where = "ctas[" + std::to_string(g) + "]";
    const int64_t count = group.count.eval(globals);
    if (count < 1 || count > 4096) throw Error(where + ": count " + std::to_string(count) + " out of range 1..4096");
    if (count % group.cluster_size) throw Error(where + ": count must be a multiple of cluster_size");
    Expander x{*shared, static_cast<int>(group.barrier_counts.size())};
    check_budget(group, globals, where, count, x, budget);
    for (int64_t c = 0; c < count; ++c) {
      e.ctas.push_back(build_cta(group, cta_vars(globals, group, c), where, c, cfg, shared, budget, out, e.ctas.size(), use));
      out.cta_groups.push_back(where + ", " + group.var + " = " + std::to_string(c));
    }
  }
  for (const auto& [step, origin] : shared->origins)
    if (step->kind == StepSpec::Kind::stamp) out.stamp_labels[origin] = step->var;
  if (e.ctas.size() > 4096) throw Error("the scenario has more than 4096 CTAs");
  check_stamp_slots(e, out);
  check_reads(e, use, out);
  check_writes(e, out);
  shared->origin_names = nullptr;  // every step a run reaches has its origin: none is added while it runs
  // What the emitted kernel asks for (tmasim cuda): the bytes the CTAs touch, at least 1 KiB,
  // and 1 KiB to align the base; the GPU fits as many CTAs on an SM as that allows.
  e.cta_smem_bytes = std::max<int64_t>(out.smem_bytes, 1024) + 1024;
}

void build_scenario(const json& j, const TimingConfig& cfg, Scenario& out) {
  build_scenario(parse_scenario(j), cfg, out);
}

}  // namespace tmasim::sc
