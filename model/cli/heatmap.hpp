#pragma once
#include <string>

#include "tmasim/conflicts.hpp"
#include "tmasim/tile_layout.hpp"

namespace tmasim::cli {

// An SVG of the tile, one cell per element coloured by the bank holding its first byte;
// the elements the access touches are outlined and numbered by the wavefront that serves them.
void write_bank_heatmap_svg(const std::string& path, const TileLayout& tile, const BankGeometry& g,
                            const WarpAccess& access, const ConflictResult& result);

}  // namespace tmasim::cli
