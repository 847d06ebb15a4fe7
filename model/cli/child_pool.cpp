#include "child_pool.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

#include <unistd.h>

namespace tmasim::cli {

int default_jobs(int requested) {
  return requested > 0 ? requested : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

ChildPool::ChildPool(int jobs, size_t total, std::string label, Done done)
    : jobs_(default_jobs(jobs)), total_(total), label_(std::move(label)), tty_(isatty(STDERR_FILENO) != 0),
      done_(std::move(done)) {}

ChildPool::~ChildPool() {
  try {
    while (!running_.empty()) finish_oldest();  // never leave children behind
  } catch (...) {
  }
}

void ChildPool::start(size_t index, std::unique_ptr<sc::Scenario> scenario) {
  while (static_cast<int>(running_.size()) >= jobs_) finish_oldest();
  running_.push_back({index, sc::start_child(scenario->experiment), std::move(scenario)});
}

void ChildPool::finish_all() {
  while (!running_.empty()) finish_oldest();
  if (tty_ && total_ > 1) std::cerr << "\r" << std::string(label_.size() + 60, ' ') << "\r" << std::flush;
}

void ChildPool::finish_oldest() {
  Running run = std::move(running_.front());
  running_.pop_front();
  std::optional<sc::Measurement> m;
  std::string error;
  try {
    m = sc::finish_child(run.child);
  } catch (const Error& e) {
    error = e.what();
  }
  ++finished_;
  show_progress();
  done_(run.index, m, error);
}

void ChildPool::show_progress() const {
  if (!tty_ || total_ <= 1) return;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * finished_ / total_);
  std::cerr << "\r  " << label_ << " [" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] "
            << finished_ << "/" << total_ << std::flush;
}

}  // namespace tmasim::cli
