// The L2's resident lines in least-recently-used order, with when each line's data is there.
// An open-addressed index (linear probing, backward-shift deletion) over a pool of nodes
// linked in LRU order: a look-up is one or two probes of a flat array, where a node-based
// map and list cost an allocation per fill and a pointer chase per touch.
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "huge_pages.hpp"
#include "tmasim/prefetch.hpp"

namespace tmasim::sc {

// A line's transfer over the L2's output that other SMs' reads may ride on.
struct L2Transfer {
  sc_core::sc_time joinable_until;  // a read arriving by then rides on it
  sc_core::sc_time departs;         // when its data leaves the L2's output
  int sm = -1;                      // the SM that took it (memory.l2_join_other_sms_only)
};

class LineTable {
 public:
  static constexpr int32_t kNone = -1;
  static constexpr uint64_t kNoLine = ~uint64_t{0};  // a free node's (no byte address reaches it)
  // `transfers`: each node keeps its line's last transfer (transfer()); without, transfer() is not
  // to be called (the memory system keeps them by GPC: a table that is never read is a cache miss
  // a fill for nothing).
  explicit LineTable(uint64_t capacity_lines, bool transfers = true) : capacity_(capacity_lines), keeps_transfers_(transfers) {}

  // The hash that places `line` (find and the hints below may be given it, computed once).
  static uint64_t hash_of(uint64_t line) {
    const uint64_t h = line * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 32);
  }
  // The node holding `line`, or kNone.
  int32_t find(uint64_t line) const { return find(line, hash_of(line)); }
  int32_t find(uint64_t line, uint64_t h) const {
    if (index_.empty()) return kNone;
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot x = index_[i];
      if (x.node == kNone) return kNone;
      if (x.hash == static_cast<uint32_t>(h) && nodes_[static_cast<size_t>(x.node)].line == line) return x.node;
    }
  }
  // Hints, each a step of a pipeline over requests to come (the table is larger than the caches):
  // the index slot of the line with hash h is fetched into the caches; then (once it is there:
  // this reads it) its node; then (once that is there) the nodes its touch() relinks.
  void prefetch(uint64_t h) const {
    if (!index_.empty()) prefetch_read(&index_[h & mask_]);
  }
  void prefetch_node(uint64_t h) const { prefetch_node_at(first_node(h)); }
  void prefetch_neighbours(uint64_t h) const { prefetch_neighbours_at(first_node(h)); }
  // True when node n holds `line` now (a node that was freed holds none).
  bool holds(int32_t n, uint64_t line) const {
    return n >= 0 && static_cast<size_t>(n) < nodes_.size() && nodes_[static_cast<size_t>(n)].line == line;
  }
  // The same hints for a node known by its index (BoxMemo): it, then the nodes touch() relinks.
  void prefetch_node_at(int32_t n) const {
    if (n >= 0 && static_cast<size_t>(n) < nodes_.size()) prefetch_read(&nodes_[static_cast<size_t>(n)]);
  }
  void prefetch_neighbours_at(int32_t n) const {
    if (n < 0 || static_cast<size_t>(n) >= nodes_.size()) return;
    const Node& x = nodes_[static_cast<size_t>(n)];
    if (x.prev != kNone) prefetch_read(&nodes_[static_cast<size_t>(x.prev)].next);
    if (x.next != kNone) prefetch_read(&nodes_[static_cast<size_t>(x.next)].prev);
  }
  // Makes `n` the most recently used line.
  void touch(int32_t n) {
    if (n == head_) return;
    unlink(n);
    push_front(n);
  }
  // Allocates `line` (not resident) as the most recently used, its data there at time zero;
  // when the table is over capacity the least recently used line is evicted (with a capacity
  // of 0, the new line itself: the node returned is then free).
  int32_t insert(uint64_t line) {
    if (index_.empty() || (size_ + 1) * 2 > index_.size()) grow();
    int32_t n;
    if (free_.empty()) {
      n = static_cast<int32_t>(nodes_.size());
      nodes_.push_back(Node{});
      if (keeps_transfers_) transfers_.push_back(L2Transfer{});
    } else {
      n = free_.back();
      free_.pop_back();
    }
    nodes_[static_cast<size_t>(n)] = Node{line, sc_core::SC_ZERO_TIME, kNone, kNone, false, 0, 0, 0};
    if (keeps_transfers_) transfers_[static_cast<size_t>(n)] = L2Transfer{};
    place(n);
    push_front(n);
    ++size_;
    if (size_ > capacity_) {
      evict_lru();
      prefetch_victims();
    }
    return n;
  }
  // One more copy of node n (memory.l2_copy_takes_room) takes a line of the capacity: the least
  // recently used lines other than n are evicted while the table is over it.
  void add_copy(int32_t n) {
    ++nodes_[static_cast<size_t>(n)].copies;
    ++size_;
    while (size_ > capacity_ && tail_ != n && tail_ != kNone) evict_lru();
  }
  // Node n is one copy again (a write leaves the line near the writer's half only).
  void drop_copies(int32_t n) {
    size_ -= nodes_[static_cast<size_t>(n)].copies;
    nodes_[static_cast<size_t>(n)].copies = 0;
  }
  // A written line holds data DRAM does not have until it is evicted (memory.l2_write_back).
  void set_dirty(int32_t n) { nodes_[static_cast<size_t>(n)].dirty = true; }
  // How many dirty lines insert() has evicted so far.
  uint64_t dirty_evictions() const { return dirty_evictions_; }
  sc_core::sc_time& ready(int32_t n) { return nodes_[static_cast<size_t>(n)].ready; }
  // The line's last transfer over the L2's output (memory.l2_join_reads_in_flight).
  L2Transfer& transfer(int32_t n) { return transfers_[static_cast<size_t>(n)]; }
  // The L2 halves the line is near, one bit each (memory.l2_half_of_gpc).
  uint8_t& halves(int32_t n) { return nodes_[static_cast<size_t>(n)].halves; }
  // The line's units that hold data, one bit each (memory.l2_fetch_bytes).
  uint8_t& units(int32_t n) { return nodes_[static_cast<size_t>(n)].units; }
  uint64_t size() const { return size_; }
  uint64_t capacity() const { return capacity_; }

 private:
  // 32 bytes, aligned: a node is one cache line's quarter, never two lines (a look-up's miss).
  struct alignas(32) Node {
    uint64_t line = 0;
    sc_core::sc_time ready;
    int32_t prev = kNone, next = kNone;  // towards the most / least recently used
    bool dirty = false;
    uint8_t halves = 0;
    uint8_t copies = 0;  // beyond the first (memory.l2_copy_takes_room)
    uint8_t units = 0;   // memory.l2_fetch_bytes
  };
  static_assert(sizeof(Node) == 32, "a node fills a quarter of a cache line");
  // An index slot: the node and the low half of its line's hash, so that probing past other
  // lines and the deletion's backward shift need not read their nodes (cache misses: the table
  // is far larger than the caches).
  struct Slot {
    int32_t node = kNone;
    uint32_t hash = 0;
  };
  // hash_of is multiplicative: with linear probing, an identity-like hash lets a tensor's dense
  // run of lines fill a run of slots that every look-up landing in it must walk (measured: 7.9 G
  // instructions in look-ups for one CTA's 6000 loads). The slot is its low bits.
  // The node in the home slot of hash h (usually the line's), or kNone.
  int32_t first_node(uint64_t h) const { return index_.empty() ? kNone : index_[h & mask_].node; }
  void place(int32_t n) {
    const uint64_t h = hash_of(nodes_[static_cast<size_t>(n)].line);
    size_t i = h & mask_;
    while (index_[i].node != kNone) i = (i + 1) & mask_;
    index_[i] = Slot{n, static_cast<uint32_t>(h)};
  }
  void grow() {
    index_.assign(index_.empty() ? 1024 : index_.size() * 2, Slot{});
    mask_ = index_.size() - 1;
    for (int32_t n = head_; n != kNone; n = nodes_[static_cast<size_t>(n)].next) place(n);
  }
  // The next evictions' nodes and slots, a step ahead each: the least recently used lines are
  // the coldest in the caches.
  // One step is shorter than a miss's latency, so both are also asked for kGuess evictions ahead on a
  // guess: the oldest lines are usually a box's, on nodes that follow each other (a fill takes the
  // node the eviction before it freed, and a box's rows are filled and touched in order). A wrong
  // guess costs a hint.
  void prefetch_victims() const {
    if (tail_ == kNone) return;
    const Node& t = nodes_[static_cast<size_t>(tail_)];  // asked for at the eviction before
    prefetch_read(&index_[hash_of(t.line) & mask_]);
    if (t.prev != kNone) prefetch_read(&nodes_[static_cast<size_t>(t.prev)]);
    const size_t guess = static_cast<size_t>(tail_) + kGuess;
    if (guess + kGuess < nodes_.size()) {
      prefetch_read(&nodes_[guess + kGuess]);
      const uint64_t line = nodes_[guess].line;  // asked for kGuess evictions ago, if the guess holds
      if (line != kNoLine) prefetch_read(&index_[hash_of(line) & mask_]);
    }
  }
  static constexpr size_t kGuess = 4;
  void evict_lru() {
    dirty_evictions_ += nodes_[static_cast<size_t>(tail_)].dirty ? 1 : 0;
    erase(tail_);
  }
  void unlink(int32_t n) {
    Node& x = nodes_[static_cast<size_t>(n)];
    (x.prev == kNone ? head_ : nodes_[static_cast<size_t>(x.prev)].next) = x.next;
    (x.next == kNone ? tail_ : nodes_[static_cast<size_t>(x.next)].prev) = x.prev;
  }
  void push_front(int32_t n) {
    Node& x = nodes_[static_cast<size_t>(n)];
    x.prev = kNone;
    x.next = head_;
    (head_ == kNone ? tail_ : nodes_[static_cast<size_t>(head_)].prev) = n;
    head_ = n;
  }
  void erase(int32_t n) {
    unlink(n);
    size_t i = hash_of(nodes_[static_cast<size_t>(n)].line) & mask_;
    while (index_[i].node != n) i = (i + 1) & mask_;
    // Backward shift: pull later entries of the probe run into the hole.
    for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      const Slot m = index_[j];
      if (m.node == kNone) break;
      const size_t home = m.hash & mask_;
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        index_[i] = m;
        i = j;
      }
    }
    index_[i] = Slot{};
    nodes_[static_cast<size_t>(n)].line = kNoLine;
    free_.push_back(n);
    size_ -= 1u + nodes_[static_cast<size_t>(n)].copies;
  }

  uint64_t capacity_;
  bool keeps_transfers_;
  uint64_t size_ = 0;
  uint64_t dirty_evictions_ = 0;
  HugePageVector<Node> nodes_;
  HugePageVector<L2Transfer> transfers_;  // by node: read by memory.l2_join_reads_in_flight without GPCs only
  std::vector<int32_t> free_;
  HugePageVector<Slot> index_;  // a power of two, at most half full
  size_t mask_ = 0;
  int32_t head_ = kNone, tail_ = kNone;
};

}  // namespace tmasim::sc
