// One accepted and one rejected map per validator rule. The expectations are the CUDA 13
// driver's answers on an H100 (tests/golden/functional.jsonl.gz, encode_* cases) where they
// differ from cuda.h's comments, and cuda.h's rules elsewhere.
#include <gtest/gtest.h>

#include <functional>

#include "tmasim/tensor_map.hpp"

using namespace tmasim;

namespace {

TensorMap tiled_f16() {
  TensorMap m;
  m.dtype = DType::f16;
  m.rank = 2;
  m.global_dims = {64, 32};
  m.global_strides = {128};
  m.box_dims = {64, 8};
  m.element_strides = {1, 1};
  m.swizzle = Swizzle::b128;
  return m;
}

TensorMap im2col_f16() {
  TensorMap m;
  m.mode = TensorMode::im2col;
  m.dtype = DType::f16;
  m.rank = 4;
  m.global_dims = {32, 8, 8, 2};
  m.global_strides = {64, 512, 4096};
  m.lower_corner = {-1, -1};
  m.upper_corner = {-1, -1};
  m.channels_per_pixel = 32;
  m.pixels_per_column = 16;
  m.element_strides = {1, 1, 1, 1};
  m.swizzle = Swizzle::b128;
  return m;
}

struct RuleCase {
  const char* rule;
  std::function<void(TensorMap&)> ok, bad;
  bool im2col = false;
};

std::string rule_of(const TensorMap& m) {
  auto r = validate(m);
  return r ? r->rule : "accepted";
}

}  // namespace

TEST(Validator, BaseMapsAreAccepted) {
  EXPECT_EQ(rule_of(tiled_f16()), "accepted");
  EXPECT_EQ(rule_of(im2col_f16()), "accepted");
}

TEST(Validator, EachRuleAcceptsItsEdgeAndRejectsPastIt) {
  const std::vector<RuleCase> cases = {
      {"rank.range", [](TensorMap& m) { m.rank = 1; m.global_dims = {64}; m.global_strides = {}; m.box_dims = {64}; m.element_strides = {1}; },
       [](TensorMap& m) { m.rank = 6; m.global_dims.resize(6, 2); m.global_strides.resize(5, 4096); m.box_dims.resize(6, 1); m.element_strides.resize(6, 1); }},
      {"global_dims.count", [](TensorMap&) {}, [](TensorMap& m) { m.global_dims.push_back(3); }},
      {"dtype.packed_unsupported", [](TensorMap& m) { m.dtype = DType::u8; m.box_dims = {128, 8}; },
       [](TensorMap& m) { m.dtype = DType::packed_u4_align8; }},
      {"swizzle.atomicity_unsupported", [](TensorMap& m) { m.swizzle = Swizzle::b128; },
       [](TensorMap& m) { m.swizzle = Swizzle::b128_atom64; }},
      {"interleave.rank", [](TensorMap& m) { m.interleave = Interleave::none; },
       [](TensorMap& m) { m.interleave = Interleave::b16; }},
      {"oob_fill.nan_needs_float", [](TensorMap& m) { m.dtype = DType::bf16; m.oob_fill = OobFill::nan; },
       [](TensorMap& m) { m.dtype = DType::u16; m.oob_fill = OobFill::nan; }},
      {"global_address.align", [](TensorMap& m) { m.global_address = 16; }, [](TensorMap& m) { m.global_address = 8; }},
      {"global_dims.range", [](TensorMap& m) { m.global_dims[1] = int64_t(1) << 32; },
       [](TensorMap& m) { m.global_dims[1] = (int64_t(1) << 32) + 1; }},
      {"global_strides.align", [](TensorMap& m) { m.global_strides[0] = 64; },  // below the row: accepted on H100
       [](TensorMap& m) { m.global_strides[0] = 136; }},
      {"global_strides.range", [](TensorMap& m) { m.global_strides[0] = (int64_t(1) << 40) - 16; },
       [](TensorMap& m) { m.global_strides[0] = int64_t(1) << 40; }},
      {"element_strides.range", [](TensorMap& m) { m.element_strides[1] = 8; }, [](TensorMap& m) { m.element_strides[0] = 9; }},
      {"box_dims.range", [](TensorMap& m) { m.box_dims[1] = 256; }, [](TensorMap& m) { m.box_dims[1] = 257; }},
      {"box_dims.inner_16B", [](TensorMap& m) { m.box_dims[0] = 8; }, [](TensorMap& m) { m.box_dims[0] = 60; }},
      {"swizzle.inner_span", [](TensorMap& m) { m.swizzle = Swizzle::b64; m.box_dims[0] = 32; },
       [](TensorMap& m) { m.swizzle = Swizzle::b64; m.box_dims[0] = 40; }},
      {"pixel_box_corner.range", [](TensorMap& m) { m.lower_corner[0] = -128; m.upper_corner[0] = 127; },
       [](TensorMap& m) { m.lower_corner[0] = -129; }, true},
      {"pixel_box.empty", [](TensorMap& m) { m.lower_corner[0] = 2; m.upper_corner[0] = -5; },  // one position left
       [](TensorMap& m) { m.lower_corner[0] = 3; m.upper_corner[0] = -5; }, true},
      {"channels_per_pixel.range", [](TensorMap& m) { m.channels_per_pixel = 256; m.swizzle = Swizzle::none; m.global_dims[0] = 256; },
       [](TensorMap& m) { m.channels_per_pixel = 0; }, true},
      {"pixels_per_column.range", [](TensorMap& m) { m.pixels_per_column = 1024; },
       [](TensorMap& m) { m.pixels_per_column = 1025; }, true},
      {"channels_per_pixel.inner_16B", [](TensorMap& m) { m.channels_per_pixel = 8; },
       [](TensorMap& m) { m.channels_per_pixel = 12; }, true},
  };
  for (const RuleCase& c : cases) {
    TensorMap ok = c.im2col ? im2col_f16() : tiled_f16();
    TensorMap bad = ok;
    c.ok(ok);
    c.bad(bad);
    EXPECT_EQ(rule_of(ok), "accepted") << c.rule;
    EXPECT_EQ(rule_of(bad), c.rule);
    ASSERT_TRUE(validate(bad).has_value());
    EXPECT_FALSE(validate(bad)->message.empty()) << c.rule;
  }
}

TEST(Validator, InterleaveThirtyTwoNeedsThirtyTwoByteAlignment) {
  TensorMap m = tiled_f16();
  m.rank = 3;
  m.global_dims = {16, 8, 4};
  m.global_strides = {32, 256};
  m.box_dims = {16, 8, 4};
  m.element_strides = {1, 1, 1};
  m.interleave = Interleave::b32;
  m.swizzle = Swizzle::b64;  // the doc says 32B only; the H100 driver accepts it
  EXPECT_EQ(rule_of(m), "accepted");
  m.global_address = 16;
  EXPECT_EQ(rule_of(m), "global_address.align");
  m.global_address = 0;
  m.global_strides = {48, 384};
  EXPECT_EQ(rule_of(m), "global_strides.align");
}

TEST(Validator, Im2colRankLimits) {
  TensorMap m = im2col_f16();
  m.rank = 2;
  EXPECT_EQ(rule_of(m), "rank.range");
}
