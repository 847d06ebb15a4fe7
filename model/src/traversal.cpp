#include "tmasim/traversal.hpp"

namespace tmasim {
namespace {

// Modulo 2^64: a row far outside a legal tensor (coordinates near 2^31, strides near 2^40) has
// an offset beyond int64, which no one reads but the address generators still compute.
int64_t offset_of(const TensorMap& m, const std::array<int64_t, 5>& c) {
  uint64_t off = static_cast<uint64_t>(c[0]) * static_cast<uint64_t>(m.row_unit_bytes());
  for (int d = 1; d < m.rank; ++d) off += static_cast<uint64_t>(c[d]) * static_cast<uint64_t>(m.global_strides[d - 1]);
  return static_cast<int64_t>(off);
}

bool outer_in_bounds(const TensorMap& m, const std::array<int64_t, 5>& c) {
  for (int d = 1; d < m.rank; ++d)
    if (c[d] < 0 || c[d] >= m.global_dims[d]) return false;
  return true;
}

void tiled_rows(const TensorMap& m, const TmaInstruction& ins, const std::function<void(const BoxRow&)>& fn) {
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
          fn(r);
        }
}

// im2col: pixels walk W, then H, then D inside the bounding box, then the next image;
// each pixel reads its channels at the pixel position plus the im2col offsets. Which tensor
// dimensions are walked is TensorMap::spatial_dim's to say.
void im2col_rows(const TensorMap& m, const TmaInstruction& ins, const std::function<void(const BoxRow&)>& fn) {
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
    fn(r);
    int i = 0;
    for (; i < ns; ++i) {
      pos[i] += m.element_strides[dim[i]];
      if (pos[i] <= hi[i]) break;
      pos[i] = lo[i];
    }
    if (i == ns) n += m.element_strides[n_dim];  // the image index steps by its traversal stride too
  }
}

}  // namespace

int64_t dim0_reach(const TensorMap& m, Op op) {
  const int64_t dim0 = m.global_dims[0];
  if (op != Op::store && op != Op::reduce) return dim0;
  const int64_t unit = m.row_unit_bytes();
  return (dim0 * unit + 15) / 16 * 16 / unit;
}

void for_each_row(const TensorMap& m, const TmaInstruction& ins, const std::function<void(const BoxRow&)>& fn) {
  if (m.mode == TensorMode::tiled)
    tiled_rows(m, ins, fn);
  else
    im2col_rows(m, ins, fn);
}

}  // namespace tmasim
