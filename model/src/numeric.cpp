#include "tmasim/numeric.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace tmasim {
namespace {

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Round a finite double to a binary format with `mant` fraction bits and exponent bias
// `bias`; returns the encoded bits (sign included). Handles subnormals and overflow.
uint32_t round_to_format(double v, int mant, int exp_bits) {
  const uint32_t sign = std::signbit(v) ? 1u : 0u;
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint32_t inf = ((1u << exp_bits) - 1u) << mant;
  const uint32_t sign_bit = sign << (mant + exp_bits);
  if (std::isnan(v)) return sign_bit | inf | (1u << (mant - 1));
  double a = std::fabs(v);
  if (std::isinf(a)) return sign_bit | inf;
  if (a == 0) return sign_bit;
  int e;
  std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
  int unbiased = e - 1;
  int min_exp = 1 - bias;
  int scale_exp = (unbiased < min_exp ? min_exp : unbiased) - mant;  // ulp exponent
  double q = std::ldexp(a, -scale_exp);                             // in ulps
  double r = std::nearbyint(q);                                     // ties to even
  uint64_t ulps = static_cast<uint64_t>(r);
  // ulps counts from 0 with the implicit bit for normal numbers: rebuild the encoding.
  uint64_t bits;
  if (unbiased < min_exp) {
    bits = ulps;  // subnormal (may round up into the smallest normal, which encodes the same way)
  } else {
    uint64_t exp_field = static_cast<uint64_t>(unbiased + bias);
    if (ulps >= (uint64_t(2) << mant)) {  // rounding carried into the next binade
      ulps >>= 1;
      ++exp_field;
    }
    if (exp_field >= (uint64_t(1) << exp_bits) - 1) return sign_bit | inf;
    bits = (exp_field << mant) | (ulps & ((uint64_t(1) << mant) - 1));
  }
  return sign_bit | static_cast<uint32_t>(bits);
}

double decode_format(uint32_t bits, int mant, int exp_bits) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint32_t sign = bits >> (mant + exp_bits);
  const uint32_t exp = (bits >> mant) & ((1u << exp_bits) - 1u);
  const uint32_t frac = bits & ((1u << mant) - 1u);
  double v;
  if (exp == 0)
    v = std::ldexp(double(frac), 1 - bias - mant);
  else if (exp == (1u << exp_bits) - 1u)
    v = frac ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(double(frac | (1u << mant)), int(exp) - bias - mant);
  return sign ? -v : v;
}

bool is_nan16(uint16_t h, int mant, int exp_bits) {
  uint32_t exp = (h >> mant) & ((1u << exp_bits) - 1u);
  return exp == (1u << exp_bits) - 1u && (h & ((1u << mant) - 1u));
}

}  // namespace

float half_to_float(uint16_t h) { return static_cast<float>(decode_format(h, 10, 5)); }
uint16_t float_to_half(double v) { return static_cast<uint16_t>(round_to_format(v, 10, 5)); }
float bf16_to_float(uint16_t b) { return static_cast<float>(decode_format(b, 7, 8)); }
uint16_t double_to_bf16(double v) { return static_cast<uint16_t>(round_to_format(v, 7, 8)); }

bool reduce_supported(ReduceOp op, DType t) {
  switch (op) {
    case ReduceOp::add:
      return t == DType::u32 || t == DType::s32 || t == DType::u64 || t == DType::f16 || t == DType::bf16 ||
             t == DType::f32 || t == DType::f64 || t == DType::f32_ftz || t == DType::tf32 || t == DType::tf32_ftz;
    case ReduceOp::min:
    case ReduceOp::max:
      return t == DType::u32 || t == DType::s32 || t == DType::u64 || t == DType::s64 || t == DType::f16 ||
             t == DType::bf16;
    case ReduceOp::inc:
    case ReduceOp::dec: return t == DType::u32;
    case ReduceOp::bit_and:
    case ReduceOp::bit_or:
    case ReduceOp::bit_xor: return t == DType::u32 || t == DType::s32 || t == DType::u64;
  }
  return false;
}

namespace {

// Integer reductions wrap around as the hardware's adders do: the arithmetic is done on the
// unsigned type of the same width (signed overflow would be undefined behaviour in C++).
template <class T>
T integer_op(ReduceOp op, T a, T b) {
  using U = std::make_unsigned_t<T>;
  auto wrap = [](U v) { T r; std::memcpy(&r, &v, sizeof r); return r; };
  switch (op) {
    case ReduceOp::add: return wrap(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    case ReduceOp::min: return a < b ? a : b;
    case ReduceOp::max: return a > b ? a : b;
    case ReduceOp::inc: return a >= b ? T(0) : wrap(static_cast<U>(static_cast<U>(a) + 1u));
    case ReduceOp::dec: return (a == 0 || a > b) ? b : wrap(static_cast<U>(static_cast<U>(a) - 1u));
    case ReduceOp::bit_and: return a & b;
    case ReduceOp::bit_or: return a | b;
    case ReduceOp::bit_xor: return a ^ b;
  }
  return a;
}

// 16-bit float formats: add rounds once; min/max return the non-NaN operand.
uint16_t half_like_op(ReduceOp op, uint16_t a, uint16_t b, int mant, int exp_bits) {
  double x = decode_format(a, mant, exp_bits), y = decode_format(b, mant, exp_bits);
  if (op == ReduceOp::add) {
    if (is_nan16(a, mant, exp_bits) || is_nan16(b, mant, exp_bits) || std::isnan(x + y))
      return static_cast<uint16_t>(((1u << exp_bits) - 1u) << mant | ((1u << mant) - 1u));
    return static_cast<uint16_t>(round_to_format(x + y, mant, exp_bits));
  }
  if (is_nan16(a, mant, exp_bits)) return is_nan16(b, mant, exp_bits) ? uint16_t(0x7fff) : b;
  if (is_nan16(b, mant, exp_bits)) return a;
  if (x == y) return op == ReduceOp::min ? (std::signbit(x) ? a : b) : (std::signbit(x) ? b : a);
  return (op == ReduceOp::min) == (x < y) ? a : b;
}

// A NaN sum of 32-bit floats is written as 0x7fffffff whatever the operands (H100, coverage
// capture: cov_815, cov_1407).
float canonical_nan(float v) {
  if (!std::isnan(v)) return v;
  const uint32_t bits = 0x7fffffffu;
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

float flush(float v) { return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v; }

}  // namespace

void reduce_element(ReduceOp op, DType t, uint8_t* g, const uint8_t* s) {
  switch (t) {
    case DType::u32: store(g, integer_op<uint32_t>(op, load<uint32_t>(g), load<uint32_t>(s))); break;
    case DType::s32: store(g, integer_op<int32_t>(op, load<int32_t>(g), load<int32_t>(s))); break;
    case DType::u64: store(g, integer_op<uint64_t>(op, load<uint64_t>(g), load<uint64_t>(s))); break;
    case DType::s64: store(g, integer_op<int64_t>(op, load<int64_t>(g), load<int64_t>(s))); break;
    case DType::f16: store(g, half_like_op(op, load<uint16_t>(g), load<uint16_t>(s), 10, 5)); break;
    case DType::bf16: store(g, half_like_op(op, load<uint16_t>(g), load<uint16_t>(s), 7, 8)); break;
    case DType::f64: store(g, load<double>(g) + load<double>(s)); break;
    case DType::f32_ftz:
    case DType::tf32_ftz: store(g, canonical_nan(flush(flush(load<float>(g)) + flush(load<float>(s))))); break;
    default: store(g, canonical_nan(load<float>(g) + load<float>(s))); break;  // f32, tf32
  }
}

}  // namespace tmasim
