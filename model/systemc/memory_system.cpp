#include "memory_system.hpp"

#include <algorithm>
#include <cmath>

#include "clock.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::sc {

using namespace sc_core;

// ---------------------------------------------------------------------------------------

MemorySystem::MemorySystem(sc_module_name name, const TimingConfig& cfg, GlobalMemory memory, L2Start start)
    : sc_module(name), socket("socket"), cfg_(cfg), mem_(memory), cycle_(cycle_time(cfg)),
      hit_latency_(cycle_time(cfg) * cfg.l2_hit_cycles), line_bytes_(static_cast<uint64_t>(cfg.l2_line_bytes)),
      lines_(static_cast<uint64_t>(std::llround(static_cast<double>(cfg.l2_bytes) * cfg.l2_resident_fraction)) /
                 static_cast<uint64_t>(cfg.l2_line_bytes),
             /*transfers=*/!cfg.l2_join_within_gpc) {
  socket.register_b_transport(this, &MemorySystem::transport);
  port_from_l2_.bytes_per_cycle = cfg.sm_l2_bytes_per_cycle;
  l2_out_.bytes_per_cycle = cfg.l2_bytes_per_cycle;
  far_out_.bytes_per_cycle = cfg.l2_far_bytes_per_cycle;
  if ((line_bytes_ & (line_bytes_ - 1)) == 0) line_shift_ = __builtin_ctzll(line_bytes_);
  fetch_bytes_ = static_cast<uint64_t>(cfg.l2_fetch_bytes);
  if (fetch_bytes_ && (fetch_bytes_ & (fetch_bytes_ - 1)) == 0) fetch_shift_ = __builtin_ctzll(fetch_bytes_);
  least_out_bytes_ = static_cast<uint64_t>(cfg.l2_out_least_bytes);
  old_lines_total_ = lines_.capacity();
  for (int h : l2_half_of_sm(cfg)) half_bit_.push_back(static_cast<uint8_t>(1u << h));
  for (uint8_t b : half_bit_)
    if (std::find(halves_.begin(), halves_.end(), b) == halves_.end()) halves_.push_back(b);
  std::sort(halves_.begin(), halves_.end());
  far_hit_ = cycle_time(cfg) * cfg.l2_far_hit_cycles;
  join_window_ = cycle_time(cfg) * cfg.l2_join_window_cycles;
  if (!half_bit_.empty() && cfg.l2_far_bytes_per_cycle > 0) far_in_.resize(8);  // halves 0-7
  if (cfg.gpc_bytes_per_cycle > 0) {
    gpc_path_of_sm_ = gpc_path_of_sm(cfg);
    const size_t paths = static_cast<size_t>(*std::max_element(gpc_path_of_sm_.begin(), gpc_path_of_sm_.end())) + 1;
    gpc_path_free_.assign(paths, SC_ZERO_TIME);
    gpc_paths_.resize(paths);
    gpc_out_.bytes_per_cycle = cfg.gpc_bytes_per_cycle;
  }
  if (cfg.l2_join_within_gpc) {
    gpc_of_sm_ = gpc_of_sm(cfg);
    gpcs_ = gpc_sizes(cfg).size();
    gpc_transfers_.resize(size_t{1} << kGpcTransferBits);
  }
  if (start == L2Start::cold)
    old_dirty_ = static_cast<uint64_t>(std::llround(cfg.flush_dirty_fraction * static_cast<double>(old_lines_total_)));
}

void MemorySystem::make_resident(uint64_t addr, uint64_t len, bool written, int sm) {
  if (len == 0) return;
  const uint64_t line = static_cast<uint64_t>(cfg_.l2_line_bytes);
  sc_time pending = SC_ZERO_TIME;  // a new line's data is there from time zero
  fresh_.clear();
  const uint8_t half = half_bit_.empty() ? 0 : sm < 0 ? uint8_t{0xff} : half_bit(sm);
  for (uint64_t l = addr / line; l <= (addr + len - 1) / line; ++l) {
    lookup_and_fill(l, pending, 0, {}, false, units_of(l, addr, len));  // near `half` too, at no cost: nothing crosses before the run
    const int32_t n = lines_.find(l);
    if (half == 0xff) lines_.halves(n) = half;  // a start state near every half: no copies counted
    else make_near(n, half);
  }
  evict_old_lines(allocated());  // the start state is clean here: nothing to write back
  fresh_.clear();
  if (written && cfg_.l2_write_back) mark_dirty(addr, len);
  dirty_evictions_booked_ = lines_.dirty_evictions();  // the warm-up's own write-backs are not this run's
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

bool MemorySystem::lookup_and_fill(uint64_t line, sc_time& pending, uint8_t half, sc_time far_from, bool write,
                                   uint8_t want) {
  const int32_t n = lines_.find(line);
  if (n != LineTable::kNone) {
    lines_.touch(n);
    if (want & ~lines_.units(n)) {
      lines_.units(n) |= want;
      if (!write) {  // a unit not held: this request fetches it
        fresh_.push_back({line, n, false});
        return false;
      }
    }
    pending = std::max(pending, lines_.ready(n));
    if (half && !write) {
      const sc_time crossed = far_arrival(n, half, far_from, line_bytes_);
      if (crossed != far_from) pending = std::max(pending, crossed);
    }
    if (write) {
      lines_.halves(n) = half;
      lines_.drop_copies(n);
    }
    return true;
  }
  const int32_t fresh = lines_.insert(line);
  lines_.halves(fresh) = half;
  lines_.units(fresh) = want;
  fresh_.push_back({line, fresh});
  return false;
}

// A read or write of one contiguous run (timing only: the functional core moves the bytes, the
// payloads carry none): L2 hit or miss per line; read misses queue on the
// chip's HBM bandwidth; every request then streams through its SM's port. Writes allocate in
// the L2 and are acknowledged from it; a written line that was not resident costs DRAM
// bandwidth for its eventual write-back, and a reduction on such a line first fetches it.
// A box's rows (ReadBurstExt), each served as its own request would be; false when one lies
// outside global memory. Join: memory.l2_join_reads_in_flight, a compile-time choice so that the
// loop without it stays as lean as before.
template <bool Join>
bool MemorySystem::serve_burst(int port, ReadBurstExt& burst, uint64_t span) {
  // The L2's tables are larger than the caches: rows to come are asked for in steps, each row's
  // line and hash computed once, in a ring. A row the box memo names a node for asks for that node,
  // then its neighbours; any other for its index slot, then its node, then the node's neighbours.
  constexpr size_t kAhead = 16, kRing = 2 * kAhead;
  struct Ahead {
    uint64_t line, hash;
  };
  Ahead ring[kRing];
  // In locals: the stores of times below could alias the extension's fields.
  const size_t rows = burst.rows;
  const uint64_t* addr = burst.addr;
  const uint64_t* bytes = burst.bytes;
  const sc_time* at = burst.at;
  sc_time* done = burst.done;
  sc_time* l2_ready = burst.l2_ready;
  const int sm = sm_of(port);
  if (rows == 0) return true;
  int32_t* hint = box_memo_.nodes_for(addr, rows);
  const auto ask = [&](size_t k) {
    Ahead& a = ring[k % kRing];
    a.line = line_of(addr[k]);
    a.hash = LineTable::hash_of(a.line);
    if (hint[k] != LineTable::kNone)
      lines_.prefetch_node_at(hint[k]);
    else
      lines_.prefetch(a.hash);
    if (Join) prefetch_gpc_transfer(sm, a.line);
  };
  const auto ask_node = [&](size_t k) {
    if (hint[k] != LineTable::kNone)
      lines_.prefetch_neighbours_at(hint[k]);
    else
      lines_.prefetch_node(ring[k % kRing].hash);
  };
  const auto ask_neighbours = [&](size_t k) {
    if (hint[k] == LineTable::kNone) lines_.prefetch_neighbours(ring[k % kRing].hash);
  };
  for (size_t k = 0; k < std::min(kAhead, rows); ++k) ask(k);
  for (size_t k = 0; k < rows; ++k) {
    if (k + kAhead < rows) ask(k + kAhead);
    if (k + kAhead / 2 < rows) ask_node(k + kAhead / 2);
    if (k + kAhead / 4 < rows) ask_neighbours(k + kAhead / 4);
    if (!in_memory(addr[k], bytes[k])) return false;
    const Ahead& a = ring[k % kRing];
    Served s;
    if (serve_line_hit<Join>(sm, a.line, a.hash, addr[k], bytes[k], at[k], hint[k], s)) {
    } else if (a.line == line_of(addr[k] + bytes[k] - 1)) {  // one line, not resident (hint: none)
      s = serve_line_miss(port, a.line, addr[k], bytes[k], at[k], span, hint[k]);
    } else {
      s = serve(port, false, false, addr[k], bytes[k], at[k], span);
      // The row's node where serve allocated it (its first line is the first it looked up).
      hint[k] = !fresh_.empty() && fresh_[0].line == a.line ? fresh_[0].node : LineTable::kNone;
    }
    done[k] = s.done;
    l2_ready[k] = s.l2_ready;
  }
  return true;
}

void MemorySystem::transport(int port, tlm::tlm_generic_payload& p, sc_time& delay) {
  now_ = sc_time_stamp();
  const uint64_t addr = p.get_address();
  const unsigned len = p.get_data_length();
  DeliveryExt* delivery = nullptr;
  p.get_extension(delivery);
  if (p.get_command() == tlm::TLM_IGNORE_COMMAND && delivery) {  // multicast bytes for another SM: its port streams them in
    const sc_time to = book_port(sm_of(delivery->port), sc_time_stamp() + delay,
                                 cycle_time(cfg_) * (len / cfg_.sm_l2_bytes_per_cycle));
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
    const bool ok = cfg_.l2_join_reads_in_flight ? serve_burst<true>(port, *burst, span) : serve_burst<false>(port, *burst, span);
    p.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
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

// Inlined into transport's burst loop: out of line it costs that loop 8% more instructions.
template <bool Join>
[[gnu::always_inline]] inline bool MemorySystem::serve_line_hit(int sm, uint64_t line, uint64_t hash, uint64_t addr,
                                                                uint64_t len, sc_time arrival, int32_t& hint,
                                                                Served& out) {
  if (line != line_of(addr + len - 1)) return false;
  if (!lines_.holds(hint, line)) hint = lines_.find(line, hash);
  const int32_t n = hint;
  if (n == LineTable::kNone) return false;
  if (fetch_bytes_ && (units_of(line, addr, len) & ~lines_.units(n))) return false;  // serve_line_miss fetches them
  lines_.touch(n);
  bytes_ += len;
  if (!half_bit_.empty()) arrival = far_arrival(n, half_bit(sm), arrival, len);  // the far half's data comes later
  out = Join ? read_hit_joined(sm, line, n, len, arrival) : read_hit(sm, len, arrival, lines_.ready(n));
  return true;
}

// serve() for a read of one line that is not resident (a box's row that misses) without its
// generality: the line allocated as lookup_and_fill does, then serve_fill as serve calls it.
MemorySystem::Served MemorySystem::serve_line_miss(int port, uint64_t line, uint64_t addr, uint64_t len,
                                                   sc_time arrival, uint64_t span, int32_t& node) {
  bytes_ += len;
  fresh_.clear();
  if (fetch_bytes_ && lines_.holds(node, line)) {  // resident, a unit the row touches not held
    lines_.touch(node);
    lines_.units(node) |= units_of(line, addr, len);
    fresh_.push_back({line, node, false});
  } else {
    node = lines_.insert(line);
    lines_.halves(node) = half_bit(sm_of(port));
    lines_.units(node) = units_of(line, addr, len);
    fresh_.push_back({line, node});
  }
  return serve_fill(port, false, false, addr, len, arrival, span, false, SC_ZERO_TIME);
}

// memory.l2_join_reads_in_flight: a read arriving before another SM's read of the line has left
// the L2 rides on it (one transfer over the L2's output); each SM's port still streams its copy.
// With memory.l2_join_fills_in_flight a transfer that waits for the line's fill stays joinable
// until the fill's data is in the L2 (its arrival at the SM less the hit latency), whatever the window.
MemorySystem::Served MemorySystem::read_hit_joined(int sm, uint64_t line, int32_t n, uint64_t len, sc_time arrival) {
  ++hits_;
  L2Transfer& transfer = transfer_for(sm, line, n);
  const sc_time fill = lines_.ready(n);
  const sc_time ready = std::max(arrival + hit_latency_, fill);
  if (arrival <= transfer.joinable_until && !(cfg_.l2_join_other_sms_only && transfer.sm == sm)) {
    sc_time data = cfg_.l2_join_riders_wait_for_transfer ? std::max(ready, transfer.departs) : ready;
    if (!cfg_.l2_join_within_gpc) data = book_gpc_path(sm, data, len);  // a rider from another GPC: its own path
    return {ready, book_port(sm, data, port_time_from_l2(len))};
  }
  const sc_time start = book_l2_out(ready, len);
  transfer.departs = start;
  transfer.sm = sm;
  transfer.joinable_until = join_window_ > SC_ZERO_TIME ? arrival + join_window_ : start + l2_out_.of(len, cycle_);
  if (cfg_.l2_join_fills_in_flight && fill > hit_latency_)
    transfer.joinable_until = std::max(transfer.joinable_until, fill - hit_latency_);
  return {ready, book_port(sm, book_gpc_path(sm, start, len), port_time_from_l2(len))};
}

L2Transfer& MemorySystem::transfer_for(int sm, uint64_t line, int32_t n) {
  if (gpc_transfers_.empty()) return lines_.transfer(n);
  const uint64_t key = gpc_transfer_key(sm, line);
  GpcTransfer& t = gpc_transfers_[gpc_transfer_slot(key)];
  if (t.key != key) t = GpcTransfer{key, L2Transfer{}};
  return t.transfer;
}

// A read whose lines are all resident (their data there from `pending` on): the L2's output,
// then the SM's port.
inline MemorySystem::Served MemorySystem::read_hit(int sm, uint64_t len, sc_time arrival, sc_time pending) {
  ++hits_;
  const sc_time ready = std::max(arrival + hit_latency_, pending);
  return {ready, book_port(sm, book_gpc_path(sm, book_l2_out(ready, len), len), port_time_from_l2(len))};
}

// Out of line: inlined into transport's burst loop (as GCC does once the memory system is a unit of
// its own) it costs that loop 3% more instructions (callgrind, 132-CTA feed).
[[gnu::noinline]] MemorySystem::Served MemorySystem::serve(int port, bool write, bool reduce, uint64_t addr, uint64_t len,
                                                sc_time arrival, uint64_t span) {
  bytes_ += len;
  bool all_hit = true;
  sc_time pending = SC_ZERO_TIME;  // a resident line whose fill is still on its way delays a hit
  fresh_.clear();
  const uint64_t first_line = line_of(addr), last_line = line_of(addr + len - 1);
  const uint8_t half = half_bit(sm_of(port));
  const sc_time far_from = arrival + hit_latency_;
  for (uint64_t l = first_line; l <= last_line; ++l)
    all_hit &= lookup_and_fill(l, pending, half, far_from, write, units_of(l, addr, len));
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
  const uint64_t unit = fetch_bytes_ ? fetch_bytes_ : sector;
  if ((unit & (unit - 1)) == 0) {  // masks, not divisions: this runs for every miss
    fill_lo &= ~(unit - 1);
    fill_hi = (fill_hi + unit - 1) & ~(unit - 1);
  } else {
    fill_lo = fill_lo / unit * unit;
    fill_hi = (fill_hi + unit - 1) / unit * unit;
  }
  // The promoted neighbours become resident too. Where the fill covers only the request's own
  // lines, just looked up in order (and none of them evicted meanwhile: the L2 holds them all),
  // looking them up again changes nothing.
  const uint64_t first = line_of(addr), last = line_of(addr + len - 1);
  const bool own_lines_only = line_of(fill_lo) >= first && line_of(fill_hi - 1) <= last && last - first < lines_.capacity();
  if (!all_hit && !own_lines_only)
    for (uint64_t l = line_of(fill_lo); l <= line_of(fill_hi - 1); ++l)
      lookup_and_fill(l, pending, half_bit(sm_of(port)), arrival + hit_latency_, write, units_of(l, fill_lo, fill_hi - fill_lo));
  const auto dram_cycles = [&](double bytes) { return cyc * (bytes / cfg_.dram_read_bytes_per_cycle()); };
  // The lines this request allocated evicted the start state's; a dirty one goes back to DRAM
  // after the request's own transfer (it costs bandwidth, not this latency, unless the write-back
  // buffer of memory.writeback_bytes_per_cycle is full: then a read waits for room).
  // With memory.l2_write_back the lines it evicted that this run wrote go back too, and a write
  // is accepted only once the DRAM has taken them (the L2 has no room for it before).
  const uint64_t dirty = evict_old_lines(allocated()) + own_dirty_evictions();
  sc_time ready;
  if (write && (all_hit || !reduce)) {
    all_hit ? ++hits_ : ++misses_;
    if (!all_hit && !cfg_.l2_write_back) book_dram_write(arrival, dram_cycles(static_cast<double>(len)));
    ready = book_l2_in(arrival, len);
  } else if (all_hit) {
    ++hits_;
    ready = std::max(arrival + hit_latency_, pending);
  } else if (write) {  // a reduction on a line not in L2: fetch it, write it back later
    ++misses_;
    const double trips = cfg_.l2_write_back ? 1.0 : 2.0;  // the write-back is booked when it happens
    const sc_time start = fill_from_dram(arrival, dirty, dram_cycles(trips * static_cast<double>(fill_hi - fill_lo)));
    ready = start + cyc * cfg_.l2_miss_cycles;
  } else {
    ++misses_;
    const sc_time start = fill_from_dram(arrival, dirty, dram_cycles(static_cast<double>(fill_hi - fill_lo)));
    hbm_backlog_cycles_ = static_cast<int64_t>((start - arrival) / cyc);
    uint64_t h = addr / line + 0x9e3779b97f4a7c15ull;  // splitmix64 of the line index
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
    const double u = (static_cast<double>(h >> 32) + 1.0) / 4294967296.0;  // (0, 1]
    ready = std::max(start + cyc * (cfg_.l2_miss_cycles - cfg_.l2_miss_jitter_cycles * std::log(u)), pending);
    if (cfg_.l2_far_miss_crossings > 0) ready = cross_from_home(port, addr / line, ready, fill_hi - fill_lo);
  }
  if (dirty) {
    const sc_time start = book_dram_write(arrival, cyc * (static_cast<double>(dirty * line) / write_back_rate()));
    if (write && cfg_.l2_write_back) ready = std::max(ready, start);
  }
  for (const Fresh& f : fresh_)  // the lines this request allocated (and still holds) have data from `ready` on
    if (lines_.holds(f.node, f.line)) {
      lines_.ready(f.node) = ready;
      if (fetch_bytes_) lines_.units(f.node) |= units_of(f.line, fill_lo, fill_hi - fill_lo);
    }
  if (write && cfg_.l2_write_back) mark_dirty(addr, len);
  const double rate = all_hit || write ? cfg_.sm_l2_bytes_per_cycle : cfg_.sm_hbm_bytes_per_cycle;
  if (write) return {ready, std::max(ready, book_port(sm_of(port), arrival, cyc * (static_cast<double>(len) / rate)))};
  const int sm = sm_of(port);
  const sc_time data = all_hit || cfg_.gpc_path_misses ? book_gpc_path(sm, ready, len) : ready;
  return {ready, book_port(sm, data, cyc * (static_cast<double>(len) / rate))};
}

// memory.l2_far_miss_crossings: a miss of a line homed in another half than the reader's reaches the
// reader's half over its path once the fill is in; the line is then near its home half too.
sc_time MemorySystem::cross_from_home(int port, uint64_t line, sc_time ready, uint64_t bytes) {
  if (halves_.empty() || far_in_.empty()) return ready;
  const uint8_t reader = half_bit(sm_of(port));
  const uint64_t h = LineTable::hash_of(line);
  const uint8_t home = halves_[(h >> 17) % halves_.size()];
  for (const Fresh& f : fresh_)
    if (lines_.holds(f.node, f.line)) lines_.halves(f.node) |= home;
  if (home == reader) return ready;
  const sc_time duration = far_out_.of(static_cast<uint64_t>(cfg_.l2_far_miss_crossings * static_cast<double>(bytes)), cycle_);
  return far_path_into(reader).book(ready, duration, now_) + duration;
}

// Dirty lines of this run that fills evicted since the last call (none without l2_write_back).
uint64_t MemorySystem::own_dirty_evictions() {
  const uint64_t n = lines_.dirty_evictions() - dirty_evictions_booked_;
  dirty_evictions_booked_ = lines_.dirty_evictions();
  writebacks_ += n;
  return n;
}

double MemorySystem::write_back_rate() const {
  return cfg_.dram_write_bytes_per_cycle();
}

void MemorySystem::mark_dirty(uint64_t addr, uint64_t len) {
  for (uint64_t l = line_of(addr); l <= line_of(addr + len - 1); ++l) {
    const int32_t n = lines_.find(l);
    if (n != LineTable::kNone) lines_.set_dirty(n);
  }
}

// The DRAM interface, the L2's output and input, each GPC's path and each SM's port are each one
// resource (book_resource): time order keeps a transfer whose data is ready earlier from being held
// behind one booked before it.
sc_time MemorySystem::book_dram(sc_time arrival, sc_time duration) {
  const sc_time start = book_resource(dram_, hbm_free_, arrival, duration);
  if (cfg_.dram_queue_cycles > 0) note_dram_busy(start, duration);
  return start;
}

void MemorySystem::note_dram_busy(sc_time start, sc_time duration) {
  if (start > dram_busy_at_) {
    dram_busy_ = dram_busy_share(start);
    dram_busy_at_ = start;
  }
  dram_busy_ += (duration / cycle_) / cfg_.dram_queue_window_cycles;
}

// The DRAM's busy share as the average left by the bookings so far stands at time t.
double MemorySystem::dram_busy_share(sc_time t) const {
  if (t <= dram_busy_at_) return dram_busy_;
  return dram_busy_ * std::exp(-((t - dram_busy_at_) / cycle_) / cfg_.dram_queue_window_cycles);
}

// A miss's fill read from DRAM (a read's or a reduction's), `dirty` of its victims dirty: it asks
// once the write-back buffer has room for them (memory.writeback_bytes_per_cycle). Returns its start.
sc_time MemorySystem::fill_from_dram(sc_time arrival, uint64_t dirty, sc_time duration) {
  const sc_time asked = dirty && cfg_.writeback_bytes_per_cycle > 0 ? writeback_room(arrival, dirty) : arrival;
  return book_dram_read(asked, duration);
}

// memory.writeback_bytes_per_cycle: the buffer drains its write-backs one after another; a miss
// whose victims' write-backs leave more in it than it holds asks the DRAM once they fit.
sc_time MemorySystem::writeback_room(sc_time arrival, uint64_t dirty_lines) {
  const double rate = cfg_.writeback_bytes_per_cycle;
  writeback_drained_ = std::max(writeback_drained_, arrival) + cycle_ * (static_cast<double>(dirty_lines * line_bytes_) / rate);
  const sc_time held = cycle_ * (cfg_.writeback_buffer_bytes / rate);  // what the buffer holds, in drain time
  return writeback_drained_ > arrival + held ? writeback_drained_ - held : arrival;  // sc_time is unsigned
}

// memory.dram_queue_cycles: what a miss arriving now waits in a DRAM busy dram_busy_ of its time.
sc_time MemorySystem::dram_queue_wait(sc_time arrival) const {
  const double rho = std::min(dram_busy_share(arrival), 0.9);
  return cycle_ * (cfg_.dram_queue_cycles * rho / (1.0 - rho));
}

// Reads are tracked only for memory.dram_mixed_write_extra (off in every configuration shipped):
// a miss pays nothing for it otherwise. With memory.dram_queue_cycles a read waits at least the
// queue's wait; the booking's own, when longer (at the DRAM's bound), stands.
sc_time MemorySystem::book_dram_read(sc_time arrival, sc_time duration) {
  sc_time start = book_dram(arrival, duration);
  if (cfg_.dram_queue_cycles > 0) start = std::max(start, arrival + dram_queue_wait(arrival));
  if (cfg_.dram_mixed_write_extra > 0) reads_queued_until_ = std::max(reads_queued_until_, start + duration);
  return start;
}

// memory.dram_mixed_write_extra: a write among queued reads costs the DRAM a turn-around.
sc_time MemorySystem::book_dram_write(sc_time arrival, sc_time duration) {
  if (cfg_.dram_mixed_write_extra > 0 && reads_queued_until_ > arrival)
    duration = duration * (1.0 + cfg_.dram_mixed_write_extra);
  return book_dram(arrival, duration);
}

[[gnu::always_inline]] inline sc_time MemorySystem::book_l2_out(sc_time ready, uint64_t bytes) {
  output_bytes_ += bytes;
  if (cfg_.l2_bytes_per_cycle <= 0) return ready;
  return book_resource(l2_, l2_free_, ready, l2_out_.of(std::max(bytes, least_out_bytes_), cycle_));
}

[[gnu::always_inline]] inline sc_time MemorySystem::book_gpc_path(int sm, sc_time ready, uint64_t bytes) {
  if (gpc_path_of_sm_.empty()) return ready;
  const size_t path = static_cast<size_t>(gpc_path_of_sm_[static_cast<size_t>(sm)]);
  return book_resource(gpc_paths_[path], gpc_path_free_[path], ready, gpc_out_.of(bytes, cycle_));
}

// A write enters the L2 through its input (memory.l2_write_bytes_per_cycle); returns when it is in.
sc_time MemorySystem::book_l2_in(sc_time arrival, uint64_t bytes) {
  if (cfg_.l2_write_bytes_per_cycle <= 0) return arrival;
  const sc_time duration = cycle_ * (static_cast<double>(bytes) / cfg_.l2_write_bytes_per_cycle);
  return book_resource(l2_in_, l2_in_free_, arrival, duration) + duration;
}

[[gnu::always_inline]] inline sc_time MemorySystem::book_port(int sm, sc_time ready, sc_time duration) {
  const size_t s = static_cast<size_t>(sm);
  if (s >= port_free_.size()) {
    port_free_.resize(s + 1, SC_ZERO_TIME);
    ports_.resize(s + 1);
  }
  return book_resource(ports_[s], port_free_[s], ready, duration) + duration;
}

void MemorySystem::place(int binding, int sm) {
  if (binding >= static_cast<int>(sm_of_binding_.size())) sm_of_binding_.resize(static_cast<size_t>(binding) + 1, -1);
  sm_of_binding_[static_cast<size_t>(binding)] = sm;
}

}  // namespace tmasim::sc
