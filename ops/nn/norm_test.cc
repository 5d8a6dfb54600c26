// ops/nn/norm_test.cc: BatchNormalization, InstanceNormalization,
// LayerNormalization, LRN, MeanVarianceNormalization.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "ops/nn/nn_test_util.h"

namespace ops {
namespace nn {
namespace {

using testing::ErrorContains;
using testing::F32;
using testing::Iota;
using testing::Near;
using testing::OpTester;
using testing::T;

// ------------------------------------------------------------------ BatchNormalization

TEST(BatchNormTest, InferenceMode) {
  OpTester t("BatchNormalization");
  t.Input(F32({1, 2, 1, 3}, {-1, 0, 1, 2, 3, 4}))
      .Input(F32({2}, {1, 1.5}))
      .Input(F32({2}, {0, 1}))
      .Input(F32({2}, {0, 3}))
      .Input(F32({2}, {1, 1.5}));
  ASSERT_TRUE(t.Run(1).ok());
  // ONNX test_batchnorm_example.
  EXPECT_TRUE(Near(t.OutValues(0), {-0.999995, 0, 0.999995, -0.22474074, 1, 2.2247407}));
}

TEST(BatchNormTest, TrainingModeUpdatesRunningStats) {
  OpTester t("BatchNormalization");
  t.AttrInt("training_mode", 1)
      .AttrFloat("epsilon", 0)
      .Input(F32({2, 2, 1}, {1, 2, 3, 6}))  // channel 0: {1, 3}, channel 1: {2, 6}
      .Input(F32({2}, {1, 1}))
      .Input(F32({2}, {0, 0}))
      .Input(F32({2}, {0, 0}))
      .Input(F32({2}, {1, 1}));
  ASSERT_TRUE(t.Run(3).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {-1, -1, 1, 1}));
  EXPECT_TRUE(Near(t.OutValues(1), {0.2, 0.4}));  // 0.9 * 0 + 0.1 * mean
  EXPECT_TRUE(Near(t.OutValues(2), {1.0, 1.3}));  // 0.9 * 1 + 0.1 * var (biased)
}

TEST(BatchNormTest, InferenceOptionalOutputsCopyStats) {
  OpTester t("BatchNormalization");
  t.Input(T(ge::DT_FLOAT16, {1, 1, 2}, {1, 2}))
      .Input(F32({1}, {2}))
      .Input(F32({1}, {1}))
      .Input(T(ge::DT_DOUBLE, {1}, {1}))
      .Input(T(ge::DT_DOUBLE, {1}, {4}));
  ASSERT_TRUE(t.Run(3).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_FLOAT16);
  EXPECT_EQ(t.Out(1).GetDataType(), ge::DT_DOUBLE);
  EXPECT_TRUE(Near(t.OutValues(0), {1, 2}, 1e-3));  // (x - 1) / 2 * 2 + 1
  EXPECT_TRUE(Near(t.OutValues(1), {1}));
  EXPECT_TRUE(Near(t.OutValues(2), {4}));
}

TEST(BatchNormTest, InferShapesAndErrors) {
  OpTester t("BatchNormalization");
  ASSERT_TRUE(t.InferShapes({{-1, 3, -1, 5}, {3}, {3}, {-1}, {3}}, ge::DT_FLOAT, 3).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 3, -1, 5}));
  EXPECT_EQ(t.InferredShape(1), (gert::Shape{3}));
  ASSERT_TRUE(t.InferShapes({{-2}, {4}, {4}, {4}, {4}}, ge::DT_FLOAT, 3).ok());
  EXPECT_EQ(t.InferredShape(2), (gert::Shape{4}));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 3, 4}, {3}, {4}, {3}, {3}}, ge::DT_FLOAT, 1),
                            "input 2 (B) shape [4] must be [3]"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{3}, {3}, {3}, {3}, {3}}, ge::DT_FLOAT, 1), "rank 1"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 3}, {3}, {3}, {3}, {3}}, ge::DT_FLOAT, 1,
                                          {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_DOUBLE}),
                            "data type"));
}

// ------------------------------------------------------------------ InstanceNormalization

TEST(InstanceNormTest, PerInstanceAndChannel) {
  OpTester t("InstanceNormalization");
  t.AttrFloat("epsilon", 0)
      .Input(F32({2, 2, 2}, {1, 3, 2, 6, 0, 10, 5, 5}))
      .Input(F32({2}, {1, 2}))
      .Input(F32({2}, {0, 1}));
  ASSERT_TRUE(t.Run(1).ok());
  // Last plane has zero variance: 0 / sqrt(0) is NaN with epsilon 0.
  const std::vector<double> y = t.OutValues(0);
  EXPECT_TRUE(Near({y[0], y[1], y[2], y[3], y[4], y[5]}, {-1, 1, -1, 3, -1, 1}));
  EXPECT_TRUE(std::isnan(y[6]));
  OpTester e("InstanceNormalization");
  e.Input(F32({1, 1, 2}, {5, 5})).Input(F32({1}, {1})).Input(F32({1}, {0.5}));
  ASSERT_TRUE(e.Run(1).ok());
  EXPECT_TRUE(Near(e.OutValues(0), {0.5, 0.5}));
}

TEST(InstanceNormTest, InferErrors) {
  OpTester t("InstanceNormalization");
  ASSERT_TRUE(t.InferShapes({{-1, 4, 7}, {4}, {4}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 4, 7}));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 4}, {4}, {4}}, ge::DT_FLOAT, 1), "rank 2"));
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{2, 4, 3}, {3}, {4}}, ge::DT_FLOAT, 1), "(scale) shape [3]"));
}

// ------------------------------------------------------------------ LayerNormalization

TEST(LayerNormTest, LastAxisWithMeanAndInvStdDev) {
  OpTester t("LayerNormalization");
  t.AttrFloat("epsilon", 0)
      .Input(F32({2, 3}, {1, 2, 3, 2, 4, 6}))
      .Input(F32({3}, {1, 1, 2}))
      .Input(F32({3}, {0, 1, 0}));
  ASSERT_TRUE(t.Run(3).ok());
  const double s = std::sqrt(1.5);
  EXPECT_TRUE(Near(t.OutValues(0), {-s, 1, 2 * s, -s, 1, 2 * s}));
  EXPECT_EQ(t.Out(1).GetShape(), (gert::Shape{2, 1}));
  EXPECT_TRUE(Near(t.OutValues(1), {2, 4}));
  EXPECT_TRUE(Near(t.OutValues(2), {s, 1 / std::sqrt(8.0 / 3)}));
}

TEST(LayerNormTest, AxisZeroBroadcastScaleNoBias) {
  OpTester t("LayerNormalization");
  t.AttrInt("axis", 0)
      .AttrFloat("epsilon", 0)
      .Input(F32({2, 3}, {1, 2, 3, 2, 4, 6}))
      .Input(F32({3}, {1, 2, 3}));
  ASSERT_TRUE(t.Run(1).ok());
  // Mean 3, variance 16 / 6.
  const double inv = 1 / std::sqrt(16.0 / 6);
  // Normalized [-2, -1, 0, -1, 1, 3] * inv times the scale column [1, 2, 3].
  EXPECT_TRUE(Near(t.OutValues(0), {-2 * inv, -2 * inv, 0, -1 * inv, 2 * inv, 9 * inv}));
}

TEST(LayerNormTest, HalfInputStashesFloat) {
  OpTester t("LayerNormalization");
  t.Input(T(ge::DT_FLOAT16, {1, 2}, {1, 3})).Input(T(ge::DT_FLOAT16, {2}, {1, 1}));
  ASSERT_TRUE(t.Run(3).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_FLOAT16);
  EXPECT_EQ(t.Out(1).GetDataType(), ge::DT_FLOAT);
  EXPECT_TRUE(Near(t.OutValues(0), {-1, 1}, 1e-3));
  EXPECT_TRUE(Near(t.OutValues(1), {2}));
}

TEST(LayerNormTest, AbsentOptionalOutputs) {
  OpTester t("LayerNormalization");
  t.AttrFloat("epsilon", 0).Input(F32({1, 2}, {1, 3})).Input(F32({2}, {1, 1}));
  ASSERT_TRUE(t.Run(3, {1}).ok());
  EXPECT_FALSE(t.HasOut(1));
  EXPECT_TRUE(Near(t.OutValues(2), {1}));
}

TEST(LayerNormTest, InferShapesAndErrors) {
  OpTester t("LayerNormalization");
  t.AttrInt("axis", -2);
  ASSERT_TRUE(t.InferShapes({{-1, 4, 8}, {4, 8}}, ge::DT_BF16, 3).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 4, 8}));
  EXPECT_EQ(t.InferredShape(1), (gert::Shape{-1, 1, 1}));
  EXPECT_EQ(t.InferredDtype(2), ge::DT_FLOAT);
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{2, 4, 8}, {5, 8}}, ge::DT_FLOAT, 1), "(Scale) shape [5,8]"));
  OpTester a("LayerNormalization");
  a.AttrInt("axis", 3);
  const ge::Status s = a.InferShapes({{2, 4, 8}, {8}}, ge::DT_FLOAT, 1);
  EXPECT_TRUE(ErrorContains(s, "axis"));
  OpTester st("LayerNormalization");
  st.AttrInt("stash_type", 7);
  EXPECT_TRUE(ErrorContains(st.InferShapes({{2, 4}, {4}}, ge::DT_FLOAT, 1), "stash_type"));
}

// ------------------------------------------------------------------ LRN

TEST(LrnTest, ChannelWindows) {
  // alpha / size == 1, beta 1, bias 1: y = x / (1 + sum of squares).
  OpTester t("LRN");
  t.AttrInt("size", 3)
      .AttrFloat("alpha", 3)
      .AttrFloat("beta", 1)
      .Input(F32({1, 3, 1, 1}, {1, 2, 3}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {1.0 / 6, 2.0 / 15, 3.0 / 14}));
  // Even size: the window reaches one channel further forward than back.
  OpTester e("LRN");
  e.AttrInt("size", 2).AttrFloat("alpha", 2).AttrFloat("beta", 1).Input(F32({1, 3, 1}, {1, 2, 3}));
  ASSERT_TRUE(e.Run(1).ok());
  EXPECT_TRUE(Near(e.OutValues(0), {1.0 / 6, 2.0 / 14, 3.0 / 10}));
  OpTester d("LRN");
  d.AttrInt("size", 1).AttrFloat("beta", 0.5).Input(F32({1, 1, 2}, {3, 4}));
  ASSERT_TRUE(d.Run(1).ok());
  EXPECT_TRUE(Near(d.OutValues(0), {3 / std::sqrt(1 + 9e-4), 4 / std::sqrt(1 + 16e-4)}));
}

TEST(LrnTest, Errors) {
  OpTester t("LRN");
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 4, 4}}, ge::DT_FLOAT, 1), "size"));
  OpTester z("LRN");
  z.AttrInt("size", 0);
  EXPECT_TRUE(ErrorContains(z.InferShapes({{1, 3, 4, 4}}, ge::DT_FLOAT, 1), "size (0)"));
}

// ------------------------------------------------------------------ MeanVarianceNormalization

TEST(MvnTest, DefaultAxesPerChannel) {
  OpTester t("MeanVarianceNormalization");
  t.Input(F32({2, 2, 1, 1}, {1, 2, 3, 6}));  // channel 0: {1, 3}; channel 1: {2, 6}
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {-1, -1, 1, 1}));
}

TEST(MvnTest, CustomAxesAndErrors) {
  OpTester t("MeanVarianceNormalization");
  t.AttrInts("axes", {-1}).Input(F32({2, 2}, {0, 4, 5, 5}));
  ASSERT_TRUE(t.Run(1).ok());
  // Zero variance: 0 / (0 + 1e-9) = 0.
  EXPECT_TRUE(Near(t.OutValues(0), {-1, 1, 0, 0}));
  OpTester e("MeanVarianceNormalization");
  EXPECT_TRUE(ErrorContains(e.InferShapes({{2, 3, 4}}, ge::DT_FLOAT, 1), "axes"));
  ASSERT_TRUE(e.InferShapes({{-2}}, ge::DT_FLOAT, 1).ok());
  EXPECT_TRUE(e.InferredShape(0).IsUnknownRank());
}

}  // namespace
}  // namespace nn
}  // namespace ops
