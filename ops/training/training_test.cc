// ops/training/training_test.cc: Adagrad, Adam, Momentum.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/common/onnx_case_runner.h"
#include "ops/rnn/case_loader.h"
#include "ops/rnn/op_tester.h"

namespace ops {
namespace {

using optest::ErrorContains;
using optest::F32;
using optest::F64;
using optest::I64;
using optest::Near;
using optest::OpTester;

// ONNX 1.12 adagrad / adam / momentum / nesterov_momentum node tests
// (single and multiple tensors).
OPS_ONNX_CASE_SUITE(TrainingOnnxTest,
                    optest::LoadCasesOrDie("ops/training/testdata/onnx_cases.txt"),
                    testing::CompareOptions());

// Expected values: the ONNX reference functions (apply_adagrad, ...) in
// float64.
TEST(AdagradTest, Update) {
  OpTester t("Adagrad");
  t.Input(F32({}, {0.1}))
      .Input(I64({}, {0}))
      .Input(F32({2}, {1, -2}))
      .Input(F32({2}, {0.5, 1}))
      .Input(F32({2}, {0.25, 0}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0.929289421881, -2.0999999}));
  EXPECT_TRUE(Near(t.OutValues(1), {0.5, 1}));
  // decay_factor and norm_coefficient, T = 3.
  OpTester d("Adagrad");
  d.AttrFloat("decay_factor", 0.5f)
      .AttrFloat("norm_coefficient", 0.1f)
      .Input(F64({}, {0.1}))
      .Input(I64({}, {3}))
      .Input(F64({1}, {1}))
      .Input(F64({1}, {0.5}))
      .Input(F64({1}, {0.25}));
  ASSERT_TRUE(d.Run(2).ok());
  EXPECT_EQ(d.Out(0).GetDataType(), ge::DT_DOUBLE);
  EXPECT_TRUE(Near(d.OutValues(0), {0.96927118816}, 1e-7));
  EXPECT_TRUE(Near(d.OutValues(1), {0.61}, 1e-7));
}

TEST(AdamTest, BiasCorrectionOnlyAfterFirstStep) {
  OpTester t0("Adam");
  t0.Input(F32({}, {0.1}))
      .Input(I64({}, {0}))
      .Input(F32({1}, {1}))
      .Input(F32({1}, {0.5}))
      .Input(F32({1}, {0.2}))
      .Input(F32({1}, {0.1}));
  ASSERT_TRUE(t0.Run(3).ok());
  EXPECT_TRUE(Near(t0.OutValues(0), {0.927322331469}));
  EXPECT_TRUE(Near(t0.OutValues(1), {0.23}));
  EXPECT_TRUE(Near(t0.OutValues(2), {0.10015}));
  OpTester t2("Adam");
  t2.AttrFloat("norm_coefficient", 0.01f)
      .AttrFloat("norm_coefficient_post", 0.1f)
      .Input(F32({}, {0.1}))
      .Input(I64({}, {2}))
      .Input(F32({1}, {1}))
      .Input(F32({1}, {0.5}))
      .Input(F32({1}, {0.2}))
      .Input(F32({1}, {0.1}));
  ASSERT_TRUE(t2.Run(3).ok());
  EXPECT_TRUE(Near(t2.OutValues(0), {0.88454181365}));
  EXPECT_TRUE(Near(t2.OutValues(1), {0.231}));
  EXPECT_TRUE(Near(t2.OutValues(2), {0.1001601}));
}

TEST(MomentumTest, StandardAndNesterov) {
  auto run = [](const std::string& mode, float norm, int64_t t) {
    OpTester m("Momentum");
    m.AttrFloat("alpha", 0.9f)
        .AttrFloat("beta", 0.5f)
        .AttrFloat("norm_coefficient", norm)
        .AttrStr("mode", mode)
        .Input(F32({}, {0.1}))
        .Input(I64({}, {static_cast<double>(t)}))
        .Input(F32({1}, {1}))
        .Input(F32({1}, {0.5}))
        .Input(F32({1}, {0.2}));
    EXPECT_TRUE(m.Run(2).ok());
    std::vector<double> x = m.OutValues(0), v = m.OutValues(1);
    x.insert(x.end(), v.begin(), v.end());
    return x;
  };
  EXPECT_TRUE(Near(run("standard", 0.f, 0), {0.932, 0.68}));  // beta treated as 1 at T = 0
  EXPECT_TRUE(Near(run("standard", 0.f, 1), {0.957, 0.43}));
  EXPECT_TRUE(Near(run("nesterov", 0.1f, 1), {0.8968, 0.48}));
}

TEST(OptimizerTest, SeveralTensorsKeepTheirShapes) {
  // Momentum over X1 [2] and X2 [1, 2]: inputs X1 X2 G1 G2 V1 V2, outputs
  // X1' X2' V1' V2'.
  OpTester t("Momentum");
  t.AttrFloat("alpha", 0.9f)
      .AttrFloat("beta", 0.5f)
      .AttrFloat("norm_coefficient", 0.f)
      .AttrStr("mode", "standard")
      .Input(F32({}, {0.1}))
      .Input(I64({}, {1}))
      .Input(F32({2}, {1, 2}))
      .Input(F32({1, 2}, {3, 4}))
      .Input(F32({2}, {0.5, 0.5}))
      .Input(F32({1, 2}, {1, 1}))
      .Input(F32({2}, {0.2, 0}))
      .Input(F32({1, 2}, {0, 0}));
  ASSERT_TRUE(t.Run(4).ok());
  EXPECT_EQ(t.Out(1).GetShape(), (gert::Shape{1, 2}));
  EXPECT_EQ(t.Out(3).GetShape(), (gert::Shape{1, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {0.957, 1.975}));
  EXPECT_TRUE(Near(t.OutValues(1), {2.95, 3.95}));
  EXPECT_TRUE(Near(t.OutValues(2), {0.43, 0.25}));
  EXPECT_TRUE(Near(t.OutValues(3), {0.5, 0.5}));
}

TEST(OptimizerTest, InferShapesAndTypes) {
  OpTester t("Adam");
  ASSERT_TRUE(t.InferShapes({{}, {}, {-1, 3}, {4, -1}, {-2}, {4, 3}},
                            {ge::DT_FLOAT, ge::DT_INT64, ge::DT_DOUBLE}, 3)
                  .ok());
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.InferredShape(i), (gert::Shape{4, 3}));
    EXPECT_EQ(t.InferredDtype(i), ge::DT_DOUBLE);
  }
}

TEST(OptimizerTest, Errors) {
  const std::vector<ge::DataType> dts = {ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT};
  OpTester t("Adagrad", "opt");
  EXPECT_TRUE(ErrorContains(t.InferShapes({{}, {}, {2}, {2}}, dts, 2),
                            "needs 3 * n tensors after R and T (X, G, ...), got 2", "opt"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{}, {}, {2}, {2}, {2}}, dts, 3),
                            "has 3 outputs, expected 2", "opt"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{}, {}, {2}, {3}, {2}}, dts, 2),
                            "input 3 (G1) has shape [3] but X1", "opt"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2}, {}, {2}, {2}, {2}}, dts, 2),
                            "input 0 (R) must be a scalar", "opt"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{}, {}, {2}, {2}, {2}}, {ge::DT_FLOAT, ge::DT_INT32, ge::DT_FLOAT}, 2),
      "input 1 (T) must be DT_INT64", "opt"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{}, {}, {2}, {2}, {2}},
                    {ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT}, 2),
      "input 3 (G1) is DT_DOUBLE but X1 is DT_FLOAT", "opt"));
  OpTester m("Momentum", "opt");
  m.AttrFloat("alpha", 0.9f)
      .AttrFloat("beta", 0.5f)
      .AttrFloat("norm_coefficient", 0.f)
      .AttrStr("mode", "heavy_ball")
      .Input(F32({}, {0.1}))
      .Input(I64({}, {1}))
      .Input(F32({1}, {1}))
      .Input(F32({1}, {0.5}))
      .Input(F32({1}, {0.2}));
  EXPECT_TRUE(ErrorContains(m.Run(2), "\"heavy_ball\"", "opt"));
  OpTester missing("Momentum", "opt");
  missing.Input(F32({}, {0.1}))
      .Input(I64({}, {1}))
      .Input(F32({1}, {1}))
      .Input(F32({1}, {0.5}))
      .Input(F32({1}, {0.2}));
  EXPECT_TRUE(ErrorContains(missing.Run(2), "alpha", "opt"));
  // The kernel checks shapes itself.
  OpTester k("Adagrad", "opt");
  k.Input(F32({}, {0.1}))
      .Input(I64({}, {0}))
      .Input(F32({2}, {1, 2}))
      .Input(F32({1}, {1}))
      .Input(F32({2}, {0, 0}));
  EXPECT_TRUE(ErrorContains(k.RunKernelOnly({{2}, {2}}, {ge::DT_FLOAT, ge::DT_FLOAT}),
                            "input 3 (G1) has shape [1] but X1 has [2]", "opt"));
}

}  // namespace
}  // namespace ops
