// tma_ref: the H100 reference harness of tmasim.
//
//   tma_ref functional OUT.jsonl START   run functional cases START.. (appends; exits 3 after a
//                                        sticky CUDA error so the driver script restarts it)
//   tma_ref coverage OUT.jsonl START     the same for the coverage capture's cases (coverage_cases.h)
//   tma_ref coverage-probe OUT.jsonl START  its interleaved and im2col loads with the provenance fill
//   tma_ref coverage-report OUT.jsonl    print the coverage of a capture (coverage.h)
//   tma_ref count                        print the number of functional cases
//   tma_ref patterns LIST.jsonl          write the SMEM access patterns and execute each once
//                                        (run under ncu; merge with scripts/merge_ncu.py)
//   tma_ref timing OUT.jsonl             TMA latency / burst / streaming measurements
//
// Formats: shared/spec/golden-case.md. Build: nvcc -O2 -std=c++17
// -gencode=arch=compute_90a,code=sm_90a tma_ref.cu -o tma_ref (no libcuda link: the encode
// calls come through cudaGetDriverEntryPointByVersion).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cluster_launch.cuh"
#include "tma_ptx.cuh"
#include "coverage_cases.h"
#include "tma_cases.h"
#include "tma_ref_common.h"

using namespace ref;

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(2);                                                                         \
    }                                                                                  \
  } while (0)

// ---------------------------------------------------------------------------------------
// Driver entry points
using GetErrorNameFn = CUresult (*)(CUresult, const char**);
using DriverVersionFn = CUresult (*)(int*);

static EncodeTiledFn g_encode_tiled;
static EncodeIm2colFn g_encode_im2col;
static GetErrorNameFn g_error_name;

static void* entry(const char* sym) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion(sym, &fn, 12000, cudaEnableDefault, &q));
  if (!fn || q != cudaDriverEntryPointSuccess) {
    fprintf(stderr, "driver entry point %s not found\n", sym);
    exit(2);
  }
  return fn;
}
static void load_driver() {
  g_encode_tiled = reinterpret_cast<EncodeTiledFn>(entry("cuTensorMapEncodeTiled"));
  g_encode_im2col = reinterpret_cast<EncodeIm2colFn>(entry("cuTensorMapEncodeIm2col"));
  g_error_name = reinterpret_cast<GetErrorNameFn>(entry("cuGetErrorName"));
}
static std::string cu_error_name(CUresult r) {
  const char* s = nullptr;
  if (g_error_name(r, &s) != CUDA_SUCCESS || !s) return "CUDA_ERROR_" + std::to_string(int(r));
  return s;
}
static CUresult encode(CUtensorMap* out, const TMap& t, void* gaddr) {
  cuuint64_t dims[6], strides[5];
  cuuint32_t box[6], es[6];
  for (int i = 0; i < 6; ++i) {
    dims[i] = t.dims[i];
    box[i] = t.box[i];
    es[i] = t.estr[i];
  }
  for (int i = 0; i < 5; ++i) strides[i] = t.strides[i];
  auto dt = static_cast<CUtensorMapDataType>(t.dtype);
  auto il = static_cast<CUtensorMapInterleave>(t.inter);
  auto sw = static_cast<CUtensorMapSwizzle>(t.swz);
  auto l2 = static_cast<CUtensorMapL2promotion>(t.l2);
  auto oob = static_cast<CUtensorMapFloatOOBfill>(t.oob);
  if (t.mode == 0) return g_encode_tiled(out, dt, t.rank, gaddr, dims, strides, box, es, il, sw, l2, oob);
  return g_encode_im2col(out, dt, t.rank, gaddr, dims, strides, t.lower, t.upper, t.cpp, t.ppc, es, il, sw, l2,
                         oob);
}

// ---------------------------------------------------------------------------------------
// Functional cases (the vocabulary is in tma_cases.h)
static std::vector<Case> make_cases() {
  std::vector<Case> cs;
  Rng rng(20261122);
  auto add = [&](Case c) { cs.push_back(std::move(c)); };
  char nm[160];

  // A. every swizzle mode x every 128B-aligned destination offset inside a 1024B repeat,
  //    full-span boxes and boxes narrower than the span.
  for (int swz = 0; swz <= 6; ++swz) {
    int span = swz ? swizzle_span(swz) : 128;
    for (int inner : {16, 32, 64, 128}) {
      if (inner > span) continue;
      for (int off = 0; off < 1024; off += 128) {
        if (inner != span && off % 256 != 0) continue;
        if (swz >= 4 && !(inner == 128 && off == 0)) continue;       // rejected by the H100 driver
        if (swz == 3 && inner < 64 && off != 0) continue;            // faults on H100: one case each
        Case c;
        c.tm = tiled(U8, {256, 40}, {inner, 12}, swz);
        c.coords[0] = 16;
        c.coords[1] = 3;
        c.smem_offset = off;
        snprintf(nm, sizeof nm, "swz_%s_inner%d_off%d", swizzle_name(swz), inner, off);
        c.name = nm;
        add(c);
      }
    }
  }
  // B. destination offsets that are not 128B aligned (16B aligned and worse).
  for (int swz : {0, 3}) {
    for (int off : {16, 64}) {
      Case c;
      c.tm = tiled(F16, {64, 16}, {swz ? 64 : 32, 4}, swz);
      c.smem_offset = off;
      snprintf(nm, sizeof nm, "smem_misaligned_%s_off%d", swizzle_name(swz), off);
      c.name = nm;
      add(c);
    }
  }
  // C. every data type x rank 1..5.
  for (int dt = 0; dt < P4A8; ++dt) {
    for (int rank = 1; rank <= 5; ++rank) {
      int es = dtype_bytes(dt);
      std::vector<ll> dims;
      std::vector<int> box;
      int inner = 32 / es;
      dims.push_back(3 * inner + 5);
      box.push_back(inner);
      for (int d = 1; d < rank; ++d) {
        dims.push_back(5 + d);
        box.push_back(d == 1 ? 4 : 2);
      }
      Case c;
      c.tm = tiled(dt, dims, box, rank % 3 == 0 ? 1 : 0);
      for (int d = 0; d < rank; ++d) c.coords[d] = d == 0 ? inner / 2 : 1;
      snprintf(nm, sizeof nm, "dtype_%s_rank%d", dtype_name(dt), rank);
      c.name = nm;
      add(c);
    }
  }
  // D. out-of-bound boxes on either side, zero and NaN fill, float and integer types.
  for (int dt : {F16, BF16, F32, F64, TF32, F32FTZ, U8, I32, U16, U64}) {
    for (int oob = 0; oob <= 1; ++oob) {
      if (oob && !dtype_float(dt)) continue;
      int es = dtype_bytes(dt);
      int inner = 64 / es;
      const int v = 16 / es;
      const int cx[] = {-inner / 2, -inner - v, 3 * inner - inner / 2, 5 * inner, -v, 0};
      const int cy[] = {-3, 7, 10, -20, 0, -1};
      for (int k = 0; k < 6; ++k) {
        Case c;
        c.tm = tiled(dt, {3 * inner + (es == 1 ? 16 : 0), 12}, {inner, 8}, es <= 2 ? 2 : 0);
        c.tm.oob = oob;
        c.coords[0] = cx[k];
        c.coords[1] = cy[k];
        snprintf(nm, sizeof nm, "oob_%s_%s_%d", dtype_name(dt), oob ? "nan" : "zero", k);
        c.name = nm;
        add(c);
      }
    }
  }
  for (int dt : {F16, F32}) {  // innermost coordinate not 16-byte aligned: traps on H100
    Case c;
    c.tm = tiled(dt, {64, 8}, {32, 4}, 0);
    c.coords[0] = 2;
    snprintf(nm, sizeof nm, "coord0_unaligned_%s", dtype_name(dt));
    c.name = nm;
    add(c);
  }
  // E. element strides 1..8 in every dimension (dimension 0 included: the doc says it is ignored).
  for (int rank : {2, 3}) {
    for (int d = 0; d < rank; ++d) {
      for (int s = 1; s <= 8; ++s) {
        Case c;
        c.tm = tiled(F32, {40, 30, 9}, {8, 16, 4}, 0);
        c.tm.rank = rank;
        set_strides(c.tm);
        c.tm.estr[d] = s;
        c.coords[0] = 4;
        c.coords[1] = (s % 2) ? 2 : 20;
        c.coords[2] = 1;
        snprintf(nm, sizeof nm, "estride_r%d_d%d_s%d", rank, d, s);
        c.name = nm;
        add(c);
      }
    }
  }
  // F. interleaved layouts (NC/8HWC8, NC/16HWC16), ranks 3..5, with swizzles.
  for (int il = 1; il <= 2; ++il) {
    for (int rank = 3; rank <= 5; ++rank) {
      for (int swz = 0; swz <= 3; ++swz) {
        Case c;
        int ch = il == 1 ? 8 : 16;
        std::vector<ll> dims{ch, 9, 7};
        std::vector<int> box{ch, 8, 3};
        for (int d = 3; d < rank; ++d) {
          dims.push_back(3);
          box.push_back(2);
        }
        c.tm = tiled(F16, dims, box, swz);
        c.tm.inter = il;
        set_strides(c.tm, il == 2 ? 32 : 16);
        c.coords[1] = swz == 2 ? -2 : 1;
        c.coords[2] = swz == 3 ? 5 : 1;
        c.gbase = (1 << 20) + (il == 2 ? 32 : 0);
        snprintf(nm, sizeof nm, "interleave_%s_r%d_%s", interleave_name(il), rank, swizzle_name(swz));
        c.name = nm;
        add(c);
      }
      Case c;  // element strides with interleave (dimension 0 is not ignored then)
      c.tm = tiled(F16, {il == 1 ? 8 : 16, 20, 6, 2, 2}, {il == 1 ? 8 : 16, 8, 4, 1, 1}, il == 2 ? 1 : 0);
      c.tm.rank = rank;
      c.tm.inter = il;
      set_strides(c.tm, il == 2 ? 32 : 16);
      c.tm.estr[0] = 2;
      c.tm.estr[1] = 3;
      c.gbase = 1 << 20;
      snprintf(nm, sizeof nm, "interleave_%s_r%d_estride", interleave_name(il), rank);
      c.name = nm;
      add(c);
    }
  }
  // G. L2 promotion (no effect on bytes expected) and global base offsets.
  for (int l2 = 0; l2 <= 3; ++l2) {
    for (ll gb : {0, 16, 48, 256}) {
      Case c;
      c.tm = tiled(BF16, {100, 33}, {64, 10}, 3);
      c.tm.l2 = l2;
      c.gbase = gb;
      c.coords[0] = 56;
      c.coords[1] = 25;
      snprintf(nm, sizeof nm, "l2promo_%s_gbase%lld", l2_name(l2), gb);
      c.name = nm;
      add(c);
    }
  }
  // H. im2col: 3D..5D, every corner sign, offsets, traversal strides, pixel runs that cross images.
  for (int rank = 3; rank <= 5; ++rank) {
    int ns = rank - 2;
    int lim = rank == 3 ? 3 : rank == 4 ? 2 : 2;
    for (int k = 0; k < 40; ++k) {
      Case c;
      TMap& t = c.tm;
      t.mode = 1;
      t.rank = rank;
      t.dtype = rng.pick(std::vector<int>{F16, BF16, F32, U8});
      int es = dtype_bytes(t.dtype);
      int chans = (16 / es) * rng.range(1, 4);
      t.dims[0] = chans + (k % 3 == 0 ? 16 / es : 0);
      for (int d = 1; d < rank - 1; ++d) t.dims[d] = rng.range(3, 7);
      t.dims[rank - 1] = rng.range(1, 3);
      for (int d = 0; d < ns; ++d) {
        t.lower[d] = rng.range(-lim, lim);
        t.upper[d] = rng.range(-lim, lim);
      }
      t.cpp = chans;
      t.ppc = rng.pick(std::vector<int>{1, 4, 8, 16, 24, 32, 64});
      for (int d = 1; d < rank; ++d) t.estr[d] = (k % 4 == 3) ? rng.range(1, 3) : 1;
      t.swz = (chans * es <= 32) ? rng.range(0, 1) : (chans * es <= 64 ? rng.pick(std::vector<int>{0, 2}) : 3);
      if (chans * es > 128) t.swz = 0;
      t.oob = dtype_float(t.dtype) ? rng.range(0, 1) : 0;
      set_strides(t);
      c.coords[0] = k % 5 == 0 ? (16 / es) : 0;
      if (c.coords[0] + chans > t.dims[0]) c.coords[0] = 0;
      bool empty = false;
      for (int d = 1; d < rank - 1; ++d) {
        int lo = t.lower[d - 1], hi = int(t.dims[d]) - 1 + t.upper[d - 1];
        if (hi < lo) empty = true;
        c.coords[d] = (k % 13 == 7) ? hi + 1 : rng.range(lo, std::max(lo, hi));  // k%13==7: outside, traps
      }
      if (empty) t.upper[0] = std::max(t.upper[0], t.lower[0] - int(t.dims[1]) + 1);
      c.coords[rank - 1] = rng.range(0, int(t.dims[rank - 1]) - 1);
      for (int d = 0; d < ns; ++d) c.offs[d] = rng.range(0, 2);
      snprintf(nm, sizeof nm, "im2col_r%d_%d", rank, k);
      c.name = nm;
      add(c);
    }
  }
  // I. stores, ranks 1..5, swizzled and out of bounds (clipped).
  for (int k = 0; k < 60; ++k) {
    Case c;
    c.op = 1;
    int rank = 1 + k % 5;
    int dt = rng.pick(std::vector<int>{F16, F32, U8, BF16, U64});
    int es = dtype_bytes(dt);
    int swz = (k / 5) % 4;
    int span = swz ? swizzle_span(swz) : 64;
    std::vector<ll> dims;
    std::vector<int> box;
    dims.push_back(span / es * 2 + 16 / es);
    box.push_back(span / es);
    for (int d = 1; d < rank; ++d) {
      dims.push_back(rng.range(3, 6));
      box.push_back(rng.range(1, 4));
    }
    c.tm = tiled(dt, dims, box, swz);
    for (int d = 0; d < rank; ++d) c.coords[d] = rng.range(k % 15 == 4 ? -box[d] / 2 : 0, int(dims[d]) - box[d] / 2);
    c.coords[0] -= c.coords[0] % (16 / es);
    if (k % 15 == 9) c.coords[0] += 1;  // unaligned: traps
    c.smem_offset = (k % 3) * 128 * (swz ? 1 : 2);
    snprintf(nm, sizeof nm, "store_r%d_%s_%s_%d", rank, dtype_name(dt), swizzle_name(swz), k);
    c.name = nm;
    add(c);
  }
  // J. every reduction over every data type (the ones PTX does not allow are expected to trap).
  for (int r = 0; r < 8; ++r) {
    for (int dt : {U32, I32, U64, I64, F16, BF16, F32, F64, U8, U16, F32FTZ, TF32}) {
      Case c;
      c.op = 2;
      c.redop = r;
      int es = dtype_bytes(dt);
      c.tm = tiled(dt, {64 / es + 16 / es, 6}, {32 / es, 4}, (r + dt) % 2);
      c.coords[0] = (r % 2) ? 16 / es : 0;
      c.coords[1] = (r == 3) ? 4 : 1;
      snprintf(nm, sizeof nm, "reduce_%s_%s", redop_name(r), dtype_name(dt));
      c.name = nm;
      add(c);
    }
  }
  // K. multicast to 2 and 4 CTAs of a cluster.
  for (int n : {2, 4}) {
    for (int k = 0; k < 8; ++k) {
      Case c;
      c.mcast = n;
      c.tm = tiled(k % 2 ? F16 : F32, {96, 40, 3}, {k % 2 ? 64 : 32, 8 + k, 2}, k % 4);
      if (swizzle_span(c.tm.swz) && c.tm.box[0] * dtype_bytes(c.tm.dtype) > swizzle_span(c.tm.swz)) c.tm.swz = 3;
      c.coords[0] = 8 * k - 8;
      c.coords[1] = 4 * k;
      c.coords[2] = k % 3 - 1;
      c.smem_offset = 128 * (k % 4);
      snprintf(nm, sizeof nm, "multicast_x%d_%d", n, k);
      c.name = nm;
      add(c);
    }
  }
  // L. prefetch.
  for (int rank = 1; rank <= 5; ++rank) {
    for (int k = 0; k < 2; ++k) {
      Case c;
      c.op = 3;
      std::vector<ll> dims{64, 9, 5, 4, 3};
      std::vector<int> box{32, 4, 2, 2, 2};
      dims.resize(rank);
      box.resize(rank);
      c.tm = tiled(F16, dims, box, k ? 3 : 0);
      c.coords[0] = k ? -8 : 8;
      snprintf(nm, sizeof nm, "prefetch_r%d_%d", rank, k);
      c.name = nm;
      add(c);
    }
  }
  // M. encodes the driver should reject (and a few at the edge of each rule it should accept).
  {
    auto inv = [&](const char* what, TMap t, ll gbase = 0) {
      Case c;
      c.tm = t;
      c.gbase = gbase;
      c.encode_only = true;
      c.name = std::string("encode_") + what;
      add(c);
    };
    TMap b = tiled(F16, {64, 32}, {64, 8}, 3);
    TMap t;
    t = b; t.rank = 6; t.dims[5] = 2; t.box[5] = 1; set_strides(t); inv("rank6", t);
    t = b; inv("gaddr_8", t, 8);
    t = b; inv("gaddr_16_ok", t, 16);
    t = b; inv("gaddr_1", t, 1);
    t = b; t.dims[1] = 0; inv("dim_zero", t);
    t = b; t.dims[1] = (1ll << 32); inv("dim_2p32", t);
    t = b; t.dims[1] = (1ll << 32) + 1; inv("dim_2p32_plus1", t);
    t = b; t.strides[0] = 136; inv("stride_not16", t);
    t = b; t.strides[0] = 64; inv("stride_lt_row", t);
    t = b; t.strides[0] = 16; inv("stride_16_lt_row", t);
    t = b; t.strides[0] = (1ll << 40); inv("stride_2p40", t);
    t = b; t.strides[0] = (1ll << 40) - 16; inv("stride_2p40_minus16", t);
    t = b; t.box[0] = 0; inv("box_zero", t);
    t = b; t.box[1] = 256; inv("box_256", t);
    t = b; t.box[1] = 257; inv("box_257", t);
    t = b; t.box[0] = 60; inv("box_inner_not16B", t);
    t = b; t.box[0] = 72; t.dims[0] = 128; set_strides(t); inv("box_inner_gt_swizzle128", t);
    t = b; t.swz = 1; t.box[0] = 24; inv("box_inner_gt_swizzle32", t);
    t = b; t.swz = 2; t.box[0] = 40; inv("box_inner_gt_swizzle64", t);
    t = b; t.swz = 0; t.box[0] = 256; t.dims[0] = 256; set_strides(t); inv("box_inner_512B_noswizzle", t);
    t = b; t.estr[1] = 0; inv("estride_zero", t);
    t = b; t.estr[1] = 9; inv("estride_9", t);
    t = b; t.estr[0] = 9; inv("estride0_9", t);
    t = b; t.estr[1] = 8; inv("estride_8_ok", t);
    t = b; t.inter = 1; inv("interleave_rank2", t);
    t = tiled(F16, {16, 8, 4}, {16, 8, 4}, 2); t.inter = 2; set_strides(t, 32); inv("interleave32_swizzle64", t);
    t = tiled(F16, {16, 8, 4}, {16, 8, 4}, 1); t.inter = 2; set_strides(t, 32); inv("interleave32_gaddr16", t, 16);
    t = tiled(F16, {16, 8, 4}, {16, 8, 4}, 1); t.inter = 2; set_strides(t, 16, 16); inv("interleave32_stride48", t);
    t = tiled(F16, {8, 8, 4}, {8, 8, 4}, 0); t.inter = 1; inv("interleave16_ok", t);
    t = tiled(F16, {24, 8, 4}, {24, 8, 4}, 0); t.inter = 1; inv("interleave16_box0_48B", t);
    t = tiled(F16, {4, 8, 4}, {4, 8, 4}, 0); t.inter = 1; inv("interleave16_box0_8B", t);
    t = b; t.dtype = U16; t.oob = 1; inv("oob_nan_uint16", t);
    t = b; t.dtype = I32; t.box[0] = 32; t.oob = 1; inv("oob_nan_int32", t);
    t = b; t.dtype = BF16; t.oob = 1; inv("oob_nan_bf16_ok", t);
    for (int p = P4A8; p <= P6A16; ++p) {
      t = tiled(p, {256, 8}, {128, 4}, 0);
      t.strides[0] = 256;
      char w[64];
      snprintf(w, sizeof w, "packed_%s", dtype_name(p));
      inv(w, t);
    }
    t = b; t.swz = 7; inv("swizzle_enum7", t);
    t = b; t.l2 = 4; inv("l2_enum4", t);
    // im2col rules
    TMap m;
    m.mode = 1; m.dtype = F16; m.rank = 4; m.dims[0] = 32; m.dims[1] = 8; m.dims[2] = 8; m.dims[3] = 2;
    set_strides(m); m.cpp = 32; m.ppc = 16; m.lower[0] = m.lower[1] = -1; m.upper[0] = m.upper[1] = -1;
    m.swz = 3;
    t = m; inv("im2col_ok", t);
    t = m; t.rank = 2; inv("im2col_rank2", t);
    t = m; t.lower[0] = -128; t.upper[0] = 127; inv("im2col_r4_corner_edge_ok", t);
    t = m; t.lower[0] = -129; inv("im2col_r4_corner_lo", t);
    t = m; t.upper[0] = 128; inv("im2col_r4_corner_hi", t);
    t = m; t.cpp = 256; t.swz = 0; t.dims[0] = 256; set_strides(t); inv("im2col_cpp256", t);
    t = m; t.cpp = 257; t.swz = 0; t.dims[0] = 264; set_strides(t); inv("im2col_cpp257", t);
    t = m; t.ppc = 1024; inv("im2col_ppc1024", t);
    t = m; t.ppc = 1025; inv("im2col_ppc1025", t);
    t = m; t.ppc = 0; inv("im2col_ppc0", t);
    t = m; t.cpp = 0; inv("im2col_cpp0", t);
    t = m; t.cpp = 12; inv("im2col_cpp_not16B", t);
    t = m; t.cpp = 128; t.dims[0] = 128; set_strides(t); inv("im2col_inner_gt_swizzle", t);
    t = m; t.lower[0] = 4; t.upper[0] = -5; inv("im2col_zero_area", t);
    t = m; t.lower[0] = 3; t.upper[0] = -5; inv("im2col_area_one", t);
    t = m; t.lower[0] = 5; t.upper[0] = -5; inv("im2col_neg_area", t);
    t = m; t.rank = 3; t.dims[2] = 2; set_strides(t); t.lower[0] = -32768; t.upper[0] = 32767; inv("im2col_r3_corner_edge_ok", t);
    t = m; t.rank = 3; t.dims[2] = 2; set_strides(t); t.lower[0] = -32769; inv("im2col_r3_corner_lo", t);
    t = m; t.rank = 5; t.dims[3] = 4; t.dims[4] = 2; set_strides(t); t.lower[2] = -16; t.upper[2] = 15; inv("im2col_r5_corner_edge_ok", t);
    t = m; t.rank = 5; t.dims[3] = 4; t.dims[4] = 2; set_strides(t); t.lower[2] = -17; inv("im2col_r5_corner_lo", t);
    t = m; t.rank = 5; t.dims[3] = 4; t.dims[4] = 2; set_strides(t); t.upper[2] = 16; inv("im2col_r5_corner_hi", t);
    t = m; t.estr[1] = 9; inv("im2col_estride9", t);
  }
  // N. seeded-random tiled loads over everything at once.
  int target = 1600;
  for (int k = 0; static_cast<int>(cs.size()) < target; ++k) {
    Case c;
    TMap& t = c.tm;
    t.dtype = rng.range(0, TF32FTZ);
    int es = dtype_bytes(t.dtype);
    t.rank = rng.range(1, 5);
    t.swz = rng.range(0, 3);
    int span = t.swz ? swizzle_span(t.swz) : 256;
    int inner_bytes = 16 * rng.range(1, span / 16);
    if (inner_bytes > 128 && rng.range(0, 1)) inner_bytes = 16 * rng.range(1, 8);
    if (t.swz == 3 && inner_bytes < 64) inner_bytes = 64;
    t.box[0] = inner_bytes / es;
    t.dims[0] = std::max<ll>(1, t.box[0] + rng.range(-t.box[0] / 2, 2 * t.box[0]));
    ll elems = t.box[0];
    for (int d = 1; d < t.rank; ++d) {
      int maxb = std::max<ll>(1, std::min<ll>(40, 6000 / (elems * es)));
      t.box[d] = rng.range(1, maxb);
      elems *= t.box[d];
      t.dims[d] = std::max(1, t.box[d] + rng.range(-t.box[d] / 2, 6));
      t.estr[d] = rng.range(0, 5) == 0 ? rng.range(2, 8) : 1;
    }
    if (rng.range(0, 7) == 0) t.estr[0] = rng.range(2, 4);
    t.oob = dtype_float(t.dtype) ? rng.range(0, 1) : 0;
    t.l2 = rng.range(0, 3);
    set_strides(t, 16, 16 * rng.range(0, 2));
    for (int d = 0; d < t.rank; ++d) {
      int lo = -t.box[d], hi = int(t.dims[d]);
      c.coords[d] = rng.range(0, 3) == 0 ? rng.range(lo, hi) : rng.range(0, std::max(0, hi - t.box[d]));
    }
    c.coords[0] -= ((c.coords[0] % (16 / es)) + 16 / es) % (16 / es);
    c.smem_offset = 128 * rng.range(0, 7);
    c.gbase = 16 * rng.range(0, 4);
    c.poison = rng.range(0, 255);
    snprintf(nm, sizeof nm, "rand_%d", k);
    c.name = nm;
    add(c);
  }
  return cs;
}

// ---------------------------------------------------------------------------------------
// The functional kernel
struct KParams {
  int op, redop, mode, rank;
  int c[5];
  int off[3];
  int smem_offset, window, poison;
  unsigned tx;
  int mcast;
  long long timeout;
};
struct KResult {
  unsigned added, extra;  // tx bytes topped up after the time-out / surplus after completion
  int done, hang, extra_done;
  long long latency;
};

__device__ __forceinline__ uint8_t dev_fill(uint32_t i) { return static_cast<uint8_t>((i * 2654435761u) >> 24); }

// Provenance fill for probes: every aligned 4-byte word holds its own word index, so any
// captured word names the global bytes it came from.
__global__ void index_fill_kernel(uint8_t* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = static_cast<uint8_t>((i / 4) >> (8 * (i % 4)));
}

__global__ void fill_kernel(uint8_t* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = dev_fill(static_cast<uint32_t>(i));
}

__global__ void __launch_bounds__(128) case_kernel(const __grid_constant__ CUtensorMap tm, KParams p,
                                                   uint8_t* out, KResult* res) {
  extern __shared__ uint8_t dsm[];
  __shared__ __align__(8) unsigned long long mbar;
  uint32_t raw = smem_u32(dsm);
  uint32_t base = (raw + 1023u) & ~1023u;
  uint8_t* bp = dsm + (base - raw);
  uint32_t crank = 0;
  if (p.mcast > 1) asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
  const bool fill_poison = p.op == 0 || p.op == 3;
  for (int i = threadIdx.x; i < p.window; i += blockDim.x) bp[i] = fill_poison ? uint8_t(p.poison) : dev_fill(i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  uint32_t mb = smem_u32(&mbar);
  if (threadIdx.x == 0) {
    mbar_init(mb, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (p.mcast > 1) asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0) {
    KResult r = {};
    uint32_t dst = base + p.smem_offset;
    if (p.op == 0) {
      mbar_arrive_expect_tx(mb, p.tx);
      long long t0 = clock64();
      if (p.mcast > 1) {
        if (crank == 0) tma_load_tile_mcast(p.rank, dst, &tm, mb, uint16_t((1u << p.mcast) - 1), p.c);
      } else if (p.mode == 0) {
        tma_load_tile(p.rank, dst, &tm, mb, p.c);
      } else {
        tma_load_im2col(p.rank, dst, &tm, mb, p.c, p.off);
      }
      bool done = mbar_wait(mb, 0, p.timeout);
      r.latency = clock64() - t0;
      // Fewer bytes arrived than expected: top the count up 16 bytes at a time to measure it.
      for (unsigned k = 0; !done && k < p.tx / 16 + 64; ++k) {
        mbar_complete_tx(mb, 16);
        r.added += 16;
        done = mbar_test(mb, 0);
      }
      r.done = done;
      r.hang = !done;
      if (done) {
        // More bytes than expected land in the next phase: count them the same way.
        spin_cycles(40000);
        mbar_arrive(mb);
        bool d1 = mbar_test(mb, 1);
        for (unsigned k = 0; !d1 && k < 65536; ++k) {
          mbar_expect_tx(mb, 16);
          r.extra += 16;
          d1 = mbar_test(mb, 1);
        }
        r.extra_done = d1;
      }
    } else if (p.op == 1 || p.op == 2) {
      if (p.op == 1)
        tma_store_tile(p.rank, &tm, dst, p.c);
      else
        tma_reduce(p.redop, p.rank, &tm, dst, p.c);
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
      r.done = 1;
    } else {
      tma_prefetch_tile(p.rank, &tm, p.c);
      r.done = 1;
    }
    res[crank] = r;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < p.window; i += blockDim.x) out[size_t(crank) * p.window + i] = bp[i];
  if (p.mcast > 1) asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

static bool sticky(cudaError_t e) {
  return e == cudaErrorIllegalInstruction || e == cudaErrorIllegalAddress || e == cudaErrorMisalignedAddress ||
         e == cudaErrorLaunchFailure || e == cudaErrorHardwareStackError || e == cudaErrorInvalidPc ||
         e == cudaErrorIllegalState || e == cudaErrorLaunchTimeout || e == cudaErrorAssert ||
         e == cudaErrorTensorMemoryLeak || e == cudaErrorUnknown;
}

static std::string device_line() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int drv = 0;
  CK(cudaDriverGetVersion(&drv));
  return "\"device\":\"" + std::string(prop.name) + "\",\"driver\":\"" + std::to_string(drv / 1000) + "." +
         std::to_string((drv % 1000) / 10) + "\"";
}

// Cases worth running again with the provenance fill: interleaved and im2col loads, whose
// layouts the self-similar fill cannot decode (the section-1 probe, and the coverage capture's).
static bool provenance_worthy(const Case& c) {
  if (c.name.rfind("interleave_", 0) == 0) return true;
  const bool coverage_case = c.name.rfind("dir_", 0) == 0 || c.name.rfind("cov_", 0) == 0;
  return coverage_case && (c.tm.inter || c.tm.mode == 1) && c.op == 0 && c.mcast == 1;
}

// Returns 0 when done, 3 when a sticky error requires a fresh process (next case index in *next).
static int run_functional(const std::vector<Case>& cs, const char* out_path, int start, int* next, bool probe) {
  FILE* f = fopen(out_path, "a");
  if (!f) return 2;
  load_driver();
  std::string dev = device_line();
  CK(cudaFuncSetAttribute(case_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
  CK(cudaFuncSetAttribute(case_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  // TMA_SHARD=k TMA_SHARDS=n: run only the cases whose index is k modulo n (parallel
  // processes on one GPU; a trap ends only its own process).
  const char* shard_env = getenv("TMA_SHARD");
  const char* shards_env = getenv("TMA_SHARDS");
  const int shards = shards_env ? std::max(1, atoi(shards_env)) : 1;
  const int shard = shard_env ? atoi(shard_env) % shards : 0;
  const std::string next_path = std::string(out_path) + ".next";
  // TMA_ONLY=FILE: run only the cases named in FILE (one per line), e.g. to re-run the
  // cases a harness fix made conclusive.
  std::vector<std::string> only;
  if (const char* only_path = getenv("TMA_ONLY")) {
    if (FILE* of = fopen(only_path, "r")) {
      char line[256];
      while (fgets(line, sizeof line, of)) {
        std::string n(line);
        while (!n.empty() && (n.back() == '\n' || n.back() == '\r')) n.pop_back();
        if (!n.empty()) only.push_back(n);
      }
      fclose(of);
    }
  }
  for (int i = start; i < static_cast<int>(cs.size()); ++i) {
    const Case& c = cs[i];
    *next = i + 1;
    if (i % shards != shard) continue;
    if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end()) continue;
    if (probe && !provenance_worthy(c)) continue;
    // Where to go on if this case ends the process in any way (a trap, a time-out, a crash).
    if (FILE* nf = fopen(next_path.c_str(), "w")) {
      fprintf(nf, "%d\n", i + 1);
      fclose(nf);
    }
    const TMap& t = c.tm;
    JsonLine j;
    j.open();
    j.key("name").str(c.name);
    j.key("op").str(op_name(c.op));
    if (c.op == 2) j.key("reduce_op").str(redop_name(c.redop));
    j.key("tensor_map").raw(tmap_json(t));
    j.key("global_base_offset").num(c.gbase);
    if (i == 0) j.raw("," + dev);
    ll extent = std::max<ll>(0, tensor_extent(t));
    ll slack = t.inter ? (1 << 20) : 4096;
    ll gbytes = align_up(c.gbase + std::min<ll>(extent, 1ll << 30) + slack, 256);
    uint8_t* g = nullptr;
    CK(cudaMalloc(&g, gbytes));
    if (probe)
      index_fill_kernel<<<256, 256>>>(g, gbytes);
    else
      fill_kernel<<<256, 256>>>(g, gbytes);
    CK(cudaGetLastError());
    if (probe) j.key("global_fill").str("u32_word_index");
    CUtensorMap map;
    memset(&map, 0, sizeof map);
    CUresult er = encode(&map, t, g + c.gbase);
    j.key("encode_result").str(cu_error_name(er));
    if (er != CUDA_SUCCESS || c.encode_only) {
      j.close();
      fprintf(f, "%s\n", j.text().c_str());
      fflush(f);
      CK(cudaFree(g));
      continue;
    }
    j.key("coords").arr(c.coords, t.rank);
    if (t.mode == 1) j.key("im2col_offsets").arr(c.offs, t.rank - 2);
    j.key("smem_offset").num(c.smem_offset);
    if (c.mcast > 1) j.key("multicast_ctas").num(c.mcast);
    ll tx = tx_guess(t);
    // Swizzled rows narrower than the span are padded to the span in shared memory.
    ll inner_bytes = ll(t.mode == 0 ? t.box[0] : t.cpp) * dtype_bytes(t.dtype);
    ll span = swizzle_span(t.swz);
    ll footprint = (span && inner_bytes < span) ? tx / std::max<ll>(1, inner_bytes) * span : tx;
    // Interleaved rows move whole 16/32-byte units per element of boxDim[0]: up to unit/elementSize
    // times the guess (the first capture's 4x was too small for 32-byte units of fp16).
    if (t.inter) footprint = tx * std::max<ll>(4, (t.inter == 1 ? 16 : 32) / dtype_bytes(t.dtype));
    ll window = align_up(c.smem_offset + footprint + 256, 128);
    if (c.op == 1 || c.op == 2) window = align_up(c.smem_offset + footprint + 128, 1024);
    if (window + 2048 > 220 * 1024) {
      j.key("skipped").str("box larger than shared memory");
      j.close();
      fprintf(f, "%s\n", j.text().c_str());
      fflush(f);
      CK(cudaFree(g));
      continue;
    }
    KParams kp = {};
    kp.op = c.op;
    kp.redop = c.redop;
    kp.mode = t.mode;
    kp.rank = t.rank;
    for (int d = 0; d < 5; ++d) kp.c[d] = c.coords[d];
    for (int d = 0; d < 3; ++d) kp.off[d] = c.offs[d];
    kp.smem_offset = c.smem_offset;
    kp.window = static_cast<int>(window);
    kp.poison = c.poison;
    kp.tx = static_cast<unsigned>(tx);
    kp.mcast = c.mcast;
    kp.timeout = 4000000;
    uint8_t* out = nullptr;
    KResult* res = nullptr;
    CK(cudaMalloc(&out, window * c.mcast));
    CK(cudaMalloc(&res, sizeof(KResult) * 4));
    CK(cudaMemset(res, 0, sizeof(KResult) * 4));
    CK(cudaDeviceSynchronize());
    const ClusterLaunch l(c.mcast, 128, window + 2048, c.mcast);
    const cudaLaunchConfig_t& cfg = l.cfg;
    cudaError_t le = cudaLaunchKernelEx(&cfg, case_kernel, map, kp, out, res);
    if (le == cudaSuccess) le = cudaDeviceSynchronize();
    if (le == cudaSuccess && c.op == 0) {
      // More bytes than the guess never let the first phase complete: expect the most the
      // mbarrier can count and measure the remainder instead.
      KResult k0;
      CK(cudaMemcpy(&k0, res, sizeof k0, cudaMemcpyDeviceToHost));
      if (k0.hang) {
        kp.tx = (1u << 20) - 16;
        CK(cudaMemset(res, 0, sizeof(KResult) * 4));
        le = cudaLaunchKernelEx(&cfg, case_kernel, map, kp, out, res);
        if (le == cudaSuccess) le = cudaDeviceSynchronize();
        tx = kp.tx;
      }
    }
    if (le != cudaSuccess) {
      j.key("launch_error").str(cudaGetErrorName(le));
      j.close();
      fprintf(f, "%s\n", j.text().c_str());
      fflush(f);
      fclose(f);
      if (sticky(le)) return 3;
      cudaGetLastError();
      f = fopen(out_path, "a");
      continue;
    }
    std::vector<uint8_t> host(window * c.mcast);
    KResult kr[4];
    CK(cudaMemcpy(host.data(), out, host.size(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(kr, res, sizeof kr, cudaMemcpyDeviceToHost));
    if (c.op == 0) {
      ll measured = ll(tx) - kr[0].added + kr[0].extra;
      j.key("tx_bytes").num(kr[0].hang ? tx : measured);
      if (kr[0].added || kr[0].extra) j.key("tx_guess").num(tx);
      if (kr[0].hang) j.key("hang").boolean(true);
    }
    if (c.op == 0 || c.op == 3) {
      j.key("smem_window").num(window);
      j.key("poison").num(c.poison);
      j.key("expected_smem_hex").str(to_hex(host.data(), window));
      if (c.mcast > 1) {
        std::string all = "[";
        for (int k = 0; k < c.mcast; ++k) {
          if (k) all += ',';
          all += '"' + to_hex(host.data() + k * window, window) + '"';
        }
        j.key("expected_smem_hex_ctas").raw(all + "]");
      }
    } else {
      std::vector<uint8_t> gh(gbytes);
      CK(cudaMemcpy(gh.data(), g, gbytes, cudaMemcpyDeviceToHost));
      j.key("smem_window").num(window);
      j.key("global_window_offset").num(0);
      j.key("global_window").num(gbytes);
      j.key("expected_global_hex").str(to_hex(gh.data(), gbytes));
    }
    j.close();
    fprintf(f, "%s\n", j.text().c_str());
    fflush(f);
    CK(cudaFree(out));
    CK(cudaFree(res));
    CK(cudaFree(g));
  }
  fclose(f);
  return 0;
}

// ---------------------------------------------------------------------------------------
// Shared-memory access patterns (golden-case.md section 2)
struct Pattern {
  std::string name;
  int op = 0;  // 0 ld, 1 st, 2 ldmatrix, 3 stmatrix
  int width = 4, num = 1;
  bool trans = false;
  int addr[32];
};

static uint32_t swizzle_addr(int swz, uint32_t a) {
  switch (swz) {
    case 1: return a ^ ((a >> 3) & 0x10);
    case 2: return a ^ ((a >> 3) & 0x30);
    case 3: return a ^ ((a >> 3) & 0x70);
    default: return a;
  }
}

static std::vector<Pattern> make_patterns() {
  std::vector<Pattern> ps;
  Rng rng(777);
  char nm[128];
  const char* opn[] = {"ld", "st", "ldmatrix", "stmatrix"};
  auto lanes = [](Pattern& p, auto f) {
    for (int l = 0; l < 32; ++l) p.addr[l] = f(l);
  };
  for (int op = 0; op < 2; ++op) {
    for (int w : {4, 8, 16}) {
      for (int stride : {0, 4, 8, 16, 32, 64, 128, 132, 136, 256, 260, 1024}) {
        if (stride % w && stride != 0) continue;
        Pattern p;
        p.op = op;
        p.width = w;
        lanes(p, [&](int l) { return l * stride; });
        snprintf(nm, sizeof nm, "%s%d_stride%d", opn[op], w * 8, stride);
        p.name = nm;
        ps.push_back(p);
      }
      const char* mn[] = {"even", "first8", "first16", "last1", "every4", "rand"};
      for (int m = 0; m < 6; ++m) {
        uint32_t mask = m == 0 ? 0x55555555u : m == 1 ? 0xffu : m == 2 ? 0xffffu : m == 3 ? 0x80000000u
                        : m == 4 ? 0x11111111u : static_cast<uint32_t>(rng.next());
        for (int stride : {w, 128}) {
          Pattern p;
          p.op = op;
          p.width = w;
          lanes(p, [&](int l) { return (mask >> l) & 1 ? l * stride : -1; });
          snprintf(nm, sizeof nm, "%s%d_inactive_%s_stride%d", opn[op], w * 8, mn[m], stride);
          p.name = nm;
          ps.push_back(p);
        }
      }
      for (int b = 0; b < 4; ++b) {
        Pattern p;
        p.op = op;
        p.width = w;
        // broadcast variants: all one address; two groups; pairs on one word; lanes sharing words 128B apart
        lanes(p, [&](int l) {
          return b == 0 ? 256 : b == 1 ? (l < 16 ? 0 : 512) : b == 2 ? (l / 2) * w : (l % 4) * 128 + (l / 4) * w;
        });
        snprintf(nm, sizeof nm, "%s%d_broadcast_%d", opn[op], w * 8, b);
        p.name = nm;
        ps.push_back(p);
      }
      for (int k = 0; k < (op == 0 ? 24 : 10); ++k) {
        Pattern p;
        p.op = op;
        p.width = w;
        int span = k < 8 ? 512 : 16384;
        lanes(p, [&](int) { return rng.range(0, span / w - 1) * w; });
        snprintf(nm, sizeof nm, "%s%d_random_%d", opn[op], w * 8, k);
        p.name = nm;
        ps.push_back(p);
      }
    }
  }
  for (int op = 2; op < 4; ++op) {
    for (int num : {1, 2, 4}) {
      for (int trans = 0; trans < 2; ++trans) {
        for (int stride : {16, 32, 64, 80, 128, 144, 256}) {
          Pattern p;
          p.op = op;
          p.num = num;
          p.trans = trans;
          lanes(p, [&](int l) { return l < 8 * num ? l * stride : -1; });
          snprintf(nm, sizeof nm, "%s_x%d%s_rowstride%d", opn[op], num, trans ? "_trans" : "", stride);
          p.name = nm;
          ps.push_back(p);
        }
        for (int k = 0; k < 4; ++k) {
          Pattern p;
          p.op = op;
          p.num = num;
          p.trans = trans;
          lanes(p, [&](int l) { return l < 8 * num ? rng.range(0, 255) * 16 : -1; });
          snprintf(nm, sizeof nm, "%s_x%d%s_random_%d", opn[op], num, trans ? "_trans" : "", k);
          p.name = nm;
          ps.push_back(p);
        }
      }
    }
  }
  // Swizzled 64x64 fp16 tiles as the TMA lays them out (box inner = the swizzle span).
  for (int swz = 0; swz <= 3; ++swz) {
    int row_bytes = swz ? swizzle_span(swz) : 128;
    int inner = row_bytes / 2;
    auto at = [&](int r, int c) {
      uint32_t off = uint32_t((c / inner) * 64 * row_bytes + r * row_bytes + (c % inner) * 2);
      return static_cast<int>(swizzle_addr(swz, off));
    };
    const int sub[][2] = {{0, 0}, {16, 16}, {0, 32}, {48, 48}, {8, 0}};
    for (auto& s : sub) {
      for (int op : {2, 3}) {
        for (int trans = 0; trans < 2; ++trans) {
          Pattern p;
          p.op = op;
          p.num = 4;
          p.trans = trans;
          lanes(p, [&](int l) { return at(s[0] + (l % 16), s[1] + (l / 16) * 8); });
          snprintf(nm, sizeof nm, "tile64x64_%s_%s_x4%s_r%d_c%d", swizzle_name(swz), opn[op], trans ? "_trans" : "",
                   s[0], s[1]);
          p.name = nm;
          ps.push_back(p);
        }
      }
    }
    for (int r0 : {0, 8, 24}) {
      Pattern p;  // a row of 16-byte vectors: 4 rows x 8 vectors
      p.op = 0;
      p.width = 16;
      lanes(p, [&](int l) { return at(r0 + l / 8, (l % 8) * 8); });
      snprintf(nm, sizeof nm, "tile64x64_%s_ld128_rows_r%d", swizzle_name(swz), r0);
      p.name = nm;
      ps.push_back(p);
      Pattern q;  // a column of 16-byte vectors
      q.op = 0;
      q.width = 16;
      lanes(q, [&](int l) { return at(l, r0); });
      snprintf(nm, sizeof nm, "tile64x64_%s_ld128_col_c%d", swizzle_name(swz), r0);
      q.name = nm;
      ps.push_back(q);
      Pattern s4;  // a column of 4-byte words
      s4.op = 0;
      s4.width = 4;
      lanes(s4, [&](int l) { return at(l, r0) & ~3; });
      snprintf(nm, sizeof nm, "tile64x64_%s_ld32_col_c%d", swizzle_name(swz), r0);
      s4.name = nm;
      ps.push_back(s4);
      Pattern st;
      st.op = 1;
      st.width = 16;
      lanes(st, [&](int l) { return at(l, r0 + 8); });
      snprintf(nm, sizeof nm, "tile64x64_%s_st128_col_c%d", swizzle_name(swz), r0 + 8);
      st.name = nm;
      ps.push_back(st);
    }
  }
  return ps;
}

__global__ void pat_kernel(const int* addr, int op, int width, int num, int trans, uint32_t* sink) {
  extern __shared__ uint8_t dsm[];
  uint32_t raw = smem_u32(dsm);
  uint32_t base = (raw + 1023u) & ~1023u;
  int lane = threadIdx.x;
  int a = addr[lane];
  uint32_t sa = base + (a < 0 ? 0u : uint32_t(a));
  uint32_t v0 = lane, v1 = lane * 3, v2 = lane * 5, v3 = lane * 7;
  if (op == 0 && a >= 0) {
    if (width == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(sa));
    else if (width == 8) asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(sa));
    else asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(sa));
  } else if (op == 1 && a >= 0) {
    if (width == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(sa), "r"(v0) : "memory");
    else if (width == 8) asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(sa), "r"(v0), "r"(v1) : "memory");
    else asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sa), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
  } else if (op == 2) {
#define LDSM(X, T, ...) asm volatile("ldmatrix.sync.aligned.m8n8." X T ".shared.b16 " __VA_ARGS__)
    if (num == 1 && !trans) LDSM("x1", "", "{%0}, [%1];" : "=r"(v0) : "r"(sa));
    if (num == 1 && trans) LDSM("x1", ".trans", "{%0}, [%1];" : "=r"(v0) : "r"(sa));
    if (num == 2 && !trans) LDSM("x2", "", "{%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(sa));
    if (num == 2 && trans) LDSM("x2", ".trans", "{%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(sa));
    if (num == 4 && !trans) LDSM("x4", "", "{%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(sa));
    if (num == 4 && trans) LDSM("x4", ".trans", "{%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(sa));
#undef LDSM
  } else if (op == 3) {
#define STSM(X, T, ...) asm volatile("stmatrix.sync.aligned.m8n8." X T ".shared.b16 " __VA_ARGS__ : "memory")
    if (num == 1 && !trans) STSM("x1", "", "[%0], {%1};" ::"r"(sa), "r"(v0));
    if (num == 1 && trans) STSM("x1", ".trans", "[%0], {%1};" ::"r"(sa), "r"(v0));
    if (num == 2 && !trans) STSM("x2", "", "[%0], {%1, %2};" ::"r"(sa), "r"(v0), "r"(v1));
    if (num == 2 && trans) STSM("x2", ".trans", "[%0], {%1, %2};" ::"r"(sa), "r"(v0), "r"(v1));
    if (num == 4 && !trans) STSM("x4", "", "[%0], {%1, %2, %3, %4};" ::"r"(sa), "r"(v0), "r"(v1), "r"(v2), "r"(v3));
    if (num == 4 && trans) STSM("x4", ".trans", "[%0], {%1, %2, %3, %4};" ::"r"(sa), "r"(v0), "r"(v1), "r"(v2), "r"(v3));
#undef STSM
  }
  sink[lane] = v0 ^ v1 ^ v2 ^ v3;
}

static int run_patterns(const char* list_path) {
  std::vector<Pattern> ps = make_patterns();
  FILE* f = fopen(list_path, "w");
  if (!f) return 2;
  const char* opn[] = {"ld", "st", "ldmatrix", "stmatrix"};
  for (auto& p : ps) {
    JsonLine j;
    j.open();
    j.key("name").str(p.name);
    j.key("op").str(opn[p.op]);
    if (p.op < 2) j.key("width").num(p.width);
    else {
      j.key("num").num(p.num);
      j.key("trans").boolean(p.trans);
    }
    j.key("addr").arr(p.addr, 32);
    j.close();
    fprintf(f, "%s\n", j.text().c_str());
  }
  fclose(f);
  int* da;
  uint32_t* sink;
  CK(cudaMalloc(&da, 32 * sizeof(int)));
  CK(cudaMalloc(&sink, 32 * sizeof(uint32_t)));
  CK(cudaFuncSetAttribute(pat_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 * 1024));
  for (auto& p : ps) {
    CK(cudaMemcpy(da, p.addr, sizeof p.addr, cudaMemcpyHostToDevice));
    pat_kernel<<<1, 32, 80 * 1024>>>(da, p.op, p.width, p.num, p.trans, sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }
  printf("%zu patterns executed\n", ps.size());
  return 0;
}

// ---------------------------------------------------------------------------------------
// Timing (golden-case.md section 3)
struct BurstParams {
  int rank, loads, op;
  int c0[5], step[5];
  int slot;
  unsigned tx_total;
  long long timeout;
  int prewarm;  // issue probe: run the same issue loop once, untimed, on boxes 4096 rows away
};
struct BurstResult {
  long long issue, total;
  int ok;
};

__global__ void burst_kernel(const __grid_constant__ CUtensorMap tm, BurstParams p, BurstResult* out) {
  extern __shared__ uint8_t dsm[];
  __shared__ __align__(8) unsigned long long mbar;
  uint32_t raw = smem_u32(dsm);
  uint32_t base = (raw + 1023u) & ~1023u;
  if (threadIdx.x != 0) return;
  uint32_t mb = smem_u32(&mbar);
  mbar_init(mb, 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  int c[5];
  BurstResult r = {};
  if (p.op == 0) {
    // Round 0 of a prewarmed probe: the same loop, untimed, on other rows (its first pass pays
    // whatever one-time costs the loop has: instruction and constant caches, the descriptor).
    for (int round = p.prewarm ? 0 : 1; round <= 1; ++round) {
      const int far = round == 0 ? 4096 : 0;
      mbar_arrive_expect_tx(mb, p.tx_total);
      long long t0 = clock64();
      for (int k = 0; k < p.loads; ++k) {
        for (int d = 0; d < 5; ++d) c[d] = p.c0[d] + k * p.step[d] + (d == 1 ? far : 0);
        tma_load_tile(p.rank, base + k * p.slot, &tm, mb, c);
      }
      long long t1 = clock64();
      r.ok = mbar_wait(mb, round == 0 ? 0 : (p.prewarm ? 1 : 0), p.timeout);
      long long t2 = clock64();
      r.issue = t1 - t0;
      r.total = t2 - t0;
      if (!r.ok) break;
    }
  } else {
    long long t0 = clock64();
    for (int k = 0; k < p.loads; ++k) {
      for (int d = 0; d < 5; ++d) c[d] = p.c0[d] + k * p.step[d];
      tma_store_tile(p.rank, &tm, base + k * p.slot, c);
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    long long t1 = clock64();
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    long long t2 = clock64();
    r.issue = t1 - t0;
    r.total = t2 - t0;
    r.ok = 1;
  }
  *out = r;
}

// Issue probe: one rank-2 load whose coordinates are in registers before the clock is read (no
// loop, no runtime rank), after an untimed load of rows 4096 further: from just before its issue
// to the data's arrival, the latency the burst loop's slots hide.
__global__ void first_load_kernel(const __grid_constant__ CUtensorMap tm, BurstParams p, BurstResult* out) {
  extern __shared__ uint8_t dsm[];
  __shared__ __align__(8) unsigned long long mbar;
  uint32_t base = (smem_u32(dsm) + 1023u) & ~1023u;
  if (threadIdx.x != 0) return;
  uint32_t mb = smem_u32(&mbar);
  mbar_init(mb, 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  BurstResult r = {};
  int warm_c[5] = {p.c0[0], p.c0[1] + 4096, 0, 0, 0};
  mbar_arrive_expect_tx(mb, p.tx_total);
  tma_load_tile(2, base, &tm, mb, warm_c);
  r.ok = mbar_wait(mb, 0, p.timeout);
  int c[5] = {p.c0[0], p.c0[1], 0, 0, 0};
  mbar_arrive_expect_tx(mb, p.tx_total);
  asm volatile("" ::"r"(c[0]), "r"(c[1]) : "memory");
  long long t0 = clock64();
  tma_load_tile(2, base, &tm, mb, c);
  long long t1 = clock64();
  r.ok &= mbar_wait(mb, 1, p.timeout);
  long long t2 = clock64();
  r.issue = t1 - t0;
  r.total = t2 - t0;
  *out = r;
}

// Multicast burst: CTA 0 of a cluster issues `loads` multicast loads; every CTA waits for its
// copy on its own mbarrier. CTA 0's thread 0 times issue and completion.
__global__ void mcast_burst_kernel(const __grid_constant__ CUtensorMap tm, BurstParams p, int ctas,
                                   BurstResult* out) {
  extern __shared__ uint8_t dsm[];
  __shared__ __align__(8) unsigned long long mbar;
  uint32_t raw = smem_u32(dsm);
  uint32_t base = (raw + 1023u) & ~1023u;
  uint32_t crank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
  uint32_t mb = smem_u32(&mbar);
  if (threadIdx.x == 0) {
    mbar_init(mb, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    mbar_arrive_expect_tx(mb, p.tx_total);
  }
  __syncthreads();
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0) {
    BurstResult r = {};
    int c[5];
    long long t0 = clock64();
    if (crank == 0) {
      for (int k = 0; k < p.loads; ++k) {
        for (int d = 0; d < 5; ++d) c[d] = p.c0[d] + k * p.step[d];
        tma_load_tile_mcast(p.rank, base + k * p.slot, &tm, mb, uint16_t((1u << ctas) - 1), c);
      }
    }
    long long t1 = clock64();
    r.ok = mbar_wait(mb, 0, p.timeout);
    long long t2 = clock64();
    r.issue = t1 - t0;
    r.total = t2 - t0;
    if (crank == 0) *out = r;
  }
  __syncthreads();
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

struct StreamParams {
  int tiles, stages, box1;
  unsigned bytes;
  int slot;
  long long timeout;
};

__global__ void stream_kernel(const __grid_constant__ CUtensorMap tm, StreamParams p, int* fail) {
  extern __shared__ uint8_t dsm[];
  __shared__ __align__(8) unsigned long long full[8];
  uint32_t raw = smem_u32(dsm);
  uint32_t base = (raw + 1023u) & ~1023u;
  if (threadIdx.x != 0) return;
  for (int s = 0; s < p.stages; ++s) mbar_init(smem_u32(&full[s]), 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  int i = 0;
  for (int t = blockIdx.x; t < p.tiles; t += gridDim.x, ++i) {
    int s = i % p.stages;
    uint32_t mb = smem_u32(&full[s]);
    if (i >= p.stages && !mbar_wait(mb, ((i / p.stages) - 1) & 1, p.timeout)) {
      atomicAdd(fail, 1);
      return;
    }
    mbar_arrive_expect_tx(mb, p.bytes);
    int c[5] = {0, t * p.box1, 0, 0, 0};
    tma_load_tile(2, base + s * p.slot, &tm, mb, c);
  }
  for (int k = (i > p.stages ? i - p.stages : 0); k < i; ++k) {
    if (!mbar_wait(smem_u32(&full[k % p.stages]), (k / p.stages) & 1, p.timeout)) atomicAdd(fail, 1);
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The fields every burst record ends with: the burst's shape, the cycle statistics over the
// repetitions (`total` sorted), and the machine.
static void burst_tail(JsonLine& j, int loads, const int* step, int rank, const std::vector<double>& issue,
                       const std::vector<double>& total, int reps, const char* mach) {
  j.key("loads").num(loads);
  int zero[5] = {};
  j.key("coords0").arr(zero, rank);
  j.key("coords_step").arr(step, rank);
  j.key("issue_cycles").num(ll(median(issue)));
  j.key("total_cycles").num(ll(median(total)));
  j.key("total_cycles_min").num(ll(total.front()));
  j.key("total_cycles_max").num(ll(total.back()));
  j.key("reps").num(reps);
  j.raw("," + std::string(mach));
  j.close();
}

// probe: only the issue probe (bursts of 1, 2 and 8 loads with and without an untimed first
// pass of the same loop), not the whole timing set.
static int run_timing(const char* out_path, bool probe = false) {
  load_driver();
  FILE* f = fopen(out_path, "w");
  if (!f) return 2;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  char mach[512];
  snprintf(mach, sizeof mach, "\"sm_clock_mhz\":%d,\"sms\":%d,\"l2_bytes\":%d,\"device\":\"%s\"", clock_khz / 1000,
           prop.multiProcessorCount, prop.l2CacheSize, prop.name);
  const size_t flush_bytes = size_t(256) << 20;
  uint8_t* flush = nullptr;
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaFuncSetAttribute(burst_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
  CK(cudaFuncSetAttribute(stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
  const size_t gbytes = size_t(64) << 20;
  uint8_t* g = nullptr;
  CK(cudaMalloc(&g, gbytes));
  fill_kernel<<<1024, 256>>>(g, gbytes);
  BurstResult* dres;
  CK(cudaMalloc(&dres, sizeof(BurstResult)));
  const int reps = 7;

  CK(cudaFuncSetAttribute(first_load_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
  auto burst = [&](TMap t, int loads, int op, bool cold, std::vector<int> step, int prewarm = 0) {
    CUtensorMap map;
    if (encode(&map, t, g) != CUDA_SUCCESS) {
      fprintf(stderr, "timing encode failed\n");
      return;
    }
    BurstParams bp = {};
    bp.rank = t.rank;
    bp.loads = loads;
    bp.op = op;
    for (int d = 0; d < t.rank; ++d) bp.step[d] = step[d];
    ll bytes = tx_guess(t);
    bp.slot = static_cast<int>(align_up(bytes, 1024));
    bp.tx_total = static_cast<unsigned>(bytes * loads);
    bp.timeout = 50000000;
    bp.prewarm = prewarm;
    size_t smem = size_t(bp.slot) * loads + 1024;
    if (smem > 220 * 1024) return;
    std::vector<double> issue, total;
    for (int r = 0; r < reps + 1; ++r) {
      const bool first_load = prewarm == 2;  // the issue probe's single register-coordinate load
      if (cold) CK(cudaMemset(flush, r, flush_bytes));
      else if (first_load) first_load_kernel<<<1, 32, smem>>>(map, bp, dres);
      else burst_kernel<<<1, 32, smem>>>(map, bp, dres);
      if (first_load) first_load_kernel<<<1, 32, smem>>>(map, bp, dres);
      else burst_kernel<<<1, 32, smem>>>(map, bp, dres);
      CK(cudaGetLastError());
      BurstResult br;
      CK(cudaMemcpy(&br, dres, sizeof br, cudaMemcpyDeviceToHost));
      if (!br.ok) {
        fprintf(stderr, "burst timed out\n");
        return;
      }
      if (r == 0) continue;  // warm-up of the launch path
      issue.push_back(double(br.issue));
      total.push_back(double(br.total));
    }
    std::sort(total.begin(), total.end());
    JsonLine j;
    j.open();
    j.key("kind").str("burst");
    if (op) j.key("op").str("store");
    j.key("tensor_map").raw(tmap_json(t));
    j.key("l2").str(cold ? "cold" : "warm");
    if (prewarm == 1) j.key("prewarm").num(1);
    if (prewarm == 2) j.key("first_load").num(1);
    burst_tail(j, loads, bp.step, t.rank, issue, total, reps, mach);
    fprintf(f, "%s\n", j.text().c_str());
    fflush(f);
  };

  if (probe) {
    for (int rows : {1, 16})
      for (int loads : {1, 2, 8})
        for (int cold = 1; cold >= 0; --cold)
          for (int prewarm = 0; prewarm <= (loads == 1 ? 2 : 1); ++prewarm)
            burst(tiled(F16, {4096, 8192}, {64, rows}, 3), loads, 0, cold, {64, 0}, prewarm);
    fclose(f);
    return 0;
  }
  // Latency and burst throughput against box size, per swizzle mode, cold and warm.
  for (int swz = 0; swz <= 3; ++swz) {
    int inner_bytes = swz ? swizzle_span(swz) : 128;
    for (int rows : {1, 4, 16, 64, 256}) {
      for (int loads : {1, 8}) {
        for (int cold = 1; cold >= 0; --cold) {
          TMap t = tiled(F16, {4096, 8192}, {inner_bytes / 2, rows}, swz);
          burst(t, loads, 0, cold, {inner_bytes / 2, 0});
        }
      }
    }
  }
  // Multicast to 2 and 4 CTAs of a cluster, warm L2, against box size.
  CK(cudaFuncSetAttribute(mcast_burst_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
  for (int ctas : {2, 4}) {
    for (int rows : {1, 16, 64, 256}) {
      for (int loads : {1, 4}) {
        TMap t = tiled(F16, {4096, 8192}, {64, rows}, 3);
        CUtensorMap map;
        if (encode(&map, t, g) != CUDA_SUCCESS) continue;
        BurstParams bp = {};
        bp.rank = 2;
        bp.loads = loads;
        bp.step[0] = 64;
        ll bytes = tx_guess(t);
        bp.slot = static_cast<int>(align_up(bytes, 1024));
        bp.tx_total = static_cast<unsigned>(bytes * loads);
        bp.timeout = 50000000;
        size_t smem = size_t(bp.slot) * loads + 1024;
        if (smem > 220 * 1024) continue;
        const ClusterLaunch l(ctas, 32, smem, ctas);
        const cudaLaunchConfig_t& cfg = l.cfg;
        std::vector<double> issue, total;
        bool ok = true;
        for (int r = 0; r < reps + 2; ++r) {
          CK(cudaLaunchKernelEx(&cfg, mcast_burst_kernel, map, bp, ctas, dres));
          CK(cudaDeviceSynchronize());
          BurstResult br;
          CK(cudaMemcpy(&br, dres, sizeof br, cudaMemcpyDeviceToHost));
          if (!br.ok) ok = false;
          if (r < 2) continue;  // launch warm-up, then the L2 warm-up
          issue.push_back(double(br.issue));
          total.push_back(double(br.total));
        }
        if (!ok) {
          fprintf(stderr, "multicast burst timed out\n");
          continue;
        }
        std::sort(total.begin(), total.end());
        JsonLine j;
        j.open();
        j.key("kind").str("burst");
        j.key("multicast").num(ctas);
        j.key("tensor_map").raw(tmap_json(t));
        j.key("l2").str("warm");
        burst_tail(j, loads, bp.step, 2, issue, total, reps, mach);
        fprintf(f, "%s\n", j.text().c_str());
        fflush(f);
      }
    }
  }
  // Issue rate of small loads.
  for (int loads : {4, 16, 32}) {
    TMap t = tiled(F16, {4096, 8192}, {8, 1}, 0);
    burst(t, loads, 0, false, {0, 1});
  }
  // Store timing.
  for (int rows : {1, 16, 64}) {
    for (int loads : {1, 4}) {
      TMap t = tiled(F16, {4096, 8192}, {64, rows}, 3);
      burst(t, loads, 1, false, {64, 0});
    }
  }
  // Chip-wide streaming through the TMA, 1 and 2 CTAs per SM.
  {
    const size_t sbytes = size_t(1) << 30;
    uint8_t* sbuf = nullptr;
    CK(cudaMalloc(&sbuf, sbytes));
    CK(cudaMemset(sbuf, 1, sbytes));
    int* fail;
    CK(cudaMalloc(&fail, sizeof(int)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int rows : {64, 128, 256}) {
      for (int per_sm : {1, 2}) {
        for (int stages : {2, 4}) {
          TMap t = tiled(F16, {64, ll(sbytes / 128)}, {64, rows}, 3);
          ll tile_bytes = 128ll * rows;
          if (stages * align_up(tile_bytes, 1024) * per_sm > 200 * 1024) continue;
          CUtensorMap map;
          if (encode(&map, t, sbuf) != CUDA_SUCCESS) continue;
          StreamParams sp = {};
          sp.tiles = static_cast<int>(sbytes / tile_bytes);
          sp.stages = stages;
          sp.box1 = rows;
          sp.bytes = static_cast<unsigned>(tile_bytes);
          sp.slot = static_cast<int>(align_up(tile_bytes, 1024));
          sp.timeout = 200000000;
          int ctas = prop.multiProcessorCount * per_sm;
          size_t smem = size_t(sp.slot) * stages + 1024;
          std::vector<double> gbps;
          CK(cudaMemset(fail, 0, sizeof(int)));
          for (int r = 0; r < 6; ++r) {
            CK(cudaEventRecord(e0));
            stream_kernel<<<ctas, 32, smem>>>(map, sp, fail);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaGetLastError());
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r) gbps.push_back(double(sp.tiles) * tile_bytes / (ms * 1e6));
          }
          int hfail = 0;
          CK(cudaMemcpy(&hfail, fail, sizeof(int), cudaMemcpyDeviceToHost));
          std::sort(gbps.begin(), gbps.end());
          JsonLine j;
          j.open();
          j.key("kind").str("stream");
          j.key("tensor_map").raw(tmap_json(t));
          j.key("l2").str("cold");
          j.key("ctas").num(ctas);
          j.key("stages").num(stages);
          j.key("tiles").num(sp.tiles);
          j.key("GBps").real(median(gbps));
          j.key("GBps_min").real(gbps.front());
          j.key("GBps_max").real(gbps.back());
          if (hfail) j.key("timeouts").num(hfail);
          j.raw("," + std::string(mach));
          j.close();
          fprintf(f, "%s\n", j.text().c_str());
          fflush(f);
        }
      }
    }
    // Device-to-device copy of the same buffer size, for comparison.
    uint8_t* dst = nullptr;
    CK(cudaMalloc(&dst, sbytes));
    std::vector<double> gbps;
    for (int r = 0; r < 6; ++r) {
      CK(cudaEventRecord(e0));
      CK(cudaMemcpy(dst, sbuf, sbytes, cudaMemcpyDeviceToDevice));
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (r) gbps.push_back(double(sbytes) / (ms * 1e6));
    }
    std::sort(gbps.begin(), gbps.end());
    fprintf(f, "{\"kind\":\"d2d_copy\",\"bytes\":%zu,\"GBps\":%.6g,\"GBps_read_plus_write\":%.6g,%s}\n", sbytes,
            median(gbps), 2 * median(gbps), mach);
    CK(cudaFree(dst));
    CK(cudaFree(sbuf));
  }
  fclose(f);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 2 && !strcmp(argv[1], "count")) {
    auto cs = make_cases();
    ll tot = 0; int enc = 0;
    for (auto& c : cs) { if (c.encode_only) { ++enc; continue; } ll tx = tx_guess(c.tm); tot += c.smem_offset + tx + 256; }
    printf("%zu cases (%d encode-only), ~%lld window bytes\n", cs.size(), enc, tot);
    return 0;
  }
  const bool coverage = argc >= 4 && (!strcmp(argv[1], "coverage") || !strcmp(argv[1], "coverage-probe"));
  const bool probe = argc >= 4 && (!strcmp(argv[1], "probe") || !strcmp(argv[1], "coverage-probe"));
  if (argc >= 4 && (!strcmp(argv[1], "functional") || probe || coverage)) {
    int next = 0;
    int rc = run_functional(coverage ? make_coverage_cases() : make_cases(), argv[2], atoi(argv[3]), &next, probe);
    if (rc == 3) {
      FILE* nf = fopen((std::string(argv[2]) + ".next").c_str(), "w");
      if (nf) {
        fprintf(nf, "%d\n", next);
        fclose(nf);
      }
    }
    return rc;
  }
  if (argc >= 3 && !strcmp(argv[1], "names")) {  // case names in list order, to merge shards
    for (const Case& c : strcmp(argv[2], "functional") ? make_coverage_cases() : make_cases()) printf("%s\n", c.name.c_str());
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "coverage-report")) {
    std::vector<std::string> records;
    FILE* f = fopen(argv[2], "r");
    if (!f) return 2;
    std::string cur;
    for (int ch; (ch = fgetc(f)) != EOF;) {
      if (ch != '\n') {
        cur += static_cast<char>(ch);
      } else if (!cur.empty()) {
        records.push_back(cur);
        cur.clear();
      }
    }
    fclose(f);
    return coverage_report(make_coverage_cases(), records, stdout) ? 1 : 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "patterns")) return run_patterns(argv[2]);
  if (argc >= 3 && !strcmp(argv[1], "timing")) return run_timing(argv[2]);
  if (argc >= 3 && !strcmp(argv[1], "issue-probe")) return run_timing(argv[2], true);
  fprintf(stderr, "usage: tma_ref count | functional OUT START | coverage OUT START | coverage-report OUT | patterns LIST | timing OUT\n");
  return 1;
}
