// tmasim sweep: one scenario over the cross product of parameter and configuration values,
// simulated in parallel; a CSV of the run statistics and a plot of cycles and bandwidth.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <cstdio>
#include <filesystem>
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
  std::string dask;  // a Dask scheduler's address: the points run on its workers
  std::string slurm, merge;  // a directory: write a Slurm job array there; merge its results
  double budget = 3600;  // CPU seconds, all points: see tmasim run --budget
};

// Debian's python3 has python3-matplotlib; a python3 earlier on PATH may not.
std::string plotting_python() {
  if (const char* p = std::getenv("TMASIM_PYTHON")) return p;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

// Runs a program (with the Python module on PYTHONPATH when asked) and waits for it: its exit
// status, 2 when a signal ended it, -1 when it could not be started.
int run_program(std::vector<std::string> args, bool with_module) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (with_module) {
      const char* old = std::getenv("PYTHONPATH");
      const std::string path = std::string(TMASIM_PYTHON_DIR) + (old && *old ? std::string(":") + old : "");
      setenv("PYTHONPATH", path.c_str(), 1);
    }
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

// Runs the plotting script; false when it cannot.
bool plot(const std::string& csv, const std::string& out, const std::vector<Axis>& axes) {
  std::vector<std::string> args = {plotting_python(), std::string(TMASIM_SOURCE_DIR) + "/scripts/plot_sweep.py", csv,
                                   out + ".png", out + ".svg"};
  for (const Axis& a : axes) args.push_back(a.key);
  return run_program(std::move(args), false) == 0;
}

// Point i: axis k takes value (i / stride_k) % size_k, the last axis fastest.
const std::string& value_at(const std::vector<Axis>& axes, size_t point, size_t axis) {
  size_t stride = 1;
  for (size_t k = axes.size(); k-- > axis + 1;) stride *= axes[k].values.size();
  return axes[axis].values[(point / stride) % axes[axis].values.size()];
}

// The CSV (a row a point: its values, the statistics or its error) and a line a point on the
// terminal; returns how many points failed.
const std::vector<std::string> kColumns = {"cycles", "microseconds", "tma_bandwidth_gbs", "tma_operations", "tma_bytes",
                                          "smem_conflict_wavefronts", "read_wavefronts", "read_ideal_wavefronts",
                                          "l2_hits", "l2_misses", "max_queue_occupancy"};

int write_table(const std::string& csv_path, const std::vector<Axis>& axes, const std::vector<json>& stats,
                const std::vector<std::string>& errors, const std::string& config_file) {
  const size_t points = stats.size();
  const std::vector<std::string>& columns = kColumns;
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

// The points on a Dask cluster (python/tmasim/dask_sweep.py, Debian's python3-distributed): each
// worker runs a one-point sweep of this command's code; the CSV is the local sweep's.
int dask_sweep(const SweepOptions& o, const std::string& csv_path, const std::vector<Axis>& axes) {
  std::vector<std::string> args = {plotting_python(), "-m", "tmasim.dask_sweep", o.dask, csv_path, o.config,
                                   o.scenario.empty() ? "-" : o.scenario};
  for (const std::string& s : o.set) args.push_back(s);
  std::cout << "sweep of " << (o.scenario.empty() ? "the built-in GEMM mainloop feed" : o.scenario)
            << " on Dask (" << o.dask << ")" << std::endl;
  const int rc = run_program(std::move(args), true);
  if (rc < 0) throw Error("cannot start python3 for --dask");
  if (rc != 0 && rc != 1)
    throw Error("the sweep on Dask failed (python3 -m tmasim.dask_sweep exited " + std::to_string(rc) +
                "; it needs the Python module, built with Debian's pybind11-dev, and python3-distributed)");
  std::cout << "  table: " << csv_path << "\n";
  if (!o.no_plot && plot(csv_path, o.out, axes)) std::cout << "  plot: " << o.out << ".png, " << o.out << ".svg\n";
  return rc;
}

// --slurm DIR: the sweep as a Slurm job array, each task a one-point sweep of this command
// (DIR/points.txt its settings, DIR/points/NNNNNN.csv its row); --merge DIR gathers the rows into
// the local sweep's CSV. The scenario is copied (DIR/scenario.json): the tasks need no other file.
int slurm_sweep(const SweepOptions& o, const std::vector<Axis>& axes, size_t points) {
  namespace fs = std::filesystem;
  const json scenario = scenario_json(o.scenario);
  {  // the first point builds here, or the array is not written
    sc::Scenario s;
    std::vector<std::string> first;
    for (size_t k = 0; k < axes.size(); ++k) first.push_back(axes[k].key + "=" + value_at(axes, 0, k));
    build_run(scenario, sc::read_config_file(o.config), o.config, split_settings(first), s, false);
  }
  const fs::path dir = fs::absolute(o.slurm);
  std::error_code ec;
  fs::create_directories(dir / "points", ec);
  fs::create_directories(dir / "logs", ec);
  if (ec) throw Error("--slurm: cannot create " + dir.string() + ": " + ec.message());
  write_output((dir / "scenario.json").string(), scenario.dump(1) + "\n", "the array's scenario");
  std::string lines;
  for (size_t i = 0; i < points; ++i) {
    for (size_t k = 0; k < axes.size(); ++k) lines += (k ? " " : "") + axes[k].key + "=" + value_at(axes, i, k);
    lines += "\n";
  }
  write_output((dir / "points.txt").string(), lines, "the array's points");
  json manifest = {{"schema", "tmasim-slurm-sweep/1"}, {"tmasim_version", version()}, {"points", points},
                   {"config", o.config}, {"scenario", o.scenario.empty() ? "(built in)" : o.scenario}};
  for (const Axis& a : axes) manifest["axes"].push_back({{"key", a.key}, {"values", a.values}});
  write_output((dir / "manifest.json").string(), manifest.dump(1) + "\n", "the array's manifest");
  const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  const std::string d = dir.string();
  std::ostringstream sh;
  sh << "#!/usr/bin/env bash\n"
     << "# A tmasim sweep of " << points << " points as a Slurm job array: sbatch " << d << "/sweep.sbatch; then\n"
     << "# tmasim sweep --merge " << d << " -o OUT. Without Slurm: SLURM_ARRAY_TASK_ID=i bash this (i = 0.."
     << points - 1 << ").\n"
     << "#SBATCH --job-name=tmasim-sweep\n#SBATCH --array=0-" << points - 1 << "\n#SBATCH --cpus-per-task=1\n"
     << "#SBATCH --output=" << d << "/logs/%a.log\n"
     << "set -euo pipefail\n"
     << "i=${SLURM_ARRAY_TASK_ID:?set by sbatch --array}\n"
     << "sets=()\n"
     << "for kv in $(sed -n \"$((i + 1))p\" '" << d << "/points.txt'); do sets+=(--set \"$kv\"); done\n"
     << "exec '" << (self.empty() ? "tmasim" : self) << "' sweep '" << d << "/scenario.json' --config '" << o.config
     << "' \"${sets[@]}\" --no-plot --jobs 1 -o \"" << d << "/points/$(printf %06d \"$i\")\"\n";
  write_output((dir / "sweep.sbatch").string(), sh.str(), "the job array's script");
  fs::permissions(dir / "sweep.sbatch", fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, ec);
  std::cout << "sweep of " << (o.scenario.empty() ? "the built-in GEMM mainloop feed" : o.scenario) << ": " << points
            << " points as a Slurm job array in " << d << "\n  submit: sbatch " << d << "/sweep.sbatch\n"
            << "  then:   tmasim sweep --merge " << d << " -o OUT\n";
  return 0;
}

int merge_sweep(const SweepOptions& o) {
  namespace fs = std::filesystem;
  const fs::path dir = o.merge;
  const json manifest = read_json_file((dir / "manifest.json").string(), "the job array's manifest");
  std::vector<Axis> axes;
  size_t points = 0;
  std::string config;
  try {
    for (const json& a : manifest.at("axes")) axes.push_back({a.at("key"), a.at("values")});
    points = manifest.at("points");
    config = manifest.at("config");
  } catch (const json::exception& e) {
    throw Error((dir / "manifest.json").string() + " is not a tmasim-slurm-sweep/1 manifest: " + e.what());
  }
  const std::string csv_path = o.out + ".csv";
  check_writable(csv_path, "the sweep's CSV");
  std::string header, rows;
  size_t failed = 0;
  for (size_t i = 0; i < points; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%06zu.csv", i);
    std::ifstream in(dir / "points" / name);
    std::string head, row;
    if (in && std::getline(in, head) && std::getline(in, row)) {
      if (header.empty()) header = head;
      failed += row.empty() || row.back() != ',';  // a point's row ends with its error, or empty
      rows += row + "\n";
      continue;
    }
    ++failed;
    for (size_t k = 0; k < axes.size(); ++k) rows += value_at(axes, i, k) + ",";
    for (size_t c = 0; c < kColumns.size() + 1; ++c) rows += ",";
    rows += quoted_cell(version()) + "," + quoted_cell(config) + "," +
            quoted_cell("array task " + std::to_string(i) + " left no result (see " +
                        (dir / "logs" / (std::to_string(i) + ".log")).string() + ")") + "\n";
  }
  if (header.empty()) {
    for (const Axis& a : axes) header += a.key + ",";
    for (const std::string& c : kColumns) header += c + ",";
    header += "verdict,tmasim_version,config_file,error";
  }
  write_output(csv_path, header + "\n" + rows, "the sweep's CSV");
  std::cout << "merged " << points << " points of " << dir.string() << ": " << points - failed << " ran, " << failed
            << " failed or missing\n  table: " << csv_path << "\n";
  if (!o.no_plot && failed < points && plot(csv_path, o.out, axes))
    std::cout << "  plot: " << o.out << ".png, " << o.out << ".svg\n";
  return failed ? 1 : 0;
}

int sweep(const SweepOptions& o) {
  if (!o.merge.empty()) return merge_sweep(o);
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
  const bool existed = std::filesystem::exists(csv_path);
  check_writable(csv_path, "the sweep's CSV");
  // A sweep that fails before its table is written leaves no empty CSV behind (one it created).
  struct RemoveIfEmpty {
    std::string path;
    bool armed;
    ~RemoveIfEmpty() {
      std::error_code ec;
      if (armed && std::filesystem::file_size(path, ec) == 0 && !ec) std::filesystem::remove(path, ec);
    }
  } guard{csv_path, !existed};
  if (!o.dask.empty()) return dask_sweep(o, csv_path, axes);
  if (!o.slurm.empty()) return slurm_sweep(o, axes, points);
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
      ;
  sub->add_option("--config", o->config, "timing configuration")->capture_default_str()->check(CLI::ExistingFile);
  sub->add_option("-o,--out", o->out, "output prefix: OUT.csv, OUT.png, OUT.svg")->capture_default_str();
  sub->add_option("-j,--jobs", o->jobs, "simulations at once (default: the machine's cores)")->check(CLI::Range(0, 1024));
  sub->add_option("--budget", o->budget,
                  "refuse a sweep estimated (its first point times the points) past this many CPU seconds before\n"
                  "it starts (0: no limit)")
      ->capture_default_str()->check(finite_range(0.0, 1e9));
  sub->add_flag("--no-plot", o->no_plot, "write the CSV only");
  sub->add_option("--dask", o->dask,
                  "run the points on the Dask cluster whose scheduler is at this address (tcp://host:8786), each\n"
                  "worker a one-point sweep (needs the Python module, docs/python.md); the same CSV");
  sub->add_option("--slurm", o->slurm,
                  "write the sweep as a Slurm job array into this directory (sweep.sbatch, points.txt,\n"
                  "manifest.json); each task a one-point sweep; gather with --merge");
  sub->add_option("--merge", o->merge, "gather a --slurm directory's results into OUT.csv (and the plot)");
  sub->callback([o]() { throw CLI::RuntimeError(sweep(*o)); });
}

}  // namespace tmasim::cli
