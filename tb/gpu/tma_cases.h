// One functional case of the H100 harness and the helpers that size it: shared by the
// harness (tma_ref.cu), its coverage model (coverage.h) and the host-only coverage tool.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "tma_ref_common.h"

namespace ref {

struct Case {
  std::string name;
  int op = 0, redop = 0;
  TMap tm;
  ll gbase = 0;
  int coords[5] = {};
  int offs[3] = {};
  int smem_offset = 0;
  int mcast = 1;
  int poison = 0xA5;
  bool encode_only = false;
};

inline ll align_up(ll v, ll a) { return (v + a - 1) / a * a; }

// Bytes the harness tells the mbarrier to expect at first; the kernel measures the real count.
inline ll tx_guess(const TMap& t) {
  ll e = 1;
  if (t.mode == 0) {
    for (int d = 0; d < t.rank; ++d) {
      int s = (d == 0 && t.inter == 0) ? 1 : t.estr[d];
      e *= (t.box[d] + s - 1) / s;
    }
  } else {
    e = ll(t.cpp) * t.ppc;
  }
  return e * dtype_bytes(t.dtype);
}

inline ll tensor_extent(const TMap& t) {
  if (t.rank <= 1) return t.dims[0] * dtype_bytes(t.dtype);
  return t.strides[t.rank - 2] * t.dims[t.rank - 1];
}

// Dense strides: row pitch rounded to `align` (plus `pad` bytes), each next dim packed.
inline void set_strides(TMap& t, int align = 16, ll pad = 0) {
  ll s = align_up(t.dims[0] * dtype_bytes(t.dtype), align) + pad;
  for (int d = 1; d < t.rank; ++d) {
    t.strides[d - 1] = s;
    s *= t.dims[d];
  }
}

inline TMap tiled(int dt, std::vector<ll> dims, std::vector<int> box, int swz = 0) {
  TMap t;
  t.dtype = dt;
  t.rank = static_cast<int>(dims.size());
  for (int d = 0; d < t.rank; ++d) {
    t.dims[d] = dims[d];
    t.box[d] = box[d];
  }
  t.swz = swz;
  set_strides(t);
  return t;
}

}  // namespace ref
