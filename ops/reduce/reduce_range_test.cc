// ops/reduce/reduce_range_test.cc
//
// Shape ranges through the reduction infer functions: kept dims keep their
// ranges, reduced dims become 1 (keepdims) or vanish.
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

TEST(ReduceRangeTest, ReduceSumKeepsAndDropsDims) {
  gert::HostTensor axes = Make(ge::DT_INT64, {1}, {1});
  In a{axes.GetShape(), ge::DT_INT64, &axes.tensor()};
  InferResult r = Infer("ReduceSum", {Ranged({-1, -1, 4}, {{1, 8}, {2, 3}, {4, 4}}), a});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 1, 4}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 8), Pair(1, 1), Pair(4, 4)));

  r = Infer("ReduceSum", {Ranged({-1, -1, 4}, {{1, 8}, {2, 3}, {4, 4}}), a}, 1,
            Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 8), Pair(4, 4)));
}

TEST(ReduceRangeTest, ReduceMeanWithAxesAttributeAndArgMax) {
  // Opset-17 ReduceMean takes axes as an attribute.
  InferResult r = Infer("ReduceMean", {Ranged({-1, -1}, {{1, 8}, {2, kInf}})}, 1,
                        Attrs().Set<std::vector<int64_t>>("axes", {0}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 1), Pair(2, kInf)));

  r = Infer("ArgMax", {Ranged({-1, -1}, {{1, 8}, {2, 5}})}, 1,
            Attrs().Set<int64_t>("axis", 1).Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 8)));
}

TEST(ReduceRangeTest, InvalidInputRangeNamesTheNode) {
  InferResult r = Infer("ReduceMax", {Ranged({5, -1}, {{1, 4}, {1, 2}})}, 1);
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_ReduceMax"));
  EXPECT_THAT(Msg(r.status), HasSubstr("dim 0 is 5"));
}

TEST(ReduceRangeTest, CumSumKeepsTheRange) {
  InferResult r =
      Infer("CumSum", {Ranged({-1, 4}, {{3, 8}, {4, 4}}), {gert::Shape{}, ge::DT_INT64}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(3, 8), Pair(4, 4)));
}

}  // namespace
}  // namespace ops
