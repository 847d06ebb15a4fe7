// One timing experiment as the model runs it, and what it measured: CTAs, each with threads
// (a producer, consumer warps) running programs of TMA issues, mbarrier arrivals and waits,
// shared-memory reads and delays. Plain data, no SystemC: the scenario reader builds it, the
// simulation (simulation.hpp) runs it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "timing_config.hpp"
#include "tmasim/tile_layout.hpp"
#include "tmasim/tma.hpp"

namespace tmasim::sc {

// What the L2 holds when a run starts (the GPU harness's L2 states). Either way it is full of
// another buffer's lines, older than anything the run touches, so fills evict them first.
enum class L2Start {
  cold,        // after a write flush larger than the L2: flush_dirty_fraction of its lines dirty
  cold_clean,  // after the flush and a read of more than the L2: clean lines only
  warm,        // after a run of the same program: the lines it reached, up to the L2's size
};
// "cold", "cold_clean" or "warm"; an Error naming them otherwise.
L2Start l2_start_from_name(const std::string& name);

// One `mma` step: `count` wgmma.mma_async of m64nNkK along K, A from shared memory (or
// registers) and B from shared memory, both K-major tiles in a swizzled layout that a TMA load
// of rows of the swizzle's span wrote (A: 64 rows, B: N rows, the span apart).
enum class MmaType : uint8_t { f16, bf16, tf32, e4m3, e5m2 };
constexpr int mma_element_bytes(MmaType t) { return t == MmaType::tf32 ? 4 : t == MmaType::e4m3 || t == MmaType::e5m2 ? 1 : 2; }
constexpr int mma_k_of(MmaType t) { return 32 / mma_element_bytes(t); }  // a wgmma's K: 32 bytes of each row
struct MmaOp {
  int m = 64, n = 0, k = 0;
  MmaType type = MmaType::f16;
  int count = 1;
  bool a_in_registers = false;
  uint32_t a_offset = 0, b_offset = 0;
  Swizzle a_swizzle = Swizzle::b128, b_swizzle = Swizzle::b128;
  bool a_mn_major = false, b_mn_major = false;  // M / N along the span, K along rows (PTX's transpose)
  uint32_t a_leading = 0, b_leading = 0;        // MN-major: bytes from one span-wide chunk to the next
  int element_bytes() const { return mma_element_bytes(type); }
  int64_t a_bytes() const { return int64_t(m) * k * element_bytes(); }  // one wgmma's A, B
  int64_t b_bytes() const { return int64_t(n) * k * element_bytes(); }
  // Bytes of A (when in shared memory) and B one wgmma reads from shared memory.
  int64_t operand_bytes() const { return (a_in_registers ? 0 : a_bytes()) + b_bytes(); }
  double flops() const { return 2.0 * m * n * k; }
};

struct Step {
  enum class Kind {
    arrive_expect_tx,  // mbarrier.arrive, with expect_tx when bytes > 0
    load, store, reduce, prefetch,
    wait_barrier,      // by phase number, or by parity when parity >= 0
    wait_stores,       // cp.async.bulk.wait_group[.read] pending
    read,              // ldmatrix.x4 over a tile
    write,             // stmatrix.x4 over a tile (an epilogue staging C for a TMA store)
    fence,             // fence.proxy.async: the thread's shared-memory writes visible to the TMA
    delay,             // cycles of work that touch nothing modelled (compute, a spin)
    sync,              // a CTA-wide barrier among its threads
    stamp,             // record the thread's cycle (the GPU records clock64 at the same point)
    mma,               // wgmma.mma_async, `mma.count` of them along K (a warpgroup's thread)
    mma_commit,        // wgmma.commit_group
    mma_wait,          // wgmma.wait_group `pending`
    mark_start, mark_issued
  } kind;
  // Not an aggregate: a step names its fields (a positional initialiser would silently follow
  // any reordering of them).
  Step() = default;
  Step(Kind k) : kind(k) {}  // NOLINT(google-explicit-constructor): push_back({Step::Kind::x})
  // mbarrier.arrive.expect_tx of `bytes` on barrier `barrier`; a wait until its phase `phase` completes.
  static Step arrive(int barrier, int64_t bytes) {
    Step s{Kind::arrive_expect_tx};
    s.barrier = barrier;
    s.bytes = bytes;
    return s;
  }
  static Step wait(int barrier, int phase) {
    Step s{Kind::wait_barrier};
    s.barrier = barrier;
    s.phase = phase;
    return s;
  }
  // Ordered by alignment, so that the padding is a few bytes (a program's steps are its memory).
  int map = 0;                 // index into Experiment::maps
  TmaInstruction ins{};
  int64_t bytes = 0;           // arrive: expect_tx bytes
  int64_t cycles = 0;          // delay
  int64_t least_cycles = 0;    // the least the step takes of its thread ("cycles" on a step)
  double thread_cycles = 0;    // the thread's own arithmetic before the step (thread.divide_cycles)
  int barrier = 0;             // the CTA's barrier index
  int phase = 0;               // wait_barrier: wait until this phase has completed
  int multicast = 1;           // loads: the first `multicast` ranks of the cluster receive the box
  uint32_t cta_mask = 0;       // loads: cluster ranks receiving the box (overrides multicast when set)
  int target_rank = -1;        // arrive: cluster rank of the barrier's CTA (-1: own)
  int parity = -1;             // wait_barrier: wait for the phase of this parity to complete
  int pending = 0;             // wait_stores: bulk groups allowed to stay in flight
  uint32_t origin = 0;         // index into Experiment::origins: where the step came from
  TileLayout tile{};           // read / write: the warp's tile, one ldmatrix.x4 / stmatrix.x4 per 16x16 block
  MmaOp mma{};                 // mma
  bool release_cta = false;    // arrive by rank: released at CTA scope ("scope": "cta"), not cluster
  bool poll = false;           // wait_barrier: a test_wait loop (the tb/gpu harness's), not try_wait
  bool read_only = false;      // wait_stores: only until their shared memory has been read
  bool straight = false;       // straight-line code: outside any loop, or its innermost loop "unroll": true

  // Loads: the cluster ranks that receive the box, for a CTA of rank `own_rank`.
  uint32_t destination_mask(int own_rank) const {
    if (cta_mask) return cta_mask;
    return multicast > 1 ? (1u << multicast) - 1u : 1u << own_rank;
  }
};

// The model's step for a TMA operation.
constexpr Step::Kind model_step_of(Op op) {
  switch (op) {
    case Op::load: return Step::Kind::load;
    case Op::store: return Step::Kind::store;
    case Op::reduce: return Step::Kind::reduce;
    case Op::prefetch: return Step::Kind::prefetch;
  }
  return Step::Kind::load;
}

// Whether a step of kind k issues a TMA operation.
constexpr bool is_tma(Step::Kind k) {
  return k == Step::Kind::load || k == Step::Kind::store || k == Step::Kind::reduce || k == Step::Kind::prefetch;
}

// A thread's steps produced one at a time, in order (a scenario's loops run as loops: its
// program is never held step by step).
class StepStream {
 public:
  virtual ~StepStream() = default;
  // The next step, valid until the next call; nullptr after the last.
  virtual const Step* next() = 0;
};
class StepSource {
 public:
  virtual ~StepSource() = default;
  virtual std::unique_ptr<StepStream> start() const = 0;  // from the first step
};

// What a thread's program holds, counted once (a generated program is not walked to ask).
struct StepSummary {
  uint64_t steps = 0, tma_ops = 0, stamps = 0;
  uint32_t kinds = 0;            // bit k: a step of Step::Kind k
  bool arrives_by_rank = false;  // an arrive addressed by cluster rank
  void add(const Step& s) {
    ++steps;
    const Step::Kind k = s.kind;
    tma_ops += is_tma(k);
    stamps += k == Step::Kind::stamp;
    kinds |= 1u << static_cast<unsigned>(k);
    arrives_by_rank |= k == Step::Kind::arrive_expect_tx && s.target_rank >= 0;
  }
  bool has(Step::Kind k) const { return (kinds >> static_cast<unsigned>(k) & 1u) != 0; }
};

struct ThreadProgram {
  std::string name = "main";
  int warps = 1;  // 4: a warpgroup (it may issue `mma` steps)
  std::vector<Step> steps;  // a program built step by step (timing records, tests)
  // A scenario's program: produced as the thread runs (steps stays empty), its summary known.
  std::shared_ptr<const StepSource> source;
  StepSummary generated;
};

// Walks a thread's steps in order, whichever way the program is held.
class StepCursor {
 public:
  explicit StepCursor(const ThreadProgram& t) : steps_(&t.steps) {
    if (t.source) stream_ = t.source->start();
  }
  const Step* next() {
    if (stream_) return stream_->next();
    return i_ < steps_->size() ? &(*steps_)[i_++] : nullptr;
  }

 private:
  const std::vector<Step>* steps_;
  size_t i_ = 0;
  std::unique_ptr<StepStream> stream_;
};
template <class F>
void for_each_step(const ThreadProgram& t, F f) {
  StepCursor c(t);
  while (const Step* s = c.next()) f(*s);
}
inline std::vector<Step> materialize(const ThreadProgram& t) {
  if (!t.source) return t.steps;
  std::vector<Step> out;
  out.reserve(t.generated.steps);
  for_each_step(t, [&](const Step& s) { out.push_back(s); });
  return out;
}
inline StepSummary summary_of(const ThreadProgram& t) {
  if (t.source) return t.generated;
  StepSummary s;
  for (const Step& x : t.steps) s.add(x);
  return s;
}

struct CtaProgram {
  int sm = -1;                 // pinned to this SM; -1: wherever the GPU's scheduler places it
  int cluster_rank = 0;        // CTAs of one cluster are consecutive programs
  int cluster_size = 1;
  int registers_per_thread = 0;     // stated by the scenario (ncu's "Registers Per Thread"); 0: not limiting
  std::vector<int> barrier_counts;  // arrival count of each mbarrier (empty: barriers_per_cta of 1)
  std::vector<ThreadProgram> threads;
  std::vector<Step>& steps() {  // a CTA of one thread
    if (threads.empty()) threads.emplace_back();
    return threads.front().steps;
  }
};

// The warp a thread of `warps` warps starts at when warp `next` is the first free one: a
// warpgroup (4) at the next multiple of 4 (wgmma's rule), the warps skipped idle. The model's CTA
// and the emitted kernel lay out their warps by it.
constexpr int thread_first_warp(int next, int warps) { return warps > 1 ? (next + warps - 1) / warps * warps : next; }

// The warp each thread starts at, in program order; and the CTA's warps in all.
inline std::vector<int> first_warps(const CtaProgram& p) {
  std::vector<int> first;
  int next = 0;
  for (const ThreadProgram& t : p.threads) {
    next = thread_first_warp(next, t.warps);
    first.push_back(next);
    next += t.warps;
  }
  return first;
}
inline int cta_warps(const CtaProgram& p) {
  return p.threads.empty() ? 0 : first_warps(p).back() + p.threads.back().warps;
}

// Whether any of the CTA's threads has a step of kind k / an arrive addressed by cluster rank.
inline bool has_step(const CtaProgram& p, Step::Kind k) {
  for (const ThreadProgram& t : p.threads)
    if (summary_of(t).has(k)) return true;
  return false;
}
inline bool arrives_by_rank(const CtaProgram& p) {
  for (const ThreadProgram& t : p.threads)
    if (summary_of(t).arrives_by_rank) return true;
  return false;
}

struct Experiment {
  TimingConfig cfg;
  std::vector<TensorMap> maps;
  std::vector<std::string> map_names;  // the scenario's tensor of each map (the trace names them)
  std::vector<CtaProgram> ctas;
  std::vector<uint8_t>* global = nullptr;  // global memory at address 0
  // Its size when `global` holds no bytes: a run that moves none (timing only) needs the extent
  // of global memory, not its contents, and allocating them would touch every page.
  uint64_t global_bytes = 0;
  int barriers_per_cta = 8;
  int64_t cta_smem_bytes = 0;  // the shared memory each CTA is given (with the kernel's padding): how many fit an SM
  std::vector<std::string> origins;  // descriptions of steps, for messages
  std::string perfetto_path;   // write a Chrome/Perfetto trace of every TMA operation
  // What was run (version, files, settings), written into the trace's metadata as given.
  std::vector<std::pair<std::string, std::string>> provenance;
  std::string vcd_path;        // write a VCD of each TMA unit's queue occupancy
  bool progress = false;       // print a progress line on long runs
  L2Start l2_start = L2Start::cold;  // what the L2 holds at the start (the harness's L2 state)
  std::vector<std::vector<uint8_t>>* smem_out = nullptr;  // each CTA's shared memory at the end
};

// Where a thread's time goes (the bottleneck report): each step's time from its start to the next
// step's, by what the step is. Names in this order, as `tmasim run --stats` writes them.
enum class StepTime { issue, arrive, wait, wait_stores, read, compute, mma, mma_wait, sync, stamp, count };
inline constexpr const char* kStepTimeNames[] = {"issue", "arrive", "wait", "wait_stores", "read",
                                                 "compute", "mma", "mma_wait", "sync", "stamp"};
constexpr StepTime step_time_of(Step::Kind k) {
  using K = Step::Kind;
  switch (k) {
    case K::load: case K::store: case K::reduce: case K::prefetch: return StepTime::issue;
    case K::arrive_expect_tx: return StepTime::arrive;
    case K::wait_barrier: return StepTime::wait;
    case K::wait_stores: return StepTime::wait_stores;
    case K::read: case K::write: return StepTime::read;  // the thread's own shared-memory traffic
    case K::fence: return StepTime::arrive;              // ordering its writes, as a release does
    case K::delay: return StepTime::compute;
    case K::mma: case K::mma_commit: return StepTime::mma;
    case K::mma_wait: return StepTime::mma_wait;
    case K::sync: return StepTime::sync;
    case K::stamp: case K::mark_start: case K::mark_issued: return StepTime::stamp;
  }
  return StepTime::stamp;
}
// A step of this kind waits on another thread, the memory or the tensor cores: its time is not
// the thread's own work.
constexpr bool waits_on_others(StepTime t) {
  return t == StepTime::wait || t == StepTime::wait_stores || t == StepTime::mma_wait || t == StepTime::sync;
}

// Phrases the run's refusals of programs that cannot end well on the GPU carry
// (Cta::check_loads_waited, CtaThread::check_phase_wait): `tmasim compare` reads an error with one
// as agreement with a GPU run that hung.
inline constexpr char kRefusalUnwaitedLoads[] = "that no thread waits for";
inline constexpr char kRefusalParityWait[] = "the GPU waits by parity";

struct Measurement {
  double start_cycles = 0, issued_cycles = 0, end_cycles = 0;  // CTA 0's marks; end: all CTAs done
  uint64_t ops = 0, smem_wavefronts = 0, smem_conflicts = 0, l2_hits = 0, l2_misses = 0;
  uint64_t l2_writebacks = 0;  // dirty lines of the start state written back to DRAM
  uint64_t l2_output_bytes = 0;  // hit bytes over the L2's output (joined reads not counted)
  uint64_t tma_bytes = 0, read_instructions = 0, read_wavefronts = 0, read_ideal = 0;
  int max_queue = 0;
  uint64_t mma_instructions = 0;     // wgmma issued
  double mma_flops = 0;              // their 2mnk, summed
  double tensor_busy_cycles = 0;     // the SMs' tensor cores busy (a wgmma's turn), summed over SMs
  int tensor_sms = 0;                // SMs whose tensor cores ran any
  std::vector<double> cta_start_cycles;                // per CTA: when it was launched on its SM
  std::vector<double> cta_end_cycles;                  // per CTA: its last thread's end
  std::vector<int> cta_sm;                             // per CTA: the SM it ran on
  std::vector<std::vector<double>> thread_end_cycles;  // per CTA, per thread
  std::vector<std::vector<std::vector<double>>> stamps; // per CTA, per warp (a thread's first warp): its stamp steps, cycles since the CTA's start
  std::vector<std::vector<std::vector<double>>> thread_split;  // per CTA, per thread: cycles by StepTime
  std::vector<std::vector<std::string>> thread_names;          // per CTA, per thread: its name ("consumer[1]")
};

nlohmann::json to_json(const Measurement& m);
Measurement measurement_from_json(const nlohmann::json& j);

}  // namespace tmasim::sc
