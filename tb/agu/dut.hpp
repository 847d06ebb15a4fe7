// The DUTs' ports as SystemC signals: the command fields (named as the generators' ports) and the
// binding of a Verilated generator to them and to its Lane.
#pragma once
#include <systemc>

#include <cstdint>

#include "scoreboard.hpp"

namespace agu_tb {

using namespace sc_core;

// ---- the DUTs' signals
// The command signals, named as the generators' ports (tmasim::drive_tiled / drive_im2col).
struct TiledCmd {
  sc_signal<uint32_t> rank_i, elem_log2_i, es0_i, swizzle_i, smem_base_i, row_pitch_i, row_beats_i, ext1_i, ext2_i,
      ext3_i, ext4_i, es1_i, es2_i, es3_i, es4_i, c0_i, c1_i, c2_i, c3_i, c4_i;
  sc_signal<uint64_t> gbase_i, dim0_i, dim1_i, dim2_i, dim3_i, dim4_i, stride1_i, stride2_i, stride3_i, stride4_i;
};
struct Im2colCmd {
  sc_signal<uint32_t> rank_i, elem_log2_i, swizzle_i, smem_base_i, row_pitch_i, row_beats_i, pixels_i, lo0_i, lo1_i,
      lo2_i, ses0_i, ses1_i, ses2_i, nes_i, off0_i, off1_i, off2_i, c0_i, p0_i, p1_i, p2_i, n_i, hc_i;
  sc_signal<uint64_t> gbase_i, dim0_i, sdim0_i, sdim1_i, sdim2_i, ndim_i, sstride0_i, sstride1_i, sstride2_i, nstride_i,
      hi0_i, hi1_i, hi2_i, hdim_i, hstride_i;
};


// What both generators share: clock, reset, the command handshake and the beat outputs.
template <class Dut, class L>
void bind_handshakes(Dut& d, sc_in<bool>& clk, sc_signal<bool>& rst, L& l) {
  d.clk_i(clk);
  d.rst_ni(rst);
  d.cmd_valid_i(l.cmd_valid);
  d.cmd_ready_o(l.cmd_ready);
  d.beat_valid_o(l.valid);
  d.beat_ready_i(l.ready);
  d.beat_smem_addr_o(l.smem);
  d.beat_gaddr_o(l.gaddr);
  d.beat_oob_o(l.oob);
  d.beat_chunks_o(l.nchunks);
  d.beat_last_o(l.last);
}

template <class Dut, class L>
void bind_tiled(Dut& d, sc_in<bool>& clk, sc_signal<bool>& rst, TiledCmd& c, L& l) {
  bind_handshakes(d, clk, rst, l);
  d.rank_i(c.rank_i);
  d.elem_log2_i(c.elem_log2_i);
  d.es0_i(c.es0_i);
  d.swizzle_i(c.swizzle_i);
  d.gbase_i(c.gbase_i);
  d.smem_base_i(c.smem_base_i);
  d.row_pitch_i(c.row_pitch_i);
  d.row_beats_i(c.row_beats_i);
  d.dim0_i(c.dim0_i);
  d.dim1_i(c.dim1_i);
  d.dim2_i(c.dim2_i);
  d.dim3_i(c.dim3_i);
  d.dim4_i(c.dim4_i);
  d.stride1_i(c.stride1_i);
  d.stride2_i(c.stride2_i);
  d.stride3_i(c.stride3_i);
  d.stride4_i(c.stride4_i);
  d.ext1_i(c.ext1_i);
  d.ext2_i(c.ext2_i);
  d.ext3_i(c.ext3_i);
  d.ext4_i(c.ext4_i);
  d.es1_i(c.es1_i);
  d.es2_i(c.es2_i);
  d.es3_i(c.es3_i);
  d.es4_i(c.es4_i);
  d.c0_i(c.c0_i);
  d.c1_i(c.c1_i);
  d.c2_i(c.c2_i);
  d.c3_i(c.c3_i);
  d.c4_i(c.c4_i);
}

template <class Dut, class L>
void bind_im2col(Dut& d, sc_in<bool>& clk, sc_signal<bool>& rst, Im2colCmd& c, L& l) {
  bind_handshakes(d, clk, rst, l);
  d.rank_i(c.rank_i);
  d.elem_log2_i(c.elem_log2_i);
  d.swizzle_i(c.swizzle_i);
  d.gbase_i(c.gbase_i);
  d.smem_base_i(c.smem_base_i);
  d.row_pitch_i(c.row_pitch_i);
  d.row_beats_i(c.row_beats_i);
  d.pixels_i(c.pixels_i);
  d.dim0_i(c.dim0_i);
  d.sdim0_i(c.sdim0_i);
  d.sdim1_i(c.sdim1_i);
  d.sdim2_i(c.sdim2_i);
  d.ndim_i(c.ndim_i);
  d.sstride0_i(c.sstride0_i);
  d.sstride1_i(c.sstride1_i);
  d.sstride2_i(c.sstride2_i);
  d.nstride_i(c.nstride_i);
  d.lo0_i(c.lo0_i);
  d.lo1_i(c.lo1_i);
  d.lo2_i(c.lo2_i);
  d.hi0_i(c.hi0_i);
  d.hi1_i(c.hi1_i);
  d.hi2_i(c.hi2_i);
  d.ses0_i(c.ses0_i);
  d.ses1_i(c.ses1_i);
  d.ses2_i(c.ses2_i);
  d.nes_i(c.nes_i);
  d.off0_i(c.off0_i);
  d.off1_i(c.off1_i);
  d.off2_i(c.off2_i);
  d.c0_i(c.c0_i);
  d.p0_i(c.p0_i);
  d.p1_i(c.p1_i);
  d.p2_i(c.p2_i);
  d.n_i(c.n_i);
  d.hc_i(c.hc_i);
  d.hdim_i(c.hdim_i);
  d.hstride_i(c.hstride_i);
}


}  // namespace agu_tb
