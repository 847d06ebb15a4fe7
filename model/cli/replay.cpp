// tmasim replay: judge golden-case files (section 1) against the functional model.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

#include "commands.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::cli {

namespace {

struct ReplayOptions {
  std::vector<std::string> files;
  bool verbose = false;
  bool quiet = false;
};

int replay(const ReplayOptions& o) {
  int passed = 0, failed = 0, skipped = 0;
  std::map<std::string, int> skip_reasons;
  for (const std::string& f : o.files) {
    try {
      for_each_json_line(f, [&](const nlohmann::json& c, int line) {
        CaseResult r = judge_case(c);
        if (r.verdict == Verdict::pass) {
          ++passed;
          if (o.verbose) std::cout << "PASS " << r.name << ": " << r.detail << "\n";
        } else if (r.verdict == Verdict::skip) {
          ++skipped;
          ++skip_reasons[r.detail];
        } else {
          ++failed;
          if (!o.quiet) std::cout << "FAIL " << r.name << " (" << f << ":" << line << "): " << r.detail << "\n";
        }
      });
    } catch (const Error& e) {
      std::cout << "FAIL " << f << ": " << e.what() << "\n";
      ++failed;
    }
  }
  for (auto& [why, n] : skip_reasons) std::cout << "skipped (inconclusive on the GPU: " << why << "): " << n << "\n";
  std::cout << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
  return failed ? 1 : 0;
}

}  // namespace

void add_replay(CLI::App& app) {
  auto o = std::make_shared<ReplayOptions>();
  CLI::App* sub = app.add_subcommand(
      "replay", "Replay golden-case files (JSON Lines, plain or .gz) recorded on a GPU and judge the model.\n"
                "Prints one line per failing case and closes with 'N passed, M failed, K skipped'.\n"
                "Exit status 1 when any case fails.");
  sub->add_option("files", o->files, "golden-case files (.jsonl or .jsonl.gz)")->required()->check(CLI::ExistingFile);
  sub->add_flag("-v,--verbose", o->verbose, "also list passing cases");
  sub->add_flag("-q,--quiet", o->quiet, "only the summary");
  sub->callback([o]() { throw CLI::RuntimeError(replay(*o)); });
}

}  // namespace tmasim::cli
