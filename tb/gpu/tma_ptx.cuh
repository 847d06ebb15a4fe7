// PTX wrappers for the bulk tensor copies the harness exercises. Each wrapper issues
// exactly one instruction; the rank (and reduce op) is a run-time switch so one kernel
// covers every case.
#pragma once
#include <cstdint>

#include "../../model/cuda/ptx_common.cuh"

namespace ref {

using tmasim_ptx::mbar_arrive;
using tmasim_ptx::mbar_arrive_expect_tx;
using tmasim_ptx::mbar_init;
using tmasim_ptx::smem_u32;

#define TMA_C1 "{%3}"
#define TMA_C2 "{%3, %4}"
#define TMA_C3 "{%3, %4, %5}"
#define TMA_C4 "{%3, %4, %5, %6}"
#define TMA_C5 "{%3, %4, %5, %6, %7}"

__device__ __forceinline__ void tma_load_tile(int rank, uint32_t dst, const void* tm, uint32_t mbar,
                                              const int* c) {
  uint64_t t = reinterpret_cast<uint64_t>(tm);
#define LD(N, C, ...)                                                                            \
  asm volatile("cp.async.bulk.tensor." #N "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" \
               " [%0], [%1, " C "], [%2];" ::"r"(dst), "l"(t), "r"(mbar), __VA_ARGS__ : "memory")
  switch (rank) {
    case 1: LD(1, TMA_C1, "r"(c[0])); break;
    case 2: LD(2, TMA_C2, "r"(c[0]), "r"(c[1])); break;
    case 3: LD(3, TMA_C3, "r"(c[0]), "r"(c[1]), "r"(c[2])); break;
    case 4: LD(4, TMA_C4, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 5: LD(5, TMA_C5, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])); break;
  }
#undef LD
}

#define TMA_M1 "{%4}"
#define TMA_M2 "{%4, %5}"
#define TMA_M3 "{%4, %5, %6}"
#define TMA_M4 "{%4, %5, %6, %7}"
#define TMA_M5 "{%4, %5, %6, %7, %8}"

__device__ __forceinline__ void tma_load_tile_mcast(int rank, uint32_t dst, const void* tm, uint32_t mbar,
                                                    uint16_t mask, const int* c) {
  uint64_t t = reinterpret_cast<uint64_t>(tm);
#define LD(N, C, ...)                                                                               \
  asm volatile("cp.async.bulk.tensor." #N                                                          \
               "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"     \
               " [%0], [%1, " C "], [%2], %3;" ::"r"(dst), "l"(t), "r"(mbar), "h"(mask), __VA_ARGS__ \
               : "memory")
  switch (rank) {
    case 1: LD(1, TMA_M1, "r"(c[0])); break;
    case 2: LD(2, TMA_M2, "r"(c[0]), "r"(c[1])); break;
    case 3: LD(3, TMA_M3, "r"(c[0]), "r"(c[1]), "r"(c[2])); break;
    case 4: LD(4, TMA_M4, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 5: LD(5, TMA_M5, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])); break;
  }
#undef LD
}

__device__ __forceinline__ void tma_load_im2col(int rank, uint32_t dst, const void* tm, uint32_t mbar,
                                                const int* c, const int* off) {
  uint64_t t = reinterpret_cast<uint64_t>(tm);
  uint16_t o0 = static_cast<uint16_t>(off[0]), o1 = static_cast<uint16_t>(off[1]),
           o2 = static_cast<uint16_t>(off[2]);
  switch (rank) {
    case 3:
      asm volatile(
          "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%3, %4, %5}], [%2], {%6};" ::"r"(dst),
          "l"(t), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "h"(o0)
          : "memory");
      break;
    case 4:
      asm volatile(
          "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%3, %4, %5, %6}], [%2], {%7, %8};" ::"r"(dst),
          "l"(t), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "h"(o0), "h"(o1)
          : "memory");
      break;
    case 5:
      asm volatile(
          "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%3, %4, %5, %6, %7}], [%2], {%8, %9, %10};" ::"r"(dst),
          "l"(t), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "h"(o0), "h"(o1),
          "h"(o2)
          : "memory");
      break;
  }
}

#define TMA_S1 "{%2}"
#define TMA_S2 "{%2, %3}"
#define TMA_S3 "{%2, %3, %4}"
#define TMA_S4 "{%2, %3, %4, %5}"
#define TMA_S5 "{%2, %3, %4, %5, %6}"

#define TMA_RANK_SWITCH(ISSUE)                                                           \
  switch (rank) {                                                                        \
    case 1: ISSUE(1, TMA_S1, "r"(c[0])); break;                                          \
    case 2: ISSUE(2, TMA_S2, "r"(c[0]), "r"(c[1])); break;                               \
    case 3: ISSUE(3, TMA_S3, "r"(c[0]), "r"(c[1]), "r"(c[2])); break;                    \
    case 4: ISSUE(4, TMA_S4, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;         \
    case 5: ISSUE(5, TMA_S5, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])); break; \
  }

__device__ __forceinline__ void tma_store_tile(int rank, const void* tm, uint32_t src, const int* c) {
  uint64_t t = reinterpret_cast<uint64_t>(tm);
#define ST(N, C, ...)                                                                       \
  asm volatile("cp.async.bulk.tensor." #N "d.global.shared::cta.tile.bulk_group [%0, " C \
               "], [%1];" ::"l"(t), "r"(src), __VA_ARGS__ : "memory")
  TMA_RANK_SWITCH(ST)
#undef ST
}

#define TMA_RED_FN(OP)                                                                           \
  __device__ __forceinline__ void tma_reduce_##OP(int rank, uint64_t t, uint32_t src, const int* c) { \
    TMA_RANK_SWITCH(RD_##OP)                                                                     \
  }
#define TMA_RED_ASM(OP, N, C, ...)                                                                  \
  asm volatile("cp.reduce.async.bulk.tensor." #N "d.global.shared::cta." #OP ".tile.bulk_group [%0, " C \
               "], [%1];" ::"l"(t), "r"(src), __VA_ARGS__ : "memory")
#define RD_add(N, C, ...) TMA_RED_ASM(add, N, C, __VA_ARGS__)
#define RD_min(N, C, ...) TMA_RED_ASM(min, N, C, __VA_ARGS__)
#define RD_max(N, C, ...) TMA_RED_ASM(max, N, C, __VA_ARGS__)
#define RD_inc(N, C, ...) TMA_RED_ASM(inc, N, C, __VA_ARGS__)
#define RD_dec(N, C, ...) TMA_RED_ASM(dec, N, C, __VA_ARGS__)
#define RD_and(N, C, ...) TMA_RED_ASM(and, N, C, __VA_ARGS__)
#define RD_or(N, C, ...) TMA_RED_ASM(or, N, C, __VA_ARGS__)
#define RD_xor(N, C, ...) TMA_RED_ASM(xor, N, C, __VA_ARGS__)
TMA_RED_FN(add)
TMA_RED_FN(min)
TMA_RED_FN(max)
TMA_RED_FN(inc)
TMA_RED_FN(dec)
TMA_RED_FN(and)
TMA_RED_FN(or)
TMA_RED_FN(xor)

__device__ __forceinline__ void tma_reduce(int op, int rank, const void* tm, uint32_t src, const int* c) {
  uint64_t t = reinterpret_cast<uint64_t>(tm);
  switch (op) {
    case 0: tma_reduce_add(rank, t, src, c); break;
    case 1: tma_reduce_min(rank, t, src, c); break;
    case 2: tma_reduce_max(rank, t, src, c); break;
    case 3: tma_reduce_inc(rank, t, src, c); break;
    case 4: tma_reduce_dec(rank, t, src, c); break;
    case 5: tma_reduce_and(rank, t, src, c); break;
    case 6: tma_reduce_or(rank, t, src, c); break;
    case 7: tma_reduce_xor(rank, t, src, c); break;
  }
}

__device__ __forceinline__ void tma_prefetch_tile(int rank, const void* tm, const int* c) {
  uint64_t t = reinterpret_cast<uint64_t>(tm);
#define PF(N, C, ...) \
  asm volatile("cp.async.bulk.prefetch.tensor." #N "d.L2.global.tile [%0, " C "];" ::"l"(t), __VA_ARGS__ : "memory")
#define TMA_P1 "{%1}"
#define TMA_P2 "{%1, %2}"
#define TMA_P3 "{%1, %2, %3}"
#define TMA_P4 "{%1, %2, %3, %4}"
#define TMA_P5 "{%1, %2, %3, %4, %5}"
  switch (rank) {
    case 1: PF(1, TMA_P1, "r"(c[0])); break;
    case 2: PF(2, TMA_P2, "r"(c[0]), "r"(c[1])); break;
    case 3: PF(3, TMA_P3, "r"(c[0]), "r"(c[1]), "r"(c[2])); break;
    case 4: PF(4, TMA_P4, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 5: PF(5, TMA_P5, "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])); break;
  }
#undef PF
}


__device__ __forceinline__ void mbar_expect_tx(uint32_t mb, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(mb), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_complete_tx(uint32_t mb, uint32_t bytes) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(mb), "r"(bytes) : "memory");
}
__device__ __forceinline__ bool mbar_test(uint32_t mb, uint32_t parity) {
  uint32_t ok;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
      : "=r"(ok)
      : "r"(mb), "r"(parity)
      : "memory");
  return ok != 0;
}
// Every wait has a deadline: returns false when `timeout` cycles pass first.
__device__ __forceinline__ bool mbar_wait(uint32_t mb, uint32_t parity, long long timeout) {
  long long t0 = clock64();
  while (!mbar_test(mb, parity)) {
    if (clock64() - t0 > timeout) return false;
  }
  return true;
}
__device__ __forceinline__ void spin_cycles(long long n) { tmasim_ptx::spin(n); }

}  // namespace ref
