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

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = kHugePageBytes;
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

// Reserves room for n elements in a vector whose type cannot change (one shared with the functional
// core) and asks for huge pages behind the 2 MiB-aligned part of it, before anything touches it.
template <class T>
void reserve_on_huge_pages(std::vector<T>& v, size_t n) {
  v.reserve(n);
#ifdef MADV_HUGEPAGE
  const uintptr_t begin = reinterpret_cast<uintptr_t>(v.data()), end = begin + n * sizeof(T);
  const uintptr_t first = (begin + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const uintptr_t last = end / kHugePageBytes * kHugePageBytes;
  if (v.empty() && last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace tmasim::sc
