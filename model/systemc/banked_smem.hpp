// BankedSmem: a SystemC/TLM-2.0 model of an SM's banked shared memory.
//
// Two target sockets: `tma_socket` (any number of initiators: the local TMA and, for
// multicast, those of the cluster's other SMs) takes TMA writes and reads, either one
// contiguous run of up to the configured bytes per cycle or, with a WarpRequest extension,
// up to 32 scattered 16-byte chunks (the swizzled pieces of a box row); `warp_socket` takes
// warp-wide instructions (ld/st/ldmatrix/stmatrix) described by a WarpRequest extension. Each request is split into wavefronts by
// the functional conflict model (tmasim::evaluate), one wavefront per `wavefront_cycles`;
// requests take the earliest free slots of the single data path at or after their arrival, so the b_transport delay
// grows with queueing and with conflicts. Counters: wavefronts, conflicts, bytes, busy
// cycles per bank.
#pragma once
#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "calendar.hpp"
#include "tmasim/conflicts.hpp"

namespace tmasim::sc {

struct SmemConfig {
  int64_t size_bytes = 233472;
  BankGeometry geometry;
  sc_core::sc_time cycle{1.0 / 1.98, sc_core::SC_NS};  // one SM clock
  int wavefront_cycles = 1;
  int tma_write_bytes_per_cycle = 128;
  // Run options, not read from a configuration: keep the bytes (off in timing-only runs) and
  // count busy cycles per bank (the conflict model's detailed path: benches and reports only).
  bool move_bytes = true;
  bool bank_statistics = false;

  // Reads the "smem" object and "sm_clock_mhz" of a configuration file (configs/h100.json).
  static SmemConfig from_json_file(const std::string& path);
  static SmemConfig from_json(const nlohmann::json& j, const std::string& where);
};

// A warp instruction carried by a generic payload on warp_socket: the payload's data
// pointer holds 32 lanes x 16 bytes (lane l at offset 16*l), read or written per lane.
struct WarpRequest : tlm::tlm_extension<WarpRequest> {
  WarpAccess access;
  int wavefronts = 0, ideal = 0;  // filled in by the memory: what serving the access took
  tlm::tlm_extension_base* clone() const override { return new WarpRequest(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    const auto& o = static_cast<const WarpRequest&>(other);
    access = o.access;
    wavefronts = o.wavefronts;
    ideal = o.ideal;
  }
};

// Sends one warp-style request (32 lanes x 16 bytes at `lanes`, lane l at 16*l) through a
// socket bound to a BankedSmem; reads fill `lanes`, writes take from it. `delay` is annotated;
// `served`, when given, receives the wavefronts the memory needed and the ideal.
template <class Socket>
tlm::tlm_response_status smem_request(Socket& socket, const WarpAccess& access, uint8_t* lanes,
                                      sc_core::sc_time& delay, WarpRequest* served = nullptr) {
  WarpRequest req;
  req.access = access;
  const bool write = access.op == SmemOp::st || access.op == SmemOp::stmatrix;
  tlm::tlm_generic_payload p;
  p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_data_ptr(lanes);
  p.set_data_length(32 * 16);
  p.set_extension(&req);
  socket->b_transport(p, delay);
  p.clear_extension(&req);
  if (served) *served = req;
  return p.get_response_status();
}

struct SmemCounters {
  uint64_t requests = 0;
  uint64_t wavefronts = 0;
  uint64_t conflicts = 0;  // wavefronts beyond the ideal
  uint64_t bytes = 0;
  std::vector<uint64_t> bank_busy_cycles;
};

class BankedSmem : public sc_core::sc_module {
 public:
  // Any number of initiators, none included (a memory nobody reads still elaborates).
  using Socket = tlm_utils::multi_passthrough_target_socket<BankedSmem, 32, tlm::tlm_base_protocol_types, 0,
                                                            sc_core::SC_ZERO_OR_MORE_BOUND>;
  Socket tma_socket;
  Socket warp_socket;

  BankedSmem(sc_core::sc_module_name name, const SmemConfig& cfg);

  // The data path of the SM this CTA's memory lives on, shared with the SM's other CTAs.
  void share_data_path(Calendar* path) { data_path_ = path; }
  const SmemCounters& counters() const { return counters_; }
  const std::vector<uint8_t>& memory() const { return mem_; }
  std::vector<uint8_t>& memory() { return mem_; }
  std::string report() const;

 private:
  void tma_transport(int initiator, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void warp_transport(int initiator, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  // Returns what serving the access took (nothing on an error response).
  ConflictResult lane_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay, const WarpAccess& a,
                                bool check_shape);
  // Serves `wavefronts` on the data path no earlier than now + delay; returns the new delay.
  sc_core::sc_time occupy(int wavefronts, const ConflictResult& detail, sc_core::sc_time delay);
  bool in_range(uint64_t addr, uint64_t len) const { return addr + len <= mem_.size() && addr + len >= addr; }

  SmemConfig cfg_;
  std::vector<uint8_t> mem_;
  Calendar own_path_;
  Calendar* data_path_ = &own_path_;  // the SM's single data path, served in simulated-time order
  SmemCounters counters_;
};

}  // namespace tmasim::sc
