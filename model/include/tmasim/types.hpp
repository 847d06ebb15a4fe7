// Enumerations of the CUDA tensor-map API and of the bulk tensor instructions, with the
// names golden-case.md uses (the driver's names, lower-cased, without their prefix).
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tmasim {

// Values equal the driver's CUtensorMapDataType.
enum class DType : uint8_t {
  u8, u16, u32, s32, u64, s64, f16, f32, f64, bf16, f32_ftz, tf32, tf32_ftz,
  packed_u4_align8, packed_u4_align16, packed_u6_align16
};
enum class Interleave : uint8_t { none, b16, b32 };
enum class Swizzle : uint8_t { none, b32, b64, b128, b128_atom32, b128_atom32_flip8, b128_atom64 };
enum class L2Promotion : uint8_t { none, b64, b128, b256 };
enum class OobFill : uint8_t { zero, nan };
enum class TensorMode : uint8_t { tiled, im2col };
enum class Op : uint8_t { load, store, reduce, prefetch };
enum class ReduceOp : uint8_t { add, min, max, inc, dec, bit_and, bit_or, bit_xor };

// Bytes of one element; for the packed types, the bytes one group of 16 values occupies.
constexpr int dtype_bytes(DType t) {
  constexpr int bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 8, 16, 16};
  return bytes[static_cast<int>(t)];
}
constexpr bool is_packed(DType t) { return t >= DType::packed_u4_align8; }
constexpr bool is_float(DType t) { return t >= DType::f16 && t <= DType::tf32_ftz; }

// Bytes of the swizzle span: the row length a swizzle pattern permutes within.
constexpr int swizzle_span(Swizzle s) {
  constexpr int span[] = {0, 32, 64, 128, 128, 128, 128};
  return span[static_cast<int>(s)];
}

std::string_view name(DType);
std::string_view name(Interleave);
std::string_view name(Swizzle);
std::string_view name(L2Promotion);
std::string_view name(OobFill);
std::string_view name(TensorMode);
std::string_view name(Op);
std::string_view name(ReduceOp);

// Parse golden-case names; nullopt for an unknown name.
std::optional<DType> parse_dtype(std::string_view);
std::optional<Interleave> parse_interleave(std::string_view);
std::optional<Swizzle> parse_swizzle(std::string_view);
std::optional<L2Promotion> parse_l2_promotion(std::string_view);
std::optional<OobFill> parse_oob_fill(std::string_view);
std::optional<TensorMode> parse_mode(std::string_view);
std::optional<Op> parse_op(std::string_view);
std::optional<ReduceOp> parse_reduce_op(std::string_view);

// Bad input to the model: a message that names the rule it breaks.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the hardware refuses at run time (the instruction traps).
class IllegalInstruction : public Error {
 public:
  using Error::Error;
};

}  // namespace tmasim
