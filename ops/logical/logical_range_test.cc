// ops/logical/logical_range_test.cc
//
// Shape ranges through the logical ops' infer functions: comparisons and Where broadcast
// ranges; Not copies them.
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

TEST(LogicalRangeTest, WhereBroadcastsThreeInputs) {
  InferResult r = Infer(
      "Where",
      {Ranged({-1, 1}, {{1, 3}, {1, 1}}, ge::DT_BOOL), Ranged({-1}, {{2, 8}}), {gert::Shape{1}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 3), Pair(2, 8)));
}

TEST(LogicalRangeTest, CompareAndNot) {
  InferResult r = Infer("Less", {Ranged({-1, 4}, {{1, kInf}, {4, 4}}), {gert::Shape{4}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.dtypes[0], ge::DT_BOOL);
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, kInf), Pair(4, 4)));
  r = Infer("Not", {Ranged({-1}, {{3, 5}}, ge::DT_BOOL)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(3, 5)));
}

TEST(LogicalRangeTest, ConflictNamesTheNode) {
  InferResult r = Infer("Equal", {Ranged({-1}, {{2, 3}}), Ranged({-1}, {{4, 4}})});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Equal"));
}

}  // namespace
}  // namespace ops
