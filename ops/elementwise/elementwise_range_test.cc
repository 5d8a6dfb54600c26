// ops/elementwise/elementwise_range_test.cc
//
// Shape ranges through the elementwise ops' infer functions: binary ops broadcast ranges
// (a ranged -1 dim against a known dim gives the known dim; conflicting
// ranges are errors naming the node), unary ops copy them.
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::HasSubstr, ::testing::Pair;

constexpr int64_t kInf = kUnboundedDim;

TEST(ElementwiseRangeTest, AddBroadcastsRanges) {
  InferResult r = Infer("Add", {Ranged({-1, 1}, {{2, 6}, {1, 1}}), Ranged({-1}, {{1, 9}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 6), Pair(1, 9)));
}

TEST(ElementwiseRangeTest, RangedDimAgainstAKnownDim) {
  InferResult r = Infer("Mul", {Ranged({-1, -1}, {{1, 8}, {3, kInf}}), {gert::Shape{4, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{4, 5}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(4, 4), Pair(5, 5)));
}

TEST(ElementwiseRangeTest, ConflictingRangesNameTheNode) {
  InferResult r = Infer("Sub", {Ranged({-1}, {{2, 4}}), {gert::Shape{7}}});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Sub"));
  EXPECT_THAT(Msg(r.status), HasSubstr("input 1"));
  r = Infer("Add", {Ranged({-1}, {{2, 4}}), Ranged({-1}, {{5, 9}})});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Add"));
}

TEST(ElementwiseRangeTest, UnaryCopiesAndUnknownRankHasNone) {
  InferResult r = Infer("Relu", {Ranged({-1, 2}, {{0, 5}, {2, 2}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 5), Pair(2, 2)));
  r = Infer("Add", {Ranged({-1}, {{2, 4}}), {UnknownRank()}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
  EXPECT_TRUE(r.ranges[0].empty());
}

}  // namespace
}  // namespace ops
