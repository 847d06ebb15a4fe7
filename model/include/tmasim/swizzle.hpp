// Shared-memory swizzling as the TMA applies it: a function of the absolute
// shared-memory byte address, so a destination that is not aligned to the pattern's
// repeat starts part-way into it (the base-offset rule).
//
// Each mode is a CuTe Swizzle<B, M, S>: the B bits above bit M+S are XORed into the
// B bits above bit M. The 128B atomicity sub-modes permute 32B or 64B chunks instead
// of 16B ones, and the 8B flip also swaps the two 8-byte halves of each 16-byte chunk
// on alternate 128-byte rows.
#pragma once
#include <cstdint>

#include "tmasim/types.hpp"

namespace tmasim {

struct CuteSwizzle {
  int bits = 0;   // B: how many bits are permuted
  int base = 0;   // M: the lowest permuted bit (log2 of the chunk size)
  int shift = 0;  // S: distance from the permuted bits to the bits XORed into them

  constexpr uint32_t yyy_mask() const { return ((1u << bits) - 1u) << (base + shift); }
  constexpr uint32_t apply(uint32_t addr) const {
    return bits == 0 ? addr : addr ^ ((addr & yyy_mask()) >> shift);
  }
  // Bytes after which the pattern repeats.
  constexpr uint32_t repeat_bytes() const { return bits == 0 ? 1u : 1u << (base + shift + bits); }
};

constexpr CuteSwizzle cute_swizzle(Swizzle mode) {
  switch (mode) {
    case Swizzle::none: return {0, 4, 3};
    case Swizzle::b32: return {1, 4, 3};
    case Swizzle::b64: return {2, 4, 3};
    case Swizzle::b128: return {3, 4, 3};
    case Swizzle::b128_atom32:
    case Swizzle::b128_atom32_flip8: return {2, 5, 3};
    case Swizzle::b128_atom64: return {1, 6, 3};
  }
  return {};
}

// A mode's address function, decoded once (for loops over many addresses).
struct SwizzleFunction {
  CuteSwizzle cute;
  bool flip8 = false;  // odd 128B rows: swap the 8-byte halves of each 16-byte chunk
  constexpr explicit SwizzleFunction(Swizzle mode)
      : cute(cute_swizzle(mode)), flip8(mode == Swizzle::b128_atom32_flip8) {}
  constexpr uint32_t operator()(uint32_t addr) const {
    const uint32_t a = cute.apply(addr);
    return flip8 ? a ^ ((addr >> 4) & 0x8u) : a;
  }
};

// The byte address at which the TMA stores the byte whose unswizzled address is `addr`.
constexpr uint32_t swizzle_address(Swizzle mode, uint32_t addr) { return SwizzleFunction(mode)(addr); }

// Bytes after which the mode's pattern repeats (1024 for every 128B mode).
constexpr uint32_t swizzle_repeat_bytes(Swizzle mode) {
  return mode == Swizzle::none ? 1u : cute_swizzle(mode).repeat_bytes();
}

}  // namespace tmasim
