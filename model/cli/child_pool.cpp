#include "child_pool.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <thread>

#include <unistd.h>

namespace tmasim::cli {

int default_jobs(int requested) {
  return requested > 0 ? requested : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

ChildPool::ChildPool(int jobs, size_t total, std::string label, Done done)
    : jobs_(default_jobs(jobs)), total_(total), label_(std::move(label)), tty_(isatty(STDERR_FILENO) != 0),
      done_(std::move(done)), wall0_(std::chrono::steady_clock::now()) {}

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
  if (tty_ && total_ > 1) std::cerr << "\r" << std::string(label_.size() + 80, ' ') << "\r" << std::flush;
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

// On a terminal a bar redrawn in place; piped (a batch job's log), a line at each tenth of a run
// of 20 points or more. Both say the time so far and, from the mean so far, the time left.
void ChildPool::show_progress() {
  if (total_ <= 1 || (!tty_ && total_ < 20)) return;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
  const double left = finished_ ? secs / static_cast<double>(finished_) * static_cast<double>(total_ - finished_) : 0;
  char times[64];
  std::snprintf(times, sizeof times, "%.0f s, about %.0f s left", secs, left);
  if (tty_) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * finished_ / total_);
    std::cerr << "\r  " << label_ << " [" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] "
              << finished_ << "/" << total_ << ", " << times << "   " << std::flush;
    return;
  }
  const size_t tenth = finished_ * 10 / total_;
  if (tenth == shown_tenth_) return;
  shown_tenth_ = tenth;
  std::cerr << "  " << label_ << ": " << finished_ << "/" << total_ << ", " << times << "\n" << std::flush;
}

}  // namespace tmasim::cli
