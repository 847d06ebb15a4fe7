// tmasim replay: judge golden-case files (section 1) against the functional model.
#include <CLI/CLI.hpp>

#include <fnmatch.h>

#include <fstream>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "tmasim/golden.hpp"

namespace tmasim::cli {

namespace {

struct ReplayOptions {
  std::vector<std::string> files;
  std::string expect_fail;
  bool verbose = false;
  bool quiet = false;
};

// Case-name globs, one per line ('#' starts a comment): known model gaps.
std::vector<std::string> read_globs(const std::string& path) {
  std::vector<std::string> globs;
  if (path.empty()) return globs;
  std::ifstream in(path);
  if (!in) throw Error("cannot open '" + path + "'");
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    line.erase(0, line.find_first_not_of(" \t"));
    if (!line.empty()) globs.push_back(line);
  }
  return globs;
}

int replay(const ReplayOptions& o) {
  int passed = 0, failed = 0, skipped = 0, expected_failures = 0;
  const std::vector<std::string> globs = read_globs(o.expect_fail);
  auto known_gap = [&](const std::string& name) {
    for (const auto& g : globs)
      if (fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
    return false;
  };
  std::map<std::string, int> skip_reasons;
  int cases = 0;
  for (const std::string& f : o.files) {
    try {
      cases += for_each_json_line(f, [&](const nlohmann::json& c, int line) {
        CaseResult r = judge_case(c);
        const bool gap = known_gap(r.name);
        if (gap && r.verdict == Verdict::fail) {
          ++expected_failures;
          if (o.verbose) std::cout << "XFAIL " << r.name << ": " << r.detail << "\n";
          return;
        }
        if (gap && r.verdict == Verdict::pass) {  // a known gap that now passes: the list is stale
          ++failed;
          std::cout << "XPASS " << r.name << ": passes but is listed in " << o.expect_fail << "\n";
          return;
        }
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
  if (cases == 0) throw Error("the golden-case files hold no cases");
  for (auto& [why, n] : skip_reasons) std::cout << "skipped (inconclusive on the GPU: " << why << "): " << n << "\n";
  if (expected_failures)
    std::cout << "expected failures (known model gaps in " << o.expect_fail << "): " << expected_failures << "\n";
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
  sub->add_option("--expect-fail", o->expect_fail,
                  "file of case-name globs that are known model gaps: their failures are counted apart,\n"
                  "and a listed case that passes is an error")
      ->check(CLI::ExistingFile);
  sub->add_flag("-v,--verbose", o->verbose, "also list passing cases");
  sub->add_flag("-q,--quiet", o->quiet, "only the summary");
  sub->callback([o]() { throw CLI::RuntimeError(replay(*o)); });
}

}  // namespace tmasim::cli
