#include "picture.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "tmasim/types.hpp"

namespace tmasim::cli {

namespace {
#include "font5x7.inc"  // kFont5x7[95][7]

std::string css(Rgb c) {
  std::ostringstream os;
  os << "rgb(" << int(c.r) << "," << int(c.g) << "," << int(c.b) << ")";
  return os.str();
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\'': out += "&apos;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

void put_u32(std::vector<uint8_t>& v, uint32_t x) {
  for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<uint8_t>(x >> s));
}

void put_chunk(std::vector<uint8_t>& png, const char* type, const std::vector<uint8_t>& data) {
  put_u32(png, static_cast<uint32_t>(data.size()));
  const size_t start = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), data.begin(), data.end());
  put_u32(png, static_cast<uint32_t>(crc32(0, png.data() + start, static_cast<uInt>(png.size() - start))));
}

}  // namespace

Rgb hsl(double hue, double s, double l) {
  const double c = (1 - std::fabs(2 * l - 1)) * s;
  const double h = std::fmod(hue, 360.0) / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (h < 1) r = c, g = x;
  else if (h < 2) r = x, g = c;
  else if (h < 3) g = c, b = x;
  else if (h < 4) g = x, b = c;
  else if (h < 5) r = x, b = c;
  else r = c, b = x;
  const double m = l - c / 2;
  auto byte = [&](double v) { return static_cast<uint8_t>(std::lround(std::clamp(v + m, 0.0, 1.0) * 255)); };
  return {byte(r), byte(g), byte(b)};
}

Picture::Picture(int width, int height) : width_(width), height_(height) {
  if (width <= 0 || height <= 0 || int64_t(width) * height > (int64_t(1) << 26))
    throw Error("picture of " + std::to_string(width) + "x" + std::to_string(height) + " pixels is too large");
}

void Picture::fill(int x, int y, int w, int h, Rgb c) { items_.push_back({Item::fill, x, y, w, h, 0, 0, c, {}}); }

void Picture::outline(int x, int y, int w, int h, Rgb c, int t) {
  items_.push_back({Item::outline, x, y, w, h, t, 0, c, {}});
}

void Picture::line(int x0, int y0, int x1, int y1, Rgb c, int t) {
  if (x0 == x1) fill(x0 - t / 2, std::min(y0, y1), t, std::abs(y1 - y0), c);
  else fill(std::min(x0, x1), y0 - t / 2, std::abs(x1 - x0), t, c);
}

void Picture::text(int x, int y, const std::string& s, Rgb c, int scale, Anchor anchor) {
  const int w = text_width(s, scale);
  if (anchor == Anchor::middle) x -= w / 2;
  if (anchor == Anchor::end) x -= w;
  items_.push_back({Item::text, x, y, w, kCharHeight * scale, 0, scale, c, s});
}

std::string Picture::svg() const {
  std::ostringstream os;
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width_ << "' height='" << height_ << "' viewBox='0 0 "
     << width_ << " " << height_ << "'>\n<rect width='100%' height='100%' fill='white'/>\n";
  for (const Item& i : items_) {
    switch (i.kind) {
      case Item::fill:
        os << "<rect x='" << i.x << "' y='" << i.y << "' width='" << i.w << "' height='" << i.h << "' fill='"
           << css(i.colour) << "'/>\n";
        break;
      case Item::outline: {  // inside the box, as the PNG draws it
        const double half = i.thickness / 2.0;
        os << "<rect x='" << i.x + half << "' y='" << i.y + half << "' width='" << i.w - i.thickness
           << "' height='" << i.h - i.thickness << "' fill='none' stroke='" << css(i.colour) << "' stroke-width='"
           << i.thickness << "'/>\n";
        break;
      }
      case Item::text:
        if (i.s.empty()) break;
        os << "<text x='" << i.x << "' y='" << i.y + 7 * i.scale << "' font-family='monospace' font-size='"
           << 10 * i.scale << "' textLength='" << i.w - i.scale << "' lengthAdjust='spacingAndGlyphs' fill='"
           << css(i.colour) << "'>" << xml_escape(i.s) << "</text>\n";
        break;
    }
  }
  os << "</svg>\n";
  return os.str();
}

std::vector<uint8_t> Picture::png() const {
  const size_t stride = 1 + 3 * static_cast<size_t>(width_);  // a filter byte, then RGB
  std::vector<uint8_t> raw(stride * height_, 255);
  for (int y = 0; y < height_; ++y) raw[y * stride] = 0;
  auto put = [&](int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    uint8_t* p = &raw[y * stride + 1 + 3 * static_cast<size_t>(x)];
    p[0] = c.r, p[1] = c.g, p[2] = c.b;
  };
  auto box = [&](int x, int y, int w, int h, Rgb c) {
    for (int yy = std::max(y, 0); yy < std::min(y + h, height_); ++yy)
      for (int xx = std::max(x, 0); xx < std::min(x + w, width_); ++xx) put(xx, yy, c);
  };
  for (const Item& i : items_) {
    switch (i.kind) {
      case Item::fill: box(i.x, i.y, i.w, i.h, i.colour); break;
      case Item::outline:
        box(i.x, i.y, i.w, i.thickness, i.colour);
        box(i.x, i.y + i.h - i.thickness, i.w, i.thickness, i.colour);
        box(i.x, i.y, i.thickness, i.h, i.colour);
        box(i.x + i.w - i.thickness, i.y, i.thickness, i.h, i.colour);
        break;
      case Item::text:
        for (size_t k = 0; k < i.s.size(); ++k) {
          const unsigned char ch = static_cast<unsigned char>(i.s[k]);
          const unsigned char* glyph = kFont5x7[(ch >= 32 && ch < 127 ? ch : '?') - 32];
          const int x0 = i.x + static_cast<int>(k) * kCharWidth * i.scale;
          for (int row = 0; row < 7; ++row)
            for (int col = 0; col < 5; ++col)
              if (glyph[row] & (0x10 >> col)) box(x0 + col * i.scale, i.y + row * i.scale, i.scale, i.scale, i.colour);
        }
        break;
    }
  }
  uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<uint8_t> packed(packed_size);
  if (compress2(packed.data(), &packed_size, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK)
    throw Error("PNG compression failed");
  packed.resize(packed_size);
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> header;
  put_u32(header, static_cast<uint32_t>(width_));
  put_u32(header, static_cast<uint32_t>(height_));
  header.insert(header.end(), {8, 2, 0, 0, 0});  // 8-bit RGB, deflate, no interlace
  put_chunk(png, "IHDR", header);
  put_chunk(png, "IDAT", packed);
  put_chunk(png, "IEND", {});
  return png;
}

namespace {
bool ends_with(const std::string& path, const std::string& ext) {
  return path.size() >= ext.size() &&
         std::equal(ext.rbegin(), ext.rend(), path.rbegin(), [](char a, char b) { return a == std::tolower(b); });
}
}  // namespace

void Picture::check_path(const std::string& path, const std::string& ext, const char* flag) {
  if (!path.empty() && !ends_with(path, ext))
    throw Error(std::string(flag) + " '" + path + "': the file name must end in " + ext);
}

void Picture::write(const std::string& path) const {
  const bool as_svg = ends_with(path, ".svg");
  if (!as_svg && !ends_with(path, ".png")) throw Error("picture '" + path + "': the name must end in .svg or .png");
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("cannot write '" + path + "'");
  if (as_svg) {
    out << svg();
  } else {
    const std::vector<uint8_t> bytes = png();
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  out.close();
  if (!out) throw Error("cannot write '" + path + "'");
}

}  // namespace tmasim::cli
