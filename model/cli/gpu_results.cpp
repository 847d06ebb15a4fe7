#include "gpu_results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::cli {

namespace fs = std::filesystem;
using nlohmann::json;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Results read_results(const std::string& path, const Wanted& wanted) {
  constexpr size_t kMaxKept = size_t(256) << 20;
  Results out;
  size_t kept_bytes = 0;
  auto keep = [&](const json& j, const std::string& where) {
    const Fields f(j, where, "a GPU result");
    const std::string file = f.has("file") ? f.string("file") : "", name = f.has("scenario") ? f.string("scenario") : "";
    out.named += !name.empty();
    const bool want = wanted.files.count(file) || wanted.names.count(name) || (wanted.one_scenario && out.named == 1 && !name.empty());
    if (!want) return;
    kept_bytes += j.dump().size();
    if (kept_bytes > kMaxKept) throw Error(path + ": the results of the scenarios compared pass 256 MiB");
    if (!file.empty() && wanted.files.count(file) && !out.by_file.emplace(file, j).second) out.twice.insert(file);
    if (!name.empty() && wanted.names.count(name) && !out.by_name.emplace(name, j).second) out.twice.insert(name);
    if (wanted.one_scenario && out.named == 1 && !name.empty()) out.only = j;
  };
  if (fs::is_directory(path)) {
    for (auto& e : fs::recursive_directory_iterator(path))
      if (e.is_regular_file() && e.path().extension() == ".json") {
        keep(read_json_file(e.path().string(), "result"), e.path().string());
      }
  } else if (path.size() > 5 && (path.substr(path.size() - 5) == "jsonl" || path.substr(path.size() - 8) == "jsonl.gz")) {
    for_each_json_line(path, [&](const json& j, int line) { keep(j, path + ":" + std::to_string(line)); });
  } else {
    keep(read_json_file(path, "result"), path);
  }
  if (out.named != 1) out.only.reset();
  return out;
}

void judge(Row& row, const json& result, const sc::Measurement* m, const std::string& model_error,
           const std::string& l2, double tol) {
  const Fields r(result, "GPU result for " + row.file, "a GPU result");
  const bool gpu_hang = r.has("hang");
  if (r.has("launch_error") || r.has("encode_error")) {
    row.status = "error";
    row.note = "GPU: " + r.string(r.has("launch_error") ? "launch_error" : "encode_error");
    return;
  }
  if (!m) {
    const bool model_deadlock = model_error.find("deadlock") != std::string::npos;
    // A program the run refuses because it cannot end well on the GPU (Cta::check_loads_waited,
    // CtaThread::check_phase_wait) agrees with a GPU run that did not finish.
    const bool model_refuses = model_error.find(sc::kRefusalUnwaitedLoads) != std::string::npos ||
                               model_error.find(sc::kRefusalParityWait) != std::string::npos;
    row.status = gpu_hang && (model_deadlock || model_refuses) ? "pass" : "fail";
    row.note = !gpu_hang        ? "model: " + model_error
               : model_deadlock ? "both hang"
               : model_refuses  ? "GPU hangs, the model refuses: " + model_error
                                : "GPU hangs, model: " + model_error;
    return;
  }
  if (gpu_hang) {
    row.status = "fail";
    row.note = "GPU hangs (" + r.string("hang") + "), the model finishes";
    return;
  }
  const Fields g = r.object(l2.c_str());
  constexpr double kMaxCycles = 1e15;
  const std::vector<double> gpu_cta = g.numbers("cta_cycles", 65536, 0, kMaxCycles);
  if (gpu_cta.size() != m->cta_end_cycles.size()) {
    row.status = "error";
    row.note = "the GPU ran " + std::to_string(gpu_cta.size()) + " CTAs, the model " +
               std::to_string(m->cta_end_cycles.size());
    return;
  }
  row.model = m->end_cycles;
  row.gpu = g.object("span_cycles").number("median", 0, kMaxCycles);
  // A kernel or a CTA that took no time did not run: such a result cannot be judged a pass.
  if (row.gpu <= 0 || std::any_of(gpu_cta.begin(), gpu_cta.end(), [](double c) { return c <= 0; })) {
    row.status = "error";
    row.note = "the GPU result has a kernel or CTA of 0 cycles: it cannot be true";
    return;
  }
  row.kernel_err = (row.model - row.gpu) / row.gpu;
  std::vector<double> errs;
  for (size_t c = 0; c < gpu_cta.size(); ++c) {  // each CTA from its own start, as its clock64 on the GPU
    const double model_cta = m->cta_end_cycles[c] - m->cta_start_cycles.at(c);
    errs.push_back((model_cta - gpu_cta[c]) / gpu_cta[c]);
  }
  row.cta_err = median(errs);
  row.status = std::fabs(row.kernel_err) <= tol && std::fabs(row.cta_err) <= tol ? "pass" : "fail";
  // Per-step timestamps, where the scenario has stamp steps: thread t of a CTA is its warp t.
  if (g.has("stamps")) {
    const json& stamps = g.at("stamps");
    if (!stamps.is_array() || stamps.size() != gpu_cta.size()) g.fail("'stamps' must hold one array per CTA");
    std::vector<double> serr;
    for (size_t c = 0; c < stamps.size(); ++c) {
      if (!stamps[c].is_array()) g.fail("'stamps' must hold one array of warps per CTA");
      for (size_t t = 0; t < stamps[c].size() && t < m->stamps[c].size(); ++t) {
        const json holder{{"cycles", stamps[c][t]}};  // Fields keeps a reference
        const Fields warp(holder, g.where() + ".stamps", "stamps");
        const std::vector<double> gpu = warp.numbers("cycles", 1 << 20, 0, kMaxCycles);
        for (size_t k = 0; k < gpu.size() && k < m->stamps[c][t].size(); ++k)
          if (gpu[k] > 0) serr.push_back(std::fabs(m->stamps[c][t][k] - gpu[k]) / gpu[k]);
      }
    }
    if (!serr.empty()) {
      char note[96];
      std::snprintf(note, sizeof note, "(stamps: median |error| %.1f%% over %zu)", median(serr) * 100, serr.size());
      row.note = note;
    }
  }
}

}  // namespace tmasim::cli
