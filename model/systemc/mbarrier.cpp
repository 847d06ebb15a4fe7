#include "mbarrier.hpp"

#include <string>

#include "tmasim/types.hpp"

namespace tmasim::sc {

using namespace sc_core;

// ---------------------------------------------------------------------------------------
Mbarrier::Mbarrier(sc_module_name name, int arrival_count)
    : sc_module(name), count_(arrival_count), pending_arrivals_(arrival_count) {
  if (arrival_count < 1) throw Error(std::string(this->name()) + ": an mbarrier needs an arrival count of at least 1");
  SC_METHOD(apply);
  sensitive << due_;
  dont_initialize();
}

void Mbarrier::arrive(int64_t expect_tx_bytes) {
  tx_ += expect_tx_bytes;
  --pending_arrivals_;
  try_complete();
}

void Mbarrier::complete_at(sc_time when, int64_t bytes) {
  pending_.emplace(when, Change{-bytes, 0});
  due_.notify(when > sc_time_stamp() ? when - sc_time_stamp() : SC_ZERO_TIME);  // an earlier one stays
}

void Mbarrier::arrive_at(sc_time when, int64_t expect_tx_bytes) {
  if (when <= sc_time_stamp()) return arrive(expect_tx_bytes);
  pending_.emplace(when, Change{expect_tx_bytes, 1});
  due_.notify(when - sc_time_stamp());
}

void Mbarrier::apply() {
  while (!pending_.empty() && pending_.begin()->first <= sc_time_stamp()) {
    if (pending_.begin()->second.arrivals == 0) {  // a load's complete_tx
      last_load_phase_ = phase_;
      --loads_due_;
    }
    tx_ += pending_.begin()->second.tx;
    pending_arrivals_ -= pending_.begin()->second.arrivals;
    pending_.erase(pending_.begin());
  }
  if (!pending_.empty()) due_.notify(pending_.begin()->first - sc_time_stamp());
  try_complete();
}

void Mbarrier::try_complete() {
  if (pending_arrivals_ > 0 || tx_ != 0) return;
  pending_arrivals_ = count_;
  ++phase_;
  last_flip_ = sc_time_stamp();
  flipped_.notify(SC_ZERO_TIME);
}

void Mbarrier::wait_phase(int phase) {
  while (phase_ <= phase) wait(flipped_);
  note_waited(phase);
}

void Mbarrier::wait_parity(int parity) {
  while ((phase_ & 1) == (parity & 1)) wait(flipped_);
  note_waited(phase_ - 1);
}

int Mbarrier::unwaited_load_phase() const {
  if (loads_due_ > 0) return phase_;
  return last_load_phase_ > waited_through_ ? last_load_phase_ : -1;
}

}  // namespace tmasim::sc
