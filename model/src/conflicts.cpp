#include "tmasim/conflicts.hpp"

#include <algorithm>
#include <array>
#include <sstream>

namespace tmasim {

std::string_view name(SmemOp op) {
  constexpr std::string_view n[] = {"ld", "st", "ldmatrix", "stmatrix"};
  return n[static_cast<int>(op)];
}
std::optional<SmemOp> parse_smem_op(std::string_view s) {
  for (int i = 0; i < 4; ++i)
    if (name(static_cast<SmemOp>(i)) == s) return static_cast<SmemOp>(i);
  return std::nullopt;
}

namespace {

bool is_matrix(SmemOp op) { return op == SmemOp::ldmatrix || op == SmemOp::stmatrix; }
int lane_bytes(const WarpAccess& a) { return is_matrix(a.op) ? 16 : a.width; }
int active_lanes(const WarpAccess& a) { return is_matrix(a.op) ? 8 * a.num : 32; }

// The lanes whose requests the hardware considers together: a full wavefront's worth of
// bytes (128 on the H100) at the lane width, e.g. 8 lanes of 16 bytes; ldmatrix rows
// come 8 at a time, one matrix each.
int group_lanes(const WarpAccess& a, const BankGeometry& g) {
  return std::max(1, g.wavefront_bytes() / lane_bytes(a));
}

}  // namespace

void check_access(const WarpAccess& a) {
  if (is_matrix(a.op)) {
    if (a.num != 1 && a.num != 2 && a.num != 4) throw Error("ldmatrix/stmatrix count must be 1, 2 or 4");
  } else if (a.width != 4 && a.width != 8 && a.width != 16) {
    throw Error("ld/st width must be 4, 8 or 16 bytes, got " + std::to_string(a.width));
  }
  const int bytes = lane_bytes(a);
  for (int l = 0; l < active_lanes(a); ++l) {
    if (a.addr[l] < -1) throw Error("lane " + std::to_string(l) + ": negative address");
    if (a.addr[l] >= 0 && a.addr[l] % bytes)
      throw Error("lane " + std::to_string(l) + ": address " + std::to_string(a.addr[l]) + " is not " +
                  std::to_string(bytes) + "-byte aligned");
    if (is_matrix(a.op) && a.addr[l] < 0)
      throw Error("lane " + std::to_string(l) + ": ldmatrix/stmatrix row address missing");
  }
}

ConflictResult evaluate(const WarpAccess& a, const BankGeometry& g, bool with_detail) {
  ConflictResult r;
  const int bytes = lane_bytes(a);
  const int words = bytes / g.bank_bytes;
  const int lanes = active_lanes(a);
  const int per_group = group_lanes(a, g);
  int active_bytes = 0;
  for (int start = 0; start < lanes; start += per_group) {
    // Distinct words per bank among this group's lanes; the most crowded bank sets the count.
    std::array<int64_t, 32 * 8> seen{};  // (bank, distinct word) pairs, at most per_group*words
    int seen_n = 0;
    std::vector<int> per_bank(g.banks, 0);
    int busiest = 0;
    bool any = false;
    for (int l = start; l < std::min(lanes, start + per_group); ++l) {
      if (a.addr[l] < 0) continue;
      any = true;
      for (int w = 0; w < words; ++w) {
        int64_t word = a.addr[l] / g.bank_bytes + w;
        if (std::find(seen.begin(), seen.begin() + seen_n, word) != seen.begin() + seen_n) continue;
        seen[seen_n++] = word;
        int bank = static_cast<int>(word % g.banks);
        busiest = std::max(busiest, ++per_bank[bank]);
      }
    }
    if (!any) continue;
    active_bytes += seen_n * g.bank_bytes;
    r.wavefronts += busiest;
    if (with_detail) {
      for (int k = 0; k < busiest; ++k) {
        Wavefront wf;
        wf.banks.assign((g.banks + 31) / 32, 0);
        std::vector<int> rank(g.banks, 0);
        for (int l = start; l < std::min(lanes, start + per_group); ++l) {
          if (a.addr[l] < 0) continue;
          int64_t word = a.addr[l] / g.bank_bytes;
          int bank = static_cast<int>(word % g.banks);
          // The k-th distinct word of a bank goes to wavefront k.
          int order = 0;
          for (int i = 0; i < seen_n; ++i) {
            if (seen[i] == word) break;
            if (seen[i] % g.banks == bank) ++order;
          }
          if (order == k) {
            wf.lanes.push_back(l);
            for (int w = 0; w < words; ++w) {
              int b = static_cast<int>((word + w) % g.banks);
              wf.banks[b / 32] |= 1u << (b % 32);
            }
          }
        }
        r.detail.push_back(std::move(wf));
      }
    }
  }
  (void)active_bytes;
  int groups = 0;
  for (int start = 0; start < lanes; start += per_group) {
    for (int l = start; l < std::min(lanes, start + per_group); ++l)
      if (a.addr[l] >= 0) {
        ++groups;
        break;
      }
  }
  r.ideal = groups;
  return r;
}

}  // namespace tmasim
