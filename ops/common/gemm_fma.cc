// ops/common/gemm_fma.cc
//
// The GEMM micro-kernels with fused multiply-adds (GemmMode::kFast on CPUs
// with FMA): gemm_micro_kernel.h's body, built with -ffp-contract=fast so
// that each `acc += b * a` becomes one vfmadd (see the BUILD file).
#include <cstdint>

#include "ops/common/gemm_micro_kernel.h"

namespace ops {
namespace gemm_internal {

template <typename T>
__attribute__((target("avx2,fma"))) void MicroKernelAvx2Fma(int64_t kc, const T* ap, const T* bp,
                                                            T* c, int64_t ldc, int64_t rows,
                                                            int64_t cols, const T* row_init) {
  MicroKernelBody<T, SmallTile<T>>(kc, ap, bp, c, ldc, rows, cols, row_init);
}

template <typename T>
__attribute__((target("avx512f,fma"))) void MicroKernelAvx512Fma(int64_t kc, const T* ap,
                                                                 const T* bp, T* c, int64_t ldc,
                                                                 int64_t rows, int64_t cols,
                                                                 const T* row_init) {
  MicroKernelBody<T, WideTile<T>>(kc, ap, bp, c, ldc, rows, cols, row_init);
}

template <typename T>
__attribute__((target("avx2,fma"))) void RowsKernelAvx2Fma(int64_t kc, const T* a, int64_t lda,
                                                           const T* bp, T* c, int64_t ldc,
                                                           int64_t rows, int64_t cols,
                                                           const T* row_init) {
  MicroKernelBody<T, SmallTile<T>, true>(kc, a, bp, c, ldc, rows, cols, row_init, lda);
}

template <typename T>
__attribute__((target("avx512f,fma"))) void RowsKernelAvx512Fma(int64_t kc, const T* a, int64_t lda,
                                                                const T* bp, T* c, int64_t ldc,
                                                                int64_t rows, int64_t cols,
                                                                const T* row_init) {
  MicroKernelBody<T, WideTile<T>, true>(kc, a, bp, c, ldc, rows, cols, row_init, lda);
}

#define GE_GEMM_INSTANTIATE(T)                                                                     \
  template void MicroKernelAvx2Fma<T>(int64_t, const T*, const T*, T*, int64_t, int64_t, int64_t,  \
                                      const T*);                                                   \
  template void MicroKernelAvx512Fma<T>(int64_t, const T*, const T*, T*, int64_t, int64_t,         \
                                        int64_t, const T*);                                        \
  template void RowsKernelAvx2Fma<T>(int64_t, const T*, int64_t, const T*, T*, int64_t, int64_t,   \
                                     int64_t, const T*);                                           \
  template void RowsKernelAvx512Fma<T>(int64_t, const T*, int64_t, const T*, T*, int64_t, int64_t, \
                                       int64_t, const T*);
GE_GEMM_INSTANTIATE(float)
GE_GEMM_INSTANTIATE(double)
#undef GE_GEMM_INSTANTIATE

}  // namespace gemm_internal
}  // namespace ops
