// The L2's line table (open addressing with backward-shift deletion, nodes linked in LRU order)
// against a plain reference: a list in recency order and a map, driven by random look-ups,
// fills and touches over a key space that makes probe runs collide and wrap.
#include <gtest/gtest.h>

#include <cstdint>
#include <list>
#include <random>
#include <unordered_map>
#include <vector>

#include "box_memo.hpp"
#include "line_table.hpp"

namespace {

using tmasim::sc::LineTable;

struct ReferenceLru {
  uint64_t capacity;
  std::list<uint64_t> order;  // most recent first
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where;
  uint64_t dirty_evictions = 0;
  std::unordered_map<uint64_t, bool> dirty;

  bool touch(uint64_t line) {
    auto it = where.find(line);
    if (it == where.end()) return false;
    order.splice(order.begin(), order, it->second);
    return true;
  }
  void insert(uint64_t line) {
    order.push_front(line);
    where[line] = order.begin();
    if (order.size() > capacity) {
      const uint64_t victim = order.back();
      dirty_evictions += dirty[victim] ? 1 : 0;
      dirty.erase(victim);
      where.erase(victim);
      order.pop_back();
    }
  }
};

void drive(uint64_t capacity, uint64_t key_space, uint64_t stride, int operations, uint32_t seed) {
  LineTable table(capacity);
  ReferenceLru ref{capacity, {}, {}, 0, {}};
  std::unordered_map<uint64_t, int32_t> last_node;  // as a box memo remembers them: often stale
  std::mt19937_64 rng(seed);
  for (int i = 0; i < operations; ++i) {
    const uint64_t line = (rng() % key_space) * stride;
    const uint64_t h = LineTable::hash_of(line);
    table.prefetch(h);  // hints change nothing
    table.prefetch_node(h);
    table.prefetch_neighbours(h);
    ASSERT_EQ(table.find(line, h), table.find(line));
    const int32_t n = table.find(line);
    const auto remembered = last_node.find(line);
    if (remembered != last_node.end()) {  // a node holds the line exactly when it is the line's node
      table.prefetch_node_at(remembered->second);
      table.prefetch_neighbours_at(remembered->second);
      ASSERT_EQ(table.holds(remembered->second, line), remembered->second == n) << "line " << line << " at " << i;
    }
    EXPECT_FALSE(table.holds(LineTable::kNone, line));
    ASSERT_EQ(n != LineTable::kNone, ref.where.count(line) == 1) << "line " << line << " at operation " << i;
    if (n != LineTable::kNone) {
      last_node[line] = n;
      table.touch(n);
      ref.touch(line);
      if (rng() % 4 == 0) {
        table.set_dirty(n);
        ref.dirty[line] = true;
      }
      table.ready(n) += sc_core::sc_time(1, sc_core::SC_NS);
    } else {
      const int32_t m = table.insert(line);
      last_node[line] = m;
      ref.insert(line);
      if (capacity > 0) {
        EXPECT_EQ(table.ready(m), sc_core::SC_ZERO_TIME);
      }
    }
    ASSERT_EQ(table.size(), ref.order.size());
    ASSERT_EQ(table.dirty_evictions(), ref.dirty_evictions);
  }
  for (uint64_t line : ref.order) EXPECT_NE(table.find(line), LineTable::kNone) << line;
}

TEST(LineTable, MatchesAnLruListUnderRandomTraffic) {
  drive(1000, 3000, 1, 200000, 1);  // three times the capacity: evictions all along
}

TEST(LineTable, MatchesWithStridedLinesThatCollide) {
  drive(4096, 9000, 128, 200000, 2);  // rows 16 KiB apart, as a K-major box's
}

TEST(LineTable, GrowsWhileNothingIsEvicted) {
  drive(1 << 16, 20000, 1, 100000, 3);  // the index doubles several times
}

TEST(LineTable, CapacityOneAndZero) {
  drive(1, 4, 1, 1000, 4);
  LineTable none(0);
  const int32_t freed = none.insert(7);
  EXPECT_EQ(none.find(7), LineTable::kNone);
  EXPECT_FALSE(none.holds(freed, 7));  // the node returned was freed at once
  EXPECT_EQ(none.size(), 0u);
}

// The box memo hands back what was written for the same rows and starts a box it has not seen (or
// whose slot another took) with no hints.
TEST(BoxMemo, RemembersABoxsNodesUntilAnotherBoxTakesItsSlot) {
  tmasim::sc::BoxMemo memo;
  std::vector<uint64_t> rows(128);
  for (size_t k = 0; k < rows.size(); ++k) rows[k] = 0x10000 + 16384 * k;
  int32_t* hints = memo.nodes_for(rows.data(), rows.size());
  for (size_t k = 0; k < rows.size(); ++k) ASSERT_EQ(hints[k], LineTable::kNone);
  for (size_t k = 0; k < rows.size(); ++k) hints[k] = static_cast<int32_t>(3 * k);
  hints = memo.nodes_for(rows.data(), rows.size());
  for (size_t k = 0; k < rows.size(); ++k) ASSERT_EQ(hints[k], static_cast<int32_t>(3 * k));
  // The same first row with fewer rows is another box.
  EXPECT_EQ(memo.nodes_for(rows.data(), 64)[0], LineTable::kNone);
  // Many other boxes: this one's slot is taken by one of them, and it starts again with none.
  for (uint64_t b = 1; b <= 8192; ++b) {
    std::vector<uint64_t> other(128);
    for (size_t k = 0; k < other.size(); ++k) other[k] = (b << 32) + 16384 * k;
    memo.nodes_for(other.data(), other.size())[0] = 1;
  }
  hints = memo.nodes_for(rows.data(), rows.size());
  EXPECT_EQ(hints[5], LineTable::kNone);
}

}  // namespace
