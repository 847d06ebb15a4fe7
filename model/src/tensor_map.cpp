#include "tmasim/tensor_map.hpp"

#include <sstream>
#include <string>

namespace tmasim {

int64_t TensorMap::box_extent(int d) const {
  if (mode == TensorMode::im2col) return d == 0 && interleave == Interleave::none ? channels_per_pixel : 1;
  // Interleaved layouts (NC/8HWC8, NC/16HWC16): the H100 takes a single index of dimension
  // rank-2, the C/8 dimension, whatever the box says.
  if (interleave != Interleave::none && rank >= 3 && d == rank - 2) return 1;
  // Dimension 0 ignores its element stride unless the layout is interleaved.
  int64_t stride = (d == 0 && interleave == Interleave::none) ? 1 : element_strides[d];
  return (box_dims[d] + stride - 1) / stride;
}

int64_t TensorMap::inner_row_bytes() const {
  return box_extent(0) * row_unit_bytes();
}

int64_t TensorMap::smem_row_pitch() const {
  int64_t span = swizzle_span(swizzle);
  int64_t row = inner_row_bytes();
  // Rows narrower than the swizzle span are padded to it; interleaved rows stay dense.
  return (span != 0 && row < span && interleave == Interleave::none) ? span : row;
}

int64_t TensorMap::transaction_bytes() const {
  if (mode == TensorMode::im2col) return pixels_per_column * inner_row_bytes();
  int64_t units = 1;
  for (int d = 0; d < rank; ++d) units *= box_extent(d);
  return units * unit_bytes();
}

int64_t TensorMap::smem_footprint() const {
  int64_t rows = transaction_bytes() / inner_row_bytes();
  return rows * smem_row_pitch();
}

namespace {

class Checker {
 public:
  template <class... Args>
  bool fail(const char* rule, Args&&... parts) {
    if (result) return false;
    std::ostringstream os;
    (os << ... << parts);
    result = Rejection{rule, os.str()};
    return false;
  }
  std::optional<Rejection> result;
};

constexpr int64_t kMaxDim = int64_t(1) << 32;
constexpr int64_t kMaxStride = int64_t(1) << 40;

bool check_shape(const TensorMap& m, Checker& c) {
  const bool im2col = m.mode == TensorMode::im2col;
  if (im2col ? (m.rank < 3 || m.rank > 5) : (m.rank < 1 || m.rank > 5))
    return c.fail("rank.range", "tensorRank is ", m.rank, "; ", im2col ? "im2col needs 3 to 5" : "tiled needs 1 to 5");
  if (static_cast<int>(m.global_dims.size()) != m.rank)
    return c.fail("global_dims.count", "globalDim has ", m.global_dims.size(), " entries for rank ", m.rank);
  if (static_cast<int>(m.global_strides.size()) != m.rank - 1)
    return c.fail("global_strides.count", "globalStrides has ", m.global_strides.size(), " entries; rank ",
                  m.rank, " needs ", m.rank - 1);
  if (static_cast<int>(m.element_strides.size()) != m.rank)
    return c.fail("element_strides.count", "elementStrides has ", m.element_strides.size(), " entries for rank ",
                  m.rank);
  if (!im2col && static_cast<int>(m.box_dims.size()) != m.rank)
    return c.fail("box_dims.count", "boxDim has ", m.box_dims.size(), " entries for rank ", m.rank);
  if (im2col && (static_cast<int>(m.lower_corner.size()) != m.rank - 2 ||
                 static_cast<int>(m.upper_corner.size()) != m.rank - 2))
    return c.fail("pixel_box_corner.count", "im2col corners need rank-2 = ", m.rank - 2, " entries each");
  return true;
}

bool check_type_and_layout(const TensorMap& m, Checker& c) {
  if (is_packed(m.dtype))
    return c.fail("dtype.packed_unsupported", "data type ", name(m.dtype),
                  " is rejected by the CUDA 13 driver on compute capability 9.0");
  if (m.swizzle >= Swizzle::b128_atom32)
    return c.fail("swizzle.atomicity_unsupported", "swizzle ", name(m.swizzle),
                  " is rejected by the CUDA 13 driver on compute capability 9.0");
  if (m.interleave != Interleave::none && m.rank < 3)
    return c.fail("interleave.rank", "interleave ", name(m.interleave), " needs tensorRank >= 3, got ", m.rank);
  if (m.oob_fill == OobFill::nan && !is_float(m.dtype))
    return c.fail("oob_fill.nan_needs_float", "NaN out-of-bound fill needs a floating-point type, got ",
                  name(m.dtype));
  return true;
}

bool check_global(const TensorMap& m, Checker& c) {
  const int64_t align = m.interleave == Interleave::b32 ? 32 : 16;
  if (m.global_address % align != 0)
    return c.fail("global_address.align", "globalAddress ", m.global_address, " is not ", align, "-byte aligned");
  for (int d = 0; d < m.rank; ++d)
    if (m.global_dims[d] < 1 || m.global_dims[d] > kMaxDim)
      return c.fail("global_dims.range", "globalDim[", d, "] = ", m.global_dims[d], " is outside 1..2^32");
  for (int d = 0; d + 1 < m.rank; ++d) {
    int64_t s = m.global_strides[d];
    if (s % align != 0 || s <= 0)
      return c.fail("global_strides.align", "globalStrides[", d, "] = ", s, " is not a positive multiple of ", align);
    if (s >= kMaxStride)
      return c.fail("global_strides.range", "globalStrides[", d, "] = ", s, " is not below 2^40");
  }
  return true;
}

bool check_traversal(const TensorMap& m, Checker& c) {
  for (int d = 0; d < m.rank; ++d)
    if (m.element_strides[d] < 1 || m.element_strides[d] > 8)
      return c.fail("element_strides.range", "elementStrides[", d, "] = ", m.element_strides[d],
                    " is outside 1..8 (dimension 0 is checked although it is ignored)");
  const int64_t es = m.elem_bytes();
  if (m.mode == TensorMode::tiled) {
    for (int d = 0; d < m.rank; ++d)
      if (m.box_dims[d] < 1 || m.box_dims[d] > 256)
        return c.fail("box_dims.range", "boxDim[", d, "] = ", m.box_dims[d], " is outside 1..256");
    if (m.box_dims[0] * es % 16 != 0)
      return c.fail("box_dims.inner_16B", "boxDim[0] * elementSize = ", m.box_dims[0] * es,
                    " bytes is not a multiple of 16");
  } else {
    const int64_t limit = m.rank == 3 ? 32768 : m.rank == 4 ? 128 : 16;
    for (int i = 0; i < m.rank - 2; ++i) {
      for (int64_t v : {m.lower_corner[i], m.upper_corner[i]})
        if (v < -limit || v >= limit)
          return c.fail("pixel_box_corner.range", "im2col corner ", v, " is outside [", -limit, ", ", limit - 1,
                        "] for rank ", m.rank);
      const int d = m.spatial_dim(i);
      if (m.global_dims[d] + m.upper_corner[i] - m.lower_corner[i] < 1)
        return c.fail("pixel_box.empty", "bounding box of spatial dimension ", i, " (tensor dimension ", d,
                      ") is empty: lower ", m.lower_corner[i], ", upper ", m.global_dims[d] - 1 + m.upper_corner[i]);
    }
    if (m.channels_per_pixel < 1 || m.channels_per_pixel > 256)
      return c.fail("channels_per_pixel.range", "channelsPerPixel = ", m.channels_per_pixel, " is outside 1..256");
    if (m.pixels_per_column < 1 || m.pixels_per_column > 1024)
      return c.fail("pixels_per_column.range", "pixelsPerColumn = ", m.pixels_per_column, " is outside 1..1024");
    if (m.channels_per_pixel * es % 16 != 0)
      return c.fail("channels_per_pixel.inner_16B", "channelsPerPixel * elementSize = ", m.channels_per_pixel * es,
                    " bytes is not a multiple of 16");
  }
  const int64_t span = swizzle_span(m.swizzle);
  if (m.interleave == Interleave::none && span != 0 && m.inner_row_bytes() > span)
    return c.fail("swizzle.inner_span", "inner box dimension of ", m.inner_row_bytes(), " bytes exceeds the ",
                  span, "-byte span of swizzle ", name(m.swizzle), ": make the box's rows at most ", span, " bytes",
                  is_packed(m.dtype) ? std::string() : " (box_dims[0] <= " + std::to_string(span / dtype_bytes(m.dtype)) + ")",
                  " and load a row in ", (m.inner_row_bytes() + span - 1) / span,
                  " boxes side by side (as CUTLASS splits a K tile), or use a wider swizzle");
  return true;
}

}  // namespace

std::optional<Rejection> validate(const TensorMap& m) {
  Checker c;
  check_shape(m, c) && check_type_and_layout(m, c) && check_global(m, c) && check_traversal(m, c);
  return c.result;
}

int64_t TensorMap::global_span_bytes() const {
  int64_t span = 0;
  const int64_t unit = row_unit_bytes();
  if (global_dims.empty() || __builtin_mul_overflow(unit, global_dims[0], &span)) return INT64_MAX;
  for (int d = 1; d < rank && d < static_cast<int>(global_dims.size()) && d - 1 < static_cast<int>(global_strides.size()); ++d) {
    int64_t outer = 0;
    if (__builtin_mul_overflow(global_dims[d] - 1, global_strides[d - 1], &outer) ||
        __builtin_add_overflow(span, outer, &span))
      return INT64_MAX;
  }
  return span;
}

}  // namespace tmasim
