// The Python module's native part: the tmasim command, run in this process (python/tmasim/ wraps
// it as run, compare, explain, conflicts and sweep, returning dicts and DataFrames).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

int tmasim_cli_main(int argc, char** argv);
namespace tmasim::cli {
const char* version();
}

namespace py = pybind11;

PYBIND11_MODULE(_tmasim, m) {
  m.doc() = "tmasim's command, in-process: main(['run', 'examples/gemm_pipeline.json', ...]) -> exit status";
  m.def(
      "main",
      [](const std::vector<std::string>& args) {
        std::vector<std::string> all{"tmasim"};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        int rc = 0;
        {
          py::gil_scoped_release unlocked;  // simulations run in forked children; Python may go on
          rc = tmasim_cli_main(static_cast<int>(all.size()), argv.data());
          std::cout.flush();
          std::cerr.flush();
          std::fflush(nullptr);
        }
        return rc;
      },
      py::arg("args"), "Runs `tmasim ARGS...` in this process; returns its exit status (0 ok, 1 a check failed, 2 bad input).");
  m.def("version", [] { return std::string(tmasim::cli::version()); }, "git describe of the tmasim built");
}
