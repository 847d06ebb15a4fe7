#include "banked_smem.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

using namespace sc_core;

SmemConfig SmemConfig::from_json_file(const std::string& path) {
  return from_json(read_json_file(path, "configuration"), "configuration '" + path + "'");
}

SmemConfig SmemConfig::from_json(const nlohmann::json& j, const std::string& where) {
  const Fields top(j, where, "a configuration");
  const Fields s = top.object("smem");
  s.allow({"size_bytes", "banks", "bank_bytes", "wavefront_cycles", "tma_write_bytes_per_cycle"});
  SmemConfig c;
  c.size_bytes = s.integer("size_bytes", 1024, int64_t(1) << 24);
  c.geometry.banks = static_cast<int>(s.integer("banks", 1, 1024));
  c.geometry.bank_bytes = static_cast<int>(s.integer("bank_bytes", 4, 8));
  c.wavefront_cycles = static_cast<int>(s.integer("wavefront_cycles", 1, 64));
  c.tma_write_bytes_per_cycle = static_cast<int>(s.integer("tma_write_bytes_per_cycle", 16, 1024));
  c.cycle = sc_time(1000.0 / top.number("sm_clock_mhz", 100, 10000), SC_NS);
  return c;
}

BankedSmem::BankedSmem(sc_module_name name, const SmemConfig& cfg)
    : sc_module(name), tma_socket("tma_socket"), warp_socket("warp_socket"), cfg_(cfg),
      mem_(static_cast<size_t>(cfg.size_bytes), 0) {
  tma_socket.register_b_transport(this, &BankedSmem::tma_transport);
  warp_socket.register_b_transport(this, &BankedSmem::warp_transport);
  counters_.bank_busy_cycles.assign(cfg.geometry.banks, 0);
}

sc_time BankedSmem::occupy(int wavefronts, const ConflictResult& r, sc_time delay) {
  const sc_time arrival = sc_time_stamp() + delay;
  const sc_time busy = cfg_.cycle * static_cast<double>(wavefronts * cfg_.wavefront_cycles);
  const sc_time start = data_path_->book(arrival, busy, sc_time_stamp());
  counters_.wavefronts += wavefronts;
  counters_.conflicts += static_cast<uint64_t>(r.conflicts() > 0 ? r.conflicts() : 0);
  ++counters_.requests;
  if (cfg_.bank_statistics)
    for (const Wavefront& wf : r.detail)
      for (int b = 0; b < cfg_.geometry.banks; ++b)
        if (wf.banks[b / 32] >> (b % 32) & 1u) counters_.bank_busy_cycles[b] += cfg_.wavefront_cycles;
  return start + busy - sc_time_stamp();
}

// A TMA transfer lands as 16-byte pieces; each group of a wavefront's width is one write
// whose bank conflicts the conflict model counts (a swizzled 128-byte row: one wavefront).
void BankedSmem::tma_transport(int, tlm::tlm_generic_payload& p, sc_time& delay) {
  WarpRequest* chunks = nullptr;
  p.get_extension(chunks);
  if (chunks) {  // scattered 16-byte pieces, one lane each (built by the TMA: no shape check)
    lane_transport(p, delay, chunks->access, false);
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
  ConflictResult r = evaluate(a, cfg_.geometry, cfg_.bank_statistics);
  if (cfg_.move_bytes && p.get_data_ptr()) {
    if (p.is_write())
      std::memcpy(mem_.data() + addr, p.get_data_ptr(), len);
    else
      std::memcpy(p.get_data_ptr(), mem_.data() + addr, len);
  }
  counters_.bytes += len;
  delay = occupy(r.wavefronts, r, delay);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void BankedSmem::warp_transport(int, tlm::tlm_generic_payload& p, sc_time& delay) {
  WarpRequest* req = nullptr;
  p.get_extension(req);
  if (!req) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const ConflictResult r = lane_transport(p, delay, req->access, true);
  req->wavefronts = r.wavefronts;
  req->ideal = r.ideal;
}

ConflictResult BankedSmem::lane_transport(tlm::tlm_generic_payload& p, sc_time& delay, const WarpAccess& a,
                                          bool check_shape) {
  if (p.get_data_length() < 32 * 16) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return {};
  }
  try {
    if (check_shape) check_access(a);
  } catch (const Error&) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return {};
  }
  const int bytes = lane_bytes(a);
  const bool write = a.op == SmemOp::st || a.op == SmemOp::stmatrix;
  for (int l = 0; l < 32; ++l) {
    if (a.addr[l] < 0) continue;
    if (!in_range(static_cast<uint64_t>(a.addr[l]), bytes)) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return {};
    }
  }
  ConflictResult r = evaluate(a, cfg_.geometry, cfg_.bank_statistics);
  uint8_t* lanes = p.get_data_ptr();
  for (int l = 0; l < 32; ++l) {
    if (a.addr[l] < 0) continue;
    counters_.bytes += bytes;
    if (!cfg_.move_bytes || !lanes) continue;
    uint8_t* m = mem_.data() + a.addr[l];
    if (write)
      std::memcpy(m, lanes + 16 * l, bytes);
    else
      std::memcpy(lanes + 16 * l, m, bytes);
  }
  delay = occupy(r.wavefronts, r, delay);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  return r;
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
