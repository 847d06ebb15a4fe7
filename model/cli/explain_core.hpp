// The reusable part of `tmasim explain` (and what its fuzz target drives): a tensor map and an
// instruction built from command-line text, where every element of the box lands, and the
// picture of it. Printing stays in explain.cpp.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cli_input.hpp"
#include "picture.hpp"
#include "tmasim/tma.hpp"

namespace tmasim::cli {

// An H100 CTA can have at most 227 KiB of dynamic shared memory.
constexpr int64_t kSmemPerCta = 232448;
constexpr int kChunkBytes = 16;  // the swizzle moves 16-byte chunks; 4 banks of 4 bytes

// A tensor map as the command line gives it: JSON (a file or inline), fields overridden by flags.
struct MapOptions {
  std::string map;  // a JSON file, or a JSON object given inline
  std::string mode, dtype, dims, strides, box, element_strides, swizzle, interleave, oob_fill, l2_promotion;
  std::string global_address;
};

// The instruction as the command line gives it.
struct InstructionOptions {
  std::string coords, offsets, op = "load", reduce_op = "add", smem_offset = "0";
};

// Throws Error (naming the flag or field) for malformed input; the driver's rules are validate()'s.
TensorMap build_map(const MapOptions& o);
TmaInstruction build_instruction(const InstructionOptions& o);

std::string join(const std::vector<int64_t>& v, const char* sep = "x");
// "cp.async.bulk.tensor.2d.shared::cluster.global.tile... at (0, 0), shared memory +0"
std::string ptx_form(const TensorMap& m, const TmaInstruction& ins);

// One element (a unit of row_unit_bytes) of the box and where it lands.
struct Placement {
  uint32_t smem = 0;  // swizzled byte offset of its first byte
  std::array<int64_t, 5> coord{};
  bool in_bounds = true;
  int64_t global_offset = 0;  // bytes from globalAddress (in bounds only)
  int64_t box_row = 0, row_byte = 0;
};

// Each 16-byte shared-memory chunk: the first element that lands in it and how many do.
struct Chunk {
  Placement first;
  int64_t last_coord0 = 0;
  int elements = 0, out_of_bounds = 0;
};

struct Layout {
  std::vector<Placement> elements;
  std::map<uint32_t, Chunk> chunks;  // by shared-memory byte offset
  int64_t rows = 0, row_bytes = 0;
};

// Every element of the box the instruction moves (the map valid, the instruction checked).
Layout place(const TensorMap& m, const TmaInstruction& ins);
// Two panels, as CuTe's print_latex draws a layout: the box as the tensor sees it (rows of
// 16-byte chunks, each labelled with the shared-memory offset it lands at) and shared memory
// as 128-byte lines (each chunk labelled with the row,col it came from); both coloured by
// the group of four banks the chunk occupies, swizzle atoms outlined.
Picture draw_layout(const TensorMap& m, const TmaInstruction& ins, const Layout& l);

}  // namespace tmasim::cli
