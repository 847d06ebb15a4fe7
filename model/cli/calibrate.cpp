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
#include "tmasim/json_input.hpp"

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

constexpr int64_t kMaxGlobal = int64_t(1) << 30;  // bytes of global memory a record may need

// The record's tensor map: valid for the driver, tiled, rank 2 or more (records walk dimension 1).
TensorMap record_map(const Fields& r) {
  TensorMap m = parse_tensor_map(r.at("tensor_map"), r.where() + ": tensor_map");
  if (auto bad = validate(m)) r.fail("tensor_map: " + bad->rule + ": " + bad->message);
  if (m.mode != TensorMode::tiled || m.rank < 2) r.fail("timing records need a tiled tensor map of rank 2 or more");
  return m;
}

std::vector<int32_t> coords_of(const Fields& r, const char* key, int rank) {
  std::vector<int32_t> v;
  for (int64_t x : r.integers(key, static_cast<size_t>(rank), static_cast<size_t>(rank), INT32_MIN / 4, INT32_MAX / 4))
    v.push_back(static_cast<int32_t>(x));
  return v;
}

// Global memory for `rows` rows of dimension 1, filled with the golden pattern.
void fill_global(const Fields& r, TensorMap& m, int64_t rows, std::vector<uint8_t>& global) {
  m.global_dims[1] = std::max<int64_t>(1, std::min<int64_t>(m.global_dims[1], rows));
  const int64_t bytes = m.global_strides[0] * m.global_dims[1] + 256;
  if (bytes > kMaxGlobal) r.fail("the record needs more than 1 GiB of global memory");
  global.assign(static_cast<size_t>(bytes), 0);
  for (size_t i = 0; i < global.size(); ++i) global[i] = golden_fill(i);
}

// A burst: CTA 0 issues `loads` copies back to back on one barrier (after an identical
// warm-up round for warm L2); multicast clusters' other CTAs only wait for their copy.
Experiment burst(const Fields& r, const sc::TimingConfig& cfg, std::vector<uint8_t>& global) {
  Experiment e;
  e.cfg = cfg;
  TensorMap m = record_map(r);
  const int loads = static_cast<int>(r.integer("loads", 1, 256));
  const std::string op = r.string_or("op", "load");
  if (op != "load" && op != "store") r.fail("op must be load or store");
  const bool store = op == "store";
  const int mc = static_cast<int>(r.integer_or("multicast", 1, 1, 8));
  const std::string l2 = r.string("l2");
  if (l2 != "cold" && l2 != "warm") r.fail("l2 must be cold or warm");
  const bool warm = l2 == "warm";
  std::vector<int32_t> c0 = coords_of(r, "coords0", m.rank), step = coords_of(r, "coords_step", m.rank);
  const int64_t bytes = m.transaction_bytes();
  const int64_t slot = (m.smem_footprint() + 1023) / 1024 * 1024;
  if (slot * loads > cfg.smem.size_bytes) r.fail("the burst does not fit shared memory");
  // Global memory: enough rows for the boxes the burst touches.
  int64_t rows = 1;
  for (int k = 0; k < loads; ++k) rows = std::max<int64_t>(rows, c0[1] + int64_t(k) * step[1] + m.box_dims[1] + 1);
  fill_global(r, m, rows, global);
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
Experiment stream(const Fields& r, const sc::TimingConfig& cfg, std::vector<uint8_t>& global, int per_cta) {
  Experiment e;
  e.cfg = cfg;
  TensorMap m = record_map(r);
  const int ctas = static_cast<int>(r.integer("ctas", 1, 4096));
  const int stages = static_cast<int>(r.integer("stages", 1, 32));
  const int sms = static_cast<int>(r.integer_or("sms", 132, 1, 1024));
  const int64_t tiles = std::min<int64_t>(r.integer("tiles", 1, INT32_MAX), int64_t(ctas) * per_cta);
  const int64_t box1 = m.box_dims[1];
  if (tiles * box1 > INT32_MAX) r.fail("the stream's rows do not fit 32-bit coordinates");
  const int64_t slot = (m.smem_footprint() + 1023) / 1024 * 1024;
  if (slot * stages > cfg.smem.size_bytes) r.fail("the stream's stages do not fit shared memory");
  m.global_dims[1] = tiles * box1;
  fill_global(r, m, tiles * box1, global);
  e.maps.push_back(m);
  e.global = &global;
  e.barriers_per_cta = stages;
  const int64_t bytes = m.transaction_bytes();
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
      ld.ins.coords.resize(static_cast<size_t>(m.rank), 0);
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
  if (csv) std::fprintf(csv, "record,metric,measured,model,error_percent\n");
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
          Measurement m = run_isolated(burst(r, cfg, global));
          measured = static_cast<double>(r.integer("total_cycles", 1, INT64_MAX));
          model = m.end_cycles - m.start_cycles;
          metric = "cycles";
        } else {
          Experiment e = stream(r, cfg, global, o.stream_tiles_per_cta);
          const double bytes = static_cast<double>(e.maps[0].transaction_bytes()) *
                               std::min<int64_t>(r.integer("tiles", 1, INT32_MAX), int64_t(e.ctas.size()) * o.stream_tiles_per_cta);
          Measurement m = run_isolated(e);
          measured = r.number("GBps", 1e-6, 1e6);
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
  if (csv && std::fclose(csv) != 0) throw Error("cannot write " + o.csv);
  if (timed == 0) throw Error(records == 0 ? "the timing-record files hold no records" : "the files hold no burst or stream records");
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
