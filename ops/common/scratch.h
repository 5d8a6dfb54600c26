// ops/common/scratch.h
//
// Per-thread scratch memory for host kernels. A kernel's temporary buffers
// (GEMM packing panels, im2col columns, pool tap tables, softmax row
// statistics) come from a small set of per-thread slots that grow to the
// largest request seen and are then reused: a kernel run repeatedly with
// the same shapes on the same thread (the static executor's run path)
// allocates only on its first call.
//
// Contract
//   * ThreadScratch<T>(slot, n) returns n elements of T, uninitialised and
//     64-byte aligned, valid until the next ThreadScratch call with the same
//     slot on the same thread; nullptr only when growing the slot fails
//     (callers report MemoryAllocFailed or fall back to a slower path).
//   * T must be trivially copyable and destructible (raw memory).
//   * Slots are not reentrant: a function that holds a slot must not call
//     code that uses the same slot. kGemmPackA / kGemmPackB belong to
//     ops/common/gemm.cc; kernels use kKernel0..kKernel3.
//   * Memory is released when the thread exits.
//
// Example
//   float* cols = ops::ThreadScratch<float>(ops::ScratchSlot::kKernel0, rows * cols_n);
//   if (cols == nullptr) return ctx.ErrorWithCode(ge::ErrorCode::kMemoryAllocFailed, ...);
#ifndef OPS_COMMON_SCRATCH_H_
#define OPS_COMMON_SCRATCH_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ops {

enum class ScratchSlot : int {
  kGemmPackA = 0,
  kGemmPackB,
  kKernel0,
  kKernel1,
  kKernel2,
  kKernel3,
  kCount,
};

// `bytes` of 64-byte aligned memory from `slot` of this thread (see above).
void* ThreadScratchBytes(ScratchSlot slot, size_t bytes);
// Bytes currently reserved by `slot` on this thread (tests).
size_t ThreadScratchCapacity(ScratchSlot slot);

template <typename T>
T* ThreadScratch(ScratchSlot slot, size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "scratch holds raw memory");
  if (n > std::numeric_limits<size_t>::max() / sizeof(T)) return nullptr;
  return static_cast<T*>(ThreadScratchBytes(slot, n * sizeof(T)));
}

}  // namespace ops

#endif  // OPS_COMMON_SCRATCH_H_
