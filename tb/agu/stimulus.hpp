// The bench's stimulus: random boxes over the whole legal range of tiled, interleaved and im2col
// maps (docs/rtl_testplan.md); a box the validator or the hardware refuses is drawn again.
#pragma once
#include <cstdint>

#include "tmasim/golden.hpp"
#include "tmasim/traversal.hpp"

namespace agu_tb {

using namespace tmasim;

struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % uint64_t(hi - lo + 1)); }
  bool one_in(int n) { return next() % uint64_t(n) == 0; }
};

// ---- random boxes; what the validator or the hardware refuses is drawn again
inline bool legal(const TensorMap& m, const TmaInstruction& ins) {
  if (validate(m)) return false;
  try {
    check_instruction(m, ins);
  } catch (const Error&) {
    return false;
  }
  return ins.smem_offset + m.smem_footprint() <= 233472;  // fits an H100's shared memory
}

inline bool random_box(Rng& r, TensorMap& m, TmaInstruction& ins) {
  m = TensorMap{};
  const DType types[] = {DType::u8, DType::f16, DType::f32, DType::f64};
  m.dtype = types[r.range(0, 3)];
  m.rank = static_cast<int>(r.range(1, 5));
  m.swizzle = static_cast<Swizzle>(r.range(0, 3));
  const int eb = dtype_bytes(m.dtype);
  const int span = m.swizzle == Swizzle::none ? 256 : swizzle_span(m.swizzle);
  const int64_t inner_bytes = 16 * r.range(1, span / 16);
  m.box_dims = {inner_bytes / eb};
  m.global_dims = {std::max<int64_t>(1, m.box_dims[0] + r.range(-m.box_dims[0] / 2, 2 * m.box_dims[0]))};
  m.element_strides = {r.range(1, 8)};
  int64_t stride = (m.global_dims[0] * eb + 15) / 16 * 16 + 16 * r.range(0, 2);
  for (int d = 1; d < m.rank; ++d) {
    m.box_dims.push_back(r.range(1, 6));
    m.global_dims.push_back(r.range(1, 9));
    m.element_strides.push_back(r.range(0, 3) == 0 ? r.range(2, 8) : 1);
    m.global_strides.push_back(stride);
    stride *= m.global_dims[d];
  }
  m.global_address = 16 * static_cast<uint64_t>(r.range(0, 1 << 20));
  ins.coords.clear();
  for (int d = 0; d < m.rank; ++d) {
    int64_t lo = -m.box_dims[d] - 2, hi = m.global_dims[d] + 2;
    ins.coords.push_back(static_cast<int32_t>(r.range(0, 2) == 0 ? r.range(lo, hi) : r.range(0, m.global_dims[d] - 1)));
  }
  ins.coords[0] -= ((ins.coords[0] % (16 / eb)) + 16 / eb) % (16 / eb);  // 16-byte aligned: the hardware traps otherwise
  ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 64));
  if (!legal(m, ins)) return false;
  // The 128-byte swizzles with 32- and 64-byte atoms (CUDA 13, compute capability 10): the
  // H100's driver refuses them, the RTL supports them for exploration; same span as 128B.
  if (m.swizzle == Swizzle::b128 && r.one_in(4)) m.swizzle = static_cast<Swizzle>(r.range(4, 6));
  return true;
}

// The whole legal range: dims up to 2^32, strides up to 2^40, coordinates near +-2^31, box
// extents 256, element strides 8, rows of 128 beats, addresses that wrap 2^48.
inline bool random_extreme_box(Rng& r, TensorMap& m, TmaInstruction& ins) {
  m = TensorMap{};
  const DType types[] = {DType::u8, DType::f16, DType::f32, DType::f64};
  m.dtype = types[r.range(0, 3)];
  m.rank = static_cast<int>(r.range(1, 5));
  m.swizzle = static_cast<Swizzle>(r.range(0, 3));
  const int eb = dtype_bytes(m.dtype);
  const int64_t max_inner = m.swizzle == Swizzle::none ? 256 * eb : swizzle_span(m.swizzle);
  const int64_t inner_bytes = r.one_in(3) ? max_inner : r.one_in(2) ? 16 : 16 * r.range(1, max_inner / 16);
  m.box_dims = {inner_bytes / eb};
  auto big_dim = [&]() -> int64_t {
    switch (r.range(0, 3)) {
      case 0: return 1;
      case 1: return r.range(1, 9);
      case 2: return (int64_t(1) << 32) - r.range(0, 65535);
      default: return r.range(1, int64_t(1) << 32);
    }
  };
  m.global_dims = {big_dim()};
  m.element_strides = {r.one_in(3) ? 8 : r.range(1, 8)};
  int64_t rows = 1;
  for (int d = 1; d < m.rank; ++d) {
    m.global_dims.push_back(big_dim());
    const int64_t ext = r.one_in(4) ? 256 : r.one_in(2) ? 1 : r.range(2, 6);
    m.box_dims.push_back(ext);
    m.element_strides.push_back(r.one_in(4) ? 8 : r.one_in(3) ? r.range(2, 7) : 1);
    const int64_t s = r.range(0, 2) == 0 ? (int64_t(1) << 40) - 16 * r.range(1, 4096)
                      : r.one_in(2)      ? 16 * r.range(1, int64_t(1) << 36)
                                         : 16 * r.range(1, 64);
    m.global_strides.push_back(s);
    rows *= m.box_extent(d);
  }
  if (rows * (inner_bytes / 16) > 8192) return false;  // keep a box under 8k beats
  m.global_address = 16 * static_cast<uint64_t>(r.range(0, int64_t(1) << 43));
  ins.coords.clear();
  for (int d = 0; d < m.rank; ++d) {
    int64_t c;
    switch (r.range(0, 4)) {
      case 0: c = INT32_MIN + r.range(0, 65535); break;
      case 1: c = INT32_MAX - r.range(0, 65535); break;
      case 2: c = 0; break;
      case 3: c = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, r.range(-300, m.global_dims[d] + 2))); break;
      default: c = static_cast<int32_t>(r.next()); break;
    }
    ins.coords.push_back(static_cast<int32_t>(c));
  }
  ins.coords[0] -= ((ins.coords[0] % (16 / eb)) + 16 / eb) % (16 / eb);
  ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 64));
  return legal(m, ins);
}

inline bool random_interleaved(Rng& r, TensorMap& m, TmaInstruction& ins) {
  m = TensorMap{};
  m.dtype = DType::f16;
  m.rank = static_cast<int>(r.range(3, 5));
  m.interleave = r.range(0, 1) ? Interleave::b16 : Interleave::b32;
  const int unit = m.unit_bytes();
  m.swizzle = m.interleave == Interleave::b32 ? Swizzle::b32 : static_cast<Swizzle>(r.range(0, 3));
  m.global_dims = {r.range(1, 12)};
  m.box_dims = {unit / 2 * r.range(1, 2)};
  m.element_strides = {r.one_in(6) ? 8 : r.range(1, 3)};
  int64_t stride = m.global_dims[0] * unit;
  for (int d = 1; d < m.rank; ++d) {
    m.global_dims.push_back(r.range(1, 7));
    m.box_dims.push_back(r.range(1, 5));
    m.element_strides.push_back(r.range(0, 3) == 0 ? r.range(2, 3) : 1);
    m.global_strides.push_back(stride);
    stride *= m.global_dims[d];
  }
  m.global_address = static_cast<uint64_t>(unit) * static_cast<uint64_t>(r.range(0, 1 << 16));
  ins.coords.clear();
  for (int d = 0; d < m.rank; ++d) ins.coords.push_back(static_cast<int32_t>(r.range(-2, m.global_dims[d])));
  ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 32));
  return legal(m, ins);
}

// extreme: pixels up to 1024, dims near 2^32, corners at the rank's limits, offsets up to
// 65535, traversal strides 8, strides near 2^40, images outside the tensor.
inline bool random_im2col(Rng& r, TensorMap& m, TmaInstruction& ins, bool extreme) {
  m = TensorMap{};
  m.mode = TensorMode::im2col;
  const DType types[] = {DType::u8, DType::f16, DType::f32, DType::f64};
  m.dtype = types[r.range(0, 3)];
  m.rank = static_cast<int>(r.range(3, 5));
  m.swizzle = static_cast<Swizzle>(r.range(0, 3));
  const int eb = dtype_bytes(m.dtype);
  const int span = m.swizzle == Swizzle::none ? 256 : swizzle_span(m.swizzle);
  m.channels_per_pixel = 16 * r.range(1, span / 16) / eb;
  m.pixels_per_column = extreme && r.one_in(3) ? 1024 : extreme && r.one_in(2) ? 1 : r.range(1, 48);
  if (m.pixels_per_column * m.channels_per_pixel * eb > 65536) m.channels_per_pixel = 16 / eb;
  m.global_dims = {m.channels_per_pixel * r.range(1, 2)};
  if (extreme && r.one_in(4)) m.global_dims[0] = r.range(1, m.channels_per_pixel);  // channels past the end
  else if (extreme && r.one_in(4)) m.global_dims[0] = (int64_t(1) << 32) - 16 * r.range(1, 1000);
  const int ns = m.rank - 2;
  const int64_t limit = m.rank == 3 ? 32768 : m.rank == 4 ? 128 : 16;
  const int lim = m.rank == 3 ? 4 : m.rank == 4 ? 3 : 2;
  auto corner = [&]() { return extreme && r.one_in(3) ? (r.one_in(2) ? -limit : limit - 1) : r.range(-lim, lim); };
  for (int i = 0; i < ns; ++i) {
    m.global_dims.push_back(extreme && r.one_in(3) ? (int64_t(1) << 32) - r.range(0, 1000) : r.range(2, 7));
    m.lower_corner.push_back(corner());
    m.upper_corner.push_back(corner());
  }
  m.global_dims.push_back(extreme && r.one_in(4) ? (int64_t(1) << 32) - r.range(0, 1000) : r.range(1, 3));
  int64_t stride = (m.global_dims[0] * eb + 15) / 16 * 16;
  for (int d = 1; d < m.rank; ++d) {
    if (extreme && r.one_in(3)) m.global_strides.push_back((int64_t(1) << 40) - 16 * r.range(1, 4096));
    else m.global_strides.push_back(stride);
    stride = std::min<int64_t>(stride * std::min<int64_t>(m.global_dims[d], 64), int64_t(1) << 36);
  }
  m.element_strides = {1};
  for (int d = 1; d < m.rank; ++d)
    m.element_strides.push_back(extreme && r.one_in(4) ? 8 : r.range(0, 2) == 0 ? r.range(2, 3) : 1);
  m.global_address = 16 * static_cast<uint64_t>(r.range(0, extreme ? int64_t(1) << 43 : 1 << 16));
  ins.coords = {static_cast<int32_t>((m.global_dims[0] - m.channels_per_pixel) / (16 / eb) > 0 && r.range(0, 1)
                                         ? 16 / eb : 0)};
  if (extreme && r.one_in(6)) ins.coords[0] = static_cast<int32_t>(-(16 / eb) * r.range(1, 300));  // channels below 0
  for (int i = 0; i < ns; ++i) {
    const int64_t lo = m.lower_corner[i], hi = m.global_dims[i + 1] - 1 + m.upper_corner[i];
    int64_t p = r.range(lo, std::max(lo, std::min<int64_t>(hi, lo + 12)));
    if (extreme && r.one_in(3)) p = std::min<int64_t>(hi, INT32_MAX) - r.range(0, 3);
    ins.coords.push_back(static_cast<int32_t>(std::max<int64_t>(lo, p)));
  }
  const int64_t nd = m.global_dims[m.rank - 1];
  int64_t n = r.range(0, std::min<int64_t>(nd - 1, 5));
  if (extreme && r.one_in(4)) n = r.one_in(2) ? -r.range(1, 3) : std::min<int64_t>(INT32_MAX, nd + r.range(0, 2));
  ins.coords.push_back(static_cast<int32_t>(n));
  ins.im2col_offsets.clear();
  for (int i = 0; i < ns; ++i)
    ins.im2col_offsets.push_back(static_cast<int32_t>(extreme && r.one_in(4) ? 65535 - r.range(0, 100) : r.range(0, 3)));
  ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 32));
  return legal(m, ins);
}

// im2col on an interleaved layout: tensor dimensions 0..rank-3 are walked (dimension 0 in
// 16/32-byte units, one unit a pixel), rank-2 is held at its coordinate (inside or not).
inline bool random_im2col_interleaved(Rng& r, TensorMap& m, TmaInstruction& ins) {
  m = TensorMap{};
  m.mode = TensorMode::im2col;
  m.dtype = DType::f16;
  m.rank = static_cast<int>(r.range(3, 5));
  m.interleave = r.range(0, 1) ? Interleave::b16 : Interleave::b32;
  const int unit = m.unit_bytes();
  m.swizzle = m.interleave == Interleave::b32 ? Swizzle::b32 : static_cast<Swizzle>(r.range(0, 3));
  m.channels_per_pixel = unit / 2;
  m.pixels_per_column = r.range(1, 48);
  const int ns = m.rank - 2;
  const int lim = m.rank == 3 ? 4 : m.rank == 4 ? 3 : 2;
  for (int d = 0; d < m.rank; ++d) m.global_dims.push_back(d < ns ? r.range(2, 9) : r.range(1, 3));
  for (int i = 0; i < ns; ++i) {
    m.lower_corner.push_back(r.range(-lim, lim));
    m.upper_corner.push_back(r.range(-lim, lim));
  }
  int64_t stride = m.global_dims[0] * unit;
  for (int d = 1; d < m.rank; ++d) {
    m.global_strides.push_back(stride);
    stride *= m.global_dims[d];
  }
  m.element_strides = {};
  for (int d = 0; d < m.rank; ++d) m.element_strides.push_back(r.one_in(3) ? r.range(2, 3) : 1);
  m.global_address = static_cast<uint64_t>(unit) * static_cast<uint64_t>(r.range(0, 1 << 16));
  ins.coords.assign(m.rank, 0);
  for (int i = 0; i < ns; ++i) {
    const int d = m.spatial_dim(i);
    const int64_t lo = m.lower_corner[i], hi = m.global_dims[d] - 1 + m.upper_corner[i];
    ins.coords[d] = static_cast<int32_t>(r.range(lo, std::max(lo, hi)));
  }
  ins.coords[m.rank - 2] = static_cast<int32_t>(r.range(-1, m.global_dims[m.rank - 2]));  // held: maybe outside
  ins.coords[m.rank - 1] = static_cast<int32_t>(r.range(-1, m.global_dims[m.rank - 1]));
  ins.im2col_offsets.clear();
  for (int i = 0; i < ns; ++i) ins.im2col_offsets.push_back(static_cast<int32_t>(r.range(0, 3)));
  ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 32));
  return legal(m, ins);
}

}  // namespace agu_tb
