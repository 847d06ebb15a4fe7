// tmasim: byte-exact model of the Hopper Tensor Memory Accelerator and its shared memory.
#include <CLI/CLI.hpp>

#include <cmath>
#include <fstream>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "tmasim/types.hpp"

namespace tmasim::cli {

namespace {
#include "version.inc"  // constexpr const char* kTmasimVersion: git describe of the tree built
}  // namespace

const char* version() { return kTmasimVersion; }

CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double v = 0;
        try {
          size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) return "'" + text + "' is not a number";
        } catch (const std::exception&) {
          return "'" + text + "' is not a number";
        }
        if (!std::isfinite(v)) return "'" + text + "' is not a finite number";
        if (v < lo || v > hi) return "'" + text + "' is outside " + std::to_string(lo) + ".." + std::to_string(hi);
        return "";
      },
      "FINITE in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

void check_writable(const std::string& path, const char* what) {
  std::ofstream f(path, std::ios::app);
  if (!f) throw Error(std::string("cannot write ") + what + " '" + path + "'");
}

void write_output(const std::string& path, const std::string& text, const char* what) {
  if (path == "-") {
    std::cout << text;
    if (!std::cout.flush()) throw Error(std::string("cannot write ") + what + " to standard output");
    return;
  }
  std::ofstream f(path);
  f << text;
  f.close();
  if (!f) throw Error(std::string("cannot write ") + what + " '" + path + "'");
}
}  // namespace tmasim::cli

// A run whose report could not be written did not succeed (`tmasim run > /dev/full`).
int check_stdout(int rc) {
  std::cout.flush();
  if (std::cout) return rc;
  std::cerr << "tmasim: error: cannot write the report to standard output\n";
  return 2;
}

// Exit status, the same for every subcommand: 0 success; 1 a check failed (replay,
// calibrate, compare, conflicts --patterns); 2 bad input (arguments, files, scenarios,
// configurations, a deadlocked scenario) or an output that cannot be written.
int tmasim_cli_main(int argc, char** argv) {
  CLI::App app{
      "tmasim: a model of NVIDIA Hopper's Tensor Memory Accelerator and banked shared memory,\n"
      "judged byte for byte against an H100.\n"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tmasim ") + tmasim::cli::version());
  app.footer(
      "Examples:\n"
      "  tmasim run                                   the built-in GEMM mainloop feed on the timing model\n"
      "  tmasim run examples/im2col_conv_feed.json --trace t.json --vcd q.vcd --stats s.json\n"
      "  tmasim replay tests/golden/functional.jsonl.gz\n"
      "  tmasim conflicts --patterns tests/golden/smem_patterns.jsonl.gz\n"
      "  tmasim calibrate tests/golden/timing.jsonl.gz\n"
      "  tmasim cuda examples/gemm_pipeline.json -o gpu/gemm     a CUDA program running the scenario on an H100\n"
      "  tmasim compare tests/golden/scenarios                   the model against the H100 scenario corpus\n"
      "  tmasim explain --dtype float16 --dims 64,64 --swizzle 128b --coords 0,0 --png tile.png\n"
      "  tmasim validate --map map.json\n"
      "  tmasim config --set smem.banks=64                 the effective configuration, every key\n"
      "  tmasim sweep --set smem.banks=32,64 --set issue.cycles=86,172 --set STAGES=2,4,6 -o gemm_sweep\n"
      "  tmasim conflicts --rows 64 --cols 64 --dtype float16 --swizzle 128b --access ldmatrix.x4 --svg map.svg\n");
  tmasim::cli::add_run(app);
  tmasim::cli::add_replay(app);
  tmasim::cli::add_conflicts(app);
  tmasim::cli::add_calibrate(app);
  tmasim::cli::add_cuda(app);
  tmasim::cli::add_compare(app);
  tmasim::cli::add_explain(app);
  tmasim::cli::add_validate(app);
  tmasim::cli::add_sweep(app);
  tmasim::cli::add_config(app);
  tmasim::cli::add_costs(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help or the error
    return check_stdout(rc == 0 ? 0 : e.get_name() == "RuntimeError" ? rc : 2);
  } catch (const tmasim::Error& e) {
    std::cerr << "tmasim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "tmasim: error: out of memory\n";
    return 2;
  } catch (const std::exception& e) {  // a reader that let a library error through: still input
    std::cerr << "tmasim: error: " << e.what() << "\n";
    return 2;
  }
  return check_stdout(0);
}
