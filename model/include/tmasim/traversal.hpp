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
    if (element_step == 1) {  // most maps: the same without dividing
      const int64_t first = c0 >= 0 ? 0 : -c0, last = std::min<int64_t>(elements - 1, dim0 - 1 - c0);
      return first <= last ? Window{first, last} : Window{};
    }
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

// Whether every element of a tiled box lies inside the tensor (dimension 0 up to `reach`,
// dim0_reach's): then every row's in-bound window is the whole row, and the rows of two such
// boxes of one map differ only by their origins' offsets (offset_of).
inline bool tiled_box_in_bounds(const TensorMap& m, const TmaInstruction& ins, int64_t reach) {
  if (m.mode != TensorMode::tiled || static_cast<int>(ins.coords.size()) < m.rank) return false;
  for (int d = 0; d < m.rank; ++d) {
    const int64_t extent = m.box_extent(d);
    const int64_t step = d > 0 ? m.element_strides[d] : m.interleave == Interleave::none ? 1 : m.element_strides[0];
    const int64_t first = ins.coords[d], last = first + (extent - 1) * step;
    if (extent <= 0 || first < 0 || last >= (d == 0 ? reach : m.global_dims[d])) return false;
  }
  return true;
}

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

// Counters and stride adders (the address generators' way): each loop level adds its
// dimension's coordinate, bound check and byte offset to the level above's.
template <class Fn>
void tiled_rows(const TensorMap& m, const TmaInstruction& ins, Fn& fn) {
  // Dimensions past the rank: one step, coordinate 0, inside an extent of 1, no bytes.
  std::array<int64_t, 5> extent{1, 1, 1, 1, 1}, first{}, step{}, dim{1, 1, 1, 1, 1};
  std::array<uint64_t, 5> stride{};
  for (int d = 0; d < m.rank; ++d) {
    extent[d] = m.box_extent(d);
    first[d] = ins.coords[d];
    step[d] = m.element_strides[d];
    dim[d] = m.global_dims[d];
    stride[d] = d == 0 ? static_cast<uint64_t>(m.row_unit_bytes()) : static_cast<uint64_t>(m.global_strides[d - 1]);
  }
  const int64_t pitch = m.smem_row_pitch();
  BoxRow r;
  r.elements = extent[0];
  r.element_step = m.interleave == Interleave::none ? 1 : m.element_strides[0];
  r.coord = {};
  r.coord[0] = ins.coords[0];
  // Modulo 2^64, as offset_of.
  const uint64_t off0 = static_cast<uint64_t>(r.coord[0]) * stride[0];
  auto inside = [&](int d) { return r.coord[d] >= 0 && r.coord[d] < dim[d]; };
  int64_t row = 0;
  for (int64_t i4 = 0; i4 < extent[4]; ++i4) {
    r.coord[4] = first[4] + i4 * step[4];
    const bool in4 = inside(4);
    const uint64_t off4 = off0 + static_cast<uint64_t>(r.coord[4]) * stride[4];
    for (int64_t i3 = 0; i3 < extent[3]; ++i3) {
      r.coord[3] = first[3] + i3 * step[3];
      const bool in3 = in4 && inside(3);
      const uint64_t off3 = off4 + static_cast<uint64_t>(r.coord[3]) * stride[3];
      for (int64_t i2 = 0; i2 < extent[2]; ++i2) {
        r.coord[2] = first[2] + i2 * step[2];
        const bool in2 = in3 && inside(2);
        const uint64_t off2 = off3 + static_cast<uint64_t>(r.coord[2]) * stride[2];
        for (int64_t i1 = 0; i1 < extent[1]; ++i1, ++row) {
          r.coord[1] = first[1] + i1 * step[1];
          r.row_in_bounds = in2 && inside(1);
          r.global_offset = static_cast<int64_t>(off2 + static_cast<uint64_t>(r.coord[1]) * stride[1]);
          r.smem_offset = ins.smem_offset + row * pitch;
          fn(static_cast<const BoxRow&>(r));
        }
      }
    }
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
