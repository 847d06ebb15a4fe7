// An allocator for the memory system's large tables (the L2's index and nodes, tens of MiB read at
// random): a block of 2 MiB or more is asked to be backed by huge pages (madvise), so that a
// look-up's random read costs a cache miss but not also a TLB miss and its page walk. Smaller
// blocks come from std::allocator.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace tmasim::sc {

constexpr size_t kHugePageBytes = size_t{2} << 20;

// Asks for huge pages behind the whole 2 MiB pages inside [begin, end), before anything touches
// them. A hint: without it (or refused) the pages are small.
inline void advise_huge_pages(const void* begin, size_t bytes) {
#ifdef MADV_HUGEPAGE
  const uintptr_t from = reinterpret_cast<uintptr_t>(begin), to = from + bytes;
  const uintptr_t first = (from + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const uintptr_t last = to / kHugePageBytes * kHugePageBytes;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)begin;
  (void)bytes;
#endif
}

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(size_t n) {
    if (n * sizeof(T) < kHugePageBytes) return std::allocator<T>().allocate(n);
    const size_t bytes = (n * sizeof(T) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* p = std::aligned_alloc(kHugePageBytes, bytes);
    if (p == nullptr) throw std::bad_alloc();
    advise_huge_pages(p, bytes);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHugePageBytes)
      std::allocator<T>().deallocate(p, n);
    else
      std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

// Reserves room for n elements in a vector whose type cannot change (one shared with the functional
// core), on huge pages where it is still empty.
template <class T>
void reserve_on_huge_pages(std::vector<T>& v, size_t n) {
  v.reserve(n);
  if (v.empty()) advise_huge_pages(v.data(), n * sizeof(T));
}

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace tmasim::sc
