// Many simulations at once: each runs in a forked child (SystemC has one kernel per process),
// at most `jobs` at a time, with a progress bar on a terminal.
#pragma once
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "child_run.hpp"
#include "scenario.hpp"

namespace tmasim::cli {

class ChildPool {
 public:
  // `done` receives each experiment's measurement, or the error that ended it, in start order.
  using Done = std::function<void(size_t index, const std::optional<sc::Measurement>& m, const std::string& error)>;
  ChildPool(int jobs, size_t total, std::string label, Done done);
  ~ChildPool();
  void start(size_t index, std::unique_ptr<sc::Scenario> scenario);  // waits for a free slot
  void finish_all();

 private:
  struct Running {
    size_t index;
    sc::Child child;
    std::unique_ptr<sc::Scenario> scenario;
  };
  void finish_oldest();
  void show_progress();
  int jobs_;
  size_t total_, finished_ = 0;
  std::string label_;
  bool tty_;
  Done done_;
  std::deque<Running> running_;
  std::chrono::steady_clock::time_point wall0_;
  size_t shown_tenth_ = 0;  // piped: the last tenth of the points reported
};

// 0 means the machine's cores.
int default_jobs(int requested);

}  // namespace tmasim::cli
