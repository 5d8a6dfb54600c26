// tcmalloc configuration shim: the system allocator under the tools' heap.
//
// What it defines: nothing callable. Linked (alwayslink) into a binary that
// uses //third_party:malloc, a static initializer installs a gperftools
// `SysAllocator` that hands tcmalloc memory from 2 MiB-aligned anonymous
// regions marked MADV_HUGEPAGE, so the kernel backs the heap with transparent
// huge pages where it can.
//
// Why: atc and om_run build and tear down millions of small objects (nodes,
// anchors, op descs, tasks). With 4 KiB pages the first touch of each page is
// a fault, and on a VM a fault costs microseconds: perf showed page faults and
// page clearing at ~45% of an OM load of a 100k-node model and ~40% of its
// compile. One fault per 2 MiB instead of per 4 KiB removes that cost
// (43.5k -> 2.8k faults for that load) for the same resident memory.
// Later measurements on the build VM found the fresh 2 MiB pages themselves
// slow in about a third of the runs (atc on the 100k ladder 0.8-1.3 s
// instead of ~0.42, all of it kernel time), so it is opt-in now.
//
// Contract:
//  - Regions are reserved 64 MiB at a time (virtual address space only;
//    resident memory grows as pages are touched, in huge-page steps when the
//    kernel grants them). A request larger than a region gets its own region.
//  - The kernel's THP setting decides: with `enabled=never` the advice is
//    ignored and this behaves like a plain mmap allocator.
//  - Off by default: only GE_HUGE_PAGES=1 in the environment installs it
//    (see //third_party:malloc for why); otherwise tcmalloc keeps its default system
//    allocator (read once, at start-up).
//  - Requests whose alignment exceeds 2 MiB, or when mmap fails, go to the
//    allocator that was installed before (tcmalloc's default).
//  - Memory is never returned to the system by this allocator; tcmalloc may
//    still MADV_DONTNEED free spans inside it, as it does by default.
//
// Sanitizer builds (--define=ge_malloc=system) do not link this file.

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include <gperftools/malloc_extension.h>

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kSmallPage = size_t{4} << 10;
constexpr size_t kRegion = size_t{64} << 20;

constexpr size_t RoundUp(size_t n, size_t to) { return (n + to - 1) & ~(to - 1); }

class HugePageSysAllocator final : public SysAllocator {
 public:
  explicit HugePageSysAllocator(SysAllocator* fallback) : fallback_(fallback) {}

  void* Alloc(size_t size, size_t* actual_size, size_t alignment) override {
    if (alignment < kSmallPage) alignment = kSmallPage;
    if (alignment > kHugePage || size > (SIZE_MAX >> 2)) return Fallback(size, actual_size, alignment);
    size = RoundUp(size, kSmallPage);
    // tcmalloc calls this under its page-heap lock; the flag keeps the
    // allocator correct on its own.
    while (busy_.test_and_set(std::memory_order_acquire)) {
    }
    uintptr_t p = RoundUp(next_, alignment);
    if (next_ == 0 || p + size > end_) {
      const size_t want = size + kHugePage > kRegion ? RoundUp(size, kHugePage) : kRegion;
      // Reserve one extra huge page so the region can start on a 2 MiB line.
      void* m = mmap(nullptr, want + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) {
        busy_.clear(std::memory_order_release);
        return Fallback(size, actual_size, alignment);
      }
      const uintptr_t base = RoundUp(reinterpret_cast<uintptr_t>(m), kHugePage);
      (void)madvise(reinterpret_cast<void*>(base), want, MADV_HUGEPAGE);
      next_ = base;
      end_ = base + want;
      p = RoundUp(next_, alignment);
    }
    next_ = p + size;
    busy_.clear(std::memory_order_release);
    if (actual_size != nullptr) *actual_size = size;
    return reinterpret_cast<void*>(p);
  }

 private:
  void* Fallback(size_t size, size_t* actual_size, size_t alignment) {
    return fallback_ == nullptr ? nullptr : fallback_->Alloc(size, actual_size, alignment);
  }

  SysAllocator* const fallback_;
  std::atomic_flag busy_ = ATOMIC_FLAG_INIT;
  uintptr_t next_ = 0;
  uintptr_t end_ = 0;
};

bool HugePagesWanted() {
  const char* v = std::getenv("GE_HUGE_PAGES");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

struct Installer {
  Installer() {
    if (!HugePagesWanted()) return;
    MallocExtension* ext = MallocExtension::instance();
    if (ext == nullptr) return;
    // Never destroyed: tcmalloc may call it until the process ends.
    void* storage = std::malloc(sizeof(HugePageSysAllocator));
    if (storage == nullptr) return;
    ext->SetSystemAllocator(new (storage) HugePageSysAllocator(ext->GetSystemAllocator()));
  }
};

const Installer installer;

}  // namespace
