// Sub-commands of the tmasim CLI; each returns the process exit status.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <CLI/CLI.hpp>

#include "gpu_results.hpp"  // median

namespace tmasim::sc {
struct Measurement;
struct TimingConfig;
}  // namespace tmasim::sc

namespace tmasim::cli {

// What `tmasim run --stats` writes and `tmasim sweep` tabulates: cycles, microseconds, TMA
// operations, bytes and bandwidth, L2 and shared-memory counters.
nlohmann::json run_statistics(const sc::Measurement& m, const sc::TimingConfig& cfg);

// The commit this tmasim was built from (`git describe --always --dirty --tags`).
const char* version();

// configs/h100.json of the source tree: every subcommand's default --config.
inline std::string default_config_path() { return std::string(TMASIM_SOURCE_DIR) + "/configs/h100.json"; }

// A number option's check: finite (NaN and infinities refused, which a plain range lets through)
// and within [lo, hi].
CLI::Validator finite_range(double lo, double hi);

// Refuses, before any work, an output path that cannot be written (an error, exit 2).
void check_writable(const std::string& path, const char* what);

// Writes `text` to `path`, or to standard output when `path` is "-"; an Error naming `what` when
// the write fails.
void write_output(const std::string& path, const std::string& text, const char* what);

void add_replay(CLI::App& app);
void add_conflicts(CLI::App& app);
void add_run(CLI::App& app);
void add_calibrate(CLI::App& app);
void add_cuda(CLI::App& app);
void add_compare(CLI::App& app);
void add_explain(CLI::App& app);
void add_validate(CLI::App& app);
void add_sweep(CLI::App& app);
void add_config(CLI::App& app);
void add_costs(CLI::App& app);

}  // namespace tmasim::cli
