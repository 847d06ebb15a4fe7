#pragma once
#include "picture.hpp"
#include "tmasim/conflicts.hpp"
#include "tmasim/tile_layout.hpp"

namespace tmasim::cli {

// The tile, one cell per element coloured by the bank holding its first byte, with row and
// column axes, the swizzle atoms outlined and a legend of banks; the elements the access
// touches are outlined and numbered by the wavefront that serves them, in red where the
// lane shares a bank with another lane at a different word (a bank conflict).
Picture draw_bank_heatmap(const TileLayout& tile, const BankGeometry& g, const WarpAccess& access,
                          const ConflictResult& result);

}  // namespace tmasim::cli
