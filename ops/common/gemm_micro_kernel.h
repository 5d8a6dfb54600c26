// ops/common/gemm_micro_kernel.h
//
// Internal to //ops/common:gemm: the register tiles and the micro-kernel
// body of the packed GEMM, shared by gemm.cc (built without contraction
// into fused multiply-adds: the same bits on every instruction set) and
// gemm_fma.cc (the same body built with contraction, for CPUs with FMA:
// GemmMode::kFast).
#ifndef OPS_COMMON_GEMM_MICRO_KERNEL_H_
#define OPS_COMMON_GEMM_MICRO_KERNEL_H_

#include <cstdint>
#include <cstring>

namespace ops {
namespace gemm_internal {

// 64-byte vectors: one AVX-512 register, two AVX2 or four SSE registers.
template <typename T>
struct VecOf {
  typedef T Vec __attribute__((vector_size(64)));
  static constexpr int kLanes = 64 / sizeof(T);
};

// The register tile of a micro-kernel: kMr rows of A times kVecs vectors of
// B per k step (kMr x kVecs accumulators).
template <typename T, int kRows, int kVecsPerRow>
struct Tile {
  using Vec = typename VecOf<T>::Vec;
  static constexpr int kMr = kRows;
  static constexpr int kVecs = kVecsPerRow;
  static constexpr int kNr = kVecsPerRow * VecOf<T>::kLanes;
};

// SSE2 and AVX2 (16 registers): 6 x 1, 24 xmm of accumulators (they spill;
// the baseline is the fallback) or 12 ymm. AVX-512 (32 zmm): 12 x 2, 24
// accumulators, so that each k step loads two B vectors and twelve A values
// for 24 vector multiply-adds (6 x 1 spent a load per multiply-add; about
// 2x the throughput on resnet50's GEMMs).
template <typename T>
using SmallTile = Tile<T, 6, 1>;
template <typename T>
using WideTile = Tile<T, 12, 2>;

// C[0:rows, 0:cols] += acc, acc (MR x NR) = sum_p ap[p][r] * bp[p][j]; with
// row_init, C[r][j] = row_init[r] + acc[r][j] instead (C is not read: the
// first k block of a GEMM with beta == 0, or with a bias per row).
// Inlined into one function per instruction set: the 64-byte vectors are
// one AVX-512 register, two AVX or four SSE ones; every lane does the same
// IEEE multiply then add in the same order on each, so where it is built
// without contraction (gemm.cc) the result is bit-identical whichever runs
// (gemm_test checks); gemm_fma.cc builds it with fused multiply-adds.
//
// kRowsA: A is read in place, row r of the panel at ap + r * lda (no packed
// copy; every row must exist), otherwise from a packed panel (lda unused).
// The same values in the same order either way, so the same bits.
template <typename T, typename Sh, bool kRowsA = false>
__attribute__((always_inline)) inline void MicroKernelBody(int64_t kc, const T* __restrict ap,
                                                           const T* __restrict bp, T* __restrict c,
                                                           int64_t ldc, int64_t rows, int64_t cols,
                                                           const T* __restrict row_init,
                                                           int64_t lda = 0) {
  using Vec = typename Sh::Vec;
  constexpr int kMr = Sh::kMr;
  constexpr int kVecs = Sh::kVecs;
  // Fully unrolled so that the accumulators live in registers (-O2 kept
  // them on the stack, a load and a store per multiply-add).
  Vec acc[kMr][kVecs];
#pragma GCC unroll 16
  for (int r = 0; r < kMr; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) acc[r][v] = Vec{};
  }
  for (int64_t p = 0; p < kc; ++p) {
    Vec bv[kVecs];
    std::memcpy(bv, bp, sizeof(bv));
#pragma GCC unroll 16
    for (int r = 0; r < kMr; ++r) {
      const T av = kRowsA ? ap[r * lda] : ap[r];
#pragma GCC unroll 4
      for (int v = 0; v < kVecs; ++v) acc[r][v] += bv[v] * av;
    }
    ap += kRowsA ? 1 : kMr;
    bp += Sh::kNr;
  }
  // C[0:rows, 0:cols] (+)= acc, with vectors for a whole tile.
  if (rows == kMr && cols == Sh::kNr) {
    if (row_init != nullptr) {
#pragma GCC unroll 16
      for (int r = 0; r < kMr; ++r) {
        Vec init;
        for (int l = 0; l < VecOf<T>::kLanes; ++l) init[l] = row_init[r];
#pragma GCC unroll 4
        for (int v = 0; v < kVecs; ++v) {
          const Vec cv = init + acc[r][v];
          std::memcpy(c + r * ldc + v * VecOf<T>::kLanes, &cv, sizeof(Vec));
        }
      }
      return;
    }
#pragma GCC unroll 16
    for (int r = 0; r < kMr; ++r) {
#pragma GCC unroll 4
      for (int v = 0; v < kVecs; ++v) {
        T* at = c + r * ldc + v * VecOf<T>::kLanes;
        Vec cv;
        std::memcpy(&cv, at, sizeof(Vec));
        cv += acc[r][v];
        std::memcpy(at, &cv, sizeof(Vec));
      }
    }
    return;
  }
  alignas(64) T tile[kMr][Sh::kNr];
  std::memcpy(tile, acc, sizeof(acc));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) {
      T* at = c + r * ldc + j;
      *at = (row_init != nullptr ? row_init[r] : *at) + tile[r][j];
    }
  }
}

// One micro-kernel per instruction set, the tile chosen for its registers.
template <typename T>
using MicroKernelFn = void (*)(int64_t, const T*, const T*, T*, int64_t, int64_t, int64_t,
                               const T*);

// A read in place (rows lda apart) instead of from a packed panel.
template <typename T>
using RowsKernelFn = void (*)(int64_t, const T*, int64_t, const T*, T*, int64_t, int64_t, int64_t,
                              const T*);

// With fused multiply-adds (gemm_fma.cc; only for CPUs with FMA). The
// declarations carry the definitions' target attributes: in C++ another
// target makes another function version.
template <typename T>
__attribute__((target("avx2,fma"))) void MicroKernelAvx2Fma(int64_t kc, const T* ap, const T* bp,
                                                            T* c, int64_t ldc, int64_t rows,
                                                            int64_t cols, const T* row_init);
template <typename T>
__attribute__((target("avx512f,fma"))) void MicroKernelAvx512Fma(int64_t kc, const T* ap,
                                                                 const T* bp, T* c, int64_t ldc,
                                                                 int64_t rows, int64_t cols,
                                                                 const T* row_init);
template <typename T>
__attribute__((target("avx2,fma"))) void RowsKernelAvx2Fma(int64_t kc, const T* a, int64_t lda,
                                                           const T* bp, T* c, int64_t ldc,
                                                           int64_t rows, int64_t cols,
                                                           const T* row_init);
template <typename T>
__attribute__((target("avx512f,fma"))) void RowsKernelAvx512Fma(int64_t kc, const T* a, int64_t lda,
                                                                const T* bp, T* c, int64_t ldc,
                                                                int64_t rows, int64_t cols,
                                                                const T* row_init);

}  // namespace gemm_internal
}  // namespace ops

#endif  // OPS_COMMON_GEMM_MICRO_KERNEL_H_
