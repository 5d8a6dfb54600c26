// ops/loss/loss_test.cc: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
#include <cmath>
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
using optest::I32;
using optest::I64;
using optest::Near;
using optest::OpTester;

// The ONNX 1.12 nllloss / sce node tests (the six 5-D ones, ~0.5 MB of text
// each, are left out; HighRank below covers rank 6).
OPS_ONNX_CASE_SUITE(LossOnnxTest, optest::LoadCasesOrDie("ops/loss/testdata/onnx_cases.txt"),
                    testing::CompareOptions());

// ---------------------------------------------------------------- NLL

const std::vector<double> kInput = {-1, -2, -3, -4, -5, -6};  // [2, 3]

TEST(NllKernelTest, Reductions) {
  // Picks input[0][0] = -1 and input[1][2] = -6.
  for (const auto& [reduction, want] : std::vector<std::pair<std::string, std::vector<double>>>{
           {"none", {1, 6}}, {"sum", {7}}, {"mean", {3.5}}}) {
    OpTester t("NegativeLogLikelihoodLoss");
    t.AttrStr("reduction", reduction).Input(F32({2, 3}, kInput)).Input(I64({2}, {0, 2}));
    ASSERT_TRUE(t.Run(1).ok()) << reduction;
    EXPECT_EQ(t.Out(0).GetShape(), reduction == "none" ? gert::Shape{2} : gert::Shape{});
    EXPECT_TRUE(Near(t.OutValues(0), want)) << reduction;
  }
}

TEST(NllKernelTest, WeightsAndWeightedMean) {
  // none: [0.5 * 1, 2 * 6]; mean: 12.5 / (0.5 + 2) = 5.
  OpTester t("NegativeLogLikelihoodLoss");
  t.AttrStr("reduction", "none")
      .Input(F32({2, 3}, kInput))
      .Input(I32({2}, {0, 2}))
      .Input(F32({3}, {0.5, 1, 2}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0.5, 12}));
  OpTester m("NegativeLogLikelihoodLoss");
  m.Input(F32({2, 3}, kInput)).Input(I32({2}, {0, 2})).Input(F32({3}, {0.5, 1, 2}));
  ASSERT_TRUE(m.Run(1).ok());
  EXPECT_TRUE(Near(m.OutValues(0), {5}));
}

TEST(NllKernelTest, IgnoreIndex) {
  // Element 1 ignored: mean over the remaining one. A negative ignore_index
  // may appear as a target value.
  OpTester t("NegativeLogLikelihoodLoss");
  t.AttrInt("ignore_index", -1).Input(F32({2, 3}, kInput)).Input(I64({2}, {1, -1}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {2}));
  // Everything ignored: 0 / 0 (ONNX reference).
  OpTester all("NegativeLogLikelihoodLoss");
  all.AttrInt("ignore_index", 2).Input(F32({2, 3}, kInput)).Input(I64({2}, {2, 2}));
  ASSERT_TRUE(all.Run(1).ok());
  EXPECT_TRUE(std::isnan(all.OutValues(0)[0]));
}

TEST(NllKernelTest, SpatialAndHighRank) {
  // input [1, 2, 2]: class 0 = [1, 2], class 1 = [3, 4]; target [[1, 0]].
  OpTester t("NegativeLogLikelihoodLoss");
  t.AttrStr("reduction", "none").Input(F32({1, 2, 2}, {1, 2, 3, 4})).Input(I64({1, 2}, {1, 0}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {-3, -2}));
  // Rank 6: [1, 2, 1, 1, 1, 2] with the same values.
  OpTester h("NegativeLogLikelihoodLoss");
  h.AttrStr("reduction", "sum")
      .Input(F32({1, 2, 1, 1, 1, 2}, {1, 2, 3, 4}))
      .Input(I64({1, 1, 1, 1, 2}, {1, 0}));
  ASSERT_TRUE(h.Run(1).ok());
  EXPECT_TRUE(Near(h.OutValues(0), {-5}));
}

TEST(NllKernelTest, TargetOutOfRange) {
  OpTester t("NegativeLogLikelihoodLoss");
  t.Input(F32({2, 3}, kInput)).Input(I64({2}, {0, 3}));
  EXPECT_TRUE(ErrorContains(t.Run(1), "target value 3 at element 1 is out of range [0, 3)"));
  OpTester neg("NegativeLogLikelihoodLoss");
  neg.AttrInt("ignore_index", 5).Input(F32({2, 3}, kInput)).Input(I64({2}, {-1, 0}));
  EXPECT_TRUE(ErrorContains(neg.Run(1), "target value -1 at element 0"));
}

TEST(NllKernelTest, HalfAndDouble) {
  for (ge::DataType dt : {ge::DT_FLOAT16, ge::DT_DOUBLE}) {
    OpTester t("NegativeLogLikelihoodLoss");
    t.Input(optest::T(dt, {2, 3}, kInput)).Input(I64({2}, {0, 2}));
    ASSERT_TRUE(t.Run(1).ok());
    EXPECT_EQ(t.Out(0).GetDataType(), dt);
    EXPECT_TRUE(Near(t.OutValues(0), {3.5}));
  }
}

TEST(NllInferTest, Shapes) {
  OpTester t("NegativeLogLikelihoodLoss");
  t.AttrStr("reduction", "none");
  ASSERT_TRUE(t.InferShapes({{-1, 5, 7, -1}, {4, -1, 9}}, {ge::DT_FLOAT, ge::DT_INT64}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{4, 7, 9}));
  ASSERT_TRUE(t.InferShapes({{3, 5, 7}, {-2}}, {ge::DT_FLOAT, ge::DT_INT64}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{3, 7}));
  ASSERT_TRUE(t.InferShapes({{-2}, {-2}}, {ge::DT_FLOAT, ge::DT_INT64}, 1).ok());
  EXPECT_TRUE(t.InferredShape(0).IsUnknownRank());
  OpTester m("NegativeLogLikelihoodLoss");
  ASSERT_TRUE(m.InferShapes({{-2}, {-2}}, {ge::DT_DOUBLE, ge::DT_INT32}, 1).ok());
  EXPECT_EQ(m.InferredShape(0), gert::Shape{});
  EXPECT_EQ(m.InferredDtype(0), ge::DT_DOUBLE);
}

TEST(NllInferTest, Errors) {
  OpTester t("NegativeLogLikelihoodLoss", "nll3");
  const std::vector<ge::DataType> dts = {ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT};
  EXPECT_TRUE(ErrorContains(t.InferShapes({{5}, {5}}, dts, 1), "rank >= 2", "nll3"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 3, 4}, {2}}, dts, 1), "expected rank 2", "nll3"));
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{2, 3, 4}, {2, 5}}, dts, 1), "target dim 1 must be 4", "nll3"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 3}, {2}, {4}}, dts, 1),
                            "input 2 (weight) has shape [4] but input 0 has C = 3", "nll3"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 3}, {2}}, {ge::DT_FLOAT, ge::DT_FLOAT}, 1),
                            "input 1 (target) must be DT_INT32 or DT_INT64", "nll3"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{2, 3}, {2}, {3}}, {ge::DT_FLOAT, ge::DT_INT64, ge::DT_DOUBLE}, 1),
      "input 2 (weight) is DT_DOUBLE", "nll3"));
  OpTester r("NegativeLogLikelihoodLoss", "nll3");
  r.AttrStr("reduction", "avg");
  EXPECT_TRUE(ErrorContains(r.InferShapes({{2, 3}, {2}}, dts, 1), "\"avg\"", "nll3"));
}

// ---------------------------------------------------------------- SCE

TEST(SceKernelTest, LogProbAndLoss) {
  // scores [[0, 0, ln 2]]: softmax = [1/4, 1/4, 1/2]; label 2 -> ln 2.
  OpTester t("SoftmaxCrossEntropyLoss");
  t.Input(F32({1, 3}, {0, 0, std::log(2.0)})).Input(I64({1}, {2}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_EQ(t.Out(0).GetShape(), gert::Shape{});
  EXPECT_TRUE(Near(t.OutValues(0), {std::log(2.0)}));
  EXPECT_EQ(t.Out(1).GetShape(), (gert::Shape{1, 3}));
  EXPECT_TRUE(Near(t.OutValues(1), {std::log(0.25), std::log(0.25), std::log(0.5)}));
  // Only the loss output connected.
  OpTester one("SoftmaxCrossEntropyLoss");
  one.AttrStr("reduction", "none").Input(F32({1, 3}, {0, 0, std::log(2.0)})).Input(I64({1}, {0}));
  ASSERT_TRUE(one.Run(1).ok());
  EXPECT_TRUE(Near(one.OutValues(0), {std::log(4.0)}));
}

TEST(SceKernelTest, SpatialWeightsIgnore) {
  // scores [1, 2, 2]: position 0 scores (0, 0), position 1 scores (1000, 0)
  // (stable log-softmax); labels [[1, 0]] with weights [2, 3]:
  // loss = [3 ln 2, 0]; mean = 3 ln 2 / (3 + 2).
  OpTester t("SoftmaxCrossEntropyLoss");
  t.Input(F32({1, 2, 2}, {0, 1000, 0, 0})).Input(I64({1, 2}, {1, 0})).Input(F32({2}, {2, 3}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {3 * std::log(2.0) / 5}));
  EXPECT_TRUE(Near(t.OutValues(1), {-std::log(2.0), 0, -std::log(2.0), -1000}));
  OpTester ii("SoftmaxCrossEntropyLoss");
  ii.AttrInt("ignore_index", 1)
      .Input(F32({1, 2, 2}, {0, 1000, 0, 0}))
      .Input(I64({1, 2}, {1, 0}))
      .Input(F32({2}, {2, 3}));
  ASSERT_TRUE(ii.Run(1).ok());
  EXPECT_TRUE(Near(ii.OutValues(0), {0}));
}

TEST(SceKernelTest, Bf16) {
  OpTester t("SoftmaxCrossEntropyLoss");
  t.AttrStr("reduction", "sum")
      .Input(optest::T(ge::DT_BF16, {2, 2}, {0, 0, 1, 1}))
      .Input(I32({2}, {0, 1}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_BF16);
  EXPECT_TRUE(Near(t.OutValues(0), {2 * std::log(2.0)}, 1e-2));
}

TEST(SceInferTest, ShapesAndErrors) {
  OpTester t("SoftmaxCrossEntropyLoss", "sce");
  t.AttrStr("reduction", "none");
  ASSERT_TRUE(t.InferShapes({{-1, 4, 6}, {8, -1}}, {ge::DT_FLOAT, ge::DT_INT64}, 2).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{8, 6}));
  EXPECT_EQ(t.InferredShape(1), (gert::Shape{-1, 4, 6}));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 4}, {2}}, {ge::DT_FLOAT, ge::DT_INT64}, 3),
                            "has 3 outputs, at most 2", "sce"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 4}, {3}}, {ge::DT_FLOAT, ge::DT_INT64}, 2),
                            "target dim 0 must be 2", "sce"));
}

}  // namespace
}  // namespace ops
