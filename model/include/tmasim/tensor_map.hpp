// A tensor map: every parameter of cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col,
// and the validator that accepts and rejects exactly what the CUDA 13 driver does on
// an H100 (the rules of cuda.h's doc comments, corrected where the H100 disagrees).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tmasim/types.hpp"

namespace tmasim {

struct TensorMap {
  TensorMode mode = TensorMode::tiled;
  DType dtype = DType::f16;
  int rank = 2;
  std::vector<int64_t> global_dims;       // elements, innermost first, `rank` entries
  std::vector<int64_t> global_strides;    // bytes of dimensions 1..rank-1
  std::vector<int64_t> box_dims;          // tiled
  std::vector<int64_t> lower_corner;      // im2col: pixelBoxLowerCorner, W first
  std::vector<int64_t> upper_corner;      // im2col: pixelBoxUpperCorner, W first
  int64_t channels_per_pixel = 0;         // im2col
  int64_t pixels_per_column = 0;          // im2col
  std::vector<int64_t> element_strides;   // traversal strides, `rank` entries
  Interleave interleave = Interleave::none;
  Swizzle swizzle = Swizzle::none;
  L2Promotion l2_promotion = L2Promotion::none;
  OobFill oob_fill = OobFill::zero;
  uint64_t global_address = 0;            // byte address of element 0

  int elem_bytes() const { return dtype_bytes(dtype); }
  // Bytes of the unit the TMA moves along dimension 0: an element, or a whole 16/32-byte
  // group for interleaved layouts (measured on the H100).
  int unit_bytes() const {
    return interleave == Interleave::none ? elem_bytes() : interleave == Interleave::b16 ? 16 : 32;
  }
  // Bytes of the unit a box row is made of: an element for plain im2col, else unit_bytes().
  int row_unit_bytes() const {
    return mode == TensorMode::im2col && interleave == Interleave::none ? elem_bytes() : unit_bytes();
  }
  // The tensor dimension im2col walks as spatial dimension i (0 = W). Plain im2col walks
  // dimensions 1..rank-2 (C is dimension 0). With an interleaved layout the H100 walks
  // dimensions 0..rank-3 instead, dimension 0 counted in 16/32-byte units, one unit per
  // pixel (channelsPerPixel ignored), dimension rank-2 (C/8) held at its coordinate; the
  // corners, offsets and traversal strides follow the walked dimension (coverage capture,
  // tests/golden/README.md).
  int spatial_dim(int i) const { return interleave == Interleave::none ? i + 1 : i; }
  // Units the box holds along dimension d (the traversal stride applied).
  int64_t box_extent(int d) const;
  // Bytes of one innermost row of the box as it lands in shared memory (before padding).
  int64_t inner_row_bytes() const;
  // Bytes of shared memory between consecutive rows: the swizzle span when a row is narrower.
  int64_t smem_row_pitch() const;
  // Bytes the copy moves, which is what the mbarrier transaction count receives.
  int64_t transaction_bytes() const;
  // Bytes of shared memory the box covers, padding included.
  int64_t smem_footprint() const;
  // Bytes from element 0 to just past the farthest element: dimension 0's units plus each
  // outer dimension's (extent - 1) x stride. INT64_MAX when that overflows (the driver accepts
  // 2^32 elements x 2^40-byte strides); callers compare it with their memory budget.
  int64_t global_span_bytes() const;
};

struct Rejection {
  std::string rule;     // short identifier, e.g. "box_dims.range"
  std::string message;  // what was given and what the rule requires
};

// nullopt when the driver's encode call accepts the map.
std::optional<Rejection> validate(const TensorMap& map);

}  // namespace tmasim
