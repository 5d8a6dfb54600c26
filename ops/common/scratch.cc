// ops/common/scratch.cc
#include "ops/common/scratch.h"

#include <new>

namespace ops {
namespace {

constexpr std::align_val_t kAlign{64};
constexpr int kSlots = static_cast<int>(ScratchSlot::kCount);

struct Buffer {
  void* data = nullptr;
  size_t size = 0;
};

struct ThreadBuffers {
  Buffer slots[kSlots];
  ~ThreadBuffers() {
    for (Buffer& b : slots) {
      if (b.data != nullptr) ::operator delete(b.data, kAlign);
    }
  }
};

ThreadBuffers& Buffers() {
  static thread_local ThreadBuffers buffers;
  return buffers;
}

}  // namespace

void* ThreadScratchBytes(ScratchSlot slot, size_t bytes) {
  const int i = static_cast<int>(slot);
  if (i < 0 || i >= kSlots) return nullptr;
  Buffer& b = Buffers().slots[i];
  if (bytes == 0) bytes = 1;
  if (bytes <= b.size) return b.data;
  // Grow geometrically so that slowly increasing requests settle quickly.
  size_t want = b.size + b.size / 2;
  if (want < bytes) want = bytes;
  void* p = ::operator new(want, kAlign, std::nothrow);
  if (p == nullptr) {
    p = ::operator new(bytes, kAlign, std::nothrow);
    if (p == nullptr) return nullptr;
    want = bytes;
  }
  if (b.data != nullptr) ::operator delete(b.data, kAlign);
  b.data = p;
  b.size = want;
  return p;
}

size_t ThreadScratchCapacity(ScratchSlot slot) {
  const int i = static_cast<int>(slot);
  if (i < 0 || i >= kSlots) return 0;
  return Buffers().slots[i].size;
}

}  // namespace ops
