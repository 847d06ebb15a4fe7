#include "process_error.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace tmasim::sc {

using namespace sc_core;

std::exception_ptr& process_error() {
  static std::exception_ptr kept;
  return kept;
}

void announce_main_stack() {
#if defined(__SANITIZE_ADDRESS__)
  // Tell AddressSanitizer again which stack this thread runs on (as a fiber switch to it), so
  // that its clean-up before a throw covers the whole of it.
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* bottom = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &bottom, &size);
  pthread_attr_destroy(&attr);
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, bottom, size);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

void throw_process_error() {
  std::exception_ptr e = process_error();
  process_error() = nullptr;
  if (!e) return;
  announce_main_stack();
  std::rethrow_exception(e);
}

}  // namespace tmasim::sc
