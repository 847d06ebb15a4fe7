// Conversions and reductions, bit for bit.
#include <gtest/gtest.h>

#include <cstring>

#include "tmasim/golden.hpp"
#include "tmasim/numeric.hpp"
#include "tmasim/tma.hpp"

using namespace tmasim;

TEST(Numeric, HalfRoundTripsAndRoundsToNearestEven) {
  EXPECT_EQ(float_to_half(1.0), 0x3c00);
  EXPECT_EQ(float_to_half(65504.0), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0), 0x7c00);              // rounds up to infinity
  EXPECT_EQ(float_to_half(1.0 + 1.0 / 2048), 0x3c00);     // tie goes to even
  EXPECT_EQ(float_to_half(1.0 + 3.0 / 2048), 0x3c02);     // tie goes to even (up)
  EXPECT_EQ(float_to_half(5.960464477539063e-08), 0x0001);  // smallest subnormal
  EXPECT_EQ(half_to_float(0xc000), -2.0f);
}

TEST(Numeric, Bf16Rounding) {
  EXPECT_EQ(double_to_bf16(1.0), 0x3f80);
  EXPECT_EQ(double_to_bf16(1.0 + 1.0 / 256), 0x3f80);  // tie to even
  EXPECT_EQ(bf16_to_float(0x4049), 3.140625f);
}

TEST(Numeric, ReductionLegalityMatchesTheH100) {
  // reduce_* golden cases: what ran and what trapped.
  EXPECT_TRUE(reduce_supported(ReduceOp::add, DType::f64));
  EXPECT_FALSE(reduce_supported(ReduceOp::add, DType::s64));
  EXPECT_TRUE(reduce_supported(ReduceOp::min, DType::s64));
  EXPECT_FALSE(reduce_supported(ReduceOp::min, DType::f32));
  EXPECT_TRUE(reduce_supported(ReduceOp::inc, DType::u32));
  EXPECT_FALSE(reduce_supported(ReduceOp::inc, DType::s32));
  EXPECT_FALSE(reduce_supported(ReduceOp::bit_xor, DType::s64));
}

TEST(Numeric, IncAndDecWrapLikePtxRed) {
  uint32_t g = 5, s = 5;
  reduce_element(ReduceOp::inc, DType::u32, reinterpret_cast<uint8_t*>(&g), reinterpret_cast<uint8_t*>(&s));
  EXPECT_EQ(g, 0u);  // old >= src -> 0
  g = 0;
  reduce_element(ReduceOp::dec, DType::u32, reinterpret_cast<uint8_t*>(&g), reinterpret_cast<uint8_t*>(&s));
  EXPECT_EQ(g, 5u);  // old == 0 -> src
}

TEST(Numeric, Tf32LoadRoundsAndCanonicalisesNaN) {
  // dtype_tfloat32_rank2: 0xd93b9dff -> 0xd93ba000; NaN 0x7fe143a4 -> 0x7fffe000.
  TensorMap m;
  m.dtype = DType::tf32;
  m.rank = 1;
  m.global_dims = {4};
  m.global_strides = {};
  m.box_dims = {4};
  m.element_strides = {1};
  uint32_t in[4] = {0xd93b9dffu, 0x7fe143a4u, 0x0062b6a5u, 0x3f800fffu};
  std::vector<uint8_t> g(sizeof in + 64), s(256, 0);
  std::memcpy(g.data(), in, sizeof in);
  TmaInstruction ins;
  ins.coords = {0};
  execute(m, ins, GlobalMemory{g.data(), g.size(), 0}, SharedMemory{s.data(), s.size()});
  uint32_t out[4];
  std::memcpy(out, s.data(), sizeof out);
  EXPECT_EQ(out[0], 0xd93ba000u);
  EXPECT_EQ(out[1], 0x7fffe000u);
  EXPECT_EQ(out[2], 0x0062c000u);  // subnormals are rounded, not flushed
  EXPECT_EQ(out[3], 0x3f800000u);
}

// Integer reductions wrap around as the hardware's adders do, with no undefined behaviour
// (the suite runs under UBSan): s32 add past either end, u32 inc at its bound.
TEST(Numeric, IntegerReductionsWrapAround) {
  auto s32 = [](tmasim::ReduceOp op, int32_t g, int32_t s) {
    uint8_t gb[4], sb[4];
    std::memcpy(gb, &g, 4);
    std::memcpy(sb, &s, 4);
    tmasim::reduce_element(op, tmasim::DType::s32, gb, sb);
    int32_t r;
    std::memcpy(&r, gb, 4);
    return r;
  };
  EXPECT_EQ(s32(tmasim::ReduceOp::add, INT32_MAX, 1), INT32_MIN);
  EXPECT_EQ(s32(tmasim::ReduceOp::add, INT32_MIN, -1), INT32_MAX);
  uint32_t u = 0xffffffffu, b = 0xffffffffu;
  uint8_t ub[4], bb[4];
  std::memcpy(ub, &u, 4);
  std::memcpy(bb, &b, 4);
  tmasim::reduce_element(tmasim::ReduceOp::inc, tmasim::DType::u32, ub, bb);  // a >= b: back to 0
  std::memcpy(&u, ub, 4);
  EXPECT_EQ(u, 0u);
}
