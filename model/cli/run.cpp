// tmasim run: execute a scenario of TMA operations on the functional model and report
// what the copies did and how the consumer reads of shared memory conflict.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "tmasim/conflicts.hpp"
#include "tmasim/golden.hpp"
#include "tmasim/tile_layout.hpp"

namespace tmasim::cli {

namespace {

// A GEMM-style mainloop feed: 128x64 fp16 tiles of A and B, 128B-swizzled, four stages,
// read back by ldmatrix.x4 across the tile.
constexpr const char* kDefaultScenario = R"({
  "name": "gemm-feed-128x64-fp16-swizzle128",
  "smem_bytes": 196608,
  "tensors": {
    "A": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [512, 256], "global_strides": [1024],
          "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b"},
    "B": {"mode": "tiled", "dtype": "float16", "rank": 2, "global_dims": [512, 256], "global_strides": [1024],
          "box_dims": [64, 128], "element_strides": [1, 1], "swizzle": "128b", "global_base_offset": 262144}
  },
  "ops": [
    {"tensor": "A", "op": "load", "coords": [0, 0], "smem_offset": 0, "repeat": 4, "coords_step": [64, 0], "smem_step": 32768},
    {"tensor": "B", "op": "load", "coords": [0, 128], "smem_offset": 16384, "repeat": 4, "coords_step": [64, 0], "smem_step": 32768}
  ],
  "reads": [
    {"rows": 128, "cols": 64, "dtype": "float16", "swizzle": "128b", "smem_offset": 0, "access": "ldmatrix.x4"},
    {"rows": 128, "cols": 64, "dtype": "float16", "swizzle": "none", "smem_offset": 0, "access": "ldmatrix.x4"}
  ]
})";

struct RunOptions {
  std::string scenario;
  std::string stats;
};

std::vector<int32_t> ints32(const nlohmann::json& j, const char* field) {
  std::vector<int32_t> v;
  for (int64_t x : require_ints(j, field)) v.push_back(static_cast<int32_t>(x));
  return v;
}

int run(const RunOptions& o) {
  nlohmann::json sc;
  try {
    if (o.scenario.empty()) {
      sc = nlohmann::json::parse(kDefaultScenario);
    } else {
      std::ifstream in(o.scenario);
      if (!in) throw Error("cannot open scenario '" + o.scenario + "'");
      sc = nlohmann::json::parse(in);
    }
  } catch (const nlohmann::json::parse_error& e) {
    throw Error("scenario is not valid JSON: " + std::string(e.what()));
  }
  const int64_t smem_bytes = require_int(sc, "smem_bytes");
  if (smem_bytes < 1024 || smem_bytes > (1 << 20)) throw Error("smem_bytes must be 1024 .. 1 MiB");
  std::vector<uint8_t> smem(static_cast<size_t>(smem_bytes), 0);

  struct Tensor {
    TensorMap map;
    std::vector<uint8_t> memory;
  };
  std::map<std::string, Tensor> tensors;
  for (auto& [name, j] : require(sc, "tensors").items()) {
    Tensor t;
    t.map = parse_tensor_map(j);
    int64_t base = j.value("global_base_offset", int64_t(0));
    t.map.global_address = static_cast<uint64_t>(base);
    if (auto bad = validate(t.map)) throw Error("tensor '" + name + "': " + bad->rule + ": " + bad->message);
    int64_t extent = base + t.map.global_dims[0] * t.map.elem_bytes();
    for (int d = 1; d < t.map.rank; ++d) extent += (t.map.global_dims[d] - 1) * t.map.global_strides[d - 1];
    if (extent > (int64_t(1) << 30)) throw Error("tensor '" + name + "' is larger than 1 GiB");
    t.memory.resize(static_cast<size_t>(extent));
    for (size_t i = 0; i < t.memory.size(); ++i) t.memory[i] = golden_fill(i);
    tensors.emplace(name, std::move(t));
  }
  std::cout << "scenario " << sc.value("name", std::string("<unnamed>")) << "\n";
  int64_t total_tx = 0, ops = 0;
  for (const auto& op : require(sc, "ops")) {
    std::string tname = require_string(op, "tensor");
    auto it = tensors.find(tname);
    if (it == tensors.end()) throw Error("op names unknown tensor '" + tname + "'");
    TmaInstruction ins;
    auto kind = parse_op(require_string(op, "op"));
    if (!kind) throw Error("unknown op '" + require_string(op, "op") + "'");
    ins.op = *kind;
    ins.coords = ints32(op, "coords");
    int64_t repeat = op.value("repeat", int64_t(1));
    std::vector<int32_t> step = op.contains("coords_step") ? ints32(op, "coords_step") : std::vector<int32_t>(ins.coords.size(), 0);
    int64_t smem_step = op.value("smem_step", int64_t(0));
    int64_t smem0 = require_int(op, "smem_offset");
    for (int64_t k = 0; k < repeat; ++k) {
      TmaInstruction i = ins;
      for (size_t d = 0; d < i.coords.size() && d < step.size(); ++d) i.coords[d] += static_cast<int32_t>(k * step[d]);
      i.smem_offset = static_cast<uint32_t>(smem0 + k * smem_step);
      Tensor& t = it->second;
      int64_t tx = execute(t.map, i, GlobalMemory{t.memory.data(), t.memory.size(), 0},
                           SharedMemory{smem.data(), smem.size()});
      total_tx += tx;
      ++ops;
    }
  }
  std::cout << "  " << ops << " TMA operations, " << total_tx << " bytes into shared memory\n";
  nlohmann::json stats = {{"operations", ops}, {"bytes", total_tx}, {"reads", nlohmann::json::array()}};
  if (sc.contains("reads")) {
    std::cout << "  consumer reads (whole tile, one warp instruction per 16x16 block):\n";
    for (const auto& rd : sc["reads"]) {
      TileLayout t;
      t.rows = static_cast<int>(require_int(rd, "rows"));
      t.cols = static_cast<int>(require_int(rd, "cols"));
      t.dtype = parse_dtype(require_string(rd, "dtype")).value_or(DType::f16);
      t.swizzle = parse_swizzle(require_string(rd, "swizzle")).value_or(Swizzle::none);
      t.smem_offset = static_cast<uint32_t>(require_int(rd, "smem_offset"));
      int wavefronts = 0, ideal = 0, instrs = 0;
      for (int r0 = 0; r0 + 16 <= t.rows; r0 += 16)
        for (int c0 = 0; c0 + 16 <= t.cols; c0 += 16) {
          ConflictResult r = evaluate(matrix_access(t, SmemOp::ldmatrix, 4, false, r0, c0));
          wavefronts += r.wavefronts;
          ideal += r.ideal;
          ++instrs;
        }
      std::cout << "    " << std::setw(4) << name(t.swizzle) << " swizzle: " << instrs << " ldmatrix.x4, " << wavefronts
                << " wavefronts (ideal " << ideal << "), conflict degree " << std::fixed << std::setprecision(2)
                << (ideal ? double(wavefronts) / ideal : 0) << "x\n";
      stats["reads"].push_back({{"swizzle", name(t.swizzle)}, {"instructions", instrs}, {"wavefronts", wavefronts}, {"ideal", ideal}});
    }
  }
  if (!o.stats.empty()) {
    std::ofstream(o.stats) << stats.dump(2) << "\n";
    std::cout << "  statistics written to " << o.stats << "\n";
  }
  return 0;
}

}  // namespace

void add_run(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand(
      "run", "Execute a scenario (tensor maps, TMA operations, consumer reads) on the functional model and report\n"
             "bytes moved and shared-memory bank conflicts. Without SCENARIO, runs the built-in GEMM feed.");
  sub->add_option("scenario", o->scenario, "scenario JSON file")->check(CLI::ExistingFile);
  sub->add_option("--stats", o->stats, "write statistics as JSON");
  sub->callback([o]() { throw CLI::RuntimeError(run(*o)); });
}

}  // namespace tmasim::cli
