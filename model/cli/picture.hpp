// A small vector picture (filled rectangles, outlines, lines, text) written as SVG, or
// rasterised and written as PNG (zlib), so that every picture tmasim draws has one drawing
// routine and two identical renderings. Text uses a 5x7 bitmap font: each character is
// 6 x 8 pixels at scale 1, and the SVG's monospace text is sized to match.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tmasim::cli {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kGrey{190, 190, 190};
constexpr Rgb kRed{220, 30, 30};

// hue in degrees, saturation and lightness in 0..1.
Rgb hsl(double hue, double saturation, double lightness);

class Picture {
 public:
  enum class Anchor { start, middle, end };
  static constexpr int kCharWidth = 6, kCharHeight = 8;

  Picture(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }

  void fill(int x, int y, int w, int h, Rgb colour);
  void outline(int x, int y, int w, int h, Rgb colour, int thickness = 1);
  void line(int x0, int y0, int x1, int y1, Rgb colour, int thickness = 1);  // horizontal or vertical
  // `y` is the top of the text; `scale` multiplies the 6x8 character cell.
  void text(int x, int y, const std::string& s, Rgb colour = kBlack, int scale = 1, Anchor anchor = Anchor::start);
  static int text_width(const std::string& s, int scale = 1) { return static_cast<int>(s.size()) * kCharWidth * scale; }

  // Refuses (Error naming `flag`) a non-empty path that does not end in `ext` (".svg", ".png").
  static void check_path(const std::string& path, const std::string& ext, const char* flag);
  // Writes by the extension of `path`: .svg or .png. Throws Error on any other or on a failed write.
  void write(const std::string& path) const;
  std::string svg() const;
  std::vector<uint8_t> png() const;

 private:
  struct Item {
    enum Kind { fill, outline, text } kind;
    int x, y, w, h, thickness, scale;
    Rgb colour;
    std::string s;
  };
  int width_, height_;
  std::vector<Item> items_;
};

}  // namespace tmasim::cli
