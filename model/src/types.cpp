#include "tmasim/types.hpp"

#include <array>

namespace tmasim {
namespace {

template <class E, size_t N>
std::string_view lookup(E e, const std::array<std::string_view, N>& names) {
  auto i = static_cast<size_t>(e);
  return i < N ? names[i] : std::string_view("invalid");
}
template <class E, size_t N>
std::optional<E> parse(std::string_view s, const std::array<std::string_view, N>& names) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<E>(i);
  return std::nullopt;
}

constexpr std::array<std::string_view, 16> kDType = {
    "uint8", "uint16", "uint32", "int32", "uint64", "int64", "float16", "float32", "float64", "bfloat16",
    "float32_ftz", "tfloat32", "tfloat32_ftz", "16u4_align8b", "16u4_align16b", "16u6_align16b"};
constexpr std::array<std::string_view, 3> kInterleave = {"none", "16b", "32b"};
constexpr std::array<std::string_view, 7> kSwizzle = {
    "none", "32b", "64b", "128b", "128b_atom_32b", "128b_atom_32b_flip_8b", "128b_atom_64b"};
constexpr std::array<std::string_view, 4> kL2 = {"none", "64b", "128b", "256b"};
constexpr std::array<std::string_view, 2> kOob = {"zero", "nan"};
constexpr std::array<std::string_view, 2> kMode = {"tiled", "im2col"};
constexpr std::array<std::string_view, 4> kOp = {"load", "store", "reduce", "prefetch"};
constexpr std::array<std::string_view, 8> kReduce = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};

}  // namespace

std::string_view name(DType e) { return lookup(e, kDType); }
std::string_view name(Interleave e) { return lookup(e, kInterleave); }
std::string_view name(Swizzle e) { return lookup(e, kSwizzle); }
std::string_view name(L2Promotion e) { return lookup(e, kL2); }
std::string_view name(OobFill e) { return lookup(e, kOob); }
std::string_view name(TensorMode e) { return lookup(e, kMode); }
std::string_view name(Op e) { return lookup(e, kOp); }
std::string_view name(ReduceOp e) { return lookup(e, kReduce); }

std::optional<DType> parse_dtype(std::string_view s) { return parse<DType>(s, kDType); }
std::optional<Interleave> parse_interleave(std::string_view s) { return parse<Interleave>(s, kInterleave); }
std::optional<Swizzle> parse_swizzle(std::string_view s) { return parse<Swizzle>(s, kSwizzle); }
std::optional<L2Promotion> parse_l2_promotion(std::string_view s) { return parse<L2Promotion>(s, kL2); }
std::optional<OobFill> parse_oob_fill(std::string_view s) { return parse<OobFill>(s, kOob); }
std::optional<TensorMode> parse_mode(std::string_view s) { return parse<TensorMode>(s, kMode); }
std::optional<Op> parse_op(std::string_view s) { return parse<Op>(s, kOp); }
std::optional<ReduceOp> parse_reduce_op(std::string_view s) { return parse<ReduceOp>(s, kReduce); }

}  // namespace tmasim
