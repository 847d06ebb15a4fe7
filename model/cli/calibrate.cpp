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

#include "commands.hpp"
#include "scenario.hpp"
#include "tmasim/golden.hpp"

// SystemC's library refers to sc_main; tmasim has its own main and elaborates in children.
int sc_main(int, char*[]) { return 0; }

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
  std::string csv;
};

Measurement run_isolated(const Experiment& e) { return sc::run_in_child(e); }

std::vector<int32_t> ints32(const nlohmann::json& j, const char* f) {
  std::vector<int32_t> v;
  for (int64_t x : require_ints(j, f)) v.push_back(static_cast<int32_t>(x));
  return v;
}

// A burst: CTA 0 issues `loads` copies back to back on one barrier (after an identical
// warm-up round for warm L2); multicast clusters' other CTAs only wait for their copy.
Experiment burst(const nlohmann::json& r, const sc::TimingConfig& cfg, std::vector<uint8_t>& global) {
  Experiment e;
  e.cfg = cfg;
  TensorMap m = parse_tensor_map(require(r, "tensor_map"));
  if (auto bad = validate(m)) throw Error("tensor map: " + bad->rule);
  const int loads = static_cast<int>(require_int(r, "loads"));
  const bool store = r.value("op", std::string("load")) == "store";
  const int mc = static_cast<int>(r.value("multicast", 1));
  const bool warm = require_string(r, "l2") == "warm";
  std::vector<int32_t> c0 = ints32(r, "coords0"), step = ints32(r, "coords_step");
  const int64_t bytes = m.transaction_bytes();
  const int64_t slot = (m.smem_footprint() + 1023) / 1024 * 1024;
  if (slot * loads > cfg.smem.size_bytes) throw Error("burst does not fit shared memory");
  // Global memory: enough rows for the boxes the burst touches.
  int64_t rows = 1;
  for (int k = 0; k < loads; ++k) rows = std::max<int64_t>(rows, c0[1] + int64_t(k) * step[1] + m.box_dims[1] + 1);
  m.global_dims[1] = std::min<int64_t>(m.global_dims[1], rows);
  global.assign(static_cast<size_t>(m.global_strides[0] * m.global_dims[1] + 256), 0);
  for (size_t i = 0; i < global.size(); ++i) global[i] = golden_fill(i);
  e.maps.push_back(m);
  e.global = &global;
  auto round = [&](std::vector<Step>& s, int phase, bool timed) {
    if (timed) s.push_back({Step::Kind::mark_start});
    if (!store) s.push_back({Step::Kind::arrive_expect_tx, 0, {}, 0, bytes * loads});
    for (int k = 0; k < loads; ++k) {
      Step st{store ? Step::Kind::store : Step::Kind::load};
      st.ins.op = store ? Op::store : Op::load;
      for (size_t d = 0; d < c0.size(); ++d) st.ins.coords.push_back(c0[d] + k * step[d]);
      st.ins.smem_offset = static_cast<uint32_t>(k * slot);
      st.multicast = mc;
      s.push_back(st);
    }
    if (timed) s.push_back({Step::Kind::mark_issued});
    Step w{store ? Step::Kind::wait_stores : Step::Kind::wait_barrier};
    w.phase = phase;
    s.push_back(w);
  };
  for (int c = 0; c < mc; ++c) {
    sc::CtaProgram p;
    p.sm = c;
    p.cluster_rank = c;
    p.cluster_size = mc;
    int phase = 0;
    if (c == 0) {
      if (warm) round(p.steps(), phase++, false);
      round(p.steps(), phase, true);
    } else {  // a receiving CTA: expect the bytes of every round, wait for each
      for (int k = 0; k < (warm ? 2 : 1); ++k) {
        p.steps().push_back({Step::Kind::arrive_expect_tx, 0, {}, 0, bytes * loads});
        Step w{Step::Kind::wait_barrier};
        w.phase = k;
        p.steps().push_back(w);
      }
    }
    e.ctas.push_back(p);
  }
  return e;
}

// A stream: `ctas` CTAs walk tiles through `stages` shared-memory slots; simulated for a
// bounded number of tiles per CTA (the steady state the GPU's long run measures).
Experiment stream(const nlohmann::json& r, const sc::TimingConfig& cfg, std::vector<uint8_t>& global, int per_cta) {
  Experiment e;
  e.cfg = cfg;
  TensorMap m = parse_tensor_map(require(r, "tensor_map"));
  const int ctas = static_cast<int>(require_int(r, "ctas"));
  const int stages = static_cast<int>(require_int(r, "stages"));
  const int sms = static_cast<int>(r.value("sms", 132));
  const int64_t tiles = std::min<int64_t>(require_int(r, "tiles"), int64_t(ctas) * per_cta);
  const int64_t box1 = m.box_dims[1];
  m.global_dims[1] = tiles * box1;
  global.assign(static_cast<size_t>(m.global_strides[0] * m.global_dims[1] + 256), 0);
  e.maps.push_back(m);
  e.global = &global;
  e.barriers_per_cta = stages;
  const int64_t bytes = m.transaction_bytes();
  const int64_t slot = (m.smem_footprint() + 1023) / 1024 * 1024;
  for (int c = 0; c < ctas; ++c) {
    sc::CtaProgram p;
    p.sm = c % sms;
    int i = 0;
    for (int64_t t = c; t < tiles; t += ctas, ++i) {
      const int s = i % stages;
      if (i >= stages) {
        Step w{Step::Kind::wait_barrier};
        w.barrier = s;
        w.phase = i / stages - 1;
        p.steps().push_back(w);
      }
      p.steps().push_back({Step::Kind::arrive_expect_tx, 0, {}, s, bytes});
      Step ld{Step::Kind::load};
      ld.ins.coords = {0, static_cast<int32_t>(t * box1)};
      ld.ins.smem_offset = static_cast<uint32_t>(s * slot);
      ld.barrier = s;
      p.steps().push_back(ld);
    }
    for (int k = std::max(0, i - stages); k < i; ++k) {
      Step w{Step::Kind::wait_barrier};
      w.barrier = k % stages;
      w.phase = k / stages;
      p.steps().push_back(w);
    }
    e.ctas.push_back(p);
  }
  return e;
}

std::string describe(const nlohmann::json& r) {
  std::ostringstream os;
  const auto& t = r["tensor_map"];
  os << r["kind"].get<std::string>();
  if (r.contains("op")) os << "." << r["op"].get<std::string>();
  if (r.value("multicast", 1) > 1) os << ".mc" << r["multicast"].get<int>();
  os << " " << t["swizzle"].get<std::string>() << " box";
  for (auto& b : t["box_dims"]) os << (&b == &t["box_dims"][0] ? "" : "x") << b.get<int>();
  if (r["kind"] == "burst") os << " " << r["l2"].get<std::string>() << " n=" << r["loads"].get<int>();
  else os << " ctas=" << r["ctas"].get<int>() << " stages=" << r["stages"].get<int>();
  return os.str();
}

int calibrate(const CalibrateOptions& o) {
  const sc::TimingConfig cfg = sc::TimingConfig::from_json_file(o.config);
  std::vector<double> errors;
  int passed = 0, failed = 0;
  FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "w");
  if (csv) std::fprintf(csv, "record,metric,measured,model,error_percent\n");
  std::cout << std::left << std::setw(52) << "record" << std::right << std::setw(12) << "measured" << std::setw(12)
            << "model" << std::setw(9) << "error\n";
  for (const std::string& f : o.files) {
    for_each_json_line(f, [&](const nlohmann::json& r, int line) {
      const std::string kind = r.value("kind", std::string());
      if (kind != "burst" && kind != "stream") return;  // d2d_copy and others: not TMA records
      std::string name = describe(r);
      try {
        std::vector<uint8_t> global;
        double measured, model;
        const char* metric;
        if (kind == "burst") {
          Measurement m = run_isolated(burst(r, cfg, global));
          measured = static_cast<double>(require_int(r, "total_cycles"));
          model = m.end_cycles - m.start_cycles;
          metric = "cycles";
        } else {
          Experiment e = stream(r, cfg, global, o.stream_tiles_per_cta);
          const double bytes = static_cast<double>(e.maps[0].transaction_bytes()) *
                               std::min<int64_t>(require_int(r, "tiles"), int64_t(e.ctas.size()) * o.stream_tiles_per_cta);
          Measurement m = run_isolated(e);
          measured = require(r, "GBps").get<double>();
          model = bytes / (m.end_cycles / (cfg.sm_clock_mhz * 1e6)) / 1e9;
          metric = "GB/s";
        }
        const double err = 100.0 * (model - measured) / measured;
        errors.push_back(std::fabs(err));
        const bool ok = std::fabs(err) <= o.tolerance;
        (ok ? passed : failed)++;
        std::cout << std::left << std::setw(52) << name << std::right << std::setw(12) << std::fixed
                  << std::setprecision(0) << measured << std::setw(12) << model << std::setw(8) << std::setprecision(1)
                  << err << "%" << (ok ? "" : "  FAIL") << "  " << metric << "\n";
        if (csv) std::fprintf(csv, "\"%s\",%s,%.3f,%.3f,%.3f\n", name.c_str(), metric, measured, model, err);
      } catch (const Error& e) {
        ++failed;
        std::cout << "FAIL " << name << " (" << f << ":" << line << "): " << e.what() << "\n";
      }
    });
  }
  if (csv) std::fclose(csv);
  std::sort(errors.begin(), errors.end());
  if (!errors.empty())
    std::cout << "median absolute error " << std::setprecision(1) << errors[errors.size() / 2] << "%, largest "
              << errors.back() << "%, tolerance " << o.tolerance << "%\n";
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace

void add_calibrate(CLI::App& app) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Replay GPU timing records (golden-case.md section 3) on the SystemC timing model: each record's\n"
                   "measured and modelled figure (burst: cycles from first issue to mbarrier completion; stream:\n"
                   "GB/s), the error of each, and 'N passed, M failed' at the tolerance.");
  sub->add_option("files", o->files, "timing record files (.jsonl or .jsonl.gz)")->required()->check(CLI::ExistingFile);
  o->config = std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json";
  sub->add_option("--config", o->config, "timing configuration")->capture_default_str()->check(CLI::ExistingFile);
  sub->add_option("--tolerance", o->tolerance, "largest error that passes, percent")->capture_default_str();
  sub->add_option("--stream-tiles", o->stream_tiles_per_cta, "tiles simulated per CTA for stream records")
      ->capture_default_str()->check(CLI::Range(2, 1000));
  sub->add_option("--csv", o->csv, "also write the table as CSV");
  sub->callback([o]() { throw CLI::RuntimeError(calibrate(*o)); });
}

}  // namespace tmasim::cli
