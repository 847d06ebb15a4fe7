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
// Its parts, in tb/agu/: stimulus.hpp (random boxes), model.hpp (what the C++ model expects),
// scoreboard.hpp (per DUT, every handshake checked), coverage.hpp (the testplan's bins),
// dut.hpp (the ports as signals); here, the Bench that drives, resets and reports.
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

#include "agu/coverage.hpp"
#include "agu/dut.hpp"
#include "agu/model.hpp"
#include "agu/scoreboard.hpp"
#include "agu/stimulus.hpp"

using namespace sc_core;
using namespace tmasim;

namespace {

using namespace agu_tb;

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
      note_box(cov, m, ins, rows);
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
    check_handshake(tiled, cycles, stalls, cov);
    check_handshake(im2col, cycles, stalls, cov);
    if (wide) {
      check_handshake(tiled_wide, cycles, stalls, cov);
      check_handshake(im2col_wide, cycles, stalls, cov);
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
