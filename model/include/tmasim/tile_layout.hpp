// Where the TMA puts each element of a 2D tile in shared memory: the tile is loaded as
// column blocks whose rows are one swizzle span wide (the whole row when unswizzled), each
// block a box of `rows` rows, blocks one after another. The addresses come from the same
// swizzle and pitch rules as the copy model.
#pragma once
#include <cstdint>

#include "tmasim/conflicts.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/types.hpp"

namespace tmasim {

struct TileLayout {
  int rows = 64;
  int cols = 64;  // elements
  DType dtype = DType::f16;
  Swizzle swizzle = Swizzle::b128;
  uint32_t smem_offset = 0;  // bytes from a 1024-byte-aligned base

  int elem_bytes() const { return dtype_bytes(dtype); }
  // Bytes of one row of one column block (the TMA box's inner dimension).
  int block_row_bytes() const {
    int row = cols * elem_bytes();
    int span = swizzle_span(swizzle);
    return span != 0 && row > span ? span : row;
  }
  int block_cols() const { return block_row_bytes() / elem_bytes(); }
  // A consumer's read of the tile is one ldmatrix.x4 per 16x16 block, row-block major; the CUDA
  // that `tmasim cuda` emits unrolls its row-block loop by this much, so a tile of more row
  // blocks runs as a loop (on the H100 a slower one: thread.ldmatrix_looped_cycles).
  static constexpr int kReadUnrolledRowBlocks = 4;
  bool read_is_looped() const { return rows / 16 > kReadUnrolledRowBlocks; }
  uint32_t address(int r, int c) const {
    int block = c / block_cols();
    uint32_t unswizzled = smem_offset + static_cast<uint32_t>(block) * rows * block_row_bytes() +
                          static_cast<uint32_t>(r) * block_row_bytes() +
                          static_cast<uint32_t>(c % block_cols()) * elem_bytes();
    return swizzle_address(swizzle, unswizzled);
  }
};

// ldmatrix/stmatrix over the 16x16 block at (r0, c0) of a 16-bit tile, as an MMA A operand
// reads it: lanes 0-15 give the rows of the left 8 columns, lanes 16-31 those of the right 8.
inline WarpAccess matrix_access(const TileLayout& t, SmemOp op, int num, bool trans, int r0, int c0) {
  WarpAccess a;
  a.op = op;
  a.num = num;
  a.trans = trans;
  for (int l = 0; l < 32; ++l) a.addr[l] = l < 8 * num ? t.address(r0 + l % 16, c0 + (l / 16) * 8) : -1;
  return a;
}

}  // namespace tmasim
