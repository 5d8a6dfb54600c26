// ops/compute/matmul/matmul_test.cc
//
// MatMul and Gemm on the compute engine against the host-CPU reference
// kernels: shapes (1-D operands, batch broadcast, odd sizes), constant and
// runtime B, Gemm's transposes, alpha / beta and every C broadcast form,
// fp32 and bf16, 1 and 2 threads; and what Supports rejects.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ops/compute/common/compute_kernel_tester.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::RandomTensor;
using Dims = std::vector<int64_t>;

constexpr double kF32Tol = 1e-4;
// bf16 keeps 8 bits of mantissa: one rounding of the output apart.
constexpr double kBf16Tol = 2e-2;

double Tol(ge::DataType dt) { return dt == ge::DT_BF16 ? kBf16Tol : kF32Tol; }

::testing::AssertionResult MatMulMatches(const Dims& a, const Dims& b, bool b_const,
                                         ge::DataType dt = ge::DT_FLOAT) {
  ComputeKernelTester t("MatMul");
  t.Input(RandomTensor(dt, a, 1));
  if (b_const) {
    t.Const(RandomTensor(dt, b, 2));
  } else {
    t.Input(RandomTensor(dt, b, 2));
  }
  return t.MatchesReference(Tol(dt), Tol(dt), {1, 2});
}

std::string Str(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

TEST(DnnlMatMulTest, TwoDShapes) {
  const std::vector<std::pair<Dims, Dims>> cases = {
      {{1, 1}, {1, 1}},   {{3, 5}, {5, 7}},    {{17, 33}, {33, 19}},
      {{1, 64}, {64, 9}}, {{65, 3}, {3, 130}}, {{128, 96}, {96, 80}},
  };
  for (const auto& [a, b] : cases) {
    for (bool b_const : {false, true}) {
      EXPECT_TRUE(MatMulMatches(a, b, b_const))
          << Str(a) << " x " << Str(b) << " const " << b_const;
    }
  }
}

TEST(DnnlMatMulTest, OneDOperands) {
  const std::vector<std::pair<Dims, Dims>> cases = {
      {{5}, {5, 3}},    {{4, 5}, {5}},       {{7}, {7}},
      {{5}, {2, 5, 3}}, {{2, 3, 4, 5}, {5}}, {{6}, {3, 2, 6, 4}},
  };
  for (const auto& [a, b] : cases) {
    for (bool b_const : {false, true}) {
      EXPECT_TRUE(MatMulMatches(a, b, b_const))
          << Str(a) << " x " << Str(b) << " const " << b_const;
    }
  }
}

TEST(DnnlMatMulTest, BatchedAndBroadcast) {
  const std::vector<std::pair<Dims, Dims>> cases = {
      {{2, 3, 4, 5}, {2, 3, 5, 6}},     // same batch
      {{3, 4, 5}, {5, 6}},              // weights: folds into one 2-D product
      {{2, 3, 4, 5}, {1, 5, 6}},        // B batch of ones folds too
      {{4, 5}, {3, 5, 6}},              // A broadcast
      {{2, 1, 4, 5}, {1, 3, 5, 6}},     // both broadcast
      {{2, 1, 3, 4, 5}, {5, 1, 5, 6}},  // ranks 5 and 4
      {{1, 2, 1, 3, 7, 9}, {2, 2, 1, 3, 9, 5}},
      {{12, 16, 8}, {12, 8, 16}},  // attention
      {{2, 3, 1, 5}, {3, 5, 1}},   // M = N = 1
  };
  for (const auto& [a, b] : cases) {
    for (bool b_const : {false, true}) {
      EXPECT_TRUE(MatMulMatches(a, b, b_const))
          << Str(a) << " x " << Str(b) << " const " << b_const;
    }
  }
}

TEST(DnnlMatMulTest, Bf16) {
  const std::vector<std::pair<Dims, Dims>> cases = {
      {{3, 5}, {5, 7}}, {{33, 48}, {48, 17}},         {{2, 8, 32}, {32, 16}},
      {{5}, {5, 3}},    {{2, 1, 4, 5}, {1, 3, 5, 6}},
  };
  for (const auto& [a, b] : cases) {
    for (bool b_const : {false, true}) {
      EXPECT_TRUE(MatMulMatches(a, b, b_const, ge::DT_BF16))
          << Str(a) << " x " << Str(b) << " const " << b_const;
    }
  }
}

void ExpectNotSupported(ComputeKernelTester& t, const std::string& what) {
  ge::Status st = t.Supported();
  EXPECT_FALSE(st.ok()) << what;
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << what << ": " << st;
}

TEST(DnnlMatMulTest, Rejections) {
  {
    ComputeKernelTester t("MatMul");
    t.Input(RandomTensor(ge::DT_INT32, {2, 3}, 1)).Input(RandomTensor(ge::DT_INT32, {3, 4}, 2));
    ExpectNotSupported(t, "int32");
  }
  {
    ComputeKernelTester t("MatMul");
    t.Input(RandomTensor(ge::DT_DOUBLE, {2, 3}, 1)).Input(RandomTensor(ge::DT_DOUBLE, {3, 4}, 2));
    ExpectNotSupported(t, "double");
  }
  {
    ComputeKernelTester t("MatMul");
    t.Input(RandomTensor(ge::DT_FLOAT, {0, 3}, 1)).Input(RandomTensor(ge::DT_FLOAT, {3, 4}, 2));
    ExpectNotSupported(t, "empty A");
  }
  {
    // 11 batch dims alternating between A and B need 13 oneDNN dims.
    Dims a, b;
    for (int i = 0; i < 11; ++i) {
      a.push_back(i % 2 == 0 ? 2 : 1);
      b.push_back(i % 2 == 0 ? 1 : 2);
    }
    a.insert(a.end(), {2, 3});
    b.insert(b.end(), {3, 2});
    ComputeKernelTester t("MatMul");
    t.Input(RandomTensor(ge::DT_FLOAT, a, 1)).Input(RandomTensor(ge::DT_FLOAT, b, 2));
    ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("oneDNN dims"), std::string::npos) << st;
  }
  {
    // 10 of them fit (12 dims).
    Dims a, b;
    for (int i = 0; i < 10; ++i) {
      a.push_back(i % 2 == 0 ? 2 : 1);
      b.push_back(i % 2 == 0 ? 1 : 2);
    }
    a.insert(a.end(), {2, 3});
    b.insert(b.end(), {3, 2});
    EXPECT_TRUE(MatMulMatches(a, b, false));
  }
  {
    ComputeKernelTester t("MatMul");
    t.Attr("_fused_activation", std::string("Softplus"))
        .Input(RandomTensor(ge::DT_FLOAT, {2, 3}, 1))
        .Input(RandomTensor(ge::DT_FLOAT, {3, 4}, 2));
    ExpectNotSupported(t, "unknown activation");
  }
}

// Unknown dims: the declaration takes static shapes only.
TEST(DnnlMatMulTest, RejectsUnknownDims) {
  ge::StatusOr<ge::OpDescPtr> op = ge::OperatorFactory::CreateOpDesc("mm", "MatMul");
  ASSERT_TRUE(op.ok()) << op.status();
  *(*op)->MutableInputDesc(0) = ge::GeTensorDesc(ge::GeShape({-1, 3}), ge::FORMAT_ND, ge::DT_FLOAT);
  *(*op)->MutableInputDesc(1) = ge::GeTensorDesc(ge::GeShape({3, 4}), ge::FORMAT_ND, ge::DT_FLOAT);
  *(*op)->MutableOutputDesc(0) =
      ge::GeTensorDesc(ge::GeShape({-1, 4}), ge::FORMAT_ND, ge::DT_FLOAT);
  const ge::KernelDef* def = ge::FindKernel("MatMul", ge::kEngineAiCore);
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(ge::GetErrorCode(def->CheckSupported(**op)), ge::ErrorCode::kNotSupported);
}

// ---------------------------------------------------------------- Gemm

struct GemmCase {
  int64_t m, k, n;
  bool ta = false, tb = false;
  float alpha = 1.0f, beta = 1.0f;
  enum CKind { kNoC, kCInput, kCConst } c_kind = kNoC;
  Dims c;  // C's shape
  bool b_const = true;
  ge::DataType dt = ge::DT_FLOAT;
};

std::string Describe(const GemmCase& g) {
  return "M=" + std::to_string(g.m) + " K=" + std::to_string(g.k) + " N=" + std::to_string(g.n) +
         " transA=" + std::to_string(g.ta) + " transB=" + std::to_string(g.tb) +
         " alpha=" + std::to_string(g.alpha) + " beta=" + std::to_string(g.beta) +
         " C=" + (g.c_kind == GemmCase::kNoC ? std::string("none") : Str(g.c)) +
         (g.c_kind == GemmCase::kCConst ? " const" : "") + " B const=" + std::to_string(g.b_const) +
         (g.dt == ge::DT_BF16 ? " bf16" : "");
}

::testing::AssertionResult GemmMatches(const GemmCase& g) {
  ComputeKernelTester t("Gemm");
  t.Attr("transA", int64_t{g.ta}).Attr("transB", int64_t{g.tb});
  t.Attr("alpha", g.alpha).Attr("beta", g.beta);
  t.Input(RandomTensor(g.dt, g.ta ? Dims{g.k, g.m} : Dims{g.m, g.k}, 11));
  gert::HostTensor b = RandomTensor(g.dt, g.tb ? Dims{g.n, g.k} : Dims{g.k, g.n}, 12);
  if (g.b_const) {
    t.Const(std::move(b));
  } else {
    t.Input(std::move(b));
  }
  if (g.c_kind == GemmCase::kCInput) t.Input(RandomTensor(g.dt, g.c, 13));
  if (g.c_kind == GemmCase::kCConst) t.Const(RandomTensor(g.dt, g.c, 13));
  return t.MatchesReference(Tol(g.dt), Tol(g.dt), {1, 2});
}

TEST(DnnlGemmTest, Transposes) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (bool b_const : {false, true}) {
        for (auto [m, k, n] :
             std::vector<std::array<int64_t, 3>>{{1, 1, 1}, {7, 13, 5}, {33, 64, 17}}) {
          GemmCase g{m, k, n, ta, tb};
          g.b_const = b_const;
          EXPECT_TRUE(GemmMatches(g)) << Describe(g);
        }
      }
    }
  }
}

TEST(DnnlGemmTest, AlphaBetaAndCForms) {
  const int64_t m = 9, k = 12, n = 11;
  const std::vector<Dims> forms = {{n}, {1, n}, {m, n}, {m, 1}, {1, 1}, {1}, {}};
  const std::vector<std::pair<float, float>> coeffs = {
      {1, 1}, {0.5f, 2}, {1, 0.25f}, {2, 0}, {-1.5f, 1}};
  for (const Dims& c : forms) {
    for (auto [alpha, beta] : coeffs) {
      for (auto kind : {GemmCase::kCInput, GemmCase::kCConst}) {
        for (bool tb : {false, true}) {
          GemmCase g{m, k, n, false, tb, alpha, beta, kind, c};
          EXPECT_TRUE(GemmMatches(g)) << Describe(g);
        }
      }
    }
  }
  // No C, alpha != 1.
  GemmCase g{m, k, n, true, false, 0.75f, 1.0f};
  EXPECT_TRUE(GemmMatches(g)) << Describe(g);
}

TEST(DnnlGemmTest, Bf16) {
  const std::vector<GemmCase> cases = {
      {16, 32, 24},
      {7, 13, 5, true, true},
      {9, 12, 11, false, false, 1, 1, GemmCase::kCConst, {11}},
      {9, 12, 11, false, true, 0.5f, 2, GemmCase::kCInput, {9, 11}},
      {9, 12, 11, true, false, 1, 1, GemmCase::kCInput, {1, 11}},
      {9, 12, 11, false, false, 1, 0.5f, GemmCase::kCInput, {9, 1}},
      {9, 12, 11, false, false, 2, 1, GemmCase::kCConst, {9, 1}},
  };
  for (GemmCase g : cases) {
    g.dt = ge::DT_BF16;
    for (bool b_const : {false, true}) {
      g.b_const = b_const;
      EXPECT_TRUE(GemmMatches(g)) << Describe(g);
    }
  }
}

TEST(DnnlGemmTest, Rejections) {
  {
    ComputeKernelTester t("Gemm");
    t.Input(RandomTensor(ge::DT_INT32, {2, 3}, 1)).Input(RandomTensor(ge::DT_INT32, {3, 4}, 2));
    ExpectNotSupported(t, "int32");
  }
  {
    ComputeKernelTester t("Gemm");
    t.Input(RandomTensor(ge::DT_FLOAT, {2, 0}, 1)).Input(RandomTensor(ge::DT_FLOAT, {0, 4}, 2));
    ExpectNotSupported(t, "K = 0");
  }
  {
    ComputeKernelTester t("Gemm");
    t.Attr("_fused_activation", std::string("Clip"))
        .Attr("_fused_activation_alpha", 1.0f)
        .Attr("_fused_activation_beta", -1.0f)
        .Input(RandomTensor(ge::DT_FLOAT, {2, 3}, 1))
        .Input(RandomTensor(ge::DT_FLOAT, {3, 4}, 2));
    ExpectNotSupported(t, "Clip with min > max");
  }
}

}  // namespace
}  // namespace compute
}  // namespace ops
