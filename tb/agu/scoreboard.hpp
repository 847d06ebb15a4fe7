// A scoreboard per DUT: the beats the model expects of the boxes it has taken, checked at every
// handshake of that DUT (its Lane), with the protocol bins it hits.
#pragma once
#include <systemc>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "coverage.hpp"
#include "model.hpp"

namespace agu_tb {

using namespace sc_core;

// One DUT's handshakes and outputs; S, G, O are the Verilated port types of its piece vectors.
template <class S, class G, class O>
struct Lane {
  std::string name;
  size_t chunks = 1;
  sc_signal<bool> cmd_valid, cmd_ready, valid, ready, last;
  sc_signal<S> smem;
  sc_signal<G> gaddr;
  sc_signal<O> oob;
  sc_signal<uint32_t> nchunks;
  // scoreboard
  std::deque<std::vector<Beat>> boxes;  // boxes taken, beats still expected
  size_t pos = 0;                       // next beat of boxes.front()
  bool failed = false;
  int done = 0, failures = 0;
  uint64_t beats = 0, last_beat_cycle = UINT64_MAX - 1, accepted_cycle = 0;
  uint32_t lfsr;
  Lane(const std::string& n, size_t c, uint32_t seed) : name(n), chunks(c), lfsr(seed) {}

  static uint64_t field(uint64_t v, int j, int bits) { return bits * j >= 64 ? 0 : (v >> (bits * j)) & ((uint64_t(1) << bits) - 1); }
  template <int W>
  static uint64_t field(const sc_dt::sc_bv<W>& v, int j, int bits) { return v.range(bits * j + bits - 1, bits * j).to_uint64(); }
};
using NarrowLane = Lane<uint32_t, uint64_t, uint32_t>;
using WideLane = Lane<sc_dt::sc_bv<8 * kSmemBits>, sc_dt::sc_bv<8 * kAddrBits>, sc_dt::sc_bv<8 * 16>>;

// One handshake of one DUT against its scoreboard.
template <class L>
void check_handshake(L& l, uint64_t cycles, uint64_t& stalls, Coverage& cov) {
  const bool valid = l.valid.read(), ready = l.ready.read();
  if (valid && !ready) {
    ++stalls;
    cov.hit("proto." + l.name + ".stall");
    if (l.last.read()) cov.hit("proto." + l.name + ".stall_on_last");
  }
  if (valid && ready) {
    ++l.beats;
    if (l.boxes.empty()) {
      if (l.failures++ < 5) std::printf("FAIL %s: a beat the model did not expect (cycle %llu)\n", l.name.c_str(),
                                        (unsigned long long)cycles);
      return;
    }
    const std::vector<Beat>& box = l.boxes.front();
    const Beat& want = box[l.pos];
    if (l.pos == 0 && l.last_beat_cycle + 1 == cycles) cov.hit("proto." + l.name + ".zero_bubble");
    const uint32_t got_chunks = l.nchunks.read();
    if (l.chunks > 1) cov.hit("proto." + l.name + ".chunks." + mid_bin(got_chunks, 1, 8, "1", "8"));
    bool ok = got_chunks == want.pieces.size() && l.last.read() == want.last;
    const auto smem = l.smem.read();
    const auto gaddr = l.gaddr.read();
    const auto oob = l.oob.read();
    for (size_t j = 0; j < want.pieces.size() && j < 8; ++j) {
      const Piece got{static_cast<uint32_t>(L::field(smem, static_cast<int>(j), kSmemBits)),
                      L::field(gaddr, static_cast<int>(j), kAddrBits),
                      static_cast<uint32_t>(L::field(oob, static_cast<int>(j), 16))};
      const Piece& w = want.pieces[j];
      if (got.smem != w.smem || got.gaddr != w.gaddr || got.oob != w.oob) {
        if (!l.failed && l.failures < 10)
          std::printf("FAIL %s box %d beat %zu piece %zu: rtl smem 0x%x gaddr 0x%llx oob 0x%04x; model 0x%x 0x%llx 0x%04x\n",
                      l.name.c_str(), l.done, l.pos, j, got.smem, (unsigned long long)got.gaddr, got.oob, w.smem,
                      (unsigned long long)w.gaddr, w.oob);
        ok = false;
      }
    }
    if (!ok && !l.failed && l.failures < 10 && (got_chunks != want.pieces.size() || l.last.read() != want.last))
      std::printf("FAIL %s box %d beat %zu: %u pieces, last %d; model %zu, %d\n", l.name.c_str(), l.done, l.pos,
                  got_chunks, int(l.last.read()), want.pieces.size(), int(want.last));
    l.failed |= !ok;
    if (++l.pos == box.size() || l.last.read()) {
      l.failures += l.failed || l.pos != box.size();
      ++l.done;
      l.failed = false;
      l.pos = 0;
      l.boxes.pop_front();
      l.last_beat_cycle = cycles;
    }
  }
}

}  // namespace agu_tb
