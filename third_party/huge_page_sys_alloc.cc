#include <sys/mman.h>
#include <cstdint>
#include <cstddef>
#include <gperftools/malloc_extension.h>
namespace {
constexpr size_t kHuge = size_t{2} << 20;
constexpr size_t kRegion = size_t{64} << 20;
class HugeSysAllocator : public SysAllocator {
 public:
  explicit HugeSysAllocator(SysAllocator* fallback) : fallback_(fallback) {}
  void* Alloc(size_t size, size_t* actual_size, size_t alignment) override {
    if (alignment < 4096) alignment = 4096;
    if (alignment > kHuge) return fallback_->Alloc(size, actual_size, alignment);
    size = (size + 4095) & ~size_t{4095};
    uintptr_t p = (cur_ + alignment - 1) & ~(alignment - 1);
    if (cur_ == 0 || p + size > end_) {
      size_t want = size + kHuge > kRegion ? ((size + kHuge + kHuge - 1) & ~(kHuge - 1)) : kRegion;
      void* m = mmap(nullptr, want + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) return fallback_->Alloc(size, actual_size, alignment);
      uintptr_t b = (reinterpret_cast<uintptr_t>(m) + kHuge - 1) & ~(kHuge - 1);
      madvise(reinterpret_cast<void*>(b), want, MADV_HUGEPAGE);
      cur_ = b; end_ = b + want;
      p = (cur_ + alignment - 1) & ~(alignment - 1);
    }
    cur_ = p + size;
    if (actual_size) *actual_size = size;
    return reinterpret_cast<void*>(p);
  }
 private:
  SysAllocator* fallback_;
  uintptr_t cur_ = 0, end_ = 0;
};
struct Installer {
  Installer() {
    MallocExtension* ext = MallocExtension::instance();
    static HugeSysAllocator a(ext->GetSystemAllocator());
    ext->SetSystemAllocator(&a);
  }
} installer;
}
