#include "simulation.hpp"

#include <chrono>
#include <cstdio>
#include <sstream>

#include "clock.hpp"
#include "cta_thread.hpp"
#include "gpu.hpp"
#include "process_error.hpp"
#include "sm.hpp"
#include "trace.hpp"

namespace tmasim::sc {

using namespace sc_core;

namespace {

void simulate(const Experiment& e) {
  if (!e.progress) {
    sc_start();  // to the last event
    throw_process_error();
    return;
  }
  // Simulate in slices of a million cycles, reporting when the run takes a while.
  const auto wall0 = std::chrono::steady_clock::now();
  const sc_time slice = cycle_time(e.cfg) * 1e6;
  bool shown = false;
  do {
    sc_start(slice, SC_EXIT_ON_STARVATION);  // stops at the last event, not at the slice's end
    throw_process_error();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (secs > 1.0) {
      std::fprintf(stderr, "\r  simulated %.1f M cycles (%.1f s)", sc_time_stamp() / cycle_time(e.cfg) / 1e6, secs);
      shown = true;
    }
  } while (sc_pending_activity());
  if (shown) std::fprintf(stderr, "\r%60s\r", "");
}

// Runs the simulation to its last event, then one cycle more: the kernel traces a time step's
// values when time moves on, so the waveforms end with the last step's values, one cycle on.
void simulate_to_end(const Experiment& e) {
  simulate(e);
  sc_start(cycle_time(e.cfg));
  throw_process_error();
  announce_main_stack();  // later errors (a deadlock, an unwritable trace) throw from here on
}

// The VCD of each TMA unit's queue, every mbarrier's phase, the DRAM backlog and the threads
// still running; nullptr without a path.
sc_trace_file* open_vcd(const Experiment& e, Gpu& gpu) {
  if (e.vcd_path.empty()) return nullptr;
  std::string base = e.vcd_path;
  if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
  // SystemC opens the file inside sc_start, where its error would be thrown from the kernel's
  // start-up (under AddressSanitizer, with a coroutine's stack bounds): open it here first.
  if (std::FILE* f = std::fopen((base + ".vcd").c_str(), "w")) std::fclose(f);
  else throw Error("cannot write the waveform '" + base + ".vcd'");
  sc_trace_file* vcd = sc_create_vcd_trace_file(base.c_str());
  vcd->set_time_unit(1.0, SC_PS);
  for (const auto& cta : gpu.ctas()) {
    const std::string n = cta->tma().name();
    cta->tma().keep_waveform_values(true);
    sc_trace(vcd, cta->tma().occupancy, n + ".queue_occupancy");
    sc_trace(vcd, cta->tma().ops_in_flight(), n + ".ops_in_flight");
    sc_trace(vcd, cta->tma().bytes_in_flight(), n + ".bytes_in_flight");
  }
  for (const auto& cta : gpu.ctas()) {
    for (const auto& b : cta->barriers()) sc_trace(vcd, b->traced_phase(), std::string(b->name()) + ".phase");
    if (cta->sync()) sc_trace(vcd, cta->sync()->traced_phase(), std::string(cta->sync()->name()) + ".phase");
  }
  sc_trace(vcd, gpu.memory().hbm_backlog_cycles(), "memory.hbm_backlog_cycles");
  sc_trace(vcd, g_threads_running, "threads_running");
  return vcd;
}

// A run that stopped with threads still waiting did not finish: say who waits on what.
void check_finished(const Experiment& e, const Gpu& gpu) {
  std::ostringstream blocked;
  int stuck = 0;
  double last = 0;  // the last time anything happened
  for (const auto& cta : gpu.ctas()) {
    for (const auto& t : cta->threads()) last = std::max({last, t->end_cycles(), t->step_start_cycles()});
    last = std::max(last, cta->tma().last_done_cycles());
  }
  for (size_t c = 0; c < gpu.ctas().size(); ++c)
    for (size_t t = 0; t < gpu.ctas()[c]->threads().size(); ++t) {
      const CtaThread& thread = *gpu.ctas()[c]->threads()[t];
      if (!thread.finished() && stuck++ < 8)
        blocked << "\n  CTA " << c << " thread '" << e.ctas[c].threads[t].name << "' " << thread.blocked_on();
    }
  if (stuck > 0) {
    std::ostringstream os;
    os << "deadlock at cycle " << static_cast<long long>(last) << ": " << stuck
       << " thread(s) can no longer continue" << blocked.str() << (stuck > 8 ? "\n  ..." : "");
    throw Error(os.str());
  }
}

void measure(const Gpu& gpu, Measurement& out) {
  const size_t ctas = gpu.ctas().size();
  out.cta_end_cycles.assign(ctas, 0.0);
  out.thread_end_cycles.resize(ctas);
  out.stamps.resize(ctas);
  out.thread_split.resize(ctas);
  out.thread_names.resize(ctas);
  for (const Sm* sm : gpu.sms())
    if (sm->tensor_cores.busy_cycles() > 0) {
      out.tensor_busy_cycles += static_cast<double>(sm->tensor_cores.busy_cycles());
      ++out.tensor_sms;
    }
  for (size_t c = 0; c < ctas; ++c) {
    const Cta& cta = *gpu.ctas()[c];
    out.cta_start_cycles.push_back(cta.start_cycles());
    out.cta_sm.push_back(cta.sm());
    const std::vector<int> first_warp = first_warps(gpu.experiment().ctas[c]);
    out.stamps[c].resize(static_cast<size_t>(cta_warps(gpu.experiment().ctas[c])));
    for (size_t k = 0; k < cta.threads().size(); ++k) {
      const auto& t = cta.threads()[k];
      out.cta_end_cycles[c] = std::max(out.cta_end_cycles[c], t->end_cycles());
      out.thread_end_cycles[c].push_back(t->end_cycles());
      out.stamps[c][static_cast<size_t>(first_warp[k])] = t->stamps();  // by warp, as the GPU records them
      out.thread_split[c].push_back(t->split());
      out.thread_names[c].push_back(t->program_name());
      out.read_instructions += t->reads();
      out.read_wavefronts += t->read_wavefronts();
      out.read_ideal += t->read_ideal();
      out.mma_instructions += t->mma_instructions();
      out.mma_flops += t->mma_flops();
    }
    out.ops += cta.tma().ops();
    out.tma_bytes += cta.tma().bytes();
    out.max_queue = std::max(out.max_queue, cta.tma().max_queue());
  }
  for (double end : out.cta_end_cycles) out.end_cycles = std::max(out.end_cycles, end);
}

}  // namespace

const char* current_step_origin() { return g_current_origin; }

Measurement run_experiment(const Experiment& e) {
  process_error() = nullptr;  // none left from an earlier run in this process
  Measurement out;
  auto gpu = std::make_unique<Gpu>("gpu", e, &out);
  g_threads_running = 0;
  for (const auto& cta : gpu->ctas()) g_threads_running += static_cast<int>(cta->threads().size());
  sc_trace_file* vcd = open_vcd(e, *gpu);
  simulate_to_end(e);
  if (vcd) sc_close_vcd_trace_file(vcd);
  check_finished(e, *gpu);
  measure(*gpu, out);
  if (!e.perfetto_path.empty()) write_trace(e, *gpu);
  if (e.smem_out) {
    e.smem_out->clear();
    for (const auto& cta : gpu->ctas()) e.smem_out->push_back(cta->smem().memory());
  }
  for (const auto& cta : gpu->ctas()) {
    out.smem_wavefronts += cta->smem().counters().wavefronts;
    out.smem_conflicts += cta->smem().counters().conflicts;
  }
  out.l2_hits = gpu->memory().hits();
  out.l2_output_bytes = gpu->memory().output_bytes();
  out.l2_misses = gpu->memory().misses();
  out.l2_writebacks = gpu->memory().writebacks();
  // The process ends next: SystemC's module registry would be removed from one by one.
  if (g_exit_after_run) (void)gpu.release();
  return out;
}

void exit_after_run() { g_exit_after_run = true; }

}  // namespace tmasim::sc
