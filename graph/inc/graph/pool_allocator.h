// graph/inc/graph/pool_allocator.h
//
// The small-object pool behind the per-node objects of the graph layer
// (Node blocks with their anchors, GeTensorDesc of OpDesc ports, port
// arrays, attribute stores, anchor peer lists). Public only because private
// members of the public classes name PoolStdAllocator; clients have no reason
// to use it.
//
// Why: a 1M-node graph allocates ~10M small objects. glibc spends most of
// that time faulting in fresh 4 KiB pages (and adds 8-16 bytes of header and
// rounding to every object). The pool carves objects without headers out of
// 2 MiB chunks whose pages are mapped in one call, so a graph costs fewer
// bytes and far fewer page faults.
//
// Contract
//   * PoolAllocate(bytes) returns 8-byte aligned memory (size classes are
//     multiples of 8, so objects waste no padding); PoolDeallocate must
//     get the same byte count. Sizes above kPoolMaxBytes go to ::operator new.
//   * Any thread may free memory allocated by any other thread. Each thread
//     keeps its own free lists (no locking on the fast path); a thread's
//     free lists go to a shared depot when it exits.
//   * Freed memory is reused by later allocations but never returned to the
//     operating system.
//   * GE_GRAPH_POOL_THP=1 in the environment advises transparent huge pages
//     for every 2 MiB chunk but the first of each thread's region (the
//     kernel honours it when THP is "madvise" or "always"); off by default
//     (pool_allocator.cc says why).
//   * Built with AddressSanitizer (or with GE_GRAPH_NO_POOL defined) every
//     call goes to ::operator new / delete, so ASan / LeakSanitizer see each
//     object.
//
// Example
//   void* p = internal::PoolAllocate(48);
//   internal::PoolDeallocate(p, 48);
//   std::vector<int, internal::PoolStdAllocator<int>> v;  // pooled storage
#ifndef GRAPH_INC_GRAPH_POOL_ALLOCATOR_H_
#define GRAPH_INC_GRAPH_POOL_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace ge {
namespace internal {

constexpr size_t kPoolMaxBytes = 1024;
constexpr size_t kPoolAlignment = 8;

// Where an object is carved. Each region has its own bump areas and free
// lists, so the objects a whole-graph walk reads (a topological sort reads
// every node block and every OpDesc body) sit densely, kNodes and kBodies
// each in their own run of pages, instead of spread among the port
// descriptions, attributes and names of their nodes: a 1M-node sort then
// touches about half as many pages and DRAM rows.
enum class PoolRegion : uint8_t {
  kGeneral = 0,
  kNodes = 1,   // Node blocks with their anchors, control anchors, peer lists
  kBodies = 2,  // OpDesc bodies
  // What a node has besides its block (list links, owning pointers, the
  // OpDesc handle) and its shared_ptr control block: a sort that reorders
  // the graph rewrites the links of every node.
  kNodeCold = 3,
};
constexpr size_t kPoolRegions = 4;

void* PoolAllocate(size_t bytes, PoolRegion region = PoolRegion::kGeneral);
// `bytes` and `region` must be those of the allocation.
void PoolDeallocate(void* p, size_t bytes, PoolRegion region = PoolRegion::kGeneral) noexcept;

// Statistics of the calling process (for benchmarks and tests).
struct PoolStats {
  uint64_t reserved_bytes = 0;  // address space taken from the OS
  uint64_t carved_bytes = 0;    // 2 MiB chunks handed to threads
};
PoolStats GetPoolStats();
// True when the pool is active (false under ASan / GE_GRAPH_NO_POOL).
bool PoolEnabled();

template <typename T, typename... Args>
T* PoolNewIn(PoolRegion region, Args&&... args) {
  static_assert(alignof(T) <= kPoolAlignment, "over-aligned type");
  void* p = PoolAllocate(sizeof(T), region);
  return new (p) T(std::forward<Args>(args)...);
}
template <typename T, typename... Args>
T* PoolNew(Args&&... args) {
  return PoolNewIn<T>(PoolRegion::kGeneral, std::forward<Args>(args)...);
}

template <typename T>
void PoolDelete(T* p, PoolRegion region = PoolRegion::kGeneral) noexcept {
  if (p == nullptr) return;
  p->~T();
  PoolDeallocate(p, sizeof(T), region);
}

// unique_ptr deleter for objects made by PoolNew.
struct PoolDeleter {
  template <typename T>
  void operator()(T* p) const noexcept {
    PoolDelete(p);
  }
};

// A standard allocator over one region of the pool (stateless).
template <typename T, PoolRegion kRegion = PoolRegion::kGeneral>
struct PoolStdAllocator {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = PoolStdAllocator<U, kRegion>;
  };
  PoolStdAllocator() = default;
  template <typename U>
  PoolStdAllocator(const PoolStdAllocator<U, kRegion>&) noexcept {}  // NOLINT
  T* allocate(size_t n) {
    static_assert(alignof(T) <= kPoolAlignment, "over-aligned type");
    return static_cast<T*>(PoolAllocate(n * sizeof(T), kRegion));
  }
  void deallocate(T* p, size_t n) noexcept { PoolDeallocate(p, n * sizeof(T), kRegion); }
  template <typename U>
  bool operator==(const PoolStdAllocator<U, kRegion>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const PoolStdAllocator<U, kRegion>&) const noexcept {
    return false;
  }
};

}  // namespace internal
}  // namespace ge

#endif  // GRAPH_INC_GRAPH_POOL_ALLOCATOR_H_
