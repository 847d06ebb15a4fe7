// tmasim conflicts: bank conflicts of warp accesses, for a layout designer or against ncu.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli_input.hpp"
#include "commands.hpp"
#include "heatmap.hpp"
#include "tmasim/conflicts.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/json_input.hpp"
#include "tmasim/tile_layout.hpp"

namespace tmasim::cli {

namespace {

struct ConflictOptions {
  std::vector<std::string> pattern_files;
  int rows = 64, cols = 64;
  std::string dtype = "float16", swizzle = "128b", access = "ldmatrix.x4";
  int r0 = 0, c0 = 0;
  uint32_t smem_offset = 0;
  std::string lanes;
  int banks = 32;
  std::string svg, png, json;
  bool verbose = false;
};


// A lane address as the user wrote it: decimal, or hexadecimal with 0x; -1 for inactive.
int64_t parse_lane(const std::string& item, int lane) {
  const std::optional<int64_t> v = parse_int(item);
  if (!v || *v < -1 || *v > kMaxSmemAddress)
    throw Error("--lanes: lane " + std::to_string(lane) + " is '" + item + "'; expected a byte address 0.." +
                std::to_string(kMaxSmemAddress) + " (decimal or 0x hex) or -1 for an inactive lane");
  return *v;
}

int check_patterns(const ConflictOptions& o) {
  int passed = 0, failed = 0;
  BankGeometry g;
  g.banks = o.banks;
  for (const std::string& f : o.pattern_files) {
    const int n = for_each_json_line(f, [&](const nlohmann::json& j, int line) {
      std::string name = "<unnamed>";
      try {
        const Fields p(j, f + ":" + std::to_string(line), "a pattern");
        name = p.string_or("name", name);
        WarpAccess a = pattern_access(p);
        ConflictResult r = evaluate(a, g);
        const int want = static_cast<int>(p.integer("ncu_wavefronts", 0, 4096));
        if (r.wavefronts == want) {
          ++passed;
          if (o.verbose) std::cout << "PASS " << name << ": " << want << " wavefronts\n";
        } else {
          ++failed;
          std::cout << "FAIL " << name << " (" << f << ":" << line << "): model " << r.wavefronts
                    << " wavefronts, ncu " << want << "\n";
        }
      } catch (const Error& e) {
        ++failed;
        std::cout << "FAIL " << name << " (" << f << ":" << line << "): " << e.what() << "\n";
      }
    });
    if (n == 0) throw Error("pattern file '" + f + "' holds no patterns");
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

// Lane addresses of a named access over a tile.
WarpAccess named_access(const TileLayout& t, const ConflictOptions& o) {
  WarpAccess a;
  std::string s = o.access;
  auto take = [&](const std::string& prefix) {
    if (s.rfind(prefix, 0) != 0) return false;
    s = s.substr(prefix.size());
    return true;
  };
  if (take("ldmatrix") || take("stmatrix")) {
    const SmemOp op = o.access[0] == 'l' ? SmemOp::ldmatrix : SmemOp::stmatrix;
    int num = 1;
    if (take(".x2")) num = 2;
    else if (take(".x4")) num = 4;
    else take(".x1");
    const bool trans = take(".trans");
    if (!s.empty()) throw Error("unknown access '" + o.access + "': ldmatrix/stmatrix take .x1, .x2 or .x4, then .trans");
    if (t.elem_bytes() != 2) throw Error("ldmatrix/stmatrix address 16-bit elements; the tile is " + o.dtype);
    const int rows = num == 1 ? 8 : 16, cols = num == 4 ? 16 : 8;
    if (o.r0 + rows > t.rows || o.c0 + cols > t.cols)
      throw Error("--r0/--c0: the " + std::to_string(rows) + "x" + std::to_string(cols) + " block at (" +
                  std::to_string(o.r0) + ", " + std::to_string(o.c0) + ") leaves the " + std::to_string(t.rows) + "x" +
                  std::to_string(t.cols) + " tile");
    a = matrix_access(t, op, num, trans, o.r0, o.c0);
  } else if (take("row16")) {
    if (o.r0 >= t.rows || o.c0 + 16 / t.elem_bytes() > t.cols)
      throw Error("--r0/--c0: (" + std::to_string(o.r0) + ", " + std::to_string(o.c0) + ") leaves the tile");
    a.width = 16;
    int per_row = std::max(1, t.cols * t.elem_bytes() / 16);
    int vec = 16 / t.elem_bytes();
    for (int l = 0; l < 32; ++l) a.addr[l] = t.address(o.r0 + l / std::min(per_row, 32), o.c0 + (l % std::min(per_row, 32)) * vec);
  } else if (take("col16")) {
    a.width = 16;
    for (int l = 0; l < 32; ++l) a.addr[l] = t.address((o.r0 + l) % t.rows, o.c0);
  } else if (take("col4")) {
    a.width = 4;
    for (int l = 0; l < 32; ++l) a.addr[l] = t.address((o.r0 + l) % t.rows, o.c0) & ~3u;
  } else if (take("lanes")) {
    std::stringstream ss(o.lanes);
    std::string item;
    a.width = 4;
    int l = 0;
    while (std::getline(ss, item, ',')) {
      if (l == 32) throw Error("--lanes: more than 32 addresses");
      a.addr[l] = parse_lane(item, l);
      ++l;
    }
    if (l != 32) throw Error("--lanes needs 32 comma-separated byte addresses (-1 for inactive), got " + std::to_string(l));
  } else {
    s = "?";
  }
  if (!s.empty())
    throw Error("unknown access '" + o.access + "' (ldmatrix[.x1|.x2|.x4][.trans], stmatrix..., row16, col16, col4, lanes)");
  check_access(a);
  return a;
}

// The answer as JSON (docs/outputs.md, "conflicts --json").
nlohmann::json conflicts_json(const ConflictOptions& o, const TileLayout& t, const BankGeometry& g, const WarpAccess& a,
                              const ConflictResult& r) {
  nlohmann::json waves = nlohmann::json::array();
  for (const auto& w : r.detail) {
    nlohmann::json lanes = nlohmann::json::array();
    for (int l : w.lanes)
      lanes.push_back({{"lane", l}, {"address", a.addr[l]}, {"bank", (a.addr[l] / g.bank_bytes) % g.banks}});
    waves.push_back(lanes);
  }
  return {{"schema", "tmasim-conflicts/1"},
          {"tmasim_version", version()},
          {"tile", {{"rows", t.rows}, {"cols", t.cols}, {"dtype", o.dtype}, {"swizzle", o.swizzle}, {"smem_offset", t.smem_offset}}},
          {"banks", g.banks},
          {"bank_bytes", g.bank_bytes},
          {"access", o.access},
          {"r0", o.r0},
          {"c0", o.c0},
          {"wavefronts", r.wavefronts},
          {"ideal", r.ideal},
          {"conflict_degree", r.ideal ? double(r.wavefronts) / r.ideal : 0.0},
          {"extra_wavefronts", r.conflicts()},
          {"wavefront_lanes", waves}};
}

int answer_layout_question(const ConflictOptions& o) {
  Picture::check_path(o.svg, ".svg", "--svg");
  Picture::check_path(o.png, ".png", "--png");
  for (const auto& [path, what] : {std::pair{o.svg, "--svg"}, {o.png, "--png"}, {o.json == "-" ? std::string() : o.json, "--json"}})
    if (!path.empty()) check_writable(path, what);
  TileLayout t;
  t.rows = o.rows;
  t.cols = o.cols;
  auto dt = parse_dtype(o.dtype);
  auto sw = parse_swizzle(o.swizzle);
  if (!dt || is_packed(*dt)) throw Error("unknown or packed --dtype '" + o.dtype + "'");
  if (!sw) throw Error("unknown --swizzle '" + o.swizzle + "'");
  t.dtype = *dt;
  t.swizzle = *sw;
  t.smem_offset = o.smem_offset;
  if (t.rows < 1 || t.cols < 1 || t.rows > 4096 || t.cols > 4096) throw Error("tile shape must be 1..4096 per side");
  if (o.r0 < 0 || o.c0 < 0 || o.r0 >= t.rows || o.c0 >= t.cols)
    throw Error("--r0/--c0: (" + std::to_string(o.r0) + ", " + std::to_string(o.c0) + ") is outside the " +
                std::to_string(t.rows) + "x" + std::to_string(t.cols) + " tile");
  if (int64_t(t.smem_offset) + int64_t(t.rows) * t.cols * t.elem_bytes() > kMaxSmemAddress)
    throw Error("--smem-offset: the tile ends past 16 MiB of shared memory");
  if (t.cols * t.elem_bytes() % 16) throw Error("tile rows must be a multiple of 16 bytes");
  BankGeometry g;
  g.banks = o.banks;
  WarpAccess a = named_access(t, o);
  ConflictResult r = evaluate(a, g, true);
  // With --json - the JSON is the standard output and the report goes to standard error.
  std::ostream& out = o.json == "-" ? std::cerr : std::cout;
  if (t.swizzle == Swizzle::b128_atom32 || t.swizzle == Swizzle::b128_atom32_flip8 || t.swizzle == Swizzle::b128_atom64)
    out << "note: the H100's driver rejects this swizzle mode (cuTensorMapEncode*: CUDA_ERROR_INVALID_VALUE);\n"
                 "      its layout here follows cuda.h's description, not silicon\n";
  out << "tile " << t.rows << "x" << t.cols << " " << o.dtype << ", swizzle " << o.swizzle << ", smem offset "
            << t.smem_offset << ", " << g.banks << " banks of " << g.bank_bytes << " B\n";
  out << "access " << o.access << " at (" << o.r0 << ", " << o.c0 << ")\n";
  out << "  wavefronts: " << r.wavefronts << " (ideal " << r.ideal << ")\n";
  out << "  conflict degree: " << std::fixed << std::setprecision(2)
            << (r.ideal ? double(r.wavefronts) / r.ideal : 0.0) << "x, " << r.conflicts() << " extra wavefronts\n";
  // Each wavefront: its lanes, each with its byte address and first bank.
  for (size_t k = 0; k < r.detail.size(); ++k) {
    out << "  wavefront " << k << ":";
    for (int l : r.detail[k].lanes)
      out << " " << l << "@" << a.addr[l] << "/b" << (a.addr[l] / g.bank_bytes) % g.banks;
    out << "\n";
  }
  if (!r.detail.empty()) out << "  (lane@byte address/bank)\n";
  for (const std::string& path : {o.svg, o.png}) {
    if (path.empty()) continue;
    draw_bank_heatmap(t, g, a, r).write(path);
    out << "heat map written to " << path << "\n";
  }
  if (!o.json.empty()) write_output(o.json, conflicts_json(o, t, g, a, r).dump(1) + "\n", "--json");
  return 0;
}

}  // namespace

void add_conflicts(CLI::App& app) {
  auto o = std::make_shared<ConflictOptions>();
  CLI::App* sub = app.add_subcommand(
      "conflicts",
      "Shared-memory bank conflicts of one warp-wide access.\n"
      "  Layout question: a tile (--rows --cols --dtype --swizzle --smem-offset) loaded by the TMA and an\n"
      "  access (--access ldmatrix.x4 | row16 | col16 | col4 | lanes --lanes a0,...,a31) at (--r0, --c0):\n"
      "  prints wavefronts, the ideal and the conflict degree; --svg/--png draw the bank heat map.\n"
      "  Check: --patterns FILE... judges measured patterns (golden-case.md section 2).");
  sub->add_option("--patterns", o->pattern_files, "measured pattern files to check")->check(CLI::ExistingFile);
  sub->add_option("--rows", o->rows, "tile rows")->capture_default_str();
  sub->add_option("--cols", o->cols, "tile columns (elements)")->capture_default_str();
  sub->add_option("--dtype", o->dtype, "element type (golden-case names)")->capture_default_str();
  sub->add_option("--swizzle", o->swizzle, "none, 32b, 64b, 128b, ...")->capture_default_str();
  sub->add_option("--smem-offset", o->smem_offset, "tile start, bytes from a 1024-byte-aligned base")->capture_default_str();
  sub->add_option("--access", o->access, "ldmatrix[.x1|.x2|.x4][.trans], stmatrix..., row16, col16, col4, lanes")
      ->capture_default_str();
  sub->add_option("--r0", o->r0, "first row of the access")->capture_default_str();
  sub->add_option("--c0", o->c0, "first column of the access")->capture_default_str();
  sub->add_option("--lanes", o->lanes, "with --access lanes: 32 byte addresses");
  sub->add_option("--banks", o->banks, "number of banks (architecture study)")->capture_default_str()->check(CLI::Range(1, 1024));
  sub->add_option("--svg", o->svg, "write a bank heat map of the tile (SVG)");
  sub->add_option("--png", o->png, "write a bank heat map of the tile (PNG)");
  sub->add_option("--json", o->json, "write the answer as JSON (- : standard output, the report to standard error)");
  sub->add_flag("-v,--verbose", o->verbose, "list passing patterns too");
  sub->callback([o]() {
    int rc = o->pattern_files.empty() ? answer_layout_question(*o) : check_patterns(*o);
    throw CLI::RuntimeError(rc);
  });
}

}  // namespace tmasim::cli
