// tmasim calibrate: replay GPU timing records (golden-case.md section 3) on the SystemC
// timing model and print model against measured.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli_input.hpp"
#include "commands.hpp"
#include "child_run.hpp"
#include "scenario.hpp"
#include "timing_records.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

// SystemC's library refers to sc_main; tmasim has its own main and elaborates in children.
extern "C" int sc_main(int, char*[]) { return 0; }

namespace tmasim::cli {

namespace {

using sc::Experiment;
using sc::Measurement;
using sc::Step;

struct CalibrateOptions {
  std::vector<std::string> files;
  std::string config;
  double tolerance = 25;
  int stream_tiles_per_cta = 24;
  bool model_issue = false;
  double max_median = -1;
  std::string csv;
};

Measurement run_isolated(const Experiment& e) { return sc::run_in_child(e); }

// A short name for a record; never throws (a malformed record still gets a line).
std::string describe(const nlohmann::json& r) {
  auto text = [&](const nlohmann::json& o, const char* k) {
    return o.is_object() && o.contains(k) ? (o[k].is_string() ? o[k].get<std::string>() : o[k].dump()) : "?";
  };
  std::ostringstream os;
  os << text(r, "kind");
  if (r.contains("op")) os << "." << text(r, "op");
  if (r.contains("multicast") && r["multicast"] != 1) os << ".mc" << text(r, "multicast");
  const nlohmann::json t = r.contains("tensor_map") ? r["tensor_map"] : nlohmann::json::object();
  os << " " << text(t, "swizzle") << " box";
  if (t.is_object() && t.contains("box_dims") && t["box_dims"].is_array())
    for (size_t i = 0; i < t["box_dims"].size(); ++i) os << (i ? "x" : "") << t["box_dims"][i].dump();
  if (text(r, "kind") == "burst") os << " " << text(r, "l2") << " n=" << text(r, "loads");
  else os << " ctas=" << text(r, "ctas") << " stages=" << text(r, "stages");
  return os.str();
}

int calibrate(const CalibrateOptions& o) {
  const sc::TimingConfig cfg = sc::TimingConfig::from_json_file(o.config);
  std::vector<double> errors;
  int passed = 0, failed = 0, records = 0, timed = 0;
  FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "w");
  if (!o.csv.empty() && !csv) throw Error("cannot write " + o.csv);
  if (csv) std::fprintf(csv, "record,metric,measured,model,error_percent,tmasim_version,config_file\n");
  const std::string made_by = quoted_cell(version()) + "," + quoted_cell(o.config);
  std::cout << std::left << std::setw(52) << "record" << std::right << std::setw(12) << "measured" << std::setw(12)
            << "model" << std::setw(9) << "error\n";
  for (const std::string& f : o.files) {
    records += for_each_json_line(f, [&](const nlohmann::json& j, int line) {
      const std::string name = describe(j);
      try {
        const Fields r(j, f + ":" + std::to_string(line), "a timing record");
        const std::string kind = r.string_or("kind", "");
        if (kind != "burst" && kind != "stream") return;  // d2d_copy and others: not TMA records
        ++timed;
        std::vector<uint8_t> global;
        double measured, model;
        const char* metric;
        if (kind == "burst") {
          Measurement m = run_isolated(sc::burst_experiment(r, cfg, global, !o.model_issue));
          measured = static_cast<double>(r.integer("total_cycles", 1, INT64_MAX));
          model = m.end_cycles - m.start_cycles;
          metric = "cycles";
        } else {
          // The GPU's run is long (1 GiB): its rate is the steady state, which the model gives as
          // the slope between a run of N tiles per CTA and one of N/2 (the ramp-up cancels).
          auto run_stream = [&](int per_cta, double& bytes) {
            std::vector<uint8_t> g;
            Experiment e = sc::stream_experiment(r, cfg, g, per_cta);
            bytes = static_cast<double>(e.maps[0].transaction_bytes()) *
                    static_cast<double>(std::min<int64_t>(r.integer("tiles", 1, INT32_MAX), int64_t(e.ctas.size()) * per_cta));
            return run_isolated(e).end_cycles;
          };
          double bytes_long = 0, bytes_short = 0;
          const double long_cycles = run_stream(o.stream_tiles_per_cta, bytes_long);
          const double short_cycles = run_stream(o.stream_tiles_per_cta / 2, bytes_short);
          const bool slope = bytes_long > bytes_short && long_cycles > short_cycles;
          const double bytes = slope ? bytes_long - bytes_short : bytes_long;
          const double cycles = slope ? long_cycles - short_cycles : long_cycles;
          measured = r.number("GBps", 1e-6, 1e6);
          model = bytes / (cycles / (cfg.sm_clock_mhz * 1e6)) / 1e9;
          metric = "GB/s";
        }
        const double err = 100.0 * (model - measured) / measured;
        errors.push_back(std::fabs(err));
        const bool ok = std::fabs(err) <= o.tolerance;
        (ok ? passed : failed)++;
        std::cout << std::left << std::setw(52) << name << std::right << std::setw(12) << std::fixed
                  << std::setprecision(0) << measured << std::setw(12) << model << std::setw(8) << std::setprecision(1)
                  << err << "%" << (ok ? "" : "  FAIL") << "  " << metric << "\n";
        if (csv)
          std::fprintf(csv, "%s,%s,%.3f,%.3f,%.3f,%s\n", quoted_cell(name).c_str(), metric, measured, model, err,
                       made_by.c_str());
      } catch (const Error& e) {
        ++failed;
        std::cout << "FAIL " << name << " (" << f << ":" << line << "): " << e.what() << "\n";
      }
    });
  }
  if (csv && (std::ferror(csv) | std::fclose(csv)) != 0) throw Error("cannot write " + o.csv);
  if (timed == 0) throw Error(records == 0 ? "the timing-record files hold no records" : "the files hold no burst or stream records");
  std::sort(errors.begin(), errors.end());
  const double med = median(errors);
  if (!errors.empty())
    std::cout << "median absolute error " << std::setprecision(1) << med << "%, largest " << errors.back()
              << "%, tolerance " << o.tolerance << "%\n";
  std::cout << passed << " passed, " << failed << " failed\n";
  if (o.max_median >= 0) {  // a ratchet: every record replayed, and the median error at most this
    const bool all_ran = static_cast<int>(errors.size()) == timed;
    return all_ran && med <= o.max_median ? 0 : 1;
  }
  return failed ? 1 : 0;
}

}  // namespace

void add_calibrate(CLI::App& app) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Replay GPU timing records (golden-case.md section 3) on the SystemC timing model: each record's\n"
                   "measured and modelled figure (burst: cycles from first issue to mbarrier completion, the loads\n"
                   "issued at the cadence the record measured; stream: steady-state GB/s), the error of each, and\n"
                   "'N passed, M failed' at the tolerance.");
  sub->add_option("files", o->files, "timing record files (.jsonl or .jsonl.gz)")->required()->check(CLI::ExistingFile);
  o->config = default_config_path();
  sub->add_option("--config", o->config, "timing configuration")->capture_default_str()->check(CLI::ExistingFile);
  sub->add_option("--tolerance", o->tolerance, "largest error that passes, percent")->capture_default_str()
      ->check(finite_range(0.0, 1000.0));
  sub->add_option("--stream-tiles", o->stream_tiles_per_cta, "tiles simulated per CTA for stream records")
      ->capture_default_str()->check(CLI::Range(2, 1000));
  sub->add_flag("--model-issue", o->model_issue,
                "bursts issue at the configuration's issue costs, not at the cadence each record measured\n"
                "(issue_cycles: the harness's own loop)");
  sub->add_option("--max-median-error", o->max_median,
                  "exit 0 when every record replayed and the median |error| is at most this many percent (a\n"
                  "ratchet), instead of requiring every record within tolerance")
      ->check(finite_range(0.0, 1000.0));
  sub->add_option("--csv", o->csv, "also write the table as CSV");
  sub->callback([o]() { throw CLI::RuntimeError(calibrate(*o)); });
}

}  // namespace tmasim::cli
