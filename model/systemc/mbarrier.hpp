// An mbarrier of a CTA's shared memory: arrivals, transaction bytes, phases.
#pragma once
#include <systemc>

#include <algorithm>
#include <cstdint>
#include <map>

namespace tmasim::sc {

// An mbarrier as PTX defines it: an arrival count set at init, a transaction count that
// expect_tx raises and complete_tx lowers (it may go below zero when data lands before the
// expectation), and a phase that completes when both the pending arrivals and the
// transaction count reach zero.
class Mbarrier : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Mbarrier);
  explicit Mbarrier(sc_core::sc_module_name name, int arrival_count = 1);
  void arrive(int64_t expect_tx_bytes = 0);                 // mbarrier.arrive[.expect_tx]
  void arrive_expect_tx(int64_t bytes) { arrive(bytes); }
  void complete_at(sc_core::sc_time when, int64_t bytes);  // absolute time
  void arrive_at(sc_core::sc_time when, int64_t expect_tx_bytes = 0);  // an arrival landing later
  void wait_phase(int phase);                               // from a thread: phase `phase` has completed
  void wait_parity(int parity);                             // test_wait.parity: the current phase's parity differs
  int phase() const { return phase_; }                      // phases completed so far
  void load_issued() { ++loads_due_; }                      // a bulk copy whose complete_tx will land here
  // The latest phase a load completes on that no thread has seen complete (the one in progress while
  // a load is still due), or -1: a CTA that ends with one leaves bulk copies into its shared memory
  // unobserved (Cta::check_loads_waited). An expect_tx that no load answers is not one.
  int unwaited_load_phase() const;
  int waited_through() const { return waited_through_; }     // -1: none waited for
  sc_core::sc_time last_flip() const { return last_flip_; }  // when the latest phase completed
  const int& traced_phase() const { return phase_; }         // for waveforms
  int pending_arrivals() const { return pending_arrivals_; }
  int64_t tx_count() const { return tx_; }
  int arrival_count() const { return count_; }

 private:
  void apply();
  void try_complete();
  void note_waited(int phase) { waited_through_ = std::max(waited_through_, phase); }  // a thread saw it complete
  int count_, pending_arrivals_;
  int64_t tx_ = 0;
  int phase_ = 0;
  int last_load_phase_ = -1, waited_through_ = -1;
  int64_t loads_due_ = 0;  // issued, their complete_tx not yet applied
  sc_core::sc_time last_flip_ = sc_core::SC_ZERO_TIME;
  struct Change {
    int64_t tx;    // added to the transaction count (a completion's bytes are subtracted)
    int arrivals;  // arrivals it brings
  };
  std::multimap<sc_core::sc_time, Change> pending_;
  sc_core::sc_event due_{"due"};  // at the earliest of pending_ (named: cheaper to elaborate)
  sc_core::sc_event flipped_{"flipped"};
};

}  // namespace tmasim::sc
