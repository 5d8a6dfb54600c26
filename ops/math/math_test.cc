// ops/math/math_test.cc: MatMul, Gemm, MatMulInteger, QLinearMatMul, Einsum,
// Det, QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear through their
// registered infer / verify / kernel functions. Expected values are worked out
// by hand or taken from the ONNX 1.12 node tests (named where they are).
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// Infer / RunKernel / Make / ... : the shared op test harness.
using namespace op_test;  // NOLINT(build/namespaces): test harness

// ================================================================== MatMul

TEST(MatMulInferTest, NumpyShapes) {
  struct Case {
    gert::Shape a, b, want;
  };
  const std::vector<Case> cases = {
      {{2, 3}, {3, 4}, {2, 4}},
      {{3}, {3}, {}},                           // dot product: scalar
      {{3}, {2, 3, 4}, {2, 4}},                 // 1-D A: prepended dim removed
      {{2, 5, 3}, {3}, {2, 5}},                 // 1-D B: appended dim removed
      {{2, 1, 4, 3}, {5, 3, 6}, {2, 5, 4, 6}},  // batch broadcast
      {{-1, 3}, {3, -1}, {-1, -1}},
      {{-1, -1}, {4, 5}, {-1, 5}},
      {{-1, 2, 3}, {1, 3, 4}, {-1, 2, 4}},
      {{1, 2, 3}, {-1, 3, 4}, {-1, 2, 4}},
  };
  for (const Case& c : cases) {
    InferResult r = Infer("MatMul", {{c.a}, {c.b}});
    ASSERT_TRUE(r.status.ok()) << r.status;
    EXPECT_EQ(r.shapes[0], c.want) << c.a.ToString() << " x " << c.b.ToString();
    EXPECT_EQ(r.dtypes[0], ge::DT_FLOAT);
  }
  InferResult r = Infer("MatMul", {{UnknownRank()}, {gert::Shape{3, 4}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
}

TEST(MatMulInferTest, Errors) {
  InferResult r = Infer("MatMul", {{gert::Shape{2, 3}}, {gert::Shape{4, 5}}});
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(r.status), HasSubstr("node_MatMul"));
  EXPECT_THAT(Msg(r.status), HasSubstr("[2,3]"));
  EXPECT_THAT(Msg(r.status), HasSubstr("[4,5]"));
  EXPECT_THAT(Msg(r.status), HasSubstr("inner dimensions"));

  r = Infer("MatMul", {{gert::Shape{}}, {gert::Shape{3}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("input 0 (A) must have rank >= 1"));

  r = Infer("MatMul", {{gert::Shape{2, 2, 3}}, {gert::Shape{3, 3, 4}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("batch dims"));
  EXPECT_THAT(Msg(r.status), HasSubstr("node_MatMul"));

  r = Infer("MatMul", {{gert::Shape{2, 3}, ge::DT_FLOAT}, {gert::Shape{3, 4}, ge::DT_INT32}});
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(Msg(r.status), HasSubstr("DT_INT32"));
}

TEST(MatMulKernelTest, TwoByThree) {
  gert::HostTensor a = Make(ge::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  gert::HostTensor b = Make(ge::DT_FLOAT, {3, 2}, {7, 8, 9, 10, 11, 12});
  KernelRun run;
  RunKernel("MatMul", {&a, &b}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.Shape(), (gert::Shape{2, 2}));
  // [1 2 3]·[7 9 11] = 58, ·[8 10 12] = 64; [4 5 6] -> 139, 154.
  EXPECT_THAT(run.Values(), ElementsAre(58, 64, 139, 154));
}

TEST(MatMulKernelTest, VectorOperands) {
  gert::HostTensor v = Make(ge::DT_DOUBLE, {3}, {1, 2, 3});
  gert::HostTensor w = Make(ge::DT_DOUBLE, {3}, {4, 5, 6});
  KernelRun dot;
  RunKernel("MatMul", {&v, &w}, &dot);
  ASSERT_TRUE(dot.status.ok()) << dot.status;
  EXPECT_TRUE(dot.Shape().IsScalar());
  EXPECT_THAT(dot.Values(), ElementsAre(32));

  gert::HostTensor m = Make(ge::DT_DOUBLE, {3, 2}, {1, 0, 0, 1, 1, 1});
  KernelRun vm;
  RunKernel("MatMul", {&v, &m}, &vm);
  ASSERT_TRUE(vm.status.ok()) << vm.status;
  EXPECT_EQ(vm.Shape(), (gert::Shape{2}));
  EXPECT_THAT(vm.Values(), ElementsAre(4, 5));

  gert::HostTensor mt = Make(ge::DT_DOUBLE, {2, 3}, {1, 0, 1, 0, 1, 1});
  KernelRun mv;
  RunKernel("MatMul", {&mt, &v}, &mv);
  ASSERT_TRUE(mv.status.ok()) << mv.status;
  EXPECT_EQ(mv.Shape(), (gert::Shape{2}));
  EXPECT_THAT(mv.Values(), ElementsAre(4, 5));
}

TEST(MatMulKernelTest, BatchBroadcast) {
  // A [1, 2, 2] broadcast against B [3, 2, 2]: B_i = i * I.
  gert::HostTensor a = Make(ge::DT_FLOAT, {1, 2, 2}, {1, 2, 3, 4});
  gert::HostTensor b = Make(ge::DT_FLOAT, {3, 2, 2}, {1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0, 3});
  KernelRun run;
  RunKernel("MatMul", {&a, &b}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.Shape(), (gert::Shape{3, 2, 2}));
  EXPECT_THAT(run.Values(), ElementsAre(1, 2, 3, 4, 2, 4, 6, 8, 3, 6, 9, 12));

  // Shared 2-D B (the folded single-GEMM path).
  gert::HostTensor a3 = Make(ge::DT_FLOAT, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  gert::HostTensor b2 = Make(ge::DT_FLOAT, {2, 1}, {1, -1});
  KernelRun shared;
  RunKernel("MatMul", {&a3, &b2}, &shared);
  ASSERT_TRUE(shared.status.ok()) << shared.status;
  EXPECT_EQ(shared.Shape(), (gert::Shape{2, 2, 1}));
  EXPECT_THAT(shared.Values(), ElementsAre(-1, -1, -1, -1));
}

TEST(MatMulKernelTest, LargeMatchesNaive) {
  // Big enough for the packed path with partial tiles: [2, 37, 300] x [300, 45].
  const int64_t batch = 2, m = 37, k = 300, n = 45;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> dist(-3, 3);  // exact in float
  std::vector<double> av(batch * m * k), bv(k * n);
  for (double& x : av) x = dist(rng);
  for (double& x : bv) x = dist(rng);
  gert::HostTensor a = Make(ge::DT_FLOAT, {batch, m, k}, av);
  gert::HostTensor b = Make(ge::DT_FLOAT, {k, n}, bv);
  KernelRun run;
  RunKernel("MatMul", {&a, &b}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  const std::vector<double> got = run.Values();
  for (int64_t t = 0; t < batch; ++t) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += av[(t * m + i) * k + p] * bv[p * n + j];
        ASSERT_EQ(got[(t * m + i) * n + j], s) << t << "," << i << "," << j;
      }
    }
  }
}

TEST(MatMulKernelTest, IntegerAndHalfTypes) {
  for (ge::DataType dt : {ge::DT_INT32, ge::DT_INT64, ge::DT_UINT32, ge::DT_UINT64, ge::DT_FLOAT16,
                          ge::DT_BF16, ge::DT_DOUBLE}) {
    gert::HostTensor a = Make(dt, {2, 2}, {1, 2, 3, 4});
    gert::HostTensor b = Make(dt, {2, 2}, {5, 6, 7, 8});
    KernelRun run;
    RunKernel("MatMul", {&a, &b}, &run);
    ASSERT_TRUE(run.status.ok()) << run.status;
    EXPECT_EQ(run.outs[0].GetDataType(), dt);
    EXPECT_THAT(run.Values(), ElementsAre(19, 22, 43, 50)) << DataTypeName(dt);
  }
  // int32 overflow wraps (no UB): 65536 * 65536 = 2^32 -> 0.
  gert::HostTensor a = Make(ge::DT_INT32, {1, 1}, {65536});
  gert::HostTensor b = Make(ge::DT_INT32, {1, 1}, {65536});
  KernelRun run;
  RunKernel("MatMul", {&a, &b}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_THAT(run.Values(), ElementsAre(0));
}

TEST(MatMulKernelTest, EmptyDims) {
  gert::HostTensor a = Make(ge::DT_FLOAT, {0, 3}, {});
  gert::HostTensor b = Make(ge::DT_FLOAT, {3, 4}, std::vector<double>(12, 1.0));
  KernelRun run;
  RunKernel("MatMul", {&a, &b}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.Shape(), (gert::Shape{0, 4}));

  // K = 0: a sum over nothing is 0.
  gert::HostTensor a0 = Make(ge::DT_FLOAT, {2, 0}, {});
  gert::HostTensor b0 = Make(ge::DT_FLOAT, {0, 3}, {});
  KernelRun zero;
  RunKernel("MatMul", {&a0, &b0}, &zero);
  ASSERT_TRUE(zero.status.ok()) << zero.status;
  EXPECT_EQ(zero.Shape(), (gert::Shape{2, 3}));
  EXPECT_THAT(zero.Values(), ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST(MatMulKernelTest, Errors) {
  gert::HostTensor a = Make(ge::DT_FLOAT, {2, 3}, Iota(6));
  gert::HostTensor b = Make(ge::DT_FLOAT, {2, 3}, Iota(6));
  KernelRun run;
  RunKernel("MatMul", {&a, &b}, &run);
  EXPECT_THAT(Msg(run.status), HasSubstr("node_MatMul"));
  EXPECT_THAT(Msg(run.status), HasSubstr("inner dimensions"));

  gert::HostTensor bi = Make(ge::DT_INT32, {3, 2}, Iota(6));
  KernelRun mixed;
  RunKernel("MatMul", {&a, &bi}, &mixed);
  EXPECT_EQ(ge::GetErrorCode(mixed.status), ge::ErrorCode::kTypeMismatch);

  KernelRun missing;
  RunKernel("MatMul", {&a, nullptr}, &missing);
  EXPECT_THAT(Msg(missing.status), HasSubstr("input 1"));

  gert::HostTensor s = Make(ge::DT_INT8, {2, 2}, Iota(4));
  KernelRun bad_type;
  RunKernel("MatMul", {&s, &s}, &bad_type);
  EXPECT_EQ(ge::GetErrorCode(bad_type.status), ge::ErrorCode::kNotSupported);
}

// ================================================================== Gemm

TEST(GemmInferTest, ShapesAndErrors) {
  InferResult r = Infer("Gemm", {{gert::Shape{3, 4}}, {gert::Shape{5, 3}}}, 1,
                        Attrs().Set<int64_t>("transA", 1).Set<int64_t>("transB", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{4, 5}));

  r = Infer("Gemm", {{gert::Shape{-1, 4}}, {gert::Shape{4, -1}}, {gert::Shape{1, 7}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));

  r = Infer("Gemm", {{gert::Shape{2, 4}}, {gert::Shape{4, 3}}, Absent()});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, 3}));

  r = Infer("Gemm", {{gert::Shape{2, 4}}, {gert::Shape{3, 4}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("inner dimensions"));
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Gemm"));

  r = Infer("Gemm", {{gert::Shape{2, 4, 1}}, {gert::Shape{4, 3}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("input 0 (A) must be 2-D"));

  r = Infer("Gemm", {{gert::Shape{2, 4}}, {gert::Shape{4, 3}}, {gert::Shape{2, 2}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("input 2 (C)"));
  r = Infer("Gemm", {{gert::Shape{2, 4}}, {gert::Shape{4, 3}}, {gert::Shape{1, 2, 3}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("rank 3"));

  r = Infer("Gemm", {{gert::Shape{2, 4}}, {gert::Shape{4, 3}}, {gert::Shape{3}, ge::DT_DOUBLE}});
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kTypeMismatch);
}

TEST(GemmKernelTest, AllAttributesOnnxCase) {
  // onnx test_gemm_all_attributes: alpha 0.25, beta 0.35, transA, transB.
  gert::HostTensor a =
      Make(ge::DT_FLOAT, {4, 3},
           {0.54881352186203, 0.7151893377304077, 0.6027633547782898, 0.5448831915855408,
            0.42365479469299316, 0.6458941102027893, 0.4375872015953064, 0.891772985458374,
            0.9636627435684204, 0.3834415078163147, 0.7917250394821167, 0.5288949012756348});
  gert::HostTensor b =
      Make(ge::DT_FLOAT, {5, 4},
           {0.5680445432662964,   0.9255966544151306, 0.07103605568408966, 0.08712930232286453,
            0.020218396559357643, 0.832619845867157,  0.7781567573547363,  0.8700121641159058,
            0.978618323802948,    0.7991585731506348, 0.4614793658256531,  0.7805292010307312,
            0.11827442795038223,  0.6399210095405579, 0.14335328340530396, 0.9446688890457153,
            0.5218483209609985,   0.4146619439125061, 0.26455560326576233, 0.7742336988449097});
  gert::HostTensor c = Make(ge::DT_FLOAT, {1, 5},
                            {0.4561503231525421, 0.568433940410614, 0.018789799883961678,
                             0.6176354885101318, 0.6120957136154175});
  KernelRun run;
  RunKernel("Gemm", {&a, &b, &c}, &run, 1,
            Attrs()
                .Set<float>("alpha", 0.25f)
                .Set<float>("beta", 0.35f)
                .Set<int64_t>("transA", 1)
                .Set<int64_t>("transB", 1));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.Shape(), (gert::Shape{3, 5}));
  const std::vector<double> want = {0.37979912757873535, 0.4836736023426056,  0.37501436471939087,
                                    0.4258093237876892,  0.44547832012176514, 0.392333447933197,
                                    0.6364401578903198,  0.5235674381256104,  0.5240350961685181,
                                    0.5636829137802124,  0.42334532737731934, 0.6389510631561279,
                                    0.49747031927108765, 0.4967692494392395,  0.5259358286857605};
  const std::vector<double> got = run.Values();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i;
}

TEST(GemmKernelTest, BiasBroadcastForms) {
  // A = I (2x2), B = [[1, 2, 3], [4, 5, 6]]; Y = B + beta * C.
  gert::HostTensor a = Make(ge::DT_FLOAT, {2, 2}, {1, 0, 0, 1});
  gert::HostTensor b = Make(ge::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  struct Case {
    gert::Shape c_shape;
    std::vector<double> c;
    std::vector<double> want;
  };
  const std::vector<Case> cases = {
      {gert::Shape{}, {10}, {21, 22, 23, 24, 25, 26}},           // scalar
      {gert::Shape{3}, {10, 20, 30}, {21, 42, 63, 24, 45, 66}},  // row vector
      {gert::Shape{2, 1}, {10, 20}, {21, 22, 23, 44, 45, 46}},   // column
      {gert::Shape{2, 3}, Iota(6, 0), {1, 4, 7, 10, 13, 16}},    // full
      {gert::Shape{1}, {1}, {3, 4, 5, 6, 7, 8}},                 // single element
  };
  for (const Case& cs : cases) {
    gert::HostTensor c = Make(ge::DT_FLOAT, cs.c_shape, cs.c);
    KernelRun run;
    RunKernel("Gemm", {&a, &b, &c}, &run, 1, Attrs().Set<float>("beta", 2.0f));
    ASSERT_TRUE(run.status.ok()) << run.status;
    EXPECT_THAT(run.Values(), ElementsAreArray(cs.want)) << cs.c_shape.ToString();
  }
  KernelRun no_c;
  RunKernel("Gemm", {&a, &b, nullptr}, &no_c, 1, Attrs().Set<float>("alpha", -1.0f));
  ASSERT_TRUE(no_c.status.ok()) << no_c.status;
  EXPECT_THAT(no_c.Values(), ElementsAre(-1, -2, -3, -4, -5, -6));
}

TEST(GemmKernelTest, IntegerAndHalf) {
  gert::HostTensor a = Make(ge::DT_INT32, {2, 2}, {1, 2, 3, 4});
  gert::HostTensor b = Make(ge::DT_INT32, {2, 2}, {5, 6, 7, 8});
  gert::HostTensor c = Make(ge::DT_INT32, {2}, {1, -1});
  KernelRun run;
  RunKernel("Gemm", {&a, &b, &c}, &run, 1, Attrs().Set<float>("alpha", 2.0f));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_THAT(run.Values(), ElementsAre(39, 43, 87, 99));

  // Fractional alpha on integers: 0.5 * [[19, 22], [43, 50]] + C, truncated.
  KernelRun frac;
  RunKernel("Gemm", {&a, &b, &c}, &frac, 1, Attrs().Set<float>("alpha", 0.5f));
  ASSERT_TRUE(frac.status.ok()) << frac.status;
  EXPECT_THAT(frac.Values(), ElementsAre(10, 10, 22, 24));

  gert::HostTensor ha = Make(ge::DT_FLOAT16, {2, 2}, {1, 2, 3, 4});
  gert::HostTensor hb = Make(ge::DT_FLOAT16, {2, 2}, {0.5, 0, 0, 0.5});
  KernelRun half;
  RunKernel("Gemm", {&ha, &hb, nullptr}, &half, 1, Attrs().Set<int64_t>("transA", 1));
  ASSERT_TRUE(half.status.ok()) << half.status;
  EXPECT_EQ(half.outs[0].GetDataType(), ge::DT_FLOAT16);
  EXPECT_THAT(half.Values(), ElementsAre(0.5, 1.5, 1, 2));
}

TEST(GemmKernelTest, Errors) {
  gert::HostTensor a = Make(ge::DT_FLOAT, {2, 2}, {1, 0, 0, 1});
  gert::HostTensor b = Make(ge::DT_FLOAT, {3, 2}, Iota(6));
  KernelRun run;
  RunKernel("Gemm", {&a, &b, nullptr}, &run);
  EXPECT_THAT(Msg(run.status), HasSubstr("node_Gemm"));
  EXPECT_THAT(Msg(run.status), HasSubstr("K=2"));
  gert::HostTensor c = Make(ge::DT_FLOAT, {3}, {1, 2, 3});
  KernelRun bad_c;
  RunKernel("Gemm", {&a, &a, &c}, &bad_c);
  EXPECT_THAT(Msg(bad_c.status), HasSubstr("input 2 (C)"));
}

// ================================================================== MatMulInteger

TEST(MatMulIntegerTest, OnnxCase) {
  // onnx test_matmulinteger.
  gert::HostTensor a = Make(ge::DT_UINT8, {4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
  gert::HostTensor b = Make(ge::DT_UINT8, {3, 2}, {1, 4, 2, 5, 3, 6});
  gert::HostTensor az = Make(ge::DT_UINT8, {1}, {12});
  gert::HostTensor bz = Make(ge::DT_UINT8, {1}, {0});
  KernelRun run;
  RunKernel("MatMulInteger", {&a, &b, &az, &bz}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.outs[0].GetDataType(), ge::DT_INT32);
  EXPECT_EQ(run.Shape(), (gert::Shape{4, 2}));
  EXPECT_THAT(run.Values(), ElementsAre(-38, -83, -44, -98, -50, -113, -56, -128));

  InferResult r = Infer("MatMulInteger", {{gert::Shape{-1, 4, 3}, ge::DT_UINT8},
                                          {gert::Shape{3, 2}, ge::DT_INT8},
                                          Absent(),
                                          {gert::Shape{2}, ge::DT_INT8}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 4, 2}));
  EXPECT_EQ(r.dtypes[0], ge::DT_INT32);
}

TEST(MatMulIntegerTest, PerRowAndPerColumnZeroPoints) {
  // A int8 [2, 2], per-row zero points {1, -1}; B per-column zero points {0, 2}.
  gert::HostTensor a = Make(ge::DT_INT8, {2, 2}, {2, 3, -4, 5});
  gert::HostTensor b = Make(ge::DT_INT8, {2, 2}, {1, 3, -2, 4});
  gert::HostTensor az = Make(ge::DT_INT8, {2}, {1, -1});
  gert::HostTensor bz = Make(ge::DT_INT8, {2}, {0, 2});
  KernelRun run;
  RunKernel("MatMulInteger", {&a, &b, &az, &bz}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  // A - az = [[1, 2], [-3, 6]]; B - bz = [[1, 1], [-2, 2]].
  EXPECT_THAT(run.Values(), ElementsAre(-3, 5, -15, 9));

  // No zero points at all.
  KernelRun plain;
  RunKernel("MatMulInteger", {&a, &b, nullptr, nullptr}, &plain);
  ASSERT_TRUE(plain.status.ok()) << plain.status;
  EXPECT_THAT(plain.Values(), ElementsAre(-4, 18, -14, 8));
}

TEST(MatMulIntegerTest, Errors) {
  gert::HostTensor a = Make(ge::DT_UINT8, {2, 2}, {1, 2, 3, 4});
  gert::HostTensor az = Make(ge::DT_UINT8, {3}, {1, 2, 3});
  KernelRun run;
  RunKernel("MatMulInteger", {&a, &a, &az, nullptr}, &run);
  EXPECT_THAT(Msg(run.status), HasSubstr("a_zero_point"));
  EXPECT_THAT(Msg(run.status), HasSubstr("node_MatMulInteger"));

  gert::HostTensor f = Make(ge::DT_FLOAT, {2, 2}, {1, 2, 3, 4});
  KernelRun bad;
  RunKernel("MatMulInteger", {&f, &a, nullptr, nullptr}, &bad);
  EXPECT_EQ(ge::GetErrorCode(bad.status), ge::ErrorCode::kTypeMismatch);

  InferResult r = Infer("MatMulInteger", {{gert::Shape{2, 2}, ge::DT_UINT8},
                                          {gert::Shape{2, 2}, ge::DT_UINT8},
                                          {gert::Shape{}, ge::DT_INT8}});
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kTypeMismatch);
}

// ================================================================== QLinearMatMul

TEST(QLinearMatMulTest, OnnxCases) {
  // onnx test_qlinearmatmul_2D and _3D.
  const std::vector<double> av = {208, 236, 0, 238, 3, 214, 255, 29};
  const std::vector<double> bv = {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247};
  gert::HostTensor as = Make(ge::DT_FLOAT, {1}, {0.0066});
  gert::HostTensor az = Make(ge::DT_UINT8, {1}, {113});
  gert::HostTensor bs = Make(ge::DT_FLOAT, {1}, {0.00705});
  gert::HostTensor bz = Make(ge::DT_UINT8, {1}, {114});
  gert::HostTensor ys = Make(ge::DT_FLOAT, {1}, {0.0107});
  gert::HostTensor yz = Make(ge::DT_UINT8, {1}, {118});
  gert::HostTensor a = Make(ge::DT_UINT8, {2, 4}, av);
  gert::HostTensor b = Make(ge::DT_UINT8, {4, 3}, bv);
  KernelRun run;
  RunKernel("QLinearMatMul", {&a, &as, &az, &b, &bs, &bz, &ys, &yz}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.outs[0].GetDataType(), ge::DT_UINT8);
  EXPECT_THAT(run.Values(), ElementsAre(168, 115, 255, 1, 66, 151));

  std::vector<double> a3 = av, b3 = bv;
  a3.insert(a3.end(), av.begin(), av.end());
  b3.insert(b3.end(), bv.begin(), bv.end());
  gert::HostTensor a_3d = Make(ge::DT_UINT8, {2, 2, 4}, a3);
  gert::HostTensor b_3d = Make(ge::DT_UINT8, {2, 4, 3}, b3);
  KernelRun run3;
  RunKernel("QLinearMatMul", {&a_3d, &as, &az, &b_3d, &bs, &bz, &ys, &yz}, &run3);
  ASSERT_TRUE(run3.status.ok()) << run3.status;
  EXPECT_EQ(run3.Shape(), (gert::Shape{2, 2, 3}));
  EXPECT_THAT(run3.Values(), ElementsAre(168, 115, 255, 1, 66, 151, 168, 115, 255, 1, 66, 151));
}

TEST(QLinearMatMulTest, Int8OutputRoundsHalfToEvenAndSaturates) {
  // a = [[2, 3]], b = [[1], [1]] with zero points 0, scales 1 / 1 / y_scale 2:
  // acc = 5 -> 2.5 rounds to 2; with acc 300 -> 150 saturates to 127.
  gert::HostTensor one = Make(ge::DT_FLOAT, {}, {1});
  gert::HostTensor two = Make(ge::DT_FLOAT, {}, {2});
  gert::HostTensor z = Make(ge::DT_INT8, {}, {0});
  gert::HostTensor a = Make(ge::DT_INT8, {2, 2}, {2, 3, 100, 100});
  gert::HostTensor b = Make(ge::DT_INT8, {2, 1}, {1, 1});
  gert::HostTensor yz = Make(ge::DT_INT8, {}, {-1});
  KernelRun run;
  RunKernel("QLinearMatMul", {&a, &one, &z, &b, &one, &z, &two, &yz}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.outs[0].GetDataType(), ge::DT_INT8);
  EXPECT_THAT(run.Values(), ElementsAre(1, 99));  // 2 - 1, 100 - 1

  gert::HostTensor big = Make(ge::DT_INT8, {1, 2}, {127, 127});
  KernelRun sat;
  RunKernel("QLinearMatMul", {&big, &one, &z, &b, &one, &z, &one, &z}, &sat);
  ASSERT_TRUE(sat.status.ok()) << sat.status;
  EXPECT_THAT(sat.Values(), ElementsAre(127));
}

TEST(QLinearMatMulTest, InferAndErrors) {
  InferResult r = Infer("QLinearMatMul", {{gert::Shape{-1, 4}, ge::DT_UINT8},
                                          {gert::Shape{}},
                                          {gert::Shape{}, ge::DT_UINT8},
                                          {gert::Shape{4, 3}, ge::DT_INT8},
                                          {gert::Shape{}},
                                          {gert::Shape{}, ge::DT_INT8},
                                          {gert::Shape{}},
                                          {gert::Shape{}, ge::DT_INT8}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 3}));
  EXPECT_EQ(r.dtypes[0], ge::DT_INT8);

  r = Infer("QLinearMatMul", {{gert::Shape{2, 4}, ge::DT_UINT8},
                              {gert::Shape{}, ge::DT_DOUBLE},
                              {gert::Shape{}, ge::DT_UINT8},
                              {gert::Shape{4, 3}, ge::DT_UINT8},
                              {gert::Shape{}},
                              {gert::Shape{}, ge::DT_UINT8},
                              {gert::Shape{}},
                              {gert::Shape{}, ge::DT_UINT8}});
  EXPECT_THAT(Msg(r.status), HasSubstr("a_scale"));

  gert::HostTensor one = Make(ge::DT_FLOAT, {}, {1});
  gert::HostTensor zero_scale = Make(ge::DT_FLOAT, {}, {0});
  gert::HostTensor z = Make(ge::DT_UINT8, {}, {0});
  gert::HostTensor a = Make(ge::DT_UINT8, {1, 2}, {1, 2});
  gert::HostTensor b = Make(ge::DT_UINT8, {2, 1}, {1, 2});
  KernelRun run;
  RunKernel("QLinearMatMul", {&a, &one, &z, &b, &one, &z, &zero_scale, &z}, &run);
  EXPECT_THAT(Msg(run.status), HasSubstr("y_scale"));
  EXPECT_THAT(Msg(run.status), HasSubstr("node_QLinearMatMul"));
}

// ================================================================== Einsum

// Reference einsum for tests: out[i..] = sum over all other labels.
TEST(EinsumTest, OnnxCases) {
  // test_einsum_transpose "ij->ji".
  gert::HostTensor x = Make(ge::DT_DOUBLE, {3, 4}, Iota(12));
  KernelRun tr;
  RunKernel("Einsum", {&x}, &tr, 1, Attrs().Set<std::string>("equation", "ij->ji"));
  ASSERT_TRUE(tr.status.ok()) << tr.status;
  EXPECT_EQ(tr.Shape(), (gert::Shape{4, 3}));
  EXPECT_THAT(tr.Values(), ElementsAre(1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12));

  // test_einsum_sum "ij->i".
  KernelRun sum;
  RunKernel("Einsum", {&x}, &sum, 1, Attrs().Set<std::string>("equation", "ij->i"));
  ASSERT_TRUE(sum.status.ok()) << sum.status;
  EXPECT_THAT(sum.Values(), ElementsAre(10, 26, 42));

  // test_einsum_inner_prod "i,i" (implicit scalar output).
  gert::HostTensor u = Make(ge::DT_DOUBLE, {3}, {1, 2, 3});
  gert::HostTensor v = Make(ge::DT_DOUBLE, {3}, {4, 5, 6});
  KernelRun dot;
  RunKernel("Einsum", {&u, &v}, &dot, 1, Attrs().Set<std::string>("equation", "i,i"));
  ASSERT_TRUE(dot.status.ok()) << dot.status;
  EXPECT_TRUE(dot.Shape().IsScalar());
  EXPECT_THAT(dot.Values(), ElementsAre(32));

  // test_einsum_batch_diagonal "...ii ->...i" (note the space).
  gert::HostTensor m = Make(ge::DT_DOUBLE, {2, 3, 3}, Iota(18, 0));
  KernelRun diag;
  RunKernel("Einsum", {&m}, &diag, 1, Attrs().Set<std::string>("equation", "...ii ->...i"));
  ASSERT_TRUE(diag.status.ok()) << diag.status;
  EXPECT_EQ(diag.Shape(), (gert::Shape{2, 3}));
  EXPECT_THAT(diag.Values(), ElementsAre(0, 4, 8, 9, 13, 17));
}

TEST(EinsumTest, BatchMatMulAndImplicitOutput) {
  // "bij,bjk->bik" (GEMM path) against MatMul's definition.
  gert::HostTensor a = Make(ge::DT_FLOAT, {2, 2, 3}, Iota(12));
  gert::HostTensor b = Make(ge::DT_FLOAT, {2, 3, 2}, Iota(12, -5));
  KernelRun run;
  RunKernel("Einsum", {&a, &b}, &run, 1, Attrs().Set<std::string>("equation", "bij,bjk->bik"));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.Shape(), (gert::Shape{2, 2, 2}));
  // Batch 0: [[1,2,3],[4,5,6]] x [[-5,-4],[-3,-2],[-1,0]]; batch 1: [[7,8,9],[10,11,12]] x
  // [[1,2],[3,4],[5,6]].
  EXPECT_THAT(run.Values(), ElementsAre(-14, -8, -41, -26, 76, 100, 103, 136));

  // Implicit output "ij,jk" == "ik"; "ba" implicit output is "ab" (a transpose).
  gert::HostTensor p = Make(ge::DT_FLOAT, {2, 3}, Iota(6));
  gert::HostTensor q = Make(ge::DT_FLOAT, {3, 1}, {1, 1, 1});
  KernelRun implicit;
  RunKernel("Einsum", {&p, &q}, &implicit, 1, Attrs().Set<std::string>("equation", "ij,jk"));
  ASSERT_TRUE(implicit.status.ok()) << implicit.status;
  EXPECT_EQ(implicit.Shape(), (gert::Shape{2, 1}));
  EXPECT_THAT(implicit.Values(), ElementsAre(6, 15));
  KernelRun ba;
  RunKernel("Einsum", {&p}, &ba, 1, Attrs().Set<std::string>("equation", "ba"));
  ASSERT_TRUE(ba.status.ok()) << ba.status;
  EXPECT_EQ(ba.Shape(), (gert::Shape{3, 2}));
  EXPECT_THAT(ba.Values(), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(EinsumTest, TraceOuterThreeOperandsAndEllipsisBroadcast) {
  gert::HostTensor m = Make(ge::DT_INT32, {3, 3}, Iota(9));
  KernelRun trace;
  RunKernel("Einsum", {&m}, &trace, 1, Attrs().Set<std::string>("equation", "ii"));
  ASSERT_TRUE(trace.status.ok()) << trace.status;
  EXPECT_TRUE(trace.Shape().IsScalar());
  EXPECT_THAT(trace.Values(), ElementsAre(15));

  gert::HostTensor u = Make(ge::DT_INT64, {2}, {1, 2});
  gert::HostTensor v = Make(ge::DT_INT64, {3}, {1, 10, 100});
  KernelRun outer;
  RunKernel("Einsum", {&u, &v}, &outer, 1, Attrs().Set<std::string>("equation", "i,j->ij"));
  ASSERT_TRUE(outer.status.ok()) << outer.status;
  EXPECT_THAT(outer.Values(), ElementsAre(1, 10, 100, 2, 20, 200));

  // Chain "ij,jk,kl->il" with identity-ish matrices.
  gert::HostTensor a = Make(ge::DT_FLOAT, {2, 2}, {1, 2, 3, 4});
  gert::HostTensor i2 = Make(ge::DT_FLOAT, {2, 2}, {1, 0, 0, 1});
  gert::HostTensor s = Make(ge::DT_FLOAT, {2, 2}, {0, 1, 1, 0});
  KernelRun chain;
  RunKernel("Einsum", {&a, &i2, &s}, &chain, 1,
            Attrs().Set<std::string>("equation", "ij,jk,kl->il"));
  ASSERT_TRUE(chain.status.ok()) << chain.status;
  EXPECT_THAT(chain.Values(), ElementsAre(2, 1, 4, 3));

  // Ellipsis dims broadcast: [2, 1, 2, 2] x [3, 2, 2] -> [2, 3, 2, 2].
  gert::HostTensor x = Make(ge::DT_FLOAT, {2, 1, 2, 2}, {1, 0, 0, 1, 2, 0, 0, 2});
  gert::HostTensor y = Make(ge::DT_FLOAT, {3, 2, 2}, Iota(12));
  KernelRun bc;
  RunKernel("Einsum", {&x, &y}, &bc, 1, Attrs().Set<std::string>("equation", "...ij,...jk->...ik"));
  ASSERT_TRUE(bc.status.ok()) << bc.status;
  EXPECT_EQ(bc.Shape(), (gert::Shape{2, 3, 2, 2}));
  std::vector<double> want = Iota(12);
  for (double w : Iota(12)) want.push_back(2 * w);
  EXPECT_THAT(bc.Values(), ElementsAreArray(want));

  // Half precision through the strided loop.
  gert::HostTensor h = Make(ge::DT_FLOAT16, {2, 2}, {1, 2, 3, 4});
  KernelRun hs;
  RunKernel("Einsum", {&h}, &hs, 1, Attrs().Set<std::string>("equation", "ij->"));
  ASSERT_TRUE(hs.status.ok()) << hs.status;
  EXPECT_THAT(hs.Values(), ElementsAre(10));
}

TEST(EinsumTest, GemmPathMatchesStridedLoop) {
  // Permuted labels ("kbi,bkj->bji"): the GEMM path must agree with an
  // integer run of the same equation (strided loop, exact).
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(-4, 4);
  std::vector<double> av(5 * 2 * 3), bv(2 * 5 * 4);
  for (double& x : av) x = dist(rng);
  for (double& x : bv) x = dist(rng);
  Attrs attrs;
  attrs.Set<std::string>("equation", "kbi,bkj->bji");
  gert::HostTensor af = Make(ge::DT_FLOAT, {5, 2, 3}, av);
  gert::HostTensor bf = Make(ge::DT_FLOAT, {2, 5, 4}, bv);
  gert::HostTensor ai = Make(ge::DT_INT32, {5, 2, 3}, av);
  gert::HostTensor bi = Make(ge::DT_INT32, {2, 5, 4}, bv);
  KernelRun f, i;
  RunKernel("Einsum", {&af, &bf}, &f, 1, attrs);
  RunKernel("Einsum", {&ai, &bi}, &i, 1, attrs);
  ASSERT_TRUE(f.status.ok()) << f.status;
  ASSERT_TRUE(i.status.ok()) << i.status;
  EXPECT_EQ(f.Shape(), (gert::Shape{2, 4, 3}));
  EXPECT_EQ(f.Values(), i.Values());
}

TEST(EinsumTest, Infer) {
  Attrs mm;
  mm.Set<std::string>("equation", "bij,bjk->bik");
  InferResult r = Infer("Einsum", {{gert::Shape{-1, 2, 3}}, {gert::Shape{4, 3, 5}}}, 1, mm);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{4, 2, 5}));

  Attrs ell;
  ell.Set<std::string>("equation", "...ij->...ji");
  r = Infer("Einsum", {{gert::Shape{7, 8, 2, 3}}}, 1, ell);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{7, 8, 3, 2}));
  r = Infer("Einsum", {{UnknownRank()}}, 1, ell);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());

  // Unknown rank without ellipsis: the term fixes the rank.
  r = Infer("Einsum", {{UnknownRank()}, {gert::Shape{3, 5}}}, 1,
            mm.Set<std::string>("equation", "ij,jk"));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 5}));
}

TEST(EinsumTest, Errors) {
  auto infer_err = [](const std::string& eq, std::vector<In> ins) {
    Attrs attrs;
    attrs.Set<std::string>("equation", eq);
    return Infer("Einsum", ins, 1, attrs).status;
  };
  ge::Status st = infer_err("ij,jk->ik", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(st), HasSubstr("2 input terms"));
  EXPECT_THAT(Msg(st), HasSubstr("node_Einsum"));
  st = infer_err("ijk->i", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(st), HasSubstr("rank 2"));
  st = infer_err("i1->i", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(st), HasSubstr("invalid character"));
  st = infer_err("ij->k", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(st), HasSubstr("'k'"));
  st = infer_err("ij->ii", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(st), HasSubstr("more than once"));
  st = infer_err("ij,jk->ik", {{gert::Shape{2, 3}}, {gert::Shape{4, 5}}});
  EXPECT_THAT(Msg(st), HasSubstr("label 'j'"));
  st = infer_err("i..j->ij", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(st), HasSubstr("\"...\""));
  st = infer_err("......->", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(st), HasSubstr("more than one"));
  st = Infer("Einsum", {{gert::Shape{2}}}).status;  // no equation attribute
  EXPECT_THAT(Msg(st), HasSubstr("equation"));

  gert::HostTensor a = Make(ge::DT_FLOAT, {2}, {1, 2});
  gert::HostTensor b = Make(ge::DT_DOUBLE, {2}, {1, 2});
  KernelRun mixed;
  RunKernel("Einsum", {&a, &b}, &mixed, 1, Attrs().Set<std::string>("equation", "i,i"));
  EXPECT_EQ(ge::GetErrorCode(mixed.status), ge::ErrorCode::kTypeMismatch);
}

// ================================================================== Det

TEST(DetTest, Values) {
  // onnx test_det_nd.
  gert::HostTensor x = Make(ge::DT_FLOAT, {3, 2, 2}, {1, 2, 3, 4, 1, 2, 2, 1, 1, 3, 3, 1});
  KernelRun run;
  RunKernel("Det", {&x}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.Shape(), (gert::Shape{3}));
  EXPECT_THAT(run.Values(), ElementsAre(-2, -3, -8));

  // 3x3 needing a pivot (zero top-left): det = -(2*... ) computed by hand:
  // [[0, 2, 1], [1, 1, 1], [2, 0, 3]] -> 0*(3-0) - 2*(3-2) + 1*(0-2) = -4.
  gert::HostTensor p = Make(ge::DT_DOUBLE, {3, 3}, {0, 2, 1, 1, 1, 1, 2, 0, 3});
  KernelRun piv;
  RunKernel("Det", {&p}, &piv);
  ASSERT_TRUE(piv.status.ok()) << piv.status;
  EXPECT_TRUE(piv.Shape().IsScalar());
  ASSERT_EQ(piv.Values().size(), 1u);
  EXPECT_NEAR(piv.Values()[0], -4.0, 1e-12);

  gert::HostTensor sing = Make(ge::DT_FLOAT16, {2, 2}, {1, 2, 2, 4});
  KernelRun s;
  RunKernel("Det", {&sing}, &s);
  ASSERT_TRUE(s.status.ok()) << s.status;
  EXPECT_THAT(s.Values(), ElementsAre(0));
}

TEST(DetTest, InferAndErrors) {
  InferResult r = Infer("Det", {{gert::Shape{-1, 4, 4}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
  r = Infer("Det", {{gert::Shape{3, -1}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_TRUE(r.shapes[0].IsScalar());
  r = Infer("Det", {{gert::Shape{2, 3}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("square"));
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Det"));
  r = Infer("Det", {{gert::Shape{3}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("rank >= 2"));
  gert::HostTensor x = Make(ge::DT_INT32, {2, 2}, {1, 2, 3, 4});
  KernelRun run;
  RunKernel("Det", {&x}, &run);
  EXPECT_EQ(ge::GetErrorCode(run.status), ge::ErrorCode::kNotSupported);
}

// ================================================================== quantization

TEST(QuantizeLinearTest, OnnxCases) {
  // onnx test_quantizelinear.
  gert::HostTensor x = Make(ge::DT_FLOAT, {6}, {0, 2, 3, 1000, -254, -1000});
  gert::HostTensor s = Make(ge::DT_FLOAT, {}, {2});
  gert::HostTensor z = Make(ge::DT_UINT8, {}, {128});
  KernelRun run;
  RunKernel("QuantizeLinear", {&x, &s, &z}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.outs[0].GetDataType(), ge::DT_UINT8);
  // 3 / 2 = 1.5 rounds to 2 (ties to even).
  EXPECT_THAT(run.Values(), ElementsAre(128, 129, 130, 255, 1, 0));

  // onnx test_quantizelinear_axis (axis 1 default).
  gert::HostTensor xa = Make(
      ge::DT_FLOAT, {1, 3, 3, 2},
      {-162, 10, -100, 232, -20, -50, -76, 0, 0, 252, 32, -44, 245, -485, -960, -270, -375, -470});
  gert::HostTensor sa = Make(ge::DT_FLOAT, {3}, {2, 4, 5});
  gert::HostTensor za = Make(ge::DT_UINT8, {3}, {84, 24, 196});
  KernelRun axis;
  RunKernel("QuantizeLinear", {&xa, &sa, &za}, &axis);
  ASSERT_TRUE(axis.status.ok()) << axis.status;
  EXPECT_THAT(axis.Values(), ElementsAre(3, 89, 34, 200, 74, 59, 5, 24, 24, 87, 32, 13, 245, 99, 4,
                                         142, 121, 102));
}

TEST(QuantizeLinearTest, Int8NoZeroPointAndNegativeAxis) {
  gert::HostTensor x = Make(ge::DT_FLOAT, {2, 2}, {-2.5, 300, -0.5, 7});
  gert::HostTensor s = Make(ge::DT_FLOAT, {2}, {1, 2});
  gert::HostTensor z = Make(ge::DT_INT8, {2}, {0, 1});
  KernelRun run;
  RunKernel("QuantizeLinear", {&x, &s, &z}, &run, 1, Attrs().Set<int64_t>("axis", -1));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.outs[0].GetDataType(), ge::DT_INT8);
  // col 0 scale 1 zp 0: -2.5 -> -2, -0.5 -> -0; col 1 scale 2 zp 1: 150+1 -> 127, 3.5 -> 4 + 1.
  EXPECT_THAT(run.Values(), ElementsAre(-2, 127, 0, 5));

  // No zero point: UINT8 output, negatives saturate to 0. INT32 input.
  gert::HostTensor xi = Make(ge::DT_INT32, {3}, {-5, 5, 1000});
  gert::HostTensor one = Make(ge::DT_FLOAT, {}, {1});
  KernelRun noz;
  RunKernel("QuantizeLinear", {&xi, &one, nullptr}, &noz);
  ASSERT_TRUE(noz.status.ok()) << noz.status;
  EXPECT_EQ(noz.outs[0].GetDataType(), ge::DT_UINT8);
  EXPECT_THAT(noz.Values(), ElementsAre(0, 5, 255));
}

TEST(QuantizeLinearTest, InferAndErrors) {
  InferResult r = Infer("QuantizeLinear",
                        {{gert::Shape{-1, 3}}, {gert::Shape{3}}, {gert::Shape{3}, ge::DT_INT8}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 3}));
  EXPECT_EQ(r.dtypes[0], ge::DT_INT8);
  r = Infer("QuantizeLinear", {{gert::Shape{2, 3}}, {gert::Shape{}}, Absent()});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.dtypes[0], ge::DT_UINT8);

  r = Infer("QuantizeLinear",
            {{gert::Shape{2, 3}}, {gert::Shape{4}}, {gert::Shape{4}, ge::DT_UINT8}});
  EXPECT_THAT(Msg(r.status), HasSubstr("along axis 1"));
  EXPECT_THAT(Msg(r.status), HasSubstr("node_QuantizeLinear"));
  r = Infer("QuantizeLinear",
            {{gert::Shape{2, 3}}, {gert::Shape{3}}, {gert::Shape{2}, ge::DT_UINT8}});
  EXPECT_THAT(Msg(r.status), HasSubstr("must equal"));
  r = Infer("QuantizeLinear", {{gert::Shape{2, 3}}, {gert::Shape{3}}, Absent()}, 1,
            Attrs().Set<int64_t>("axis", 5));
  EXPECT_THAT(Msg(r.status), HasSubstr("axis"));
  r = Infer("QuantizeLinear",
            {{gert::Shape{2, 3}}, {gert::Shape{}}, {gert::Shape{}, ge::DT_INT32}});
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kTypeMismatch);
  r = Infer("QuantizeLinear", {{gert::Shape{2, 3}}, {gert::Shape{3, 1}}, Absent()});
  EXPECT_THAT(Msg(r.status), HasSubstr("scalar or 1-D"));
}

TEST(DequantizeLinearTest, Values) {
  // onnx test_dequantizelinear.
  gert::HostTensor x = Make(ge::DT_UINT8, {4}, {0, 3, 128, 255});
  gert::HostTensor s = Make(ge::DT_FLOAT, {}, {2});
  gert::HostTensor z = Make(ge::DT_UINT8, {}, {128});
  KernelRun run;
  RunKernel("DequantizeLinear", {&x, &s, &z}, &run);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.outs[0].GetDataType(), ge::DT_FLOAT);
  EXPECT_THAT(run.Values(), ElementsAre(-256, -250, 0, 254));

  // onnx test_dequantizelinear_axis inverts the QuantizeLinear axis case.
  gert::HostTensor xa =
      Make(ge::DT_UINT8, {1, 3, 3, 2},
           {3, 89, 34, 200, 74, 59, 5, 24, 24, 87, 32, 13, 245, 99, 4, 142, 121, 102});
  gert::HostTensor sa = Make(ge::DT_FLOAT, {3}, {2, 4, 5});
  gert::HostTensor za = Make(ge::DT_UINT8, {3}, {84, 24, 196});
  KernelRun axis;
  RunKernel("DequantizeLinear", {&xa, &sa, &za}, &axis);
  ASSERT_TRUE(axis.status.ok()) << axis.status;
  EXPECT_THAT(axis.Values(), ElementsAre(-162, 10, -100, 232, -20, -50, -76, 0, 0, 252, 32, -44,
                                         245, -485, -960, -270, -375, -470));

  // INT32 without zero point; int8 with a per-tensor zero point.
  gert::HostTensor xi = Make(ge::DT_INT32, {2}, {-3, 1 << 30});
  gert::HostTensor half = Make(ge::DT_FLOAT, {}, {0.5});
  KernelRun i32;
  RunKernel("DequantizeLinear", {&xi, &half, nullptr}, &i32);
  ASSERT_TRUE(i32.status.ok()) << i32.status;
  EXPECT_THAT(i32.Values(), ElementsAre(-1.5, 536870912.0));
  gert::HostTensor x8 = Make(ge::DT_INT8, {2}, {-128, 127});
  gert::HostTensor z8 = Make(ge::DT_INT8, {1}, {-1});
  KernelRun i8;
  RunKernel("DequantizeLinear", {&x8, &half, &z8}, &i8);
  ASSERT_TRUE(i8.status.ok()) << i8.status;
  EXPECT_THAT(i8.Values(), ElementsAre(-63.5, 64));
}

TEST(DequantizeLinearTest, Errors) {
  InferResult r =
      Infer("DequantizeLinear",
            {{gert::Shape{2}, ge::DT_UINT8}, {gert::Shape{}}, {gert::Shape{}, ge::DT_INT8}});
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(Msg(r.status), HasSubstr("node_DequantizeLinear"));
  r = Infer("DequantizeLinear", {{gert::Shape{2, 5}, ge::DT_UINT8}, {gert::Shape{2}}, Absent()}, 1,
            Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.dtypes[0], ge::DT_FLOAT);
  gert::HostTensor x = Make(ge::DT_UINT8, {2, 5}, Iota(10));
  gert::HostTensor s = Make(ge::DT_FLOAT, {2}, {1, 2});
  KernelRun run;
  RunKernel("DequantizeLinear", {&x, &s, nullptr}, &run);  // axis 1 has 5 elements
  EXPECT_THAT(Msg(run.status), HasSubstr("along axis 1"));
}

TEST(DynamicQuantizeLinearTest, OnnxCases) {
  struct Case {
    gert::Shape shape;
    std::vector<double> x;
    std::vector<double> y;
    double scale;
    double zp;
  };
  const std::vector<Case> cases = {
      // test_dynamicquantizelinear
      {{6}, {0, 2, -3, -2.5, 1.34, 0.5}, {153, 255, 0, 26, 221, 179}, 0.0196078438, 153},
      // test_dynamicquantizelinear_max_adjusted
      {{6},
       {-1.0, -2.0999999046325684, -1.2999999523162842, -2.5, -3.3399999141693115, -4.0},
       {191, 121, 172, 96, 42, 0},
       0.01568627543747425,
       255},
      // test_dynamicquantizelinear_min_adjusted
      {{3, 4},
       {1, 2.1, 1.3, 2.5, 3.34, 4, 1.5, 2.6, 3.9, 4, 3, 2.345},
       {64, 134, 83, 159, 213, 255, 96, 166, 249, 255, 191, 149},
       0.01568628,
       0},
  };
  for (const Case& c : cases) {
    gert::HostTensor x = Make(ge::DT_FLOAT, c.shape, c.x);
    KernelRun run;
    RunKernel("DynamicQuantizeLinear", {&x}, &run, 3);
    ASSERT_TRUE(run.status.ok()) << run.status;
    EXPECT_EQ(run.Shape(0), c.shape);
    EXPECT_THAT(run.Values(0), ElementsAreArray(c.y));
    EXPECT_TRUE(run.Shape(1).IsScalar());
    ASSERT_EQ(run.Values(1).size(), 1u);
    EXPECT_NEAR(run.Values(1)[0], c.scale, 1e-7);
    EXPECT_THAT(run.Values(2), ElementsAre(c.zp));
  }
  // All zeros: scale 0, zero point 0.
  gert::HostTensor zeros = Make(ge::DT_FLOAT, {3}, {0, 0, 0});
  KernelRun run;
  RunKernel("DynamicQuantizeLinear", {&zeros}, &run, 3);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_THAT(run.Values(0), ElementsAre(0, 0, 0));
  EXPECT_THAT(run.Values(1), ElementsAre(0));
  EXPECT_THAT(run.Values(2), ElementsAre(0));

  InferResult r = Infer("DynamicQuantizeLinear", {{gert::Shape{-1, 4}}}, 3);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 4}));
  EXPECT_TRUE(r.shapes[1].IsScalar());
  EXPECT_EQ(r.dtypes[0], ge::DT_UINT8);
  EXPECT_EQ(r.dtypes[1], ge::DT_FLOAT);
  EXPECT_EQ(r.dtypes[2], ge::DT_UINT8);

  gert::HostTensor d = Make(ge::DT_DOUBLE, {1}, {1});
  KernelRun bad;
  RunKernel("DynamicQuantizeLinear", {&d}, &bad, 3);
  EXPECT_EQ(ge::GetErrorCode(bad.status), ge::ErrorCode::kTypeMismatch);
}

TEST(RegistrationTest, TypesAndAttrs) {
  for (const char* t : {"MatMul", "Gemm", "MatMulInteger", "QLinearMatMul", "Einsum", "Det",
                        "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear"}) {
    const ge::OpRegistrationData* r = Reg(t);
    ASSERT_NE(r, nullptr);
    EXPECT_NE(r->infer_shape, nullptr) << t;
    EXPECT_NE(r->FindKernel(ge::kEngineHostCpu), nullptr) << t;
  }
  const ge::OpRegistrationData* gemm = Reg("Gemm");
  ASSERT_NE(gemm->FindAttr("transA"), nullptr);
  EXPECT_EQ(gemm->inputs.size(), 3u);
  EXPECT_EQ(gemm->inputs[2].kind, ge::IoKind::kOptional);
  EXPECT_TRUE(gemm->inputs[0].types.Contains(ge::DT_BF16));
  EXPECT_FALSE(gemm->inputs[0].types.Contains(ge::DT_INT8));
  const ge::OpRegistrationData* einsum = Reg("Einsum");
  EXPECT_EQ(einsum->inputs[0].kind, ge::IoKind::kDynamic);
  ASSERT_NE(einsum->FindAttr("equation"), nullptr);
  EXPECT_TRUE(einsum->FindAttr("equation")->required);
}

}  // namespace
}  // namespace ops
