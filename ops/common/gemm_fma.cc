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
                                                            int64_t cols) {
  MicroKernelBody<T, SmallTile<T>>(kc, ap, bp, c, ldc, rows, cols);
}

template <typename T>
__attribute__((target("avx512f,fma"))) void MicroKernelAvx512Fma(int64_t kc, const T* ap,
                                                                 const T* bp, T* c, int64_t ldc,
                                                                 int64_t rows, int64_t cols) {
  MicroKernelBody<T, WideTile<T>>(kc, ap, bp, c, ldc, rows, cols);
}

template <typename T>
__attribute__((target("avx2,fma"))) void RowsKernelAvx2Fma(int64_t kc, const T* a, int64_t lda,
                                                           const T* bp, T* c, int64_t ldc,
                                                           int64_t rows, int64_t cols) {
  MicroKernelBody<T, SmallTile<T>, true>(kc, a, bp, c, ldc, rows, cols, lda);
}

template <typename T>
__attribute__((target("avx512f,fma"))) void RowsKernelAvx512Fma(int64_t kc, const T* a,
                                                                int64_t lda, const T* bp, T* c,
                                                                int64_t ldc, int64_t rows,
                                                                int64_t cols) {
  MicroKernelBody<T, WideTile<T>, true>(kc, a, bp, c, ldc, rows, cols, lda);
}

template void RowsKernelAvx2Fma<float>(int64_t, const float*, int64_t, const float*, float*,
                                       int64_t, int64_t, int64_t);
template void RowsKernelAvx2Fma<double>(int64_t, const double*, int64_t, const double*, double*,
                                        int64_t, int64_t, int64_t);
template void RowsKernelAvx512Fma<float>(int64_t, const float*, int64_t, const float*, float*,
                                         int64_t, int64_t, int64_t);
template void RowsKernelAvx512Fma<double>(int64_t, const double*, int64_t, const double*, double*,
                                          int64_t, int64_t, int64_t);

template void MicroKernelAvx2Fma<float>(int64_t, const float*, const float*, float*, int64_t,
                                        int64_t, int64_t);
template void MicroKernelAvx2Fma<double>(int64_t, const double*, const double*, double*, int64_t,
                                         int64_t, int64_t);
template void MicroKernelAvx512Fma<float>(int64_t, const float*, const float*, float*, int64_t,
                                          int64_t, int64_t);
template void MicroKernelAvx512Fma<double>(int64_t, const double*, const double*, double*,
                                           int64_t, int64_t, int64_t);

}  // namespace gemm_internal
}  // namespace ops
