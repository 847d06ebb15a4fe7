// Traversal edge cases, each checked against what the H100 did (the case names in
// tests/golden/functional.jsonl.gz that show the behaviour are given in the comments).
#include <gtest/gtest.h>

#include <numeric>

#include "tmasim/golden.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/tma.hpp"
#include "tmasim/traversal.hpp"

using namespace tmasim;

namespace {

TensorMap map2d(DType t, int64_t w, int64_t h, int64_t bw, int64_t bh, Swizzle s = Swizzle::none) {
  TensorMap m;
  m.dtype = t;
  m.rank = 2;
  m.global_dims = {w, h};
  m.global_strides = {(w * dtype_bytes(t) + 15) / 16 * 16};
  m.box_dims = {bw, bh};
  m.element_strides = {1, 1};
  m.swizzle = s;
  return m;
}

struct LoadResult {
  std::vector<uint8_t> global, smem;
  int64_t tx = 0;
};

LoadResult load(const TensorMap& m, std::vector<int32_t> coords, uint32_t smem_offset = 0, size_t smem_size = 8192) {
  LoadResult r;
  r.global.resize(1 << 16);
  for (size_t i = 0; i < r.global.size(); ++i) r.global[i] = golden_fill(i);
  r.smem.assign(smem_size, 0xA5);
  TmaInstruction ins;
  ins.coords = std::move(coords);
  ins.smem_offset = smem_offset;
  r.tx = execute(m, ins, GlobalMemory{r.global.data(), r.global.size(), 0}, SharedMemory{r.smem.data(), r.smem.size()});
  return r;
}

// 16 u8 channels, W = 6, two images; bounding box W positions 1..3; 4 pixels per column.
TensorMap small_im2col() {
  TensorMap m;
  m.mode = TensorMode::im2col;
  m.dtype = DType::u8;
  m.rank = 3;
  m.global_dims = {16, 6, 2};
  m.global_strides = {16, 96};
  m.lower_corner = {1};
  m.upper_corner = {-2};
  m.channels_per_pixel = 16;
  m.pixels_per_column = 4;
  m.element_strides = {1, 1, 1};
  return m;
}

}  // namespace

TEST(Traversal, InBoundsTileCopiesRowsDensely) {
  TensorMap m = map2d(DType::u8, 64, 8, 16, 4);
  LoadResult r = load(m, {16, 2});
  for (int row = 0; row < 4; ++row)
    for (int k = 0; k < 16; ++k) EXPECT_EQ(r.smem[row * 16 + k], golden_fill((2 + row) * 64 + 16 + k));
  EXPECT_EQ(r.tx, 64);
  EXPECT_EQ(r.smem[64], 0xA5);  // nothing past the box
}

TEST(Traversal, ElementStrideOfDimensionZeroIsIgnored) {  // estride_r2_d0_s*: tx 512 for every stride
  TensorMap m = map2d(DType::f32, 40, 30, 8, 16);
  m.element_strides = {4, 1};
  EXPECT_EQ(load(m, {4, 2}).tx, 8 * 16 * 4);
}

TEST(Traversal, ElementStrideSkipsRowsAndShrinksTheBox) {  // estride_r2_d1_s3: tx 192
  TensorMap m = map2d(DType::f32, 40, 30, 8, 16);
  m.element_strides = {1, 3};
  LoadResult r = load(m, {4, 2});
  EXPECT_EQ(r.tx, 8 * 6 * 4);
  EXPECT_EQ(r.smem[32], golden_fill(5 * 160 + 16));  // second smem row is tensor row 2+3
}

TEST(Traversal, OutOfBoundZeroFillOnBothSides) {
  TensorMap m = map2d(DType::u8, 32, 8, 16, 4);
  LoadResult r = load(m, {-16, -2});
  for (int k = 0; k < 32; ++k) EXPECT_EQ(r.smem[k], 0) << k;      // rows -2, -1
  EXPECT_EQ(r.smem[32], 0);                                        // column -16 of row 0
}

TEST(Traversal, NanFillIsTheSame16BitPatternForEveryFloatType) {  // oob_*_nan_3: f7 7f repeated
  for (DType t : {DType::f16, DType::bf16, DType::f32, DType::f64, DType::tf32}) {
    TensorMap m = map2d(t, 64, 8, 16 / dtype_bytes(t) * 2, 2);
    m.oob_fill = OobFill::nan;
    LoadResult r = load(m, {0, -5});
    for (int k = 0; k < 16; k += 2) {
      EXPECT_EQ(r.smem[k], 0xf7) << name(t);
      EXPECT_EQ(r.smem[k + 1], 0x7f) << name(t);
    }
  }
}

TEST(Traversal, NarrowSwizzledRowsArePaddedToTheSpan) {  // swz_64b_inner16_*: 16B rows, 64B apart
  TensorMap m = map2d(DType::u8, 256, 40, 16, 12, Swizzle::b64);
  LoadResult r = load(m, {16, 3});
  EXPECT_EQ(r.tx, 16 * 12);
  for (int row = 0; row < 12; ++row)
    EXPECT_EQ(r.smem[swizzle_address(Swizzle::b64, row * 64)], golden_fill((3 + row) * 256 + 16)) << row;
  EXPECT_EQ(r.smem[swizzle_address(Swizzle::b64, 16)], 0xA5);  // padding is not written
}

TEST(Traversal, InnermostCoordinateMustBeSixteenByteAligned) {  // coord0_unaligned_*: trap
  TensorMap m = map2d(DType::f16, 64, 8, 32, 4);
  try {
    load(m, {2, 0});
    FAIL() << "expected a trap";
  } catch (const Fault& f) {
    EXPECT_EQ(f.kind(), Fault::Kind::illegal_instruction);
  }
}

TEST(Traversal, SharedDestinationMustBe128ByteAligned) {  // smem_misaligned_*: misaligned address
  TensorMap m = map2d(DType::f16, 64, 8, 32, 4);
  try {
    load(m, {0, 0}, 64);
    FAIL() << "expected a fault";
  } catch (const Fault& f) {
    EXPECT_EQ(f.kind(), Fault::Kind::misaligned_address);
  }
}

TEST(Traversal, BoxPastTheWindowIsAnIllegalAddressNotACrash) {
  TensorMap m = map2d(DType::f16, 64, 64, 64, 64);
  EXPECT_THROW(load(m, {0, 0}, 0, 1024), Fault);
}

TEST(Traversal, Im2colWalksWThenWrapsInsideTheBoundingBox) {
  TensorMap m = small_im2col();
  std::vector<uint8_t> g(4096), s(1024, 0xA5);
  for (size_t i = 0; i < g.size(); ++i) g[i] = golden_fill(i);
  TmaInstruction ins;
  ins.coords = {0, 2, 0};
  ins.im2col_offsets = {1};
  execute(m, ins, GlobalMemory{g.data(), g.size(), 0}, SharedMemory{s.data(), s.size()});
  // pixels: w=2,3 of image 0, then w=1,2 of image 1; each read at w + offset 1
  const int expect_w[] = {3, 4, 2, 3}, expect_n[] = {0, 0, 1, 1};
  for (int p = 0; p < 4; ++p) EXPECT_EQ(s[p * 16], golden_fill(expect_n[p] * 96 + expect_w[p] * 16)) << p;
}

TEST(Traversal, Im2colCoordinateOutsideTheBoxTraps) {  // im2col_r*_7, _20, _33
  TensorMap m = small_im2col();
  TmaInstruction ins;
  ins.coords = {0, 4, 0};
  ins.im2col_offsets = {0};
  EXPECT_THROW(check_instruction(m, ins), Fault);
}

TEST(Traversal, StoresClipToTheTensorAndRefuseNegativeStarts) {
  TensorMap m = map2d(DType::u8, 24, 4, 16, 2);
  std::vector<uint8_t> g(256, 0), s(1024);
  std::iota(s.begin(), s.end(), 0);
  TmaInstruction ins;
  ins.op = Op::store;
  ins.coords = {16, 3};
  execute(m, ins, GlobalMemory{g.data(), g.size(), 0}, SharedMemory{s.data(), s.size()});
  for (int k = 0; k < 8; ++k) EXPECT_EQ(g[3 * 32 + 16 + k], k);  // columns 16..23 of row 3
  // Columns 24..31 lie past the row's end but in its last 16-byte chunk: the H100 writes them
  // too (coverage capture, dir_store_rowend_*); nothing past that chunk is written.
  for (int k = 8; k < 16; ++k) EXPECT_EQ(g[3 * 32 + 16 + k], k);
  EXPECT_EQ(g[4 * 32], 0);  // row 4 is outside the tensor
  ins.coords = {0, -1};
  EXPECT_THROW(check_instruction(m, ins), Fault);
}

// The checker judges a map's rules once and each instruction's own every time, refusing what
// check_instruction refuses: an invalid map at its first instruction, a bad operand at any.
TEST(Traversal, TheInstructionCheckerRefusesWhatCheckInstructionRefuses) {
  TensorMap good = map2d(DType::u8, 24, 4, 16, 2);
  TensorMap bad = good;
  bad.box_dims[0] = 300;  // past the 256-element box limit
  ASSERT_TRUE(validate(bad).has_value());
  TmaInstruction ins;
  ins.op = Op::store;
  ins.coords = {16, 3};
  InstructionChecker checker;
  EXPECT_NO_THROW(checker.check(good, ins));
  EXPECT_THROW(checker.check(bad, ins), Error);
  EXPECT_THROW(checker.check(bad, ins), Error);  // not remembered as valid
  ins.coords = {0, -1};
  EXPECT_THROW(check_instruction(good, ins), Fault);
  EXPECT_THROW(checker.check(good, ins), Fault);  // the map remembered, the operands still judged
  ins.coords = {16, 3};
  EXPECT_NO_THROW(checker.check(good, ins));
}

// tiled_box_in_bounds (the timing model plans such boxes once per map) says yes exactly when
// every row the traversal walks is in bounds in full, for loads and stores (whose reach is
// whole 16-byte chunks), element strides of 1 to 3 and boxes at every position around a tensor.
TEST(Traversal, ABoxInBoundsIsOneWhoseEveryRowIsWhole) {
  for (Op op : {Op::load, Op::store})
    for (int64_t stride1 : {1, 2, 3})
      for (DType t : {DType::u8, DType::f32}) {
        TensorMap m = map2d(t, 40, 30, 16, 8);
        m.element_strides = {1, stride1};
        const int64_t reach = dim0_reach(m, op);
        for (int32_t c1 = -10; c1 <= 32; c1 += 3)
          for (int32_t c0 = -32; c0 <= 48; c0 += 16) {
            TmaInstruction ins;
            ins.op = op;
            ins.coords.push_back(c0);  // not `= {c0, c1}`: GCC 12 warns about its own assign (-Wnonnull)
            ins.coords.push_back(c1);
            bool every_row_whole = true;
            int rows = 0;
            for_each_row(m, ins, [&](const BoxRow& r) {
              const BoxRow::Window w = r.in_bound_window(reach);
              every_row_whole &= w.first == 0 && w.last == r.elements - 1;
              ++rows;
            });
            EXPECT_GT(rows, 0);
            EXPECT_EQ(tiled_box_in_bounds(m, ins, reach), every_row_whole)
                << name(op) << " " << name(t) << " stride " << stride1 << " at " << c0 << "," << c1;
          }
      }
  TensorMap m = small_im2col();
  TmaInstruction ins;
  ins.coords.assign(3, 0);
  ins.coords[1] = 1;
  EXPECT_FALSE(tiled_box_in_bounds(m, ins, dim0_reach(m, Op::load)));  // im2col boxes are planned row by row
}
