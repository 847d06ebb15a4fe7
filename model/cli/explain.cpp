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
#include "explain_core.hpp"
#include "picture.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"

namespace tmasim::cli {

namespace {

using nlohmann::json;

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
  InstructionOptions ins;
  std::string csv, svg, png;
  int table_rows = 16;
};



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


int explain_command(const ExplainOptions& o) {
  Picture::check_path(o.svg, ".svg", "--svg");
  Picture::check_path(o.png, ".png", "--png");
  for (const auto& [path, what] : {std::pair{o.csv, "--csv"}, {o.svg, "--svg"}, {o.png, "--png"}})
    if (!path.empty()) check_writable(path, what);
  const TensorMap m = build_map(o.map);
  const TmaInstruction ins = build_instruction(o.ins);

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
  sub->add_option("--coords", o->ins.coords, "tensor coordinates, innermost first: 0,0")->required();
  sub->add_option("--offsets", o->ins.offsets, "im2col offsets, W first");
  sub->add_option("--op", o->ins.op, "load | store | reduce | prefetch")->capture_default_str();
  sub->add_option("--reduce-op", o->ins.reduce_op, "reduction of --op reduce: add, min, max, inc, dec, and, or, xor")
      ->capture_default_str();
  sub->add_option("--smem-offset", o->ins.smem_offset, "shared-memory byte offset from a 1024-byte-aligned base")
      ->capture_default_str();
  sub->add_option("--rows", o->table_rows, "16-byte chunks listed in the table")->capture_default_str()->check(CLI::Range(0, 1 << 20));
  sub->add_option("--csv", o->csv, "write every element: shared-memory offset, bank, tensor coordinates, global offset");
  sub->add_option("--svg", o->svg, "draw the shared-memory layout as SVG");
  sub->add_option("--png", o->png, "draw the shared-memory layout as PNG");
  sub->callback([o]() { throw CLI::RuntimeError(explain_command(*o)); });
}

}  // namespace tmasim::cli
