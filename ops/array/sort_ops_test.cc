// ops/array/sort_ops_test.cc
// TopK, Unique.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/array/array_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;

// --------------------------------------------------------------------- TopK

TEST(TopKTest, OnnxLargestAndSmallest) {
  OpTester t("TopK");
  t.Attr<int64_t>("axis", 1).Input(Iota({3, 4})).Input(I64({1}, {3})).Outputs(2);
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredType(1), ge::DT_INT64);
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 3}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(3, 2, 1, 7, 6, 5, 11, 10, 9));
  EXPECT_THAT(t.Values<int64_t>(1), ElementsAre(3, 2, 1, 3, 2, 1, 3, 2, 1));
  OpTester s("TopK");
  s.Attr<int64_t>("axis", 1)
      .Attr<int64_t>("largest", 0)
      .Input(F32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 11, 10, 9, 8}))
      .Input(I64({1}, {3}))
      .Outputs(2);
  ASSERT_OK(s.Run());
  EXPECT_THAT(s.Values<float>(0), ElementsAre(0, 1, 2, 4, 5, 6, 8, 9, 10));
  EXPECT_THAT(s.Values<int64_t>(1), ElementsAre(0, 1, 2, 0, 1, 2, 3, 2, 1));
}

TEST(TopKTest, TiesKeepLowerIndexFirstAlongAxis0) {
  // Columns of [[1, 5], [3, 5], [3, 2], [1, 5]] along axis 0 (not the last).
  OpTester t("TopK");
  t.Attr<int64_t>("axis", 0)
      .Input(I32({4, 2}, {1, 5, 3, 5, 3, 2, 1, 5}))
      .Input(I64({1}, {3}))
      .Outputs(2);
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 2}));
  EXPECT_THAT(t.Values<int32_t>(0), ElementsAre(3, 5, 3, 5, 1, 5));
  EXPECT_THAT(t.Values<int64_t>(1), ElementsAre(1, 0, 2, 1, 0, 3));
  OpTester s("TopK");
  s.Attr<int64_t>("largest", 0).Input(I32({4}, {1, 3, 3, 1})).Input(I64({1}, {4})).Outputs(2);
  ASSERT_OK(s.Run());
  EXPECT_THAT(s.Values<int64_t>(1), ElementsAre(0, 3, 1, 2));
}

TEST(TopKTest, NanIsLargestAndHalfWorks) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpTester t("TopK");
  t.Input(F32({4}, {1, nan, 3, -1})).Input(I64({1}, {2})).Outputs(2);
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<int64_t>(1), ElementsAre(1, 2));
  OpTester h("TopK");
  h.Input(F16({3}, {0.5f, -2.f, 8.f})).Input(I64({1}, {1})).Outputs(2);
  ASSERT_OK(h.Run());
  EXPECT_THAT(h.HalfValues(0), ElementsAre(8.f));
  EXPECT_THAT(h.Values<int64_t>(1), ElementsAre(2));
}

TEST(TopKInferTest, UnknownKAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("TopK", &a, {In{{3, 4}}, In{{1}, ge::DT_INT64}}, 2);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, -1}));
  EXPECT_EQ(r.shapes[1], (gert::Shape{3, -1}));
  EXPECT_EQ(r.dtypes[0], ge::DT_FLOAT);
  EXPECT_EQ(r.dtypes[1], ge::DT_INT64);
  gert::HostTensor k5 = I64({1}, {5});
  EXPECT_TRUE(IsNodeError(InferOp("TopK", &a, {In{{3, 4}}, Val(k5)}, 2).status, "K = 5"));
  r = InferOp("TopK", &a, {In{{3, -1}}, Val(k5)}, 2);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, 5}));
  EXPECT_TRUE(IsNodeError(InferOp("TopK", &a, {In{{}}, Val(k5)}, 2).status, "scalar"));
}

// ------------------------------------------------------------------- Unique

TEST(UniqueTest, OnnxNotSortedWithoutAxis) {
  OpTester t("Unique");
  t.Attr<int64_t>("sorted", 0).Input(F32({6}, {2, 1, 1, 3, 4, 3})).Outputs(4);
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1}));
  EXPECT_EQ(t.InferredShape(2), (gert::Shape{6}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(2, 1, 3, 4));
  EXPECT_THAT(t.Values<int64_t>(1), ElementsAre(0, 1, 3, 4));
  EXPECT_THAT(t.Values<int64_t>(2), ElementsAre(0, 1, 1, 2, 3, 2));
  EXPECT_THAT(t.Values<int64_t>(3), ElementsAre(1, 2, 2, 1));
}

TEST(UniqueTest, OptionalOutputsMayBeOmitted) {
  const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find("Unique");
  ASSERT_NE(reg, nullptr);
  ASSERT_EQ(reg->outputs.size(), 4u);
  EXPECT_EQ(reg->outputs[0].kind, ge::IoKind::kRequired);
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(reg->outputs[i].kind, ge::IoKind::kOptional) << i;
  // Only Y and counts requested.
  OpTester t("Unique");
  t.Input(F32({5}, {3, 1, 3, 2, 1})).Outputs(4).AbsentOutput(1).AbsentOutput(2);
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 3));
  EXPECT_THAT(t.Values<int64_t>(3), ElementsAre(2, 1, 2));
}

TEST(UniqueTest, OnnxSortedWithoutAxis) {
  // test_unique_sorted_without_axis.
  OpTester t("Unique");
  t.Input(F32({6}, {2, 1, 1, 3, 4, 3})).Outputs(4);
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(t.Values<int64_t>(1), ElementsAre(1, 0, 3, 4));
  EXPECT_THAT(t.Values<int64_t>(2), ElementsAre(1, 0, 0, 2, 3, 2));
  EXPECT_THAT(t.Values<int64_t>(3), ElementsAre(2, 1, 2, 1));
}

TEST(UniqueTest, OnnxWithAxis) {
  OpTester a0("Unique");
  a0.Attr<int64_t>("axis", 0).Input(F32({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4})).Outputs(4);
  ASSERT_OK(a0.Run());
  EXPECT_EQ(a0.OutShape(0), (gert::Shape{2, 3}));
  EXPECT_THAT(a0.Values<float>(0), ElementsAre(1, 0, 0, 2, 3, 4));
  EXPECT_THAT(a0.Values<int64_t>(1), ElementsAre(0, 2));
  EXPECT_THAT(a0.Values<int64_t>(2), ElementsAre(0, 0, 1));
  EXPECT_THAT(a0.Values<int64_t>(3), ElementsAre(2, 1));
  OpTester a3("Unique");
  a3.Attr<int64_t>("axis", 1)
      .Input(F32({2, 4, 2}, {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1}))
      .Outputs(4);
  ASSERT_OK(a3.Run());
  EXPECT_EQ(a3.OutShape(0), (gert::Shape{2, 3, 2}));
  EXPECT_THAT(a3.Values<float>(0), ElementsAre(0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1));
  EXPECT_THAT(a3.Values<int64_t>(1), ElementsAre(1, 0, 2));
  EXPECT_THAT(a3.Values<int64_t>(2), ElementsAre(1, 0, 2, 0));
  EXPECT_THAT(a3.Values<int64_t>(3), ElementsAre(2, 1, 1));
  OpTester n("Unique");
  n.Attr<int64_t>("axis", -1).Input(F32({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 3})).Outputs(4);
  ASSERT_OK(n.Run());
  EXPECT_EQ(n.OutShape(0), (gert::Shape{3, 2}));
  EXPECT_THAT(n.Values<float>(0), ElementsAre(0, 1, 0, 1, 3, 2));
  EXPECT_THAT(n.Values<int64_t>(1), ElementsAre(1, 0));
  EXPECT_THAT(n.Values<int64_t>(2), ElementsAre(1, 0, 0));
}

TEST(UniqueTest, StringsOnlyYAndAllocation) {
  OpTester t("Unique");
  t.Input(Str({5}, {"b", "a", "b", "", "a"})).Outputs(1);
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.allocations(), 1);
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("", "a", "b"));
}

TEST(UniqueTest, NansCollapse) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpTester t("Unique");
  t.Input(F32({4}, {nan, 1, nan, -1})).Outputs(4);
  ASSERT_OK(t.Run());
  const std::vector<float> y = t.Values<float>(0);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], -1);
  EXPECT_EQ(y[1], 1);
  EXPECT_TRUE(std::isnan(y[2]));
  EXPECT_THAT(t.Values<int64_t>(3), ElementsAre(1, 1, 2));
}

TEST(UniqueInferTest, ShapesAndErrors) {
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(1)));
  auto r = InferOp("Unique", &a, {In{{2, 5, 3}}}, 4);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, -1, 3}));
  EXPECT_EQ(r.shapes[1], (gert::Shape{-1}));
  EXPECT_EQ(r.shapes[2], (gert::Shape{5}));
  EXPECT_EQ(r.shapes[3], (gert::Shape{-1}));
  EXPECT_EQ(r.dtypes[0], ge::DT_FLOAT);
  EXPECT_EQ(r.dtypes[3], ge::DT_INT64);
  EXPECT_TRUE(IsNodeError(InferOp("Unique", &a, {In{{4}}}, 4).status, "axis 1"));
}

}  // namespace
}  // namespace test
}  // namespace ops
