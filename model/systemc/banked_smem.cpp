#include "banked_smem.hpp"

#include <cstring>
#include <fstream>
#include <climits>
#include <numeric>
#include <sstream>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

using namespace sc_core;

namespace {

// The last few access patterns of one transaction and what they needed. A box's rows and a
// tile's ldmatrix repeat as shifted copies (a 128-byte swizzle every 8 rows, a tile every row
// of blocks); a copy moved by a multiple of the memo's period needs the same wavefronts.
template <class Addr>
class RecentPatterns {
 public:
  // What a pattern needed, and (for lanes) the bytes it moved and its highest address.
  struct Known {
    ConflictResult result;
    uint64_t moved = 0;
    int64_t highest = -1;
  };
  explicit RecentPatterns(int64_t period) : period_(period), mask_((period & (period - 1)) == 0 ? period - 1 : -1) {}
  // `shape`: whatever else the wavefronts depend on (the instruction, its width).
  // Starts after the last match: periodic patterns then match at the first try. `shift` gets
  // how far the access lies from the match.
  const Known* find(uint32_t shape, const Addr* a, int n, int64_t& shift) {
    for (size_t i = 0; i < seen_.size(); ++i) {
      const size_t k = (hint_ + i) % seen_.size();
      const Seen& s = seen_[k];
      if (s.n == n && s.shape == shape && shifted_copy(a, s.addr, n, shift)) {
        hint_ = k + 1;
        return &s.known;
      }
    }
    return nullptr;
  }
  const Known* find(uint32_t shape, const Addr* a, int n) {
    int64_t shift;
    return find(shape, a, n, shift);
  }
  void add(uint32_t shape, const Addr* a, int n, const ConflictResult& r, uint64_t moved = 0, int64_t highest = -1) {
    Seen& s = seen_[next_++ % seen_.size()];
    s.addr = a;
    s.n = n;
    s.shape = shape;
    s.known.result.wavefronts = r.wavefronts;
    s.known.result.ideal = r.ideal;
    s.known.moved = moved;
    s.known.highest = highest;
  }

 private:
  bool multiple_of_period(int64_t d) const { return mask_ >= 0 ? (d & mask_) == 0 : d % period_ == 0; }
  // Branch-free over the lanes (the compiler vectorizes it): the first active lane gives the
  // shift, every other lane must be inactive in both or active in both and moved by it.
  bool shifted_copy(const Addr* a, const Addr* b, int n, int64_t& shift) const {
    int first = 0;
    if constexpr (std::is_signed_v<Addr>)
      while (first < n && a[first] < 0) ++first;
    if (first == n) {  // no active lane in a: b must have none either
      shift = 0;
      bool same = true;
      for (int k = 0; k < n; ++k) same &= b[k] < 0;
      return same;
    }
    if constexpr (std::is_signed_v<Addr>)
      if (b[first] < 0) return false;
    shift = static_cast<int64_t>(a[first]) - static_cast<int64_t>(b[first]);
    if (!multiple_of_period(shift)) return false;
    if constexpr (std::is_signed_v<Addr>) {
      bool bad = false;
      for (int k = 0; k < n; ++k) {
        const int64_t x = a[k], y = b[k];
        bad |= ((x < 0) != (y < 0)) | ((x >= 0) & (x - y != shift));
      }
      return !bad;
    } else {  // unsigned pieces are all active; shared-memory addresses differ by less than 2^31
      const Addr s = static_cast<Addr>(shift);
      Addr diff = 0;
      for (int k = 0; k < n; ++k) diff |= static_cast<Addr>(a[k] - b[k]) ^ s;
      return diff == 0;
    }
  }
  struct Seen {
    const Addr* addr = nullptr;
    int n = -1;
    uint32_t shape = 0;
    Known known;
  };
  std::array<Seen, 8> seen_;
  size_t next_ = 0, hint_ = 0;
  int64_t period_;
  int64_t mask_;  // period - 1 when a power of two (a mask, not a division), else -1
};

}  // namespace

int64_t ConflictMemo::period_of(const BankGeometry& g) {
  return std::lcm(static_cast<int64_t>(g.banks) * g.bank_bytes, int64_t(128));
}

ConflictMemo::ConflictMemo(const BankGeometry& g) : geometry_(g), period_(period_of(g)) {}

ConflictResult ConflictMemo::evaluate(const WarpAccess& a) {
  int64_t lowest = INT64_MAX;
  int used = 0;
  for (int l = 0; l < 32; ++l)
    if (a.addr[l] >= 0) {
      lowest = std::min(lowest, a.addr[l]);
      used = l + 1;
    }
  const int64_t base = used == 0 ? 0 : lowest / period_ * period_;
  std::array<int32_t, 32> rel;
  const uint32_t shape = 1u | static_cast<uint32_t>(a.op) << 1 | static_cast<uint32_t>(a.width) << 6 |
                         static_cast<uint32_t>(a.num) << 14 | static_cast<uint32_t>(used) << 20 |
                         static_cast<uint32_t>(a.trans) << 27;
  uint64_t h = shape * 0x9e3779b97f4a7c15ull;
  for (int l = 0; l < used; ++l) {
    rel[l] = a.addr[l] < 0 ? -1 : static_cast<int32_t>(a.addr[l] - base);
    h = (h ^ static_cast<uint32_t>(rel[l])) * 0x100000001b3ull;
  }
  if (table_.empty()) table_.resize(kEntries);  // on first use: a memo a shared one replaced costs nothing
  Entry& e = table_[(h ^ (h >> 29)) % kEntries];
  if (e.shape != shape || std::memcmp(e.rel.data(), rel.data(), sizeof(int32_t) * static_cast<size_t>(used)) != 0) {
    const ConflictResult r = tmasim::evaluate(a, geometry_, false);
    e.shape = shape;
    e.wavefronts = r.wavefronts;
    e.ideal = r.ideal;
    std::memcpy(e.rel.data(), rel.data(), sizeof(int32_t) * static_cast<size_t>(used));
  }
  ConflictResult r;
  r.wavefronts = e.wavefronts;
  r.ideal = e.ideal;
  return r;
}

BankedSmem::BankedSmem(sc_module_name name, const SmemConfig& cfg)
    : sc_module(name), tma_socket("tma_socket"), warp_socket("warp_socket"), cfg_(cfg),
      mem_(cfg.move_bytes ? static_cast<size_t>(cfg.size_bytes) : 0, 0), own_path_(sc_time(cfg.cycle_ns, SC_NS)), path_cycle_(sc_time::from_value(own_path_.cycle_ps())), own_memo_(cfg.geometry()) {
  tma_socket.register_b_transport(this, &BankedSmem::tma_transport);
  warp_socket.register_b_transport(this, &BankedSmem::warp_transport);
  counters_.bank_busy_cycles.assign(cfg.geometry().banks, 0);
}

sc_time BankedSmem::occupy(int wavefronts, const ConflictResult& r, sc_time delay) {
  const sc_time now = sc_time_stamp();
  return occupy_at(wavefronts, r, now + delay, data_path_->cycle_of(now)) - now;
}

int64_t BankedSmem::occupy_from(int wavefronts, const ConflictResult& r, int64_t from, int64_t now_cycle,
                                int64_t min_cycles) {
  if (cfg_.bank_statistics) count_bank_busy(r);
  return book(wavefronts, r.ideal, from, now_cycle, min_cycles);
}

void BankedSmem::count_bank_busy(const ConflictResult& r) {
  for (const Wavefront& wf : r.detail)
    for (int b = 0; b < cfg_.geometry().banks; ++b)
      if (wf.banks[b / 32] >> (b % 32) & 1u) counters_.bank_busy_cycles[b] += cfg_.wavefront_cycles;
}

// A TMA transfer lands as 16-byte pieces; each group of a wavefront's width is one write
// whose bank conflicts the conflict model counts (a swizzled 128-byte row: one wavefront).
void BankedSmem::tma_transport(int, tlm::tlm_generic_payload& p, sc_time& delay) {
  BoxTransferExt* box = nullptr;
  p.get_extension(box);
  if (box) {
    box_transport(p, *box);
    return;
  }
  const uint64_t addr = p.get_address();
  const unsigned len = p.get_data_length();
  if (len == 0 || len > static_cast<unsigned>(cfg_.tma_write_bytes_per_cycle) || addr % 16 || len % 16) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (!in_range(addr, len)) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  WarpAccess a;
  a.op = p.is_write() ? SmemOp::st : SmemOp::ld;
  a.width = 16;
  a.addr.fill(-1);
  for (unsigned k = 0; k < len / 16; ++k) a.addr[k] = static_cast<int64_t>(addr + 16 * k);
  ConflictResult r = cfg_.bank_statistics ? evaluate(a, cfg_.geometry(), true) : memo_->evaluate(a);
  if (cfg_.move_bytes && p.get_data_ptr()) {
    if (p.is_write())
      std::memcpy(mem_.data() + addr, p.get_data_ptr(), len);
    else
      std::memcpy(p.get_data_ptr(), mem_.data() + addr, len);
  }
  counters_.bytes += len;
  const sc_time now = sc_time_stamp();
  CycleCalendar& path = p.is_write() ? *write_path_ : *data_path_;
  if (cfg_.bank_statistics) count_bank_busy(r);
  delay = at_cycle(book_on(path, r.wavefronts, r.ideal, path.edge_at_or_after(now + delay), path.cycle_of(now), 0)) - now;
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void ConflictMemo::remember_box(uint64_t id, bool write, BoxPattern pattern) {
  constexpr size_t kMaxBoxes = 4096;  // plans are few; a run that makes more forgets them all
  if (boxes_.size() >= kMaxBoxes) boxes_.clear();
  boxes_[id << 1 | static_cast<uint64_t>(write)] = std::move(pattern);
}

void ConflictMemo::remember_batch(uint64_t id, std::vector<AccessNeeded> accesses) {
  constexpr size_t kMaxBatches = 4096;
  if (batches_.size() >= kMaxBatches) batches_.clear();
  batches_[id] = std::move(accesses);
}

// What each request of a box not seen before needs (a request per 32 pieces of a row), asked of
// the conflict model (repeats within the box found by RecentPatterns) and remembered for its pattern.
const ConflictMemo::Needed* BankedSmem::box_requests(const BoxTransferExt& box, bool write, bool remember,
                                                     uint32_t highest) {
  const int per_row = box.pieces_per_row;
  box_requests_.clear();
  WarpAccess a;
  a.op = write ? SmemOp::st : SmemOp::ld;
  a.width = 16;
  RecentPatterns<uint32_t> recent(memo_->period());
  for (size_t row = 0; row < box.rows; ++row)
    for (int first = 0; first < per_row; first += 32) {  // one request per 32 pieces
      const int n = std::min(per_row - first, 32);
      const uint32_t* pieces = box.pieces + row * per_row + first;
      const auto* seen = cfg_.bank_statistics ? nullptr : recent.find(0, pieces, n);
      if (seen) {
        box_requests_.push_back({seen->result.wavefronts, seen->result.ideal});
      } else {
        a.addr.fill(-1);
        for (int k = 0; k < n; ++k) a.addr[k] = pieces[k];
        // With bank statistics the detail goes straight to the counters (it is not remembered).
        const ConflictResult r = cfg_.bank_statistics ? evaluate(a, cfg_.geometry(), true) : memo_->evaluate(a);
        if (cfg_.bank_statistics) count_bank_busy(r);
        box_requests_.push_back({r.wavefronts, r.ideal});
        recent.add(0, pieces, n, r);
      }
    }
  if (remember)
    memo_->remember_box(box.pattern, write, {box.rows, per_row, box.pieces[0], highest, box_requests_});
  return box_requests_.data();
}

void BankedSmem::box_transport(tlm::tlm_generic_payload& p, BoxTransferExt& box) {
  const bool write = p.is_write();
  const int per_row = box.pieces_per_row;
  if (per_row <= 0 || !box.pieces || !box.arrivals) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const size_t pieces_total = box.rows * static_cast<size_t>(per_row);
  const bool remember = box.pattern != 0 && cfg_.remember_patterns && !cfg_.bank_statistics && box.rows > 0;
  // What each request needs: remembered for the pattern when the box is a copy of it moved by a
  // multiple of the memo's period, else asked of the conflict model.
  const ConflictMemo::BoxPattern* known = remember ? memo_->box(box.pattern, write) : nullptr;
  const int64_t moved = known ? static_cast<int64_t>(box.pieces[0]) - known->first : 0;
  if (known && (known->rows != box.rows || known->per_row != per_row || moved % memo_->period() != 0)) known = nullptr;
  uint32_t highest = 0;
  if (known) {
    highest = static_cast<uint32_t>(known->highest + moved);
  } else {
    for (size_t k = 0; k < pieces_total; ++k) highest = std::max(highest, box.pieces[k]);
  }
  if (box.rows > 0 && !in_range(highest, 16)) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const ConflictMemo::Needed* needed = known ? known->requests.data() : box_requests(box, write, remember, highest);
  const int64_t now_cycle = data_path_->cycle_of(sc_time_stamp());
  CycleCalendar& path = write ? *write_path_ : *data_path_;
  uint8_t* data = cfg_.move_bytes ? p.get_data_ptr() : nullptr;
  // The TMA's port into shared memory moves tma_write_bytes_per_cycle, whatever the banks allow.
  const auto port_cycles = [&](int pieces) {
    return (16 * pieces + cfg_.tma_write_bytes_per_cycle - 1) / cfg_.tma_write_bytes_per_cycle;
  };
  // A row is done at the later of its arrival and its last cycle's end (in sc_time units).
  uint64_t latest = 0;
  const auto row_done = [&](size_t row, int64_t done_cycle) {
    const uint64_t t = std::max<uint64_t>(box.arrivals[row].value(), value_at_cycle(done_cycle));
    if (box.row_done) box.row_done[row] = sc_time::from_value(t);
    latest = std::max(latest, t);
  };
  if (!data && per_row <= 32) {  // timing only, one request a row (most boxes): the loop below, lean
    const int64_t row_port_cycles = port_cycles(per_row);
    counters_.bytes += 16 * static_cast<uint64_t>(pieces_total);
    for (size_t row = 0; row < box.rows; ++row) {
      const int64_t from = data_path_->edge_at_or_after(box.arrivals[row]);
      row_done(row, book_on(path, needed[row].wavefronts, needed[row].ideal, from, now_cycle, row_port_cycles));
    }
    box.done = sc_time::from_value(latest);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  size_t request = 0;
  for (size_t row = 0; row < box.rows; ++row) {
    const int64_t from = data_path_->edge_at_or_after(box.arrivals[row]);
    int64_t done_cycle = 0;
    for (int first = 0; first < per_row; first += 32, ++request) {
      const int n = std::min(per_row - first, 32);
      if (data) {
        const uint32_t* pieces = box.pieces + row * per_row + first;
        uint8_t* bytes = data + 16 * (row * per_row + first);
        for (int k = 0; k < n; ++k) {
          if (write)
            std::memcpy(mem_.data() + pieces[k], bytes + 16 * k, 16);
          else
            std::memcpy(bytes + 16 * k, mem_.data() + pieces[k], 16);
        }
      }
      counters_.bytes += 16 * static_cast<uint64_t>(n);
      done_cycle = std::max(done_cycle, book_on(path, needed[request].wavefronts, needed[request].ideal, from,
                                                now_cycle, port_cycles(n)));
    }
    row_done(row, done_cycle);
  }
  box.done = sc_time::from_value(latest);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Each access is served as its own request would be. One that is a shifted copy of an access
// this batch has already checked (same instruction, same lanes active, moved by a multiple of the
// bank period) needs what that one needed; only its range is its own.
void BankedSmem::batch_transport(tlm::tlm_generic_payload& p, WarpBatchExt& batch, sc_time& delay) {
  uint8_t* lanes = p.get_data_ptr();
  if (lanes && p.get_data_length() < 32 * 16 * batch.count) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const bool remember = batch.pattern != 0 && cfg_.remember_patterns && !cfg_.bank_statistics;
  if (const auto* known = remember ? memo_->batch(batch.pattern) : nullptr; known && known->size() == batch.count) {
    remembered_batch(p, batch, delay, *known);
    return;
  }
  if (remember) batch_accesses_.clear();
  const sc_time now = sc_time_stamp();
  const int64_t now_cycle = data_path_->cycle_of(now);
  const sc_time first = now + delay;
  sc_time done = first;
  batch.wavefronts = batch.ideal = 0;
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  RecentPatterns<int64_t> recent(memo_->period());
  WarpReturnPath warp{cfg_.warp_wavefront_cycles};
  for (size_t k = 0; k < batch.count; ++k) {
    const WarpAccess& a = batch.accesses[k];
    const sc_time arrival = first + sc_time::from_value(batch.interval.value() * k);
    uint8_t* own_lanes = lanes ? lanes + 32 * 16 * k : nullptr;
    const uint32_t shape = static_cast<uint32_t>(a.op) | static_cast<uint32_t>(a.width) << 8 |
                           static_cast<uint32_t>(a.num) << 16 | static_cast<uint32_t>(a.trans) << 24;
    int64_t shift = 0;
    const auto* known = cfg_.bank_statistics ? nullptr : recent.find(shape, a.addr.data(), 32, shift);
    ConflictResult r;
    if (known) {
      const int64_t highest = known->highest < 0 ? -1 : known->highest + shift;
      if (highest >= 0 && !in_range(static_cast<uint64_t>(highest), lane_bytes(a))) {
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        break;
      }
      r.wavefronts = known->result.wavefronts;
      r.ideal = known->result.ideal;
      if (own_lanes && cfg_.move_bytes) move_lanes(a, own_lanes);
      counters_.bytes += known->moved;
      done = std::max(done, occupy_at(r.wavefronts, r, arrival, now_cycle));
      if (remember) batch_accesses_.push_back({{r.wavefronts, r.ideal}, known->moved, highest, lane_bytes(a)});
    } else {
      sc_time d = arrival - now;
      p.set_data_ptr(own_lanes);
      const uint64_t before = counters_.bytes;
      r = lane_transport(p, d, a);
      if (p.get_response_status() != tlm::TLM_OK_RESPONSE) break;
      int64_t highest = -1;
      for (int l = 0; l < 32; ++l) highest = std::max(highest, a.addr[l]);
      recent.add(shape, a.addr.data(), 32, r, counters_.bytes - before, highest);
      done = std::max(done, now + d);
      if (remember) batch_accesses_.push_back({{r.wavefronts, r.ideal}, counters_.bytes - before, highest, lane_bytes(a)});
    }
    if (warp.cycles_a_wavefront > 0)
      done = std::max(done, at_cycle(warp.take(data_path_->edge_at_or_after(arrival), r.wavefronts)));
    batch.wavefronts += static_cast<uint64_t>(r.wavefronts);
    batch.ideal += static_cast<uint64_t>(r.ideal);
  }
  p.set_data_ptr(lanes);
  batch.done = done - first;
  if (remember && p.get_response_status() == tlm::TLM_OK_RESPONSE) memo_->remember_batch(batch.pattern, batch_accesses_);
}

void BankedSmem::remembered_batch(tlm::tlm_generic_payload& p, WarpBatchExt& batch, sc_time& delay,
                                  const std::vector<ConflictMemo::AccessNeeded>& known) {
  uint8_t* lanes = p.get_data_ptr();
  const sc_time now = sc_time_stamp();
  const int64_t now_cycle = data_path_->cycle_of(now);
  const sc_time first = now + delay;
  int64_t done_cycle = 0;
  batch.wavefronts = batch.ideal = 0;
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  WarpReturnPath warp{cfg_.warp_wavefront_cycles};
  for (size_t k = 0; k < batch.count; ++k) {
    const ConflictMemo::AccessNeeded& n = known[k];
    if (n.highest >= 0 && !in_range(static_cast<uint64_t>(n.highest), static_cast<uint64_t>(n.lane_bytes))) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      break;
    }
    if (lanes && cfg_.move_bytes) move_lanes(batch.accesses[k], lanes + 32 * 16 * k);
    counters_.bytes += n.moved;
    const int64_t from = data_path_->edge_at_or_after_ps(first.value() + batch.interval.value() * k);
    done_cycle = std::max(done_cycle, book(n.needed.wavefronts, n.needed.ideal, from, now_cycle, 0));
    if (warp.cycles_a_wavefront > 0) done_cycle = std::max(done_cycle, warp.take(from, n.needed.wavefronts));
    batch.wavefronts += static_cast<uint64_t>(n.needed.wavefronts);
    batch.ideal += static_cast<uint64_t>(n.needed.ideal);
  }
  batch.done = std::max(first, at_cycle(done_cycle)) - first;
}

void BankedSmem::warp_transport(int, tlm::tlm_generic_payload& p, sc_time& delay) {
  WarpBatchExt* batch = nullptr;
  p.get_extension(batch);
  if (batch) {
    batch_transport(p, *batch, delay);
    return;
  }
  WarpRequest* req = nullptr;
  p.get_extension(req);
  if (!req) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const ConflictResult r = lane_transport(p, delay, req->access);
  req->wavefronts = r.wavefronts;
  req->ideal = r.ideal;
}

ConflictResult BankedSmem::lane_transport(tlm::tlm_generic_payload& p, sc_time& delay, const WarpAccess& a) {
  if (p.get_data_length() < 32 * 16) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return {};
  }
  try {
    check_access(a);
  } catch (const Error&) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return {};
  }
  const int bytes = lane_bytes(a);
  int64_t highest = -1;
  int active = 0;
  for (int l = 0; l < 32; ++l) {
    highest = std::max(highest, a.addr[l]);
    active += a.addr[l] >= 0;
  }
  if (highest >= 0 && !in_range(static_cast<uint64_t>(highest), bytes)) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return {};
  }
  const ConflictResult r = cfg_.bank_statistics ? evaluate(a, cfg_.geometry(), true) : memo_->evaluate(a);
  counters_.bytes += static_cast<uint64_t>(active) * static_cast<uint64_t>(bytes);
  uint8_t* lanes = p.get_data_ptr();
  if (lanes && cfg_.move_bytes) move_lanes(a, lanes);
  delay = occupy(r.wavefronts, r, delay);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  return r;
}

void BankedSmem::move_lanes(const WarpAccess& a, uint8_t* lanes) {
  const int bytes = lane_bytes(a);
  const bool write = a.op == SmemOp::st || a.op == SmemOp::stmatrix;
  for (int l = 0; l < 32; ++l) {
    if (a.addr[l] < 0) continue;
    uint8_t* m = mem_.data() + a.addr[l];
    if (write)
      std::memcpy(m, lanes + 16 * l, bytes);
    else
      std::memcpy(lanes + 16 * l, m, bytes);
  }
}

std::string BankedSmem::report() const {
  std::ostringstream os;
  os << name() << ": " << counters_.requests << " requests, " << counters_.wavefronts << " wavefronts ("
     << counters_.conflicts << " from bank conflicts), " << counters_.bytes << " bytes\n  busy cycles per bank:";
  for (size_t b = 0; b < counters_.bank_busy_cycles.size(); ++b)
    os << (b % 16 == 0 ? "\n   " : "") << " " << counters_.bank_busy_cycles[b];
  os << "\n";
  return os.str();
}

}  // namespace tmasim::sc
