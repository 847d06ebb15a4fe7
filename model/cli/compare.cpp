// tmasim compare: the timing model against GPU runs (an H100's, as a rule) of the same scenarios (`tmasim cuda`).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "child_pool.hpp"
#include "cli_input.hpp"
#include "gpu_results.hpp"
#include "commands.hpp"
#include "run_setup.hpp"
#include "scenario.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct CompareOptions {
  std::string scenarios, results, config, l2 = "cold", split = "all", csv, clock = "config";
  std::vector<std::string> set;  // section.key=VALUE: configuration keys over the file's
  double tolerance = 0.25;
  double max_median = -1;
  int jobs = 0;
};

struct Case {
  std::string file;   // path relative to the scenario directory (or the file given)
  fs::path path;
  json result;
};

// split.txt beside the corpus: "calibration FILE" or "validation FILE" per line.
std::map<std::string, std::string> read_split(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::ifstream f(dir / "split.txt");
  std::string half, file;
  while (f >> half >> file) out[file] = half;
  return out;
}

std::string family_of(const std::string& file) {
  const size_t slash = file.find('/');
  return slash == std::string::npos ? "-" : file.substr(0, slash);
}

// The scenarios to compare: one file, or every .json under a folder in the --split asked for.
std::vector<Case> list_cases(const CompareOptions& o, bool dir, std::map<std::string, std::string>& split) {
  std::vector<Case> cases;
  if (dir) {
    split = read_split(o.scenarios);
    std::vector<fs::path> files;
    for (auto& e : fs::recursive_directory_iterator(o.scenarios))
      if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& p : files) {
      const std::string rel = fs::relative(p, o.scenarios).generic_string();
      if (o.split != "all" && split.count(rel) && split[rel] != o.split) continue;
      if (o.split != "all" && !split.count(rel)) continue;
      cases.push_back({rel, p, {}});
    }
  } else {
    cases.push_back({fs::path(o.scenarios).filename().string(), o.scenarios, {}});
  }
  return cases;
}

// The files and scenario names of the cases (a scenario that cannot be read is reported later).
Wanted wanted_results(const std::vector<Case>& cases, bool dir) {
  Wanted w;
  w.one_scenario = !dir;
  for (const Case& c : cases) {
    w.files.insert(c.file);
    try {
      w.names.insert(sc::parse_scenario(read_json_file(c.path.string(), "scenario")).name);
    } catch (const Error&) {
    }
  }
  return w;
}

// The SM clock the GPU ran the scenario at (the median of its runs in that L2 state), so that
// the DRAM's rate per SM cycle is the one the GPU had (memory.dram_rates_at_mhz).
void at_measured_clock(sc::TimingConfig& timing, const json& result, const std::string& l2) {
  const json* state = result.contains(l2) ? &result.at(l2) : nullptr;
  if (!state || !state->contains("clock_mhz") || !state->at("clock_mhz").contains("median") ||
      !state->at("clock_mhz").at("median").is_number())
    throw Error("--clock measured: the GPU result has no " + l2 + ".clock_mhz.median");
  const double mhz = state->at("clock_mhz").at("median").get<double>();
  if (!(mhz >= 100 && mhz <= 10000)) throw Error("--clock measured: the GPU result's clock_mhz is outside 100-10000 MHz");
  timing.set_sm_clock_mhz(mhz);
}

// Each scenario built and run in a child (several at once), judged against its GPU result.
std::vector<Row> run_cases(const CompareOptions& o, std::vector<Case>& cases, const sc::TimingConfig& cfg,
                           sc::L2Start l2_start, Results& results) {
  std::vector<Row> rows(cases.size());
  ChildPool pool(o.jobs, cases.size(), "compare", [&](size_t i, const std::optional<sc::Measurement>& m,
                                                      const std::string& model_error) {
    try {
      judge(rows[i], cases[i].result, m ? &*m : nullptr, model_error, o.l2, o.tolerance);
    } catch (const Error& e) {
      rows[i].status = "error";
      rows[i].note = std::string("malformed GPU result: ") + e.what();
    }
  });
  for (size_t i = 0; i < cases.size(); ++i) {
    Case& c = cases[i];
    Row& row = rows[i];
    row.file = c.file;
    row.family = family_of(c.file);
    auto s = std::make_unique<sc::Scenario>();
    std::string name;
    try {
      const json j = read_json_file(c.path.string(), "scenario");
      const sc::ScenarioSpec spec = sc::parse_scenario(j);
      name = spec.name;
      if (results.twice.count(c.file) || (!results.by_file.count(c.file) && results.twice.count(name))) {
        row.status = "error";
        row.note = "two GPU results for this scenario: which one is meant?";
        continue;
      }
      if (results.by_file.count(c.file)) c.result = results.by_file[c.file];
      else if (results.only) c.result = *results.only;
      else if (results.by_name.count(name)) c.result = results.by_name[name];
      else {
        row.status = "error";
        row.note = "no GPU result";
        continue;
      }
      sc::TimingConfig timing = cfg;
      timing.smem.move_bytes = false;  // a comparison needs the timing only
      if (o.clock == "measured") at_measured_clock(timing, c.result, o.l2);
      build_scenario(spec, timing, *s);
      s->experiment.l2_start = l2_start;
      row.ctas = static_cast<int>(s->experiment.ctas.size());
    } catch (const Error& e) {
      row.status = "error";
      row.note = e.what();
      continue;
    }
    pool.start(i, std::move(s));
  }
  pool.finish_all();

  return rows;
}

// The GPUs the compared results were measured on, as the header names them ("the GPU" when the
// results do not say).
std::string devices_of(const std::vector<Case>& cases) {
  std::set<std::string> names;
  for (const Case& c : cases)
    if (c.result.is_object() && c.result.contains("device") && c.result["device"].is_string())
      names.insert(c.result["device"].get<std::string>());
  if (names.empty()) return "the GPU";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : " and ") + n;
  return "the " + out;
}

// The table, the summary and the exit status.
int report(const CompareOptions& o, const std::vector<Row>& rows, std::map<std::string, std::string>& split,
           const std::string& devices) {
  std::string settings;
  for (const std::string& a : o.set) settings += " --set " + a;
  std::cout << "model (" << o.config << settings << (o.clock == "measured" ? ", at the SM clock each GPU run had" : "")
            << ") against " << devices << ", " << o.l2 << " L2, tolerance "
            << o.tolerance * 100 << "% on kernel cycles and on the median per-CTA error\n";
  std::cout << std::left << std::setw(48) << "scenario" << std::right << std::setw(6) << "CTAs" << std::setw(12)
            << "model" << std::setw(12) << "GPU" << std::setw(9) << "kernel" << std::setw(9) << "per-CTA"
            << "  verdict\n";
  int pass = 0, fail = 0, errors = 0;
  std::vector<double> kernel_errs, cta_errs;
  std::map<std::string, std::vector<double>> by_family;
  std::ofstream csv;
  if (!o.csv.empty()) {
    csv.open(o.csv);
    if (!csv) throw Error("cannot write " + o.csv);
    csv << "file,family,split,ctas,model_cycles,h100_cycles,kernel_error,cta_error,status,note,l2_start,clock,"
           "tolerance,tmasim_version,config_file\n";
  }
  for (const Row& r : rows) {
    std::cout << std::left << std::setw(48) << r.file.substr(0, 47) << std::right << std::setw(6) << r.ctas;
    if (r.status == "error" || r.gpu == 0) {
      std::cout << "  " << r.status << ": " << r.note << "\n";
    } else {
      std::cout << std::fixed << std::setprecision(0) << std::setw(12) << r.model << std::setw(12) << r.gpu
                << std::setprecision(1) << std::showpos << std::setw(8) << r.kernel_err * 100 << "%" << std::setw(8)
                << r.cta_err * 100 << "%" << std::noshowpos << "  " << r.status << (r.note.empty() ? "" : " " + r.note)
                << "\n";
      kernel_errs.push_back(std::fabs(r.kernel_err));
      cta_errs.push_back(std::fabs(r.cta_err));
      by_family[r.family].push_back(std::fabs(r.kernel_err));
    }
    if (csv)
      csv << quoted_cell(r.file) << "," << quoted_cell(r.family) << "," << (split.count(r.file) ? split[r.file] : "-")
          << "," << r.ctas << ","
          << r.model << "," << r.gpu << "," << r.kernel_err << "," << r.cta_err << "," << r.status << ","
          << quoted_cell(r.note) << "," << o.l2 << "," << o.clock << "," << o.tolerance << "," << quoted_cell(version())
          << "," << quoted_cell(o.config) << "\n";
    (r.status == "pass" ? pass : r.status == "fail" ? fail : errors)++;
  }
  auto within = [&](const std::vector<double>& v) {
    return v.empty() ? 0.0 : 100.0 * std::count_if(v.begin(), v.end(), [&](double x) { return x <= o.tolerance; }) / v.size();
  };
  std::cout << std::fixed << std::setprecision(1);
  if (!kernel_errs.empty()) {
    std::cout << "kernel cycles: median |error| " << median(kernel_errs) * 100 << "%, " << within(kernel_errs)
              << "% within tolerance\n";
    std::cout << "per-CTA cycles: median |error| " << median(cta_errs) * 100 << "%, " << within(cta_errs)
              << "% within tolerance\n";
    for (auto& [fam, v] : by_family)
      std::cout << "  " << std::left << std::setw(16) << fam << std::right << std::setw(4) << v.size()
                << " scenarios, kernel median |error| " << std::setw(6) << median(v) * 100 << "%\n";
  }
  if (csv) csv.close();
  if (!o.csv.empty() && !csv) throw Error("cannot write " + o.csv + " (the CSV is incomplete)");
  std::cout << pass << " passed, " << fail + errors << " failed\n";
  if (errors > 0) return 1;  // a scenario that did not run on one side is never a pass
  if (o.max_median >= 0) {
    const double worst = std::max(median(kernel_errs), median(cta_errs));
    if (worst > o.max_median) {
      std::cout << "the median |error| " << worst * 100 << "% exceeds the bound of " << o.max_median * 100 << "%\n";
      return 1;
    }
    return 0;
  }
  return fail > 0 ? 1 : 0;
}

// The configuration file with --set's keys over it (scenario parameters are refused: every
// scenario keeps the parameters its GPU run had).
sc::TimingConfig configuration(const CompareOptions& o) {
  return configuration_with(sc::read_config_file(o.config), o.config,
                            config_settings_only(o.set, "compare", "a scenario parameter would change the program the GPU ran"));
}

int compare(const CompareOptions& o) {
  const sc::L2Start l2_start = sc::l2_start_from_name(o.l2);  // the model starts as the GPU runs did
  if (o.split != "all" && o.split != "calibration" && o.split != "validation")
    throw Error("--split must be all, calibration or validation");
  const sc::TimingConfig cfg = configuration(o);
  const bool dir = fs::is_directory(o.scenarios);
  std::string results = o.results;
  if (results.empty()) {
    if (!dir) throw Error("give the GPU result file: tmasim compare SCENARIO.json RESULT.json");
    // The cold_clean runs of the corpus were a second capture, in their own file.
    const fs::path clean = fs::path(o.scenarios) / "results_cold_clean.jsonl.gz";
    results = (o.l2 == "cold_clean" && fs::exists(clean) ? clean : fs::path(o.scenarios) / "results.jsonl.gz").string();
  }
  std::map<std::string, std::string> split;
  std::vector<Case> cases = list_cases(o, dir, split);
  if (cases.empty()) throw Error("no scenarios to compare in " + o.scenarios);
  if (!o.csv.empty()) check_writable(o.csv, "--csv");
  Results gpu = read_results(results, wanted_results(cases, dir));

  const std::vector<Row> rows = run_cases(o, cases, cfg, l2_start, gpu);
  return report(o, rows, split, devices_of(cases));
}

}  // namespace

void add_compare(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  o->config = default_config_path();
  CLI::App* sub = app.add_subcommand(
      "compare", "Run scenarios on the timing model and compare them with their H100 runs (`tmasim cuda` results):\n"
                 "kernel cycles and per-CTA cycles, per scenario and per family, and the closing `N passed, M failed`.\n"
                 "SCENARIOS is a scenario file (then RESULTS is required) or a corpus directory (RESULTS defaults to\n"
                 "its results.jsonl.gz; split.txt names each file's half).");
  sub->add_option("scenarios", o->scenarios, "scenario JSON or corpus directory")->required()->check(CLI::ExistingPath);
  sub->add_option("results", o->results, "GPU result: JSON, JSON Lines (.jsonl[.gz]) or a directory")
      ->check(CLI::ExistingPath);
  sub->add_option("--config", o->config, "timing configuration")->capture_default_str()->check(CLI::ExistingFile);
  sub->add_option("--tolerance", o->tolerance, "relative tolerance for a pass")->capture_default_str()->check(finite_range(0.0, 10.0));
  sub->add_option("--l2", o->l2, "which GPU runs, and the model's L2 at the start: cold (a write flush\n"
                                  "larger than L2 before each run: dirty lines), cold_clean (the flush, then a read: clean\n"
                                  "lines; results_cold_clean.jsonl.gz of a corpus) or warm (after a run of the same\n"
                                  "program: the lines it reached)")->capture_default_str();
  sub->add_option("--split", o->split, "all, calibration or validation (split.txt)")->capture_default_str();
  sub->add_option("--max-median-error", o->max_median,
                  "exit 0 when every scenario ran on both sides and the median |error| is at most this (a ratchet), "
                  "instead of requiring every scenario within tolerance")
      ->check(finite_range(0.0, 100.0));
  sub->add_option("--clock", o->clock,
                  "the SM clock the model runs at: config (sm_clock_mhz) or measured (each scenario at the\n"
                  "median clock its GPU runs had in that L2 state: the DRAM's rate per SM cycle follows it)")
      ->capture_default_str()
      ->check(CLI::IsMember({"config", "measured"}));
  sub->add_option("--csv", o->csv, "write one row per scenario");
  sub->add_option("--set", o->set,
                  "override a configuration key (--set memory.hbm_bytes_per_cycle=1999: another chip's datasheet,\n"
                  "a what-if); repeatable");
  sub->add_option("-j,--jobs", o->jobs, "simulations at once (default: the machine's cores)")->check(CLI::Range(0, 1024));
  sub->callback([o]() { throw CLI::RuntimeError(compare(*o)); });
}

}  // namespace tmasim::cli
