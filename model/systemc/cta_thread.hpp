// One thread of a CTA (a warp on the GPU) running its program: TMA issues to its CTA's unit,
// mbarrier arrivals and waits, ldmatrix reads through its CTA's shared memory (a TLM socket),
// delays, syncs and stamps, each at the cost the configuration's "issue" and "thread" sections give.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "experiment.hpp"
#include "tmasim/conflicts.hpp"

namespace tmasim::sc {

class Cta;
class Mbarrier;

class CtaThread : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<CtaThread> warp{"warp"};  // its reads of the CTA's shared memory
  SC_HAS_PROCESS(CtaThread);
  // `marks`: where the mark steps record (CTA 0's first thread), else nullptr.
  CtaThread(sc_core::sc_module_name n, const Experiment& e, const ThreadProgram& prog, Cta& cta, Measurement* marks);

  // Why the thread is not finished, for a deadlock report.
  std::string blocked_on() const;

  // What the run measured of it.
  struct Span {
    Step step;  // a copy: a scenario's step is gone once its thread takes the next
    double begin, end;  // cycles
  };
  bool finished() const { return finished_; }
  double end_cycles() const { return end_; }
  double step_start_cycles() const { return since_; }  // when its current (or last) step began
  const std::vector<double>& stamps() const { return stamps_; }
  // Its time from launch to end by what each step is (StepTime): sums to end - launch.
  const std::vector<double>& split() const { return split_; }
  const std::string& program_name() const { return prog_.name; }
  const std::vector<Span>& spans() const { return spans_; }  // steps that took time, when tracing
  uint64_t reads() const { return reads_; }
  uint64_t read_wavefronts() const { return read_wavefronts_; }
  uint64_t read_ideal() const { return read_ideal_; }
  uint64_t mma_instructions() const { return mma_instructions_; }
  double mma_flops() const { return mma_flops_; }

 private:
  // Count store completions as they happen, whether or not the thread is waiting yet.
  void on_store_done();
  void on_store_read();
  void run();
  void run_steps();
  void execute(const Step& s);
  void check_phase_wait(const Mbarrier& b, const Step& s) const;  // a wait the GPU's parity wait reads alike
  // A test_wait loop started at t0 sees a flip at its first sample at or after it.
  sc_core::sc_time polled(sc_core::sc_time t0, sc_core::sc_time flip) const;
  void issue(const Step& s);
  double issue_cycles_of(Step::Kind kind) const;
  double wait_cycles_of(const Step& s) const;
  void warpgroup_mma(const Step& s);  // mma, mma_commit, mma_wait
  // One ldmatrix.x4 per 16x16 block of the tile, issued by one warp every ldmatrix_cycles
  // (several in flight); each is served by the shared-memory data path from its issue on, and
  // the step ends when the last one's data is back. The instructions go as one batch.
  void arrive(const Step& s);
  void wait_for_reads_out();  // a cluster-scope release's drain
  void tile_access(const TileLayout& t, bool write);
  double tile_interval_cycles(const TileLayout& t, bool write) const;
  // The ldmatrix.x4 of a tile, one per 16x16 block, row-block major (computed once per layout),
  // and their id for the shared memory (WarpBatchExt::pattern), never given to another list.
  struct TileAccesses {
    std::vector<WarpAccess> list;
    uint64_t pattern = 0;
  };
  static const TileAccesses& tile_accesses(const TileLayout& t, bool write);

  tlm::tlm_generic_payload payload_;  // the reads', reused
  std::vector<uint8_t> read_lanes_;
  uint64_t reads_ = 0, read_wavefronts_ = 0, read_ideal_ = 0, mma_instructions_ = 0;
  double mma_flops_ = 0;
  double end_ = 0, since_ = 0;  // since_: when the current step began
  std::vector<double> stamps_;
  std::vector<double> split_ = std::vector<double>(static_cast<size_t>(StepTime::count), 0.0);
  std::vector<Span> spans_;
  bool finished_ = false;
  const Step* current_ = nullptr;
  sc_core::sc_event_queue stores_done_, stores_read_;
  sc_core::sc_event store_progress_{"store_progress"};
  int stores_ = 0, stores_completed_ = 0, stores_read_count_ = 0;
  int sync_generation_ = 0;
  sc_core::sc_time open_group_done_;           // the wgmma issued since the last commit: when they complete
  std::vector<sc_core::sc_time> mma_groups_;   // committed groups not yet waited on, oldest first
  bool first_load_ = true;  // the thread has not yet issued a load (issue.first_cycles)
  int armed_ = -1;  // the barrier the previous step armed (a local arrive.expect_tx), else -1
  const Experiment& e_;
  const ThreadProgram& prog_;
  Cta& cta_;
  Measurement* marks_;
  const sc_core::sc_time cyc_;  // one SM cycle (made once: an sc_time from a double is dear)
};

// The run's state that the kernel's callers see: the running step's origin (a scenario path, for
// a crash report), the threads still running (a waveform), and whether the process exits right
// after the run (then a finished thread stays suspended: see CtaThread::run).
extern const char* volatile g_current_origin;
extern int g_threads_running;
extern bool g_exit_after_run;

}  // namespace tmasim::sc
