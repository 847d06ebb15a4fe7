// The shared memory's geometry and data path (the configuration's "smem" section). No SystemC.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "config_key.hpp"
#include "tmasim/conflicts.hpp"

namespace tmasim::sc {

#define TMASIM_SMEM_KEYS(X) \
  X(int64_t, size_bytes, "size_bytes", 233472, 1024, int64_t(1) << 24, required, "bytes", \
    "shared memory a CTA may use (233472 = 227 KiB + 1 KiB on the H100)") \
  X(int, banks, "banks", 32, 1, 1024, required, "banks", \
    "shared-memory banks (\"what if 64?\")") \
  X(int, bank_bytes, "bank_bytes", 4, 4, 8, required, "bytes", \
    "width of a bank") \
  X(int, wavefront_cycles, "wavefront_cycles", 1, 1, 64, required, "cycles", \
    "time of one wavefront") \
  X(int, tma_write_bytes_per_cycle, "tma_write_bytes_per_cycle", 128, 16, 1024, required, "bytes/cycle", \
    "the TMA unit's port into shared memory (the rows a load writes, a store reads): a " \
    "16-byte-piece request holds the data path for at least its bytes at this rate, whatever its " \
    "bank wavefronts (with 128, one 128-byte row per cycle: the wavefront already takes as long)") \
  X(int, warp_wavefront_cycles, "warp_wavefront_cycles", 0, 0, 64, optional, "cycles", \
    "one warp's return path: the wavefronts of a warp's own accesses reach it at most one every this " \
    "many cycles, whatever the banks allow (the data path still serves one a cycle across warps); 0: no " \
    "such limit. H100: 2 (`tests/golden/smem_probe`: one warp's ld.shared, ld.shared.v4 and ldmatrix.x4 " \
    "take 2 cycles a wavefront plus ~6, at any conflict degree; four or more warps 1 a wavefront)") \
  X(bool, interleave_wavefronts, "interleave_wavefronts", false, 0, 0, optional, "", \
    "how a request's wavefronts take the shared-memory data path: `true`, each the first free " \
    "cycle after the one before (a TMA box's rows and a warp's `ldmatrix` wavefronts pass between" \
    " each other, as a data path arbitrated every cycle does); `false`, a run of free cycles " \
    "together, so that an `ldmatrix.x4` (4 wavefronts) waits for a gap of 4 among a box's rows " \
    "(h100.json: `true`; `tests/golden/loop_probe`: ldmatrix reads beside a stream of TMA writes " \
    "cost the H100 ~90 cycles an iteration beyond the two apart, where runs of free cycles cost " \
    "the model ~250-500)") \
  X(bool, tma_writes_own_path, "tma_writes_own_path", false, 0, 0, optional, "", \
    "`true`: the rows a TMA load (or a multicast) writes take a write path of their own, one " \
    "wavefront a cycle beside the read path that ldmatrix, wgmma operands and TMA stores' reads " \
    "share; `false`: one data path for all (h100.json: `true`; `tests/golden/contend_probe`: a TMA " \
    "stream of ~110 B a cycle slows neither wgmma reading its operands at 128 B a cycle nor " \
    "8-way-conflicted ldmatrix at one wavefront a cycle, by under 1%, nor is it slowed)")

struct SmemConfig {
  TMASIM_SMEM_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(SmemConfig, "smem", TMASIM_SMEM_KEYS)
  BankGeometry geometry() const { return BankGeometry{banks, bank_bytes}; }
  double cycle_ns = 1.0 / 1.98;  // one SM clock (the configuration's sm_clock_mhz)
  // Run options, not read from a configuration: keep the bytes (off in timing-only runs),
  // count busy cycles per bank (the conflict model's detailed path: benches and reports only),
  // and remember what repeated patterns needed (a box's rows by its pattern id, a TMA unit's plans
  // of boxes inside their tensors; off only to check that remembering changes nothing).
  bool move_bytes = true;
  bool bank_statistics = false;
  bool remember_patterns = true;

  // Reads the "smem" object and "sm_clock_mhz" of a configuration file (configs/h100.json).
  static SmemConfig from_json_file(const std::string& path);
  static SmemConfig from_json(const nlohmann::json& j, const std::string& where);
};

}  // namespace tmasim::sc
