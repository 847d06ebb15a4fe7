// What a CTA's threads (a warp on the GPU) pay for their steps: TMA issue ("issue"), barriers,
// reads and spins ("thread", from the H100 microbenchmarks and probes), and the tensor cores'
// rate for `compute` steps ("compute").
#pragma once
#include <cstdint>
#include <string>

#include "config_key.hpp"

namespace tmasim::sc {

#define TMASIM_ISSUE_KEYS(X) \
  X(int, issue_first_cycles, "first_cycles", 434, 0, 1e6, optional, "cycles", \
    "a thread's first TMA load, in place of `cycles` (`tests/golden/first_issue_probe`, H100: ~205 " \
    "whatever map it uses, the first use of a second map costing no more; each warp pays it; a spin " \
    "before it does not hide it; a prefetch or a store before it takes 30-45 off)") \
  X(int, issue_cycles, "cycles", 172, 0, 1e6, optional, "cycles", \
    "each further TMA issue") \
  X(int, issue_multicast_cycles, "multicast_cycles", 85, 0, 1e6, optional, "cycles", \
    "extra per multicast issue") \
  X(int, issue_prefetch_cycles, "prefetch_cycles", 0, 0, 1e6, optional, "cycles", \
    "each further L2 prefetch (`cp.async.bulk.prefetch.tensor`) in place of `cycles`; 0: `cycles`. " \
    "A thread's first load costs `first_cycles`")

struct IssueParams {
  TMASIM_ISSUE_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(IssueParams, "issue", TMASIM_ISSUE_KEYS)
};

#define TMASIM_THREAD_KEYS(X) \
  X(double, arrive_cycles, "arrive_cycles", 0, 0, 1e6, optional, "cycles", \
    "a local mbarrier arrive, with or without expect_tx (h100.json: 5.6, microbench)") \
  X(double, cluster_arrive_cycles, "cluster_arrive_cycles", 0, 0, 1e6, optional, "cycles", \
    "an arrive addressed by cluster rank (`\"cta\"`): `mapa` + `arrive.release.cluster`, own rank " \
    "included; the thread waits this long (h100.json: 689, microbench)") \
  X(double, remote_arrive_cycles, "remote_arrive_cycles", 0, 0, 1e6, optional, "cycles", \
    "an arrive addressed by cluster rank with `\"scope\": \"cta\"`: `mapa` + `mbarrier.arrive` " \
    "at its default CTA-scope release, as CUTLASS's ClusterBarrier::arrive (h100.json: " \
    "`tests/golden/arrive_scope_probe`)") \
  X(double, remote_arrive_latency_cycles, "remote_arrive_latency_cycles", 0, 0, 1e6, optional, "cycles", \
    "an arrive addressed to another CTA of the cluster (either scope) reaches that CTA's barrier " \
    "this long after the arriving thread is done with it (h100.json: " \
    "`tests/golden/arrive_scope_probe` ping-pong)") \
  X(double, wait_cycles, "wait_cycles", 0, 0, 1e6, optional, "cycles", \
    "the least a wait takes, its phase long complete: one `try_wait` (h100.json: 141.4, " \
    "`tests/golden/loop_probe`: a rolled loop of such waits alternating barriers, as the corpus's" \
    " rings do, 141.4 cycles an iteration cold, 144 warm; on one barrier 79; unrolled 35-60. " \
    "Until 2026-11-24 88.5, the microbenchmark `wait_done`'s slope between an unrolled 16-wait " \
    "and a rolled 64-wait loop)") \
  X(double, wait_wakeup_cycles, "wait_wakeup_cycles", 0, 0, 1e6, optional, "cycles", \
    "from a phase flip to the waiting thread's next step; a wait ends at the later of this and " \
    "`wait_cycles` (h100.json: 60, fit_timing.py; the slope of the corpus's micro/arrive_wait, " \
    "189, was its value until 2026-11-24: that loop's arrive completes a phase, which the wait " \
    "probe finds costs ~229 on its own)") \
  X(double, poll_cycles, "poll_cycles", 0, 0, 1e6, optional, "cycles", \
    "a wait in a `test_wait` loop (the tb/gpu harness's `mbar_wait`: `test_wait`, `clock64`, " \
    "compare; the timing records' replays, `tmasim calibrate`) samples the phase every this many " \
    "cycles and sees the flip at the first sample at or after it; 0: no loop. Scenario waits are " \
    "`try_wait` (`wait_cycles`, `wait_wakeup_cycles`) (h100.json: 81, the spacing of the issue " \
    "probe's `first_load` completions: 283, 364, 607 and 1012 cycles after the loop starts, all " \
    "40 + a multiple of 81)") \
  X(double, poll_offset_cycles, "poll_offset_cycles", 0, 0, 1e6, optional, "cycles", \
    "the loop's first sample, after it starts (h100.json: 40, the same records)") \
  X(double, armed_load_cycles, "armed_load_cycles", 0, 0, 1e6, optional, "cycles", \
    "a load issued right after the thread's own `arrive.expect_tx` on the barrier the load " \
    "signals waits this long beyond its issue cost: the H100 performs the arrive first " \
    "(`tests/golden/wait_probe`: an interleaved arrive.expect_tx + load loop costs ~350 cycles an" \
    " iteration, separate loops of each ~95 together); another step between, or another barrier, " \
    "and it does not") \
  X(double, ldmatrix_cycles, "ldmatrix_cycles", 0, 0, 1e6, optional, "cycles", \
    "a `read` step issues one `ldmatrix.x4` every this many cycles; the step ends when the last " \
    "one's wavefronts are served (h100.json: 9.1, microbench)") \
  X(double, ldmatrix_looped_cycles, "ldmatrix_looped_cycles", 0, 0, 1e6, optional, "cycles", \
    "the interval between the `ldmatrix.x4` of a `read` whose tile has more row blocks (of 16 " \
    "rows) than the emitted CUDA unrolls (`TileLayout::kReadUnrolledRowBlocks`, 4): that read " \
    "runs as a loop; 0: `ldmatrix_cycles` (h100.json: 13.3, the corpus's calibration " \
    "micro/ldmatrix_tile_128b, 426 cycles a 128x64 read, and `tests/golden/loop_probe`, 848 " \
    "cycles for two; the same bytes as 64-row tiles take 549)") \
  X(double, stmatrix_cycles, "stmatrix_cycles", 0, 0, 1e6, optional, "cycles", \
    "a `write` step issues one `stmatrix.x4` every this many cycles (a tile the emitted CUDA runs " \
    "as a loop, as a `read`'s, adds `ldmatrix_looped_cycles` - `ldmatrix_cycles`); the step ends " \
    "when the last one's wavefronts are served; 0: `ldmatrix_cycles` (h100.json: 10.2, " \
    "`tests/golden/epilogue_probe`)") \
  X(double, fence_proxy_cycles, "fence_proxy_cycles", 0, 0, 1e6, optional, "cycles", \
    "a `fence` step (`fence.proxy.async.shared::cta`: the thread's shared-memory writes made " \
    "visible to the TMA's async proxy) takes this long of its thread (h100.json: 12.8, " \
    "`tests/golden/epilogue_probe`)") \
  X(double, spin_overhead_cycles, "spin_overhead_cycles", 0, 0, 1e6, optional, "cycles", \
    "a `delay` or `compute` step (a `clock64` spin on the GPU) takes this much beyond its cycles " \
    "(h100.json: 84, microbench)") \
  X(double, loop_iteration_cycles, "loop_iteration_cycles", 0, 0, 1e6, optional, "cycles", \
    "each iteration of a loop pays this, before its first step: its own code (the branch back, " \
    "its counters). `tests/golden/step_probe`: in the emitted GEMM loops the last stamp of an " \
    "iteration to the first of the next takes 85-105 cycles more than two stamps back to back") \
  X(double, divide_cycles, "divide_cycles", 0, 0, 1e6, optional, "cycles", \
    "each iteration of a loop pays this, before its first step, for each division or remainder of" \
    " a value computed from its variable by a constant that is not a power of two (`k / S` and `k" \
    " % S` count once): the emitted CUDA's multiply by a magic number in one warp. " \
    "`tests/golden/loop_probe`: the in-line GEMM loop with 3, 5 or 6 stages ~145 cycles an " \
    "iteration slower than with 2 or 4. h100.json leaves it at 0: at 145 it brings the " \
    "calibration half's 3- and 6-stage GEMMs from -11% to -5% but makes the loops nvcc unrolls " \
    "(short rings of the random, im2col and micro families, where the division folds away) " \
    "slower, and the half as a whole worse (cold 8.1% -> 8.3%, cold_clean 6.4% -> 7.1%); the " \
    "model does not know which loops nvcc unrolls; and the PTX (`scripts/ptx_stats.sh`) shows the" \
    " remainder is a 16-bit magic-number multiply, a few instructions: the GEMM loop's extra time" \
    " is its address arithmetic around a non-power-of-two stage base, not the division " \
    "(`tests/golden/loop_probe/README.md`). Since 2026-11-28 `tmasim cuda` keeps `k / S` and " \
    "`k % S` of a loop variable as counters, so its programs divide only values computed from " \
    "the variable (`(k + 1) % S`)") \
  X(double, inline_division_cycles, "inline_division_cycles", 0, 0, 1e6, optional, "cycles", \
    "a step in a rolled loop pays this, before it issues, for each division or remainder by a " \
    "constant (a power of two or not) that it computes in line from the loop's variable: of a " \
    "value computed from it (`(i * KT + k) % S`, `(k + 1) / S`), not of the variable alone (`k % " \
    "S` and `k / S` are the stage and phase counters a hand-written pipeline keeps, as the emitted " \
    "CUDA does); `x / S` and `x % S` count once. `tests/golden/ring_form_probe`: a 4-stage ring " \
    "whose stage and phase are `(j + 4) % 4` and `(j + 4) / 4 - 2` costs the H100 85 cycles a " \
    "rolled step more than with `j % 4` and `j / 4 - 1` (534 against 449), 21 for each of the " \
    "four steps that computes them (its SASS: a dependent chain of five or six integer " \
    "instructions, computed again in the wait's, the arrive's and the loads' code); the nested " \
    "ring (`(i * 16 + k) % 4`) 71 more than the same loops with `k % 4`") \
  X(int, sync_cycles, "sync_cycles", 0, 0, 1e6, optional, "cycles", \
    "a CTA-wide sync (not yet measured)") \
  X(double, stamp_cycles, "stamp_cycles", 0, 0, 1e6, optional, "cycles", \
    "a `stamp` step records the thread's cycle, then takes this much of it (lane 0 stores its " \
    "`clock64` to global memory) (h100.json: 31, `tests/golden/floor_probe/stamped_*`: stamps " \
    "back to back are 31 cycles apart, warm and cold)") \
  X(bool, cluster_arrive_waits_for_reads, "cluster_arrive_waits_for_reads", true, 0, 0, optional, "", \
    "a cluster-scope arrive waits for the reads its CTA's TMA unit has sent to the memory system " \
    "(before its cost until they are in L2, or with `cluster_arrive_waits_for_delivery` after its " \
    "cost until those sent by then are in shared memory) and costs `cluster_arrive_cycles` (H100, microbench " \
    "`stream_cluster_arrive`: 1509 cycles per arrive beside a cold stream of loads, 778 beside a " \
    "warm one, 659 idle)") \
  X(bool, cluster_arrive_waits_for_delivery, "cluster_arrive_waits_for_delivery", false, 0, 0, optional, "", \
    "with `cluster_arrive_waits_for_reads`, when a cluster-scope arrive waits and for what: `true`, " \
    "after its own cost, until every read its CTA's TMA unit has sent by then (those sent during the " \
    "release included) has its data in shared memory; `false`, before its cost, until the reads sent " \
    "by its start have their data in L2. `tests/golden/cluster_load_probe`: clusters of 2 at 2 CTAs, " \
    "where the producer loads the next stage while the consumer releases this one, cost ~600 cycles " \
    "a step more from a cold L2 with cluster-scope releases than with CTA-scope ones (the model: 140 " \
    "less with `false`, 421 more with `true`)") \
  X(bool, armed_load_holds_thread_only, "armed_load_holds_thread_only", false, 0, 0, optional, "", \
    "where `armed_load_cycles` go: `false`, before the load is submitted (the load leaves that " \
    "much later); `true`, after (the TMA starts after the issue cost alone, the thread is held). " \
    "`tests/golden/stream_probe`: one load in flight, moving its arrive.expect_tx before the wait" \
    " for the load ahead shortens the round trip by 0-30 cycles, not ~200") \
  X(bool, straight_line_costs, "straight_line_costs", false, 0, 0, optional, "", \
    "steps in straight-line code (outside any loop, or in a loop stated `\"unroll\": true`, which " \
    "the compiled kernel runs unrolled completely) pay `straight_wait_cycles` for a wait and " \
    "`straight_iteration_cycles` for each iteration of such a loop, in place of `wait_cycles` " \
    "and the loop's own costs; `false`: every step is costed as in a rolled loop") \
  X(double, straight_wait_cycles, "straight_wait_cycles", 48.5, 0, 1e6, optional, "cycles", \
    "a wait on a completed phase in straight-line code (`straight_line_costs`). " \
    "`tests/golden/loop_probe`: 34-60 cycles a wait in its unrolled wait loops (4 -> 8 -> 16 " \
    "waits, one barrier or two alternating, cold and warm: median 48.5); `tests/golden/unroll_probe` " \
    "(the same loops emitted both ways, H200): 48.6-48.8 unrolled, 134-135 a rolled loop's wait and " \
    "iteration together") \
  X(double, straight_armed_load_cycles, "straight_armed_load_cycles", 0, 0, 1e6, optional, "cycles", \
    "with `straight_line_costs`, a load in straight-line code right after its own arrive.expect_tx " \
    "pays this in place of `armed_load_cycles`: before the load leaves, or with " \
    "`straight_armed_holds_thread_only` on the thread after it leaves; 0: as in a rolled loop " \
    "(`armed_load_cycles`, `armed_load_holds_thread_only`). `tests/golden/armed_probe` (H100): an " \
    "armed pair costs the thread 96-101 cycles more than an unarmed load and its arrive, at 1-8 " \
    "pairs, in every L2 state; the data lands no later than the thread's issue accounts for") \
  X(bool, straight_armed_holds_thread_only, "straight_armed_holds_thread_only", true, 0, 0, optional, "", \
    "where `straight_armed_load_cycles` go: `true`, after the load is submitted (the thread alone " \
    "is held); `false`, before (the load leaves that much later). `tests/golden/armed_delay_probe` " \
    "tells them apart: small boxes waited for at once (one stamped CTA: true; " \
    "`tests/golden/armed_nostamp_probe`, no stamps, 1 and 100 CTAs: true as well). h100.json has " \
    "false, adopted by `tests/golden/holdout6`'s rule and standing: with true the model is fast on " \
    "the held-out sets' straight-line chains, and T (true with a longer wake-up) failed " \
    "`tests/golden/holdout8`'s rule") \
  X(double, straight_iteration_cycles, "straight_iteration_cycles", 0, 0, 1e6, optional, "cycles", \
    "each iteration of a loop stated `\"unroll\": true` (`straight_line_costs`): no branch back " \
    "and no counters, its divisions folded into constants") \
  X(double, start_cycles, "start_cycles", 0, 0, 1e6, optional, "cycles", \
    "every thread starts this long after its CTA: what the kernel does around its program (the " \
    "harness's records and barriers). `tests/golden/unroll_probe`: the CTA's span less its warp's " \
    "is 213-228 cycles in every program; `issue.first_cycles` had stood in for it")

struct ThreadParams {
  TMASIM_THREAD_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(ThreadParams, "thread", TMASIM_THREAD_KEYS)
};

#define TMASIM_COMPUTE_KEYS(X) \
  X(double, mma_flops_per_cycle, "mma_flops_per_cycle", 4096, 1, 1e9, optional, "FLOP/cycle", \
    "an SM's tensor cores: a `compute` step of m x n x k takes 2mnk / this (dense fp16 on an " \
    "H100, from the datasheet)")

struct ComputeParams {
  TMASIM_COMPUTE_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(ComputeParams, "compute", TMASIM_COMPUTE_KEYS)
};

}  // namespace tmasim::sc
