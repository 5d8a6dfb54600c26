// ops/common/gemm.cc
//
// Packed, cache-blocked GEMM (Goto / BLIS loop structure):
//   for jc in N by kNc:            B block kc x nc packed into NR-column panels
//     for pc in K by kKc:
//       for ic in M by kMc:        A block mc x kc packed into MR-row panels
//                                  (read in place if alpha == 1 and A is not
//                                  transposed; a partial panel is packed)
//         for jr, ir:              MR x NR micro-kernel in vector registers
// alpha is folded into the packed A; beta is applied to C once up front.
#include "ops/common/gemm.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "ops/common/gemm_micro_kernel.h"
#include "ops/common/scratch.h"

namespace ops {
namespace {

using gemm_internal::MicroKernelAvx2Fma;
using gemm_internal::MicroKernelAvx512Fma;
using gemm_internal::MicroKernelBody;
using gemm_internal::MicroKernelFn;
using gemm_internal::RowsKernelAvx2Fma;
using gemm_internal::RowsKernelAvx512Fma;
using gemm_internal::RowsKernelFn;
using gemm_internal::SmallTile;
using gemm_internal::WideTile;

constexpr int64_t kKc = 256;
constexpr int64_t kMc = 120;   // multiple of every tile's kMr
constexpr int64_t kNc = 2048;  // multiple of every tile's kNr

// Problems at most this many multiply-adds skip packing.
constexpr int64_t kSmallWork = 8 * 1024;

// One micro-kernel per instruction set, the tile chosen for its registers
// (without fused multiply-adds: GemmMode::kPortable; gemm_fma.cc has the
// kFast ones).
template <typename T>
void MicroKernelBaseline(int64_t kc, const T* ap, const T* bp, T* c, int64_t ldc, int64_t rows,
                         int64_t cols, const T* row_init) {
  MicroKernelBody<T, SmallTile<T>>(kc, ap, bp, c, ldc, rows, cols, row_init);
}
template <typename T>
__attribute__((target("avx2"))) void MicroKernelAvx2(int64_t kc, const T* ap, const T* bp, T* c,
                                                     int64_t ldc, int64_t rows, int64_t cols,
                                                     const T* row_init) {
  MicroKernelBody<T, SmallTile<T>>(kc, ap, bp, c, ldc, rows, cols, row_init);
}
template <typename T>
__attribute__((target("avx512f"))) void MicroKernelAvx512(int64_t kc, const T* ap, const T* bp,
                                                          T* c, int64_t ldc, int64_t rows,
                                                          int64_t cols, const T* row_init) {
  MicroKernelBody<T, WideTile<T>>(kc, ap, bp, c, ldc, rows, cols, row_init);
}

// The same reading A in place (BlockedLoops, alpha == 1).
template <typename T>
void RowsKernelBaseline(int64_t kc, const T* a, int64_t lda, const T* bp, T* c, int64_t ldc,
                        int64_t rows, int64_t cols, const T* row_init) {
  MicroKernelBody<T, SmallTile<T>, true>(kc, a, bp, c, ldc, rows, cols, row_init, lda);
}
template <typename T>
__attribute__((target("avx2"))) void RowsKernelAvx2(int64_t kc, const T* a, int64_t lda,
                                                    const T* bp, T* c, int64_t ldc, int64_t rows,
                                                    int64_t cols, const T* row_init) {
  MicroKernelBody<T, SmallTile<T>, true>(kc, a, bp, c, ldc, rows, cols, row_init, lda);
}
template <typename T>
__attribute__((target("avx512f"))) void RowsKernelAvx512(int64_t kc, const T* a, int64_t lda,
                                                         const T* bp, T* c, int64_t ldc,
                                                         int64_t rows, int64_t cols,
                                                         const T* row_init) {
  MicroKernelBody<T, WideTile<T>, true>(kc, a, bp, c, ldc, rows, cols, row_init, lda);
}

// The micro-kernels of one instruction set and mode.
template <typename T>
struct Kernels {
  MicroKernelFn<T> packed;
  RowsKernelFn<T> rows;
};

bool IsaSupported(GemmIsa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  switch (isa) {
    case GemmIsa::kBaseline:
      return true;
    case GemmIsa::kAvx2:
      return __builtin_cpu_supports("avx2");
    case GemmIsa::kAvx512:
      return __builtin_cpu_supports("avx512f");
  }
  return false;
#else
  return isa == GemmIsa::kBaseline;
#endif
}

// The widest kernel the CPU (and the OS's saved register state) supports:
// the default build targets baseline x86-64 (SSE2), where the accumulators
// spill (resnet50-sized GEMMs ran at 6-13 GFLOP/s on the build VM's AVX-512
// Xeon; 43-68 with the AVX-512 kernel, one thread).
GemmIsa WidestIsa() {
  if (IsaSupported(GemmIsa::kAvx512)) return GemmIsa::kAvx512;
  if (IsaSupported(GemmIsa::kAvx2)) return GemmIsa::kAvx2;
  return GemmIsa::kBaseline;
}

std::atomic<GemmIsa>& IsaInUse() {
  static std::atomic<GemmIsa> isa{WidestIsa()};
  return isa;
}

bool CpuHasFma() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool fma = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0;
  }();
  return fma;
#else
  return false;
#endif
}

thread_local GemmMode t_mode = GemmMode::kFast;

// Tests: false makes every GEMM pack A (see BlockedLoops).
std::atomic<bool> g_in_place_a{true};

constexpr int64_t kPrefetchRows = 2;

// Packs op(A)[i0:i0+mc, p0:p0+kc] * alpha into MR-row panels, zero padded.
template <typename T, int kMr>
void PackA(bool trans_a, const T* a, int64_t lda, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
           T alpha, T* out) {
  for (int64_t ir = 0; ir < mc; ir += kMr) {
    const int64_t rows = std::min<int64_t>(kMr, mc - ir);
    if (!trans_a) {
      // Along each row of A (one stream per row, not kMr at once). A is
      // usually weights read from memory once per call, rows far apart:
      // the row after next is fetched while this one is packed.
      for (int64_t r = 0; r < rows; ++r) {
        const T* src = a + (i0 + ir + r) * lda + p0;
        if (ir + r + kPrefetchRows < mc) {
          const char* next = reinterpret_cast<const char*>(src + kPrefetchRows * lda);
          for (int64_t off = 0; off < kc * static_cast<int64_t>(sizeof(T)); off += 64) {
            __builtin_prefetch(next + off);
          }
        }
        for (int64_t p = 0; p < kc; ++p) out[p * kMr + r] = alpha * src[p];
      }
      for (int64_t r = rows; r < kMr; ++r) {
        for (int64_t p = 0; p < kc; ++p) out[p * kMr + r] = T{0};
      }
    } else {
      for (int64_t p = 0; p < kc; ++p) {
        T* dst = out + p * kMr;
        const T* src = a + (p0 + p) * lda + i0 + ir;
        for (int64_t r = 0; r < rows; ++r) dst[r] = alpha * src[r];
        for (int64_t r = rows; r < kMr; ++r) dst[r] = T{0};
      }
    }
    out += kc * kMr;
  }
}

// Packs op(B)[p0:p0+kc, j0:j0+nc] into NR-column panels, zero padded.
template <typename T, int kNr>
void PackB(bool trans_b, const T* b, int64_t ldb, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
           T* out) {
  if (!trans_b) {
    // Along each row of B (one stream at a time; panel by panel it read
    // kNr elements from each of kc rows in turn), full panels first.
    const int64_t full = nc / kNr;
    for (int64_t p = 0; p < kc; ++p) {
      const T* src = b + (p0 + p) * ldb + j0;
      T* dst = out + p * kNr;
      for (int64_t q = 0; q < full; ++q) {
        std::memcpy(dst + q * kc * kNr, src + q * kNr, kNr * sizeof(T));
      }
    }
    const int64_t cols = nc - full * kNr;
    if (cols > 0) {
      T* tail = out + full * kc * kNr;
      const T* src = b + p0 * ldb + j0 + full * kNr;
      for (int64_t p = 0; p < kc; ++p) {
        T* dst = tail + p * kNr;
        std::memcpy(dst, src + p * ldb, static_cast<size_t>(cols) * sizeof(T));
        for (int64_t j = cols; j < kNr; ++j) dst[j] = T{0};
      }
    }
    return;
  }
  for (int64_t jr = 0; jr < nc; jr += kNr) {
    const int64_t cols = std::min<int64_t>(kNr, nc - jr);
    for (int64_t p = 0; p < kc; ++p) {
      T* dst = out + p * kNr;
      const int64_t pp = p0 + p;
      if (!trans_b) {
        // A whole panel row is a copy of known size (inlined moves; the
        // variable-size memcpy was a `rep movs` per 128-byte row).
        if (cols == kNr) {
          std::memcpy(dst, b + pp * ldb + j0 + jr, kNr * sizeof(T));
        } else {
          std::memcpy(dst, b + pp * ldb + j0 + jr, static_cast<size_t>(cols) * sizeof(T));
        }
      } else {
        for (int64_t j = 0; j < cols; ++j) dst[j] = b[(j0 + jr + j) * ldb + pp];
      }
      for (int64_t j = cols; j < kNr; ++j) dst[j] = T{0};
    }
    out += kc * kNr;
  }
}

// C[i][0:n] = row_bias[i], or 0 without a bias.
template <typename T>
void FillRows(int64_t m, int64_t n, const T* row_bias, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    std::fill(c + i * ldc, c + i * ldc + n, row_bias != nullptr ? row_bias[i] : T{0});
  }
}

template <typename T>
void ScaleC(int64_t m, int64_t n, T beta, T* c, int64_t ldc) {
  if (beta == T{1}) return;
  if (beta == T{0}) {
    FillRows<T>(m, n, nullptr, c, ldc);
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    T* row = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) row[j] *= beta;
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

// The loop nest and the packing stay baseline code (the micro-kernel adds
// its tile into C): compiling them per instruction set too made the GEMM
// 10-40% slower on the build VM.
// Per-thread packing buffers for one GEMM (no allocation once warm); false
// when the scratch cannot grow.
template <typename T, typename Sh>
bool PackBuffers(int64_t m, int64_t n, int64_t k, T** a_pack, T** b_pack) {
  constexpr int kMr = Sh::kMr;
  constexpr int kNr = Sh::kNr;
  const int64_t kc_max = std::min(k, kKc);
  const int64_t mc_max = std::min(m, kMc);
  const int64_t nc_max = std::min(n, kNc);
  *a_pack = ThreadScratch<T>(ScratchSlot::kGemmPackA,
                             static_cast<size_t>(((mc_max + kMr - 1) / kMr) * kMr * kc_max));
  *b_pack = ThreadScratch<T>(ScratchSlot::kGemmPackB,
                             static_cast<size_t>(((nc_max + kNr - 1) / kNr) * kNr * kc_max));
  return *a_pack != nullptr && *b_pack != nullptr;
}

// The blocked loops over packed panels; pack_b(pc, kc, jc, nc, out) packs
// op(B)[pc:pc+kc, jc:jc+nc] into kNr-column panels. With alpha == 1 and A
// not transposed, the micro-kernel reads whole row panels of A in place
// (packing A was a copy of the weights on every call, ~13% of resnet50's
// run); only a last, partial row panel is packed.
//
// With init, the first k block stores C = row_bias[i] + its product (0 +
// when row_bias is null) instead of adding to C: C is never read (beta ==
// 0), and the bits are those of zeroing (or filling) C first.
template <typename T, typename Sh, typename PackBF>
void BlockedLoops(const Kernels<T>& kernels, bool trans_a, int64_t m, int64_t n, int64_t k, T alpha,
                  const T* a, int64_t lda, const PackBF& pack_b, T* c, int64_t ldc, T* a_pack,
                  T* b_pack, bool init, const T* row_bias) {
  constexpr int kMr = Sh::kMr;
  constexpr int kNr = Sh::kNr;
  static constexpr T kZeros[kMr] = {};
  const bool in_place = !trans_a && alpha == T{1} && g_in_place_a.load(std::memory_order_relaxed);
  for (int64_t jc = 0; jc < n; jc += kNc) {
    const int64_t nc = std::min(kNc, n - jc);
    for (int64_t pc = 0; pc < k; pc += kKc) {
      const int64_t kc = std::min(kKc, k - pc);
      pack_b(pc, kc, jc, nc, b_pack);
      for (int64_t ic = 0; ic < m; ic += kMc) {
        const int64_t mc = std::min(kMc, m - ic);
        const int64_t whole = in_place ? mc / kMr * kMr : 0;  // rows read in place
        if (whole < mc) {
          PackA<T, kMr>(trans_a, a, lda, ic + whole, mc - whole, pc, kc, alpha, a_pack);
        }
        for (int64_t jr = 0; jr < nc; jr += kNr) {
          const int64_t cols = std::min<int64_t>(kNr, nc - jr);
          const T* bp = b_pack + (jr / kNr) * kc * kNr;
          for (int64_t ir = 0; ir < mc; ir += kMr) {
            const int64_t rows = std::min<int64_t>(kMr, mc - ir);
            T* cp = c + (ic + ir) * ldc + jc + jr;
            const T* row_init = !init || pc > 0       ? nullptr
                                : row_bias != nullptr ? row_bias + ic + ir
                                                      : kZeros;
            if (ir < whole) {
              kernels.rows(kc, a + (ic + ir) * lda + pc, lda, bp, cp, ldc, rows, cols, row_init);
            } else {
              const T* ap = a_pack + ((ir - whole) / kMr) * kc * kMr;
              kernels.packed(kc, ap, bp, cp, ldc, rows, cols, row_init);
            }
          }
        }
      }
    }
  }
}

// C = alpha * op(A) * op(B) + beta * C; with row_bias (beta must be 0),
// C[i][j] = row_bias[i] + alpha * (op(A) * op(B))[i][j].
template <typename T, typename Sh>
void GemmBlocked(const Kernels<T>& kernels, bool trans_a, bool trans_b, int64_t m, int64_t n,
                 int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                 int64_t ldc, const T* row_bias = nullptr) {
  if (m <= 0 || n <= 0) return;
  T* a_pack = nullptr;
  T* b_pack = nullptr;
  // Small problems skip packing; should the scratch fail to grow, the
  // unpacked loop still gives C.
  if (k <= 0 || alpha == T{0} ||
      static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) <= kSmallWork ||
      m == 1 || !PackBuffers<T, Sh>(m, n, k, &a_pack, &b_pack)) {
    if (row_bias != nullptr) {
      FillRows(m, n, row_bias, c, ldc);
    } else {
      ScaleC(m, n, beta, c, ldc);
    }
    if (k <= 0 || alpha == T{0}) return;
    GemmSmall(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, c, ldc);
    return;
  }
  // beta == 0: the first k block writes C (no zeroing pass over it).
  const bool init = beta == T{0};
  if (!init) ScaleC(m, n, beta, c, ldc);
  auto pack_b = [&](int64_t pc, int64_t kc, int64_t jc, int64_t nc, T* out) {
    PackB<T, Sh::kNr>(trans_b, b, ldb, pc, kc, jc, nc, out);
  };
  BlockedLoops<T, Sh>(kernels, trans_a, m, n, k, alpha, a, lda, pack_b, c, ldc, a_pack, b_pack,
                      init, row_bias);
}

// B from the caller's packer (GemmF32PackedB); false, C untouched, when the
// packing buffers cannot be allocated.
template <typename T, typename Sh>
bool GemmBlockedPackedB(const Kernels<T>& kernels, int64_t m, int64_t n, int64_t k, T alpha,
                        const T* a, int64_t lda, const GemmPackBF32& pack_b, const T* row_bias,
                        T* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return true;
  if (k <= 0 || alpha == T{0}) {
    FillRows(m, n, row_bias, c, ldc);
    return true;
  }
  T* a_pack = nullptr;
  T* b_pack = nullptr;
  if (!PackBuffers<T, Sh>(m, n, k, &a_pack, &b_pack)) return false;
  auto pack = [&](int64_t pc, int64_t kc, int64_t jc, int64_t nc, T* out) {
    pack_b(pc, kc, jc, nc, Sh::kNr, out);
  };
  BlockedLoops<T, Sh>(kernels, false, m, n, k, alpha, a, lda, pack, c, ldc, a_pack, b_pack, true,
                      row_bias);
  return true;
}

template <typename Sh>
struct TileTag {
  using type = Sh;
};

// Calls f(TileTag<tile>{}, kernels) with the tile and the micro-kernels of
// the instruction set in use and this thread's GemmMode.
template <typename T, typename F>
auto WithKernels(F&& f) {
  const bool fma = t_mode == GemmMode::kFast && CpuHasFma();
  switch (IsaInUse().load(std::memory_order_relaxed)) {
    case GemmIsa::kAvx512:
      return f(TileTag<WideTile<T>>{},
               fma ? Kernels<T>{MicroKernelAvx512Fma<T>, RowsKernelAvx512Fma<T>}
                   : Kernels<T>{MicroKernelAvx512<T>, RowsKernelAvx512<T>});
    case GemmIsa::kAvx2:
      return f(TileTag<SmallTile<T>>{},
               fma ? Kernels<T>{MicroKernelAvx2Fma<T>, RowsKernelAvx2Fma<T>}
                   : Kernels<T>{MicroKernelAvx2<T>, RowsKernelAvx2<T>});
    case GemmIsa::kBaseline:
      break;
  }
  return f(TileTag<SmallTile<T>>{}, Kernels<T>{MicroKernelBaseline<T>, RowsKernelBaseline<T>});
}

template <typename T>
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  WithKernels<T>([&](auto tile, const Kernels<T>& kernels) {
    GemmBlocked<T, typename decltype(tile)::type>(kernels, trans_a, trans_b, m, n, k, alpha, a, lda,
                                                  b, ldb, beta, c, ldc);
  });
}

void GemmRowBiasF32(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                    int64_t ldb, const float* row_bias, float* c, int64_t ldc) {
  WithKernels<float>([&](auto tile, const Kernels<float>& kernels) {
    GemmBlocked<float, typename decltype(tile)::type>(kernels, false, false, m, n, k, 1.0f, a, lda,
                                                      b, ldb, 0.0f, c, ldc, row_bias);
  });
}

bool GemmPackedBF32(int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
                    const GemmPackBF32& pack_b, const float* row_bias, float* c, int64_t ldc) {
  return WithKernels<float>([&](auto tile, const Kernels<float>& kernels) {
    return GemmBlockedPackedB<float, typename decltype(tile)::type>(kernels, m, n, k, alpha, a, lda,
                                                                    pack_b, row_bias, c, ldc);
  });
}

}  // namespace

GemmIsa GemmIsaInUse() { return IsaInUse().load(std::memory_order_relaxed); }

GemmMode GemmModeOfThisThread() { return t_mode; }
bool GemmUsesFma() {
  return t_mode == GemmMode::kFast && CpuHasFma() && GemmIsaInUse() != GemmIsa::kBaseline;
}

ScopedGemmMode::ScopedGemmMode(GemmMode mode) : previous_(t_mode) { t_mode = mode; }
ScopedGemmMode::~ScopedGemmMode() { t_mode = previous_; }

void SetGemmInPlaceAForTesting(bool in_place) {
  g_in_place_a.store(in_place, std::memory_order_relaxed);
}

bool SetGemmIsaForTesting(GemmIsa isa) {
  if (!IsaSupported(isa)) return false;
  IsaInUse().store(isa, std::memory_order_relaxed);
  return true;
}

void GemmF32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
             const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
             int64_t ldc) {
  Gemm<float>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void GemmF64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
             const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
             int64_t ldc) {
  Gemm<double>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void GemmF32RowBias(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                    int64_t ldb, const float* row_bias, float* c, int64_t ldc) {
  GemmRowBiasF32(m, n, k, a, lda, b, ldb, row_bias, c, ldc);
}

bool GemmF32PackedB(int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
                    GemmPackBF32 pack_b, const float* row_bias, float* c, int64_t ldc) {
  return GemmPackedBF32(m, n, k, alpha, a, lda, pack_b, row_bias, c, ldc);
}

}  // namespace ops
