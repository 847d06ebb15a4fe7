// The chip's parameters (the configuration's "gpu" section): its SMs and what one SM holds at
// once (a grid with more CTAs than slots runs in waves), and what a launch costs around its CTAs.
#pragma once
#include <cstdint>
#include <string>

#include "config_key.hpp"

namespace tmasim::sc {

#define TMASIM_GPU_KEYS(X) \
  X(int, sms, "sms", 132, 1, 4096, optional, "SMs", \
    "SMs of the chip; CTAs are placed on them by the scheduler (or pinned with a scenario's `sm`)") \
  X(int, max_ctas_per_sm, "max_ctas_per_sm", 32, 1, 1024, optional, "CTAs", \
    "CTA slots of an SM") \
  X(int, max_warps_per_sm, "max_warps_per_sm", 64, 1, 1024, optional, "warps", \
    "warps an SM holds; a CTA has one per thread of its program") \
  X(int, registers_per_sm, "registers_per_sm", 65536, 1024, 1 << 24, optional, "registers", \
    "the register file of an SM, shared by its CTAs' warps (a scenario's `registers` a thread limit " \
    "the CTAs an SM holds)") \
  X(int, register_alloc_unit, "register_alloc_unit", 256, 1, 65536, optional, "registers", \
    "a warp's registers are allocated in multiples of this") \
  X(int64_t, smem_per_sm_bytes, "smem_per_sm_bytes", 233472, 1024, 1 << 30, optional, "bytes", \
    "shared memory an SM gives its CTAs (228 KiB on the H100)") \
  X(int, smem_reserved_per_cta_bytes, "smem_reserved_per_cta_bytes", 1024, 0, 1 << 20, optional, "bytes", \
    "the system's share of each CTA's shared memory") \
  X(int, cta_launch_cycles, "cta_launch_cycles", 0, 0, 1e6, optional, "cycles", \
    "from a slot freeing to the next waiting CTA's start (a grid larger than the chip runs in " \
    "waves)") \
  X(std::string, gpc_sms, "gpc_sms", "", 0, 0, optional, "SMs a GPC", \
    "the SMs of each GPC, comma-separated, summing to `gpu.sms` (SMs numbered GPC after GPC); empty: " \
    "one GPC of all SMs. The model's hierarchy has a `Gpc` module each. H100 (`tests/golden/gpc_probe`: " \
    "SMs that ever share a cluster, cudaOccupancyMaxActiveClusters), in the order the H100 fills them " \
    "with a grid of one CTA an SM (`tests/golden/degree_probe`'s %smid): `2,2,2,2,16,16,18,18,8,16,16,16`") \
  X(bool, cluster_in_gpc, "cluster_in_gpc", false, 0, 0, optional, "", \
    "place a cluster's CTAs on distinct SMs of one GPC (the one with the most free slots that has " \
    "room), as the H100 does; `false`: on any SMs of the chip") \
  X(bool, clusters_by_level, "clusters_by_level", false, 0, 0, optional, "", \
    "with `cluster_in_gpc`, a cluster goes to the GPC whose emptiest SMs for it are emptiest (then " \
    "the one with the most free slots), so that no SM takes a second CTA while the cluster fits on " \
    "SMs with none, as the H100 does (`tests/golden/gpc_probe`: at four CTAs an SM every first wave " \
    "fills level by level; the corpus's 128-CTA clusters of 2 on 128 SMs); `false`: the GPC with the " \
    "most free slots") \
  X(bool, spread_ctas, "spread_ctas", false, 0, 0, optional, "", \
    "a grid of no more CTAs than SMs (no clusters, none pinned) is placed as the H100's distributor " \
    "places it (`tests/golden/load_curve_probe`, each L2 state's %smid): the GPCs of at most two SMs " \
    "(`gpc_sms`) take the first CTAs, both SMs each; the rest are split evenly over the other GPCs " \
    "(the smaller GPCs take the odd ones; none more than one CTA a TPC, two consecutive SMs, while " \
    "the grid fits so, nor more than its SMs), consecutive CTAs in one GPC, GPC after GPC, one SM of " \
    "every TPC before a TPC's second; `false`: each CTA on the emptiest SM, in SM order. Not adopted " \
    "(alone it leaves the corpus's calibration half as it is; see `memory.gpc_bytes_per_cycle`)") \
  X(double, launch_event_overhead_us, "launch_event_overhead_us", 0, 0, 1000, optional, "us", \
    "what CUDA events recorded around a launch (on a stream already busy, so the host's enqueue is " \
    "hidden) time beyond the CTAs' span (first start to last end): the grid's launch and its " \
    "completion. Added to the run's time as `event_microseconds`; the cycles do not include it. H100 " \
    "(`tests/golden/launch_probe`): 3.1 us, whatever the grid, CTA size, shared memory or cluster") \
  X(double, launch_duration_overhead_us, "launch_duration_overhead_us", 0, 0, 1000, optional, "us", \
    "the same as ncu's `gpu__time_duration` reads it, and the cost of each launch in a stream of " \
    "back-to-back launches of one kernel: `duration_microseconds`. H100 (`tests/golden/launch_probe`): " \
    "1.9 us")

struct GpuParams {
  TMASIM_GPU_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(GpuParams, "gpu", TMASIM_GPU_KEYS)
};

}  // namespace tmasim::sc
