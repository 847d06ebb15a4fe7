#include "bottleneck.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "gpu_results.hpp"  // median

namespace tmasim::cli {

namespace {

constexpr size_t kTimes = static_cast<size_t>(sc::StepTime::count);

std::string role_of(const std::string& thread) {
  const size_t k = thread.rfind('[');
  return k == std::string::npos || thread.back() != ']' ? thread : thread.substr(0, k);
}

std::string percent(double f) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f%%", 100 * f);
  return b;
}

// The units and their peaks, from the run's counters: averages over the run, not instants.
std::map<std::string, double> unit_use(const sc::Measurement& m, const sc::TimingConfig& cfg) {
  std::map<std::string, double> out;
  const double cycles = m.end_cycles;
  const size_t sms = std::set<int>(m.cta_sm.begin(), m.cta_sm.end()).size();
  if (cycles <= 0 || sms == 0) return out;
  const double line = cfg.l2_line_bytes;
  if (m.smem_wavefronts && cfg.smem.wavefront_cycles > 0)
    out["shared-memory data path"] = m.smem_wavefronts * cfg.smem.wavefront_cycles / (cycles * sms);
  if (m.tma_bytes && cfg.sm_l2_bytes_per_cycle > 0)
    out["SM port from L2"] = m.tma_bytes / (cycles * sms * cfg.sm_l2_bytes_per_cycle);
  // What crossed the output: a read that rode on another SM's transfer of the line did not.
  if (m.l2_output_bytes && cfg.l2_bytes_per_cycle > 0)
    out["L2 output"] = static_cast<double>(m.l2_output_bytes) / (cycles * cfg.l2_bytes_per_cycle);
  if ((m.l2_misses || m.l2_writebacks) && cfg.hbm_bytes_per_cycle > 0)
    out["DRAM"] = (m.l2_misses * line / cfg.dram_read_bytes_per_cycle() + m.l2_writebacks * line / cfg.dram_write_bytes_per_cycle()) / cycles;
  if (m.tensor_sms > 0) out["tensor cores"] = m.tensor_busy_cycles / (cycles * m.tensor_sms);
  return out;
}

}  // namespace

Bottleneck bottleneck(const sc::Measurement& m, const sc::TimingConfig& cfg) {
  Bottleneck b;
  std::map<std::string, std::vector<std::vector<double>>> shares;  // role -> per thread, by StepTime
  std::map<std::string, std::vector<double>> times;
  std::vector<std::string> order;
  for (size_t c = 0; c < m.thread_split.size() && c < m.thread_names.size(); ++c)
    for (size_t t = 0; t < m.thread_split[c].size() && t < m.thread_names[c].size(); ++t) {
      const std::vector<double>& split = m.thread_split[c][t];
      double total = 0;
      for (double x : split) total += x;
      const std::string role = role_of(m.thread_names[c][t]);
      if (!shares.count(role)) order.push_back(role);
      std::vector<double> share(kTimes, 0.0);
      for (size_t k = 0; k < kTimes && k < split.size(); ++k) share[k] = total > 0 ? split[k] / total : 0;
      shares[role].push_back(share);
      times[role].push_back(total);
    }
  for (const std::string& name : order) {
    Bottleneck::Role r{name, std::vector<double>(kTimes, 0.0), median(times[name]), shares[name].size()};
    for (size_t k = 0; k < kTimes; ++k) {
      std::vector<double> v;
      for (const auto& s : shares[name]) v.push_back(s[k]);
      r.share[k] = median(v);
    }
    b.roles.push_back(r);
  }
  b.units = unit_use(m, cfg);
  // The verdict: a unit busy most of the run limits it; else the role that spends the most of its
  // time on its own work (not waiting on a barrier, stores or wgmma) does.
  const auto busiest = std::max_element(b.units.begin(), b.units.end(),
                                        [](const auto& x, const auto& y) { return x.second < y.second; });
  const auto own = [](const Bottleneck::Role& r) {
    double waiting = 0;
    for (size_t k = 0; k < kTimes; ++k)
      if (sc::waits_on_others(static_cast<sc::StepTime>(k))) waiting += r.share[k];
    return 1 - waiting;
  };
  const auto worker = std::max_element(b.roles.begin(), b.roles.end(),
                                        [&](const auto& x, const auto& y) { return own(x) < own(y); });
  if (busiest != b.units.end() && busiest->second >= 0.8) {
    b.verdict = busiest->first + "-bound: busy " + percent(busiest->second) + " of the run";
  } else if (worker != b.roles.end() && own(*worker) >= 0.6) {
    size_t top = 0;
    for (size_t k = 0; k < kTimes; ++k)
      if (worker->share[k] > worker->share[top]) top = k;
    b.verdict = worker->name + "-bound: " + sc::kStepTimeNames[top] + " " + percent(worker->share[top]) +
                " of its time, waiting " + percent(1 - own(*worker));
  } else {
    b.verdict = "latency-bound: every role waits most of its time";
    if (busiest != b.units.end()) b.verdict += "; the busiest unit, " + busiest->first + ", " + percent(busiest->second);
  }
  return b;
}

std::string describe(const Bottleneck& b) {
  std::string out = "  where the time goes (per thread role, median share of a thread's time):\n";
  for (const Bottleneck::Role& r : b.roles) {
    std::string parts;
    for (size_t k = 0; k < kTimes; ++k)
      if (r.share[k] >= 0.01) parts += (parts.empty() ? "" : ", ") + std::string(sc::kStepTimeNames[k]) + " " + percent(r.share[k]);
    char head[160];
    std::snprintf(head, sizeof head, "    %-12s (%zu, %.0f cycles) ", r.name.c_str(), r.threads, r.cycles);
    out += head + parts + "\n";
  }
  if (!b.units.empty()) {
    out += "  units, busy over the run (an SM's: the average of the SMs in use):";
    std::string sep = " ";
    for (const auto& [unit, use] : b.units) out += sep + unit + " " + percent(use), sep = ", ";
    out += "\n";
  }
  return out + "  verdict: " + b.verdict + "\n";
}

nlohmann::json to_json(const Bottleneck& b) {
  nlohmann::json roles = nlohmann::json::object();
  for (const Bottleneck::Role& r : b.roles) {
    nlohmann::json share = nlohmann::json::object();
    for (size_t k = 0; k < kTimes; ++k) share[sc::kStepTimeNames[k]] = r.share[k];
    roles[r.name] = {{"threads", r.threads}, {"median_cycles", r.cycles}, {"share", share}};
  }
  return {{"roles", roles}, {"units", b.units}, {"verdict", b.verdict}};
}

}  // namespace tmasim::cli
