// tmasim explain / validate: what the driver says about a tensor map, and what one bulk
// tensor instruction does with it: whether it traps, the transaction bytes, the fill, and
// where every element lands in shared memory (a table, CSV, and an SVG/PNG picture).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "commands.hpp"
#include "picture.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"

namespace tmasim::cli {

namespace {

using nlohmann::json;

// An H100 CTA can have at most 227 KiB of dynamic shared memory.
constexpr int64_t kSmemPerCta = 232448;
constexpr int kChunkBytes = 16;  // the swizzle moves 16-byte chunks; 4 banks of 4 bytes

struct MapOptions {
  std::string map;  // a JSON file, or a JSON object given inline
  std::string mode, dtype, dims, strides, box, element_strides, swizzle, interleave, oob_fill, l2_promotion;
  std::string global_address;
};

void add_map_options(CLI::App* sub, MapOptions& o) {
  sub->add_option("--map", o.map,
                  "tensor map: a JSON file or an inline JSON object with the fields of golden-case.md section 1\n"
                  "(the flags below override its fields)");
  sub->add_option("--mode", o.mode, "tiled | im2col");
  sub->add_option("--dtype", o.dtype, "element type: float16, bfloat16, float32, uint8, ... (golden-case.md)");
  sub->add_option("--dims", o.dims, "global dimensions in elements, innermost first: 64,64 (sets the rank)");
  sub->add_option("--strides", o.strides, "byte strides of dimensions 1.. (default: packed)");
  sub->add_option("--box", o.box, "box dimensions, innermost first (default: the whole tensor)");
  sub->add_option("--element-strides", o.element_strides, "traversal strides (default: all 1)");
  sub->add_option("--swizzle", o.swizzle, "none | 32b | 64b | 128b | 128b_atom_32b | 128b_atom_32b_flip_8b | 128b_atom_64b");
  sub->add_option("--interleave", o.interleave, "none | 16b | 32b");
  sub->add_option("--oob-fill", o.oob_fill, "zero | nan");
  sub->add_option("--l2-promotion", o.l2_promotion, "none | 64b | 128b | 256b");
  sub->add_option("--global-address", o.global_address, "globalAddress in bytes, decimal or 0x hex (default 0)");
}

// A comma-separated list of integers, decimal or 0x hex, each checked.
std::vector<int64_t> int_list(const std::string& text, const char* flag) {
  std::vector<int64_t> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t used = 0;
    int64_t x = 0;
    try {
      x = std::stoll(item, &used, 0);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size())
      throw Error(std::string(flag) + ": '" + item + "' is not an integer (expected a comma-separated list)");
    v.push_back(x);
  }
  if (v.empty()) throw Error(std::string(flag) + ": empty list");
  return v;
}

TensorMap build_map(const MapOptions& o) {
  json j = json::object();
  if (!o.map.empty()) {
    const size_t first = o.map.find_first_not_of(" \t\n");
    j = first != std::string::npos && o.map[first] == '{' ? parse_json_text(o.map, "--map") : read_json_file(o.map, "tensor map");
    if (!j.is_object()) throw Error("--map: a tensor map is a JSON object");
  }
  auto set = [&](const std::string& value, const char* key) {
    if (!value.empty()) j[key] = value;
  };
  auto set_list = [&](const std::string& value, const char* key, const char* flag) {
    if (!value.empty()) j[key] = int_list(value, flag);
  };
  set(o.mode, "mode");
  set(o.dtype, "dtype");
  set(o.swizzle, "swizzle");
  set(o.interleave, "interleave");
  set(o.oob_fill, "oob_fill");
  set(o.l2_promotion, "l2_promotion");
  set_list(o.dims, "global_dims", "--dims");
  set_list(o.strides, "global_strides", "--strides");
  set_list(o.box, "box_dims", "--box");
  set_list(o.element_strides, "element_strides", "--element-strides");
  if (!j.contains("dtype")) throw Error("no element type: give --dtype or a --map with 'dtype'");
  if (!j.contains("global_dims")) throw Error("no tensor shape: give --dims or a --map with 'global_dims'");
  // Defaults a user of the flags expects: the rank from the dimensions, packed strides, the
  // whole tensor as the box.
  if (!j.contains("rank") && j["global_dims"].is_array()) j["rank"] = j["global_dims"].size();
  const std::optional<DType> dt = j["dtype"].is_string() ? parse_dtype(j["dtype"].get<std::string>()) : std::nullopt;
  if (!j.contains("global_strides") && dt && j["global_dims"].is_array()) {
    json strides = json::array();
    int64_t pitch = dtype_bytes(*dt);
    for (size_t d = 0; d + 1 < j["global_dims"].size(); ++d) {
      if (!j["global_dims"][d].is_number_integer()) break;
      pitch *= j["global_dims"][d].get<int64_t>();
      strides.push_back(pitch);
    }
    j["global_strides"] = strides;
  }
  if (!j.contains("box_dims") && j.value("mode", "tiled") == "tiled") j["box_dims"] = j["global_dims"];
  TensorMap m = parse_tensor_map(j, o.map.empty() ? "tensor map" : "--map", true);
  if (!o.global_address.empty()) {
    const std::vector<int64_t> a = int_list(o.global_address, "--global-address");
    if (a.size() != 1 || a[0] < 0) throw Error("--global-address: one non-negative byte address");
    m.global_address = static_cast<uint64_t>(a[0]);
  }
  return m;
}

std::string join(const std::vector<int64_t>& v, const char* sep = "x") {
  std::ostringstream os;
  for (size_t i = 0; i < v.size(); ++i) os << (i ? sep : "") << v[i];
  return os.str();
}

std::string describe(const TensorMap& m) {
  std::ostringstream os;
  os << name(m.mode) << " " << name(m.dtype) << ", rank " << m.rank << ": global " << join(m.global_dims)
     << " elements (strides " << join(m.global_strides, ",") << " B)";
  if (m.mode == TensorMode::tiled) os << ", box " << join(m.box_dims);
  else
    os << ", pixel box [" << join(m.lower_corner, ",") << "]..[" << join(m.upper_corner, ",") << "], "
       << m.channels_per_pixel << " channels x " << m.pixels_per_column << " pixels";
  os << ", element strides " << join(m.element_strides, ",") << ", swizzle " << name(m.swizzle) << ", interleave "
     << name(m.interleave) << ", OOB fill " << name(m.oob_fill) << ", L2 promotion " << name(m.l2_promotion);
  return os.str();
}

const char* encode_call(const TensorMap& m) {
  return m.mode == TensorMode::tiled ? "cuTensorMapEncodeTiled" : "cuTensorMapEncodeIm2col";
}

// The driver's verdict; false when it rejects the map.
bool print_verdict(const TensorMap& m) {
  std::cout << "tensor map   " << describe(m) << "\n";
  if (auto bad = validate(m)) {
    std::cout << "driver       rejected: " << encode_call(m) << " returns CUDA_ERROR_INVALID_VALUE\n"
              << "             rule " << bad->rule << ": " << bad->message << "\n";
    return false;
  }
  std::cout << "driver       accepted: " << encode_call(m) << " returns CUDA_SUCCESS\n";
  return true;
}

void print_geometry(const TensorMap& m) {
  std::cout << "copy size    " << m.transaction_bytes() << " transaction bytes per load (the mbarrier's complete_tx); "
            << m.smem_footprint() << " B of shared memory (rows of " << m.inner_row_bytes() << " B at a pitch of "
            << m.smem_row_pitch() << " B)\n";
}

struct ValidateOptions {
  MapOptions map;
};

int validate_command(const ValidateOptions& o) {
  const TensorMap m = build_map(o.map);
  if (!print_verdict(m)) return 1;
  print_geometry(m);
  return 0;
}

// ---- explain ----

struct ExplainOptions {
  MapOptions map;
  std::string coords, offsets, op = "load", reduce_op = "add", smem_offset = "0";
  std::string csv, svg, png;
  int table_rows = 16;
};

std::string ptx_form(const TensorMap& m, const TmaInstruction& ins) {
  std::ostringstream os;
  const std::string dim = std::to_string(m.rank) + "d";
  const std::string mode = m.mode == TensorMode::tiled ? "tile" : "im2col";
  switch (ins.op) {
    case Op::load:
      os << "cp.async.bulk.tensor." << dim << ".shared::cluster.global." << mode << ".mbarrier::complete_tx::bytes";
      break;
    case Op::store: os << "cp.async.bulk.tensor." << dim << ".global.shared::cta." << mode << ".bulk_group"; break;
    case Op::reduce:
      os << "cp.reduce.async.bulk.tensor." << dim << ".global.shared::cta." << name(ins.reduce_op) << "." << mode
         << ".bulk_group";
      break;
    case Op::prefetch: os << "cp.async.bulk.prefetch.tensor." << dim << ".L2.global." << mode; break;
  }
  os << " at (" << join(std::vector<int64_t>(ins.coords.begin(), ins.coords.end()), ", ") << ")";
  if (!ins.im2col_offsets.empty())
    os << ", offsets (" << join(std::vector<int64_t>(ins.im2col_offsets.begin(), ins.im2col_offsets.end()), ", ") << ")";
  if (ins.op != Op::prefetch) os << ", shared memory +" << ins.smem_offset;
  return os.str();
}

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

Layout place(const TensorMap& m, const TmaInstruction& ins) {
  Layout l;
  const int unit = m.row_unit_bytes();
  for_each_row(m, ins, [&](const BoxRow& r) {
    for (int64_t k = 0; k < r.elements; ++k) {
      Placement p;
      p.smem = swizzle_address(m.swizzle, static_cast<uint32_t>(r.element_smem(k, unit)));
      p.coord = r.coord;
      p.coord[0] = r.element_coord0(k);
      p.in_bounds = r.element_in_bounds(k, m.global_dims[0]);
      p.global_offset = p.in_bounds ? r.element_global(k, unit) : 0;
      p.box_row = l.rows;
      p.row_byte = k * unit;
      // A 32-byte interleave unit spans two chunks, which the swizzle may separate.
      for (int o = 0; o < unit; o += kChunkBytes) {
        const uint32_t at = swizzle_address(m.swizzle, static_cast<uint32_t>(r.element_smem(k, unit) + o));
        Chunk& c = l.chunks[at / kChunkBytes * kChunkBytes];
        if (c.elements == 0) {
          c.first = p;
          c.first.row_byte = p.row_byte + o;
        }
        c.last_coord0 = p.coord[0];
        ++c.elements;
        c.out_of_bounds += !p.in_bounds;
      }
      l.elements.push_back(p);
    }
    l.row_bytes = std::max<int64_t>(l.row_bytes, r.elements * unit);
    ++l.rows;
  });
  return l;
}

std::string coords_text(const std::array<int64_t, 5>& c, int rank, int64_t last0) {
  std::ostringstream os;
  os << "(" << c[0];
  if (last0 != c[0]) os << ".." << last0;
  for (int d = 1; d < rank; ++d) os << ", " << c[d];
  return os.str() + ")";
}

void print_table(const TensorMap& m, const Layout& l, bool load, int limit) {
  std::cout << "\n  smem byte  banks   box row  " << (load ? "<-" : "->")
            << " tensor coordinates (innermost first)\n";
  int shown = 0;
  for (const auto& [addr, c] : l.chunks) {
    if (shown++ == limit) {
      std::cout << "  ... " << l.chunks.size() - static_cast<size_t>(limit)
                << " more 16-byte chunks (--rows N for more; --csv FILE lists every element)\n";
      break;
    }
    const int bank = static_cast<int>(addr / 4 % 32);
    std::cout << "  " << std::setw(9) << addr << "  " << std::setw(2) << bank << "-" << std::left << std::setw(2)
              << bank + 3 << std::right << "  " << std::setw(8) << c.first.box_row << "     "
              << coords_text(c.first.coord, m.rank, c.last_coord0);
    if (c.out_of_bounds == c.elements) std::cout << "  out of bounds: " << (load ? "filled" : "not stored");
    else if (c.out_of_bounds) std::cout << "  " << c.out_of_bounds << " of " << c.elements << " out of bounds";
    std::cout << "\n";
  }
}

void write_csv(const std::string& path, const TensorMap& m, const Layout& l) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write --csv " + path);
  out << "smem_offset,bank,box_row,row_byte";
  for (int d = 0; d < m.rank; ++d) out << ",dim" << d;
  out << ",in_bounds,global_offset,global_address\n";
  for (const Placement& p : l.elements) {
    out << p.smem << "," << p.smem / 4 % 32 << "," << p.box_row << "," << p.row_byte;
    for (int d = 0; d < m.rank; ++d) out << "," << p.coord[d];
    if (p.in_bounds) out << ",1," << p.global_offset << "," << m.global_address + static_cast<uint64_t>(p.global_offset) << "\n";
    else out << ",0,,\n";
  }
  out.close();
  if (!out) throw Error("cannot write --csv " + path);
}

Rgb bank_group_colour(uint32_t addr) { return hsl((addr / kChunkBytes % 8) * 45.0, 0.65, 0.75); }

std::string chunk_label(const Chunk& c, int rank) {
  if (rank == 1) return std::to_string(c.first.coord[0]);
  return std::to_string(c.first.coord[1]) + "," + std::to_string(c.first.coord[0]);
}

// Two panels, as CuTe's print_latex draws a layout: the box as the tensor sees it (rows of
// 16-byte chunks, each labelled with the shared-memory offset it lands at) and shared memory
// as 128-byte lines (each chunk labelled with the row,col it came from); both coloured by
// the group of four banks the chunk occupies, swizzle atoms outlined.
Picture draw_layout(const TensorMap& m, const TmaInstruction& ins, const Layout& l) {
  constexpr int kMaxLines = 256, kMaxRowChunks = 32, kCellW = 48, kCellH = 14, kMargin = 12, kGap = 40;
  const int64_t row_chunks = std::min<int64_t>((l.row_bytes + kChunkBytes - 1) / kChunkBytes, kMaxRowChunks);
  const int64_t box_rows = std::min<int64_t>(l.rows, kMaxLines);
  const uint32_t base = l.chunks.begin()->first / 128 * 128;
  const uint32_t end = l.chunks.rbegin()->first + kChunkBytes;
  const int64_t lines_all = (end - base + 127) / 128;
  const int64_t lines = std::min<int64_t>(lines_all, kMaxLines);
  const int header = 5 * Picture::kCharHeight + 16, axis = 44;
  const int left_w = static_cast<int>(row_chunks) * kCellW, right_w = 8 * kCellW;
  const int left_x = kMargin + axis, right_x = left_x + left_w + kGap + axis;
  const int grid_y = kMargin + header + 28;
  const int legend_y = grid_y + static_cast<int>(std::max(box_rows, lines)) * kCellH + 16;
  const int width = std::max(right_x + right_w + kMargin, kMargin + 8 * 110);
  Picture pic(width, legend_y + 3 * 16 + kMargin);

  int y = kMargin;
  auto line_of_text = [&](const std::string& s) {
    pic.text(kMargin, y, s);
    y += Picture::kCharHeight + 4;
  };
  line_of_text(std::string(name(m.mode)) + " " + std::string(name(m.dtype)) + ", box " +
               (m.mode == TensorMode::tiled ? join(m.box_dims) : std::to_string(l.rows) + " pixels") + ", swizzle " +
               std::string(name(m.swizzle)) + ", " + ptx_form(m, ins).substr(ptx_form(m, ins).find(" at ") + 1));
  line_of_text(std::to_string(m.transaction_bytes()) + " transaction bytes; shared memory bytes " +
               std::to_string(base) + ".." + std::to_string(end - 1) + "; colour: banks the 16-byte chunk occupies");
  line_of_text("left: the box, one row per box row, each 16-byte chunk labelled with its shared-memory offset");
  line_of_text("right: shared memory in 128-byte lines (all 32 banks), each chunk labelled with its source " +
               std::string(m.rank > 1 ? "row,col (dim1,dim0)" : "element (dim0)"));
  if (lines_all > kMaxLines || l.rows > kMaxLines || (l.row_bytes + 15) / 16 > kMaxRowChunks)
    line_of_text("(drawn: the first " + std::to_string(kMaxLines) + " rows and lines, " +
                 std::to_string(kMaxRowChunks) + " chunks per row; the CSV has every element)");

  const int64_t atom = m.swizzle == Swizzle::none ? 0 : swizzle_repeat_bytes(m.swizzle);
  const int span = swizzle_span(m.swizzle);
  // Left panel: the box.
  pic.text(left_x, grid_y - 26, "box: row, byte in row");
  for (const auto& [addr, c] : l.chunks) {
    const int64_t col = c.first.row_byte / kChunkBytes;
    if (c.first.box_row >= box_rows || col >= row_chunks) continue;
    const int x = left_x + static_cast<int>(col) * kCellW, yy = grid_y + static_cast<int>(c.first.box_row) * kCellH;
    pic.fill(x, yy, kCellW, kCellH, c.out_of_bounds == c.elements ? kGrey : bank_group_colour(addr));
    pic.outline(x, yy, kCellW + 1, kCellH + 1, kWhite);
    pic.text(x + kCellW / 2, yy + 3, std::to_string(addr), kBlack, 1, Picture::Anchor::middle);
  }
  for (int64_t r = 0; r < box_rows; r += (box_rows > 32 ? 8 : 1))
    pic.text(left_x - 4, grid_y + static_cast<int>(r) * kCellH + 3, std::to_string(r), kBlack, 1, Picture::Anchor::end);
  for (int64_t c = 0; c < row_chunks; ++c)
    pic.text(left_x + static_cast<int>(c) * kCellW + kCellW / 2, grid_y - 12, std::to_string(c * kChunkBytes),
             kBlack, 1, Picture::Anchor::middle);
  // Swizzle atoms in the box: every atom / pitch rows, every span bytes across.
  const int64_t pitch = m.smem_row_pitch();
  if (atom > 0 && pitch > 0) {
    const int64_t rows_per_atom = std::max<int64_t>(1, atom / pitch);
    for (int64_t r = 0; r <= box_rows; r += rows_per_atom)
      pic.line(left_x, grid_y + static_cast<int>(r) * kCellH, left_x + left_w, grid_y + static_cast<int>(r) * kCellH, kBlack, 2);
  }
  if (span > 0)
    for (int64_t c = 0; c <= row_chunks; c += span / kChunkBytes)
      pic.line(left_x + static_cast<int>(c) * kCellW, grid_y, left_x + static_cast<int>(c) * kCellW,
               grid_y + static_cast<int>(box_rows) * kCellH, kBlack, 2);

  // Right panel: shared memory.
  pic.text(right_x, grid_y - 26, "shared memory: byte, first bank");
  for (int c = 0; c < 8; ++c)
    pic.text(right_x + c * kCellW + kCellW / 2, grid_y - 12, "b" + std::to_string(4 * c), kBlack, 1, Picture::Anchor::middle);
  for (const auto& [addr, c] : l.chunks) {
    const int64_t line = (addr - base) / 128, col = addr % 128 / kChunkBytes;
    if (line >= lines) continue;
    const int x = right_x + static_cast<int>(col) * kCellW, yy = grid_y + static_cast<int>(line) * kCellH;
    pic.fill(x, yy, kCellW, kCellH, c.out_of_bounds == c.elements ? kGrey : bank_group_colour(addr));
    pic.outline(x, yy, kCellW + 1, kCellH + 1, kWhite);
    pic.text(x + kCellW / 2, yy + 3, chunk_label(c, m.rank), kBlack, 1, Picture::Anchor::middle);
  }
  for (int64_t line = 0; line < lines; line += (lines > 32 ? 8 : 1))
    pic.text(right_x - 4, grid_y + static_cast<int>(line) * kCellH + 3, std::to_string(base + line * 128), kBlack, 1,
             Picture::Anchor::end);
  if (atom > 0)
    for (int64_t line = 0; line <= lines; ++line)
      if ((base + line * 128) % atom == 0)
        pic.line(right_x, grid_y + static_cast<int>(line) * kCellH, right_x + right_w,
                 grid_y + static_cast<int>(line) * kCellH, kBlack, 2);

  // Legend: the eight bank groups, the fill, the atom outline.
  for (int g = 0; g < 8; ++g) {
    const int x = kMargin + g * 110;
    pic.fill(x, legend_y, 14, 12, bank_group_colour(static_cast<uint32_t>(g * kChunkBytes)));
    pic.text(x + 18, legend_y + 2, "banks " + std::to_string(4 * g) + "-" + std::to_string(4 * g + 3));
  }
  pic.fill(kMargin, legend_y + 18, 14, 12, kGrey);
  pic.text(kMargin + 18, legend_y + 20, "out of bounds: " + std::string(ins.op == Op::load ? "filled with " + std::string(name(m.oob_fill)) : "not written to global memory"));
  if (atom > 0) {
    pic.line(kMargin, legend_y + 40, kMargin + 14, legend_y + 40, kBlack, 2);
    pic.text(kMargin + 18, legend_y + 36, "swizzle atom boundary (" + std::to_string(atom) + " B)");
  }
  return pic;
}

int explain_command(const ExplainOptions& o) {
  Picture::check_path(o.svg, ".svg", "--svg");
  Picture::check_path(o.png, ".png", "--png");
  for (const auto& [path, what] : {std::pair{o.csv, "--csv"}, {o.svg, "--svg"}, {o.png, "--png"}})
    if (!path.empty()) check_writable(path, what);
  const TensorMap m = build_map(o.map);
  TmaInstruction ins;
  const std::optional<Op> op = parse_op(o.op);
  if (!op) throw Error("--op '" + o.op + "': expected load, store, reduce or prefetch");
  ins.op = *op;
  if (const auto r = parse_reduce_op(o.reduce_op)) ins.reduce_op = *r;
  else throw Error("--reduce-op '" + o.reduce_op + "': expected add, min, max, inc, dec, and, or, xor");
  if (o.coords.empty()) throw Error("--coords is required: the tensor coordinates, innermost first, e.g. 0,0");
  for (int64_t c : int_list(o.coords, "--coords")) {
    if (c < INT32_MIN || c > INT32_MAX) throw Error("--coords: " + std::to_string(c) + " does not fit the instruction's 32 bits");
    ins.coords.push_back(static_cast<int32_t>(c));
  }
  if (!o.offsets.empty())
    for (int64_t c : int_list(o.offsets, "--offsets")) ins.im2col_offsets.push_back(static_cast<int32_t>(c));
  const std::vector<int64_t> smem = int_list(o.smem_offset, "--smem-offset");
  if (smem.size() != 1 || smem[0] < 0 || smem[0] >= kSmemPerCta)
    throw Error("--smem-offset: one byte offset in 0.." + std::to_string(kSmemPerCta - 1) + " (227 KiB per CTA)");
  ins.smem_offset = static_cast<uint32_t>(smem[0]);

  if (!print_verdict(m)) return 1;
  std::cout << "instruction  " << ptx_form(m, ins) << "\n";
  try {
    check_instruction(m, ins);
  } catch (const Fault& f) {
    std::cout << "copy         traps: " << f.cuda_error() << " (the kernel stops; its CUDA context is lost)\n"
              << "             " << f.what() << "\n";
    return 1;
  }
  if (ins.op != Op::prefetch && ins.smem_offset + m.smem_footprint() > kSmemPerCta) {
    std::cout << "copy         does not fit: the box needs shared memory up to byte "
              << ins.smem_offset + m.smem_footprint() << "; an H100 CTA has at most " << kSmemPerCta << "\n";
    return 1;
  }
  const Layout l = place(m, ins);
  int64_t oob = 0, lo = INT64_MAX, hi = -1;
  for (const Placement& p : l.elements) {
    if (!p.in_bounds) ++oob;
    else lo = std::min(lo, p.global_offset), hi = std::max(hi, p.global_offset + m.row_unit_bytes());
  }
  const bool load = ins.op == Op::load;
  std::cout << "copy         runs; " << l.elements.size() << " elements in " << l.rows << " rows, " << oob
            << " out of bounds";
  if (oob) std::cout << (load ? " (filled with " + std::string(name(m.oob_fill)) + ")" : ins.op == Op::prefetch ? " (not fetched)" : " (not written)");
  std::cout << "\n";
  if (load) std::cout << "transaction  " << m.transaction_bytes() << " bytes complete on the mbarrier (arrive.expect_tx must announce them)\n";
  if (hi >= 0)
    std::cout << "global       bytes " << m.global_address + static_cast<uint64_t>(lo) << ".." << m.global_address + static_cast<uint64_t>(hi) - 1
              << (load || ins.op == Op::prefetch ? " read" : " written") << " (offsets " << lo << ".." << hi - 1 << " from globalAddress)\n";
  if (ins.op == Op::prefetch) {
    std::cout << "shared mem   untouched: a prefetch only warms L2\n";
    if (!o.svg.empty() || !o.png.empty() || !o.csv.empty())
      std::cout << "(no table or picture: a prefetch writes no shared memory)\n";
    return 0;
  }
  const uint32_t first = l.chunks.begin()->first, last = l.chunks.rbegin()->first + kChunkBytes - 1;
  std::cout << "shared mem   bytes " << first << ".." << last << " (" << m.smem_footprint() << " B footprint, row pitch "
            << m.smem_row_pitch() << " B";
  if (m.swizzle != Swizzle::none) std::cout << ", swizzle pattern repeats every " << swizzle_repeat_bytes(m.swizzle) << " B";
  std::cout << ")\n";
  print_table(m, l, load, o.table_rows);
  if (!o.csv.empty()) {
    write_csv(o.csv, m, l);
    std::cout << "\n  every element: " << o.csv << "\n";
  }
  for (const std::string& path : {o.svg, o.png}) {
    if (path.empty()) continue;
    draw_layout(m, ins, l).write(path);
    std::cout << "  picture: " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_validate(CLI::App& app) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* sub = app.add_subcommand(
      "validate", "Judge a tensor map as the CUDA 13 driver on an H100 does: accepted, or the rule it breaks.\n"
                  "Exit status 0 accepted, 1 rejected, 2 malformed input.");
  add_map_options(sub, o->map);
  sub->callback([o]() { throw CLI::RuntimeError(validate_command(*o)); });
}

void add_explain(CLI::App& app) {
  auto o = std::make_shared<ExplainOptions>();
  CLI::App* sub = app.add_subcommand(
      "explain", "What one bulk tensor instruction does: the driver's verdict on the map, the trap the copy would\n"
                 "raise, or the transaction bytes, the out-of-bound fill and where every element lands in shared\n"
                 "memory (a table; --csv every element; --svg/--png a picture coloured by bank group).\n"
                 "Exit status 0 the copy runs, 1 the map is rejected or the copy traps, 2 malformed input.");
  add_map_options(sub, o->map);
  sub->add_option("--coords", o->coords, "tensor coordinates, innermost first: 0,0")->required();
  sub->add_option("--offsets", o->offsets, "im2col offsets, W first");
  sub->add_option("--op", o->op, "load | store | reduce | prefetch")->capture_default_str();
  sub->add_option("--reduce-op", o->reduce_op, "reduction of --op reduce: add, min, max, inc, dec, and, or, xor")
      ->capture_default_str();
  sub->add_option("--smem-offset", o->smem_offset, "shared-memory byte offset from a 1024-byte-aligned base")
      ->capture_default_str();
  sub->add_option("--rows", o->table_rows, "16-byte chunks listed in the table")->capture_default_str()->check(CLI::Range(0, 1 << 20));
  sub->add_option("--csv", o->csv, "write every element: shared-memory offset, bank, tensor coordinates, global offset");
  sub->add_option("--svg", o->svg, "draw the shared-memory layout as SVG");
  sub->add_option("--png", o->png, "draw the shared-memory layout as PNG");
  sub->callback([o]() { throw CLI::RuntimeError(explain_command(*o)); });
}

}  // namespace tmasim::cli
