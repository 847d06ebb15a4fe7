// What a TMA unit's requests to the memory system carry beyond a TLM-2.0 generic payload.
#pragma once
#include <tlm>

#include <cstdint>

namespace tmasim::sc {

// Carried on TMA read requests: the tensor map's L2 promotion (bytes an L2 miss fetches from
// DRAM, at least the request; 0 for none). The memory system answers with `l2_ready`: when
// the request's data is in L2 (before the SM's port streams it out).
struct L2PromotionExt : tlm::tlm_extension<L2PromotionExt> {
  int bytes = 0;
  sc_core::sc_time l2_ready = sc_core::SC_ZERO_TIME;
  tlm::tlm_extension_base* clone() const override { return new L2PromotionExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override {
    bytes = static_cast<const L2PromotionExt&>(o).bytes;
    l2_ready = static_cast<const L2PromotionExt&>(o).l2_ready;
  }
};

// Carried on a read of a whole box (TLM_READ_COMMAND): its rows' in-bound runs, each sent at its
// own time and served as its own request would be, in row order; the memory system fills in
// when each row's data is back at the SM and when it was in L2. The payload's address and
// length are unused; an L2PromotionExt on the same payload applies to every row.
struct ReadBurstExt : tlm::tlm_extension<ReadBurstExt> {
  const uint64_t* addr = nullptr;
  const uint64_t* bytes = nullptr;
  const sc_core::sc_time* at = nullptr;
  sc_core::sc_time* done = nullptr;      // out
  sc_core::sc_time* l2_ready = nullptr;  // out
  size_t rows = 0;
  tlm::tlm_extension_base* clone() const override { return new ReadBurstExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const ReadBurstExt&>(o); }
};

// Carried on a delivery (TLM_IGNORE_COMMAND): the bytes of a multicast read that another SM
// of the cluster receives; only that SM's port is booked.
struct DeliveryExt : tlm::tlm_extension<DeliveryExt> {
  int port = 0;
  tlm::tlm_extension_base* clone() const override { return new DeliveryExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { port = static_cast<const DeliveryExt&>(o).port; }
};

// Carried on TMA write requests: a reduction, which the L2 performs on the line (fetching it
// from DRAM on a miss) rather than overwriting it.
struct ReduceExt : tlm::tlm_extension<ReduceExt> {
  bool reduce = false;
  tlm::tlm_extension_base* clone() const override { return new ReduceExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { reduce = static_cast<const ReduceExt&>(o).reduce; }
};

}  // namespace tmasim::sc
