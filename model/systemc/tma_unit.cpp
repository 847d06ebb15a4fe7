#include "tma_unit.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <cstring>

#include "clock.hpp"
#include "memory_system.hpp"
#include "process_error.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"

namespace tmasim::sc {

using namespace sc_core;

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
TmaUnit::TmaUnit(sc_module_name name, const TimingConfig& cfg, GlobalMemory global, int cluster_size, int own_rank,
                 int first_port)
    : sc_module(name), mem("mem"), cfg_(cfg), global_(global), cluster_smem_(static_cast<size_t>(cluster_size)),
      own_rank_(own_rank), queue_("queue", cfg.op_queue_depth),
      first_port_(first_port), cyc_(cycle_time(cfg)) {
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

void TmaUnit::connect_cluster(const std::vector<BankedSmem*>& cluster_smem) {
  if (cluster_smem.size() != cluster_smem_.size()) throw Error(std::string(name()) + ": connected to a cluster of another size");
  cluster_smem_ = cluster_smem;
  for (size_t k = 0; k < cluster_smem_.size(); ++k) (*smem[k]).bind(cluster_smem_[k]->tma_socket);
}

// The one writer of `occupancy`: several threads of a CTA may issue in the same delta cycle,
// and a signal takes one write per delta.
void TmaUnit::show_occupancy() { occupancy.write(cfg_.op_queue_depth - queue_.num_free()); }

void TmaUnit::on_retire() {
  while (!retiring_.empty() && retiring_.top().first <= sc_time_stamp()) {
    if (waveform_) {
      --ops_in_flight_;
      bytes_in_flight_ -= retiring_.top().second;
    }
    retiring_.pop();
  }
  if (!retiring_.empty()) retire_.notify(retiring_.top().first - sc_time_stamp());  // the next
}

void TmaUnit::submit(TmaOp op) {
  if (waveform_) {
    ++ops_in_flight_;
    bytes_in_flight_ += op.ins.op == Op::prefetch ? 0 : op.map->transaction_bytes();
  }
  op.issued_cycles = sc_time_stamp() / cyc_;
  queue_.write(op);
  const int waiting = cfg_.op_queue_depth - queue_.num_free();  // counts this delta's writes too
  max_queue_ = std::max(max_queue_, waiting);
  if (waveform_) queue_changed_.notify(sc_core::SC_ZERO_TIME);
}

void TmaUnit::finished(const TmaOp& op, double start, double done) {
  last_done_ = done;
  if (!record_lifetimes_) return;  // a lifetime copies the instruction: only for a trace
  lifetimes.push_back({op.issued_cycles, start, done, op.map, op.ins, op.dest_count ? op.dests[0].barrier : nullptr,
                       op.dest_count});  // a load's destinations (others have none)
}

void TmaUnit::run() {
  guarded([this] { serve(); });
}

void TmaUnit::serve() {
  for (;;) {
    TmaOp op = queue_.read();
    if (waveform_) queue_changed_.notify(sc_core::SC_ZERO_TIME);
    ++ops_;
    const double start = sc_time_stamp() / cyc_;
    bytes_ += static_cast<uint64_t>(op.ins.op == Op::prefetch ? 0 : op.map->transaction_bytes());
    if (op.ins.op == Op::load) {
      load(op, start);
    } else if (op.ins.op == Op::prefetch) {
      prefetch(op);
      finished(op, start, start);
    } else {
      sc_time read_done;
      const sc_time done = store(op, read_done);
      finished(op, start, done / cyc_);
      if (op.done) op.done->notify(done - sc_time_stamp());
      if (op.read_done) op.read_done->notify(read_done - sc_time_stamp());
    }
    const sc_time done = std::max(sc_time_stamp(), cyc_ * last_done_);
    retiring_.push({done, op.ins.op == Op::prefetch ? 0 : op.map->transaction_bytes()});
    retire_.notify(done - sc_time_stamp());  // an earlier one stays
    const sc_time next = next_operation_at();
    if (next > sc_time_stamp()) wait(next - sc_time_stamp());
  }
}

// When the unit takes its next operation: once this one's requests have all been generated, or
// with tma.set_up_overlaps_rows as soon as the next one's first request, after its set-up, would
// follow them.
sc_time TmaUnit::next_operation_at() const {
  if (!cfg_.set_up_overlaps_rows) return eng_->agu_free;
  const sc_time set_up = cyc_ * cfg_.agu_latency_cycles;
  return eng_->agu_free > set_up ? eng_->agu_free - set_up : SC_ZERO_TIME;
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

// Data: the functional core computes the box as it lands in shared memory (a timing-only run
// checks the instruction and moves nothing).
void TmaUnit::compute_box(const TmaOp& op) {
  if (!cfg_.smem.move_bytes) {
    checker_.check(*op.map, op.ins);
    return;
  }
  std::vector<uint8_t>& image = s_->image;  // shared by the chip's TMA units: as large as the largest memory
  const size_t smem_bytes = cluster_smem_[own_rank_]->memory().size();
  if (image.size() < smem_bytes) image.resize(smem_bytes);
  execute(*op.map, op.ins, global_, SharedMemory{image.data(), image.size()});
}

void TmaUnit::load(const TmaOp& op, double start_cycles) {
  const TensorMap& m = *op.map;
  const sc_time& cyc = cyc_;
  compute_box(op);
  const bool bytes = cfg_.smem.move_bytes;
  const std::vector<uint8_t>& image = s_->image;
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
  const RowPlans& plans = cfg_.rtl_agu ? plan_rows_rtl(m, op.ins) : plan_rows(m, op.ins);
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
  if (cfg_.loads_wait_for_stores) agu_free = std::max(agu_free, eng_->store_free);
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
  finished(op, start_cycles, last / cyc);
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
  if (cfg_.cluster_arrive_waits_for_reads && track_reads_out_) {
    forget_reads_out_done();
    const std::vector<sc_time>& by = cfg_.cluster_arrive_waits_for_delivery ? s_->burst.done : s_->burst.l2_ready;
    for (size_t k = 0; k < n; ++k) eng_->reads_out.emplace_back(s_->burst.at[k], by[k]);
  }
}

void TmaUnit::forget_reads_out_done() {
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

sc_time TmaUnit::reads_out_done_by() {
  forget_reads_out_done();
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
  const int64_t period = std::lcm(int64_t(1024), ConflictMemo::period_of(cfg_.smem.geometry()));
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
  const sc_time& cyc = cyc_;
  checker_.check(m, op.ins);
  sc_time t = std::max(sc_time_stamp() + cyc * cfg_.agu_latency_cycles, eng_->agu_free);
  const int unit = m.row_unit_bytes();
  s_->burst.clear();
  for_each_row(m, op.ins, [&](const BoxRow& r) {
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
  const sc_time& cyc = cyc_;
  BankedSmem& own = *cluster_smem_[own_rank_];
  // Data: the functional core writes global memory. Timing: each row is read out of shared
  // memory through its port, then streamed to global memory at the store bandwidth.
  const bool bytes = cfg_.smem.move_bytes;
  if (bytes)
    execute(m, op.ins, global_, SharedMemory{own.memory().data(), own.memory().size()});
  else
    checker_.check(m, op.ins);
  sc_time t = std::max(sc_time_stamp() + cyc * cfg_.agu_latency_cycles, eng_->agu_free);
  const int64_t row_bytes = m.inner_row_bytes();
  const bool reduce = op.ins.op == Op::reduce;
  sc_time read_done = t, written = t;
  const RowPlans& plans = plan_rows(m, op.ins);
  s_->arrivals.resize(1);
  s_->arrivals[0].clear();
  for (size_t r = 0; r < plans.count; ++r) {  // the generator asks for each row's pieces
    const sc_time issue = std::max(t, eng_->agu_free);
    eng_->agu_free = issue + cyc * (row_bytes / cfg_.agu_bytes_per_cycle);
    s_->arrivals[0].push_back(issue);
  }
  transfer_box(own_rank_, false, plans.pieces, s_->arrivals[0], nullptr, true);
  // tma.store_buffer_bytes: the read completes once all rows but the buffer's are accepted.
  const int64_t buffer = cfg_.store_buffer_bytes;
  const size_t buffered = buffer < 0 ? plans.count : static_cast<size_t>(std::min<int64_t>(
                                                          static_cast<int64_t>(plans.count), buffer / std::max<int64_t>(row_bytes, 1)));
  sc_time accepted = t;
  size_t row = 0;
  for (const RowPlan& plan : plans) {
    read_done = std::max(read_done, s_->row_done[row++]);
    eng_->store_free = std::max(read_done, eng_->store_free) + cyc * (row_bytes / cfg_.store_bytes_per_cycle);
    if (plan.bytes > 0) written = std::max(written, write_global(plan.gaddr, plan.bytes, eng_->store_free, reduce));
    if (row + buffered == plans.count) accepted = std::max(eng_->store_free, written);
  }
  read_done_out = std::max(read_done, accepted);
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

}  // namespace tmasim::sc
