// The TMA unit's address generator when tma.agu = "rtl": the Verilated RTL in the loop.
#include "tma_unit.hpp"

#ifdef TMASIM_HAVE_RTL_AGU
using sc_core::sc_time_stamp;  // verilated.h calls it unqualified once it sees SystemC
#include "Vtma_agu_cpp.h"
#include "tmasim/agu_command.hpp"
#include "Vtma_agu_im2col_cpp.h"
#include "Vtma_agu_im2col_wide_cpp.h"
#include "Vtma_agu_wide_cpp.h"
#include "verilated.h"
#endif

namespace tmasim::sc {

using namespace sc_core;

// The Verilated rtl/tma_agu.sv (or tma_agu_im2col.sv) as the address generator, 16 or 128 bytes
// per beat as tma.agu_bytes_per_cycle says: the command is driven into the RTL, its beats are
// collected (always ready) and grouped into rows, each stamped with the cycle its first beat left
// the generator, counted from the cycle the command was presented.
#ifdef TMASIM_HAVE_RTL_AGU
namespace {

// Bits [lo, lo + width) of a Verilated port: a plain integer or a VlWide of 32-bit words.
template <class T>
uint64_t port_bits(const T& v, int lo, int width) {
  const uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  if constexpr (std::is_integral_v<T>) {
    return lo >= 64 ? 0 : (static_cast<uint64_t>(v) >> lo) & mask;
  } else {
    unsigned __int128 acc = 0;
    const int w = lo / 32;
    constexpr int words = sizeof(v.m_storage) / sizeof(v.m_storage[0]);
    for (int k = 0; k < 3 && w + k < words; ++k) acc |= static_cast<unsigned __int128>(v.m_storage[w + k]) << (32 * k);
    return static_cast<uint64_t>(acc >> (lo % 32)) & mask;
  }
}

// Runs one command through a Verilated generator and fills `plans`: per row its pieces, its
// in-bound bytes and the cycle its first beat was taken; agu_end_cycle is the cycle after the last.
template <class Dut, class SetCommand>
void run_generator(Dut& agu, bool& reset, const TensorMap& m, SetCommand set_command, TmaUnit::RowPlans& plans) {
  auto tick = [&]() {
    agu.clk_i = 0;
    agu.eval();
    agu.clk_i = 1;
    agu.eval();
  };
  if (!reset) {
    agu.rst_ni = 0;
    tick();
    agu.rst_ni = 1;
    reset = true;
  }
  constexpr int64_t kMaxIdleCycles = 4096;  // set-up takes at most a few hundred cycles
  int64_t cycle = 0;
  set_command(agu);
  agu.beat_ready_i = 1;
  agu.cmd_valid_i = 1;
  for (;; ++cycle) {  // hold the command until the generator takes it
    agu.eval();
    const bool taken = agu.cmd_ready_o;
    tick();
    if (taken) break;
    if (cycle == kMaxIdleCycles) throw Error("RTL address generator never took the command");
  }
  agu.cmd_valid_i = 0;
  plans.clear();
  const int64_t pieces_per_row = m.inner_row_bytes() / 16;
  TmaUnit::RowPlan* row = nullptr;
  int64_t in_row = 0, first = -1, last = -1, idle = 0;
  uint64_t row_gaddr = 0;
  for (++cycle;; ++cycle) {
    agu.eval();
    if (!agu.beat_valid_o) {
      if (++idle > kMaxIdleCycles) throw Error("RTL address generator stopped before its last beat");
      tick();
      continue;
    }
    const int chunks = static_cast<int>(agu.beat_chunks_o);
    for (int j = 0; j < chunks; ++j) {
      if (in_row == 0) {
        row = &plans.add();
        row->agu_cycle = cycle;
        row_gaddr = port_bits(agu.beat_gaddr_o, 48 * j, 48);
      }
      plans.pieces.push_back(static_cast<uint32_t>(port_bits(agu.beat_smem_addr_o, 18 * j, 18)));
      const uint32_t oob = static_cast<uint32_t>(port_bits(agu.beat_oob_o, 16 * j, 16));
      for (int k = 0; k < 16; ++k)
        if (!(oob >> k & 1u)) {
          if (first < 0) first = in_row * 16 + k;
          last = in_row * 16 + k;
        }
      if (++in_row == pieces_per_row) {
        if (first >= 0) {
          row->gaddr = row_gaddr + static_cast<uint64_t>(first);
          row->bytes = last - first + 1;
        }
        in_row = 0;
        first = last = -1;
      }
    }
    const bool is_last = agu.beat_last_o;
    tick();
    if (is_last) break;
  }
  plans.agu_end_cycle = cycle + 1;
}

}  // namespace
#endif

const TmaUnit::RowPlans& TmaUnit::plan_rows_rtl(const TensorMap& m, const TmaInstruction& ins) {
  pattern_ = 0;
#ifdef TMASIM_HAVE_RTL_AGU
  static Vtma_agu_cpp tiled;
  static Vtma_agu_wide_cpp tiled_wide;
  static Vtma_agu_im2col_cpp im2col;
  static Vtma_agu_im2col_wide_cpp im2col_wide;
  static bool reset[4] = {};
  const bool is_im2col = m.mode == TensorMode::im2col;
  const bool wide = cfg_.agu_bytes_per_cycle == 128;
  auto tiled_cmd = [&](auto& agu) { drive_tiled(agu, tiled_agu_command(m, ins)); };
  auto im2col_cmd = [&](auto& agu) { drive_im2col(agu, im2col_agu_command(m, ins)); };
  if (!is_im2col && !wide) run_generator(tiled, reset[0], m, tiled_cmd, s_->plans);
  else if (!is_im2col) run_generator(tiled_wide, reset[1], m, tiled_cmd, s_->plans);
  else if (!wide) run_generator(im2col, reset[2], m, im2col_cmd, s_->plans);
  else run_generator(im2col_wide, reset[3], m, im2col_cmd, s_->plans);
  return s_->plans;
#else
  (void)m;
  (void)ins;
  throw Error("this build has no RTL address generator (Verilator was not found)");
#endif
}


}  // namespace tmasim::sc
