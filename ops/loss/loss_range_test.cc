// ops/loss/loss_range_test.cc
//
// Shape ranges through NegativeLogLikelihoodLoss / SoftmaxCrossEntropyLoss:
// with reduction none the output is input 0's range without C, met with the
// target's; log_prob copies input 0's range; reduced outputs are scalars.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::HasSubstr, ::testing::Pair;

TEST(LossRangeTest, ReductionNoneMeetsTheTarget) {
  InferResult r = Infer("SoftmaxCrossEntropyLoss",
                        {Ranged({-1, 5, -1}, {{1, 8}, {5, 5}, {2, 6}}),
                         Ranged({-1, -1}, {{4, 16}, {1, 3}}, ge::DT_INT64)},
                        2, Attrs().Set<std::string>("reduction", "none"));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(4, 8), Pair(2, 3)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(1, 8), Pair(5, 5), Pair(2, 6)));

  r = Infer("NegativeLogLikelihoodLoss",
            {Ranged({-1, 5}, {{1, 3}, {5, 5}}), Ranged({-1}, {{4, 16}}, ge::DT_INT64)}, 1,
            Attrs().Set<std::string>("reduction", "none"));
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_NegativeLogLikelihoodLoss"));
}

TEST(LossRangeTest, ReducedOutputIsAScalar) {
  InferResult r = Infer("NegativeLogLikelihoodLoss",
                        {Ranged({-1, 5}, {{1, 3}, {5, 5}}), Ranged({-1}, {{1, 3}}, ge::DT_INT64)},
                        1, Attrs().Set<std::string>("reduction", "mean"));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], gert::Shape{});
  EXPECT_TRUE(r.ranges[0].empty());
}

}  // namespace
}  // namespace ops
