// metadef/register/testing/alloc_counter.cc
#include "metadef/register/testing/alloc_counter.h"

#include <execinfo.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace {

std::atomic<bool> g_counting{false};
std::atomic<int64_t> g_allocations{0};
std::atomic<int64_t> g_library_allocations{0};

}  // namespace

// Defined by the compute engine's library wrapper (ops/compute/common) when
// linked: how many third-party library calls are running (any thread).
extern "C" int* ge_in_library_call() __attribute__((weak));

namespace {

void Count() {
  if (!g_counting.load(std::memory_order_relaxed)) return;
  if (ge_in_library_call != nullptr &&
      __atomic_load_n(ge_in_library_call(), __ATOMIC_SEQ_CST) > 0) {
    g_library_allocations.fetch_add(1);
    return;
  }
  const int64_t k = g_allocations.fetch_add(1);
  if (k < 3 && std::getenv("ALLOC_TRACE") != nullptr) {
    void* frames[40];
    const int n = backtrace(frames, 40);
    backtrace_symbols_fd(frames, n, 2);
    std::fprintf(stderr, "-----\n");
  }
}

void* CountedAlloc(std::size_t n) {
  Count();
  return std::malloc(n == 0 ? 1 : n);
}

void* CountedAlignedAlloc(std::size_t n, std::align_val_t al) {
  Count();
  void* p = nullptr;
  const std::size_t a =
      static_cast<std::size_t>(al) < sizeof(void*) ? sizeof(void*) : static_cast<std::size_t>(al);
  if (posix_memalign(&p, a, n == 0 ? 1 : n) != 0) return nullptr;
  return p;
}

}  // namespace

namespace alloc_counter {

AllocCountingScope::AllocCountingScope() {
  g_allocations.store(0);
  g_library_allocations.store(0);
  g_counting.store(true);
}
AllocCountingScope::~AllocCountingScope() { g_counting.store(false); }
int64_t AllocCountingScope::count() const { return g_allocations.load(); }
int64_t AllocCountingScope::library_count() const { return g_library_allocations.load(); }

}  // namespace alloc_counter

// Replacement allocation functions (every form that can allocate).
void* operator new(std::size_t n) {
  void* p = CountedAlloc(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t n) {
  void* p = CountedAlloc(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return CountedAlloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return CountedAlloc(n); }
void* operator new(std::size_t n, std::align_val_t al) {
  void* p = CountedAlignedAlloc(n, al);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t n, std::align_val_t al) {
  void* p = CountedAlignedAlloc(n, al);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return CountedAlignedAlloc(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return CountedAlignedAlloc(n, al);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
