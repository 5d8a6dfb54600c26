// ops/nn/softmax_test.cc: Softmax, LogSoftmax, Hardmax (opset 13 axis).
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

TEST(SoftmaxTest, LastAxis) {
  OpTester t("Softmax");
  t.Input(F32({1, 3}, {1, 2, 3}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0.09003057317, 0.24472847105, 0.66524095577}));
  OpTester l("LogSoftmax");
  l.Input(F32({1, 3}, {1, 2, 3}));
  ASSERT_TRUE(l.Run(1).ok());
  EXPECT_TRUE(Near(l.OutValues(0), {-2.40760596444, -1.40760596444, -0.40760596444}));
}

TEST(SoftmaxTest, AxisZeroIsStridedNotFlattened) {
  OpTester t("Softmax");
  t.AttrInt("axis", 0).Input(F32({2, 2}, {1, 2, 3, 5}));
  ASSERT_TRUE(t.Run(1).ok());
  // Columns {1, 3} and {2, 5}.
  EXPECT_TRUE(Near(t.OutValues(0), {0.11920292, 0.04742587, 0.88079708, 0.95257413}));
  // Opset 13: axis 1 of [2, 3, 2] normalizes only the middle dim.
  OpTester m("Softmax");
  m.AttrInt("axis", 1).Input(Iota(ge::DT_FLOAT, {2, 3, 2}));
  ASSERT_TRUE(m.Run(1).ok());
  const std::vector<double> y = m.OutValues(0);
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 2; ++i) {
      double sum = 0;
      for (int j = 0; j < 3; ++j) sum += y[b * 6 + j * 2 + i];
      EXPECT_NEAR(sum, 1.0, 1e-6);
    }
  }
  EXPECT_NEAR(y[4] / y[2], std::exp(2.0), 1e-4);  // x differs by 2 along the axis
}

TEST(SoftmaxTest, LargeNumbersAreStable) {
  OpTester t("Softmax");
  t.Input(F32({2}, {1000, 1001}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0.26894142, 0.73105858}));
  OpTester l("LogSoftmax");
  l.Input(F32({2}, {-1000, 1000}));
  ASSERT_TRUE(l.Run(1).ok());
  EXPECT_TRUE(Near(l.OutValues(0), {-2000, 0}));
}

TEST(SoftmaxTest, OtherFloatTypes) {
  for (ge::DataType dt : {ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16}) {
    OpTester t("Softmax");
    t.Input(T(dt, {2}, {0, 0}));
    ASSERT_TRUE(t.Run(1).ok());
    EXPECT_EQ(t.Out(0).GetDataType(), dt);
    EXPECT_TRUE(Near(t.OutValues(0), {0.5, 0.5}));
  }
}

TEST(HardmaxTest, FirstMaximumAlongAxis) {
  OpTester t("Hardmax");
  t.Input(F32({2, 3}, {1, 3, 3, 2, 1, 0}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0, 1, 0, 1, 0, 0}));
  OpTester a("Hardmax");
  a.AttrInt("axis", 0).Input(F32({2, 3}, {1, 3, 3, 2, 1, 0}));
  ASSERT_TRUE(a.Run(1).ok());
  EXPECT_TRUE(Near(a.OutValues(0), {0, 1, 1, 1, 0, 0}));
}

TEST(SoftmaxTest, InferAndAxisErrors) {
  OpTester t("LogSoftmax");
  t.AttrInt("axis", -2);
  ASSERT_TRUE(t.InferShapes({{-1, 10}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 10}));
  ASSERT_TRUE(t.InferShapes({{-2}}, ge::DT_FLOAT, 1).ok());
  EXPECT_TRUE(t.InferredShape(0).IsUnknownRank());
  EXPECT_TRUE(ErrorContains(t.InferShapes({{10}}, ge::DT_FLOAT, 1), "axis -2"));
  OpTester s("Softmax");
  s.Input(F32({}, {1}));
  EXPECT_TRUE(ErrorContains(s.Run(1), "axis"));
  OpTester e("Softmax");
  e.Input(F32({0, 3}, {}));
  ASSERT_TRUE(e.Run(1).ok());
  EXPECT_EQ(e.Out(0).GetShape(), (gert::Shape{0, 3}));
}

}  // namespace
}  // namespace nn
}  // namespace ops
