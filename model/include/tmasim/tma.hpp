// What one bulk tensor instruction does to the bytes: load (global to shared), store and
// reduce (shared to global) and prefetch, for tiled and im2col maps. Shared memory offset 0
// stands for a 1024-byte-aligned address, so swizzling sees the destination's true bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tmasim/tensor_map.hpp"

namespace tmasim {

// A run-time fault of the copy engine: what the H100 reports instead of copying.
class Fault : public Error {
 public:
  enum class Kind { illegal_instruction, misaligned_address, illegal_address };
  Fault(Kind kind, const std::string& what) : Error(what), kind_(kind) {}
  Kind kind() const { return kind_; }
  // The CUDA error the hardware raises for this kind, e.g. "cudaErrorIllegalInstruction".
  const char* cuda_error() const;

 private:
  Kind kind_;
};

struct GlobalMemory {
  uint8_t* data = nullptr;
  size_t size = 0;
  uint64_t base = 0;  // address of data[0]
};

struct SharedMemory {
  uint8_t* data = nullptr;
  size_t size = 0;  // data[0] is 1024-byte aligned
};

struct TmaInstruction {
  Op op = Op::load;
  ReduceOp reduce_op = ReduceOp::add;
  uint32_t smem_offset = 0;             // bytes from the 1024-byte-aligned base
  std::vector<int32_t> coords;          // tensor coordinates, innermost first
  std::vector<int32_t> im2col_offsets;  // im2col only, rank-2 entries, W first
};

// Refusals the hardware makes at run time (throws Fault), then Error for malformed input.
void check_instruction(const TensorMap& map, const TmaInstruction& ins);

// check_instruction for many instructions on a few maps: a map validate() has passed once is not
// judged again (its rules cost more than the instruction's own checks). Maps are known by their
// address, so each must stay where it is, unchanged, while the checker is used.
class InstructionChecker {
 public:
  void check(const TensorMap& map, const TmaInstruction& ins);

 private:
  std::vector<const TensorMap*> valid_;
};

// Executes one instruction; returns the transaction bytes the mbarrier receives (loads).
int64_t execute(const TensorMap& map, const TmaInstruction& ins, GlobalMemory global, SharedMemory smem);

}  // namespace tmasim
