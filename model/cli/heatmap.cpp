#include "heatmap.hpp"

#include <map>
#include <set>

namespace tmasim::cli {

namespace {

// Lanes that share a bank with another lane of their group (the lanes the hardware serves
// together) at a different word: the cause of extra wavefronts.
std::set<int> conflicting_lanes(const WarpAccess& a, const BankGeometry& g) {
  std::set<int> out;
  const int group = group_lanes(a, g);
  for (int first = 0; first < 32; first += group) {
    std::map<int64_t, std::set<int64_t>> words_of_bank;
    for (int pass = 0; pass < 2; ++pass)
      for (int l = first; l < std::min(32, first + group); ++l) {
        if (a.addr[l] < 0) continue;
        for (int64_t b = 0; b < lane_bytes(a); b += g.bank_bytes) {
          const int64_t word = (a.addr[l] + b) / g.bank_bytes;
          if (pass == 0) words_of_bank[word % g.banks].insert(word);
          else if (words_of_bank[word % g.banks].size() > 1) out.insert(l);
        }
      }
  }
  return out;
}

Rgb bank_colour(int bank, int banks) { return hsl(bank * 360.0 / banks, 0.65, 0.68); }

}  // namespace

// Every bank's colour, and what the outlines mean.
void draw_bank_legend(Picture& pic, const BankGeometry& g, int margin, int legend_y) {
  const int swatch = 14, per_line = 16;
  const int legend_lines = (g.banks + per_line - 1) / per_line;
  for (int b = 0; b < g.banks; ++b) {
    const int x = margin + (b % per_line) * (swatch + 22), yy = legend_y + (b / per_line) * 18;
    pic.fill(x, yy, swatch, 12, bank_colour(b, g.banks));
    pic.text(x + swatch + 3, yy + 2, std::to_string(b));
  }
  const int ly = legend_y + legend_lines * 18 + 4;
  pic.outline(margin, ly, swatch, 12, kBlack, 2);
  pic.text(margin + swatch + 4, ly + 2, "accessed (number: wavefront)");
  pic.outline(margin + 230, ly, swatch, 12, kRed, 2);
  pic.text(margin + 230 + swatch + 4, ly + 2, "lane in a bank conflict");
  pic.text(margin, ly + 18, "banks: legend above, numbered 0.." + std::to_string(g.banks - 1));
}

Picture draw_bank_heatmap(const TileLayout& t, const BankGeometry& g, const WarpAccess& a, const ConflictResult& r) {
  const int cell = t.rows * t.cols > 16384 ? 4 : 12;
  const int margin = 12, axis = 40, header = 4 * (Picture::kCharHeight + 4) + 8;
  const int grid_x = margin + axis, grid_y = margin + header + 14;
  const int grid_w = t.cols * cell, grid_h = t.rows * cell;
  const int swatch = 14, per_line = 16;
  const int legend_y = grid_y + grid_h + 12;
  const int legend_lines = (g.banks + per_line - 1) / per_line;
  const int width = std::max(grid_x + grid_w + margin, margin + per_line * (swatch + 22) + 40);
  Picture pic(width, legend_y + legend_lines * 18 + 3 * 14 + margin);

  // Which wavefront serves each touched byte (the first lane naming it), and who conflicts.
  std::map<uint32_t, std::pair<int, int>> served;  // address -> (wavefront, lane)
  for (size_t k = 0; k < r.detail.size(); ++k)
    for (int l : r.detail[k].lanes)
      for (int b = 0; b < lane_bytes(a); ++b)
        served.emplace(static_cast<uint32_t>(a.addr[l] + b), std::pair{static_cast<int>(k), l});
  const std::set<int> conflicting = conflicting_lanes(a, g);

  int y = margin;
  auto say = [&](const std::string& s) {
    pic.text(margin, y, s);
    y += Picture::kCharHeight + 4;
  };
  say(std::to_string(t.rows) + "x" + std::to_string(t.cols) + " " + std::string(name(t.dtype)) + ", swizzle " +
      std::string(name(t.swizzle)) + ", at shared-memory offset " + std::to_string(t.smem_offset) + "; " +
      std::to_string(g.banks) + " banks of " + std::to_string(g.bank_bytes) + " B");
  say(std::to_string(r.wavefronts) + " wavefronts, ideal " + std::to_string(r.ideal) + "; " +
      std::to_string(conflicting.size()) + " lanes in a bank conflict");
  say("colour: bank of the element's first byte; outline: accessed, number = wavefront (red: conflicting lane)");
  say("thick lines: swizzle atoms (column blocks of the span, rows of the repeat)");

  for (int row = 0; row < t.rows; ++row)
    for (int col = 0; col < t.cols; ++col) {
      const uint32_t addr = t.address(row, col);
      pic.fill(grid_x + col * cell, grid_y + row * cell, cell, cell,
               bank_colour(static_cast<int>(addr / g.bank_bytes % g.banks), g.banks));
    }
  // Atoms: a column block is one span wide; the swizzle repeats every swizzle_repeat_bytes.
  const int block_cols = t.block_cols();
  for (int c = 0; c <= t.cols; c += block_cols)
    pic.line(grid_x + c * cell, grid_y, grid_x + c * cell, grid_y + grid_h, kBlack, 2);
  if (t.swizzle != Swizzle::none) {
    const int rows_per_atom = std::max<int>(1, static_cast<int>(swizzle_repeat_bytes(t.swizzle)) / t.block_row_bytes());
    for (int row = 0; row <= t.rows; row += rows_per_atom)
      pic.line(grid_x, grid_y + row * cell, grid_x + grid_w, grid_y + row * cell, kBlack, 2);
  }
  // One outline per lane around the elements it reads (contiguous in one row: the swizzle
  // keeps 16-byte chunks whole).
  struct Span {
    int row = -1, first = 0, last = 0, wavefront = 0;
  };
  std::map<int, Span> lanes;
  for (int row = 0; row < t.rows; ++row)
    for (int col = 0; col < t.cols; ++col) {
      auto it = served.find(t.address(row, col));
      if (it == served.end()) continue;
      Span& s = lanes[it->second.second];
      if (s.row < 0) s = {row, col, col, it->second.first};
      if (s.row == row) s.first = std::min(s.first, col), s.last = std::max(s.last, col);
    }
  for (const auto& [lane, s] : lanes) {
    const bool bad = conflicting.count(lane) != 0;
    const int x = grid_x + s.first * cell, yy = grid_y + s.row * cell, w = (s.last - s.first + 1) * cell;
    pic.outline(x, yy, w + 1, cell + 1, bad ? kRed : kBlack, cell >= 10 ? 2 : 1);
    const std::string label = std::to_string(s.wavefront);
    if (cell >= 10 && Picture::text_width(label) + 4 <= w)
      pic.text(x + w / 2, yy + 3, label, bad ? kRed : kBlack, 1, Picture::Anchor::middle);
  }
  // Axes: rows and columns every 8 (every 32 on large tiles).
  const int step = cell >= 10 ? 8 : 32;
  for (int row = 0; row < t.rows; row += step)
    pic.text(grid_x - 4, grid_y + row * cell + 1, std::to_string(row), kBlack, 1, Picture::Anchor::end);
  for (int col = 0; col < t.cols; col += step)
    pic.text(grid_x + col * cell, grid_y - 12, std::to_string(col));
  pic.text(margin, grid_y - 12, "row");
  draw_bank_legend(pic, g, margin, legend_y);
  return pic;
}

}  // namespace tmasim::cli
