// ops/random/random_range_test.cc
//
// Shape ranges through the random ops: Multinomial keeps the batch range
// and fixes sample_size; the *Like ops copy their input's range.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::Pair;

TEST(RandomRangeTest, MultinomialBatchAndSamples) {
  InferResult r = Infer("Multinomial", {Ranged({-1, 10}, {{2, 9}, {10, 10}})}, 1,
                        Attrs().Set<int64_t>("sample_size", 4));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 4}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 9), Pair(4, 4)));
}

TEST(RandomRangeTest, LikeOpsCopyTheRange) {
  for (const char* op : {"RandomNormalLike", "RandomUniformLike", "Bernoulli"}) {
    InferResult r = Infer(op, {Ranged({-1, 3}, {{1, 5}, {3, 3}})});
    ASSERT_TRUE(r.status.ok()) << op << ": " << r.status;
    EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 5), Pair(3, 3))) << op;
  }
}

}  // namespace
}  // namespace ops
