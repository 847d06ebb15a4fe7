// Errors inside SystemC processes: kept, the simulation stopped, rethrown on the caller's stack.
#pragma once
#include <systemc>

#include <exception>

namespace tmasim::sc {

// An error inside a SystemC process is kept and the simulation stopped, and whoever called
// sc_start throws it from its own stack (throw_process_error). An exception that unwinds out of a
// process's coroutine stack into the kernel leaves AddressSanitizer with a wrong idea of the stack
// and a false report later (its own warning cites google/sanitizers#189); so each of the model's
// threads runs its body in `guarded`.
std::exception_ptr& process_error();
template <class Body>
void guarded(Body&& body) {
  try {
    body();
  } catch (...) {
    if (!process_error()) process_error() = std::current_exception();
    sc_core::sc_stop();
  }
}
// Rethrows (and forgets) a kept error; nothing when there is none.
void throw_process_error();
// After SystemC's coroutines have run, AddressSanitizer's clean-up before a throw
// (__asan_handle_no_return) no longer knows the main stack's bounds (it warns so, citing
// google/sanitizers#189), leaves the unwound frames' poison in place and then reports a
// stack-buffer-overflow in its own sigaltstack call. This tells it the thread's stack again, as
// a fiber switch to itself (AddressSanitizer builds only; nothing otherwise). Called once the
// simulation has returned and before rethrowing a process's error.
void announce_main_stack();

}  // namespace tmasim::sc
