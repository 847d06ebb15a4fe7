// SystemC co-simulation bench for the address generators (Verilated with SYSTEMC output):
// rtl/tma_agu.sv (tiled, interleave included) and rtl/tma_agu_im2col.sv, each at 16 and, with
// --wide, 128 bytes per beat. Random boxes across the whole legal range (docs/rtl_testplan.md)
// or the H100 golden loads are driven back to back, every DUT under its own random
// back-pressure, with resets while boxes are in flight; a scoreboard per DUT checks every beat
// against the C++ model's traversal (tmasim::for_each_row), and the testplan's coverage bins
// are counted against their goals.
//   agu_tb [--boxes N] [--seed S] [--wide] [--golden file.jsonl.gz] [--trace waves.vcd]
//          [--reset-every N] [--coverage] [--list-bins]
// --coverage fails the run when a testplan bin is below its goal; --list-bins prints the bins.
// Ends with the coverage table, simulation speed, and "N passed, M failed" (boxes).
#include <systemc>

#include <array>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vtma_agu.h"
#include "Vtma_agu_im2col.h"
#include "Vtma_agu_im2col_wide.h"
#include "Vtma_agu_wide.h"
#include "tmasim/agu_command.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"
#include "verilated.h"

using namespace sc_core;
using namespace tmasim;

namespace {

constexpr int kSmemBits = 18, kAddrBits = 48;

struct Piece {
  uint32_t smem = 0;
  uint64_t gaddr = 0;
  uint32_t oob = 0;
};
struct Beat {  // what one handshake must carry
  std::vector<Piece> pieces;
  bool last = false;
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
  bool one_in(int n) { return next() % uint64_t(n) == 0; }
};

// The pieces the model says the generator must emit for this box, row by row.
std::vector<std::vector<Piece>> expected_rows(const TensorMap& m, const TmaInstruction& ins) {
  std::vector<std::vector<Piece>> rows;
  // Byte o of a row lies in unit o / unit, at coordinate c0 + unit index x its step.
  const int unit = m.row_unit_bytes();
  const int64_t row_bytes = m.inner_row_bytes();
  for_each_row(m, ins, [&](const BoxRow& r) {
    std::vector<Piece>& row = rows.emplace_back();
    for (int64_t k = 0; k < row_bytes / 16; ++k) {
      Piece p;
      const int64_t o = 16 * k;
      p.smem = swizzle_address(m.swizzle, static_cast<uint32_t>(r.smem_offset + o));
      p.gaddr = (m.global_address + static_cast<uint64_t>(r.global_offset) +
                 static_cast<uint64_t>((o / unit) * r.element_step * unit + o % unit)) & kAguAddrMask;
      for (int byte = 0; byte < 16; ++byte) {
        const int64_t x = r.coord[0] + ((o + byte) / unit) * r.element_step;
        if (!r.row_in_bounds || x < 0 || x >= m.global_dims[0]) p.oob |= 1u << byte;
      }
      row.push_back(p);
    }
  });
  return rows;
}

// Beats of a generator moving `chunks` pieces per beat: never across a row.
std::vector<Beat> group_beats(const std::vector<std::vector<Piece>>& rows, size_t chunks) {
  std::vector<Beat> beats;
  for (const auto& row : rows)
    for (size_t k = 0; k < row.size(); k += chunks)
      beats.push_back(Beat{std::vector<Piece>(row.begin() + k, row.begin() + std::min(row.size(), k + chunks)), false});
  if (!beats.empty()) beats.back().last = true;
  return beats;
}

// ---- the testplan's coverage bins (docs/rtl_testplan.md lists the same names and goals)
struct Coverage {
  std::vector<std::pair<std::string, uint64_t>> plan;  // bin, goal
  std::map<std::string, uint64_t> hits;
  Coverage() {
    auto bin = [&](const std::string& b, uint64_t goal) { plan.emplace_back(b, goal); };
    for (int r = 1; r <= 5; ++r) bin("tiled.rank." + std::to_string(r), 100);
    for (const char* u : {"1", "2", "4", "8", "16i", "32i"}) bin(std::string("tiled.unit.") + u, 100);
    for (const char* s : {"none", "32B", "64B", "128B"}) bin(std::string("tiled.swizzle.") + s, 100);
    bin("tiled.swizzle.atom", 20);
    for (const char* b : {"1", "mid", "128"}) bin(std::string("tiled.row_beats.") + b, 10);
    for (const char* b : {"1", "mid", "256"}) bin(std::string("tiled.box_extent.") + b, 10);
    for (const char* b : {"1", "mid", "8"}) bin(std::string("tiled.elem_stride.") + b, 10);
    bin("tiled.elem_stride0.interleave>1", 10);
    for (const char* b : {"1", "max"}) bin(std::string("tiled.dim.") + b, 10);
    for (const char* b : {"min", "max"}) bin(std::string("tiled.stride.") + b, 10);
    for (const char* b : {"min", "zero", "max"}) bin(std::string("tiled.coord.") + b, 10);
    for (const char* b : {"none", "dim0_low", "dim0_high", "outer_low", "outer_high", "whole_box"})
      bin(std::string("tiled.oob.") + b, 10);
    bin("tiled.gaddr_wraps_2^48", 10);
    for (int r = 3; r <= 5; ++r) bin("im2col.rank." + std::to_string(r), 100);
    for (const char* b : {"16B", "32B", "held_outside"}) bin(std::string("im2col.interleave.") + b, 50);
    for (const char* e : {"1", "2", "4", "8"}) bin(std::string("im2col.elem.") + e, 100);
    for (const char* s : {"none", "32B", "64B", "128B"}) bin(std::string("im2col.swizzle.") + s, 50);
    for (const char* b : {"1", "mid", "1024"}) bin(std::string("im2col.pixels.") + b, 10);
    for (const char* b : {"1", "mid", "8"}) bin(std::string("im2col.traversal_stride.") + b, 10);
    for (const char* b : {"w", "h", "d", "image"}) bin(std::string("im2col.wrap.") + b, 10);
    for (const char* b : {"none", "spatial_low", "spatial_high", "image_low", "image_high", "channel", "channel_low"})
      bin(std::string("im2col.oob.") + b, 10);
    for (const char* b : {"min", "max"}) bin(std::string("im2col.corner.") + b, 10);
    for (const char* b : {"0", "max"}) bin(std::string("im2col.offset.") + b, 10);
    bin("im2col.dim.max", 10);
    bin("im2col.channels.max", 10);
    bin("im2col.coord.max", 10);
    for (const char* lane : {"tiled", "tiled_wide", "im2col", "im2col_wide"}) {
      const std::string l = lane;
      bin("proto." + l + ".back_to_back", 10);
      bin("proto." + l + ".zero_bubble", 10);
      bin("proto." + l + ".stall", 100);
      bin("proto." + l + ".stall_on_last", 10);
      if (l.find("wide") != std::string::npos)
        for (const char* b : {"1", "mid", "8"}) bin("proto." + l + ".chunks." + b, 10);
    }
    bin("proto.reset_mid_box", 5);
    bin("proto.reset_in_setup", 5);
  }
  void hit(const std::string& b) { ++hits[b]; }
  // Bins below their goal (unknown bins are a bench bug: they count as missed).
  int missed(bool wide, bool print) const {
    int n = 0;
    for (const auto& [b, goal] : plan) {
      if (!wide && b.find("wide") != std::string::npos) continue;
      const auto it = hits.find(b);
      const uint64_t got = it == hits.end() ? 0 : it->second;
      const bool ok = got >= goal;
      if (print) std::printf("  %-40s %10llu  goal %4llu %s\n", b.c_str(), (unsigned long long)got,
                             (unsigned long long)goal, ok ? "" : "  <-- below goal");
      n += !ok;
    }
    for (const auto& [b, count] : hits) {
      bool known = false;
      for (const auto& p : plan) known |= p.first == b;
      if (!known) {
        if (print) std::printf("  %-40s %10llu  NOT IN THE TESTPLAN\n", b.c_str(), (unsigned long long)count);
        ++n;
      }
    }
    return n;
  }
};

std::string mid_bin(int64_t v, int64_t lo, int64_t hi, const std::string& lo_name, const std::string& hi_name) {
  return v <= lo ? lo_name : v >= hi ? hi_name : "mid";
}

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

// One DUT's handshakes and outputs; S, G, O are the Verilated port types of its piece vectors.
template <class S, class G, class O>
struct Lane {
  std::string name;
  size_t chunks = 1;
  sc_signal<bool> cmd_valid, cmd_ready, valid, ready, last;
  sc_signal<S> smem;
  sc_signal<G> gaddr;
  sc_signal<O> oob;
  sc_signal<uint32_t> nchunks;
  // scoreboard
  std::deque<std::vector<Beat>> boxes;  // boxes taken, beats still expected
  size_t pos = 0;                       // next beat of boxes.front()
  bool failed = false;
  int done = 0, failures = 0;
  uint64_t beats = 0, last_beat_cycle = UINT64_MAX - 1, accepted_cycle = 0;
  uint32_t lfsr;
  Lane(const std::string& n, size_t c, uint32_t seed) : name(n), chunks(c), lfsr(seed) {}

  static uint64_t field(uint64_t v, int j, int bits) { return bits * j >= 64 ? 0 : (v >> (bits * j)) & ((uint64_t(1) << bits) - 1); }
  template <int W>
  static uint64_t field(const sc_dt::sc_bv<W>& v, int j, int bits) { return v.range(bits * j + bits - 1, bits * j).to_uint64(); }
};
using NarrowLane = Lane<uint32_t, uint64_t, uint32_t>;
using WideLane = Lane<sc_dt::sc_bv<8 * kSmemBits>, sc_dt::sc_bv<8 * kAddrBits>, sc_dt::sc_bv<8 * 16>>;

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

SC_MODULE(Bench) {
  sc_in<bool> clk;
  sc_signal<bool> rst_n{"rst_n"};
  TiledCmd tc;
  Im2colCmd ic;
  NarrowLane tiled{"tiled", 1, 0xace1u}, im2col{"im2col", 1, 0x1d872bu};
  WideLane tiled_wide{"tiled_wide", 8, 0x3c5a9u}, im2col_wide{"im2col_wide", 8, 0x7713u};
  Vtma_agu dut_tiled{"dut_tiled"};
  Vtma_agu_im2col dut_im2col{"dut_im2col"};
  std::unique_ptr<Vtma_agu_wide> dut_tiled_wide;
  std::unique_ptr<Vtma_agu_im2col_wide> dut_im2col_wide;
  bool wide = false;

  int boxes = 100000;
  uint64_t seed = 1;
  int reset_every = 0;  // about one reset per this many boxes (0: none)
  std::vector<std::pair<TensorMap, TmaInstruction>> golden;  // when set: these boxes instead of random ones
  uint64_t cycles = 0, stalls = 0;
  int resets = 0, abandoned = 0;
  int reset_in = -1;             // cycles until the monitor asserts reset
  int reset_hold = 2;  // rst_n starts low; the monitor alone drives it
  bool just_released = false;
  bool driver_done = false;
  Coverage cov;

  SC_HAS_PROCESS(Bench);
  Bench(sc_module_name n, bool with_wide) : sc_module(n), wide(with_wide) {
    bind_tiled(dut_tiled, clk, rst_n, tc, tiled);
    bind_im2col(dut_im2col, clk, rst_n, ic, im2col);
    if (wide) {
      dut_tiled_wide = std::make_unique<Vtma_agu_wide>("dut_tiled_wide");
      dut_im2col_wide = std::make_unique<Vtma_agu_im2col_wide>("dut_im2col_wide");
      bind_tiled(*dut_tiled_wide, clk, rst_n, tc, tiled_wide);
      bind_im2col(*dut_im2col_wide, clk, rst_n, ic, im2col_wide);
    }
    SC_THREAD(drive);
    sensitive << clk.pos();
    SC_METHOD(monitor);
    sensitive << clk.pos();
    dont_initialize();
  }

  // ---- random boxes; what the validator or the hardware refuses is drawn again
  static bool legal(const TensorMap& m, const TmaInstruction& ins) {
    if (validate(m)) return false;
    try {
      check_instruction(m, ins);
    } catch (const Error&) {
      return false;
    }
    return ins.smem_offset + m.smem_footprint() <= 233472;  // fits an H100's shared memory
  }

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
  bool random_extreme_box(Rng& r, TensorMap& m, TmaInstruction& ins) {
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

  bool random_interleaved(Rng& r, TensorMap& m, TmaInstruction& ins) {
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
  bool random_im2col(Rng& r, TensorMap& m, TmaInstruction& ins, bool extreme) {
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
  bool random_im2col_interleaved(Rng& r, TensorMap& m, TmaInstruction& ins) {
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

  // ---- coverage of a box (from the map, the instruction and the model's rows)
  void note_box(const TensorMap& m, const TmaInstruction& ins, const std::vector<std::vector<Piece>>& rows) {
    auto oob_kinds = [&]() {
      bool any = false, all = true;
      for (const auto& row : rows)
        for (const Piece& p : row) {
          any |= p.oob != 0;
          all &= p.oob == 0xffffu;
        }
      return std::pair<bool, bool>{any, all};
    };
    const auto [any_oob, all_oob] = oob_kinds();
    if (m.mode == TensorMode::im2col) {
      const int ns = m.rank - 2;
      const int eb = m.elem_bytes();
      cov.hit("im2col.rank." + std::to_string(m.rank));
      if (m.interleave != Interleave::none) {
        cov.hit(std::string("im2col.interleave.") + (m.interleave == Interleave::b16 ? "16B" : "32B"));
        const int h = m.rank - 2;
        if (ins.coords[h] < 0 || ins.coords[h] >= m.global_dims[h]) cov.hit("im2col.interleave.held_outside");
      }
      cov.hit("im2col.elem." + std::to_string(eb));
      cov.hit("im2col.swizzle." + std::string(m.swizzle == Swizzle::none ? "none" : m.swizzle == Swizzle::b32 ? "32B"
                                                : m.swizzle == Swizzle::b64 ? "64B" : "128B"));
      cov.hit("im2col.pixels." + mid_bin(m.pixels_per_column, 1, 1024, "1", "1024"));
      for (int d = 1; d < m.rank; ++d) cov.hit("im2col.traversal_stride." + mid_bin(m.element_strides[d], 1, 8, "1", "8"));
      const int64_t limit = m.rank == 3 ? 32768 : m.rank == 4 ? 128 : 16;
      for (int i = 0; i < ns; ++i) {
        for (int64_t v : {m.lower_corner[i], m.upper_corner[i]}) {
          if (v == -limit) cov.hit("im2col.corner.min");
          if (v == limit - 1) cov.hit("im2col.corner.max");
        }
        if (ins.im2col_offsets[i] == 0) cov.hit("im2col.offset.0");
        if (ins.im2col_offsets[i] >= 65000) cov.hit("im2col.offset.max");
        if (m.global_dims[i + 1] >= (int64_t(1) << 32) - 65536) cov.hit("im2col.dim.max");
        if (ins.coords[i + 1] >= INT32_MAX - 65536) cov.hit("im2col.coord.max");
      }
      // What the walk did, from the model's rows: wraps, and which side a pixel fell off.
      std::array<int64_t, 5> prev{};
      bool first = true;
      const char* wrap_name[] = {"w", "h", "d"};
      const int n_dim = m.rank - 1;
      int64_t k = 0;
      for_each_row(m, ins, [&](const BoxRow& row) {
        if (!first) {
          for (int i = 0; i < ns; ++i)
            if (row.coord[i + 1] < prev[i + 1]) cov.hit(std::string("im2col.wrap.") + wrap_name[i]);
          if (row.coord[n_dim] != prev[n_dim]) cov.hit("im2col.wrap.image");
        }
        first = false;
        prev = row.coord;
        for (int i = 0; i < ns; ++i) {
          if (row.coord[i + 1] < 0) cov.hit("im2col.oob.spatial_low");
          if (row.coord[i + 1] >= m.global_dims[i + 1]) cov.hit("im2col.oob.spatial_high");
        }
        if (row.coord[n_dim] < 0) cov.hit("im2col.oob.image_low");
        if (row.coord[n_dim] >= m.global_dims[n_dim]) cov.hit("im2col.oob.image_high");
        if (row.row_in_bounds && ins.coords[0] + m.channels_per_pixel > m.global_dims[0]) cov.hit("im2col.oob.channel");
        ++k;
      });
      if (!any_oob) cov.hit("im2col.oob.none");
      if (m.global_dims[0] >= (int64_t(1) << 32) - 65536) cov.hit("im2col.channels.max");
      if (ins.coords[0] < 0) cov.hit("im2col.oob.channel_low");
      return;
    }
    cov.hit("tiled.rank." + std::to_string(m.rank));
    const int unit = m.row_unit_bytes();
    cov.hit("tiled.unit." + std::to_string(unit) + (m.interleave != Interleave::none ? "i" : ""));
    cov.hit("tiled.swizzle." + std::string(m.swizzle == Swizzle::none ? "none" : m.swizzle == Swizzle::b32 ? "32B"
                                           : m.swizzle == Swizzle::b64 ? "64B" : m.swizzle == Swizzle::b128 ? "128B"
                                                                                                           : "atom"));
    cov.hit("tiled.row_beats." + mid_bin(m.inner_row_bytes() / 16, 1, 128, "1", "128"));
    if (m.interleave != Interleave::none && m.element_strides[0] > 1) cov.hit("tiled.elem_stride0.interleave>1");
    for (int d = 0; d < m.rank; ++d) {
      if (m.global_dims[d] == 1) cov.hit("tiled.dim.1");
      if (m.global_dims[d] >= (int64_t(1) << 32) - 65536) cov.hit("tiled.dim.max");
      if (ins.coords[d] <= INT32_MIN + 65536) cov.hit("tiled.coord.min");
      if (ins.coords[d] == 0) cov.hit("tiled.coord.zero");
      if (ins.coords[d] >= INT32_MAX - 65536) cov.hit("tiled.coord.max");
      if (d == 0) continue;
      cov.hit("tiled.box_extent." + mid_bin(m.box_dims[d], 1, 256, "1", "256"));
      cov.hit("tiled.elem_stride." + mid_bin(m.element_strides[d], 1, 8, "1", "8"));
      if (m.global_strides[d - 1] == 16) cov.hit("tiled.stride.min");
      if (m.global_strides[d - 1] >= (int64_t(1) << 40) - (int64_t(1) << 24)) cov.hit("tiled.stride.max");
      if (ins.coords[d] < 0) cov.hit("tiled.oob.outer_low");
      if (ins.coords[d] + (m.box_extent(d) - 1) * m.element_strides[d] >= m.global_dims[d]) cov.hit("tiled.oob.outer_high");
    }
    if (ins.coords[0] < 0) cov.hit("tiled.oob.dim0_low");
    const int64_t step0 = m.interleave == Interleave::none ? 1 : m.element_strides[0];
    if (ins.coords[0] + (m.box_extent(0) - 1) * step0 >= m.global_dims[0]) cov.hit("tiled.oob.dim0_high");
    if (all_oob) cov.hit("tiled.oob.whole_box");
    if (!any_oob) cov.hit("tiled.oob.none");
    bool wraps = false;  // some piece's address went past 2^48 (model arithmetic is 64-bit)
    for_each_row(m, ins, [&](const BoxRow& row) {
      const uint64_t a = m.global_address + static_cast<uint64_t>(row.global_offset);
      wraps |= (a >> 48) != 0 && (a >> 63) == 0;
    });
    if (wraps) cov.hit("tiled.gaddr_wraps_2^48");
  }

  // ---- driving
  template <class L>
  void push_box(L& lane, const std::vector<std::vector<Piece>>& rows) {
    if (!lane.boxes.empty() || lane.valid.read()) cov.hit("proto." + lane.name + ".back_to_back");
    lane.boxes.push_back(group_beats(rows, lane.chunks));
    lane.accepted_cycle = cycles;
  }

  void drive() {
    Rng r{seed};
    for (int i = 0; i < 4; ++i) wait();  // the monitor holds reset for the first cycles
    for (int n = 0; n < boxes; ++n) {
      TensorMap m;
      TmaInstruction ins;
      if (!golden.empty()) {
        m = golden[n].first;
        ins = golden[n].second;
      } else {
        const int64_t kind = r.range(0, 19);
        if (kind < 8) while (!random_box(r, m, ins)) {}
        else if (kind < 11) while (!random_extreme_box(r, m, ins)) {}
        else if (kind < 13) while (!random_interleaved(r, m, ins)) {}
        else if (kind < 16) while (!random_im2col(r, m, ins, false)) {}
        else if (kind < 17) while (!random_im2col_interleaved(r, m, ins)) {}
        else while (!random_im2col(r, m, ins, true)) {}
      }
      const bool is_im2col = m.mode == TensorMode::im2col;
      const auto rows = expected_rows(m, ins);
      note_box(m, ins, rows);
      if (is_im2col) set_im2col(m, ins);
      else set_tiled(m, ins);
      // Hold the command until every DUT of its kind has taken it.
      bool need_narrow = true, need_wide = wide;
      auto& nl = is_im2col ? im2col : tiled;
      nl.cmd_valid = true;
      if (wide) (is_im2col ? im2col_wide.cmd_valid : tiled_wide.cmd_valid) = true;
      while (need_narrow || need_wide) {
        wait();
        if (need_narrow && nl.cmd_ready.read()) {
          need_narrow = false;
          nl.cmd_valid = false;
          push_box(nl, rows);
        }
        if (need_wide) {
          auto take = [&](auto& wl) {
            if (!wl.cmd_ready.read()) return;
            need_wide = false;
            wl.cmd_valid = false;
            push_box(wl, rows);
          };
          if (is_im2col) take(im2col_wide);
          else take(tiled_wide);
        }
      }
      // Mostly back to back; sometimes a gap, sometimes a reset a few cycles on (while boxes are
      // in flight or the next command is in set-up; a command not yet taken is offered again).
      if (reset_every > 0 && r.one_in(reset_every) && reset_in < 0) reset_in = static_cast<int>(r.range(0, 40));
      const int gap = r.one_in(4) ? static_cast<int>(r.range(1, 30)) : 0;
      for (int g = 0; g < gap || reset_hold > 0; ++g) wait();
    }
    // Drain: every expected beat must come within a bounded time.
    for (uint64_t idle = 0; idle < 100000; ++idle) {
      if (tiled.boxes.empty() && im2col.boxes.empty() && tiled_wide.boxes.empty() && im2col_wide.boxes.empty()) break;
      wait();
    }
    driver_done = true;
    sc_stop();
  }

  void set_tiled(const TensorMap& m, const TmaInstruction& ins) { drive_tiled(tc, tiled_agu_command(m, ins)); }
  void set_im2col(const TensorMap& m, const TmaInstruction& ins) { drive_im2col(ic, im2col_agu_command(m, ins)); }

  // ---- checking: one handshake of one DUT against its scoreboard
  template <class L>
  void check(L& l) {
    const bool valid = l.valid.read(), ready = l.ready.read();
    if (valid && !ready) {
      ++stalls;
      cov.hit("proto." + l.name + ".stall");
      if (l.last.read()) cov.hit("proto." + l.name + ".stall_on_last");
    }
    if (valid && ready) {
      ++l.beats;
      if (l.boxes.empty()) {
        if (l.failures++ < 5) std::printf("FAIL %s: a beat the model did not expect (cycle %llu)\n", l.name.c_str(),
                                          (unsigned long long)cycles);
        return;
      }
      const std::vector<Beat>& box = l.boxes.front();
      const Beat& want = box[l.pos];
      if (l.pos == 0 && l.last_beat_cycle + 1 == cycles) cov.hit("proto." + l.name + ".zero_bubble");
      const uint32_t got_chunks = l.nchunks.read();
      if (l.chunks > 1) cov.hit("proto." + l.name + ".chunks." + mid_bin(got_chunks, 1, 8, "1", "8"));
      bool ok = got_chunks == want.pieces.size() && l.last.read() == want.last;
      const auto smem = l.smem.read();
      const auto gaddr = l.gaddr.read();
      const auto oob = l.oob.read();
      for (size_t j = 0; j < want.pieces.size() && j < 8; ++j) {
        const Piece got{static_cast<uint32_t>(L::field(smem, static_cast<int>(j), kSmemBits)),
                        L::field(gaddr, static_cast<int>(j), kAddrBits),
                        static_cast<uint32_t>(L::field(oob, static_cast<int>(j), 16))};
        const Piece& w = want.pieces[j];
        if (got.smem != w.smem || got.gaddr != w.gaddr || got.oob != w.oob) {
          if (!l.failed && l.failures < 10)
            std::printf("FAIL %s box %d beat %zu piece %zu: rtl smem 0x%x gaddr 0x%llx oob 0x%04x; model 0x%x 0x%llx 0x%04x\n",
                        l.name.c_str(), l.done, l.pos, j, got.smem, (unsigned long long)got.gaddr, got.oob, w.smem,
                        (unsigned long long)w.gaddr, w.oob);
          ok = false;
        }
      }
      if (!ok && !l.failed && l.failures < 10 && (got_chunks != want.pieces.size() || l.last.read() != want.last))
        std::printf("FAIL %s box %d beat %zu: %u pieces, last %d; model %zu, %d\n", l.name.c_str(), l.done, l.pos,
                    got_chunks, int(l.last.read()), want.pieces.size(), int(want.last));
      l.failed |= !ok;
      if (++l.pos == box.size() || l.last.read()) {
        l.failures += l.failed || l.pos != box.size();
        ++l.done;
        l.failed = false;
        l.pos = 0;
        l.boxes.pop_front();
        l.last_beat_cycle = cycles;
      }
    }
  }

  // Back-pressure in runs: a DUT giving beats is stalled 1 cycle in 8 (for a geometric 1-3
  // cycles), so ready is high about 4 cycles in 5 and changes every 5 cycles on average; an idle
  // DUT stays ready. (Each change re-evaluates the DUT's input logic: most of the bench's time.)
  template <class L>
  void next_ready(L& l) {
    l.lfsr = (l.lfsr >> 1) ^ (-(l.lfsr & 1u) & 0xd0000001u);
    const bool ready = l.ready.read();
    if (ready && !l.valid.read()) return;  // no beat to hold back: leave it ready
    if (ready && (l.lfsr & 7u) == 0) l.ready = false;
    else if (!ready && (l.lfsr & 1u)) l.ready = true;
  }

  template <class L>
  void abandon(L& l) {
    abandoned += static_cast<int>(l.boxes.size());
    l.boxes.clear();
    l.pos = 0;
    l.failed = false;
  }

  void monitor() {
    ++cycles;
    if (reset_hold > 0) {  // in reset: outputs are don't-care
      if (--reset_hold == 0) {
        rst_n = true;
        just_released = true;
      }
      return;
    }
    if (just_released) {  // the first cycle out of reset: no DUT gives a beat
      just_released = false;
      for (bool busy : {tiled.valid.read(), im2col.valid.read(), tiled_wide.valid.read(), im2col_wide.valid.read()})
        if (busy) {
          std::printf("FAIL: a DUT is not idle after reset (cycle %llu)\n", (unsigned long long)cycles);
          ++tiled.failures;
          break;
        }
    }
    check(tiled);
    check(im2col);
    if (wide) {
      check(tiled_wide);
      check(im2col_wide);
    }
    next_ready(tiled);
    next_ready(im2col);
    next_ready(tiled_wide);
    next_ready(im2col_wide);
    // Never on the edge of a command handshake: the driver would count a box the reset undid.
    // cmd_ready comes from registers, so the value read here is the one this edge sampled.
    bool handshake = false;
    for (auto* l : {&tiled, &im2col}) handshake |= l->cmd_valid.read() && l->cmd_ready.read();
    for (auto* l : {&tiled_wide, &im2col_wide}) handshake |= l->cmd_valid.read() && l->cmd_ready.read();
    if (reset_in > 0) --reset_in;
    if (reset_in == 0 && !handshake) {
      reset_in = -1;
      const bool mid_box = tiled.valid.read() || im2col.valid.read();
      const bool in_setup = tiled.cmd_valid.read() || im2col.cmd_valid.read();
      if (mid_box) cov.hit("proto.reset_mid_box");
      if (in_setup) cov.hit("proto.reset_in_setup");
      abandon(tiled);
      abandon(im2col);
      abandon(tiled_wide);
      abandon(im2col_wide);
      ++resets;
      rst_n = false;
      reset_hold = 2;
    }
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  Verilated::commandArgs(argc, argv);
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  int boxes = 100000, reset_every = 0;
  uint64_t seed = 1;
  std::string trace, golden_file;
  bool with_wide = false, require_coverage = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--boxes") && i + 1 < argc) boxes = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--trace") && i + 1 < argc) trace = argv[++i];
    else if (!std::strcmp(argv[i], "--golden") && i + 1 < argc) golden_file = argv[++i];
    else if (!std::strcmp(argv[i], "--reset-every") && i + 1 < argc) reset_every = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--wide")) with_wide = true;
    else if (!std::strcmp(argv[i], "--coverage")) require_coverage = true;
    else if (!std::strcmp(argv[i], "--list-bins")) {
      for (const auto& [bin, goal] : Coverage{}.plan) std::printf("%s %llu\n", bin.c_str(), (unsigned long long)goal);
      return 0;
    } else if (argv[i][0] == '+') {
      // Verilator's own +verilator+ options
    } else {
      std::fprintf(stderr, "agu_tb: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  // Golden cases: every load (tiled, interleaved, im2col) the H100 completed.
  std::vector<std::pair<TensorMap, TmaInstruction>> golden;
  if (!golden_file.empty()) {
    for_each_json_line(golden_file, [&](const nlohmann::json& c, int) {
      if (c.value("op", "") != "load" || !c.contains("expected_smem_hex") || c.contains("multicast_ctas")) return;
      TensorMap m = parse_tensor_map(c["tensor_map"]);
      m.global_address = static_cast<uint64_t>(c.value("global_base_offset", 0));
      TmaInstruction ins;
      for (int64_t v : require_ints(c, "coords")) ins.coords.push_back(static_cast<int32_t>(v));
      if (c.contains("im2col_offsets"))
        for (int64_t v : require_ints(c, "im2col_offsets")) ins.im2col_offsets.push_back(static_cast<int32_t>(v));
      ins.smem_offset = static_cast<uint32_t>(require_int(c, "smem_offset"));
      golden.emplace_back(m, ins);
    });
    boxes = static_cast<int>(golden.size());
    std::printf("%d golden cases\n", boxes);
  }
  sc_clock clk("clk", 1, SC_NS);
  Bench bench("bench", with_wide);
  bench.clk(clk);
  bench.boxes = boxes;
  bench.seed = seed;
  bench.reset_every = reset_every;
  bench.golden = std::move(golden);
  sc_trace_file* tf = nullptr;
  if (!trace.empty()) {
    std::string base = trace.size() > 4 && trace.substr(trace.size() - 4) == ".vcd" ? trace.substr(0, trace.size() - 4) : trace;
    tf = sc_create_vcd_trace_file(base.c_str());
    sc_trace(tf, clk, "clk");
    sc_trace(tf, bench.rst_n, "rst_n");
    for (auto* l : {&bench.tiled, &bench.im2col}) {
      sc_trace(tf, l->cmd_valid, l->name + ".cmd_valid");
      sc_trace(tf, l->cmd_ready, l->name + ".cmd_ready");
      sc_trace(tf, l->valid, l->name + ".beat_valid");
      sc_trace(tf, l->ready, l->name + ".beat_ready");
      sc_trace(tf, l->smem, l->name + ".beat_smem_addr");
      sc_trace(tf, l->gaddr, l->name + ".beat_gaddr");
      sc_trace(tf, l->oob, l->name + ".beat_oob");
      sc_trace(tf, l->last, l->name + ".beat_last");
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  sc_start();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (tf) sc_close_vcd_trace_file(tf);
  bench.dut_tiled.final();
#ifdef AGU_TB_COVERAGE
  const char* cov_file = std::getenv("AGU_COVERAGE_FILE");
  Verilated::threadContextp()->coveragep()->write(cov_file ? cov_file : "coverage.dat");
#endif
  std::printf("testplan coverage (docs/rtl_testplan.md):\n");
  const int missed = bench.cov.missed(with_wide, true);
  uint64_t beats = 0;
  int done = 0, failures = 0;
  auto sum = [&](const auto& l) {
    beats += l.beats;
    done += l.done;
    failures += l.failures;
    if (l.beats) std::printf("%-12s %8d boxes %10llu beats, %d failed\n", l.name.c_str(), l.done, (unsigned long long)l.beats, l.failures);
  };
  sum(bench.tiled);
  sum(bench.im2col);
  sum(bench.tiled_wide);
  sum(bench.im2col_wide);
  std::printf("%llu beats checked over %llu cycles (%llu stalled), %d resets (%d boxes abandoned); %.2f M cycles/s\n",
              (unsigned long long)beats, (unsigned long long)bench.cycles, (unsigned long long)bench.stalls, bench.resets,
              bench.abandoned, bench.cycles / secs / 1e6);
  const bool drained = bench.driver_done && bench.tiled.boxes.empty() && bench.im2col.boxes.empty() &&
                       bench.tiled_wide.boxes.empty() && bench.im2col_wide.boxes.empty();
  if (!drained) std::printf("FAIL: boxes still expected when the bench stopped (a DUT hung)\n");
  if (require_coverage && missed) std::printf("FAIL: %d testplan bins below their goal\n", missed);
  // Every box is counted once per DUT that walked it; a box fails if any DUT got it wrong.
  const int narrow_done = bench.tiled.done + bench.im2col.done;
  std::printf("%d passed, %d failed\n", narrow_done - bench.tiled.failures - bench.im2col.failures, failures);
  return failures || !drained || (require_coverage && missed) ? 1 : 0;
}
