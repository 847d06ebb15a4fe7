// The order in which the TMA walks a box: one callback per innermost row, with where the
// row lands in shared memory (before swizzling) and where its first element is in the
// tensor. One source of truth for loads, stores, reductions and the address generators.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

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

namespace detail {

// Modulo 2^64: a row far outside a legal tensor (coordinates near 2^31, strides near 2^40) has
// an offset beyond int64, which no one reads but the address generators still compute.
inline int64_t offset_of(const TensorMap& m, const std::array<int64_t, 5>& c) {
  uint64_t off = static_cast<uint64_t>(c[0]) * static_cast<uint64_t>(m.row_unit_bytes());
  for (int d = 1; d < m.rank; ++d) off += static_cast<uint64_t>(c[d]) * static_cast<uint64_t>(m.global_strides[d - 1]);
  return static_cast<int64_t>(off);
}

inline bool outer_in_bounds(const TensorMap& m, const std::array<int64_t, 5>& c) {
  for (int d = 1; d < m.rank; ++d)
    if (c[d] < 0 || c[d] >= m.global_dims[d]) return false;
  return true;
}

template <class Fn>
void tiled_rows(const TensorMap& m, const TmaInstruction& ins, Fn& fn) {
  std::array<int64_t, 5> extent{1, 1, 1, 1, 1};
  for (int d = 0; d < m.rank; ++d) extent[d] = m.box_extent(d);
  const int64_t pitch = m.smem_row_pitch();
  const int64_t step0 = m.interleave == Interleave::none ? 1 : m.element_strides[0];
  BoxRow r;
  r.elements = extent[0];
  r.element_step = step0;
  int64_t row = 0;
  for (int64_t i4 = 0; i4 < extent[4]; ++i4)
    for (int64_t i3 = 0; i3 < extent[3]; ++i3)
      for (int64_t i2 = 0; i2 < extent[2]; ++i2)
        for (int64_t i1 = 0; i1 < extent[1]; ++i1, ++row) {
          const int64_t idx[5] = {0, i1, i2, i3, i4};
          for (int d = 0; d < 5; ++d)
            r.coord[d] = d < m.rank ? ins.coords[d] + idx[d] * m.element_strides[d] : 0;
          r.coord[0] = ins.coords[0];
          r.smem_offset = ins.smem_offset + row * pitch;
          r.row_in_bounds = outer_in_bounds(m, r.coord);
          r.global_offset = offset_of(m, r.coord);
          fn(static_cast<const BoxRow&>(r));
        }
}

// im2col: pixels walk W, then H, then D inside the bounding box, then the next image;
// each pixel reads its channels at the pixel position plus the im2col offsets. Which tensor
// dimensions are walked is TensorMap::spatial_dim's to say.
template <class Fn>
void im2col_rows(const TensorMap& m, const TmaInstruction& ins, Fn& fn) {
  const int ns = m.rank - 2;
  const int n_dim = m.rank - 1;
  std::array<int64_t, 3> pos{}, lo{}, hi{};
  std::array<int, 3> dim{};
  for (int i = 0; i < ns; ++i) {
    dim[i] = m.spatial_dim(i);
    pos[i] = ins.coords[dim[i]];
    lo[i] = m.lower_corner[i];
    hi[i] = m.global_dims[dim[i]] - 1 + m.upper_corner[i];
  }
  int64_t n = ins.coords[n_dim];
  const int64_t pitch = m.smem_row_pitch();
  BoxRow r;
  r.elements = m.box_extent(0);
  for (int64_t p = 0; p < m.pixels_per_column; ++p) {
    r.coord = {};
    for (int d = 0; d < m.rank; ++d) r.coord[d] = ins.coords[d];
    for (int i = 0; i < ns; ++i) r.coord[dim[i]] = pos[i] + ins.im2col_offsets[i];
    r.coord[n_dim] = n;
    r.smem_offset = ins.smem_offset + p * pitch;
    r.row_in_bounds = outer_in_bounds(m, r.coord);
    r.global_offset = offset_of(m, r.coord);
    fn(static_cast<const BoxRow&>(r));
    int i = 0;
    for (; i < ns; ++i) {
      pos[i] += m.element_strides[dim[i]];
      if (pos[i] <= hi[i]) break;
      pos[i] = lo[i];
    }
    if (i == ns) n += m.element_strides[n_dim];  // the image index steps by its traversal stride too
  }
}

}  // namespace detail

// Calls `row(const BoxRow&)` for every innermost row of the box the instruction addresses (a
// template, so that the per-row call of the timing model's hot path is inlined).
template <class Fn>
void for_each_row(const TensorMap& map, const TmaInstruction& ins, Fn&& row) {
  if (map.mode == TensorMode::tiled)
    detail::tiled_rows(map, ins, row);
  else
    detail::im2col_rows(map, ins, row);
}

}  // namespace tmasim
