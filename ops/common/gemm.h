// ops/common/gemm.h
//
// Host-CPU dense matrix multiply shared by the op library (MatMul / Gemm /
// Einsum in ops/math, the convolutions in ops/nn through nn_util's Gemm<T>):
// C = alpha * op(A) * op(B) + beta * C for row-major matrices, with
// op(X) = X or X^T.
//
// Contract
//   * op(A) is m x k, op(B) is k x n, C is m x n; lda / ldb / ldc are the row
//     strides (elements) of A, B, C as stored. With trans_a, A is stored k x m
//     (element op(A)(i, p) = a[p * lda + i]); likewise B with trans_b.
//   * beta == 0 overwrites C (its old contents, NaN included, are ignored);
//     beta == 1 accumulates into C.
//   * m, n or k may be 0 (k == 0 gives C = beta * C). Callers validate sizes;
//     these functions do not fail.
//   * float / double use a cache-blocked, packed kernel (BLIS-style: B panels
//     of NR columns, A panels of MR rows, an MR x NR register tile written with
//     GCC vector extensions), its micro-kernel compiled for SSE2, AVX2 and
//     AVX-512 and chosen at run time (GemmIsaInUse).
//     Integer types use a plain i-k-j loop with wrap-around arithmetic.
//
// Example
//   // C[2x2] = A[2x3] * B[3x2]
//   GemmF32(false, false, 2, 2, 3, 1.0f, a, 3, b, 2, 0.0f, c, 2);
#ifndef OPS_COMMON_GEMM_H_
#define OPS_COMMON_GEMM_H_

#include <cstdint>
#include <type_traits>

#include "absl/functional/function_ref.h"

namespace ops {

// The instruction set of the float / double micro-kernel. In
// GemmMode::kPortable every one gives bit-identical results (no fused
// multiply-adds); the widest one the CPU supports is used.
enum class GemmIsa { kBaseline, kAvx2, kAvx512 };
GemmIsa GemmIsaInUse();
// Tests: makes every later call use `isa`; false (and no change) when the
// CPU does not support it. Not for use while another thread runs a GEMM.
bool SetGemmIsaForTesting(GemmIsa isa);
// Tests: false makes every GEMM pack A, as it did before A was read in
// place (alpha == 1, A not transposed); the bits are the same either way.
void SetGemmInPlaceAForTesting(bool in_place);

// How a thread's float / double GEMMs round.
//   kFast (the default): on CPUs with FMA (and AVX2 or AVX-512) each
//     multiply-add of the micro-kernel is fused, one rounding instead of
//     two: about 1.5x faster, and the last bits differ from kPortable (and
//     between CPUs with and without FMA).
//   kPortable: no fused multiply-adds: the same bits on every CPU and
//     instruction set. Compile-time evaluation whose results reach the OM
//     (constant folding) runs in this mode, so atc writes the same bytes on
//     every machine.
enum class GemmMode { kFast, kPortable };
GemmMode GemmModeOfThisThread();
// True when this thread's float GEMMs use fused multiply-adds.
bool GemmUsesFma();

// Sets the calling thread's GemmMode for its lifetime (restores the previous
// one on destruction).
class ScopedGemmMode {
 public:
  explicit ScopedGemmMode(GemmMode mode);
  ~ScopedGemmMode();
  ScopedGemmMode(const ScopedGemmMode&) = delete;
  ScopedGemmMode& operator=(const ScopedGemmMode&) = delete;

 private:
  GemmMode previous_;
};

void GemmF32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
             const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
             int64_t ldc);

// C[i][j] = row_bias[i] + (A * B)[i][j] (A m x k, B k x n, row-major; C is
// only written): the bits of filling C with the bias and GemmF32 with
// alpha 1, beta 1.
void GemmF32RowBias(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                    int64_t ldb, const float* row_bias, float* c, int64_t ldc);

// C[i][j] = row_bias[i] + alpha * (A * B)[i][j] (row_bias may be null: 0)
// with B produced by the caller straight into the GEMM's packing buffer (a
// convolution packs its im2col rows without materialising the whole
// matrix); C is only written. pack_b(p0, kc, j0, nc, nr, out) writes
// B[p0:p0+kc, j0:j0+nc] as ceil(nc / nr) panels of nr columns: panel q at
// out + q * kc * nr, element (p, j) at [(p - p0) * nr + j - j0 - q * nr],
// zeros past column j0 + nc. The same bits as filling C with the bias and
// GemmF32 with beta 1 on that B (but for the problems GemmF32 does not
// pack: one row, or 8192 multiply-adds at most). Returns false, C
// untouched, when the packing buffers cannot be allocated.
using GemmPackBF32 =
    absl::FunctionRef<void(int64_t p0, int64_t kc, int64_t j0, int64_t nc, int64_t nr, float* out)>;
bool GemmF32PackedB(int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
                    GemmPackBF32 pack_b, const float* row_bias, float* c, int64_t ldc);

void GemmF64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
             const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
             int64_t ldc);

// Integer GEMM with two's-complement wrap-around (no UB on overflow). T is one
// of int32_t, int64_t, uint32_t, uint64_t.
template <typename T>
void GemmInt(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
             int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  static_assert(std::is_integral<T>::value, "GemmInt is for integers");
  using U = std::make_unsigned_t<T>;
  const U ua = static_cast<U>(alpha);
  const U ub = static_cast<U>(beta);
  for (int64_t i = 0; i < m; ++i) {
    T* crow = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) {
      crow[j] = ub == 0 ? T{0} : static_cast<T>(static_cast<U>(static_cast<U>(crow[j]) * ub));
    }
    for (int64_t p = 0; p < k; ++p) {
      const U av = static_cast<U>(static_cast<U>(trans_a ? a[p * lda + i] : a[i * lda + p]) * ua);
      if (av == 0) continue;
      if (!trans_b) {
        const T* brow = b + p * ldb;
        for (int64_t j = 0; j < n; ++j) {
          crow[j] = static_cast<T>(static_cast<U>(crow[j]) + av * static_cast<U>(brow[j]));
        }
      } else {
        for (int64_t j = 0; j < n; ++j) {
          crow[j] = static_cast<T>(static_cast<U>(crow[j]) + av * static_cast<U>(b[j * ldb + p]));
        }
      }
    }
  }
}

}  // namespace ops

#endif  // OPS_COMMON_GEMM_H_
