// Element arithmetic of the reductions, bit-exact: IEEE binary16 and bfloat16 conversions
// with round-to-nearest-even, and the reduce operators per data type.
#pragma once
#include <cstdint>

#include "tmasim/types.hpp"

namespace tmasim {

float half_to_float(uint16_t h);
uint16_t float_to_half(double v);  // round to nearest even
float bf16_to_float(uint16_t b);
uint16_t double_to_bf16(double v);  // round to nearest even

// Whether the H100 executes cp.reduce.async.bulk.tensor with this operator on this type.
bool reduce_supported(ReduceOp op, DType type);

// global = op(global, source) for one element of `type` (little-endian bytes).
void reduce_element(ReduceOp op, DType type, uint8_t* global, const uint8_t* source);

}  // namespace tmasim
