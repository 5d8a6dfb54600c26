// ops/common/gemm.cc
//
// Packed, cache-blocked GEMM (Goto / BLIS loop structure):
//   for jc in N by kNc:            B block kc x nc packed into NR-column panels
//     for pc in K by kKc:
//       for ic in M by kMc:        A block mc x kc packed into MR-row panels
//         for jr, ir:              MR x NR micro-kernel in vector registers
// alpha is folded into the packed A; beta is applied to C once up front.
#include "ops/common/gemm.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "ops/common/scratch.h"

namespace ops {
namespace {

template <typename T>
struct KernelTraits;

// 64-byte vectors: one AVX-512 register, two AVX2 or four SSE registers.
template <>
struct KernelTraits<float> {
  typedef float Vec __attribute__((vector_size(64)));
  static constexpr int kNr = 16;
  static constexpr int kMr = 6;
};

template <>
struct KernelTraits<double> {
  typedef double Vec __attribute__((vector_size(64)));
  static constexpr int kNr = 8;
  static constexpr int kMr = 6;
};

constexpr int64_t kKc = 256;
constexpr int64_t kMc = 120;   // multiple of kMr
constexpr int64_t kNc = 2048;  // multiple of kNr

// Problems at most this many multiply-adds skip packing.
constexpr int64_t kSmallWork = 8 * 1024;

// acc (MR x NR) = sum_p ap[p][r] * bp[p][j]; written to `tile` row-major.
// Inlined into one function per instruction set (below): the 64-byte
// vectors are one AVX-512 register, two AVX or four SSE ones; every lane
// does the same IEEE multiply then add in the same order on each (no fused
// multiply-add: this file is built with -ffp-contract=off), so the result
// is bit-identical whichever runs (gemm_test checks).
template <typename T>
__attribute__((always_inline)) inline void MicroKernelBody(int64_t kc, const T* __restrict ap,
                                                           const T* __restrict bp,
                                                           T* __restrict tile) {
  using Tr = KernelTraits<T>;
  using Vec = typename Tr::Vec;
  constexpr int kMr = Tr::kMr;
  Vec acc[kMr];
  for (int r = 0; r < kMr; ++r) acc[r] = Vec{};
  for (int64_t p = 0; p < kc; ++p) {
    Vec bv;
    std::memcpy(&bv, bp, sizeof(Vec));
    for (int r = 0; r < kMr; ++r) acc[r] += bv * ap[r];
    ap += kMr;
    bp += Tr::kNr;
  }
  std::memcpy(tile, acc, sizeof(acc));
}

// One micro-kernel per instruction set, called through a pointer chosen
// once per GEMM.
template <typename T>
using MicroKernelFn = void (*)(int64_t, const T*, const T*, T*);

template <typename T>
void MicroKernelBaseline(int64_t kc, const T* ap, const T* bp, T* tile) {
  MicroKernelBody<T>(kc, ap, bp, tile);
}
template <typename T>
__attribute__((target("avx2"))) void MicroKernelAvx2(int64_t kc, const T* ap,
                                                               const T* bp, T* tile) {
  MicroKernelBody<T>(kc, ap, bp, tile);
}
template <typename T>
__attribute__((target("avx512f"))) void MicroKernelAvx512(int64_t kc, const T* ap,
                                                                   const T* bp, T* tile) {
  MicroKernelBody<T>(kc, ap, bp, tile);
}

bool IsaSupported(GemmIsa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  switch (isa) {
    case GemmIsa::kBaseline: return true;
    case GemmIsa::kAvx2: return __builtin_cpu_supports("avx2");
    case GemmIsa::kAvx512: return __builtin_cpu_supports("avx512f");
  }
  return false;
#else
  return isa == GemmIsa::kBaseline;
#endif
}

// The widest kernel the CPU (and the OS's saved register state) supports:
// the default build targets baseline x86-64 (SSE2), where the 6 x 64-byte
// accumulators spill (resnet50-sized GEMMs ran at 6-13 GFLOP/s on the build
// VM's AVX-512 Xeon, 23-36 with the AVX-512 kernel).
GemmIsa WidestIsa() {
  if (IsaSupported(GemmIsa::kAvx512)) return GemmIsa::kAvx512;
  if (IsaSupported(GemmIsa::kAvx2)) return GemmIsa::kAvx2;
  return GemmIsa::kBaseline;
}

std::atomic<GemmIsa>& IsaInUse() {
  static std::atomic<GemmIsa> isa{WidestIsa()};
  return isa;
}

// Packs op(A)[i0:i0+mc, p0:p0+kc] * alpha into MR-row panels, zero padded.
template <typename T>
void PackA(bool trans_a, const T* a, int64_t lda, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
           T alpha, T* out) {
  constexpr int kMr = KernelTraits<T>::kMr;
  for (int64_t ir = 0; ir < mc; ir += kMr) {
    const int64_t rows = std::min<int64_t>(kMr, mc - ir);
    for (int64_t p = 0; p < kc; ++p) {
      T* dst = out + p * kMr;
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t i = i0 + ir + r;
        const int64_t pp = p0 + p;
        dst[r] = alpha * (trans_a ? a[pp * lda + i] : a[i * lda + pp]);
      }
      for (int64_t r = rows; r < kMr; ++r) dst[r] = T{0};
    }
    out += kc * kMr;
  }
}

// Packs op(B)[p0:p0+kc, j0:j0+nc] into NR-column panels, zero padded.
template <typename T>
void PackB(bool trans_b, const T* b, int64_t ldb, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
           T* out) {
  constexpr int kNr = KernelTraits<T>::kNr;
  for (int64_t jr = 0; jr < nc; jr += kNr) {
    const int64_t cols = std::min<int64_t>(kNr, nc - jr);
    for (int64_t p = 0; p < kc; ++p) {
      T* dst = out + p * kNr;
      const int64_t pp = p0 + p;
      if (!trans_b) {
        std::memcpy(dst, b + pp * ldb + j0 + jr, static_cast<size_t>(cols) * sizeof(T));
      } else {
        for (int64_t j = 0; j < cols; ++j) dst[j] = b[(j0 + jr + j) * ldb + pp];
      }
      for (int64_t j = cols; j < kNr; ++j) dst[j] = T{0};
    }
    out += kc * kNr;
  }
}

template <typename T>
void ScaleC(int64_t m, int64_t n, T beta, T* c, int64_t ldc) {
  if (beta == T{1}) return;
  for (int64_t i = 0; i < m; ++i) {
    T* row = c + i * ldc;
    if (beta == T{0}) {
      std::fill(row, row + n, T{0});
    } else {
      for (int64_t j = 0; j < n; ++j) row[j] *= beta;
    }
  }
}

// Unpacked loops for small problems and single rows (no packing overhead).
template <typename T>
void GemmSmall(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
               int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    T* __restrict crow = c + i * ldc;
    if (!trans_b) {
      for (int64_t p = 0; p < k; ++p) {
        const T av = alpha * (trans_a ? a[p * lda + i] : a[i * lda + p]);
        const T* __restrict brow = b + p * ldb;
        for (int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      }
    } else {
      for (int64_t j = 0; j < n; ++j) {
        const T* __restrict brow = b + j * ldb;
        T sum{0};
        if (!trans_a) {
          const T* __restrict arow = a + i * lda;
          for (int64_t p = 0; p < k; ++p) sum += arow[p] * brow[p];
        } else {
          for (int64_t p = 0; p < k; ++p) sum += a[p * lda + i] * brow[p];
        }
        crow[j] += alpha * sum;
      }
    }
  }
}

template <typename T>
MicroKernelFn<T> MicroKernelFor(GemmIsa isa) {
  switch (isa) {
    case GemmIsa::kAvx512: return MicroKernelAvx512<T>;
    case GemmIsa::kAvx2: return MicroKernelAvx2<T>;
    case GemmIsa::kBaseline: break;
  }
  return MicroKernelBaseline<T>;
}

// The packing and the tile write-back stay baseline code: compiling the
// whole loop nest per instruction set (with the micro-kernel inlined or
// not) made it 10-40% slower than this on the build VM.
template <typename T>
void GemmBlocked(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                 int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  ScaleC(m, n, beta, c, ldc);
  if (k <= 0 || alpha == T{0}) return;
  if (static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) <= kSmallWork ||
      m == 1) {
    GemmSmall(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, c, ldc);
    return;
  }
  using Tr = KernelTraits<T>;
  constexpr int kMr = Tr::kMr;
  constexpr int kNr = Tr::kNr;
  const int64_t kc_max = std::min(k, kKc);
  const int64_t mc_max = std::min(m, kMc);
  const int64_t nc_max = std::min(n, kNc);
  // Packing panels live in per-thread scratch (no allocation once warm);
  // should the scratch fail to grow, the unpacked loop still gives C.
  T* a_pack = ThreadScratch<T>(ScratchSlot::kGemmPackA,
                               static_cast<size_t>(((mc_max + kMr - 1) / kMr) * kMr * kc_max));
  T* b_pack = ThreadScratch<T>(ScratchSlot::kGemmPackB,
                               static_cast<size_t>(((nc_max + kNr - 1) / kNr) * kNr * kc_max));
  if (a_pack == nullptr || b_pack == nullptr) {
    GemmSmall(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, c, ldc);
    return;
  }
  const MicroKernelFn<T> micro_kernel = MicroKernelFor<T>(GemmIsaInUse());
  alignas(64) T tile[kMr * kNr];
  for (int64_t jc = 0; jc < n; jc += kNc) {
    const int64_t nc = std::min(kNc, n - jc);
    for (int64_t pc = 0; pc < k; pc += kKc) {
      const int64_t kc = std::min(kKc, k - pc);
      PackB(trans_b, b, ldb, pc, kc, jc, nc, b_pack);
      for (int64_t ic = 0; ic < m; ic += kMc) {
        const int64_t mc = std::min(kMc, m - ic);
        PackA(trans_a, a, lda, ic, mc, pc, kc, alpha, a_pack);
        for (int64_t jr = 0; jr < nc; jr += kNr) {
          const int64_t cols = std::min<int64_t>(kNr, nc - jr);
          const T* bp = b_pack + (jr / kNr) * kc * kNr;
          for (int64_t ir = 0; ir < mc; ir += kMr) {
            const int64_t rows = std::min<int64_t>(kMr, mc - ir);
            const T* ap = a_pack + (ir / kMr) * kc * kMr;
            micro_kernel(kc, ap, bp, tile);
            T* cblk = c + (ic + ir) * ldc + jc + jr;
            for (int64_t r = 0; r < rows; ++r) {
              T* crow = cblk + r * ldc;
              const T* trow = tile + r * kNr;
              for (int64_t j = 0; j < cols; ++j) crow[j] += trow[j];
            }
          }
        }
      }
    }
  }
}

}  // namespace

GemmIsa GemmIsaInUse() { return IsaInUse().load(std::memory_order_relaxed); }

bool SetGemmIsaForTesting(GemmIsa isa) {
  if (!IsaSupported(isa)) return false;
  IsaInUse().store(isa, std::memory_order_relaxed);
  return true;
}

void GemmF32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
             const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
             int64_t ldc) {
  GemmBlocked<float>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void GemmF64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
             const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
             int64_t ldc) {
  GemmBlocked<double>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace ops
