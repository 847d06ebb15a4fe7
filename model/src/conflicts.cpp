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
int active_lanes(const WarpAccess& a) { return is_matrix(a.op) ? 8 * a.num : 32; }

}  // namespace

int lane_bytes(const WarpAccess& a) { return is_matrix(a.op) ? 16 : a.width; }

int group_lanes(const WarpAccess& a, const BankGeometry& g) {
  return std::max(1, g.wavefront_bytes() / lane_bytes(a));
}

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

// Distinct bank words a set of lanes touches and the most that fall in one bank: the
// wavefronts the set needs. Fixed-size storage: at most 32 lanes x 4 words.
struct BankUse {
  std::array<int64_t, 128> words;  // distinct words, first-touch order (the first `count`)
  int count = 0;
  int busiest = 0;
};

template <class Lanes>
BankUse bank_use(const WarpAccess& a, const Lanes& lanes, int n_lanes, const BankGeometry& g) {
  BankUse u;
  const int words = std::max(1, lane_bytes(a) / g.bank_bytes);
  const bool pow2 = (g.banks & (g.banks - 1)) == 0;
  const int shift = g.bank_bytes == 4 ? 2 : g.bank_bytes == 8 ? 3 : -1;
  // Per-bank chains of the distinct words seen so far: a duplicate can only be in its own bank.
  std::array<int16_t, 1024> head;
  std::array<int16_t, 128> next;
  std::array<uint8_t, 1024> depth;
  std::fill_n(head.begin(), g.banks, int16_t(-1));
  std::fill_n(depth.begin(), g.banks, uint8_t(0));
  for (int i = 0; i < n_lanes; ++i) {
    const int64_t first = shift >= 0 ? a.addr[lanes[i]] >> shift : a.addr[lanes[i]] / g.bank_bytes;
    for (int w = 0; w < words; ++w) {
      const int64_t word = first + w;
      const int bank = static_cast<int>(pow2 ? (word & (g.banks - 1)) : (word % g.banks));
      bool dup = false;
      for (int k = head[bank]; k >= 0 && !dup; k = next[k]) dup = u.words[k] == word;
      if (dup) continue;
      next[u.count] = head[bank];
      head[bank] = static_cast<int16_t>(u.count);
      u.words[u.count++] = word;
      u.busiest = std::max<int>(u.busiest, ++depth[bank]);
    }
  }
  return u;
}

// The same count without listing words, for power-of-two geometries of up to 64 banks:
// the words of one bank row (banks consecutive words) form a bank mask, in which repeated
// words merge by themselves; adding the masks of all rows into bit-sliced counters gives
// each bank's distinct words, whose maximum is the wavefront count.
template <class Mask>
int busiest_bank_fast(const WarpAccess& a, int begin, int end, int shift, int bank_bits) {
  constexpr int kMaxRows = 64;
  int64_t row_of[kMaxRows];
  Mask mask_of[kMaxRows];
  int rows = 0;
  const int words = std::max(1, lane_bytes(a) >> shift);
  const Mask lane_mask = static_cast<Mask>((Mask(1) << words) - 1);  // words <= 4
  const int row_shift = shift + bank_bits;
  const Mask bank_field = static_cast<Mask>((int64_t(1) << bank_bits) - 1);
  for (int l = begin; l < end; ++l) {
    const int64_t addr = a.addr[l];
    if (addr < 0) continue;
    const int64_t row = addr >> row_shift;
    // A lane's words are consecutive and, being aligned, never cross a bank row.
    const Mask m = static_cast<Mask>(lane_mask << ((addr >> shift) & bank_field));
    int k = 0;
    while (k < rows && row_of[k] != row) ++k;
    if (k == rows) {
      row_of[rows] = row;
      mask_of[rows++] = m;
    } else {
      mask_of[k] |= m;
    }
  }
  if (rows <= 1) return rows;
  Mask count[7] = {};  // bit-sliced per-bank counters (at most 64 rows)
  for (int k = 0; k < rows; ++k) {
    Mask carry = mask_of[k];
    for (int b = 0; b < 7 && carry; ++b) {
      Mask next = count[b] & carry;
      count[b] ^= carry;
      carry = next;
    }
  }
  Mask candidates = ~Mask(0);
  int best = 0;
  for (int b = 6; b >= 0; --b) {
    Mask t = candidates & count[b];
    if (t) {
      candidates = t;
      best |= 1 << b;
    }
  }
  return best;
}

// Wavefronts without detail, for power-of-two geometries of up to 64 banks.
// 16-byte lanes on 32 banks of 4 bytes (the H100): each lane fills one of the 8 16-byte slots
// of a 128-byte bank row, so the wavefronts are the most distinct rows any one slot sees.
struct SlotUse {
  int busiest = 0;
  uint32_t used = 0;   // bit s: slot s is touched
  int64_t row[8];      // the row in each touched slot (meaningful when busiest == 1)
};

SlotUse busiest_slot_16b(const WarpAccess& a, int begin, int end) {
  SlotUse u;
  uint64_t near[8] = {};  // rows within 64 above the first lane's row, as bits
  int64_t far[8][32];     // other distinct rows of each slot
  int far_count[8] = {};
  int count[8] = {};
  int64_t r0 = -1;
  for (int l = begin; l < end; ++l) {
    const int64_t addr = a.addr[l];
    if (addr < 0) continue;
    const int64_t r = addr >> 7;
    const int s = static_cast<int>((addr >> 4) & 7);
    if (r0 < 0) r0 = r;
    const uint64_t d = static_cast<uint64_t>(r - r0);
    if (d < 64) {
      const uint64_t bit = uint64_t(1) << d;
      if (near[s] & bit) continue;
      near[s] |= bit;
    } else {
      bool dup = false;
      for (int k = 0; k < far_count[s]; ++k) dup |= far[s][k] == r;
      if (dup) continue;
      far[s][far_count[s]++] = r;
    }
    u.busiest = std::max(u.busiest, ++count[s]);
    u.used |= 1u << s;
    u.row[s] = r;
  }
  return u;
}

template <class Mask>
int fast_wavefronts(const WarpAccess& a, int lanes, int per_group, int shift, int bank_bits) {
  if (lane_bytes(a) == 16 && shift == 2 && bank_bits == 5) {
    const bool merge = a.op == SmemOp::ld;
    int total = 0;
    SlotUse next;
    bool have_next = false;  // `next` already holds the group starting at `start`
    for (int start = 0; start < lanes; start += per_group) {
      const int end = std::min(lanes, start + per_group);
      const SlotUse own = have_next ? next : busiest_slot_16b(a, start, end);
      have_next = false;
      if (own.busiest == 0) continue;
      if (merge && (start / per_group) % 2 == 0 && own.busiest == 1 && end < lanes) {
        // Two conflict-free groups share a wavefront unless a slot holds different rows.
        next = busiest_slot_16b(a, end, std::min(lanes, end + per_group));
        have_next = true;
        bool clash = next.busiest != 1;
        for (uint32_t both = own.used & next.used; both && !clash; both &= both - 1) {
          const int s = __builtin_ctz(both);
          clash = own.row[s] != next.row[s];
        }
        if (!clash) {
          total += 1;
          start += per_group;
          have_next = false;
          continue;
        }
      }
      total += own.busiest;
    }
    return total;
  }
  const bool may_merge = a.op == SmemOp::ld && a.width > (1 << shift);
  int total = 0;
  for (int start = 0; start < lanes; start += per_group) {
    const int end = std::min(lanes, start + per_group);
    const int own = busiest_bank_fast<Mask>(a, start, end, shift, bank_bits);
    if (own == 0) continue;
    const int pair_end = std::min(lanes, end + per_group);
    const bool even = (start / per_group) % 2 == 0;
    if (may_merge && even && own == 1 && end < lanes &&
        busiest_bank_fast<Mask>(a, end, pair_end, shift, bank_bits) > 0 &&
        busiest_bank_fast<Mask>(a, start, pair_end, shift, bank_bits) <= 1) {
      total += 1;
      start += per_group;  // the neighbour is served by the same wavefront
      continue;
    }
    total += own;
  }
  return total;
}

// Splits a group's service into wavefronts: the k-th distinct word of each bank goes to wavefront k.
template <class Lanes>
void add_detail(const WarpAccess& a, const Lanes& lanes, int n_lanes, const BankUse& u, const BankGeometry& g,
                ConflictResult& r) {
  std::vector<Wavefront> wfs(u.busiest);
  for (auto& wf : wfs) wf.banks.assign((g.banks + 31) / 32, 0);
  std::vector<int> order_in_bank(u.count);
  std::vector<int> seen(g.banks, 0);
  for (int i = 0; i < u.count; ++i) order_in_bank[i] = seen[u.words[i] % g.banks]++;
  for (int i = 0; i < n_lanes; ++i) {
    const int l = lanes[i];
    int64_t first = a.addr[l] / g.bank_bytes;
    size_t idx = std::find(u.words.begin(), u.words.begin() + u.count, first) - u.words.begin();
    Wavefront& wf = wfs[order_in_bank[idx]];
    wf.lanes.push_back(l);
    for (int w = 0; w < std::max(1, lane_bytes(a) / g.bank_bytes); ++w) {
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
  const int per_group = std::min(group_lanes(a, g), 32);
  const int shift = g.bank_bytes == 4 ? 2 : g.bank_bytes == 8 ? 3 : -1;
  const bool pow2 = g.banks > 0 && (g.banks & (g.banks - 1)) == 0;
  if (!with_detail && shift > 0 && pow2 && g.banks <= 64) {
    int bank_bits = 0;
    while ((1 << bank_bits) < g.banks) ++bank_bits;
    r.wavefronts = g.banks <= 32 ? fast_wavefronts<uint32_t>(a, lanes, per_group, shift, bank_bits)
                                 : fast_wavefronts<uint64_t>(a, lanes, per_group, shift, bank_bits);
    int active = 0;
    for (int l = 0; l < lanes; ++l) active += a.addr[l] >= 0;
    r.ideal = (active * lane_bytes(a) + g.wavefront_bytes() - 1) / g.wavefront_bytes();
    return r;
  }
  // Active lanes of each group, in lane order; `members` holds them back to back.
  std::array<int, 32> members{};
  std::array<int, 33> group_start{};
  int n_groups = 0, n = 0;
  for (int start = 0; start < lanes; start += per_group, ++n_groups) {
    group_start[n_groups] = n;
    for (int l = start; l < std::min(lanes, start + per_group); ++l)
      if (a.addr[l] >= 0) members[n++] = l;
  }
  group_start[n_groups] = n;
  const bool may_merge = a.op == SmemOp::ld && a.width > g.bank_bytes;
  auto size_of = [&](int i) { return group_start[i + 1] - group_start[i]; };
  auto busiest = [&](const int* first, int count) { return bank_use(a, first, count, g).busiest; };
  for (int i = 0; i < n_groups; ++i) {
    if (size_of(i) == 0) continue;
    const int* first = members.data() + group_start[i];
    if (may_merge && i % 2 == 0 && i + 1 < n_groups && size_of(i + 1) != 0) {
      const int pair_size = size_of(i) + size_of(i + 1);  // the two groups are adjacent in `members`
      if (busiest(first, pair_size) <= 1) {
        r.wavefronts += 1;
        if (with_detail) add_detail(a, first, pair_size, bank_use(a, first, pair_size, g), g, r);
        ++i;
        continue;
      }
    }
    BankUse u = bank_use(a, first, size_of(i), g);
    r.wavefronts += u.busiest;
    if (with_detail) add_detail(a, first, size_of(i), u, g, r);
  }
  const int requested = n * lane_bytes(a);
  r.ideal = (requested + g.wavefront_bytes() - 1) / g.wavefront_bytes();
  return r;
}

}  // namespace tmasim
