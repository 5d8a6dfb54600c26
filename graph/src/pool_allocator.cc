// graph/src/pool_allocator.cc
//
// Size-class pool: 128 classes of 8..1024 bytes in each of kPoolRegions
// regions. Each thread has a free list per region and class and a bump area
// per region (a 2 MiB chunk); chunks come from 64 MiB reservations aligned
// to 2 MiB and, but for a bump area's first, are prefaulted or advised
// MADV_HUGEPAGE with GE_GRAPH_POOL_THP=1 (NewChunkLocked). Free lists of
// exiting threads go to a mutex-protected depot that refills the others.
#include "graph/inc/graph/pool_allocator.h"

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

#include "metadef/inc/base/aligned_mapping.h"
#include "metadef/inc/base/prefault.h"

namespace ge {
namespace internal {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(GE_GRAPH_NO_POOL)
constexpr bool kUsePool = false;
#else
constexpr bool kUsePool = true;
#endif

constexpr size_t kClasses = kPoolMaxBytes / kPoolAlignment;  // class c holds c * 8 bytes
constexpr size_t kChunkBytes = size_t{2} << 20;              // one huge page
constexpr size_t kReserveBytes = size_t{64} << 20;
// Off by default: on the build VM a fresh 2 MiB page cost ~4-5 ms at times
// (likely memory the guest had reported free to the host, which backs it
// again on first touch) while 4 KiB faults mostly got pages still backed: constructing a 1M-node
// graph took 1.0-1.6 us per node with the advice and 0.54-0.56 without, and atc on the 100k ladder
// after another process freed 400 MB 0.57-0.76 s against 0.46-0.48 (0.43-0.44 against 0.47-0.49 in
// a quiet host: the advice only pays while the host has huge pages at hand).
constexpr bool kDefaultHugePages = false;

struct FreeObj {
  FreeObj* next;
};

size_t ClassOf(size_t bytes) {
  return bytes == 0 ? 1 : (bytes + kPoolAlignment - 1) / kPoolAlignment;
}

// Trivially destructible, so it stays usable after the thread's flusher ran
// (late frees from thread_local / static destructors).
struct ThreadCache {
  // Indexed [region][class].
  FreeObj* free[kPoolRegions][kClasses + 1];
  FreeObj* tail[kPoolRegions][kClasses + 1];  // last of free (valid while it is non-null)
  char* cur[kPoolRegions];
  char* end[kPoolRegions];
  bool registered;
  bool dead;  // flushed: use the global path
};
thread_local ThreadCache t_cache{};

struct Global {
  std::mutex mu;
  // Indexed [region][class].
  FreeObj* depot[kPoolRegions][kClasses + 1] = {};
  FreeObj* depot_tail[kPoolRegions][kClasses + 1] = {};  // valid while depot is non-null
  std::atomic<bool> depot_nonempty[kPoolRegions][kClasses + 1] = {};
  char* reserve_cur = nullptr;
  char* reserve_end = nullptr;
  // Bump areas of threads whose cache is gone.
  char* shared_cur[kPoolRegions] = {};
  char* shared_end[kPoolRegions] = {};
  std::atomic<uint64_t> reserved{0};
  std::atomic<uint64_t> carved{0};
};

Global& G() {
  static Global* const g = new Global();  // never destroyed: late frees are safe
  return *g;
}

// GE_GRAPH_POOL_THP=0 / 1 turns the transparent huge page advice off / on.
bool UseHugePages() {
  static const bool use = [] {
    const char* env = std::getenv("GE_GRAPH_POOL_THP");
    return env == nullptr ? kDefaultHugePages : env[0] == '1';
  }();
  return use;
}

// A fresh 2 MiB chunk for a bump area that had `previous` chunks before
// (caller holds the mutex).
char* NewChunkLocked(Global& g, bool previous) {
  if (g.reserve_cur == nullptr || g.reserve_cur + kChunkBytes > g.reserve_end) {
    void* aligned = MapAligned(kReserveBytes, kChunkBytes, PROT_READ | PROT_WRITE, 0);
    if (aligned == nullptr) throw std::bad_alloc();
    g.reserve_cur = static_cast<char*>(aligned);
    g.reserve_end = g.reserve_cur + kReserveBytes;
    g.reserved.fetch_add(kReserveBytes, std::memory_order_relaxed);
  }
  char* chunk = g.reserve_cur;
  g.reserve_cur += kChunkBytes;
  g.carved.fetch_add(kChunkBytes, std::memory_order_relaxed);
  // A bump area's second chunk on means a graph of thousands of nodes: the
  // chunk is a huge page (GE_GRAPH_POOL_THP=1) or its small pages are
  // mapped in one call (one trap per 4 KiB page cost about as much as
  // zeroing it; metadef/inc/base/prefault.h). A first chunk stays on small
  // pages that fault in lazily: a small process (an OM load) touches little
  // of it.
  if (previous) {
    if (UseHugePages()) {
      (void)madvise(chunk, kChunkBytes, MADV_HUGEPAGE);
    } else {
      (void)PrefaultForWrite(chunk, kChunkBytes);
    }
  }
  return chunk;
}

// Carves `bytes` from [*cur, *end), taking a new chunk when it does not fit
// (caller holds the mutex when the region is shared).
void* CarveLocked(Global& g, char** cur, char** end, size_t bytes) {
  if (*cur == nullptr || *cur + bytes > *end) {
    *cur = NewChunkLocked(g, *cur != nullptr);
    *end = *cur + kChunkBytes;
  }
  void* p = *cur;
  *cur += bytes;
  return p;
}

struct CacheFlusher {
  ~CacheFlusher() {
    ThreadCache& tc = t_cache;
    Global& g = G();
    std::lock_guard<std::mutex> lock(g.mu);
    for (size_t r = 0; r < kPoolRegions; ++r) {
      for (size_t c = 1; c <= kClasses; ++c) {
        FreeObj* head = tc.free[r][c];
        if (head == nullptr) continue;
        FreeObj* tail = tc.tail[r][c];
        if (g.depot[r][c] == nullptr) g.depot_tail[r][c] = tail;
        tail->next = g.depot[r][c];
        g.depot[r][c] = head;
        g.depot_nonempty[r][c].store(true, std::memory_order_relaxed);
        tc.free[r][c] = nullptr;
      }
    }
    tc.dead = true;  // the rest of the bump areas is abandoned
  }
};
thread_local CacheFlusher t_flusher;

void* AllocateGlobal(size_t r, size_t c) {
  Global& g = G();
  std::lock_guard<std::mutex> lock(g.mu);
  if (FreeObj* f = g.depot[r][c]) {
    g.depot[r][c] = f->next;
    if (g.depot[r][c] == nullptr) {
      g.depot_nonempty[r][c].store(false, std::memory_order_relaxed);
    }
    return f;
  }
  return CarveLocked(g, &g.shared_cur[r], &g.shared_end[r], c * kPoolAlignment);
}

void* AllocateSlow(size_t r, size_t c) {
  ThreadCache& tc = t_cache;
  if (tc.dead) return AllocateGlobal(r, c);
  if (!tc.registered) {
    tc.registered = true;
    // Constructs the flusher (and registers its destructor) for this thread.
    CacheFlusher* flusher = &t_flusher;
    (void)flusher;
  }
  Global& g = G();
  if (g.depot_nonempty[r][c].load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(g.mu);
    FreeObj* f = g.depot[r][c];
    g.depot[r][c] = nullptr;
    g.depot_nonempty[r][c].store(false, std::memory_order_relaxed);
    if (f != nullptr) {
      // The depot list becomes this thread's list.
      tc.free[r][c] = f->next;
      tc.tail[r][c] = g.depot_tail[r][c];
      return f;
    }
  }
  const size_t bytes = c * kPoolAlignment;
  if (tc.cur[r] != nullptr && tc.cur[r] + bytes <= tc.end[r]) {
    void* p = tc.cur[r];
    tc.cur[r] += bytes;
    return p;
  }
  std::lock_guard<std::mutex> lock(g.mu);
  return CarveLocked(g, &tc.cur[r], &tc.end[r], bytes);
}

}  // namespace

void* PoolAllocate(size_t bytes, PoolRegion region) {
  if (!kUsePool || bytes > kPoolMaxBytes) return ::operator new(bytes);
  const size_t r = static_cast<size_t>(region);
  const size_t c = ClassOf(bytes);
  ThreadCache& tc = t_cache;
  if (FreeObj* f = tc.free[r][c]) {
    tc.free[r][c] = f->next;
    return f;
  }
  return AllocateSlow(r, c);
}

void PoolDeallocate(void* p, size_t bytes, PoolRegion region) noexcept {
  if (p == nullptr) return;
  if (!kUsePool || bytes > kPoolMaxBytes) {
    ::operator delete(p);
    return;
  }
  const size_t r = static_cast<size_t>(region);
  const size_t c = ClassOf(bytes);
  FreeObj* f = static_cast<FreeObj*>(p);
  ThreadCache& tc = t_cache;
  if (!tc.dead) {
    if (tc.free[r][c] == nullptr) tc.tail[r][c] = f;
    f->next = tc.free[r][c];
    tc.free[r][c] = f;
    return;
  }
  Global& g = G();
  std::lock_guard<std::mutex> lock(g.mu);
  if (g.depot[r][c] == nullptr) g.depot_tail[r][c] = f;
  f->next = g.depot[r][c];
  g.depot[r][c] = f;
  g.depot_nonempty[r][c].store(true, std::memory_order_relaxed);
}

PoolStats GetPoolStats() {
  PoolStats s;
  if (!kUsePool) return s;
  s.reserved_bytes = G().reserved.load(std::memory_order_relaxed);
  s.carved_bytes = G().carved.load(std::memory_order_relaxed);
  return s;
}

bool PoolEnabled() { return kUsePool; }

}  // namespace internal
}  // namespace ge
