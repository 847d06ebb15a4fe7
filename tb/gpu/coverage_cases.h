// The coverage capture's cases (issue 11): directed cases for the families where the
// documents are silent, then seeded random cases steered by the coverage model towards
// bins still below target. Deterministic: the same list on every machine, so the capture
// can be restarted after a trap and the host-only coverage tool can rebuild it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "coverage.h"
#include "tma_cases.h"

namespace ref {

constexpr int kCoverTarget = 10;         // aim above kCoverMinHits: some answers are refusals
constexpr int kCoverMaxCases = 4000;
constexpr int kCoverMaxCandidates = 400000;

inline int footprint_coord(Rng& rng, int dim, int len, int side, int align) {
  // side: 0 inside, 1 low edge, 2 high edge, 3 both edges, 4 wholly outside
  auto between = [&](int lo, int hi) { return rng.range(lo, std::max(lo, hi)); };
  int c = 0;
  switch (side) {
    case 0: c = between(0, dim - len); break;
    case 1: c = -between(1, len - 1); break;
    case 2: c = between(dim - len + 1, dim - 1); break;
    case 3: c = -between(1, len - dim); break;
    default: c = rng.range(0, 1) ? -len - rng.range(0, 3) : dim + rng.range(0, 3); break;
  }
  if (align > 1) c -= ((c % align) + align) % align;
  return c;
}

inline int pick_side(Rng& rng) {
  int r = rng.range(0, 99);
  return r < 48 ? 0 : r < 62 ? 1 : r < 78 ? 2 : r < 86 ? 3 : 4;
}

inline int pick_estride(Rng& rng, int one_percent) {
  int r = rng.range(0, 99);
  return r < one_percent ? 1 : r < one_percent + (100 - one_percent) / 2 ? 2 : rng.range(3, 8);
}

inline Case random_tiled(Rng& rng) {
  Case c;
  TMap& t = c.tm;
  t.rank = rng.range(1, 5);
  t.dtype = rng.range(0, 99) < 3 ? rng.range(P4A8, P6A16) : rng.range(0, TF32FTZ);
  const int es = dtype_bytes(t.dtype);
  t.inter = rng.range(0, 99) < (t.rank >= 3 ? 30 : 4) ? rng.range(1, 2) : 0;
  t.swz = rng.range(0, 99) < 4 ? rng.range(4, 6) : rng.range(0, 3);
  const int span = swizzle_span(t.swz);
  const int per16 = std::max(1, 16 / es);
  if (t.inter) {
    const int unit = t.inter == 1 ? 16 : 32;
    t.dims[0] = std::max(1, unit / es) * rng.range(1, 2);
    t.box[0] = per16 * rng.range(1, 4);
    if (rng.range(0, 9) == 0) t.dims[0] += rng.range(1, 3);
  } else {
    int max16 = span ? span / 16 : 16;
    int k = rng.range(0, 3) ? rng.range(1, std::min(max16, 8)) : rng.range(1, max16);
    t.box[0] = per16 * k;
    if (dtype_packed(t.dtype)) t.box[0] = 16 * k / es * 2;
    t.dims[0] = std::max<ll>(1, t.box[0] + rng.range(-t.box[0] / 2, 2 * t.box[0]));
    if (rng.range(0, 2) == 0) t.dims[0] += rng.range(1, per16);  // a row end inside a 16-byte chunk
  }
  ll bytes = ll(t.box[0]) * es * (t.inter ? 16 / es : 1);
  t.estr[0] = rng.range(0, 99) < 80 ? 1 : rng.range(2, 8);
  for (int d = 1; d < t.rank; ++d) {
    int maxb = int(std::max<ll>(1, std::min<ll>(12, 12000 / std::max<ll>(1, bytes))));
    t.box[d] = rng.range(1, maxb);
    bytes *= t.box[d];
    t.dims[d] = std::max(1, t.box[d] + rng.range(-t.box[d] / 2, 5));
    t.estr[d] = pick_estride(rng, 50);
  }
  const int r = rng.range(0, 99);
  c.op = r < 46 ? 0 : r < 62 ? 1 : r < 84 ? 2 : r < 90 ? 3 : 0;
  if (r >= 90 && !t.inter) c.mcast = rng.range(0, 1) ? 2 : 4;
  c.redop = rng.range(0, 7);
  t.oob = rng.range(0, 99) < (dtype_float(t.dtype) ? 50 : 6);
  t.l2 = rng.range(0, 3);
  set_strides(t, t.inter == 2 ? 32 : 16, 16 * rng.range(0, 2));
  for (int d = 0; d < t.rank; ++d) {
    int s = (d == 0 && !t.inter) ? 1 : t.estr[d];
    int n = (t.box[d] + s - 1) / s;
    int len = (n - 1) * s + 1;
    int align = (d == 0 && !t.inter) ? per16 : 1;
    c.coords[d] = footprint_coord(rng, int(t.dims[d]), len, pick_side(rng), align);
  }
  if (!t.inter && rng.range(0, 99) < 2) c.coords[0] += 1;  // innermost coordinate not 16-byte aligned
  c.gbase = (t.inter == 2 ? 32 : 16) * rng.range(0, 16);
  c.smem_offset = rng.range(0, 99) < 3 ? 16 * (2 * rng.range(0, 3) + 1) : 128 * rng.range(0, 7);
  c.poison = rng.range(0, 255);
  return c;
}

inline Case random_im2col(Rng& rng) {
  Case c;
  TMap& t = c.tm;
  t.mode = 1;
  t.rank = rng.range(3, 5);
  const int ns = t.rank - 2;
  t.dtype = rng.range(0, 99) < 2 ? rng.range(P4A8, P6A16) : rng.range(0, TF32FTZ);
  const int es = dtype_bytes(t.dtype);
  const int per16 = std::max(1, 16 / es);
  t.inter = rng.range(0, 99) < 22 ? rng.range(1, 2) : 0;
  t.swz = rng.range(0, 3);
  const int span = swizzle_span(t.swz);
  int k = rng.range(1, span ? span / 16 : 8);
  t.cpp = per16 * k;
  t.dims[0] = t.cpp + per16 * rng.range(0, 2) + (rng.range(0, 2) == 0 ? rng.range(1, per16) : 0);
  if (t.inter) t.dims[0] = rng.range(0, 1) ? t.cpp : std::max(1, (t.inter == 1 ? 16 : 32) / es);
  for (int d = 1; d <= ns; ++d) t.dims[d] = rng.range(2, 8);
  t.dims[t.rank - 1] = rng.range(1, 3);
  for (int i = 0; i < ns; ++i) {
    t.lower[i] = rng.range(-3, 3);
    t.upper[i] = rng.range(-3, 3);
    if (t.dims[i + 1] - 1 + t.upper[i] < t.lower[i]) t.upper[i] = t.lower[i] - int(t.dims[i + 1]) + 1;
  }
  t.ppc = rng.range(0, 3) ? rng.range(1, 48) : rng.range(49, 160);
  while (ll(t.ppc) * t.cpp * es > 16384) t.ppc /= 2;
  for (int d = 1; d < t.rank - 1; ++d) t.estr[d] = pick_estride(rng, 60);
  t.estr[t.rank - 1] = rng.range(0, 99) < 80 ? 1 : rng.range(2, 3);
  t.oob = rng.range(0, 99) < (dtype_float(t.dtype) ? 50 : 4);
  t.l2 = rng.range(0, 3);
  set_strides(t, t.inter == 2 ? 32 : 16, 16 * rng.range(0, 1));
  int r = rng.range(0, 99);
  if (r < 60) {
    c.coords[0] = per16 * rng.range(0, int(std::max<ll>(0, (t.dims[0] - t.cpp) / per16)));
  } else if (r < 92) {
    c.coords[0] = rng.range(1, int(std::max<ll>(1, t.dims[0] - 1)));
  } else {
    c.coords[0] = int(t.dims[0]) - rng.range(0, per16);
  }
  const bool outside = rng.range(0, 99) < 8;
  for (int i = 0; i < ns; ++i) {
    int lo = t.lower[i], hi = int(t.dims[i + 1]) - 1 + t.upper[i];
    c.coords[i + 1] = (outside && i == 0) ? (rng.range(0, 1) ? lo - 1 : hi + 1) : rng.range(lo, hi);
    c.offs[i] = rng.range(0, 1) ? 0 : rng.range(1, 2);
  }
  c.coords[t.rank - 1] = rng.range(0, int(t.dims[t.rank - 1]) - 1);
  c.gbase = (t.inter == 2 ? 32 : 16) * rng.range(0, 16);
  c.smem_offset = 128 * rng.range(0, 7);
  c.poison = rng.range(0, 255);
  return c;
}

// Directed cases for the four families of issue 11.
inline void directed_cases(std::vector<Case>& cs) {
  char nm[160];
  // 1. Tiled stores and reductions whose rows end inside a 16-byte chunk of global memory.
  const int store_types[] = {U8, U16, F16, BF16, U32, I32, F32, U64, F64};
  for (int op = 0; op <= 8; ++op) {  // 0: store, 1..8: reductions
    for (int dt : store_types) {
      for (int shape = 0; shape < 2; ++shape) {
        Case c;
        c.op = op ? 2 : 1;
        c.redop = op ? op - 1 : 0;
        const int es = dtype_bytes(dt);
        const int per16 = 16 / es;
        // shape 0: a row shorter than one chunk; shape 1: two chunks and a part, 64B swizzle
        ll dim0 = shape == 0 ? std::max(1, per16 - 1) : 2 * per16 + std::max(1, per16 / 2 - (es == 8 ? 0 : 1));
        if ((dim0 * es) % 16 == 0) dim0 += 1;
        c.tm = tiled(dt, {dim0, 5, 3}, {shape == 0 ? per16 : 64 / es, 3, 2}, shape == 0 ? 0 : 2);
        set_strides(c.tm, 16, shape ? 16 : 0);
        c.coords[0] = shape == 0 ? 0 : per16;
        c.coords[1] = 1;
        c.coords[2] = shape;
        c.smem_offset = 128 * shape;
        snprintf(nm, sizeof nm, "dir_store_rowend_%s_%s_%d", op ? redop_name(op - 1) : "store", dtype_name(dt), shape);
        c.name = nm;
        cs.push_back(c);
      }
    }
  }
  // 2. im2col loads whose channel start is not 16-byte aligned, the PTX ISA's example shape
  //    (NHWC 64x14x9x64, corners -1/-1, 8 channels per pixel from channel 7) among them.
  for (int dt : {F16, F32, U8, BF16, F64}) {
    const int es = dtype_bytes(dt);
    for (int k = 0; k < 6; ++k) {
      Case c;
      TMap& t = c.tm;
      t.mode = 1;
      t.dtype = dt;
      t.rank = k < 2 ? 4 : 3 + k % 3;
      const int ns = t.rank - 2;
      const int per16 = 16 / es;
      t.cpp = per16 * (k % 2 ? 2 : 1);
      t.dims[0] = k < 2 ? 64 : t.cpp * 2 + 3;
      for (int d = 1; d <= ns; ++d) t.dims[d] = k < 2 ? (d == 1 ? 9 : 14) : 5 + d;
      t.dims[t.rank - 1] = k < 2 ? 64 : 2;
      for (int i = 0; i < ns; ++i) {
        t.lower[i] = -1;
        t.upper[i] = -1;
      }
      t.ppc = k < 2 ? 64 : 24;
      t.swz = k == 1 ? (t.cpp * es <= 32 ? 1 : 2) : 0;
      set_strides(t);
      c.coords[0] = k < 2 ? 7 : (k % 3) + 1;
      for (int i = 0; i < ns; ++i) {
        c.coords[i + 1] = k < 2 ? (i == 0 ? 7 : 4) : 0;
        c.offs[i] = k % 2;
      }
      c.coords[t.rank - 1] = 0;
      c.smem_offset = 128 * (k % 4);
      snprintf(nm, sizeof nm, "dir_im2col_chan_unaligned_%s_%d", dtype_name(dt), k);
      c.name = nm;
      cs.push_back(c);
    }
  }
  // 3. Interleaved maps with element strides > 1 in the outer dimensions.
  for (int il = 1; il <= 2; ++il) {
    for (int rank = 3; rank <= 5; ++rank) {
      for (int d = 1; d < rank; ++d) {
        for (int s : {2, 3, 8}) {
          Case c;
          const int ch = il == 1 ? 8 : 16;
          std::vector<ll> dims{ch, 11, 6, 4, 3};
          std::vector<int> box{ch, 6, 3, 3, 2};
          dims.resize(rank);
          box.resize(rank);
          c.tm = tiled(F16, dims, box, il == 2 ? 1 : 0);
          c.tm.inter = il;
          set_strides(c.tm, il == 2 ? 32 : 16);
          c.tm.estr[d] = s;
          c.coords[1] = s == 3 ? 4 : 1;  // s == 3 runs past the end of dimension 1
          c.gbase = 1 << 10;
          snprintf(nm, sizeof nm, "dir_interleave_%s_r%d_d%d_s%d", interleave_name(il), rank, d, s);
          c.name = nm;
          cs.push_back(c);
        }
      }
    }
  }
  // 4. im2col with interleaved layouts.
  for (int il = 1; il <= 2; ++il) {
    for (int rank = 3; rank <= 5; ++rank) {
      for (int swz = 0; swz <= 3; ++swz) {
        Case c;
        TMap& t = c.tm;
        t.mode = 1;
        t.dtype = F16;
        t.rank = rank;
        t.inter = il;
        t.swz = swz;
        const int ns = rank - 2;
        t.dims[0] = il == 1 ? 8 : 16;
        for (int d = 1; d <= ns; ++d) t.dims[d] = 5;
        t.dims[rank - 1] = 2;
        for (int i = 0; i < ns; ++i) {
          t.lower[i] = -1;
          t.upper[i] = 0;
        }
        t.cpp = swz == 1 ? 16 : il == 1 ? 8 : 16;
        t.ppc = 12;
        set_strides(t, il == 2 ? 32 : 16);
        c.coords[1] = 1;
        c.offs[0] = 1;
        c.gbase = 1 << 10;
        snprintf(nm, sizeof nm, "dir_im2col_interleave_%s_r%d_%s", interleave_name(il), rank, swizzle_name(swz));
        c.name = nm;
        cs.push_back(c);
      }
    }
  }
}

// Round 2, appended after the first capture (whose list must not change): bins the first
// round left under the minimum (32-byte interleave with an element stride in dimension 0:
// its random strides were mostly not multiples of 32), and one-change-at-a-time im2col
// experiments on interleaved layouts to decode what the H100 does with them.
inline void round2_cases(std::vector<Case>& cs) {
  char nm[160];
  int k = 0;
  for (int dt : {F16, F32, U8, BF16, U64, I32}) {
    for (int s0 : {2, 3}) {
      Case c;
      const int es = dtype_bytes(dt);
      c.tm = tiled(dt, {32 / es * 2, 6, 4}, {32 / es, 4, 2}, k % 2);
      c.tm.inter = 2;
      c.tm.estr[0] = s0;
      set_strides(c.tm, 32, 32 * (k % 2));
      c.coords[1] = k % 3;
      c.gbase = 64;
      c.op = k % 4 == 3 ? 1 : 0;
      snprintf(nm, sizeof nm, "dir_r2_interleave32_estride0_%s_s%d", dtype_name(dt), s0);
      c.name = nm;
      cs.push_back(c);
      ++k;
    }
  }
  struct Probe {
    const char* what;
    int inter, rank, dtype;
    std::vector<ll> dims;
    int lower, upper, cpp, ppc;
    std::vector<int> coords, offs;
    int estr1;
  };
  const std::vector<Probe> probes = {
      {"plain", 1, 3, F16, {8, 6, 3}, 0, 0, 8, 40, {0, 0, 0}, {0}, 1},
      {"dim0_16", 1, 3, F16, {16, 6, 3}, 0, 0, 8, 40, {0, 0, 0}, {0}, 1},
      {"dim0_16_c0_8", 1, 3, F16, {16, 6, 3}, 0, 0, 8, 40, {8, 0, 0}, {0}, 1},
      {"c1_2", 1, 3, F16, {8, 6, 3}, 0, 0, 8, 40, {0, 2, 0}, {0}, 1},
      {"c2_1", 1, 3, F16, {8, 6, 3}, 0, 0, 8, 40, {0, 0, 1}, {0}, 1},
      {"off1", 1, 3, F16, {8, 6, 3}, 0, 0, 8, 40, {0, 0, 0}, {1}, 1},
      {"lo_m1", 1, 3, F16, {8, 6, 3}, -1, 0, 8, 40, {0, 0, 0}, {0}, 1},
      {"up_m2", 1, 3, F16, {8, 6, 3}, 0, -2, 8, 40, {0, 0, 0}, {0}, 1},
      {"cpp16", 1, 3, F16, {8, 6, 3}, 0, 0, 16, 40, {0, 0, 0}, {0}, 1},
      {"estr2", 1, 3, F16, {8, 6, 3}, 0, 0, 8, 40, {0, 0, 0}, {0}, 2},
      {"r4_plain", 1, 4, F16, {8, 6, 4, 3}, 0, 0, 8, 60, {0, 0, 0, 0}, {0, 0}, 1},
      {"r4_c2_1", 1, 4, F16, {8, 6, 4, 3}, 0, 0, 8, 60, {0, 0, 1, 0}, {0, 0}, 1},
      {"r4_c3_1", 1, 4, F16, {8, 6, 4, 3}, 0, 0, 8, 60, {0, 0, 0, 1}, {0, 0}, 1},
      {"r4_off01", 1, 4, F16, {8, 6, 4, 3}, 0, 0, 8, 60, {0, 0, 0, 0}, {0, 1}, 1},
      {"r5_plain", 1, 5, F16, {8, 5, 4, 3, 2}, 0, 0, 8, 80, {0, 0, 0, 0, 0}, {0, 0, 0}, 1},
      {"i32_plain", 2, 3, F16, {16, 6, 3}, 0, 0, 16, 40, {0, 0, 0}, {0}, 1},
      {"i32_lo_m1", 2, 3, F16, {16, 6, 3}, -1, 0, 16, 40, {0, 1, 0}, {1}, 1},
      {"f32_plain", 1, 3, F32, {4, 6, 3}, 0, 0, 4, 40, {0, 0, 0}, {0}, 1},
  };
  for (const Probe& p : probes) {
    Case c;
    TMap& t = c.tm;
    t.mode = 1;
    t.dtype = p.dtype;
    t.rank = p.rank;
    t.inter = p.inter;
    for (int d = 0; d < p.rank; ++d) {
      t.dims[d] = p.dims[d];
      c.coords[d] = p.coords[d];
    }
    for (int i = 0; i < p.rank - 2; ++i) {
      t.lower[i] = p.lower;
      t.upper[i] = p.upper;
      c.offs[i] = p.offs[i];
    }
    t.cpp = p.cpp;
    t.ppc = p.ppc;
    t.estr[1] = p.estr1;
    set_strides(t, p.inter == 2 ? 32 : 16);
    c.gbase = 1 << 12;
    snprintf(nm, sizeof nm, "dir_r2_im2col_interleave_%s", p.what);
    c.name = nm;
    cs.push_back(c);
  }
}

// Directed cases, then random cases while some bin is below target.
inline std::vector<Case> make_coverage_cases() {
  std::vector<Case> cs;
  directed_cases(cs);
  CoverageModel model;
  std::map<std::string, int> count;
  for (const Coverpoint& cp : model.points())
    for (const std::string& b : cp.bins) count[cp.name + ":" + b] = 0;
  auto tally = [&](const std::vector<std::string>& bins, int* below) {
    for (const std::string& b : bins) {
      auto it = count.find(b);  // every hit names a declared bin; the check keeps `below` honest
      if (it != count.end() && ++it->second == kCoverTarget) --*below;
    }
  };
  int below = static_cast<int>(count.size());
  for (const Case& c : cs) tally(model.hits(c), &below);
  Rng rng(20261123);
  for (int k = 0; k < kCoverMaxCandidates && below > 0 && static_cast<int>(cs.size()) < kCoverMaxCases; ++k) {
    Case c = rng.range(0, 99) < 65 ? random_tiled(rng) : random_im2col(rng);
    std::vector<std::string> bins = model.hits(c);
    bool wanted = false;
    for (const std::string& b : bins) {
      auto it = count.find(b);
      wanted |= it != count.end() && it->second < kCoverTarget;
    }
    if (!wanted) continue;
    tally(bins, &below);
    c.name = "cov_" + std::to_string(cs.size());
    cs.push_back(c);
  }
  round2_cases(cs);
  return cs;
}

}  // namespace ref
