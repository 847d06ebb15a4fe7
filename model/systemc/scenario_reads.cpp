// The checks of what consumers read of shared memory (a `read`'s tile, an `mma`'s operands):
// filled by loads, after a wait on one of their barriers, with their swizzle, rows and type.
#include "scenario_reads.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tmasim::sc {

namespace {

using Region = SmemUse::Region;
using SmemRead = SmemUse::Read;

// Into `reads`, emptied first (a walk asks for millions: its capacity is kept).
void smem_reads(const Step& s, std::vector<SmemRead>& reads) {
  reads.clear();
  if (s.kind == Step::Kind::read)
    reads.push_back({s.tile.smem_offset, s.tile.smem_offset + static_cast<uint32_t>(s.tile.rows * s.tile.cols * 2), s.tile.swizzle, "read"});
  if (s.kind != Step::Kind::mma) return;
  const MmaOp& op = s.mma;
  // K-major: `extent` rows of the span; MN-major: a chunk of count x k rows per span's elements of `extent`.
  auto operand = [&](uint32_t offset, Swizzle sw, bool mn_major, uint32_t leading, int extent, const char* what) {
    const uint32_t span = static_cast<uint32_t>(swizzle_span(sw));
    const int chunk_elements = static_cast<int>(span) / op.element_bytes();
    const int chunks = mn_major ? extent / chunk_elements : 1;
    const uint32_t rows = static_cast<uint32_t>(mn_major ? op.count * op.k : extent);
    for (int c = 0; c < chunks; ++c) {
      const uint32_t lo = offset + static_cast<uint32_t>(c) * leading;
      reads.push_back(SmemRead{lo, lo + rows * span, sw, what, op.element_bytes()});
    }
  };
  operand(op.b_offset, op.b_swizzle, op.b_mn_major, op.b_leading, op.n, "mma's B operand");
  if (!op.a_in_registers) operand(op.a_offset, op.a_swizzle, op.a_mn_major, op.a_leading, op.m, "mma's A operand");
}

// Where a step of CTA c's thread t comes from, as the checks' refusals name it.
std::string step_where(const Experiment& e, size_t c, const ThreadProgram& t, uint32_t origin) {
  return e.origins[origin] + " (CTA " + std::to_string(c) + ", thread '" + t.name + "')";
}

// f(c, thread) for every thread of every CTA.
template <class F>
void for_each_thread(const Experiment& e, F f) {
  for (size_t c = 0; c < e.ctas.size(); ++c)
    for (const ThreadProgram& t : e.ctas[c].threads) f(c, t);
}

}  // namespace

bool SmemUse::Region::operator<(const Region& o) const {
  return std::tie(lo, hi, barrier, swizzle, row_bytes, element_bytes) <
         std::tie(o.lo, o.hi, o.barrier, o.swizzle, o.row_bytes, o.element_bytes);
}

bool SmemUse::ReadSeen::operator<(const ReadSeen& o) const {
  return std::tie(origin, read.lo, read.hi, read.swizzle, read.what, read.element_bytes, waited) <
         std::tie(o.origin, o.read.lo, o.read.hi, o.read.swizzle, o.read.what, o.read.element_bytes, o.waited);
}

void SmemUse::begin_thread(size_t cta, size_t thread) {
  cta_ = cta;
  thread_ = thread;
  waited_ = 0;
  seen_.clear();
}

void SmemUse::add(const Experiment& e, const CtaProgram& p, const Step& s) {
  switch (s.kind) {
    case Step::Kind::store:
    case Step::Kind::reduce:
    case Step::Kind::load: add_box(e, p, s); break;
    case Step::Kind::wait_barrier: waited_ |= uint64_t(1) << s.barrier; break;
    case Step::Kind::read:
    case Step::Kind::mma: add_reads(s); break;
    default: break;
  }
}

void SmemUse::add_box(const Experiment& e, const CtaProgram& p, const Step& s) {
  const TensorMap& m = e.maps.at(static_cast<size_t>(s.map));
  const int64_t end = s.ins.smem_offset + m.smem_footprint();
  if (overflow_) return;  // refused at the first: nothing after it counts
  if (end > e.cfg.smem.size_bytes) {
    overflow_ = {s.origin, end};
    return;
  }
  extent_ = std::max(extent_, end);
  if (s.kind != Step::Kind::load) return;
  const uint32_t mask = s.destination_mask(p.cluster_rank);
  const size_t base = cta_ - static_cast<size_t>(p.cluster_rank);
  const Region r{s.ins.smem_offset, static_cast<uint32_t>(end), s.barrier, m.swizzle,
                 static_cast<int>((m.mode == TensorMode::im2col ? m.channels_per_pixel : m.box_dims.at(0)) * dtype_bytes(m.dtype)),
                 dtype_bytes(m.dtype)};
  if (regions_.size() < base + static_cast<size_t>(p.cluster_size)) regions_.resize(base + static_cast<size_t>(p.cluster_size));
  for (int k = 0; k < p.cluster_size; ++k)
    if (mask >> k & 1u) regions_[base + static_cast<size_t>(k)].insert(r);
}

void SmemUse::add_reads(const Step& s) {
  if (threads_.empty() || threads_.back().cta != cta_ || threads_.back().thread != thread_)
    threads_.push_back({cta_, thread_, {}, kept_ >= kMaxReads});
  ThreadReads& t = threads_.back();
  if (t.walk_again) return;
  smem_reads(s, reads_);
  for (const SmemRead& read : reads_) {
    const ReadSeen seen{s.origin, read, waited_};
    if (!seen_.insert(seen).second) continue;
    if (kept_ == kMaxReads) {  // no more: the thread is walked again
      t.walk_again = true;
      t.reads = {};
      seen_.clear();
      return;
    }
    t.reads.push_back(seen);
    ++kept_;
  }
}

const std::set<Region>& SmemUse::regions_of(size_t cta) const {
  static const std::set<Region> kNone;
  return cta < regions_.size() ? regions_[cta] : kNone;
}

namespace {

// One read of CTA c's thread t, made after waiting on the barriers of `waited`, against the regions
// loads fill (the steps are thread t's at origin `origin`).
void check_read(const Experiment& e, size_t c, const ThreadProgram& t, uint32_t origin, const SmemRead& read,
                uint64_t waited, const SmemUse& use, Scenario& out) {
  const auto where = [&] { return step_where(e, c, t, origin); };
  const std::string what = read.what;
  out.smem_bytes = std::max<int64_t>(out.smem_bytes, read.hi);
  bool any = false, waited_any = false;
  std::vector<std::pair<uint32_t, uint32_t>> covered;  // the parts loads fill
  for (const Region& r : use.regions_of(c)) {
    if (r.hi <= read.lo || r.lo >= read.hi) continue;
    any = true;
    covered.emplace_back(std::max(r.lo, read.lo), std::min(r.hi, read.hi));
    waited_any |= (waited >> r.barrier & 1u) != 0;
    if (r.swizzle != read.swizzle)
      throw Error(where() + ": the " + what + "'s swizzle " + std::string(name(read.swizzle)) + " disagrees with the " +
                  std::string(name(r.swizzle)) + " swizzle of the load that fills shared memory at " + std::to_string(r.lo));
    if (read.element_bytes && r.row_bytes != swizzle_span(read.swizzle))
      throw Error(where() + ": the " + what + " is read as rows of " + std::to_string(swizzle_span(read.swizzle)) +
                  " bytes (the swizzle's span), but the load that fills shared memory at " + std::to_string(r.lo) +
                  " writes rows of " + std::to_string(r.row_bytes) + " (its box's inner dimension)");
    if (read.element_bytes && r.element_bytes != read.element_bytes)
      throw Error(where() + ": the " + what + " has elements of " + std::to_string(read.element_bytes) +
                  " bytes, but the load that fills shared memory at " + std::to_string(r.lo) + " writes elements of " +
                  std::to_string(r.element_bytes));
  }
  if (!any)
    throw Error(where() + ": the " + what + " reads shared memory [" + std::to_string(read.lo) + ", " +
                std::to_string(read.hi) + ") that no load fills");
  if (!waited_any) throw Error(where() + ": the " + what + " reads a stage before waiting on the barrier of any load that fills it");
  // An mma operand's rows all come from loads (wgmma would read whatever lies in a gap).
  std::sort(covered.begin(), covered.end());
  uint32_t next = read.lo;
  for (const auto& [lo, hi] : covered) {
    if (lo > next) break;
    next = std::max(next, hi);
  }
  if (read.element_bytes && next < read.hi)
    throw Error(where() + ": the " + what + " reads shared memory [" + std::to_string(next) + ", " +
                std::to_string(read.hi) + ") that no load fills (its rows run past the boxes' rows)");
}

}  // namespace

// A read's checks depend on its origin, what it reads and the barriers waited on by then alone: each
// distinct one is checked once, the first in the thread's order first (the first to fail is the
// first step that fails).
void check_reads(const Experiment& e, const SmemUse& use, Scenario& out) {
  if (const auto& over = use.first_overflow())
    throw Error(e.origins[over->first] + ": the box ends at shared-memory byte " + std::to_string(over->second) +
                ", past the " + std::to_string(e.cfg.smem.size_bytes) + " bytes a CTA may use");
  out.smem_bytes = std::max(out.smem_bytes, use.extent());
  for (const SmemUse::ThreadReads& reads : use.threads()) {
    const size_t c = reads.cta;
    const ThreadProgram& t = e.ctas.at(c).threads.at(reads.thread);
    if (!reads.walk_again) {
      for (const SmemUse::ReadSeen& seen : reads.reads) check_read(e, c, t, seen.origin, seen.read, seen.waited, use, out);
      continue;
    }
    uint64_t waited = 0;
    std::vector<SmemRead> step_reads;
    for_each_step(t, [&](const Step& s) {
      if (s.kind == Step::Kind::wait_barrier) waited |= uint64_t(1) << s.barrier;
      if (s.kind != Step::Kind::read && s.kind != Step::Kind::mma) return;
      smem_reads(s, step_reads);
      for (const SmemRead& read : step_reads) check_read(e, c, t, s.origin, read, waited, use, out);
    });
  }
}

namespace {
const char* step_name(Step::Kind k) {
  return k == Step::Kind::sync ? "sync" : k == Step::Kind::arrive_expect_tx ? "arrive" : "store";
}
}  // namespace

void check_writes(const Experiment& e, Scenario& out) {
  for_each_thread(e, [&](size_t c, const ThreadProgram& t) {
    if (!summary_of(t).has(Step::Kind::write)) return;
    std::optional<Step> unfenced;  // the thread's first write since its last fence
    const auto refuse = [&](const std::string& before) {
      throw Error(step_where(e, c, t, unfenced->origin) + ": this write (stmatrix) reaches " + before +
                  " with no fence between: a TMA store, an async proxy, would not see it (PTX: fence.proxy.async; "
                  "add {\"fence\": \"proxy_async\"} after the writes)");
    };
    for_each_step(t, [&](const Step& s) {
      switch (s.kind) {
        case Step::Kind::write:
          out.smem_bytes =
              std::max<int64_t>(out.smem_bytes, s.tile.smem_offset + int64_t{2} * s.tile.rows * s.tile.cols);
          if (!unfenced) unfenced = s;
          break;
        case Step::Kind::fence: unfenced.reset(); break;
        case Step::Kind::arrive_expect_tx:
        case Step::Kind::sync:
        case Step::Kind::store:
        case Step::Kind::reduce:
          if (unfenced) refuse("the " + std::string(step_name(s.kind)) + " at " + e.origins[s.origin]);
          break;
        default: break;
      }
    });
    if (unfenced) refuse("the end of its thread");
  });
}

// The GPU records stamps in a buffer of CTAs x warps x the most stamps of any thread, and its
// result lists them on one line, which the readers take up to 64 MiB: 2^22 slots (about 40 MB of
// text) at most.
void check_stamp_slots(const Experiment& e, const Scenario& out) {
  constexpr int64_t kMaxStampSlots = int64_t(1) << 22;
  int warps = 0;
  for (const CtaProgram& p : e.ctas) warps = std::max(warps, cta_warps(p));
  const int64_t slots = static_cast<int64_t>(e.ctas.size()) * warps * out.max_stamps;
  if (slots > kMaxStampSlots)
    throw Error("stamps: " + std::to_string(e.ctas.size()) + " CTAs x " + std::to_string(warps) + " warps x " +
                std::to_string(out.max_stamps) + " stamps of the most stamped thread = " + std::to_string(slots) +
                " slots, past 4194304 (the GPU's result lists them on one line): stamp fewer steps or fewer threads");
}

}  // namespace tmasim::sc
