// The memory system's parameters (the configuration's "memory" section): L2, DRAM, the SMs' ports.
#pragma once
#include <cstdint>
#include <string>

#include "config_key.hpp"

namespace tmasim::sc {

#define TMASIM_MEMORY_KEYS(X) \
  X(int, l2_hit_cycles, "l2_hit_cycles", 200, 0, 1e6, optional, "cycles", \
    "L2 hit latency") \
  X(int, l2_miss_cycles, "l2_miss_cycles", 610, 0, 1e6, optional, "cycles", \
    "L2 miss latency (DRAM)") \
  X(double, l2_miss_jitter_cycles, "l2_miss_jitter_cycles", 80, 0, 1e6, optional, "cycles", \
    "mean of the exponential spread added to each miss (reproducible)") \
  X(int, l2_line_bytes, "l2_line_bytes", 128, 32, 4096, optional, "bytes", \
    "L2 line") \
  X(int, sector_bytes, "sector_bytes", 32, 1, 4096, optional, "bytes", \
    "DRAM transfer unit") \
  X(int, l2_fetch_bytes, "l2_fetch_bytes", 0, 0, 4096, optional, "bytes", \
    "0: a miss fetches the request's sectors and its line is then resident as a whole (a later " \
    "read of another sector of it hits); otherwise each line keeps which of its units of this " \
    "many bytes hold data (at most 8 a line; a whole number of `sector_bytes`): a read misses " \
    "unless every unit it touches is held, and its fill fetches whole units") \
  X(int64_t, l2_bytes, "l2_bytes", 50 << 20, 1024, 1e12, optional, "bytes", \
    "L2 capacity (LRU)") \
  X(double, l2_resident_fraction, "l2_resident_fraction", 1.0, 0.01, 1, optional, "fraction", \
    "of `l2_bytes`, the share the LRU table holds: a footprint read once and again stays resident up " \
    "to this much of the L2 (a write flush's dirty lines, `flush_dirty_fraction`, are a share of " \
    "the lines it holds). `tests/golden/capacity_probe` (H200, 60 MiB): 37-41 MiB stay, 45 MiB a third " \
    "misses, 49.5 MiB all; the knee at 0.77 of the L2; the H100's dram probe agrees (37 MiB of 50 " \
    "mostly resident, 45 not)") \
  X(double, sm_l2_bytes_per_cycle, "sm_l2_bytes_per_cycle", 100, 1, 1e6, optional, "bytes/cycle", \
    "one SM's port from L2") \
  X(double, sm_hbm_bytes_per_cycle, "sm_hbm_bytes_per_cycle", 54, 1, 1e6, optional, "bytes/cycle", \
    "one SM's share of missing bytes") \
  X(double, hbm_bytes_per_cycle, "hbm_bytes_per_cycle", 1550, 1, 1e7, optional, "bytes/cycle", \
    "the chip's DRAM bandwidth") \
  X(double, flush_dirty_fraction, "flush_dirty_fraction", 0, 0, 1, optional, "fraction", \
    "of the L2's lines, the share a write flush larger than the L2 leaves dirty (the GPU " \
    "harness's `cold` state, `--l2 cold`): the run's first fills evict the flush's lines, and a " \
    "dirty one is written back to DRAM after the fill, on the DRAM's bandwidth; `--l2 cold_clean`" \
    " starts from clean lines, `--l2 warm` from the lines the program itself reached") \
  X(int, l2_out_least_bytes, "l2_out_least_bytes", 0, 0, 4096, optional, "bytes", \
    "a read's transfer over the L2's output (`l2_bytes_per_cycle`) takes at least the time of this " \
    "many bytes, however few it carries: the output moves whole units (0: its bytes alone)") \
  X(double, l2_bytes_per_cycle, "l2_bytes_per_cycle", 0, 0, 1e7, optional, "bytes/cycle", \
    "the chip's L2 output to all SMs together, for reads that hit (0: no limit but each SM's " \
    "port)") \
  X(double, gpc_bytes_per_cycle, "gpc_bytes_per_cycle", 0, 0, 1e7, optional, "bytes/cycle", \
    "each GPC's path from the L2 (`gpc_path_of_gpc`), which every hit's data takes to the GPC's SMs " \
    "after the L2's output (one transfer for the reads of a GPC that ride on it) and before the " \
    "SM's port (0: no limit but those). H200 (`tests/golden/load_curve_probe`): the CTAs of the " \
    "8-SM GPC and the four 2-SM TPCs, each on its own resident tiles, share 605-623 B/cycle at 9-12 " \
    "CTAs, whatever else runs; not adopted (with `gpu.spread_ctas`, candidate G2 of that probe's " \
    "README: the H100's second held-out set 0.6 points worse warm)") \
  X(bool, gpc_path_misses, "gpc_path_misses", false, 0, 0, optional, "", \
    "a read miss's data takes its GPC's path (`gpc_bytes_per_cycle`) too; false: only hits do (what " \
    "`tests/golden/load_curve_probe` measured; with misses on it the H100's corpus from a clean L2 is " \
    "worse: its calibration half 5.70 -> 6.15% with `gpu.spread_ctas`)") \
  X(std::string, gpc_path_of_gpc, "gpc_path_of_gpc", "", 0, 0, optional, "path a GPC", \
    "the path from the L2 (`gpc_bytes_per_cycle`) each GPC of `gpu.gpc_sms` takes, comma-separated " \
    "numbers; GPCs with one number share it; empty: each GPC its own. H100/H200 " \
    "(`tests/golden/load_curve_probe`: the four 2-SM TPCs run as slowly as the 8-SM GPC, never as the " \
    "others): `0,0,0,0,1,2,3,4,0,5,6,7`. Beside a saturated DRAM the H200 sets one of them apart: a box " \
    "read on SMs 128-129 waits 1.6-1.8x what it waits on the other three (`tests/golden/release_load_probe`, " \
    "ninth run; beside L2 hits all four alike, tenth run); not modelled") \
  X(bool, l2_join_reads_in_flight, "l2_join_reads_in_flight", false, 0, 0, optional, "", \
    "a read of a resident line that arrives before another SM's read of the same line has left the " \
    "L2 rides on it: one transfer over the L2's output (`l2_bytes_per_cycle`), each SM's port still " \
    "streams its own (`tests/golden/share_probe`: 132 CTAs reading the same tiles take no longer than " \
    "one, where as many distinct tiles are bound by the L2's output)") \
  X(bool, l2_join_within_gpc, "l2_join_within_gpc", false, 0, 0, optional, "", \
    "with `l2_join_reads_in_flight`: a read rides on another SM's transfer of the line only when " \
    "both SMs are in one GPC (`gpu.gpc_sms`); each GPC reading the line takes its own transfer " \
    "over the L2's output (`tests/golden/degree_probe`: a GEMM feed whose A tiles are shared by " \
    "CTAs of different GPCs is bound by the L2's output, tiles shared within a GPC are not)") \
  X(double, l2_join_window_cycles, "l2_join_window_cycles", 0, 0, 1e6, optional, "cycles", \
    "with `l2_join_reads_in_flight`: a read rides on another SM's transfer of the line only when it " \
    "arrives within this many cycles of the read that started that transfer (0: until the transfer " \
    "has left the L2's output, a window as long as the hit latency and the output's queue). H100 " \
    "(`tests/golden/join_probe`, ncu's L2 look-ups, warm): of 8 SMs of a GPC reading a line D cycles " \
    "apart, 75% ride on another's look-up at D = 0, 59% at 25, 36% at 50, none at 100, idle or " \
    "under load. h100.json: 50, fitted on that probe alone with riders waiting (the least largest " \
    "deviation of the skipped share); adopted 2026-12-07 with the two keys below (candidate C2, " \
    "`tests/golden/holdout9`)") \
  X(bool, l2_join_riders_wait_for_transfer, "l2_join_riders_wait_for_transfer", false, 0, 0, optional, "", \
    "with `l2_join_reads_in_flight`: a read that rides on another SM's transfer of the line has its " \
    "data when that transfer leaves the L2's output, not before (false: at its own hit latency, as " \
    "if the transfer's queue for the output did not hold it). h100.json: true (candidate C2, " \
    "`tests/golden/holdout9`; without it the locality probe's strided sharers drift apart)") \
  X(bool, l2_join_other_sms_only, "l2_join_other_sms_only", false, 0, 0, optional, "", \
    "with `l2_join_reads_in_flight`: a read rides only on another SM's transfer of the line; its own " \
    "SM's earlier rows of the line (a narrow box's rows sharing a line) each take a transfer of " \
    "their own (false: any read within the window rides). `tests/golden/sector_probe`: resident " \
    "16-64-byte rows, the H100 serves about 57 a cycle whatever their width") \
  X(bool, l2_join_fills_in_flight, "l2_join_fills_in_flight", false, 0, 0, optional, "", \
    "with `l2_join_reads_in_flight` and `l2_join_window_cycles`: a transfer that waits for the line's " \
    "fill from DRAM stays open to the reads of its GPC until the fill's data is in the L2 (its " \
    "arrival at the SM less `l2_hit_cycles`), however long after the window (a miss-status entry merging the requests for a line in flight; " \
    "`tests/golden/join_probe`: from a cold L2 the H100's look-ups skip 0.75 of reads 0-25 cycles " \
    "apart, 0.38-0.40 at 100, 0.15 at 200, where warm they skip none at 100; h100.json: true, " \
    "candidate C2, `tests/golden/holdout9`)") \
  X(std::string, l2_half_of_gpc, "l2_half_of_gpc", "", 0, 0, optional, "half a GPC", \
    "the L2 half (partition, 0-7) nearest to each GPC of `gpu.gpc_sms`, comma-separated; empty: one " \
    "L2. A line is near the halves whose SMs read it since it was filled or written; a hit from a " \
    "half it is not near costs `l2_far_hit_cycles` more, and makes it near that half too. H100 " \
    "(`tests/golden/partition_probe`): `0,0,0,0,0,0,0,1,0,1,1,1`") \
  X(bool, l2_copy_takes_room, "l2_copy_takes_room", false, 0, 0, optional, "", \
    "a line near two or more halves of the L2 (`l2_half_of_gpc`) is a copy in each, and each copy " \
    "takes a line of `l2_bytes`: a far hit that makes a line near another half evicts the least " \
    "recently used line when the L2 is full, and an eviction frees every copy") \
  X(int, l2_far_hit_cycles, "l2_far_hit_cycles", 0, 0, 1e6, optional, "cycles", \
    "what a hit costs more when the line is not near the reading SM's half of the L2 " \
    "(`l2_half_of_gpc`; H100: 78, `tests/golden/partition_probe`)") \
  X(double, l2_far_bytes_per_cycle, "l2_far_bytes_per_cycle", 0, 0, 1e7, optional, "bytes/cycle", \
    "the path into each half of the L2 (`l2_half_of_gpc`) from the others: a hit on a line not near " \
    "the reader's half crosses it once, each half's path on its own (0: no limit but " \
    "`l2_far_hit_cycles`). H100 (`tests/golden/migration_probe`): first reads of lines the other " \
    "half placed, 66 SMs, 946-1042 B/cycle either way, both ways at once no slower; not adopted") \
  X(double, l2_far_miss_crossings, "l2_far_miss_crossings", 0, 0, 16, optional, "crossings", \
    "a read miss of a line whose home half of the L2 (a hash of its address, among the halves of " \
    "`l2_half_of_gpc`) is not the reader's crosses the path into the reader's half " \
    "(`l2_far_bytes_per_cycle`) this many times its bytes once its fill is there, and the line is near " \
    "both halves (0: misses do not cross). The H100 and H200 counters of the real-size GEMM feed " \
    "(`tests/golden/counter_probe`): the path 94-95% busy, two thirds of what crosses are such misses, " \
    "at about half the far hits' rate; not adopted") \
  X(bool, l2_far_path_shared, "l2_far_path_shared", false, 0, 0, optional, "", \
    "the halves of the L2 (`l2_half_of_gpc`) share one path between them, of " \
    "`l2_far_bytes_per_cycle`, where false gives each half its own path in; not adopted") \
  X(bool, l2_write_back, "l2_write_back", false, 0, 0, optional, "", \
    "a written line is dirty in the L2 and costs DRAM bandwidth when it is evicted, not when it is " \
    "written; a write whose line evicts a dirty one is accepted only once the DRAM takes that " \
    "write-back, so a store stream larger than the L2 runs at the DRAM's pace " \
    "(`tests/golden/store_probe`); false: a write miss books its bytes on the DRAM at once and " \
    "never waits") \
  X(double, l2_write_bytes_per_cycle, "l2_write_bytes_per_cycle", 0, 0, 1e7, optional, "bytes/cycle", \
    "the chip's L2 input for writes from all SMs together (0: no limit but each SM's port)") \
  X(double, hbm_write_bytes_per_cycle, "hbm_write_bytes_per_cycle", 0, 0, 1e7, optional, "bytes/cycle", \
    "the DRAM's rate for write-backs of dirty lines (0: `hbm_bytes_per_cycle`)") \
  X(double, dram_mixed_write_extra, "dram_mixed_write_extra", 0, 0, 10, optional, "fraction", \
    "a write to DRAM booked while reads are queued on it (the last read booked ends after the " \
    "write arrives) takes this much more than its bytes' time at `hbm_write_bytes_per_cycle`: the " \
    "DRAM turning between reading and writing. `tests/golden/mix_probe`: 66 SMs reading beside 66 " \
    "writing, both past the L2, take 11% longer than their bytes at the rates of reads alone and " \
    "writes alone (the excess is 0.22 of the written bytes' time); reads alone or writes alone pay " \
    "nothing (0: no such cost)") \
  X(double, dram_queue_cycles, "dram_queue_cycles", 0, 0, 1e6, optional, "cycles", \
    "a miss's fill (a read's or a reduction's) waits at the DRAM at least this times rho / (1 - rho) cycles, rho being the DRAM's " \
    "busy share (reads and write-backs) over about the last `dram_queue_window_cycles`, at most " \
    "0.9: the queueing of a loaded DRAM that a booking of bytes at its rate does not show short of " \
    "its bound (at the bound the booking's own wait, when longer, stands; 0: none). " \
    "`tests/golden/loaded_probe`: a lone reader's misses beside CTAs streaming reads") \
  X(double, dram_queue_window_cycles, "dram_queue_window_cycles", 2000, 1, 1e9, optional, "cycles", \
    "the time over which `dram_queue_cycles` takes the DRAM's busy share (an exponential average)") \
  X(double, writeback_buffer_bytes, "writeback_buffer_bytes", 0, 0, 1e12, optional, "bytes", \
    "with `writeback_bytes_per_cycle`: the L2 holds this many bytes of dirty lines' write-backs; a " \
    "miss (a read's or a reduction's) whose fill evicts a dirty line when the buffer is full waits for room before it " \
    "goes to the DRAM. `tests/golden/burst_probe`: a burst of misses at 16-64 CTAs pays for a dirty " \
    "L2 what a steady stream does not") \
  X(double, writeback_bytes_per_cycle, "writeback_bytes_per_cycle", 0, 0, 1e7, optional, "bytes/cycle", \
    "the rate the write-back buffer (`writeback_buffer_bytes`) drains at (0: no such buffer)") \
  X(double, dram_rates_at_mhz, "dram_rates_at_mhz", 0, 0, 10000, optional, "MHz", \
    "the SM clock at which `hbm_bytes_per_cycle` and `hbm_write_bytes_per_cycle` hold (0: " \
    "`sm_clock_mhz`). The DRAM keeps its own clock: at another `sm_clock_mhz` its rate per SM " \
    "cycle is those times dram_rates_at_mhz / sm_clock_mhz (h100.json: 1980, the clock the " \
    "calibration ran at, 1975 MHz median; `tests/golden/arrive_scope_probe`: 132 CTAs of wgmma " \
    "run the SMs at 1500-1720 MHz, and a DRAM-bound GEMM takes as many cycles as the DRAM's " \
    "bytes per second at that clock give)") \
  X(bool, time_ordered, "time_ordered", false, 0, 0, optional, "", \
    "how the DRAM interface and each SM's port serve transfers: `false`, in the order they were " \
    "booked (a transfer waits for every one booked before it); `true`, in simulated time (each " \
    "takes the earliest gap at or after its data is there, so data that arrives early is not held" \
    " behind a transfer booked earlier for later)")

struct MemoryParams {
  TMASIM_MEMORY_KEYS(TMASIM_CONFIG_FIELD)
  TMASIM_CONFIG_SECTION(MemoryParams, "memory", TMASIM_MEMORY_KEYS)
};

}  // namespace tmasim::sc
