// SystemC co-simulation bench for rtl/tma_agu.sv (Verilated with SYSTEMC output): random tiled
// boxes (ranks 1-5, element sizes 1-8 bytes, element strides, swizzles, boxes out of bounds on
// either side) are driven into the RTL under random back-pressure, and every beat is checked
// against the C++ model's traversal (tmasim::for_each_row) by a scoreboard.
//   agu_tb [--boxes N] [--seed S] [--trace waves.vcd] [--golden functional.jsonl.gz] [--wide]
// --wide also drives the 128-byte-per-cycle variant (Chunks = 8) with every tiled box.
// Ends with functional coverage, simulation speed, and "N passed, M failed" (boxes).
#include <systemc>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>

#include "Vtma_agu.h"
#include "Vtma_agu_im2col.h"
#include "Vtma_agu_wide.h"
#include "tmasim/golden.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"
#include "verilated.h"

using namespace sc_core;
using namespace tmasim;

namespace {

struct Beat {
  uint32_t smem;
  uint64_t gaddr;
  uint32_t oob;
  bool last;
};

struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % uint64_t(hi - lo + 1)); }
};

// The beats the model says the AGU must emit for this box.
std::vector<Beat> expected_beats(const TensorMap& m, const TmaInstruction& ins) {
  std::vector<Beat> beats;
  // Byte o of a row lies in unit o / unit, at coordinate c0 + unit index x its step.
  const int unit = m.row_unit_bytes();
  const int64_t row_bytes = m.inner_row_bytes();
  for_each_row(m, ins, [&](const BoxRow& r) {
    for (int64_t k = 0; k < row_bytes / 16; ++k) {
      Beat b{};
      const int64_t o = 16 * k;
      b.smem = swizzle_address(m.swizzle, static_cast<uint32_t>(r.smem_offset + o));
      b.gaddr = m.global_address + static_cast<uint64_t>(r.global_offset + (o / unit) * r.element_step * unit + o % unit);
      for (int byte = 0; byte < 16; ++byte) {
        const int64_t x = r.coord[0] + ((o + byte) / unit) * r.element_step;
        if (!r.row_in_bounds || x < 0 || x >= m.global_dims[0]) b.oob |= 1u << byte;
      }
      beats.push_back(b);
    }
  });
  if (!beats.empty()) beats.back().last = true;
  return beats;
}

struct Coverage {
  std::map<std::string, uint64_t> bins;
  void hit(const std::string& b) { ++bins[b]; }
};

SC_MODULE(Bench) {
  sc_in<bool> clk;
  sc_signal<bool> rst_n{"rst_n"}, cmd_valid{"cmd_valid"}, cmd_ready{"cmd_ready"}, beat_valid{"beat_valid"},
      beat_ready{"beat_ready"}, beat_last{"beat_last"};
  sc_signal<uint32_t> es0{"es0"};
  sc_signal<uint32_t> rank{"rank"}, elem_log2{"elem_log2"}, swizzle{"swizzle"}, smem_base{"smem_base"},
      row_pitch{"row_pitch"}, row_beats{"row_beats"}, ext[4], es[4], c[5], beat_smem{"beat_smem"},
      beat_oob{"beat_oob"};
  sc_signal<uint64_t> gbase{"gbase"}, dim[5], stride[4], beat_gaddr{"beat_gaddr"};
  Vtma_agu dut{"dut"};
  sc_signal<uint32_t> beat_chunks{"beat_chunks"};
  // The 128-byte-per-cycle variant, fed the same tiled commands, always ready.
  std::unique_ptr<Vtma_agu_wide> wide;  // only with --wide
  sc_signal<bool> w_cmd_ready{"w_cmd_ready"}, w_beat_valid{"w_beat_valid"}, w_ready{"w_ready"}, w_beat_last{"w_beat_last"};
  sc_signal<sc_dt::sc_bv<8 * 18>> w_beat_smem{"w_beat_smem"};
  sc_signal<sc_dt::sc_bv<8 * 48>> w_beat_gaddr{"w_beat_gaddr"};
  sc_signal<sc_dt::sc_bv<8 * 16>> w_beat_oob{"w_beat_oob"};
  sc_signal<uint32_t> w_beat_chunks{"w_beat_chunks"};
  std::deque<std::vector<Beat>> want_wide;
  uint64_t wide_beats_checked = 0;
  int wide_failures = 0;
  // im2col DUT: its own command and beat signals
  Vtma_agu_im2col dut_i2c{"dut_im2col"};
  sc_signal<bool> i_cmd_valid{"i_cmd_valid"}, i_cmd_ready{"i_cmd_ready"}, i_beat_valid{"i_beat_valid"},
      i_beat_last{"i_beat_last"};
  sc_signal<uint32_t> i_pixels{"i_pixels"}, i_lo[3], i_ses[3], i_nes{"i_nes"}, i_off[3], i_p[3], i_n{"i_n"},
      i_beat_smem{"i_beat_smem"}, i_beat_oob{"i_beat_oob"}, i_beat_chunks{"i_beat_chunks"};
  sc_signal<uint64_t> i_sdim[3], i_ndim{"i_ndim"}, i_sstride[3], i_nstride{"i_nstride"}, i_beat_gaddr{"i_beat_gaddr"},
      i_hi[3];
  bool im2col_box = false;

  int boxes = 100000;
  uint64_t seed = 1;
  std::vector<std::pair<TensorMap, TmaInstruction>> golden;  // when set: these boxes instead of random ones
  std::deque<Beat> want;
  uint64_t beats_checked = 0, stalls = 0, cycles = 0;
  int box_failures = 0, boxes_done = 0;
  bool box_failed = false;
  Coverage cov;
  sc_event box_done;

  SC_HAS_PROCESS(Bench);
  Bench(sc_module_name n, bool with_wide) : sc_module(n) {
    dut.clk_i(clk);
    dut.rst_ni(rst_n);
    dut.cmd_valid_i(cmd_valid);
    dut.cmd_ready_o(cmd_ready);
    dut.rank_i(rank);
    dut.elem_log2_i(elem_log2);
    dut.es0_i(es0);
    dut.swizzle_i(swizzle);
    dut.gbase_i(gbase);
    dut.smem_base_i(smem_base);
    dut.row_pitch_i(row_pitch);
    dut.row_beats_i(row_beats);
    dut.dim0_i(dim[0]);
    dut.dim1_i(dim[1]);
    dut.dim2_i(dim[2]);
    dut.dim3_i(dim[3]);
    dut.dim4_i(dim[4]);
    dut.stride1_i(stride[0]);
    dut.stride2_i(stride[1]);
    dut.stride3_i(stride[2]);
    dut.stride4_i(stride[3]);
    dut.ext1_i(ext[0]);
    dut.ext2_i(ext[1]);
    dut.ext3_i(ext[2]);
    dut.ext4_i(ext[3]);
    dut.es1_i(es[0]);
    dut.es2_i(es[1]);
    dut.es3_i(es[2]);
    dut.es4_i(es[3]);
    dut.c0_i(c[0]);
    dut.c1_i(c[1]);
    dut.c2_i(c[2]);
    dut.c3_i(c[3]);
    dut.c4_i(c[4]);
    dut.beat_valid_o(beat_valid);
    dut.beat_ready_i(beat_ready);
    dut.beat_smem_addr_o(beat_smem);
    dut.beat_gaddr_o(beat_gaddr);
    dut.beat_oob_o(beat_oob);
    dut.beat_last_o(beat_last);
    dut.beat_chunks_o(beat_chunks);
    if (with_wide) {
      wide = std::make_unique<Vtma_agu_wide>("dut_wide");
      wide->clk_i(clk);
      wide->rst_ni(rst_n);
      wide->cmd_valid_i(cmd_valid);
      wide->cmd_ready_o(w_cmd_ready);
      wide->rank_i(rank);
      wide->elem_log2_i(elem_log2);
      wide->es0_i(es0);
      wide->swizzle_i(swizzle);
      wide->gbase_i(gbase);
      wide->smem_base_i(smem_base);
      wide->row_pitch_i(row_pitch);
      wide->row_beats_i(row_beats);
      wide->dim0_i(dim[0]);
      wide->dim1_i(dim[1]);
      wide->dim2_i(dim[2]);
      wide->dim3_i(dim[3]);
      wide->dim4_i(dim[4]);
      wide->stride1_i(stride[0]);
      wide->stride2_i(stride[1]);
      wide->stride3_i(stride[2]);
      wide->stride4_i(stride[3]);
      wide->ext1_i(ext[0]);
      wide->ext2_i(ext[1]);
      wide->ext3_i(ext[2]);
      wide->ext4_i(ext[3]);
      wide->es1_i(es[0]);
      wide->es2_i(es[1]);
      wide->es3_i(es[2]);
      wide->es4_i(es[3]);
      wide->c0_i(c[0]);
      wide->c1_i(c[1]);
      wide->c2_i(c[2]);
      wide->c3_i(c[3]);
      wide->c4_i(c[4]);
      wide->beat_valid_o(w_beat_valid);
      wide->beat_ready_i(w_ready);
      wide->beat_smem_addr_o(w_beat_smem);
      wide->beat_gaddr_o(w_beat_gaddr);
      wide->beat_oob_o(w_beat_oob);
      wide->beat_chunks_o(w_beat_chunks);
      wide->beat_last_o(w_beat_last);
    }
    dut_i2c.clk_i(clk);
    dut_i2c.rst_ni(rst_n);
    dut_i2c.cmd_valid_i(i_cmd_valid);
    dut_i2c.cmd_ready_o(i_cmd_ready);
    dut_i2c.rank_i(rank);
    dut_i2c.elem_log2_i(elem_log2);
    dut_i2c.swizzle_i(swizzle);
    dut_i2c.gbase_i(gbase);
    dut_i2c.smem_base_i(smem_base);
    dut_i2c.row_pitch_i(row_pitch);
    dut_i2c.row_beats_i(row_beats);
    dut_i2c.pixels_i(i_pixels);
    dut_i2c.dim0_i(dim[0]);
    dut_i2c.sdim0_i(i_sdim[0]);
    dut_i2c.sdim1_i(i_sdim[1]);
    dut_i2c.sdim2_i(i_sdim[2]);
    dut_i2c.ndim_i(i_ndim);
    dut_i2c.sstride0_i(i_sstride[0]);
    dut_i2c.sstride1_i(i_sstride[1]);
    dut_i2c.sstride2_i(i_sstride[2]);
    dut_i2c.nstride_i(i_nstride);
    dut_i2c.lo0_i(i_lo[0]);
    dut_i2c.lo1_i(i_lo[1]);
    dut_i2c.lo2_i(i_lo[2]);
    dut_i2c.hi0_i(i_hi[0]);
    dut_i2c.hi1_i(i_hi[1]);
    dut_i2c.hi2_i(i_hi[2]);
    dut_i2c.ses0_i(i_ses[0]);
    dut_i2c.ses1_i(i_ses[1]);
    dut_i2c.ses2_i(i_ses[2]);
    dut_i2c.nes_i(i_nes);
    dut_i2c.off0_i(i_off[0]);
    dut_i2c.off1_i(i_off[1]);
    dut_i2c.off2_i(i_off[2]);
    dut_i2c.c0_i(c[0]);
    dut_i2c.p0_i(i_p[0]);
    dut_i2c.p1_i(i_p[1]);
    dut_i2c.p2_i(i_p[2]);
    dut_i2c.n_i(i_n);
    dut_i2c.beat_valid_o(i_beat_valid);
    dut_i2c.beat_ready_i(beat_ready);
    dut_i2c.beat_smem_addr_o(i_beat_smem);
    dut_i2c.beat_gaddr_o(i_beat_gaddr);
    dut_i2c.beat_oob_o(i_beat_oob);
    dut_i2c.beat_last_o(i_beat_last);
    dut_i2c.beat_chunks_o(i_beat_chunks);
    SC_THREAD(drive);
    sensitive << clk.pos();
    SC_METHOD(monitor);
    sensitive << clk.pos();
    dont_initialize();
  }

  // Random legal box; what the validator or the hardware refuses is drawn again.
  bool random_box(Rng& r, TensorMap& m, TmaInstruction& ins) {
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
    if (validate(m)) return false;
    ins.coords.clear();
    for (int d = 0; d < m.rank; ++d) {
      int64_t lo = -m.box_dims[d] - 2, hi = m.global_dims[d] + 2;
      ins.coords.push_back(static_cast<int32_t>(r.range(0, 2) == 0 ? r.range(lo, hi) : r.range(0, m.global_dims[d] - 1)));
    }
    ins.coords[0] -= ((ins.coords[0] % (16 / eb)) + 16 / eb) % (16 / eb);  // 16-byte aligned: the hardware traps otherwise
    ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 64));
    try {
      check_instruction(m, ins);
    } catch (const Error&) {
      return false;
    }
    return ins.smem_offset + m.smem_footprint() <= 233472;  // fits an H100's shared memory
  }

  bool random_interleaved(Rng& r, TensorMap& m, TmaInstruction& ins) {
    m = TensorMap{};
    m.dtype = DType::f16;
    m.rank = static_cast<int>(r.range(3, 5));
    m.interleave = r.range(0, 1) ? Interleave::b16 : Interleave::b32;
    const int unit = m.unit_bytes();
    m.swizzle = m.interleave == Interleave::b32 ? Swizzle::b32 : static_cast<Swizzle>(r.range(0, 3));
    m.global_dims = {r.range(1, 12)};
    m.box_dims = {unit / 2 * r.range(1, 2)};
    m.element_strides = {r.range(1, 3)};
    int64_t stride = m.global_dims[0] * unit;
    for (int d = 1; d < m.rank; ++d) {
      m.global_dims.push_back(r.range(1, 7));
      m.box_dims.push_back(r.range(1, 5));
      m.element_strides.push_back(r.range(0, 3) == 0 ? r.range(2, 3) : 1);
      m.global_strides.push_back(stride);
      stride *= m.global_dims[d];
    }
    m.global_address = static_cast<uint64_t>(unit) * static_cast<uint64_t>(r.range(0, 1 << 16));
    if (validate(m)) return false;
    ins.coords.clear();
    for (int d = 0; d < m.rank; ++d) ins.coords.push_back(static_cast<int32_t>(r.range(-2, m.global_dims[d])));
    ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 32));
    try {
      check_instruction(m, ins);
    } catch (const Error&) {
      return false;
    }
    return m.smem_footprint() + ins.smem_offset < (1 << 17);
  }

  bool random_im2col(Rng& r, TensorMap& m, TmaInstruction& ins) {
    m = TensorMap{};
    m.mode = TensorMode::im2col;
    const DType types[] = {DType::u8, DType::f16, DType::f32, DType::f64};
    m.dtype = types[r.range(0, 3)];
    m.rank = static_cast<int>(r.range(3, 5));
    m.swizzle = static_cast<Swizzle>(r.range(0, 3));
    const int eb = dtype_bytes(m.dtype);
    const int span = m.swizzle == Swizzle::none ? 256 : swizzle_span(m.swizzle);
    m.channels_per_pixel = 16 * r.range(1, span / 16) / eb;
    m.pixels_per_column = r.range(1, 48);
    m.global_dims = {m.channels_per_pixel * r.range(1, 2)};
    const int ns = m.rank - 2;
    const int lim = m.rank == 3 ? 4 : m.rank == 4 ? 3 : 2;
    for (int i = 0; i < ns; ++i) {
      m.global_dims.push_back(r.range(2, 7));
      m.lower_corner.push_back(r.range(-lim, lim));
      m.upper_corner.push_back(r.range(-lim, lim));
    }
    m.global_dims.push_back(r.range(1, 3));
    int64_t stride = (m.global_dims[0] * eb + 15) / 16 * 16;
    for (int d = 1; d < m.rank; ++d) {
      m.global_strides.push_back(stride);
      stride *= m.global_dims[d];
    }
    m.element_strides = {1};
    for (int d = 1; d < m.rank; ++d) m.element_strides.push_back(r.range(0, 2) == 0 ? r.range(2, 3) : 1);
    m.global_address = 16 * static_cast<uint64_t>(r.range(0, 1 << 16));
    if (validate(m)) return false;
    ins.coords = {static_cast<int32_t>((m.global_dims[0] - m.channels_per_pixel) / (16 / eb) > 0 && r.range(0, 1)
                                           ? 16 / eb : 0)};
    for (int i = 0; i < ns; ++i) {
      const int64_t lo = m.lower_corner[i], hi = m.global_dims[i + 1] - 1 + m.upper_corner[i];
      ins.coords.push_back(static_cast<int32_t>(r.range(lo, std::max(lo, hi))));
    }
    ins.coords.push_back(static_cast<int32_t>(r.range(0, m.global_dims[m.rank - 1] - 1)));
    ins.im2col_offsets.clear();
    for (int i = 0; i < ns; ++i) ins.im2col_offsets.push_back(static_cast<int32_t>(r.range(0, 3)));
    ins.smem_offset = 128 * static_cast<uint32_t>(r.range(0, 32));
    try {
      check_instruction(m, ins);
    } catch (const Error&) {
      return false;
    }
    return true;
  }

  void note_coverage(const TensorMap& m, const TmaInstruction& ins, const std::vector<Beat>& beats) {
    if (m.mode == TensorMode::im2col) {
      cov.hit("im2col rank " + std::to_string(m.rank));
      bool crosses = false;
      for (int i = 0; i < m.rank - 2; ++i) crosses |= m.element_strides[i + 1] > 1;
      if (crosses) cov.hit("im2col traversal stride > 1");
      bool any_oob = false;
      for (const Beat& b : beats) any_oob |= b.oob != 0;
      if (any_oob) cov.hit("im2col pixel out of bounds");
      return;
    }
    cov.hit("rank " + std::to_string(m.rank));
    if (m.interleave != Interleave::none) cov.hit("interleave " + std::string(tmasim::name(m.interleave)));
    cov.hit("swizzle " + std::string(tmasim::name(m.swizzle)));
    cov.hit("element bytes " + std::to_string(m.elem_bytes()));
    if (ins.coords[0] < 0) cov.hit("oob: dimension 0 below");
    if (ins.coords[0] + m.box_dims[0] > m.global_dims[0]) cov.hit("oob: dimension 0 above");
    for (int d = 1; d < m.rank; ++d) {
      if (ins.coords[d] < 0) cov.hit("oob: outer dimension below");
      if (ins.coords[d] + (m.box_extent(d) - 1) * m.element_strides[d] >= m.global_dims[d]) cov.hit("oob: outer dimension above");
      if (m.element_strides[d] > 1) cov.hit("element stride > 1");
    }
    bool all_oob = true;
    for (const Beat& b : beats) all_oob &= b.oob == 0xffffu;
    if (all_oob) cov.hit("box wholly out of bounds");
    if (beats.size() == 1) cov.hit("single-beat box");
  }

  void drive() {
    Rng r{seed};
    rst_n = false;
    wait();
    wait();
    rst_n = true;
    for (int n = 0; n < boxes; ++n) {
      TensorMap m;
      TmaInstruction ins;
      if (!golden.empty()) {
        m = golden[n].first;
        ins = golden[n].second;
      } else if (r.range(0, 3) == 0) {
        while (!random_im2col(r, m, ins)) {
        }
      } else if (r.range(0, 4) == 0) {
        while (!random_interleaved(r, m, ins)) {
        }
      } else {
        while (!random_box(r, m, ins)) {
        }
      }
      im2col_box = m.mode == TensorMode::im2col;
      if (wide && !im2col_box) {  // the wide DUT's pieces: up to 8 per beat, never across a row
        const size_t per_row = static_cast<size_t>(m.inner_row_bytes() / 16);
        std::vector<Beat> all = expected_beats(m, ins);
        for (size_t row = 0; row < all.size(); row += per_row)
          for (size_t k = row; k < row + per_row; k += 8)
            want_wide.emplace_back(all.begin() + k, all.begin() + std::min(row + per_row, k + 8));
      }
      std::vector<Beat> beats = expected_beats(m, ins);
      if (getenv("AGU_DEBUG") && n == atoi(getenv("AGU_DEBUG"))) {
        std::printf("box %d: rank %d dims", n, m.rank);
        for (auto d : m.global_dims) std::printf(" %lld", (long long)d);
        std::printf(" lo");
        for (auto d : m.lower_corner) std::printf(" %lld", (long long)d);
        std::printf(" up");
        for (auto d : m.upper_corner) std::printf(" %lld", (long long)d);
        std::printf(" es");
        for (auto d : m.element_strides) std::printf(" %lld", (long long)d);
        std::printf(" ppc %lld cpp %lld coords", (long long)m.pixels_per_column, (long long)m.channels_per_pixel);
        for (auto d : ins.coords) std::printf(" %d", d);
        std::printf(" off");
        for (auto d : ins.im2col_offsets) std::printf(" %d", d);
        std::printf("\n");
        for_each_row(m, ins, [&](const BoxRow& row) {
          std::printf("  row coord %lld %lld %lld %lld inb %d off %lld\n", (long long)row.coord[0], (long long)row.coord[1],
                      (long long)row.coord[2], (long long)row.coord[3], row.row_in_bounds, (long long)row.global_offset);
        });
      }
      note_coverage(m, ins, beats);
      want.assign(beats.begin(), beats.end());
      box_failed = false;
      rank = m.rank;
      const int unit = m.row_unit_bytes();
      elem_log2 = unit == 1 ? 0 : unit == 2 ? 1 : unit == 4 ? 2 : unit == 8 ? 3 : unit == 16 ? 4 : 5;
      es0 = m.interleave != Interleave::none ? static_cast<uint32_t>(m.element_strides[0]) : 1;
      swizzle = static_cast<uint32_t>(m.swizzle);
      gbase = m.global_address;
      smem_base = ins.smem_offset;
      row_pitch = static_cast<uint32_t>(m.smem_row_pitch());
      row_beats = static_cast<uint32_t>(m.inner_row_bytes() / 16);
      for (int d = 0; d < 5; ++d) {
        dim[d] = d < m.rank ? static_cast<uint64_t>(m.global_dims[d]) : 1;
        c[d] = d < m.rank ? static_cast<uint32_t>(ins.coords[d]) : 0;
      }
      for (int d = 0; d < 4; ++d) {
        const bool used = d + 1 < m.rank;
        stride[d] = used ? static_cast<uint64_t>(m.global_strides[d]) : 0;
        ext[d] = used ? static_cast<uint32_t>(m.box_extent(d + 1)) : 1;
        es[d] = used ? static_cast<uint32_t>(m.element_strides[d + 1]) : 1;
      }
      if (im2col_box) {
        const int ns = m.rank - 2;
        row_beats = static_cast<uint32_t>(m.inner_row_bytes() / 16);
        i_pixels = static_cast<uint32_t>(m.pixels_per_column);
        for (int i = 0; i < 3; ++i) {
          const bool used = i < ns;
          i_sdim[i] = used ? static_cast<uint64_t>(m.global_dims[i + 1]) : 1;
          i_sstride[i] = used ? static_cast<uint64_t>(m.global_strides[i]) : 0;
          i_lo[i] = used ? static_cast<uint32_t>(m.lower_corner[i]) : 0;
          constexpr uint64_t kHiMask = (uint64_t(1) << 34) - 1;  // a 34-bit signed port
          i_hi[i] = used ? static_cast<uint64_t>(m.global_dims[i + 1] - 1 + m.upper_corner[i]) & kHiMask : 0;
          i_ses[i] = used ? static_cast<uint32_t>(m.element_strides[i + 1]) : 1;
          i_off[i] = used ? static_cast<uint32_t>(ins.im2col_offsets[i]) : 0;
          i_p[i] = used ? static_cast<uint32_t>(ins.coords[i + 1]) : 0;
        }
        i_ndim = static_cast<uint64_t>(m.global_dims[m.rank - 1]);
        i_nstride = static_cast<uint64_t>(m.global_strides[m.rank - 2]);
        i_nes = static_cast<uint32_t>(m.element_strides[m.rank - 1]);
        i_n = static_cast<uint32_t>(ins.coords[m.rank - 1]);
        c[0] = static_cast<uint32_t>(ins.coords[0]);
        i_cmd_valid = true;
        do wait(); while (!i_cmd_ready.read());
        i_cmd_valid = false;
      } else {
        cmd_valid = true;
        do wait(); while (!cmd_ready.read());
        cmd_valid = false;
      }
      wait(box_done);
      ++boxes_done;
      if (box_failed) ++box_failures;
    }
    sc_stop();
  }

  void monitor_wide() {
    if (!wide || !w_beat_valid.read()) return;
    constexpr uint64_t kAddrMask = (uint64_t(1) << 48) - 1;
    if (want_wide.empty()) {
      ++wide_failures;
      return;
    }
    const std::vector<Beat> w = want_wide.front();
    want_wide.pop_front();
    const sc_dt::sc_bv<8 * 18> smem = w_beat_smem.read();
    const sc_dt::sc_bv<8 * 48> gaddr = w_beat_gaddr.read();
    const sc_dt::sc_bv<8 * 16> oob = w_beat_oob.read();
    bool ok = w_beat_chunks.read() == w.size() && w_beat_last.read() == w.back().last;
    for (size_t j = 0; j < w.size(); ++j) {
      ok &= smem.range(18 * j + 17, 18 * j).to_uint() == w[j].smem;
      ok &= gaddr.range(48 * j + 47, 48 * j).to_uint64() == (w[j].gaddr & kAddrMask);
      ok &= oob.range(16 * j + 15, 16 * j).to_uint() == w[j].oob;
    }
    ++wide_beats_checked;
    if (!ok && ++wide_failures <= 5)
      std::printf("FAIL wide beat of box %d: %u pieces (model %zu)\n", boxes_done, w_beat_chunks.read(), w.size());
  }

  void monitor() {
    ++cycles;
    monitor_wide();
    static uint64_t lfsr = 0xace1u;
    lfsr = (lfsr >> 1) ^ (-(lfsr & 1u) & 0xd0000001u);
    const bool valid = im2col_box ? i_beat_valid.read() : beat_valid.read(), ready = beat_ready.read();
    const uint32_t got_smem = im2col_box ? i_beat_smem.read() : beat_smem.read();
    const uint64_t got_gaddr = im2col_box ? i_beat_gaddr.read() : beat_gaddr.read();
    const uint32_t got_oob = im2col_box ? i_beat_oob.read() : beat_oob.read();
    const bool got_last = im2col_box ? i_beat_last.read() : beat_last.read();
    if (valid && !ready) {
      ++stalls;
      cov.hit("back-pressure stall");
    }
    if (valid && ready) {
      if (want.empty()) {
        if (!box_failed) std::printf("FAIL: a beat the model did not expect (gaddr 0x%llx)\n", (unsigned long long)got_gaddr);
        box_failed = true;
      } else {
        const Beat w = want.front();
        want.pop_front();
        constexpr uint64_t kAddrMask = (uint64_t(1) << 48) - 1;  // the RTL's AddrWidth
        const bool ok = got_smem == w.smem && got_gaddr == (w.gaddr & kAddrMask) && got_oob == w.oob && got_last == w.last;
        ++beats_checked;
        if (getenv("AGU_DEBUG") && atoi(getenv("AGU_DEBUG")) == boxes_done)
          std::printf("  beat: rtl smem 0x%x gaddr 0x%llx oob 0x%04x | model 0x%x 0x%llx 0x%04x\n", got_smem,
                      (unsigned long long)got_gaddr, got_oob, w.smem, (unsigned long long)(w.gaddr & kAddrMask), w.oob);
        if (!ok && !box_failed && box_failures < 10)
          std::printf("FAIL box %d (%s) beat: rtl smem 0x%x gaddr 0x%llx oob 0x%04x last %d; model 0x%x 0x%llx 0x%04x %d\n",
                      boxes_done, im2col_box ? "im2col" : "tiled", got_smem, (unsigned long long)got_gaddr, got_oob,
                      got_last, w.smem, (unsigned long long)(w.gaddr & kAddrMask), w.oob, w.last);
        if (!ok) box_failed = true;
        if (got_last || w.last) {
          if (!want.empty() || !got_last || !w.last) box_failed = true;
          box_done.notify(SC_ZERO_TIME);
        }
      }
    }
    beat_ready = (lfsr & 3u) != 0;  // ready three cycles in four, pseudo-randomly
    w_ready = true;
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  Verilated::commandArgs(argc, argv);
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  int boxes = 100000;
  uint64_t seed = 1;
  std::string trace, golden_file;
  bool with_wide = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--boxes") && i + 1 < argc) boxes = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--trace") && i + 1 < argc) trace = argv[++i];
    else if (!std::strcmp(argv[i], "--golden") && i + 1 < argc) golden_file = argv[++i];
    else if (!std::strcmp(argv[i], "--wide")) with_wide = true;
  }
  // Golden cases: every load (tiled, interleaved, im2col) the H100 completed.
  std::vector<std::pair<TensorMap, TmaInstruction>> golden;
  int not_in_rtl = 0;
  if (!golden_file.empty()) {
    for_each_json_line(golden_file, [&](const nlohmann::json& c, int) {
      if (c.value("op", "") != "load" || !c.contains("expected_smem_hex") || c.contains("multicast_ctas")) return;
      TensorMap m = parse_tensor_map(c["tensor_map"]);
      if (m.mode == TensorMode::im2col && m.interleave != Interleave::none) {
        ++not_in_rtl;  // the im2col RTL walks plain layouts only (issue 13)
        return;
      }
      m.global_address = static_cast<uint64_t>(c.value("global_base_offset", 0));
      TmaInstruction ins;
      for (int64_t v : require_ints(c, "coords")) ins.coords.push_back(static_cast<int32_t>(v));
      if (c.contains("im2col_offsets"))
        for (int64_t v : require_ints(c, "im2col_offsets")) ins.im2col_offsets.push_back(static_cast<int32_t>(v));
      ins.smem_offset = static_cast<uint32_t>(require_int(c, "smem_offset"));
      golden.emplace_back(m, ins);
    });
    boxes = static_cast<int>(golden.size());
    std::printf("%d golden cases", boxes);
    if (not_in_rtl) std::printf(" (%d interleaved im2col loads left out: rtl/tma_agu_im2col.sv walks plain layouts)", not_in_rtl);
    std::printf("\n");
  }
  sc_clock clk("clk", 1, SC_NS);
  Bench bench("bench", with_wide);
  bench.clk(clk);
  bench.boxes = boxes;
  bench.seed = seed;
  bench.golden = std::move(golden);
  sc_trace_file* tf = nullptr;
  if (!trace.empty()) {
    std::string base = trace.size() > 4 && trace.substr(trace.size() - 4) == ".vcd" ? trace.substr(0, trace.size() - 4) : trace;
    tf = sc_create_vcd_trace_file(base.c_str());
    sc_trace(tf, clk, "clk");
    sc_trace(tf, bench.cmd_valid, "cmd_valid");
    sc_trace(tf, bench.cmd_ready, "cmd_ready");
    sc_trace(tf, bench.beat_valid, "beat_valid");
    sc_trace(tf, bench.beat_ready, "beat_ready");
    sc_trace(tf, bench.beat_smem, "beat_smem_addr");
    sc_trace(tf, bench.beat_gaddr, "beat_gaddr");
    sc_trace(tf, bench.beat_oob, "beat_oob");
    sc_trace(tf, bench.beat_last, "beat_last");
  }
  const auto t0 = std::chrono::steady_clock::now();
  sc_start();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (tf) sc_close_vcd_trace_file(tf);
  bench.dut.final();
  std::printf("functional coverage:\n");
  for (auto& [bin, n] : bench.cov.bins) std::printf("  %-32s %llu\n", bin.c_str(), (unsigned long long)n);
  std::printf("%llu beats checked over %llu cycles (%llu stalled); %.2f M cycles/s\n",
              (unsigned long long)bench.beats_checked, (unsigned long long)bench.cycles,
              (unsigned long long)bench.stalls, bench.cycles / secs / 1e6);
  if (with_wide)
    std::printf("128-byte variant: %llu wide beats checked, %d failed, %zu left unchecked\n",
                (unsigned long long)bench.wide_beats_checked, bench.wide_failures, bench.want_wide.size());
  const int failed = bench.box_failures + (bench.wide_failures || !bench.want_wide.empty() ? 1 : 0);
  std::printf("%d passed, %d failed\n", bench.boxes_done - bench.box_failures, failed);
  return failed || bench.boxes_done != boxes ? 1 : 0;
}
