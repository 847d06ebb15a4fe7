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

namespace {

// Distinct bank words the lanes touch, as (bank, word) in first-touch order.
struct BankUse {
  std::vector<int64_t> words;  // distinct words, first-touch order
  int busiest = 0;             // most distinct words in one bank: the wavefronts needed
};

BankUse bank_use(const WarpAccess& a, const std::vector<int>& lanes, const BankGeometry& g) {
  BankUse u;
  const int words = lane_bytes(a) / g.bank_bytes;
  std::vector<int> per_bank(g.banks, 0);
  for (int l : lanes) {
    for (int w = 0; w < words; ++w) {
      int64_t word = a.addr[l] / g.bank_bytes + w;
      if (std::find(u.words.begin(), u.words.end(), word) != u.words.end()) continue;
      u.words.push_back(word);
      u.busiest = std::max(u.busiest, ++per_bank[static_cast<int>(word % g.banks)]);
    }
  }
  return u;
}

// Splits a group's service into wavefronts: the k-th distinct word of each bank goes to wavefront k.
void add_detail(const WarpAccess& a, const std::vector<int>& lanes, const BankUse& u, const BankGeometry& g,
                ConflictResult& r) {
  std::vector<Wavefront> wfs(u.busiest);
  for (auto& wf : wfs) wf.banks.assign((g.banks + 31) / 32, 0);
  std::vector<int> order_in_bank(u.words.size());
  std::vector<int> seen(g.banks, 0);
  for (size_t i = 0; i < u.words.size(); ++i) order_in_bank[i] = seen[u.words[i] % g.banks]++;
  for (int l : lanes) {
    int64_t first = a.addr[l] / g.bank_bytes;
    size_t idx = std::find(u.words.begin(), u.words.end(), first) - u.words.begin();
    Wavefront& wf = wfs[order_in_bank[idx]];
    wf.lanes.push_back(l);
    for (int w = 0; w < lane_bytes(a) / g.bank_bytes; ++w) {
      int b = static_cast<int>((first + w) % g.banks);
      wf.banks[b / 32] |= 1u << (b % 32);
    }
  }
  for (auto& wf : wfs) r.detail.push_back(std::move(wf));
}

}  // namespace

// The warp is served in groups of lanes that together request one wavefront's worth of
// bytes (all 32 lanes for 4-byte accesses, halves for 8, quarters for 16, one matrix of 8
// rows for ldmatrix/stmatrix); a group needs as many wavefronts as distinct words share its
// busiest bank. Loads wider than a bank also merge two neighbouring groups into a single
// wavefront when together they touch each bank at most once (ncu on H100: broadcasts of
// 8- and 16-byte loads); stores never merge.
ConflictResult evaluate(const WarpAccess& a, const BankGeometry& g, bool with_detail) {
  ConflictResult r;
  const int lanes = active_lanes(a);
  const int per_group = group_lanes(a, g);
  std::vector<std::vector<int>> groups;
  int requested = 0;
  for (int start = 0; start < lanes; start += per_group) {
    std::vector<int> members;
    for (int l = start; l < std::min(lanes, start + per_group); ++l)
      if (a.addr[l] >= 0) members.push_back(l);
    requested += static_cast<int>(members.size()) * lane_bytes(a);
    groups.push_back(std::move(members));
  }
  const bool may_merge = a.op == SmemOp::ld && a.width > g.bank_bytes;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].empty()) continue;
    if (may_merge && i % 2 == 0 && i + 1 < groups.size() && !groups[i + 1].empty()) {
      std::vector<int> pair = groups[i];
      pair.insert(pair.end(), groups[i + 1].begin(), groups[i + 1].end());
      BankUse u = bank_use(a, pair, g);
      if (u.busiest <= 1) {
        r.wavefronts += 1;
        if (with_detail) add_detail(a, pair, u, g, r);
        ++i;
        continue;
      }
    }
    BankUse u = bank_use(a, groups[i], g);
    r.wavefronts += u.busiest;
    if (with_detail) add_detail(a, groups[i], u, g, r);
  }
  r.ideal = (requested + g.wavefront_bytes() - 1) / g.wavefront_bytes();
  return r;
}

}  // namespace tmasim
