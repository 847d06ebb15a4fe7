// tmasim run: a scenario of TMA operations from CTAs on SMs, simulated on the SystemC timing
// model; a summary, statistics as JSON, and on request a Perfetto trace and a VCD.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <filesystem>
#include <map>

#include <unistd.h>

#include "bottleneck.hpp"
#include "commands.hpp"
#include "run_setup.hpp"
#include "child_run.hpp"
#include "scenario.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::cli {

namespace {

// The built-in scenario is examples/gemm_pipeline.json, embedded at build time.
#include "default_scenario.inc"  // constexpr const char* kDefaultScenario

struct RunOptions {
  std::string scenario, config, stats, trace, vcd, l2 = "cold";
  std::vector<std::string> set;
  bool timing_only = false;
  double budget = 3600;  // CPU seconds past which a run is refused before it starts; 0: none
};

// SystemC writes the VCD to the path with ".vcd" added when it lacks it: that file is the one
// checked and named.
std::string vcd_file(const std::string& path) {
  if (path.empty() || (path.size() > 4 && path.substr(path.size() - 4) == ".vcd")) return path;
  return path + ".vcd";
}

// A waveform is a file: a device, a pipe or a directory in its place would take (or lose) the
// writes without an error that SystemC reports.
void check_vcd_target(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw Error("--vcd '" + path + "' is not a regular file (a VCD is written to a file)");
  check_writable(path, "--vcd");
}

// SystemC does not report a failed write of its VCD: a complete one is a file that ends a line.
void check_vcd_written(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : 0;
  char last = 0;
  if (size > 0) {
    in.seekg(size - 1);
    in.get(last);
  }
  if (size <= 0 || last != '\n') throw Error("the waveform '" + path + "' could not be written completely");
}

}  // namespace

nlohmann::json scenario_json(const std::string& path) {
  return path.empty() ? nlohmann::json::parse(kDefaultScenario) : read_json_file(path, "scenario");
}

nlohmann::json run_statistics(const sc::Measurement& m, const sc::TimingConfig& cfg) {
  nlohmann::json j = sc::to_json(m);  // the one layout of a run's result
  const double us = m.end_cycles / cfg.sm_clock_mhz;
  j["microseconds"] = us;
  j["event_microseconds"] = us + cfg.launch_event_overhead_us;
  j["duration_microseconds"] = us + cfg.launch_duration_overhead_us;
  j["tma_bandwidth_gbs"] = us > 0 ? m.tma_bytes / us / 1e3 : 0.0;
  return j;
}

namespace {

// What a run's statistics record of how it was made (docs/outputs.md): the schema, the tmasim
// built, the configuration as run, the settings and params, the L2 state and the stamps' labels.
void add_provenance(nlohmann::json& stats, const RunOptions& o, const sc::TimingConfig& cfg, const sc::Scenario& s) {
  stats["schema"] = "tmasim-stats/1";
  stats["tmasim_version"] = version();
  stats["scenario_file"] = o.scenario.empty() ? "(built in: examples/gemm_pipeline.json)" : o.scenario;
  stats["config_file"] = o.config;
  stats["settings"] = o.set;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : s.params) params[name] = value;
  stats["params"] = params;
  stats["config"] = sc::to_json(cfg);
  stats["l2_start"] = o.l2;
  stats["timing_only"] = o.timing_only;
  if (!stats.contains("stamps")) return;
  nlohmann::json labels = nlohmann::json::array();  // per CTA, per warp, as "stamps"
  for (const sc::CtaProgram& p : s.experiment.ctas) {
    nlohmann::json warps = nlohmann::json::array();
    const std::vector<int> first = sc::first_warps(p);
    for (size_t t = 0; t < p.threads.size(); ++t) {
      while (warps.size() < static_cast<size_t>(first[t])) warps.push_back(nlohmann::json::array());
      nlohmann::json mine = nlohmann::json::array();
      if (sc::summary_of(p.threads[t]).stamps > 0)
        sc::for_each_step(p.threads[t], [&](const sc::Step& st) {
          if (st.kind == sc::Step::Kind::stamp) mine.push_back(s.stamp_labels.at(st.origin));
        });
      warps.push_back(mine);
      for (int w = 1; w < p.threads[t].warps; ++w) warps.push_back(nlohmann::json::array());
    }
    labels.push_back(warps);
  }
  stats["stamp_labels"] = labels;
}

// The report's counters: operations, time, L2, shared memory, reads, tensor cores, the TMA queue
// and where the CTAs ran.
void report(std::ostream& say, const sc::Measurement& m, const sc::TimingConfig& cfg, const std::string& l2,
            const nlohmann::json& stats) {
  const double cycles = m.end_cycles;
  const double us = stats["microseconds"].get<double>();
  say << std::fixed << std::setprecision(2);
  say << "  " << m.ops << " TMA operations, " << m.tma_bytes << " bytes moved\n";
  say << "  " << std::setprecision(0) << cycles << " cycles = " << std::setprecision(2) << us << " us at "
            << std::setprecision(0) << cfg.sm_clock_mhz << " MHz; TMA bandwidth " << std::setprecision(1)
            << stats["tma_bandwidth_gbs"].get<double>() << " GB/s\n";
  if (cfg.launch_event_overhead_us > 0 || cfg.launch_duration_overhead_us > 0)
    say << "  the launch as timed around it: " << std::setprecision(2) << stats["event_microseconds"].get<double>()
        << " us by CUDA events, " << stats["duration_microseconds"].get<double>()
        << " us by ncu's gpu__time_duration (gpu.launch_*_overhead_us)\n";
  say << "  L2 (" << l2 << " at the start): " << m.l2_hits << " hits, " << m.l2_misses << " misses, "
            << m.l2_writebacks << " dirty lines written back; " << m.l2_output_bytes
            << " hit bytes over its output (reads that joined another SM's transfer not counted)\n";
  say << "  shared memory: " << m.smem_wavefronts << " wavefronts, " << m.smem_conflicts
            << " of them from bank conflicts\n";
  if (m.read_instructions)
    say << "  consumer reads: " << m.read_instructions << " ldmatrix.x4, " << m.read_wavefronts
              << " wavefronts (ideal " << m.read_ideal << "), conflict degree " << std::setprecision(2)
              << double(m.read_wavefronts) / double(m.read_ideal) << "x\n";
  if (m.mma_instructions)
    say << "  tensor cores: " << m.mma_instructions << " wgmma, " << std::setprecision(1) << m.mma_flops / 1e9
              << " GFLOP (" << m.mma_flops / (us * 1e6) << " TFLOP/s); busy " << std::setprecision(0)
              << 100.0 * m.tensor_busy_cycles / (cycles * m.tensor_sms) << "% of the cycles of the " << m.tensor_sms
              << " SMs that ran any\n";
  say << "  TMA queue occupancy: at most " << m.max_queue << " of " << cfg.op_queue_depth << "\n";
  {
    std::map<int, int> per_sm;
    for (int sm : m.cta_sm) ++per_sm[sm];
    int most = 0;
    for (const auto& [sm, n] : per_sm) most = std::max(most, n);
    const auto later = std::count_if(m.cta_start_cycles.begin(), m.cta_start_cycles.end(), [](double t) { return t > 0; });
    say << "  placement: " << per_sm.size() << " of " << cfg.sms << " SMs, at most " << most
              << " CTAs on one; " << later << " CTAs waited for a free slot\n";
  }
}

int run(const RunOptions& o) {
  const bool stats_to_stdout = o.stats == "-";
  for (const auto& [path, what] : {std::pair{stats_to_stdout ? std::string() : o.stats, "--stats"}, {o.trace, "--trace"}})
    if (!path.empty()) check_writable(path, what);
  const std::string vcd = vcd_file(o.vcd);
  if (!vcd.empty()) check_vcd_target(vcd);
  sc::Scenario s;
  const sc::TimingConfig cfg = build_run(scenario_json(o.scenario), sc::read_config_file(o.config),
                                         o.config, split_settings(o.set), s, !o.timing_only);
  s.experiment.perfetto_path = o.trace;
  std::string settings;
  for (const std::string& set : o.set) settings += (settings.empty() ? "" : " ") + set;
  s.experiment.provenance = {{"tmasim_version", version()}, {"scenario", s.name},
                             {"scenario_file", o.scenario.empty() ? "(built in: examples/gemm_pipeline.json)" : o.scenario},
                             {"config_file", o.config}, {"settings", settings}, {"l2_start", o.l2}};
  s.experiment.vcd_path = vcd;
  s.experiment.l2_start = sc::l2_start_from_name(o.l2);
  s.experiment.progress = isatty(STDERR_FILENO) != 0;  // a progress line only on a terminal
  std::ostream& say = stats_to_stdout ? std::cerr : std::cout;  // --stats -: the JSON alone on stdout
  say << "scenario " << s.name << ": " << s.experiment.ctas.size() << " CTAs (config " << o.config << ")\n";
  check_budget(s.experiment, o.budget);
  const auto wall0 = std::chrono::steady_clock::now();
  const sc::Measurement m = sc::run_in_child(s.experiment);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  nlohmann::json stats = run_statistics(m, cfg);
  report(say, m, cfg, o.l2, stats);
  const Bottleneck limits = bottleneck(m, cfg);
  say << describe(limits);
  stats["bottleneck"] = to_json(limits);
  say << "  simulation: " << std::setprecision(2) << wall << " s wall, " << m.end_cycles / wall / 1e6
            << " M simulated cycles per second\n";
  stats["scenario"] = s.name;
  stats["ctas"] = s.experiment.ctas.size();
  stats["wall_seconds"] = wall;
  stats["cta_start_cycles"] = m.cta_start_cycles;  // per CTA: its launch (later waves start later)
  stats["cta_end_cycles"] = m.cta_end_cycles;
  stats["cta_sm"] = m.cta_sm;
  bool stamped = false;
  for (const auto& cta : m.stamps)
    for (const auto& thread : cta) stamped |= !thread.empty();
  if (stamped) stats["stamps"] = m.stamps;  // per CTA, per warp: the cycles of its stamp steps
  add_provenance(stats, o, cfg, s);
  if (!o.stats.empty())
    write_output(o.stats, stats.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--stats");
  if (!o.stats.empty() && !stats_to_stdout) say << "  statistics: " << o.stats << "\n";
  if (!o.trace.empty()) say << "  trace (open in ui.perfetto.dev): " << o.trace << "\n";
  if (!vcd.empty()) {
    check_vcd_written(vcd);
    say << "  waveform (GTKWave): " << vcd << "\n";
  }
  return 0;
}

}  // namespace

void add_run(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  o->config = default_config_path();
  CLI::App* sub = app.add_subcommand(
      "run", "Simulate a scenario (tensor maps; CTA programs of TMA loads/stores/reductions/prefetches, mbarrier\n"
             "arrivals and waits, consumer ldmatrix reads) on the SystemC timing model, with the bytes moved by the\n"
             "functional model. Without SCENARIO, runs the built-in GEMM mainloop feed (examples/gemm_pipeline.json).");
  sub->add_option("scenario", o->scenario, "scenario JSON (see model/systemc/scenario.hpp and examples/)")
      ->check(CLI::ExistingFile);
  sub->add_option("--config", o->config, "timing configuration")->capture_default_str()->check(CLI::ExistingFile);
  sub->add_option("--stats", o->stats, "write statistics as JSON (docs/outputs.md); -: to standard output, the report\n"
                                       "to standard error");
  sub->add_option("--trace", o->trace, "write every TMA operation's lifetime as a Perfetto (Chrome JSON) trace");
  sub->add_option("--vcd", o->vcd, "write a VCD of the TMA queues' occupancy (\".vcd\" is added to a path without it)");
  sub->add_option("--budget", o->budget,
                  "refuse a run estimated past this many CPU seconds before it starts (0: no limit); a run\n"
                  "estimated past 30 s says so")
      ->capture_default_str()->check(finite_range(0.0, 1e9));
  sub->add_option("--l2", o->l2,
                  "what L2 holds at the start, as the GPU harness leaves it: cold (a write flush larger than L2:\n"
                  "memory.flush_dirty_fraction of its lines dirty, written back as fills evict them) or cold_clean\n"
                  "(the flush, then a read of more than L2: clean lines) or warm (after a run of the same program:\n"
                  "the lines it reached are in L2)")
      ->capture_default_str();
  sub->add_flag("--timing-only", o->timing_only,
                "move no bytes: the same timing (it never depends on data), faster; traps are still checked");
  sub->add_option("--set", o->set,
                  "override a scenario parameter (--set KT=32) or a configuration key (--set smem.banks=64,\n"
                  "--set issue.cycles=86); repeatable");
  sub->callback([o]() { throw CLI::RuntimeError(run(*o)); });
}

}  // namespace tmasim::cli
