// What the C++ model says an address generator must emit for a box: its pieces, row by row, and
// the beats that carry them. One source of truth: tmasim::for_each_row (traversal.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "tmasim/agu_command.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"

namespace agu_tb {

using namespace tmasim;

constexpr int kSmemBits = 18, kAddrBits = 48;

struct Piece {
  uint32_t smem = 0;
  uint64_t gaddr = 0;
  uint32_t oob = 0;
};
struct Beat {  // what one handshake must carry
  std::vector<Piece> pieces;
  bool last = false;
};

// The pieces the model says the generator must emit for this box, row by row.
inline std::vector<std::vector<Piece>> expected_rows(const TensorMap& m, const TmaInstruction& ins) {
  std::vector<std::vector<Piece>> rows;
  // Byte o of a row lies in unit o / unit, at coordinate c0 + unit index x its step.
  const int unit = m.row_unit_bytes();
  const int64_t row_bytes = m.inner_row_bytes();
  for_each_row(m, ins, [&](const BoxRow& r) {
    std::vector<Piece>& row = rows.emplace_back();
    for (int64_t k = 0; k < row_bytes / 16; ++k) {
      Piece p;
      const int64_t o = 16 * k;
      p.smem = swizzle_address(m.swizzle, static_cast<uint32_t>(r.smem_offset + o));
      p.gaddr = (m.global_address + static_cast<uint64_t>(r.global_offset) +
                 static_cast<uint64_t>((o / unit) * r.element_step * unit + o % unit)) & kAguAddrMask;
      for (int byte = 0; byte < 16; ++byte) {
        const int64_t x = r.coord[0] + ((o + byte) / unit) * r.element_step;
        if (!r.row_in_bounds || x < 0 || x >= m.global_dims[0]) p.oob |= 1u << byte;
      }
      row.push_back(p);
    }
  });
  return rows;
}

// Beats of a generator moving `chunks` pieces per beat: never across a row.
inline std::vector<Beat> group_beats(const std::vector<std::vector<Piece>>& rows, size_t chunks) {
  std::vector<Beat> beats;
  for (const auto& row : rows)
    for (size_t k = 0; k < row.size(); k += chunks)
      beats.push_back(Beat{std::vector<Piece>(row.begin() + k, row.begin() + std::min(row.size(), k + chunks)), false});
  if (!beats.empty()) beats.back().last = true;
  return beats;
}

}  // namespace agu_tb
