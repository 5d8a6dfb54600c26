// ops/common/shape_range_test.cc
#include "ops/common/shape_range.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

using ::testing::ElementsAre, ::testing::HasSubstr, ::testing::Pair;

constexpr int64_t kInf = kUnboundedDim;

TEST(DimRangeTest, Arithmetic) {
  EXPECT_EQ(DimRangeOf(4), (DimRange{4, 4}));
  EXPECT_EQ(DimRangeOf(-1), (DimRange{0, kInf}));
  EXPECT_EQ(AddDimRange({1, 3}, {2, 5}), (DimRange{3, 8}));
  EXPECT_EQ(AddDimRange({1, 3}, {2, kInf}), (DimRange{3, kInf}));
  EXPECT_EQ(MulDimRange({2, 3}, {4, 5}), (DimRange{8, 15}));
  EXPECT_EQ(MulDimRange({2, kInf}, {0, 0}), (DimRange{0, 0}));
  EXPECT_EQ(MulDimRange({2, kInf}, {3, 3}), (DimRange{6, kInf}));
  // Saturation turns into "unbounded".
  EXPECT_EQ(MulDimRange({1, int64_t{1} << 40}, {1, int64_t{1} << 40}).second, kInf);
  EXPECT_EQ(ScaleDimRange({1, 4}, 3), (DimRange{3, 12}));
  EXPECT_EQ(DivDimRange({7, 20}, 3), (DimRange{3, 6}));
  EXPECT_EQ(DivDimRange({6, kInf}, 3), (DimRange{2, kInf}));
  EXPECT_EQ(UnionDimRange({1, 3}, {5, 6}), (DimRange{1, 6}));
  EXPECT_EQ(UnionDimRange({1, 3}, {5, kInf}), (DimRange{1, kInf}));
  EXPECT_EQ(MapDimRange({3, 10}, [](int64_t d) { return d - 4; }), (DimRange{0, 6}));
  EXPECT_EQ(MapDimRange({3, kInf}, [](int64_t d) { return d * 2; }), (DimRange{6, kInf}));
  EXPECT_EQ(DimRangeString({2, kInf}), "[2, inf]");
  EXPECT_EQ(ShapeRangeString({{1, 2}, {3, 3}}), "[[1, 2], [3, 3]]");
}

TEST(DimRangeTest, Intersect) {
  auto r = IntersectDimRange({1, 8}, {4, kInf});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (DimRange{4, 8}));
  r = IntersectDimRange({1, 3}, {4, kInf});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("[1, 3] and [4, inf]"));
}

TEST(DimRangeTest, Broadcast) {
  // A ranged dim against a known dim: the known dim when the range holds it.
  auto r = BroadcastDimRange({2, 8}, {5, 5});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (DimRange{5, 5}));
  // May be 1: the other side.
  r = BroadcastDimRange({1, 8}, {5, 5});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (DimRange{5, 5}));
  r = BroadcastDimRange({1, 1}, {2, 9});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (DimRange{2, 9}));
  // Both may be 1: the union.
  r = BroadcastDimRange({0, 4}, {1, 9});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (DimRange{0, 9}));
  // Neither may be 1: they must meet.
  r = BroadcastDimRange({2, 4}, {3, 9});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (DimRange{3, 4}));
  r = BroadcastDimRange({2, 4}, {7, 7});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("cannot broadcast"));
}

TEST(ShapeRangeTest, BroadcastShapes) {
  gert::ShapeRange a = {{2, 4}, {1, 1}};
  gert::ShapeRange b = {{3, 3}};
  gert::ShapeRange c = {{5, 6}, {1, 9}, {3, 3}};
  const gert::ShapeRange* rs[] = {&a, &b, &c};
  auto r = BroadcastShapeRanges(rs);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(*r, ElementsAre(Pair(5, 6), Pair(2, 4), Pair(3, 3)));
  gert::ShapeRange bad = {{5, 5}, {1, 1}};
  const gert::ShapeRange* rs2[] = {&a, &bad};
  r = BroadcastShapeRanges(rs2);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("input 1"));
  EXPECT_TRUE(ShapeRangeOf(gert::Shape{ge::UNKNOWN_RANK}).empty());
  EXPECT_THAT(ShapeRangeOf(gert::Shape{3, -1}), ElementsAre(Pair(3, 3), Pair(0, kInf)));
}

TEST(ShapeRangeContextTest, InputRangeValidatesAndPins) {
  gert::ShapeRange r0 = {{2, 2}, {1, 16}};
  gert::ShapeRange bad_rank = {{1, 2}};
  gert::ShapeRange bad_known = {{3, 4}, {1, 2}};
  gert::ShapeRange bad_order = {{2, 2}, {5, 4}};
  gert::InferShapeContextBuilder b;
  b.Node("r", "Relu")
      .Input(gert::Shape{2, -1}, ge::DT_FLOAT, nullptr, &r0)
      .Input(gert::Shape{-1, 3}, ge::DT_FLOAT)
      .Input(gert::Shape{2, -1}, ge::DT_FLOAT, nullptr, &bad_rank)
      .Input(gert::Shape{2, -1}, ge::DT_FLOAT, nullptr, &bad_known)
      .Input(gert::Shape{2, -1}, ge::DT_FLOAT, nullptr, &bad_order)
      .Input(gert::Shape{ge::UNKNOWN_RANK}, ge::DT_FLOAT, nullptr, &r0)
      .Outputs(1);
  gert::InferShapeContext* ctx = b.Build();
  EXPECT_TRUE(AnyInputRange(*ctx));
  auto r = InputRange(*ctx, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(*r, ElementsAre(Pair(2, 2), Pair(1, 16)));
  r = InputRange(*ctx, 1);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(*r, ElementsAre(Pair(0, kInf), Pair(3, 3)));
  for (size_t i : {2, 3, 4}) {
    r = InputRange(*ctx, i);
    ASSERT_FALSE(r.ok()) << i;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr("node r (Relu)"));
    EXPECT_THAT(std::string(r.status().message()), HasSubstr("input " + std::to_string(i)));
  }
  r = InputRange(*ctx, 5);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
  r = InputRange(*ctx, 9);  // no such input
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

TEST(ShapeRangeContextTest, SetOutputRangePinsKnownDimsAndRejectsConflicts) {
  gert::InferShapeContextBuilder b;
  b.Node("n", "Op").Input(gert::Shape{-1}, ge::DT_FLOAT).Outputs(2);
  gert::InferShapeContext* ctx = b.Build();
  *ctx->GetOutputShape(0) = gert::Shape{4, -1};
  ASSERT_TRUE(SetOutputRange(*ctx, 0, {{1, 8}, {2, kInf}}).ok());
  EXPECT_THAT(b.OutputShapeRange(0), ElementsAre(Pair(4, 4), Pair(2, kInf)));
  *ctx->GetOutputShape(1) = gert::Shape{9};
  ge::Status st = SetOutputRange(*ctx, 1, {{1, 8}});
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("node n (Op)"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("conflicting"));
  st = SetOutputRange(*ctx, 1, {{1, 8}, {1, 1}});
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kInternal);
}

TEST(ShapeRangeContextTest, NoInputRangeLeavesOutputsEmpty) {
  gert::InferShapeContextBuilder b;
  b.Node("add", "Add").Input(gert::Shape{-1, 3}, ge::DT_FLOAT).Input(gert::Shape{3}, ge::DT_FLOAT);
  b.Outputs(1);
  gert::InferShapeContext* ctx = b.Build();
  EXPECT_FALSE(AnyInputRange(*ctx));
  ASSERT_TRUE(InferBroadcast(*ctx).ok());
  EXPECT_TRUE(b.OutputShapeRange(0).empty());
}

TEST(ShapeRangeContextTest, InferBroadcastAndCopyProduceRanges) {
  gert::ShapeRange ra = {{2, 6}, {1, 1}};
  gert::ShapeRange rb = {{1, 9}};
  gert::InferShapeContextBuilder b;
  b.Node("add", "Add")
      .Input(gert::Shape{-1, 1}, ge::DT_FLOAT, nullptr, &ra)
      .Input(gert::Shape{-1}, ge::DT_FLOAT, nullptr, &rb)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*b.Build()).ok());
  EXPECT_EQ(b.OutputShape(0), (gert::Shape{-1, -1}));
  EXPECT_THAT(b.OutputShapeRange(0), ElementsAre(Pair(2, 6), Pair(1, 9)));

  // A ranged -1 dim against a known dim.
  gert::ShapeRange rc = {{2, 6}};
  gert::InferShapeContextBuilder b2;
  b2.Node("add", "Add")
      .Input(gert::Shape{-1}, ge::DT_FLOAT, nullptr, &rc)
      .Input(gert::Shape{4, 5}, ge::DT_FLOAT)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*b2.Build()).ok());
  EXPECT_EQ(b2.OutputShape(0), (gert::Shape{4, 5}));
  EXPECT_THAT(b2.OutputShapeRange(0), ElementsAre(Pair(4, 4), Pair(5, 5)));

  // Conflicting: [2, 6] can never be 7.
  gert::InferShapeContextBuilder b3;
  b3.Node("add7", "Add")
      .Input(gert::Shape{-1}, ge::DT_FLOAT, nullptr, &rc)
      .Input(gert::Shape{7}, ge::DT_FLOAT)
      .Outputs(1);
  ge::Status st = InferBroadcast(*b3.Build());
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("node add7 (Add)"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("input 1"));

  gert::InferShapeContextBuilder b4;
  b4.Node("relu", "Relu").Input(gert::Shape{-1, 1}, ge::DT_FLOAT, nullptr, &ra).Outputs(2);
  ASSERT_TRUE(InferSameAsInput0(*b4.Build()).ok());
  EXPECT_THAT(b4.OutputShapeRange(0), ElementsAre(Pair(2, 6), Pair(1, 1)));
  EXPECT_THAT(b4.OutputShapeRange(1), ElementsAre(Pair(2, 6), Pair(1, 1)));

  // Unknown rank stays unknown, with no range.
  gert::InferShapeContextBuilder b5;
  b5.Node("add", "Add")
      .Input(gert::Shape{-1, 1}, ge::DT_FLOAT, nullptr, &ra)
      .Input(gert::Shape{ge::UNKNOWN_RANK}, ge::DT_FLOAT)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*b5.Build()).ok());
  EXPECT_TRUE(b5.OutputShape(0).IsUnknownRank());
  EXPECT_TRUE(b5.OutputShapeRange(0).empty());
}

}  // namespace
}  // namespace ops
