// Which line-table node held each row of a box's read the last time the same rows were read: a
// TMA box is read again by every CTA that shares it (a GEMM's A and B tiles), and its first read
// allocated its lines' nodes together. A hint only: a row uses its node only while that node
// still holds the row's line (LineTable::holds), else it is looked up by its hash as before, so
// the hint changes no answer. It turns a shared box's look-ups from random probes of a table far
// larger than the caches into a walk over nodes that lie together.
#pragma once
#include <cstdint>
#include <vector>

#include "line_table.hpp"

namespace tmasim::sc {

class BoxMemo {
 public:
  // The slot for a burst of `rows` rows at addr[0..rows): its remembered nodes when the same
  // first row, last row and row count were read last in this slot, else `rows` kNone entries.
  // The pointer is valid until the next call.
  int32_t* nodes_for(const uint64_t* addr, size_t rows) {
    const uint64_t first = addr[0], last = addr[rows - 1];
    Entry& e = slots_[slot_of(first, last, rows)];
    if (e.first != first || e.last != last || e.nodes.size() != rows) {
      e.first = first;
      e.last = last;
      e.nodes.assign(rows, LineTable::kNone);
    }
    return e.nodes.data();
  }

 private:
  // Direct-mapped: a box whose slot another took is looked up by hash again. 4096 boxes of 128
  // rows are 2 MiB of hints, more boxes than an H100's L2 holds at once (50 MiB of 16 KiB boxes).
  static constexpr int kSlotBits = 12;
  static constexpr size_t kSlots = size_t{1} << kSlotBits;
  // The slot from all bits of the key (a product's low bits see only its factors' low bits, and
  // boxes differ anywhere: in a row's low bits or only in a tensor's base far above them).
  static size_t slot_of(uint64_t first, uint64_t last, size_t rows) {
    uint64_t h = first + 0x9e3779b97f4a7c15ull * (last + 0x9e3779b97f4a7c15ull * rows);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;  // splitmix64's finaliser
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return static_cast<size_t>((h ^ (h >> 31)) >> (64 - kSlotBits));
  }
  struct Entry {
    uint64_t first = ~uint64_t{0}, last = 0;
    std::vector<int32_t> nodes;
  };
  std::vector<Entry> slots_ = std::vector<Entry>(kSlots);
};

}  // namespace tmasim::sc
