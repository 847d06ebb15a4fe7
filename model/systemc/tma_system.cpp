#include "tma_system.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <cmath>
#include <cstring>
#include <fstream>
#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include <nlohmann/json.hpp>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"
#ifdef TMASIM_HAVE_RTL_AGU
using sc_core::sc_time_stamp;  // verilated.h calls it unqualified once it sees SystemC
#include "Vtma_agu_cpp.h"
#include "tmasim/agu_command.hpp"
#include "Vtma_agu_im2col_cpp.h"
#include "Vtma_agu_im2col_wide_cpp.h"
#include "Vtma_agu_wide_cpp.h"
#include "verilated.h"
#endif

namespace tmasim::sc {

using namespace sc_core;

std::exception_ptr& process_error() {
  static std::exception_ptr kept;
  return kept;
}

void announce_main_stack() {
#if defined(__SANITIZE_ADDRESS__)
  // Tell AddressSanitizer again which stack this thread runs on (as a fiber switch to it), so
  // that its clean-up before a throw covers the whole of it.
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* bottom = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &bottom, &size);
  pthread_attr_destroy(&attr);
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, bottom, size);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

void throw_process_error() {
  std::exception_ptr e = process_error();
  process_error() = nullptr;
  if (!e) return;
  announce_main_stack();
  std::rethrow_exception(e);
}

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

namespace {
int l2_promotion_bytes(L2Promotion p) {
  switch (p) {
    case L2Promotion::b64: return 64;
    case L2Promotion::b128: return 128;
    case L2Promotion::b256: return 256;
    default: return 0;
  }
}
}  // namespace

// ---------------------------------------------------------------------------------------
L2Start l2_start_from_name(const std::string& name) {
  if (name == "cold") return L2Start::cold;
  if (name == "cold_clean") return L2Start::cold_clean;
  if (name == "warm") return L2Start::warm;
  throw Error("the L2 start state must be cold (after a write flush: dirty lines), cold_clean (clean lines) or warm "
              "(after a run of the same program), got '" + name + "'");
}

MemorySystem::MemorySystem(sc_module_name name, const TimingConfig& cfg, GlobalMemory memory, L2Start start)
    : sc_module(name), socket("socket"), cfg_(cfg), mem_(memory), cycle_(cfg.cycle()),
      hit_latency_(cfg.cycle() * cfg.l2_hit_cycles), line_bytes_(static_cast<uint64_t>(cfg.l2_line_bytes)),
      lines_(static_cast<uint64_t>(cfg.l2_bytes) / static_cast<uint64_t>(cfg.l2_line_bytes)) {
  socket.register_b_transport(this, &MemorySystem::transport);
  port_from_l2_.bytes_per_cycle = cfg.sm_l2_bytes_per_cycle;
  l2_out_.bytes_per_cycle = cfg.l2_bytes_per_cycle;
  if ((line_bytes_ & (line_bytes_ - 1)) == 0) line_shift_ = __builtin_ctzll(line_bytes_);
  old_lines_total_ = lines_.capacity();
  if (start == L2Start::cold)
    old_dirty_ = static_cast<uint64_t>(std::llround(cfg.flush_dirty_fraction * static_cast<double>(old_lines_total_)));
}

void MemorySystem::make_resident(uint64_t addr, uint64_t len) {
  if (len == 0) return;
  const uint64_t line = static_cast<uint64_t>(cfg_.l2_line_bytes);
  sc_time pending = SC_ZERO_TIME;  // a new line's data is there from time zero
  fresh_.clear();
  for (uint64_t l = addr / line; l <= (addr + len - 1) / line; ++l) lookup_and_fill(l, pending);
  evict_old_lines(fresh_.size());  // the start state is clean here: nothing to write back
  fresh_.clear();
}

// The start state's dirty lines are spread evenly among its lines: of the first k evicted,
// floor(k * dirty / lines) are dirty.
uint64_t MemorySystem::evict_old_lines(uint64_t fills) {
  const uint64_t n = std::min(fills, old_lines_total_ - old_evicted_);
  if (n == 0) return 0;
  const auto dirty_among = [&](uint64_t k) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(k) * old_dirty_ / old_lines_total_);
  };
  const uint64_t dirty = dirty_among(old_evicted_ + n) - dirty_among(old_evicted_);
  old_evicted_ += n;
  writebacks_ += dirty;
  return dirty;
}

bool MemorySystem::lookup_and_fill(uint64_t line, sc_time& pending) {
  const int32_t n = lines_.find(line);
  if (n != LineTable::kNone) {
    lines_.touch(n);
    pending = std::max(pending, lines_.ready(n));
    return true;
  }
  lines_.insert(line);
  fresh_.push_back(line);
  return false;
}

// A read or write of one contiguous run (timing only: the functional core moves the bytes, the
// payloads carry none): L2 hit or miss per line; read misses queue on the
// chip's HBM bandwidth; every request then streams through its SM's port. Writes allocate in
// the L2 and are acknowledged from it; a written line that was not resident costs DRAM
// bandwidth for its eventual write-back, and a reduction on such a line first fetches it.
void MemorySystem::transport(int port, tlm::tlm_generic_payload& p, sc_time& delay) {
  now_ = sc_time_stamp();
  const uint64_t addr = p.get_address();
  const unsigned len = p.get_data_length();
  DeliveryExt* delivery = nullptr;
  p.get_extension(delivery);
  if (p.get_command() == tlm::TLM_IGNORE_COMMAND && delivery) {  // multicast bytes for another SM: its port streams them in
    const sc_time to = book_port(sm_of(delivery->port), sc_time_stamp() + delay,
                                 cfg_.cycle() * (len / cfg_.sm_l2_bytes_per_cycle));
    delay = to - sc_time_stamp();
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  L2PromotionExt* promo = nullptr;
  p.get_extension(promo);
  const uint64_t span = promo && promo->bytes > 0 ? static_cast<uint64_t>(promo->bytes) : 0;
  ReadBurstExt* burst = nullptr;
  p.get_extension(burst);
  if (burst && p.is_read()) {  // a box's rows, each served as its own request would be
    constexpr size_t kAhead = 8;  // the L2's index is larger than the caches: ask for rows to come
    // In locals: the stores of times below could alias the extension's fields.
    const size_t rows = burst->rows;
    const uint64_t* addr = burst->addr;
    const uint64_t* bytes = burst->bytes;
    const sc_time* at = burst->at;
    sc_time* done = burst->done;
    sc_time* l2_ready = burst->l2_ready;
    for (size_t k = 0; k < std::min(kAhead, rows); ++k) lines_.prefetch(line_of(addr[k]));
    const int sm = sm_of(port);
    for (size_t k = 0; k < rows; ++k) {
      if (k + kAhead < rows) lines_.prefetch(line_of(addr[k + kAhead]));
      if (k + kAhead / 2 < rows) lines_.prefetch_node(line_of(addr[k + kAhead / 2]));
      if (!in_memory(addr[k], bytes[k])) {
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
      }
      Served s;
      if (!serve_line_hit(sm, addr[k], bytes[k], at[k], s)) s = serve(port, false, false, addr[k], bytes[k], at[k], span);
      done[k] = s.done;
      l2_ready[k] = s.l2_ready;
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!in_memory(addr, len)) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  ReduceExt* red = nullptr;
  p.get_extension(red);
  const Served s = serve(port, p.is_write(), red && red->reduce, addr, len, sc_time_stamp() + delay, span);
  if (promo) promo->l2_ready = s.l2_ready;
  delay = s.done - sc_time_stamp();
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool MemorySystem::in_memory(uint64_t addr, uint64_t len) const {
  const uint64_t rel = addr - mem_.base;
  return addr >= mem_.base && rel + len <= mem_.size && rel + len >= rel;
}

inline bool MemorySystem::serve_line_hit(int sm, uint64_t addr, uint64_t len, sc_time arrival, Served& out) {
  const uint64_t line = line_of(addr);
  if (line != line_of(addr + len - 1)) return false;
  const int32_t n = lines_.find(line);
  if (n == LineTable::kNone) return false;
  lines_.touch(n);
  bytes_ += len;
  out = read_hit(sm, len, arrival, lines_.ready(n));
  return true;
}

// A read whose lines are all resident (their data there from `pending` on): the L2's output,
// then the SM's port.
inline MemorySystem::Served MemorySystem::read_hit(int sm, uint64_t len, sc_time arrival, sc_time pending) {
  ++hits_;
  const sc_time ready = std::max(arrival + hit_latency_, pending);
  return {ready, book_port(sm, book_l2_out(ready, len), port_time_from_l2(len))};
}

inline MemorySystem::Served MemorySystem::serve(int port, bool write, bool reduce, uint64_t addr, uint64_t len,
                                                sc_time arrival, uint64_t span) {
  bytes_ += len;
  bool all_hit = true;
  sc_time pending = SC_ZERO_TIME;  // a resident line whose fill is still on its way delays a hit
  fresh_.clear();
  const uint64_t first_line = line_of(addr), last_line = line_of(addr + len - 1);
  for (uint64_t l = first_line; l <= last_line; ++l) all_hit &= lookup_and_fill(l, pending);
  if (all_hit && !write) return read_hit(sm_of(port), len, arrival, pending);  // most reads: no fill, no DRAM
  return serve_fill(port, write, reduce, addr, len, arrival, span, all_hit, pending);
}

MemorySystem::Served MemorySystem::serve_fill(int port, bool write, bool reduce, uint64_t addr, uint64_t len,
                                              sc_time arrival, uint64_t span, bool all_hit, sc_time pending) {
  const sc_time cyc = cycle_;
  const uint64_t line = line_bytes_;
  // A miss fetches whole sectors of the request, widened to the promotion span if larger.
  uint64_t fill_lo = addr, fill_hi = addr + len;
  if (span) {
    fill_lo = fill_lo / span * span;
    fill_hi = (fill_hi + span - 1) / span * span;
  }
  const uint64_t sector = static_cast<uint64_t>(cfg_.sector_bytes);
  fill_lo = fill_lo / sector * sector;
  fill_hi = (fill_hi + sector - 1) / sector * sector;
  if (!all_hit)  // the promoted neighbours become resident too
    for (uint64_t l = fill_lo / line; l <= (fill_hi - 1) / line; ++l) lookup_and_fill(l, pending);
  const auto dram_cycles = [&](double bytes) { return cyc * (bytes / cfg_.hbm_bytes_per_cycle); };
  sc_time ready;
  if (write && (all_hit || !reduce)) {
    all_hit ? ++hits_ : ++misses_;
    if (!all_hit) book_dram(arrival, dram_cycles(static_cast<double>(len)));
    ready = arrival;
  } else if (all_hit) {
    ++hits_;
    ready = std::max(arrival + hit_latency_, pending);
  } else if (write) {  // a reduction on a line not in L2: fetch it, write it back later
    ++misses_;
    const sc_time start = book_dram(arrival, dram_cycles(2.0 * static_cast<double>(fill_hi - fill_lo)));
    ready = start + cyc * cfg_.l2_miss_cycles;
  } else {
    ++misses_;
    const sc_time start = book_dram(arrival, dram_cycles(static_cast<double>(fill_hi - fill_lo)));
    hbm_backlog_cycles_ = static_cast<int64_t>((start - arrival) / cyc);
    uint64_t h = addr / line + 0x9e3779b97f4a7c15ull;  // splitmix64 of the line index
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
    const double u = (static_cast<double>(h >> 32) + 1.0) / 4294967296.0;  // (0, 1]
    ready = std::max(start + cyc * (cfg_.l2_miss_cycles - cfg_.l2_miss_jitter_cycles * std::log(u)), pending);
  }
  // The lines this request allocated evicted the start state's; a dirty one goes back to DRAM
  // after the request's own transfer (a write-back buffer: it costs bandwidth, not this latency).
  if (const uint64_t dirty = evict_old_lines(fresh_.size()))
    book_dram(arrival, dram_cycles(static_cast<double>(dirty * line)));
  for (uint64_t l : fresh_) {  // the lines this request allocated hold data from `ready` on
    const int32_t n = lines_.find(l);
    if (n != LineTable::kNone) lines_.ready(n) = ready;
  }
  const double rate = all_hit || write ? cfg_.sm_l2_bytes_per_cycle : cfg_.sm_hbm_bytes_per_cycle;
  return {write ? arrival : ready, book_port(sm_of(port), ready, cyc * (static_cast<double>(len) / rate))};
}

// The DRAM interface and each SM's port serve one transfer at a time: in the order the
// requests were booked (fifo), or each in the earliest gap at or after its data is there
// (time order: a transfer whose data is ready earlier is not held behind one booked before it).
sc_time MemorySystem::book_dram(sc_time arrival, sc_time duration) {
  if (cfg_.time_ordered) return dram_.book(arrival, duration, now_);
  const sc_time start = std::max(arrival, hbm_free_);
  hbm_free_ = start + duration;
  return start;
}

[[gnu::always_inline]] inline sc_time MemorySystem::book_l2_out(sc_time ready, uint64_t bytes) {
  if (cfg_.l2_bytes_per_cycle <= 0) return ready;
  const sc_time duration = l2_out_.of(bytes, cycle_);
  if (cfg_.time_ordered) return l2_.book(ready, duration, now_);
  const sc_time start = std::max(ready, l2_free_);
  l2_free_ = start + duration;
  return start;
}

[[gnu::always_inline]] inline sc_time MemorySystem::book_port(int sm, sc_time ready, sc_time duration) {
  if (cfg_.time_ordered) {
    if (static_cast<size_t>(sm) >= ports_.size()) ports_.resize(static_cast<size_t>(sm) + 1);
    return ports_[static_cast<size_t>(sm)].book(ready, duration, now_) + duration;
  }
  if (static_cast<size_t>(sm) >= port_free_.size()) port_free_.resize(static_cast<size_t>(sm) + 1, SC_ZERO_TIME);
  sc_time& free = port_free_[static_cast<size_t>(sm)];
  free = std::max(ready, free) + duration;
  return free;
}

void MemorySystem::place(int binding, int sm) {
  if (binding >= static_cast<int>(sm_of_binding_.size())) sm_of_binding_.resize(static_cast<size_t>(binding) + 1, -1);
  sm_of_binding_[static_cast<size_t>(binding)] = sm;
}

int MemorySystem::sm_of(int binding) const {
  const bool placed = binding < static_cast<int>(sm_of_binding_.size()) && sm_of_binding_[binding] >= 0;
  return placed ? sm_of_binding_[binding] : binding;
}

// ---------------------------------------------------------------------------------------
Mbarrier::Mbarrier(sc_module_name name, int arrival_count)
    : sc_module(name), count_(arrival_count), pending_arrivals_(arrival_count) {
  if (arrival_count < 1) throw Error(std::string(this->name()) + ": an mbarrier needs an arrival count of at least 1");
  SC_METHOD(apply);
  sensitive << due_;
  dont_initialize();
}

void Mbarrier::arrive(int64_t expect_tx_bytes) {
  tx_ += expect_tx_bytes;
  --pending_arrivals_;
  try_complete();
}

void Mbarrier::complete_at(sc_time when, int64_t bytes) {
  pending_.emplace(when, bytes);
  due_.notify(when > sc_time_stamp() ? when - sc_time_stamp() : SC_ZERO_TIME);  // an earlier one stays
}

void Mbarrier::apply() {
  while (!pending_.empty() && pending_.begin()->first <= sc_time_stamp()) {
    tx_ -= pending_.begin()->second;
    pending_.erase(pending_.begin());
  }
  if (!pending_.empty()) due_.notify(pending_.begin()->first - sc_time_stamp());
  try_complete();
}

void Mbarrier::try_complete() {
  if (pending_arrivals_ > 0 || tx_ != 0) return;
  pending_arrivals_ = count_;
  ++phase_;
  last_flip_ = sc_time_stamp();
  flipped_.notify(SC_ZERO_TIME);
}

void Mbarrier::wait_phase(int phase) {
  while (phase_ <= phase) wait(flipped_);
}

void Mbarrier::wait_parity(int parity) {
  while ((phase_ & 1) == (parity & 1)) wait(flipped_);
}

// ---------------------------------------------------------------------------------------
TmaUnit::TmaUnit(sc_module_name name, const TimingConfig& cfg, GlobalMemory global,
                 std::vector<BankedSmem*> cluster_smem, int own_rank, int first_port)
    : sc_module(name), mem("mem"), cfg_(cfg), global_(global), cluster_smem_(std::move(cluster_smem)),
      own_rank_(own_rank), queue_("queue", cfg.op_queue_depth),
      first_port_(first_port) {
  for (size_t k = 0; k < cluster_smem_.size(); ++k)
    smem.push_back(std::make_unique<tlm_utils::simple_initiator_socket<TmaUnit>>(("smem_" + std::to_string(k)).c_str()));
  SC_THREAD(run);
  SC_METHOD(on_retire);
  sensitive << retire_;
  dont_initialize();
  SC_METHOD(show_occupancy);
  sensitive << queue_changed_;
  dont_initialize();
}

// The one writer of `occupancy`: several threads of a CTA may issue in the same delta cycle,
// and a signal takes one write per delta.
void TmaUnit::show_occupancy() { occupancy.write(cfg_.op_queue_depth - queue_.num_free()); }

void TmaUnit::on_retire() {
  while (!retiring_.empty() && retiring_.begin()->first <= sc_time_stamp()) {
    --ops_in_flight_;
    bytes_in_flight_ -= retiring_.begin()->second;
    retiring_.erase(retiring_.begin());
  }
  if (!retiring_.empty()) retire_.notify(retiring_.begin()->first - sc_time_stamp());  // the next
}

void TmaUnit::submit(const TmaOp& op) {
  ++ops_in_flight_;
  bytes_in_flight_ += op.ins->op == Op::prefetch ? 0 : op.map->transaction_bytes();
  TmaOp o = op;
  o.issued_cycles = sc_time_stamp() / cfg_.cycle();
  queue_.write(o);
  const int waiting = cfg_.op_queue_depth - queue_.num_free();  // counts this delta's writes too
  max_queue_ = std::max(max_queue_, waiting);
  queue_changed_.notify(sc_core::SC_ZERO_TIME);
}

void TmaUnit::run() {
  guarded([this] { serve(); });
}

void TmaUnit::serve() {
  for (;;) {
    TmaOp op = queue_.read();
    queue_changed_.notify(sc_core::SC_ZERO_TIME);
    ++ops_;
    const double start = sc_time_stamp() / cfg_.cycle();
    bytes_ += static_cast<uint64_t>(op.ins->op == Op::prefetch ? 0 : op.map->transaction_bytes());
    if (op.ins->op == Op::load) {
      load(op, start);
    } else if (op.ins->op == Op::prefetch) {
      prefetch(op);
      lifetimes.push_back({op.ins->op, op.issued_cycles, start, start});
    } else {
      sc_time read_done;
      const sc_time done = store(op, read_done);
      lifetimes.push_back({op.ins->op, op.issued_cycles, start, done / cfg_.cycle()});
      if (op.done) op.done->notify(done - sc_time_stamp());
      if (op.read_done) op.read_done->notify(read_done - sc_time_stamp());
    }
    const sc_time done = std::max(sc_time_stamp(), cfg_.cycle() * lifetimes.back().done);
    retiring_.emplace(done, op.ins->op == Op::prefetch ? 0 : op.map->transaction_bytes());
    retire_.notify(done - sc_time_stamp());  // an earlier one stays
    // The next operation's requests start once this one's have all been generated.
    if (eng_->agu_free > sc_time_stamp()) wait(eng_->agu_free - sc_time_stamp());
  }
}

sc_time TmaUnit::transfer_box(int cta, bool write, const std::vector<uint32_t>& pieces,
                              const std::vector<sc_time>& arrivals, uint8_t* data, bool each_row) {
  BoxTransferExt box;
  box.pieces = pieces.data();
  box.pieces_per_row = arrivals.empty() ? 0 : static_cast<int>(pieces.size() / arrivals.size());
  box.rows = arrivals.size();
  box.arrivals = arrivals.data();
  if (each_row) {
    s_->row_done.resize(arrivals.size());
    box.row_done = s_->row_done.data();
  }
  box.pattern = pattern_;
  tlm::tlm_generic_payload& p = payload_;
  p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(0);
  p.set_data_ptr(data);
  p.set_data_length(static_cast<unsigned>(16 * pieces.size()));
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.set_extension(&box);
  sc_time d = SC_ZERO_TIME;
  (*smem[cta])->b_transport(p, d);
  p.clear_extension(&box);
  if (p.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw Error("shared-memory access refused by " + std::string(cluster_smem_[cta]->name()));
  return box.done;
}

void TmaUnit::load(const TmaOp& op, double start_cycles) {
  const TensorMap& m = *op.map;
  const sc_time cyc = cfg_.cycle();
  // Data: the functional core computes the box as it lands in shared memory (a timing-only
  // run checks the instruction and moves nothing).
  const bool bytes = cfg_.smem.move_bytes;
  std::vector<uint8_t>& image = s_->image;  // shared by the chip's TMA units: as large as the largest memory
  if (bytes) {
    const size_t smem_bytes = cluster_smem_[own_rank_]->memory().size();
    if (image.size() < smem_bytes) image.resize(smem_bytes);
    execute(m, *op.ins, global_, SharedMemory{image.data(), image.size()});
  } else {
    check_instruction(m, *op.ins);
  }

  sc_time t = sc_time_stamp() + cyc * cfg_.agu_latency_cycles;
  if (std::find(eng_->descriptors.begin(), eng_->descriptors.end(), &m) == eng_->descriptors.end()) {
    eng_->descriptors.push_back(&m);
    t += cyc * cfg_.descriptor_fetch_cycles;
  }
  const size_t dests = static_cast<size_t>(op.dest_count);
  std::array<sc_time, TmaOp::kMaxDestinations> done;
  done.fill(t);
  const int64_t row_bytes = m.inner_row_bytes();
  // With the RTL generator each row leaves at the cycle the RTL emitted its first beat (its own
  // set-up latency and one beat per cycle); the C++ one generates agu_bytes_per_cycle.
  const RowPlans& plans = cfg_.rtl_agu ? plan_rows_rtl(m, *op.ins) : plan_rows(m, *op.ins);
  // Rows leave the generator in order; each is read from global memory (one request per row),
  // multicast to the other SMs of the cluster, and written into each destination's shared
  // memory (one transaction per destination for the whole box).
  const size_t rows = plans.count;
  s_->issues.resize(rows);
  TmaScratch::Burst& burst = s_->burst;
  burst.resize(rows);
  size_t reads = 0;
  const sc_time row_time = cyc * (row_bytes / cfg_.agu_bytes_per_cycle);  // the C++ generator's, per row
  sc_time agu_free = eng_->agu_free;
  for (size_t r = 0; r < rows; ++r) {
    const RowPlan& row = plans.rows[r];
    const sc_time issue = cfg_.rtl_agu ? t + cyc * static_cast<double>(row.agu_cycle) : std::max(t, agu_free);
    agu_free = cfg_.rtl_agu ? t + cyc * static_cast<double>(plans.agu_end_cycle) : issue + row_time;
    s_->issues[r] = issue;
    if (row.bytes > 0) burst.set(reads++, row.gaddr, static_cast<uint64_t>(row.bytes), issue);
  }
  eng_->agu_free = agu_free;
  burst.resize(reads);
  read_burst(m.l2_promotion);
  // A box of in-bound rows for this CTA alone (most): each row is there when its read is back.
  const bool read_is_arrival = dests == 1 && op.dests[0].rank == own_rank_ && reads == rows;
  if (!read_is_arrival) {
    s_->arrivals.resize(dests);
    for (auto& a : s_->arrivals) a.resize(rows);
    size_t read = 0;
    for (size_t r = 0; r < rows; ++r) {
      const RowPlan& row = plans.rows[r];
      const sc_time arrive = row.bytes > 0 ? burst.done[read++] : s_->issues[r];
      for (size_t d = 0; d < dests; ++d) {
        const int rank = op.dests[d].rank;
        sc_time at = arrive;
        if (rank != own_rank_) at = (row.bytes > 0 ? deliver(rank, row.bytes, arrive) : arrive) + cyc * cfg_.multicast_cycles;
        s_->arrivals[d][r] = at;
      }
    }
  }
  if (bytes) {
    s_->box_data.resize(16 * plans.pieces.size());
    uint8_t* to = s_->box_data.data();
    for (uint32_t a : plans.pieces) std::memcpy(to, image.data() + a, 16), to += 16;
  }
  for (size_t d = 0; d < dests; ++d) {
    done[d] = std::max(done[d], transfer_box(op.dests[d].rank, true, plans.pieces,
                                             read_is_arrival ? burst.done : s_->arrivals[d],
                                             bytes ? s_->box_data.data() : nullptr, false));
  }
  sc_time last = t;
  for (size_t d = 0; d < dests; ++d) {
    const sc_time complete = done[d] + cyc * cfg_.completion_cycles;
    if (op.dests[d].barrier) op.dests[d].barrier->complete_at(complete, m.transaction_bytes());
    last = std::max(last, complete);
  }
  lifetimes.push_back({op.ins->op, op.issued_cycles, start_cycles, last / cyc});
}

// One request to the memory system at `at`, carrying `ext`; returns when it completes. The
// payload carries no bytes: they come from (or went to) the functional core.
template <class Ext>
sc_time TmaUnit::memory_request(tlm::tlm_command cmd, uint64_t addr, int64_t bytes, sc_time at, Ext& ext) {
  tlm::tlm_generic_payload& p = payload_;
  p.set_command(cmd);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.set_address(addr);
  p.set_data_ptr(nullptr);
  p.set_data_length(static_cast<unsigned>(bytes));
  p.set_extension(&ext);
  sc_time d = at - sc_time_stamp();
  mem->b_transport(p, d);
  p.clear_extension(&ext);
  if (p.get_response_status() != tlm::TLM_OK_RESPONSE) throw Error("global memory request refused: outside global memory");
  return sc_time_stamp() + d;
}

// The rows in s_->burst, one transaction; fills s_->burst.done and s_->burst.l2_ready.
void TmaUnit::read_burst(L2Promotion promotion) {
  const size_t n = s_->burst.addr.size();
  s_->burst.done.resize(n);
  s_->burst.l2_ready.resize(n);
  if (n == 0) return;
  L2PromotionExt promo;
  promo.bytes = l2_promotion_bytes(promotion);
  ReadBurstExt ext;
  ext.addr = s_->burst.addr.data();
  ext.bytes = s_->burst.bytes.data();
  ext.at = s_->burst.at.data();
  ext.done = s_->burst.done.data();
  ext.l2_ready = s_->burst.l2_ready.data();
  ext.rows = n;
  tlm::tlm_generic_payload& p = payload_;
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.set_address(s_->burst.addr[0]);
  p.set_data_ptr(nullptr);
  p.set_data_length(0);
  p.set_extension(&promo);
  p.set_extension(&ext);
  sc_time d = SC_ZERO_TIME;
  mem->b_transport(p, d);
  p.clear_extension(&promo);
  p.clear_extension(&ext);
  if (p.get_response_status() != tlm::TLM_OK_RESPONSE) throw Error("global memory request refused: outside global memory");
  if (cfg_.cluster_arrive_waits_for_reads && track_reads_in_l2_) {
    forget_reads_in_l2();
    for (size_t k = 0; k < n; ++k) eng_->reads_out.emplace_back(s_->burst.at[k], s_->burst.l2_ready[k]);
  }
}

void TmaUnit::forget_reads_in_l2() {
  const sc_time now = sc_time_stamp();
  auto& out = eng_->reads_out;
  size_t& head = eng_->reads_head;
  while (head < out.size() && out[head].second <= now && out[head].first <= now) ++head;
  if (head == out.size()) {
    out.clear();
    head = 0;
  } else if (head > 256 && head * 2 > out.size()) {
    out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(head));
    head = 0;
  }
}

sc_time TmaUnit::reads_in_l2_by() {
  forget_reads_in_l2();
  const sc_time now = sc_time_stamp();
  sc_time by = now;
  const auto& out = eng_->reads_out;
  for (size_t k = eng_->reads_head; k < out.size(); ++k)  // rows booked for later are not sent yet
    if (out[k].first <= now && out[k].second > by) by = out[k].second;
  return by;
}

// The C++ address generator: each row's in-bound run and its swizzled 16-byte pieces. A box
// wholly inside its tensor is planned once per map, reach and shared-memory phase and moved.
const TmaUnit::RowPlans& TmaUnit::plan_rows(const TensorMap& m, const TmaInstruction& ins) {
  pattern_ = 0;
  const int64_t reach = dim0_reach(m, ins.op);
  if (!cfg_.smem.remember_patterns || !tiled_box_in_bounds(m, ins, reach)) return traverse_rows(m, ins, reach);
  // Every swizzle repeats within 1024 bytes.
  const int64_t period = std::lcm(int64_t(1024), ConflictMemo::period_of(cfg_.smem.geometry));
  const uint32_t phase = static_cast<uint32_t>(ins.smem_offset % period);
  std::array<int64_t, 5> origin{};
  for (int d = 0; d < m.rank; ++d) origin[d] = ins.coords[d];
  const uint64_t offset = static_cast<uint64_t>(detail::offset_of(m, origin));
  auto& templates = s_->templates;
  auto t = std::find_if(templates.begin(), templates.end(), [&](const TmaScratch::PlanTemplate& x) {
    return x.map == &m && x.reach == reach && x.phase == phase;
  });
  if (t == templates.end()) {  // plan it the long way and keep it
    const RowPlans& plans = traverse_rows(m, ins, reach);
    constexpr size_t kMaxTemplates = 64;
    if (templates.size() < kMaxTemplates) {
      t = templates.emplace(templates.end());
    } else {
      t = templates.begin() + static_cast<std::ptrdiff_t>(s_->next_template++ % kMaxTemplates);
    }
    static std::atomic<uint64_t> patterns{0};  // ids unique in the process: memories may outlive a scratch
    *t = {&m, reach, phase, ++patterns, offset, ins.smem_offset,
          std::vector<RowPlan>(plans.rows.begin(), plans.rows.begin() + static_cast<std::ptrdiff_t>(plans.count)),
          plans.pieces};
    pattern_ = t->pattern;
    return plans;
  }
  RowPlans& plans = s_->plans;
  plans.count = t->rows.size();
  plans.agu_end_cycle = 0;
  if (plans.rows.size() < plans.count) plans.rows.resize(plans.count);
  const uint64_t moved = offset - t->origin_offset;  // modulo 2^64, as offset_of
  RowPlan* row = plans.rows.data();
  for (const RowPlan& r : t->rows) *row++ = {r.gaddr + moved, r.bytes, r.agu_cycle};
  const uint32_t shift = ins.smem_offset - t->smem_offset;
  plans.pieces.resize(t->pieces.size());
  for (size_t k = 0; k < t->pieces.size(); ++k) plans.pieces[k] = t->pieces[k] + shift;
  pattern_ = t->pattern;
  return plans;
}

const TmaUnit::RowPlans& TmaUnit::traverse_rows(const TensorMap& m, const TmaInstruction& ins, int64_t reach) {
  s_->plans.count = 0;
  s_->plans.agu_end_cycle = 0;
  const int64_t row_bytes = m.inner_row_bytes();
  const size_t per_row = static_cast<size_t>(row_bytes / 16);
  const int unit = m.row_unit_bytes();
  const SwizzleFunction swizzle(m.swizzle);
  std::vector<uint32_t>& pieces = s_->plans.pieces;
  size_t used = 0;  // pieces keeps its size from box to box: growing it would zero it first
  for_each_row(m, ins, [&](const BoxRow& r) {
    RowPlan& plan = s_->plans.add();
    const BoxRow::Window w = r.in_bound_window(reach);
    if (w.last >= w.first) {
      plan.gaddr = m.global_address + static_cast<uint64_t>(r.global_offset + w.first * r.element_step * unit);
      plan.bytes = (w.last - w.first) * r.element_step * unit + unit;
    }
    if (pieces.size() < used + per_row) pieces.resize(used + per_row);
    uint32_t* piece = pieces.data() + used;
    const uint32_t first = static_cast<uint32_t>(r.smem_offset);
    for (size_t k = 0; k < per_row; ++k) piece[k] = swizzle(first + 16 * static_cast<uint32_t>(k));
    used += per_row;
  });
  pieces.resize(used);
  return s_->plans;
}

// A prefetch brings the box's rows into L2; nothing is written to shared memory.
void TmaUnit::prefetch(const TmaOp& op) {
  const TensorMap& m = *op.map;
  const sc_time cyc = cfg_.cycle();
  check_instruction(m, *op.ins);
  sc_time t = std::max(sc_time_stamp() + cyc * cfg_.agu_latency_cycles, eng_->agu_free);
  const int unit = m.row_unit_bytes();
  s_->burst.clear();
  for_each_row(m, *op.ins, [&](const BoxRow& r) {
    const BoxRow::Window w = r.in_bound_window(m.global_dims[0]);
    if (w.last < w.first) return;
    const int64_t n = ((w.last - w.first) * r.element_step + 1) * unit;
    s_->burst.add(m.global_address + static_cast<uint64_t>(r.element_global(w.first, unit)), static_cast<uint64_t>(n), t);
    t += cyc * (n / cfg_.agu_bytes_per_cycle);
  });
  read_burst(m.l2_promotion);
  eng_->agu_free = t;
}

sc_time TmaUnit::store(const TmaOp& op, sc_time& read_done_out) {
  const TensorMap& m = *op.map;
  const sc_time cyc = cfg_.cycle();
  BankedSmem& own = *cluster_smem_[own_rank_];
  // Data: the functional core writes global memory. Timing: each row is read out of shared
  // memory through its port, then streamed to global memory at the store bandwidth.
  const bool bytes = cfg_.smem.move_bytes;
  if (bytes)
    execute(m, *op.ins, global_, SharedMemory{own.memory().data(), own.memory().size()});
  else
    check_instruction(m, *op.ins);
  sc_time t = std::max(sc_time_stamp() + cyc * cfg_.agu_latency_cycles, eng_->agu_free);
  const int64_t row_bytes = m.inner_row_bytes();
  const bool reduce = op.ins->op == Op::reduce;
  sc_time read_done = t, written = t;
  const RowPlans& plans = plan_rows(m, *op.ins);
  s_->arrivals.resize(1);
  s_->arrivals[0].clear();
  for (size_t r = 0; r < plans.count; ++r) {  // the generator asks for each row's pieces
    const sc_time issue = std::max(t, eng_->agu_free);
    eng_->agu_free = issue + cyc * (row_bytes / cfg_.agu_bytes_per_cycle);
    s_->arrivals[0].push_back(issue);
  }
  transfer_box(own_rank_, false, plans.pieces, s_->arrivals[0], nullptr, true);
  size_t row = 0;
  for (const RowPlan& plan : plans) {
    read_done = std::max(read_done, s_->row_done[row++]);
    eng_->store_free = std::max(read_done, eng_->store_free) + cyc * (row_bytes / cfg_.store_bytes_per_cycle);
    if (plan.bytes > 0) written = std::max(written, write_global(plan.gaddr, plan.bytes, eng_->store_free, reduce));
  }
  read_done_out = read_done;
  return std::max(eng_->store_free, written) + cyc * cfg_.store_ack_cycles;
}

// A multicast row reaches another SM of the cluster through that SM's own port.
sc_time TmaUnit::deliver(int rank, int64_t bytes, sc_time at) {
  DeliveryExt ext;
  ext.port = first_port_ + rank;
  return memory_request(tlm::TLM_IGNORE_COMMAND, 0, bytes, at, ext);
}

// The row goes to the L2 through the SM's port like a read; the bytes are already in global
// memory (the functional core wrote them).
sc_time TmaUnit::write_global(uint64_t addr, int64_t bytes, sc_time at, bool reduce) {
  ReduceExt ext;
  ext.reduce = reduce;
  return memory_request(tlm::TLM_WRITE_COMMAND, addr, bytes, at, ext);
}

// The Verilated rtl/tma_agu.sv (or tma_agu_im2col.sv) as the address generator, 16 or 128 bytes
// per beat as tma.agu_bytes_per_cycle says: the command is driven into the RTL, its beats are
// collected (always ready) and grouped into rows, each stamped with the cycle its first beat left
// the generator, counted from the cycle the command was presented.
#ifdef TMASIM_HAVE_RTL_AGU
namespace {

// Bits [lo, lo + width) of a Verilated port: a plain integer or a VlWide of 32-bit words.
template <class T>
uint64_t port_bits(const T& v, int lo, int width) {
  const uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  if constexpr (std::is_integral_v<T>) {
    return lo >= 64 ? 0 : (static_cast<uint64_t>(v) >> lo) & mask;
  } else {
    unsigned __int128 acc = 0;
    const int w = lo / 32;
    constexpr int words = sizeof(v.m_storage) / sizeof(v.m_storage[0]);
    for (int k = 0; k < 3 && w + k < words; ++k) acc |= static_cast<unsigned __int128>(v.m_storage[w + k]) << (32 * k);
    return static_cast<uint64_t>(acc >> (lo % 32)) & mask;
  }
}

// Runs one command through a Verilated generator and fills `plans`: per row its pieces, its
// in-bound bytes and the cycle its first beat was taken; agu_end_cycle is the cycle after the last.
template <class Dut, class SetCommand>
void run_generator(Dut& agu, bool& reset, const TensorMap& m, SetCommand set_command, TmaUnit::RowPlans& plans) {
  auto tick = [&]() {
    agu.clk_i = 0;
    agu.eval();
    agu.clk_i = 1;
    agu.eval();
  };
  if (!reset) {
    agu.rst_ni = 0;
    tick();
    agu.rst_ni = 1;
    reset = true;
  }
  constexpr int64_t kMaxIdleCycles = 4096;  // set-up takes at most a few hundred cycles
  int64_t cycle = 0;
  set_command(agu);
  agu.beat_ready_i = 1;
  agu.cmd_valid_i = 1;
  for (;; ++cycle) {  // hold the command until the generator takes it
    agu.eval();
    const bool taken = agu.cmd_ready_o;
    tick();
    if (taken) break;
    if (cycle == kMaxIdleCycles) throw Error("RTL address generator never took the command");
  }
  agu.cmd_valid_i = 0;
  plans.clear();
  const int64_t pieces_per_row = m.inner_row_bytes() / 16;
  TmaUnit::RowPlan* row = nullptr;
  int64_t in_row = 0, first = -1, last = -1, idle = 0;
  uint64_t row_gaddr = 0;
  for (++cycle;; ++cycle) {
    agu.eval();
    if (!agu.beat_valid_o) {
      if (++idle > kMaxIdleCycles) throw Error("RTL address generator stopped before its last beat");
      tick();
      continue;
    }
    const int chunks = static_cast<int>(agu.beat_chunks_o);
    for (int j = 0; j < chunks; ++j) {
      if (in_row == 0) {
        row = &plans.add();
        row->agu_cycle = cycle;
        row_gaddr = port_bits(agu.beat_gaddr_o, 48 * j, 48);
      }
      plans.pieces.push_back(static_cast<uint32_t>(port_bits(agu.beat_smem_addr_o, 18 * j, 18)));
      const uint32_t oob = static_cast<uint32_t>(port_bits(agu.beat_oob_o, 16 * j, 16));
      for (int k = 0; k < 16; ++k)
        if (!(oob >> k & 1u)) {
          if (first < 0) first = in_row * 16 + k;
          last = in_row * 16 + k;
        }
      if (++in_row == pieces_per_row) {
        if (first >= 0) {
          row->gaddr = row_gaddr + static_cast<uint64_t>(first);
          row->bytes = last - first + 1;
        }
        in_row = 0;
        first = last = -1;
      }
    }
    const bool is_last = agu.beat_last_o;
    tick();
    if (is_last) break;
  }
  plans.agu_end_cycle = cycle + 1;
}

}  // namespace
#endif

const TmaUnit::RowPlans& TmaUnit::plan_rows_rtl(const TensorMap& m, const TmaInstruction& ins) {
  pattern_ = 0;
#ifdef TMASIM_HAVE_RTL_AGU
  static Vtma_agu_cpp tiled;
  static Vtma_agu_wide_cpp tiled_wide;
  static Vtma_agu_im2col_cpp im2col;
  static Vtma_agu_im2col_wide_cpp im2col_wide;
  static bool reset[4] = {};
  const bool is_im2col = m.mode == TensorMode::im2col;
  const bool wide = cfg_.agu_bytes_per_cycle == 128;
  auto tiled_cmd = [&](auto& agu) { drive_tiled(agu, tiled_agu_command(m, ins)); };
  auto im2col_cmd = [&](auto& agu) { drive_im2col(agu, im2col_agu_command(m, ins)); };
  if (!is_im2col && !wide) run_generator(tiled, reset[0], m, tiled_cmd, s_->plans);
  else if (!is_im2col) run_generator(tiled_wide, reset[1], m, tiled_cmd, s_->plans);
  else if (!wide) run_generator(im2col, reset[2], m, im2col_cmd, s_->plans);
  else run_generator(im2col_wide, reset[3], m, im2col_cmd, s_->plans);
  return s_->plans;
#else
  (void)m;
  (void)ins;
  throw Error("this build has no RTL address generator (Verilator was not found)");
#endif
}

}  // namespace tmasim::sc
