// Shared-memory bank conflicts of one warp-wide instruction: how many wavefronts the
// hardware needs and which banks each serves, with the geometry as a parameter so that
// architecture studies can ask "what if SMEM had 64 banks?".
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tmasim/types.hpp"

namespace tmasim {

struct BankGeometry {
  int banks = 32;            // H100: 32 banks
  int bank_bytes = 4;        // of 4 bytes
  int wavefront_bytes() const { return banks * bank_bytes; }
};

enum class SmemOp : uint8_t { ld, st, ldmatrix, stmatrix };

struct WarpAccess {
  SmemOp op = SmemOp::ld;
  int width = 4;        // bytes per lane, ld/st
  int num = 1;          // matrices, ldmatrix/stmatrix
  bool trans = false;   // .trans: same addresses, other register layout
  std::array<int64_t, 32> addr{};  // byte address per lane; -1: inactive (or unused by ldmatrix)
};

struct Wavefront {
  std::vector<int> lanes;      // lanes served
  std::vector<uint32_t> banks; // bit i of word w: bank 32*w+i served
};

struct ConflictResult {
  int wavefronts = 0;
  int ideal = 0;  // wavefronts with no conflict: bytes moved over the wavefront width
  int conflicts() const { return wavefronts - ideal; }
  std::vector<Wavefront> detail;
};

std::string_view name(SmemOp);
std::optional<SmemOp> parse_smem_op(std::string_view);

// Bytes each lane reads or writes: 16 for ldmatrix/stmatrix rows, the width for ld/st.
int lane_bytes(const WarpAccess& a);

// The lanes whose requests the hardware considers together: a full wavefront's worth of
// bytes (128 on the H100) at the lane width, e.g. 8 lanes of 16 bytes; ldmatrix rows
// come 8 at a time, one matrix each. Lanes of different groups never conflict.
int group_lanes(const WarpAccess& a, const BankGeometry& g);

// Throws Error for malformed accesses (misaligned address, bad width or count).
void check_access(const WarpAccess& a);
ConflictResult evaluate(const WarpAccess& a, const BankGeometry& g = {}, bool with_detail = false);

}  // namespace tmasim
