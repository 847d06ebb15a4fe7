#include "heatmap.hpp"

#include <fstream>
#include <map>

namespace tmasim::cli {

void write_bank_heatmap_svg(const std::string& path, const TileLayout& t, const BankGeometry& g, const WarpAccess& a,
                            const ConflictResult& r) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write '" + path + "'");
  const int cell = t.rows * t.cols > 16384 ? 4 : 10;
  const int top = 40, left = 10;
  const int width = left * 2 + t.cols * cell, height = top + t.rows * cell + 30;
  // Which wavefront serves each touched byte address (first lane that names it).
  const int lane_bytes = (a.op == SmemOp::ldmatrix || a.op == SmemOp::stmatrix) ? 16 : a.width;
  std::map<uint32_t, int> served;
  for (size_t k = 0; k < r.detail.size(); ++k)
    for (int l : r.detail[k].lanes)
      for (int b = 0; b < lane_bytes; ++b) served.emplace(static_cast<uint32_t>(a.addr[l] + b), static_cast<int>(k));
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
      << "' font-family='monospace' font-size='10'>\n";
  out << "<rect width='100%' height='100%' fill='white'/>\n";
  out << "<text x='" << left << "' y='14'>" << t.rows << "x" << t.cols << " " << name(t.dtype) << ", swizzle "
      << name(t.swizzle) << ": colour = bank (" << g.banks << " banks); outlined: accessed, number = wavefront</text>\n";
  out << "<text x='" << left << "' y='28'>" << r.wavefronts << " wavefronts, ideal " << r.ideal << "</text>\n";
  for (int row = 0; row < t.rows; ++row) {
    for (int col = 0; col < t.cols; ++col) {
      uint32_t addr = t.address(row, col);
      int bank = static_cast<int>((addr / g.bank_bytes) % g.banks);
      int hue = bank * 360 / g.banks;
      int x = left + col * cell, y = top + row * cell;
      out << "<rect x='" << x << "' y='" << y << "' width='" << cell << "' height='" << cell << "' fill='hsl(" << hue
          << ",70%,60%)'/>\n";
      auto it = served.find(addr);
      if (it != served.end()) {
        out << "<rect x='" << x << "' y='" << y << "' width='" << cell << "' height='" << cell
            << "' fill='none' stroke='black' stroke-width='1.5'/>\n";
        if (cell >= 10 && col % (16 / t.elem_bytes() > 0 ? 16 / t.elem_bytes() : 1) == 0)
          out << "<text x='" << x + 1 << "' y='" << y + cell - 1 << "' font-size='8'>" << it->second << "</text>\n";
      }
    }
  }
  out << "</svg>\n";
  out.close();
  if (!out) throw Error("cannot write '" + path + "'");
}

}  // namespace tmasim::cli
