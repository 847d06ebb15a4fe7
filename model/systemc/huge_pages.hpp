// An allocator for the memory system's large tables (the L2's index and nodes, tens of MiB read at
// random): a block of 2 MiB or more is asked to be backed by huge pages (madvise), so that a
// look-up's random read costs a cache miss but not also a TLB miss and its page walk. Smaller
// blocks come from std::allocator.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace tmasim::sc {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = size_t{2} << 20;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(size_t n) {
    if (n * sizeof(T) < kHugePage) return std::allocator<T>().allocate(n);
    const size_t bytes = (n * sizeof(T) + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, bytes);
    if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);  // a hint: without it (or refused) the pages are small
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHugePage)
      std::allocator<T>().deallocate(p, n);
    else
      std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace tmasim::sc
