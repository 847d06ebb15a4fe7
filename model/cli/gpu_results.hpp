// The GPU's side of `tmasim compare`: its result files, read as a stream and kept only for the
// scenarios compared, and the verdict on one scenario against the model's measurement. Apart from
// the command so that the fuzz target `results` reads and judges as compare does.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment.hpp"

namespace tmasim::cli {

// The median (the mean of the middle two for an even count; 0 for none): what compare and
// calibrate report.
double median(std::vector<double> values);

// One scenario's line of the comparison.
struct Row {
  std::string file, family, status;  // status: pass, fail, error
  int ctas = 0;
  double model = 0, gpu = 0, kernel_err = 0, cta_err = 0;
  std::string note;
};

// The GPU results of the scenarios compared, and only theirs, by file and by scenario name.
struct Results {
  std::map<std::string, nlohmann::json> by_file, by_name;
  std::set<std::string> twice;  // files and names given more than one result: none is judged
  std::optional<nlohmann::json> only;  // of one scenario compared: the file's one named result, whatever its name
  size_t named = 0;
};

// The scenarios a result may be for: their files and names.
struct Wanted {
  std::set<std::string> files, names;
  bool one_scenario = false;
};

// Results: one JSON object per file, a JSON Lines file (gzip allowed), or a directory of them.
// Read as a stream: a result for no scenario compared is dropped as it is read, and those kept are
// at most 256 MiB (a 1 MB gzip can expand to 10 GB); a scenario with two results has none judged.
Results read_results(const std::string& path, const Wanted& wanted);

// The verdict on one scenario: its GPU result against the model's measurement (nullptr: the model
// did not finish, for `model_error`), in the L2 state `l2`, within `tol`. Throws Error for a
// malformed result.
void judge(Row& row, const nlohmann::json& result, const sc::Measurement* m, const std::string& model_error,
           const std::string& l2, double tol);

}  // namespace tmasim::cli
