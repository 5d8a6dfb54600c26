#include "metadef/inc/external/graph/shape.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Range = std::vector<std::pair<int64_t, int64_t>>;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::string Msg(const Status& s) { return std::string(s.message()); }

TEST(ShapeTest, DefaultIsScalar) {
  Shape s;
  EXPECT_TRUE(s.IsScalar());
  EXPECT_EQ(s.GetDimNum(), 0u);
  EXPECT_FALSE(s.IsUnknownShape());
  EXPECT_FALSE(s.IsUnknownRank());
  EXPECT_TRUE(s.Validate().ok());
  EXPECT_EQ(s.ToString(), "[]");
}

TEST(ShapeTest, ScalarSizeIsOneElement) {
  auto size = Shape().GetShapeSize();
  ASSERT_TRUE(size.ok()) << size.status();
  EXPECT_EQ(*size, 1);
  auto created = Shape::Create({});
  ASSERT_TRUE(created.ok());
  EXPECT_TRUE(created->IsScalar());
  EXPECT_EQ(*created->GetShapeSize(), 1);
}

TEST(ShapeTest, CreateKnownShape) {
  auto s = Shape::Create({1, 3, 224, 224});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->GetDimNum(), 4u);
  EXPECT_THAT(s->GetDims(), ElementsAre(1, 3, 224, 224));
  EXPECT_FALSE(s->IsScalar());
  EXPECT_FALSE(s->IsUnknownShape());
  EXPECT_EQ(*s->GetShapeSize(), 150528);
  EXPECT_EQ(s->ToString(), "[1,3,224,224]");
}

TEST(ShapeTest, RankOneZeroDimIsNotScalarAndHasZeroElements) {
  auto s = Shape::Create({0});
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->IsScalar());
  EXPECT_EQ(s->GetDimNum(), 1u);
  EXPECT_EQ(*s->GetShapeSize(), 0);
}

TEST(ShapeTest, ZeroDimWinsOverWouldBeOverflow) {
  // Mathematically empty: no overflow even though kMax * 2 would overflow.
  Shape s({kMax, 2, 0});
  auto size = s.GetShapeSize();
  ASSERT_TRUE(size.ok()) << size.status();
  EXPECT_EQ(*size, 0);
}

TEST(ShapeTest, UnknownDim) {
  auto s = Shape::Create({1, -1, 224, 224});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->IsUnknownShape());
  EXPECT_FALSE(s->IsUnknownRank());
  EXPECT_FALSE(s->IsUnknownDimNum());
  EXPECT_EQ(s->GetDimNum(), 4u);
  EXPECT_EQ(s->ToString(), "[1,-1,224,224]");
  auto size = s->GetShapeSize();
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(GetErrorCode(size.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(size.status()), HasSubstr("dim 1"));
  EXPECT_THAT(Msg(size.status()), HasSubstr("[1,-1,224,224]"));
}

TEST(ShapeTest, UnknownRank) {
  auto s = Shape::Create({-2});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->IsUnknownRank());
  EXPECT_TRUE(s->IsUnknownDimNum());
  EXPECT_TRUE(s->IsUnknownShape());
  EXPECT_FALSE(s->IsScalar());
  EXPECT_EQ(s->GetDimNum(), 0u);
  EXPECT_EQ(s->ToString(), "[-2]");
  EXPECT_EQ(*s, Shape::UnknownRank());
  auto size = s->GetShapeSize();
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(GetErrorCode(size.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(size.status()), HasSubstr("unknown rank"));
}

TEST(ShapeTest, UnknownRankMarkerInsideLargerShapeRejected) {
  auto s = Shape::Create({3, -2});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(s.status()), HasSubstr("dim 1"));
  EXPECT_THAT(Msg(s.status()), HasSubstr("-2"));
  EXPECT_FALSE(Shape({-2, -2}).Validate().ok());
  // Unchecked construction is allowed; Validate catches it, and it is not an
  // unknown-rank shape.
  Shape raw({3, -2});
  EXPECT_FALSE(raw.IsUnknownRank());
  EXPECT_FALSE(raw.Validate().ok());
  EXPECT_FALSE(raw.GetShapeSize().ok());
}

TEST(ShapeTest, InvalidNegativeDimRejectedWithIndexAndValue) {
  auto s = Shape::Create({4, 5, -3});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(s.status()), HasSubstr("dim 2"));
  EXPECT_THAT(Msg(s.status()), HasSubstr("-3"));

  Shape raw({-3});
  Status v = raw.Validate();
  ASSERT_FALSE(v.ok());
  EXPECT_THAT(Msg(v), HasSubstr("dim 0"));
  EXPECT_THAT(Msg(v), HasSubstr("-3"));
  auto size = raw.GetShapeSize();
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(GetErrorCode(size.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(size.status()), HasSubstr("-3"));

  EXPECT_FALSE(Shape::Create({std::numeric_limits<int64_t>::min()}).ok());
}

TEST(ShapeTest, OverflowReported) {
  Shape s({kMax, 2});
  auto size = s.GetShapeSize();
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(GetErrorCode(size.status()), ErrorCode::kOverflow);
  EXPECT_THAT(Msg(size.status()), HasSubstr("dim 1"));
  EXPECT_THAT(Msg(size.status()), HasSubstr(s.ToString()));

  // Overflow in the middle of a long shape.
  Shape big({1 << 20, 1 << 20, 1 << 20, 1 << 20});
  auto big_size = big.GetShapeSize();
  ASSERT_FALSE(big_size.ok());
  EXPECT_EQ(GetErrorCode(big_size.status()), ErrorCode::kOverflow);
  EXPECT_THAT(Msg(big_size.status()), HasSubstr("dim 3"));
}

TEST(ShapeTest, LargestNonOverflowingSize) {
  Shape s({kMax, 1});
  EXPECT_EQ(*s.GetShapeSize(), kMax);
  Shape t({int64_t{1} << 31, int64_t{1} << 31});
  EXPECT_EQ(*t.GetShapeSize(), int64_t{1} << 62);
}

TEST(ShapeTest, GetDimBoundsChecked) {
  Shape s({2, 3});
  EXPECT_EQ(*s.GetDim(0), 2);
  EXPECT_EQ(*s.GetDim(1), 3);
  auto bad = s.GetDim(2);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(Msg(bad.status()), HasSubstr("index 2"));
  EXPECT_THAT(Msg(bad.status()), HasSubstr("rank 2"));

  EXPECT_EQ(GetErrorCode(Shape().GetDim(0).status()), ErrorCode::kOutOfRange);
  EXPECT_EQ(GetErrorCode(Shape::UnknownRank().GetDim(0).status()), ErrorCode::kOutOfRange);
  EXPECT_FALSE(s.GetDim(std::numeric_limits<size_t>::max()).ok());
}

TEST(ShapeTest, SetDim) {
  Shape s({1, -1, 224, 224});
  ASSERT_TRUE(s.SetDim(1, 3).ok());
  EXPECT_THAT(s.GetDims(), ElementsAre(1, 3, 224, 224));
  EXPECT_FALSE(s.IsUnknownShape());
  EXPECT_EQ(*s.GetShapeSize(), 150528);
  ASSERT_TRUE(s.SetDim(0, -1).ok());
  EXPECT_TRUE(s.IsUnknownShape());
  ASSERT_TRUE(s.SetDim(0, 0).ok());
  EXPECT_EQ(*s.GetShapeSize(), 0);
}

TEST(ShapeTest, SetDimOutOfRange) {
  Shape s({2, 3});
  Status st = s.SetDim(2, 5);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange);
  EXPECT_THAT(Msg(st), HasSubstr("index 2"));
  EXPECT_THAT(Msg(st), HasSubstr("rank 2"));
  EXPECT_THAT(s.GetDims(), ElementsAre(2, 3));  // unchanged

  EXPECT_EQ(GetErrorCode(Shape().SetDim(0, 1)), ErrorCode::kOutOfRange);
  Shape ur = Shape::UnknownRank();
  EXPECT_EQ(GetErrorCode(ur.SetDim(0, 1)), ErrorCode::kOutOfRange);
  EXPECT_TRUE(ur.IsUnknownRank());
}

TEST(ShapeTest, SetDimInvalidValue) {
  Shape s({2, 3});
  Status st = s.SetDim(1, -3);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("dim 1"));
  EXPECT_THAT(Msg(st), HasSubstr("-3"));
  // -2 is not a dim value: it would make an invalid shape.
  EXPECT_FALSE(s.SetDim(0, UNKNOWN_RANK).ok());
  EXPECT_THAT(s.GetDims(), ElementsAre(2, 3));
}

TEST(ShapeTest, SetDimRespectsShapeRange) {
  Shape s({-1, 4});
  ASSERT_TRUE(s.SetShapeRange({{1, 8}, {4, 4}}).ok());
  EXPECT_TRUE(s.SetDim(0, 8).ok());
  Status st = s.SetDim(0, 9);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("{1,8}"));
  EXPECT_EQ(*s.GetDim(0), 8);
  EXPECT_TRUE(s.SetDim(0, -1).ok());  // back to unknown is fine
}

TEST(ShapeTest, SetDimsIsUnchecked) {
  Shape s;
  s.SetDims({5, 6});
  EXPECT_THAT(s.GetDims(), ElementsAre(5, 6));
  s.SetDims({-7});
  EXPECT_FALSE(s.Validate().ok());
}

TEST(ShapeTest, ShapeRangeValid) {
  Shape s({-1, 3, -1});
  Status st = s.SetShapeRange({{1, 16}, {3, 3}, {0, -1}});
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(s.GetShapeRange(), (Range{{1, 16}, {3, 3}, {0, -1}}));
  EXPECT_TRUE(s.Validate().ok());
  // Clearing is allowed.
  ASSERT_TRUE(s.SetShapeRange({}).ok());
  EXPECT_TRUE(s.GetShapeRange().empty());
}

TEST(ShapeTest, ShapeRangeCountMismatch) {
  Shape s({-1, 3});
  Status st = s.SetShapeRange({{1, 4}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("1 entries"));
  EXPECT_THAT(Msg(st), HasSubstr("rank 2"));
  EXPECT_TRUE(s.GetShapeRange().empty());  // unchanged on failure
  EXPECT_FALSE(Shape().SetShapeRange({{0, 1}}).ok());
}

TEST(ShapeTest, ShapeRangeMinGreaterThanMax) {
  Shape s({-1, -1});
  Status st = s.SetShapeRange({{1, 4}, {8, 2}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("dim 1"));
  EXPECT_THAT(Msg(st), HasSubstr("{8,2}"));
  // max -1 means unbounded, any min is fine; other negative max is not.
  EXPECT_TRUE(s.SetShapeRange({{100, -1}, {0, 0}}).ok());
  EXPECT_FALSE(s.SetShapeRange({{1, -5}, {0, 0}}).ok());
}

TEST(ShapeTest, ShapeRangeNegativeMin) {
  Shape s({-1});
  Status st = s.SetShapeRange({{-1, 4}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("dim 0"));
  EXPECT_THAT(Msg(st), HasSubstr("-1"));
}

TEST(ShapeTest, ShapeRangeKnownDimOutsideRange) {
  Shape s({-1, 3});
  Status st = s.SetShapeRange({{1, 4}, {4, 8}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("dim 1 = 3"));
  EXPECT_THAT(Msg(st), HasSubstr("{4,8}"));
  EXPECT_FALSE(s.SetShapeRange({{1, 4}, {1, 2}}).ok());  // above max
  EXPECT_TRUE(s.SetShapeRange({{1, 4}, {1, -1}}).ok());  // unbounded
  EXPECT_TRUE(s.SetShapeRange({{1, 4}, {3, 3}}).ok());   // exact
}

TEST(ShapeTest, ShapeRangeOnUnknownRank) {
  Shape s = Shape::UnknownRank();
  EXPECT_FALSE(s.SetShapeRange({{1, 4}}).ok());
  EXPECT_TRUE(s.SetShapeRange({}).ok());
}

TEST(ShapeTest, ValidateCatchesStaleRange) {
  Shape s({-1, 3});
  ASSERT_TRUE(s.SetShapeRange({{1, 4}, {3, 3}}).ok());
  s.SetDims({5, 3, 1});  // unchecked: range count no longer matches
  Status st = s.Validate();
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(Msg(st), HasSubstr("rank 3"));
}

TEST(ShapeTest, EqualityComparesDims) {
  EXPECT_EQ(Shape({1, 2}), Shape({1, 2}));
  EXPECT_NE(Shape({1, 2}), Shape({2, 1}));
  EXPECT_NE(Shape({1}), Shape());
  EXPECT_NE(Shape({-1}), Shape::UnknownRank());
}

}  // namespace
}  // namespace ge
