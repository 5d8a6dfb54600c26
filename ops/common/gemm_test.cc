// ops/common/gemm_test.cc
#include "ops/common/gemm.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <tuple>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"

namespace ops {
namespace {

// Reference: C = alpha * op(A) op(B) + beta * C in long double.
template <typename T>
std::vector<T> Reference(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha,
                         const std::vector<T>& a, int64_t lda, const std::vector<T>& b, int64_t ldb,
                         T beta, std::vector<T> c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      long double s = 0;
      for (int64_t p = 0; p < k; ++p) {
        const T av = ta ? a[p * lda + i] : a[i * lda + p];
        const T bv = tb ? b[j * ldb + p] : b[p * ldb + j];
        s += static_cast<long double>(av) * bv;
      }
      T& cv = c[i * ldc + j];
      cv = static_cast<T>(alpha * s + (beta == 0 ? 0 : beta * static_cast<long double>(cv)));
    }
  }
  return c;
}

// Calls f(isa, mode) with every micro-kernel this CPU supports in both
// GemmModes (the mode set for the call); restores the kernel in use.
template <typename F>
void ForEveryKernel(F&& f) {
  const GemmIsa chosen = GemmIsaInUse();
  for (GemmMode mode : {GemmMode::kFast, GemmMode::kPortable}) {
    const ScopedGemmMode scoped(mode);
    for (GemmIsa isa : {GemmIsa::kBaseline, GemmIsa::kAvx2, GemmIsa::kAvx512}) {
      if (SetGemmIsaForTesting(isa)) f(isa, mode);
    }
  }
  EXPECT_TRUE(SetGemmIsaForTesting(chosen));
}

// (m, n, k, trans_a, trans_b, alpha, beta)
using Case = std::tuple<int64_t, int64_t, int64_t, bool, bool, float, float>;

class GemmF32Test : public ::testing::TestWithParam<Case> {};

TEST_P(GemmF32Test, MatchesReference) {
  const auto [m, n, k, ta, tb, alpha, beta] = GetParam();
  std::mt19937 rng(static_cast<uint32_t>(m * 131 + n * 17 + k));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  // Row strides larger than the logical width to check lda / ldb / ldc.
  const int64_t a_rows = ta ? k : m, a_cols = ta ? m : k;
  const int64_t b_rows = tb ? n : k, b_cols = tb ? k : n;
  const int64_t lda = a_cols + 3, ldb = b_cols + 1, ldc = n + 2;
  std::vector<float> a(static_cast<size_t>(a_rows * lda)), b(static_cast<size_t>(b_rows * ldb)),
      c(static_cast<size_t>(m * ldc));
  for (float& v : a) v = dist(rng);
  for (float& v : b) v = dist(rng);
  for (float& v : c) v = dist(rng);
  const std::vector<float> want = Reference(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  GemmF32(ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < ldc; ++j) {
      const size_t idx = static_cast<size_t>(i * ldc + j);
      // Padding columns beyond n stay untouched.
      ASSERT_NEAR(c[idx], want[idx], 1e-4 * (1 + std::sqrt(static_cast<double>(k))))
          << "i=" << i << " j=" << j;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GemmF32Test,
    ::testing::Values(Case{1, 1, 1, false, false, 1.0f, 0.0f},
                      Case{1, 37, 19, false, false, 1.0f, 0.0f},     // GEMV path
                      Case{5, 7, 3, true, false, 2.0f, 1.0f},        // small path
                      Case{6, 16, 256, false, false, 1.0f, 0.0f},    // exact tiles
                      Case{13, 29, 300, false, true, 0.5f, 0.0f},    // K spans two blocks
                      Case{130, 33, 70, true, true, 1.0f, 1.0f},     // M spans two blocks
                      Case{7, 2100, 9, false, false, -1.0f, 0.25f},  // N spans two blocks
                      Case{64, 64, 0, false, false, 1.0f, 0.5f},     // K = 0: C = beta C
                      Case{0, 5, 5, false, false, 1.0f, 0.0f}));

TEST(GemmF32, BetaZeroIgnoresNaNInC) {
  const float a[4] = {1, 2, 3, 4};
  const float b[4] = {1, 0, 0, 1};
  float c[4] = {std::numeric_limits<float>::quiet_NaN(), 7, 7, 7};
  GemmF32(false, false, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
  EXPECT_FLOAT_EQ(c[0], 1);
  EXPECT_FLOAT_EQ(c[1], 2);
  EXPECT_FLOAT_EQ(c[2], 3);
  EXPECT_FLOAT_EQ(c[3], 4);
}

// Packed sizes: with beta == 0 the first k block writes C without reading
// it (NaN ignored), with the bits of zeroing C and accumulating, on every
// kernel and mode.
TEST(GemmF32, BetaZeroWritesCWithoutReadingIt) {
  constexpr int64_t kM = 37, kN = 70, kK = 600;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> a(kM * kK), b(kK * kN);
  for (float& v : a) v = dist(rng);
  for (float& v : b) v = dist(rng);
  ForEveryKernel([&](GemmIsa isa, GemmMode mode) {
    std::vector<float> zeroed(kM * kN, 0.0f);
    std::vector<float> garbage(kM * kN, std::numeric_limits<float>::quiet_NaN());
    GemmF32(false, false, kM, kN, kK, 1.0f, a.data(), kK, b.data(), kN, 1.0f, zeroed.data(), kN);
    GemmF32(false, false, kM, kN, kK, 1.0f, a.data(), kK, b.data(), kN, 0.0f, garbage.data(), kN);
    for (size_t i = 0; i < zeroed.size(); ++i) {
      ASSERT_EQ(garbage[i], zeroed[i]) << i << " isa " << static_cast<int>(isa);
    }
  });
}

TEST(GemmF64, LargeMatchesReference) {
  const int64_t m = 40, n = 50, k = 60;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  std::vector<double> a(m * k), b(k * n), c(m * n, 1.0);
  for (double& v : a) v = dist(rng);
  for (double& v : b) v = dist(rng);
  const std::vector<double> want = Reference(false, false, m, n, k, 1.5, a, k, b, n, 2.0, c, n);
  GemmF64(false, false, m, n, k, 1.5, a.data(), k, b.data(), n, 2.0, c.data(), n);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_NEAR(c[i], want[i], 1e-11) << i;
}

// Random GEMMs over edge tiles, transposes, alpha and beta (float and
// double) from fixed inputs.
class IsaCases {
 public:
  IsaCases() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (const Shape& s : kShapes) {
      std::vector<double> v(static_cast<size_t>(s.m * s.k + s.k * s.n + s.m * s.n));
      for (double& x : v) x = dist(rng);
      inputs_.push_back(v);
    }
  }
  static constexpr size_t size() { return std::size(kShapes); }
  template <typename T>
  std::vector<T> Run(size_t i) const {
    const Shape& s = kShapes[i];
    const std::vector<double>& v = inputs_[i];
    std::vector<T> a(v.begin(), v.begin() + s.m * s.k);
    std::vector<T> b(v.begin() + s.m * s.k, v.begin() + s.m * s.k + s.k * s.n);
    std::vector<T> c(v.begin() + s.m * s.k + s.k * s.n, v.end());
    const int64_t lda = s.ta ? s.m : s.k, ldb = s.tb ? s.k : s.n;
    if constexpr (std::is_same_v<T, float>) {
      GemmF32(s.ta, s.tb, s.m, s.n, s.k, 0.7f, a.data(), lda, b.data(), ldb, 0.3f, c.data(), s.n);
    } else {
      GemmF64(s.ta, s.tb, s.m, s.n, s.k, 0.7, a.data(), lda, b.data(), ldb, 0.3, c.data(), s.n);
    }
    return c;
  }
  int64_t k(size_t i) const { return kShapes[i].k; }

 private:
  struct Shape {
    int64_t m, n, k;
    bool ta, tb;
  };
  static constexpr Shape kShapes[] = {{64, 300, 57, false, false},
                                      {37, 49, 460, true, false},
                                      {128, 78, 115, false, true},
                                      {7, 1000, 300, true, true},
                                      {130, 33, 513, false, false}};
  std::vector<std::vector<double>> inputs_;
};

// In GemmMode::kPortable every micro-kernel this CPU supports gives the
// same bits as the baseline (SSE2) one, for float and double, across edge
// tiles, transposes, alpha and beta; and the one used by default is the
// widest supported.
TEST(GemmIsa, InPortableModeEveryKernelGivesTheBaselineBits) {
  const ScopedGemmMode portable(GemmMode::kPortable);
  EXPECT_FALSE(GemmUsesFma());
  const GemmIsa chosen = GemmIsaInUse();
  EXPECT_TRUE(SetGemmIsaForTesting(GemmIsa::kBaseline));
  const IsaCases cases;
  std::vector<std::vector<float>> base_f;
  std::vector<std::vector<double>> base_d;
  for (size_t i = 0; i < cases.size(); ++i) {
    base_f.push_back(cases.Run<float>(i));
    base_d.push_back(cases.Run<double>(i));
  }
  int tried = 0;
  for (GemmIsa isa : {GemmIsa::kAvx2, GemmIsa::kAvx512}) {
    if (!SetGemmIsaForTesting(isa)) continue;
    ++tried;
    for (size_t i = 0; i < cases.size(); ++i) {
      const int isa_id = static_cast<int>(isa);
      EXPECT_EQ(cases.Run<float>(i), base_f[i]) << "isa " << isa_id << " shape " << i;
      EXPECT_EQ(cases.Run<double>(i), base_d[i]) << "isa " << isa_id << " shape " << i;
    }
  }
  EXPECT_TRUE(SetGemmIsaForTesting(chosen));
  if (chosen == GemmIsa::kAvx512) {
    EXPECT_EQ(tried, 2);
  } else if (chosen == GemmIsa::kAvx2) {
    EXPECT_FALSE(SetGemmIsaForTesting(GemmIsa::kAvx512));
    EXPECT_TRUE(SetGemmIsaForTesting(chosen));
  }
  if (tried == 0) GTEST_SKIP() << "this CPU has only the baseline kernel";
}

// The default mode fuses the multiply-adds where the CPU has FMA: close to
// the portable result, and (with FMA) not the same bits; a scope restores
// the mode it replaced.
TEST(GemmIsa, FastModeFusesMultiplyAddsWhereTheCpuHasThem) {
  EXPECT_EQ(GemmModeOfThisThread(), GemmMode::kFast);
  const IsaCases cases;
  std::vector<std::vector<float>> portable_f;
  std::vector<std::vector<double>> portable_d;
  {
    const ScopedGemmMode portable(GemmMode::kPortable);
    EXPECT_EQ(GemmModeOfThisThread(), GemmMode::kPortable);
    {
      const ScopedGemmMode fast(GemmMode::kFast);
      EXPECT_EQ(GemmModeOfThisThread(), GemmMode::kFast);
    }
    EXPECT_EQ(GemmModeOfThisThread(), GemmMode::kPortable);
    for (size_t i = 0; i < cases.size(); ++i) {
      portable_f.push_back(cases.Run<float>(i));
      portable_d.push_back(cases.Run<double>(i));
    }
  }
  EXPECT_EQ(GemmModeOfThisThread(), GemmMode::kFast);
  const GemmIsa chosen = GemmIsaInUse();
  for (GemmIsa isa : {GemmIsa::kBaseline, GemmIsa::kAvx2, GemmIsa::kAvx512}) {
    if (!SetGemmIsaForTesting(isa)) continue;
    SCOPED_TRACE(static_cast<int>(isa));
    size_t differing = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
      const std::vector<float> f = cases.Run<float>(i);
      const std::vector<double> d = cases.Run<double>(i);
      const double k = static_cast<double>(cases.k(i));
      for (size_t j = 0; j < f.size(); ++j) {
        ASSERT_NEAR(f[j], portable_f[i][j], 1e-6 * k) << "shape " << i << " element " << j;
        ASSERT_NEAR(d[j], portable_d[i][j], 1e-14 * k) << "shape " << i << " element " << j;
        differing += f[j] != portable_f[i][j] ? 1 : 0;
      }
    }
    if (GemmUsesFma()) {
      EXPECT_GT(differing, 0u) << "fused multiply-adds round differently somewhere";
    } else {
      EXPECT_EQ(differing, 0u) << "without FMA the fast mode is the portable one";
    }
  }
  EXPECT_TRUE(SetGemmIsaForTesting(chosen));
}

// A packer that writes a plain row-major B into the panels gives GemmF32's
// bits (where GemmF32 packs too) on C filled with the bias, on every kernel
// and in both modes.
TEST(GemmF32PackedB, GivesGemmF32sBitsOnEveryKernel) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1, 1);
  struct Shape {
    int64_t m, n, k;
  };
  for (const Shape s :
       {Shape{64, 300, 57}, Shape{37, 2100, 300}, Shape{5, 7, 3}, Shape{130, 49, 513}}) {
    std::vector<float> a(static_cast<size_t>(s.m * s.k)), b(static_cast<size_t>(s.k * s.n)),
        c0(static_cast<size_t>(s.m * s.n));
    for (float& v : a) v = dist(rng);
    for (float& v : b) v = dist(rng);
    for (float& v : c0) v = dist(rng);
    std::vector<float> bias(static_cast<size_t>(s.m));
    for (float& v : bias) v = dist(rng);
    int64_t widest_nr = 0;
    auto pack = [&](int64_t p0, int64_t kc, int64_t j0, int64_t nc, int64_t nr, float* out) {
      widest_nr = std::max(widest_nr, nr);
      for (int64_t q = 0; q * nr < nc; ++q) {
        for (int64_t p = 0; p < kc; ++p) {
          for (int64_t j = 0; j < nr; ++j) {
            const int64_t col = j0 + q * nr + j;
            out[q * kc * nr + p * nr + j] = col < j0 + nc ? b[(p0 + p) * s.n + col] : 0.0f;
          }
        }
      }
    };
    ForEveryKernel([&](GemmIsa isa, GemmMode mode) {
      // C filled with the bias, then GemmF32 adds: what the packed
      // GEMM writes with the bias (C's old values are ignored).
      std::vector<float> want(c0.size()), got = c0;
      for (int64_t i = 0; i < s.m; ++i) {
        std::fill(want.begin() + i * s.n, want.begin() + (i + 1) * s.n, bias[i]);
      }
      GemmF32(false, false, s.m, s.n, s.k, 0.7f, a.data(), s.k, b.data(), s.n, 1.0f, want.data(),
              s.n);
      ASSERT_TRUE(
          GemmF32PackedB(s.m, s.n, s.k, 0.7f, a.data(), s.k, pack, bias.data(), got.data(), s.n));
      if (s.m * s.n * s.k > 8 * 1024) {
        EXPECT_EQ(got, want) << s.m << "x" << s.n << "x" << s.k << " isa " << static_cast<int>(isa)
                             << " mode " << static_cast<int>(mode);
      } else {  // GemmF32 skips packing for tiny problems
        for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-5);
      }
    });
    EXPECT_GE(widest_nr, 16);
  }
}

// With alpha == 1 and A not transposed the micro-kernel reads whole row
// panels of A in place; the bits are those of packing A, on every kernel
// and in both modes, partial row panels and odd strides included.
TEST(GemmIsa, ReadingAInPlaceGivesThePackedBits) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-1, 1);
  struct Shape {
    int64_t m, n, k, lda;
  };
  for (const Shape s : {Shape{64, 300, 57, 57}, Shape{37, 500, 300, 301}, Shape{133, 49, 513, 520},
                        Shape{12, 64, 700, 700}}) {
    std::vector<float> a(static_cast<size_t>(s.m * s.lda)), b(static_cast<size_t>(s.k * s.n)),
        c0(static_cast<size_t>(s.m * s.n));
    for (float& v : a) v = dist(rng);
    for (float& v : b) v = dist(rng);
    for (float& v : c0) v = dist(rng);
    ForEveryKernel([&](GemmIsa isa, GemmMode mode) {
      std::vector<float> packed = c0, in_place = c0;
      SetGemmInPlaceAForTesting(false);
      GemmF32(false, false, s.m, s.n, s.k, 1.0f, a.data(), s.lda, b.data(), s.n, 1.0f,
              packed.data(), s.n);
      SetGemmInPlaceAForTesting(true);
      GemmF32(false, false, s.m, s.n, s.k, 1.0f, a.data(), s.lda, b.data(), s.n, 1.0f,
              in_place.data(), s.n);
      EXPECT_EQ(in_place, packed) << s.m << "x" << s.n << "x" << s.k << " isa "
                                  << static_cast<int>(isa) << " mode " << static_cast<int>(mode);
    });
  }
}

// GemmF32RowBias writes bias + A * B with the bits of filling C with the
// bias and accumulating, small and packed sizes, every kernel and mode.
TEST(GemmF32RowBias, IsTheBiasFilledAccumulation) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (const auto& [m, n, k] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {64, 300, 57}, {37, 70, 600}, {3, 5, 4}, {1, 40, 300}}) {
    std::vector<float> a(m * k), b(k * n), bias(m);
    for (float& v : a) v = dist(rng);
    for (float& v : b) v = dist(rng);
    for (float& v : bias) v = dist(rng);
    ForEveryKernel([&](GemmIsa isa, GemmMode mode) {
      std::vector<float> want(m * n), got(m * n, std::numeric_limits<float>::quiet_NaN());
      for (int64_t i = 0; i < m; ++i) {
        std::fill(want.begin() + i * n, want.begin() + (i + 1) * n, bias[i]);
      }
      GemmF32(false, false, m, n, k, 1.0f, a.data(), k, b.data(), n, 1.0f, want.data(), n);
      GemmF32RowBias(m, n, k, a.data(), k, b.data(), n, bias.data(), got.data(), n);
      EXPECT_EQ(got, want) << m << "x" << n << "x" << k << " isa " << static_cast<int>(isa);
    });
  }
}

TEST(GemmInt, WrapsAroundWithoutUndefinedBehaviour) {
  const int32_t a[2] = {std::numeric_limits<int32_t>::max(), 2};
  const int32_t b[2] = {2, 3};
  int32_t c[1] = {5};
  GemmInt<int32_t>(false, false, 1, 1, 2, 1, a, 2, b, 1, 1, c, 1);
  // 2 * INT32_MAX + 6 + 5 wraps modulo 2^32.
  const uint32_t expect = static_cast<uint32_t>(std::numeric_limits<int32_t>::max()) * 2u + 11u;
  EXPECT_EQ(static_cast<uint32_t>(c[0]), expect);
}

TEST(GemmInt, TransposedWithAlphaBeta) {
  // op(A) = A^T with A = [[1, 2], [3, 4]] stored 2x2 -> op(A) = [[1, 3], [2, 4]].
  const int64_t a[4] = {1, 2, 3, 4};
  const int64_t b[4] = {1, 2, 3, 4};  // op(B) = B^T = [[1, 3], [2, 4]]
  int64_t c[4] = {1, 1, 1, 1};
  GemmInt<int64_t>(true, true, 2, 2, 2, 2, a, 2, b, 2, 3, c, 2);
  // op(A) op(B) = [[7, 15], [10, 22]]; *2 + 3.
  EXPECT_EQ(c[0], 17);
  EXPECT_EQ(c[1], 33);
  EXPECT_EQ(c[2], 23);
  EXPECT_EQ(c[3], 47);
}

}  // namespace
}  // namespace ops
