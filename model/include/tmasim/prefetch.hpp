// A hint that the cache line holding `p` will be read soon. GCC 12 drops some
// __builtin_prefetch calls whose address it can compute without a load (the line table's
// index slot was never prefetched: no prefetcht0 in the binary), so on x86 the instruction is
// written out; elsewhere the builtin.
#pragma once

namespace tmasim {

inline void prefetch_read(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

// The same for a line that will be written.
inline void prefetch_write(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1);
#endif
}

}  // namespace tmasim
