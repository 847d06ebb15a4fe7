// The TMA unit's parameters (the configuration's "tma" section).
#pragma once
#include <cstdint>
#include <string>

#include "config_key.hpp"

namespace tmasim::sc {

#define TMASIM_TMA_KEYS(X) \
  X(int, op_queue_depth, "op_queue_depth", 16, 1, 1024, optional, "operations", \
    "operations waiting in a TMA unit; a full queue blocks the issuing thread") \
  X(int, descriptor_fetch_cycles, "descriptor_fetch_cycles", 0, 0, 1e6, optional, "cycles", \
    "first use of a tensor map by a unit") \
  X(int, agu_latency_cycles, "agu_latency_cycles", 40, 0, 1e6, optional, "cycles", \
    "an operation's address generation before its first request") \
  X(bool, set_up_overlaps_rows, "set_up_overlaps_rows", false, 0, 0, optional, "", \
    "an operation's set-up (`agu_latency_cycles`) overlaps the rows of the one before it: the unit " \
    "takes its next operation as soon as that one's first request would follow this one's last " \
    "row, so a burst of boxes runs at their rows' rate; `false`: once this one's rows are all " \
    "generated, each set-up paid after the rows before it") \
  X(double, agu_bytes_per_cycle, "agu_bytes_per_cycle", 128, 1, 1e6, optional, "bytes/cycle", \
    "box rows generated per cycle") \
  X(int, completion_cycles, "completion_cycles", 30, 0, 1e6, optional, "cycles", \
    "last shared-memory write to the mbarrier's transaction count") \
  X(int, multicast_cycles, "multicast_cycles", 60, 0, 1e6, optional, "cycles", \
    "extra delivery time into the cluster's other CTAs") \
  X(double, store_bytes_per_cycle, "store_bytes_per_cycle", 40, 1, 1e6, optional, "bytes/cycle", \
    "store stream to global memory") \
  X(int, store_ack_cycles, "store_ack_cycles", 30, 0, 1e6, optional, "cycles", \
    "last store byte to its completion") \
  X(int64_t, store_buffer_bytes, "store_buffer_bytes", -1, -1, 1e9, optional, "bytes", \
    "how far a bulk store's read of shared memory may run ahead of the memory system accepting " \
    "its writes; its read completes (`wait_stores` with `read_only`) when its last row is read and " \
    "all but this many bytes were accepted (-1: no limit, the read completes as the rows are read)") \
  X(bool, loads_wait_for_stores, "loads_wait_for_stores", false, 0, 0, optional, "", \
    "a load's requests start once the bulk stores (and reductions) before it in the unit have " \
    "streamed out at `store_bytes_per_cycle` (false: once their rows are generated, at " \
    "`agu_bytes_per_cycle`); stores behind a store still overlap its stream. " \
    "`tests/golden/store_load_probe`: a 16 KiB store between two loads delays the second by what is " \
    "left of its ~513-cycle stream") \
  X(std::string, agu, "agu", "cpp", 0, 0, optional, "cpp|rtl", \
    "address generator: the C++ traversal, or the Verilated `rtl/tma_agu*.sv` in the loop: rows " \
    "leave at the cycles the RTL emits their first beat (its set-up latency, one beat per cycle; " \
    "`agu_latency_cycles` still precedes it), 16 or 128 bytes per beat as `agu_bytes_per_cycle` " \
    "says (other values are refused)")

struct TmaParams {
  TMASIM_TMA_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(TmaParams, "tma", TMASIM_TMA_KEYS)
};

}  // namespace tmasim::sc
