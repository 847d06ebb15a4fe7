#include "explain_core.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"

namespace tmasim::cli {

using nlohmann::json;

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
      if (__builtin_mul_overflow(pitch, j["global_dims"][d].get<int64_t>(), &pitch))
        throw Error("--dims: the packed strides overflow 64 bits (give --strides)");
      strides.push_back(pitch);
    }
    j["global_strides"] = strides;
  }
  if (!j.contains("box_dims") && (!j.contains("mode") || j["mode"] == "tiled")) j["box_dims"] = j["global_dims"];
  TensorMap m = parse_tensor_map(j, o.map.empty() ? "tensor map" : "--map", true);
  if (!o.global_address.empty()) {
    const std::vector<int64_t> a = int_list(o.global_address, "--global-address");
    if (a.size() != 1 || a[0] < 0) throw Error("--global-address: one non-negative byte address");
    m.global_address = static_cast<uint64_t>(a[0]);
  }
  return m;
}

TmaInstruction build_instruction(const InstructionOptions& o) {
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
    for (int64_t c : int_list(o.offsets, "--offsets")) {
      if (c < 0 || c > 0xffff) throw Error("--offsets: " + std::to_string(c) + " does not fit the instruction's 16 bits");
      ins.im2col_offsets.push_back(static_cast<int32_t>(c));
    }
  const std::vector<int64_t> smem = int_list(o.smem_offset, "--smem-offset");
  if (smem.size() != 1 || smem[0] < 0 || smem[0] >= kSmemPerCta)
    throw Error("--smem-offset: one byte offset in 0.." + std::to_string(kSmemPerCta - 1) + " (227 KiB per CTA)");
  ins.smem_offset = static_cast<uint32_t>(smem[0]);
  return ins;
}

std::string join(const std::vector<int64_t>& v, const char* sep) {
  std::ostringstream os;
  for (size_t i = 0; i < v.size(); ++i) os << (i ? sep : "") << v[i];
  return os.str();
}

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


Layout place(const TensorMap& m, const TmaInstruction& ins) {
  Layout l;
  const int unit = m.row_unit_bytes();
  const int64_t reach = dim0_reach(m, ins.op);
  for_each_row(m, ins, [&](const BoxRow& r) {
    for (int64_t k = 0; k < r.elements; ++k) {
      Placement p;
      p.smem = swizzle_address(m.swizzle, static_cast<uint32_t>(r.element_smem(k, unit)));
      p.coord = r.coord;
      p.coord[0] = r.element_coord0(k);
      p.in_bounds = r.element_in_bounds(k, reach);
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

namespace {

Rgb bank_group_colour(uint32_t addr) { return hsl((addr / kChunkBytes % 8) * 45.0, 0.65, 0.75); }

std::string chunk_label(const Chunk& c, int rank) {
  if (rank == 1) return std::to_string(c.first.coord[0]);
  return std::to_string(c.first.coord[1]) + "," + std::to_string(c.first.coord[0]);
}

}  // namespace

// The eight bank groups, the fill, the atom outline.
void draw_legend(Picture& pic, int legend_y, const TensorMap& m, const TmaInstruction& ins, int64_t atom) {
  constexpr int kMargin = 12;
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
}

// What the picture shows, in lines of text above it.
void draw_header(Picture& pic, const TensorMap& m, const TmaInstruction& ins, const Layout& l, uint32_t base,
                 uint32_t end, int64_t lines_all) {
  constexpr int kMaxLines = 256, kMaxRowChunks = 32, kMargin = 12;
  int y = kMargin;
  auto line_of_text = [&](const std::string& s) {
    pic.text(kMargin, y, s);
    y += Picture::kCharHeight + 4;
  };
  const std::string instruction = ptx_form(m, ins);
  line_of_text(std::string(name(m.mode)) + " " + std::string(name(m.dtype)) + ", box " +
               (m.mode == TensorMode::tiled ? join(m.box_dims) : std::to_string(l.rows) + " pixels") + ", swizzle " +
               std::string(name(m.swizzle)) + ", " + instruction.substr(instruction.find(" at ") + 1));
  line_of_text(std::to_string(m.transaction_bytes()) + " transaction bytes; shared memory bytes " +
               std::to_string(base) + ".." + std::to_string(end - 1) + "; colour: banks the 16-byte chunk occupies");
  line_of_text("left: the box, one row per box row, each 16-byte chunk labelled with its shared-memory offset");
  line_of_text("right: shared memory in 128-byte lines (all 32 banks), each chunk labelled with its source " +
               std::string(m.rank > 1 ? "row,col (dim1,dim0)" : "element (dim0)"));
  if (lines_all > kMaxLines || l.rows > kMaxLines || (l.row_bytes + 15) / 16 > kMaxRowChunks)
    line_of_text("(drawn: the first " + std::to_string(kMaxLines) + " rows and lines, " +
                 std::to_string(kMaxRowChunks) + " chunks per row; the CSV has every element)");
}

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

  draw_header(pic, m, ins, l, base, end, lines_all);

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

  draw_legend(pic, legend_y, m, ins, atom);
  return pic;
}

}  // namespace tmasim::cli
