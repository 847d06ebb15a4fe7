// Every timing and geometry parameter of the model (configs/h100.json, docs/config.md), read
// from a configuration file. No SystemC here: the scenario reader and the CUDA emitter use it too.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "smem_config.hpp"

namespace tmasim::sc {

struct TimingConfig {
  double sm_clock_mhz = 1980;
  // The chip: SMs, and what one SM holds at once (CTA slots). A grid with more CTAs than
  // slots runs in waves: a CTA starts cta_launch_cycles after a slot frees.
  int sms = 132;
  int max_ctas_per_sm = 32;
  int max_warps_per_sm = 64;
  int64_t smem_per_sm_bytes = 233472;      // the shared memory CTAs may be given (228 KiB)
  int smem_reserved_per_cta_bytes = 1024;  // the system's share of each CTA's
  int cta_launch_cycles = 0;
  // CTA thread: cycles from the timed start to the first issue, and per further issue.
  int issue_first_cycles = 434;
  int issue_cycles = 172;
  int issue_multicast_cycles = 85;  // extra per multicast issue
  // TMA unit
  int op_queue_depth = 16;
  int descriptor_fetch_cycles = 0;  // first use of a tensor map (not cached yet)
  int agu_latency_cycles = 40;
  double agu_bytes_per_cycle = 128;
  int completion_cycles = 30;       // last shared-memory write to mbarrier phase flip
  int multicast_cycles = 60;        // extra delivery time into other CTAs of the cluster
  double store_bytes_per_cycle = 40;
  int store_ack_cycles = 30;
  // Memory system
  int l2_hit_cycles = 200;
  int l2_miss_cycles = 610;
  // DRAM latency spread: each miss waits an extra exponential delay of this mean, drawn
  // from a hash of the line address (reproducible); an op waits for its slowest miss.
  double l2_miss_jitter_cycles = 80;
  int l2_line_bytes = 128;
  int sector_bytes = 32;  // DRAM transfers are whole sectors
  int64_t l2_bytes = 50 << 20;
  double sm_l2_bytes_per_cycle = 100;   // one SM's port from L2
  double sm_hbm_bytes_per_cycle = 54;   // one SM's share of misses
  double hbm_bytes_per_cycle = 1550;    // the chip
  double l2_bytes_per_cycle = 0;        // the chip's L2 to all SMs, reads that hit (0: no limit but the ports)
  // Of the L2's lines, the share a write flush larger than the L2 leaves dirty (the harness's
  // cold state): a fill that evicts one first writes it back, on the DRAM's bandwidth.
  double flush_dirty_fraction = 0;
  bool time_ordered = false;            // DRAM and ports serve in simulated-time order, not booking order
  // Threads of a CTA (a warp on the GPU), from the H100 microbenchmarks
  // (tests/golden/microbench, and the corpus's calibration micro family).
  double arrive_cycles = 0;          // a local mbarrier.arrive (with or without expect_tx)
  double cluster_arrive_cycles = 0;  // mapa + mbarrier.arrive.release.cluster (any rank, own included)
  // The release at cluster scope first waits until every read the CTA's TMA unit has sent to
  // the memory system has its data in L2 (H100: 659 cycles per arrive idle, 778 beside a warm
  // stream of loads, 1509 beside a cold one; tests/golden/microbench stream_*).
  bool cluster_arrive_waits_for_reads = true;
  double wait_cycles = 0;            // a wait whose phase has long completed (one try_wait)
  double wait_wakeup_cycles = 0;     // from a phase flip to the waiting thread's next step
  // A test_wait loop (the tb/gpu harness's mbar_wait: test_wait, clock64, compare) samples the
  // phase every poll_cycles, the first time poll_offset_cycles after the loop starts; it sees
  // the flip at the first sample at or after it (0: no loop, waits as try_wait does).
  double poll_cycles = 0;
  double poll_offset_cycles = 0;
  // A load issued right after the thread's own arrive.expect_tx on the barrier the load signals
  // waits this long beyond its issue cost (the H100 performs the arrive first); with any other
  // step between them, or another barrier, it does not.
  double armed_load_cycles = 0;
  bool armed_load_holds_thread_only = false;  // armed_load_cycles hold the thread after the load is submitted
  double ldmatrix_cycles = 0;        // one warp's issue interval between ldmatrix.x4 of a read
  // ... of a read that runs as a loop (TileLayout::read_is_looped; 0: ldmatrix_cycles)
  double ldmatrix_looped_cycles = 0;
  double spin_overhead_cycles = 0;   // a delay or compute step (a clock64 spin) beyond its cycles
  // One loop iteration pays this for each division or remainder of a value computed from its
  // variable by a constant that is not a power of two (k / S and k % S count once). Off in
  // h100.json: the PTX computes one in a few instructions; what slows the loop probe's 3/5/6-stage
  // loops is the address arithmetic around such a stage base (tests/golden/loop_probe/README.md).
  double divide_cycles = 0;
  int sync_cycles = 0;               // a CTA-wide barrier among its threads
  // Compute steps: an MMA m x n x k takes 2*m*n*k / mma_flops_per_cycle cycles (dense fp16
  // on one H100 SM: 989 TFLOP/s / 132 SMs / 1.83 GHz = 4096, the datasheet figure).
  double mma_flops_per_cycle = 4096;
  SmemConfig smem;
  bool rtl_agu = false;  // generate addresses with the Verilated rtl/tma_agu.sv instead of C++

  static TimingConfig from_json_file(const std::string& path);
  static TimingConfig from_json(const nlohmann::json& j, const std::string& where);
};

// `--set section.key=value` on a configuration before it is read (values are JSON; a bare
// word is a string). Unknown sections and keys are then refused by from_json.
void apply_config_overrides(nlohmann::json& j, const std::vector<std::pair<std::string, std::string>>& sets);

}  // namespace tmasim::sc
