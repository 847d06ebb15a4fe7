// The order in which the TMA walks a box: one callback per innermost row, with where the
// row lands in shared memory (before swizzling) and where its first element is in the
// tensor. One source of truth for loads, stores, reductions and the address generators.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>

#include "tmasim/tma.hpp"

namespace tmasim {

struct BoxRow {
  int64_t smem_offset = 0;           // bytes from the shared-memory base, unswizzled
  std::array<int64_t, 5> coord{};    // tensor coordinate of the row's first element
  bool row_in_bounds = true;         // every dimension but 0 is inside the tensor
  int64_t global_offset = 0;         // bytes from globalAddress to coord (valid when in bounds)
  int64_t elements = 0;              // elements in the row
  int64_t element_step = 1;          // coordinate step between the row's elements in dimension 0

  // Element k of the row: a unit of TensorMap::row_unit_bytes (an element, or a 16/32-byte
  // interleave group).
  int64_t element_coord0(int64_t k) const { return coord[0] + k * element_step; }
  bool element_in_bounds(int64_t k, int64_t dim0) const {
    const int64_t c0 = element_coord0(k);
    return row_in_bounds && c0 >= 0 && c0 < dim0;
  }
  int64_t element_global(int64_t k, int unit_bytes) const { return global_offset + k * element_step * unit_bytes; }
  // The elements [first, last] of the row inside dimension 0's extent `dim0` (they are
  // consecutive: the in-bound ones form one run); last < first when there are none.
  struct Window {
    int64_t first = 0, last = -1;
  };
  Window in_bound_window(int64_t dim0) const {
    if (!row_in_bounds || elements <= 0) return {};
    const int64_t c0 = coord[0];
    const int64_t first = c0 >= 0 ? 0 : (-c0 + element_step - 1) / element_step;
    if (dim0 - 1 - c0 < 0) return {};
    const int64_t last = std::min<int64_t>(elements - 1, (dim0 - 1 - c0) / element_step);
    return first <= last ? Window{first, last} : Window{};
  }
  int64_t element_smem(int64_t k, int unit_bytes) const { return smem_offset + k * unit_bytes; }  // unswizzled
};

// The elements of dimension 0 an operation reaches: a load reads exactly the tensor's
// extent; a store or reduction writes whole 16-byte chunks of global memory, so elements
// past the end that share the last chunk with an in-bound element are written too
// (measured on the H100: tests/golden/README.md, "stores write whole chunks").
int64_t dim0_reach(const TensorMap& map, Op op);

// Calls `row` for every innermost row of the box the instruction addresses.
void for_each_row(const TensorMap& map, const TmaInstruction& ins, const std::function<void(const BoxRow&)>& row);

}  // namespace tmasim
