#include "child_run.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>

#include <systemc>

#include "host_budget.hpp"
#include "simulation.hpp"

namespace tmasim::sc {

using nlohmann::json;

Measurement run_in_child(const Experiment& e) { return finish_child(start_child(e)); }

namespace {
// The child's pipe and, for a crash report, the step its simulation was at.
int g_child_fd = -1;
void on_fatal_signal(int sig) {
  // Async-signal-safe: write() the message, then leave.
  char msg[512] = "erthe simulation crashed (signal ";
  size_t n = std::strlen(msg);
  auto put = [&](const char* t) {
    while (*t && n + 1 < sizeof msg) msg[n++] = *t++;
  };
  char num[8];
  int k = 0;
  for (int v = sig; v > 0 && k < 7; v /= 10) num[k++] = static_cast<char>('0' + v % 10);
  while (k > 0 && n + 1 < sizeof msg) msg[n++] = num[--k];
  put(")");
  if (const char* step = current_step_origin()) {
    put(" at ");
    put(step);
  }
  if (write(g_child_fd, msg, n) < 0) _exit(3);
  _exit(3);
}
}  // namespace

Child start_child(const Experiment& e) {
  check_host_can_hold(footprint_of(e), host_limits());  // refused here, not a child dying of bad_alloc
  int fd[2];
  if (pipe(fd) != 0) throw Error("pipe failed");
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw Error("fork failed");
  if (pid == 0) {
    close(fd[0]);
    g_child_fd = fd[1];
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::string msg;
    exit_after_run();
    try {
      msg = "ok" + to_json(run_experiment(e)).dump();
    } catch (const std::exception& ex) {
      msg = std::string("er") + ex.what();
    }
    size_t off = 0;
    while (off < msg.size()) {
      const ssize_t n = write(fd[1], msg.data() + off, msg.size() - off);
      if (n <= 0) _exit(2);
      off += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fd[1]);
  return Child{pid, fd[0]};
}

Measurement finish_child(Child c) {
  const pid_t pid = c.pid;
  int fd[1] = {c.fd};
  std::string msg;
  char buf[65536];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) msg.append(buf, static_cast<size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    throw Error(std::string("the simulation was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                strsignal(WTERMSIG(status)) + ")");
  if (msg.size() >= 2 && msg.compare(0, 2, "er") == 0) throw Error(msg.substr(2));
  if (msg.size() < 2 || msg.compare(0, 2, "ok") != 0) throw Error("the simulation ended without a result");
  return measurement_from_json(json::parse(msg.substr(2)));
}

}  // namespace tmasim::sc
