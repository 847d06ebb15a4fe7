// The Chrome/Perfetto trace of a run (Experiment::perfetto_path).
#include "trace.hpp"

#include <cmath>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "gpu.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

namespace {

const char* step_name(const Step& s) {
  switch (s.kind) {
    case Step::Kind::arrive_expect_tx: return "arrive";
    case Step::Kind::load: return "issue load";
    case Step::Kind::store: return "issue store";
    case Step::Kind::reduce: return "issue reduce";
    case Step::Kind::prefetch: return "issue prefetch";
    case Step::Kind::wait_barrier: return "wait";
    case Step::Kind::wait_stores: return "wait stores";
    case Step::Kind::read: return "read (ldmatrix)";
    case Step::Kind::write: return "write (stmatrix)";
    case Step::Kind::fence: return "fence.proxy.async";
    case Step::Kind::delay: return "delay / compute";
    case Step::Kind::sync: return "sync";
    case Step::Kind::stamp: return "stamp";
    case Step::Kind::mma: return "issue wgmma";
    case Step::Kind::mma_commit: return "wgmma commit";
    case Step::Kind::mma_wait: return "wgmma wait";
    case Step::Kind::mark_start:
    case Step::Kind::mark_issued: return "mark";
  }
  return "step";
}

std::string quoted(const std::string& s) { return json_text(nlohmann::json(s)); }

// A TMA operation's slice: its tensor, box coordinates, shared-memory offset, bytes and, for a load,
// the barrier its bytes complete (the first receiver's) and how many CTAs receive it.
void tma_args(std::ostream& tr, const Experiment& e, const TmaUnit::Lifetime& l) {
  const size_t map = static_cast<size_t>(l.map - e.maps.data());
  tr << "\"tensor\":" << quoted(map < e.map_names.size() ? e.map_names[map] : "map " + std::to_string(map))
     << ",\"coords\":[";
  for (size_t k = 0; k < l.ins.coords.size(); ++k) tr << (k ? "," : "") << l.ins.coords[k];
  tr << "],\"smem_offset\":" << l.ins.smem_offset
     << ",\"bytes\":" << (l.ins.op == Op::prefetch ? 0 : l.map->transaction_bytes());
  if (l.barrier) tr << ",\"barrier\":" << quoted(l.barrier->basename()) << ",\"receivers\":" << l.destinations;
}

}  // namespace

// Chrome trace-event JSON for Perfetto or chrome://tracing, times in microseconds of simulated
// time: a process per SM; in it, a track per CTA thread whose steps are slices (a thread does
// one thing at a time, so they never overlap), and per TMA unit its operations as async slices
// from issue to completion (operations overlap in the queue, and async slices may).
void write_trace(const Experiment& e, const Gpu& gpu) {
  std::vector<int> cta_sm;
  for (const auto& cta : gpu.ctas()) cta_sm.push_back(cta->sm());
  std::ofstream tr(e.perfetto_path);
  if (!tr) throw Error("cannot write the trace to " + e.perfetto_path);
  const double us_per_cycle = 1.0 / e.cfg.sm_clock_mhz;
  // Times in units of 1/1024 us (about 1 ns), rounded once: binary fractions, so that a viewer's
  // ts + dur equals the next slice's ts exactly and back-to-back slices never nest. Ten decimals
  // print such a value exactly.
  auto us = [&](double cycles) { return static_cast<double>(std::llround(cycles * us_per_cycle * 1024)) / 1024; };
  tr.setf(std::ios::fixed);
  tr.precision(10);
  tr << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock_mhz\":" << e.cfg.sm_clock_mhz;
  for (const auto& [key, value] : e.provenance) tr << "," << quoted(key) << ":" << quoted(value);
  tr << "},\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&]() -> std::ostream& {
    if (!first) tr << ",\n";
    first = false;
    return tr;
  };
  std::set<int> sms;
  for (int sm : cta_sm) sms.insert(sm);
  for (int sm : sms)
    sep() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << sm << ",\"args\":{\"name\":\"SM " << sm << "\"}}";
  int tid = 0;
  uint64_t op_id = 0;
  for (size_t c = 0; c < e.ctas.size(); ++c) {
    const int pid = cta_sm[c];
    for (size_t t = 0; t < gpu.ctas()[c]->threads().size(); ++t, ++tid) {
      sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid << ",\"tid\":" << tid
            << ",\"args\":{\"name\":" << quoted("CTA " + std::to_string(c) + " " + e.ctas[c].threads[t].name) << "}}";
      for (const auto& span : gpu.ctas()[c]->threads()[t]->spans()) {
        sep() << "{\"ph\":\"X\",\"name\":\"" << step_name(span.step) << "\",\"pid\":" << pid << ",\"tid\":" << tid
              << ",\"ts\":" << us(span.begin) << ",\"dur\":" << us(span.end) - us(span.begin);
        if (span.step.origin < e.origins.size()) tr << ",\"args\":{\"step\":" << quoted(e.origins[span.step.origin]) << "}";
        tr << "}";
      }
    }
    const int tma_tid = tid++;
    sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid << ",\"tid\":" << tma_tid
          << ",\"args\":{\"name\":\"CTA " << c << " TMA unit\"}}";
    for (const auto& l : gpu.ctas()[c]->tma().lifetimes) {
      const uint64_t id = ++op_id;
      sep() << "{\"ph\":\"b\",\"cat\":\"tma\",\"name\":\"" << name(l.ins.op) << "\",\"id\":" << id << ",\"pid\":" << pid
            << ",\"tid\":" << tma_tid << ",\"ts\":" << us(l.issue) << ",\"args\":{";
      tma_args(tr, e, l);
      tr << ",\"queued_us\":" << us(l.start) - us(l.issue) << "}}";
      sep() << "{\"ph\":\"e\",\"cat\":\"tma\",\"name\":\"" << name(l.ins.op) << "\",\"id\":" << id << ",\"pid\":" << pid
            << ",\"tid\":" << tma_tid << ",\"ts\":" << us(l.done) << "}";
    }
  }
  tr << "\n]}\n";
  tr.close();
  if (!tr) throw Error("cannot write the trace to " + e.perfetto_path);
}

}  // namespace tmasim::sc
