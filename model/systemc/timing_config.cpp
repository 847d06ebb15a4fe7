#include "timing_config.hpp"

#include <type_traits>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

TimingConfig TimingConfig::from_json_file(const std::string& path) {
  return from_json(read_json_file(path, "configuration"), "configuration '" + path + "'");
}

void apply_config_overrides(nlohmann::json& j, const std::vector<std::pair<std::string, std::string>>& sets) {
  for (const auto& [key, text] : sets) {
    nlohmann::json value;
    try {
      value = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      value = text;  // a bare word: a string value (tma.agu=rtl)
    }
    const size_t dot = key.find('.');
    if (dot == std::string::npos) {
      if (!j.contains(key)) throw Error("--set " + key + ": the configuration has no key '" + key + "'");
      j[key] = value;
      continue;
    }
    const std::string section = key.substr(0, dot), field = key.substr(dot + 1);
    if (!j.is_object() || (j.contains(section) && !j[section].is_object()))
      throw Error("--set " + key + ": '" + section + "' is not a section of the configuration");
    j[section][field] = value;  // an unknown section or key is refused when the configuration is read
  }
}

TimingConfig TimingConfig::from_json(const nlohmann::json& j, const std::string& where) {
  const Fields top(j, where, "a configuration");
  top.allow({"device", "comment", "provenance", "sm_clock_mhz", "smem", "gpu", "issue", "tma", "memory", "thread",
             "compute"});
  TimingConfig c;
  c.smem = SmemConfig::from_json(j, top.where());
  c.sm_clock_mhz = top.number("sm_clock_mhz", 100, 10000);
  if (top.has("device")) (void)top.string("device");
  // Every timing parameter: integral ones must be integers, all within their range.
  auto get = [](const Fields& sec, const char* key, auto& field, double lo, double hi) {
    using T = std::remove_reference_t<decltype(field)>;
    if constexpr (std::is_integral_v<T>)
      field = static_cast<T>(sec.integer_or(key, field, static_cast<int64_t>(lo), static_cast<int64_t>(hi)));
    else
      field = static_cast<T>(sec.number_or(key, field, lo, hi));
  };
  static const nlohmann::json kAbsent = nlohmann::json::object();  // Fields keeps a reference
  auto section = [&](const char* name) {
    return top.has(name) ? top.object(name) : Fields(kAbsent, top.where() + "." + name);
  };
  const Fields gpu = section("gpu");
  gpu.allow({"sms", "max_ctas_per_sm", "max_warps_per_sm", "smem_per_sm_bytes", "smem_reserved_per_cta_bytes",
             "cta_launch_cycles"});
  get(gpu, "sms", c.sms, 1, 4096);
  get(gpu, "max_ctas_per_sm", c.max_ctas_per_sm, 1, 1024);
  get(gpu, "max_warps_per_sm", c.max_warps_per_sm, 1, 1024);
  get(gpu, "smem_per_sm_bytes", c.smem_per_sm_bytes, 1024, 1 << 30);
  get(gpu, "smem_reserved_per_cta_bytes", c.smem_reserved_per_cta_bytes, 0, 1 << 20);
  get(gpu, "cta_launch_cycles", c.cta_launch_cycles, 0, 1e6);
  const Fields issue = section("issue");
  issue.allow({"first_cycles", "cycles", "multicast_cycles"});
  get(issue, "first_cycles", c.issue_first_cycles, 0, 1e6);
  get(issue, "cycles", c.issue_cycles, 0, 1e6);
  get(issue, "multicast_cycles", c.issue_multicast_cycles, 0, 1e6);
  const Fields tma = section("tma");
  tma.allow({"op_queue_depth", "descriptor_fetch_cycles", "agu_latency_cycles", "agu_bytes_per_cycle",
             "completion_cycles", "multicast_cycles", "store_bytes_per_cycle", "store_ack_cycles", "agu"});
  get(tma, "op_queue_depth", c.op_queue_depth, 1, 1024);
  get(tma, "descriptor_fetch_cycles", c.descriptor_fetch_cycles, 0, 1e6);
  get(tma, "agu_latency_cycles", c.agu_latency_cycles, 0, 1e6);
  get(tma, "agu_bytes_per_cycle", c.agu_bytes_per_cycle, 1, 1e6);
  get(tma, "completion_cycles", c.completion_cycles, 0, 1e6);
  get(tma, "multicast_cycles", c.multicast_cycles, 0, 1e6);
  get(tma, "store_bytes_per_cycle", c.store_bytes_per_cycle, 1, 1e6);
  get(tma, "store_ack_cycles", c.store_ack_cycles, 0, 1e6);
  const std::string agu = tma.string_or("agu", "cpp");
  if (agu != "cpp" && agu != "rtl") tma.fail("agu must be \"cpp\" or \"rtl\"");
  c.rtl_agu = agu == "rtl";
  if (c.rtl_agu && c.agu_bytes_per_cycle != 16 && c.agu_bytes_per_cycle != 128)
    tma.fail("agu = \"rtl\" needs agu_bytes_per_cycle 16 or 128 (the RTL generators' two widths), got " +
             std::to_string(c.agu_bytes_per_cycle));
  const Fields mem = section("memory");
  mem.allow({"l2_hit_cycles", "l2_miss_cycles", "l2_miss_jitter_cycles", "l2_line_bytes", "sector_bytes", "l2_bytes",
             "sm_l2_bytes_per_cycle", "sm_hbm_bytes_per_cycle", "hbm_bytes_per_cycle", "time_ordered",
             "flush_dirty_fraction", "l2_bytes_per_cycle"});
  c.time_ordered = mem.boolean_or("time_ordered", c.time_ordered);
  get(mem, "l2_hit_cycles", c.l2_hit_cycles, 0, 1e6);
  get(mem, "l2_miss_cycles", c.l2_miss_cycles, 0, 1e6);
  get(mem, "l2_miss_jitter_cycles", c.l2_miss_jitter_cycles, 0, 1e6);
  get(mem, "l2_line_bytes", c.l2_line_bytes, 32, 4096);
  get(mem, "sector_bytes", c.sector_bytes, 1, 4096);
  get(mem, "l2_bytes", c.l2_bytes, 1024, 1e12);
  get(mem, "sm_l2_bytes_per_cycle", c.sm_l2_bytes_per_cycle, 1, 1e6);
  get(mem, "sm_hbm_bytes_per_cycle", c.sm_hbm_bytes_per_cycle, 1, 1e6);
  get(mem, "hbm_bytes_per_cycle", c.hbm_bytes_per_cycle, 1, 1e7);
  get(mem, "flush_dirty_fraction", c.flush_dirty_fraction, 0, 1);
  get(mem, "l2_bytes_per_cycle", c.l2_bytes_per_cycle, 0, 1e7);
  const Fields thread = section("thread");
  thread.allow({"arrive_cycles", "cluster_arrive_cycles", "wait_cycles", "wait_wakeup_cycles", "ldmatrix_cycles",
                "ldmatrix_looped_cycles", "poll_cycles", "poll_offset_cycles", "armed_load_cycles",
                "spin_overhead_cycles", "divide_cycles", "sync_cycles", "cluster_arrive_waits_for_reads",
                "armed_load_holds_thread_only"});
  c.cluster_arrive_waits_for_reads = thread.boolean_or("cluster_arrive_waits_for_reads", c.cluster_arrive_waits_for_reads);
  c.armed_load_holds_thread_only = thread.boolean_or("armed_load_holds_thread_only", c.armed_load_holds_thread_only);
  get(thread, "arrive_cycles", c.arrive_cycles, 0, 1e6);
  get(thread, "cluster_arrive_cycles", c.cluster_arrive_cycles, 0, 1e6);
  get(thread, "wait_cycles", c.wait_cycles, 0, 1e6);
  get(thread, "wait_wakeup_cycles", c.wait_wakeup_cycles, 0, 1e6);
  get(thread, "poll_cycles", c.poll_cycles, 0, 1e6);
  get(thread, "poll_offset_cycles", c.poll_offset_cycles, 0, 1e6);
  get(thread, "armed_load_cycles", c.armed_load_cycles, 0, 1e6);
  get(thread, "ldmatrix_cycles", c.ldmatrix_cycles, 0, 1e6);
  get(thread, "ldmatrix_looped_cycles", c.ldmatrix_looped_cycles, 0, 1e6);
  get(thread, "spin_overhead_cycles", c.spin_overhead_cycles, 0, 1e6);
  get(thread, "divide_cycles", c.divide_cycles, 0, 1e6);
  get(thread, "sync_cycles", c.sync_cycles, 0, 1e6);
  const Fields compute = section("compute");
  compute.allow({"mma_flops_per_cycle"});
  get(compute, "mma_flops_per_cycle", c.mma_flops_per_cycle, 1, 1e9);
  return c;
}

}  // namespace tmasim::sc
