// ops/internal/internal_range_test.cc
//
// Shape ranges through the internal ops: Data forwards its graph input's
// range, Switch copies it to both branches, Merge takes the union of its
// inputs' ranges.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::Pair;

constexpr int64_t kInf = kUnboundedDim;

TEST(InternalRangeTest, DataForwardsTheGraphInputRange) {
  InferResult r = Infer("Data", {Ranged({-1, 3}, {{1, 16}, {3, 3}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 3}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 16), Pair(3, 3)));
}

TEST(InternalRangeTest, SwitchAndMerge) {
  InferResult r = Infer("Switch", {Ranged({-1}, {{2, 9}}), {gert::Shape{}, ge::DT_BOOL}}, 2);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 9)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(2, 9)));

  r = Infer("Merge", {Ranged({-1, 4}, {{2, 5}, {4, 4}}), Ranged({-1, -1}, {{7, kInf}, {1, 4}})}, 2);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, kInf), Pair(1, 4)));
  EXPECT_TRUE(r.ranges[1].empty());  // value_index is a scalar
}

}  // namespace
}  // namespace ops
