// tmasim sweep: one scenario over the cross product of parameter and configuration values,
// simulated in parallel; a CSV of the run statistics and a plot of cycles and bandwidth.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

#include "bottleneck.hpp"
#include "child_pool.hpp"
#include "commands.hpp"
#include "run_setup.hpp"
#include "cli_input.hpp"
#include "scenario.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::cli {

namespace {

using nlohmann::json;

struct SweepOptions {
  std::string scenario, config, out = "sweep";
  std::vector<std::string> set;
  int jobs = 0;
  bool no_plot = false;
  double budget = 3600;  // CPU seconds, all points: see tmasim run --budget
};

// Debian's python3 has python3-matplotlib; a python3 earlier on PATH may not.
std::string plotting_python() {
  if (const char* p = std::getenv("TMASIM_PYTHON")) return p;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

// Runs the plotting script; false (with the reason printed) when it cannot.
bool plot(const std::string& csv, const std::string& out, const std::vector<Axis>& axes) {
  std::vector<std::string> args = {plotting_python(), std::string(TMASIM_SOURCE_DIR) + "/scripts/plot_sweep.py", csv,
                                   out + ".png", out + ".svg"};
  for (const Axis& a : axes) args.push_back(a.key);
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Point i: axis k takes value (i / stride_k) % size_k, the last axis fastest.
const std::string& value_at(const std::vector<Axis>& axes, size_t point, size_t axis) {
  size_t stride = 1;
  for (size_t k = axes.size(); k-- > axis + 1;) stride *= axes[k].values.size();
  return axes[axis].values[(point / stride) % axes[axis].values.size()];
}

// A CSV cell of text: quoted, its quotes and line ends made single quotes.
std::string quoted_cell(std::string text) {
  for (char& ch : text)
    if (ch == '"' || ch == '\n' || ch == '\r') ch = '\'';
  return "\"" + text + "\"";
}

// The CSV (a row a point: its values, the statistics or its error) and a line a point on the
// terminal; returns how many points failed.
int write_table(const std::string& csv_path, const std::vector<Axis>& axes, const std::vector<json>& stats,
                const std::vector<std::string>& errors, const std::string& config_file) {
  const size_t points = stats.size();
  const std::vector<std::string> columns = {"cycles", "microseconds", "tma_bandwidth_gbs", "tma_operations", "tma_bytes",
                                            "smem_conflict_wavefronts", "read_wavefronts", "read_ideal_wavefronts",
                                            "l2_hits", "l2_misses", "max_queue_occupancy"};
  std::ofstream csv(csv_path);
  for (const Axis& a : axes) csv << a.key << ",";
  for (const std::string& c : columns) csv << c << ",";
  csv << "verdict,tmasim_version,config_file,error\n";
  const std::string made_by = quoted_cell(version()) + "," + quoted_cell(config_file) + ",";
  int failed = 0;
  std::cout << std::fixed;
  for (size_t i = 0; i < points; ++i) {
    std::ostringstream point;
    for (size_t k = 0; k < axes.size(); ++k) {
      csv << value_at(axes, i, k) << ",";
      point << (k ? " " : "") << axes[k].key << "=" << value_at(axes, i, k);
    }
    if (!errors[i].empty()) {
      ++failed;
      for (size_t c = 0; c < columns.size(); ++c) csv << ",";
      csv << "," << made_by << quoted_cell(errors[i]) << "\n";
      std::cout << "  " << std::left << std::setw(40) << point.str() << std::right << "  error: " << errors[i] << "\n";
      continue;
    }
    for (const std::string& c : columns) csv << stats[i][c].dump() << ",";
    csv << quoted_cell(stats[i]["verdict"].get<std::string>()) << "," << made_by << "\n";
    std::cout << "  " << std::left << std::setw(40) << point.str() << std::right << std::setw(10) << std::setprecision(0)
              << stats[i]["cycles"].get<double>() << " cycles " << std::setw(8) << std::setprecision(1)
              << stats[i]["tma_bandwidth_gbs"].get<double>() << " GB/s\n";
  }
  csv.close();
  if (!csv) throw Error("cannot write " + csv_path);
  return failed;
}

int sweep(const SweepOptions& o) {
  if (o.set.empty()) throw Error("nothing to sweep: give --set KEY=V1,V2,... (repeatable)");
  std::vector<Axis> axes;
  for (const std::string& s : o.set) {
    axes.push_back(parse_axis(s));
    for (size_t k = 0; k + 1 < axes.size(); ++k)
      if (axes[k].key == axes.back().key)
        throw Error("--set " + axes.back().key + " is given twice: give its values once, comma-separated");
  }
  size_t points = 1;
  for (const Axis& a : axes) {
    points *= a.values.size();
    if (points > 100000) throw Error("the sweep has more than 100000 points");
  }
  const std::string csv_path = o.out + ".csv";
  check_writable(csv_path, "the sweep's CSV");
  const json scenario = scenario_json(o.scenario);
  const json base_config = sc::read_config_file(o.config);

  std::vector<json> stats(points);
  std::vector<std::string> errors(points);
  std::vector<sc::TimingConfig> configs(points);
  std::cout << "sweep of " << (o.scenario.empty() ? "the built-in GEMM mainloop feed" : o.scenario) << ": " << points
            << " points";
  for (const Axis& a : axes) std::cout << ", " << a.key << " in {" << [&] {
      std::string s;
      for (const std::string& v : a.values) s += (s.empty() ? "" : ",") + v;
      return s;
    }() << "}";
  std::cout << "\n";
  {
    ChildPool pool(o.jobs, points, "sweep", [&](size_t i, const std::optional<sc::Measurement>& m, const std::string& e) {
      if (m) {
        stats[i] = run_statistics(*m, configs[i]);
        stats[i]["verdict"] = bottleneck(*m, configs[i]).verdict;
      }
      else errors[i] = e;
    });
    for (size_t i = 0; i < points; ++i) {
      std::vector<std::string> settings;
      for (size_t k = 0; k < axes.size(); ++k) settings.push_back(axes[k].key + "=" + value_at(axes, i, k));
      try {
        auto s = std::make_unique<sc::Scenario>();
        configs[i] = build_run(scenario, base_config, o.config, split_settings(settings), *s, false);  // timing only
        if (i == 0) check_budget(s->experiment, o.budget, points);
        pool.start(i, std::move(s));
      } catch (const Error& e) {
        if (i == 0) throw;  // the first point fails: the sweep itself is wrong (a misspelt key)
        errors[i] = e.what();
      }
    }
    pool.finish_all();
  }

  const int failed = write_table(csv_path, axes, stats, errors, o.config);
  std::cout << "  table: " << csv_path << "\n";
  if (!o.no_plot && failed < static_cast<int>(points)) {
    if (plot(csv_path, o.out, axes)) std::cout << "  plot: " << o.out << ".png, " << o.out << ".svg\n";
    else std::cerr << "tmasim: warning: no plot (scripts/plot_sweep.py needs Debian's python3-matplotlib)\n";
  }
  std::cout << points - failed << " points ran, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace

void add_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  o->config = default_config_path();
  CLI::App* sub = app.add_subcommand(
      "sweep", "Run a scenario over the cross product of values (--set KEY=V1,V2,... for scenario parameters and\n"
               "configuration keys), in parallel over the machine's cores; write OUT.csv with each point's statistics\n"
               "and OUT.png/OUT.svg plotting cycles and TMA bandwidth against the swept keys. Without SCENARIO, sweeps\n"
               "the built-in GEMM mainloop feed (parameters STAGES, KT, CTAS).");
  sub->add_option("scenario", o->scenario, "scenario JSON")->check(CLI::ExistingFile);
  sub->add_option("--set", o->set, "KEY=V1,V2,...: a scenario parameter (STAGES=2,4,6) or a configuration key\n"
                                   "(smem.banks=32,64; issue.cycles=86,172); repeatable, the cross product is run")
      ->required();
  sub->add_option("--config", o->config, "timing configuration")->capture_default_str()->check(CLI::ExistingFile);
  sub->add_option("-o,--out", o->out, "output prefix: OUT.csv, OUT.png, OUT.svg")->capture_default_str();
  sub->add_option("-j,--jobs", o->jobs, "simulations at once (default: the machine's cores)")->check(CLI::Range(0, 1024));
  sub->add_option("--budget", o->budget,
                  "refuse a sweep estimated (its first point times the points) past this many CPU seconds before\n"
                  "it starts (0: no limit)")
      ->capture_default_str()->check(finite_range(0.0, 1e9));
  sub->add_flag("--no-plot", o->no_plot, "write the CSV only");
  sub->callback([o]() { throw CLI::RuntimeError(sweep(*o)); });
}

}  // namespace tmasim::cli
