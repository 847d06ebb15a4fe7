#pragma once
// What the RTL address generators (rtl/tma_agu.sv, rtl/tma_agu_im2col.sv) are told for one TMA
// instruction: their command ports as plain values, derived once from the decoded tensor map.
// The co-simulation bench and the timing model's RTL path both drive the ports from these.
#include <cstdint>

#include "tmasim/tensor_map.hpp"
#include "tmasim/tma.hpp"

namespace tmasim {

constexpr uint64_t kAguAddrMask = (uint64_t(1) << 48) - 1;  // the RTL's global address width
constexpr uint64_t kAguHiMask = (uint64_t(1) << 34) - 1;    // the 34-bit signed upper-corner port

// log2 of the bytes a box row moves per unit along dimension 0 (1-8 bytes, or 16/32 interleaved).
inline uint32_t agu_unit_log2(const TensorMap& m) {
  const int unit = m.row_unit_bytes();
  uint32_t l = 0;
  while ((1 << l) < unit) ++l;
  return l;
}

struct TiledAguCommand {
  uint32_t rank, elem_log2, es0, swizzle, smem_base, row_pitch, row_beats;
  uint64_t gbase;
  uint64_t dim[5], stride[4];  // stride[d]: dimension d + 1
  uint32_t ext[4], es[4], coord[5];
};

inline TiledAguCommand tiled_agu_command(const TensorMap& m, const TmaInstruction& ins) {
  TiledAguCommand c{};
  c.rank = static_cast<uint32_t>(m.rank);
  c.elem_log2 = agu_unit_log2(m);
  c.es0 = m.interleave != Interleave::none ? static_cast<uint32_t>(m.element_strides[0]) : 1;
  c.swizzle = static_cast<uint32_t>(m.swizzle);
  c.gbase = m.global_address & kAguAddrMask;
  c.smem_base = ins.smem_offset;
  c.row_pitch = static_cast<uint32_t>(m.smem_row_pitch());
  c.row_beats = static_cast<uint32_t>(m.inner_row_bytes() / 16);
  for (int d = 0; d < 5; ++d) {
    c.dim[d] = d < m.rank ? static_cast<uint64_t>(m.global_dims[d]) : 1;
    c.coord[d] = d < m.rank ? static_cast<uint32_t>(ins.coords[d]) : 0;
  }
  for (int d = 0; d < 4; ++d) {
    const bool used = d + 1 < m.rank;
    c.stride[d] = used ? static_cast<uint64_t>(m.global_strides[d]) : 0;
    c.ext[d] = used ? static_cast<uint32_t>(m.box_extent(d + 1)) : 1;
    c.es[d] = used ? static_cast<uint32_t>(m.element_strides[d + 1]) : 1;
  }
  return c;
}

struct Im2colAguCommand {
  uint32_t rank, elem_log2, swizzle, smem_base, row_pitch, row_beats, pixels;
  uint64_t gbase, dim0, sdim[3], ndim, sstride[3], nstride, hi[3], hdim, hstride;
  uint32_t lo[3], ses[3], nes, off[3], c0, p[3], n, hc;
};

// Spatial dimension i walks tensor dimension m.spatial_dim(i); for interleaved layouts that is
// dimension i (dimension 0 in units: its "stride" is the unit), dimension rank-2 is held at its
// coordinate and there are no channels to window (c0 = 0, dim0 past any row).
inline Im2colAguCommand im2col_agu_command(const TensorMap& m, const TmaInstruction& ins) {
  Im2colAguCommand c{};
  const int ns = m.rank - 2;
  const bool interleaved = m.interleave != Interleave::none;
  auto stride_of = [&](int d) { return d == 0 ? static_cast<uint64_t>(m.row_unit_bytes()) : static_cast<uint64_t>(m.global_strides[d - 1]); };
  c.rank = static_cast<uint32_t>(m.rank);
  c.elem_log2 = interleaved ? 0 : agu_unit_log2(m);
  c.swizzle = static_cast<uint32_t>(m.swizzle);
  c.gbase = m.global_address & kAguAddrMask;
  c.smem_base = ins.smem_offset;
  c.row_pitch = static_cast<uint32_t>(m.smem_row_pitch());
  c.row_beats = static_cast<uint32_t>(m.inner_row_bytes() / 16);
  c.pixels = static_cast<uint32_t>(m.pixels_per_column);
  c.dim0 = interleaved ? (uint64_t(1) << 32) : static_cast<uint64_t>(m.global_dims[0]);
  c.c0 = interleaved ? 0 : static_cast<uint32_t>(ins.coords[0]);
  for (int i = 0; i < 3; ++i) {
    const bool used = i < ns;
    const int d = used ? m.spatial_dim(i) : 0;
    c.sdim[i] = used ? static_cast<uint64_t>(m.global_dims[d]) : 1;
    c.sstride[i] = used ? stride_of(d) : 0;
    c.lo[i] = used ? static_cast<uint32_t>(m.lower_corner[i]) : 0;
    c.hi[i] = used ? static_cast<uint64_t>(m.global_dims[d] - 1 + m.upper_corner[i]) & kAguHiMask : 0;
    c.ses[i] = used ? static_cast<uint32_t>(m.element_strides[d]) : 1;
    c.off[i] = used ? static_cast<uint32_t>(ins.im2col_offsets[i]) : 0;
    c.p[i] = used ? static_cast<uint32_t>(ins.coords[d]) : 0;
  }
  const int n_dim = m.rank - 1;
  c.ndim = static_cast<uint64_t>(m.global_dims[n_dim]);
  c.nstride = static_cast<uint64_t>(m.global_strides[n_dim - 1]);
  c.nes = static_cast<uint32_t>(m.element_strides[n_dim]);
  c.n = static_cast<uint32_t>(ins.coords[n_dim]);
  if (interleaved) {
    const int h = m.rank - 2;
    c.hc = static_cast<uint32_t>(ins.coords[h]);
    c.hdim = static_cast<uint64_t>(m.global_dims[h]);
    c.hstride = static_cast<uint64_t>(m.global_strides[h - 1]);
  } else {
    c.hc = 0;
    c.hdim = 1;
    c.hstride = 0;
  }
  return c;
}

// Assigns the command to a Verilated generator's ports (C++ or SystemC signals alike).
template <class Ports>
void drive_tiled(Ports& p, const TiledAguCommand& c) {
  p.rank_i = c.rank;
  p.elem_log2_i = c.elem_log2;
  p.es0_i = c.es0;
  p.swizzle_i = c.swizzle;
  p.gbase_i = c.gbase;
  p.smem_base_i = c.smem_base;
  p.row_pitch_i = c.row_pitch;
  p.row_beats_i = c.row_beats;
  p.dim0_i = c.dim[0];
  p.dim1_i = c.dim[1];
  p.dim2_i = c.dim[2];
  p.dim3_i = c.dim[3];
  p.dim4_i = c.dim[4];
  p.stride1_i = c.stride[0];
  p.stride2_i = c.stride[1];
  p.stride3_i = c.stride[2];
  p.stride4_i = c.stride[3];
  p.ext1_i = c.ext[0];
  p.ext2_i = c.ext[1];
  p.ext3_i = c.ext[2];
  p.ext4_i = c.ext[3];
  p.es1_i = c.es[0];
  p.es2_i = c.es[1];
  p.es3_i = c.es[2];
  p.es4_i = c.es[3];
  p.c0_i = c.coord[0];
  p.c1_i = c.coord[1];
  p.c2_i = c.coord[2];
  p.c3_i = c.coord[3];
  p.c4_i = c.coord[4];
}

template <class Ports>
void drive_im2col(Ports& p, const Im2colAguCommand& c) {
  p.rank_i = c.rank;
  p.elem_log2_i = c.elem_log2;
  p.swizzle_i = c.swizzle;
  p.gbase_i = c.gbase;
  p.smem_base_i = c.smem_base;
  p.row_pitch_i = c.row_pitch;
  p.row_beats_i = c.row_beats;
  p.pixels_i = c.pixels;
  p.dim0_i = c.dim0;
  p.sdim0_i = c.sdim[0];
  p.sdim1_i = c.sdim[1];
  p.sdim2_i = c.sdim[2];
  p.ndim_i = c.ndim;
  p.sstride0_i = c.sstride[0];
  p.sstride1_i = c.sstride[1];
  p.sstride2_i = c.sstride[2];
  p.nstride_i = c.nstride;
  p.lo0_i = c.lo[0];
  p.lo1_i = c.lo[1];
  p.lo2_i = c.lo[2];
  p.hi0_i = c.hi[0];
  p.hi1_i = c.hi[1];
  p.hi2_i = c.hi[2];
  p.ses0_i = c.ses[0];
  p.ses1_i = c.ses[1];
  p.ses2_i = c.ses[2];
  p.nes_i = c.nes;
  p.off0_i = c.off[0];
  p.off1_i = c.off[1];
  p.off2_i = c.off[2];
  p.c0_i = c.c0;
  p.p0_i = c.p[0];
  p.p1_i = c.p[1];
  p.p2_i = c.p[2];
  p.n_i = c.n;
  p.hc_i = c.hc;
  p.hdim_i = c.hdim;
  p.hstride_i = c.hstride;
}

}  // namespace tmasim
