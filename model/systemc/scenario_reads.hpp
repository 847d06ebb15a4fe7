// What a scenario's consumer steps read and write of shared memory, checked before anything runs.
#pragma once
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "scenario.hpp"

namespace tmasim::sc {

// What a scenario's steps do with shared memory, gathered as the scenario is built (its one walk of
// every thread's program): the regions loads fill, per receiving CTA; the boxes' extent; and each
// thread's distinct reads in the order it first makes them, each with the barriers waited on by then.
// check_reads refuses what the walk met in the order a walk of its own would have met it.
class SmemUse {
 public:
  // The steps to come are thread `thread` of CTA `cta` (indices in e.ctas and its threads).
  void begin_thread(size_t cta, size_t thread);
  // The thread's next step (`p` its CTA's program, threads still to come).
  void add(const Experiment& e, const CtaProgram& p, const Step& s);

  struct Region {
    uint32_t lo, hi;
    int barrier;
    Swizzle swizzle;
    int row_bytes, element_bytes;  // the box's inner dimension, in bytes; its element's
    bool operator<(const Region& o) const;
  };
  // What a consumer step reads of shared memory: a `read`'s tile, an `mma`'s operands in it.
  struct Read {
    uint32_t lo, hi;
    Swizzle swizzle;
    const char* what;
    int element_bytes = 0;  // an mma operand: the loads that fill it write rows of the span, of this type
  };
  // A read as a step made it, after waiting on the barriers of `waited` (a bit each).
  struct ReadSeen {
    uint32_t origin;
    Read read;
    uint64_t waited;
    bool operator<(const ReadSeen& o) const;
  };
  struct ThreadReads {
    size_t cta, thread;
    std::vector<ReadSeen> reads;  // distinct, in the order first made
    bool walk_again = false;      // past the reads kept (kMaxReads): check_reads walks the thread
  };

  const std::set<Region>& regions_of(size_t cta) const;
  const std::vector<ThreadReads>& threads() const { return threads_; }
  int64_t extent() const { return extent_; }
  // The first box past the shared memory a CTA may use: its step's origin and its end, if any.
  const std::optional<std::pair<uint32_t, int64_t>>& first_overflow() const { return overflow_; }

 private:
  static constexpr size_t kMaxReads = size_t{1} << 18;  // distinct reads kept, all threads together
  void add_box(const Experiment& e, const CtaProgram& p, const Step& s);
  void add_reads(const Step& s);

  std::vector<std::set<Region>> regions_;  // by receiving CTA
  int64_t extent_ = 0;
  std::optional<std::pair<uint32_t, int64_t>> overflow_;
  std::vector<ThreadReads> threads_;  // the threads that read, in the order built
  size_t cta_ = 0, thread_ = 0;       // the thread being walked
  uint64_t waited_ = 0;               // its barriers waited on so far
  std::set<ReadSeen> seen_;           // its distinct reads
  std::vector<Read> reads_;           // a step's
  size_t kept_ = 0;
};

// A `read` (or an mma's operand) must touch shared memory that loads fill (an mma operand all of
// it), after its thread waited on one of those loads' barriers, with their swizzle (an operand:
// their rows of the span and their element size); records the CTA's shared-memory extent in `out`.
void check_reads(const Experiment& e, const SmemUse& use, Scenario& out);

// A `write` (stmatrix) must be followed, in its thread, by a `fence` (fence.proxy.async) before the
// thread's next arrive, sync or TMA store, and before its end: without it the TMA's async proxy
// need not see the writes. Records the writes' shared-memory extent in `out`.
void check_writes(const Experiment& e, Scenario& out);

// The stamps fit the GPU's buffer: CTAs x warps x the most stamps of any thread (out.max_stamps).
void check_stamp_slots(const Experiment& e, const Scenario& out);

}  // namespace tmasim::sc
