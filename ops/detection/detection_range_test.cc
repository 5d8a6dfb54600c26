// ops/detection/detection_range_test.cc
//
// Shape ranges through NonMaxSuppression: with unknown values the selected
// row count lies in [0, numel(scores)] (each row a distinct batch, class,
// box), whether the scores' shape is known or ranged.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::Pair;

TEST(DetectionRangeTest, NmsRowsBoundedByTheScores) {
  InferResult r = Infer("NonMaxSuppression", {{gert::Shape{1, 6, 4}}, {gert::Shape{1, 2, 6}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 3}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 12), Pair(3, 3)));

  r = Infer("NonMaxSuppression", {Ranged({1, -1, 4}, {{1, 1}, {1, 50}, {4, 4}}),
                                  Ranged({1, 3, -1}, {{1, 1}, {3, 3}, {1, 50}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 150), Pair(3, 3)));

  r = Infer("NonMaxSuppression", {{gert::Shape{1, -1, 4}}, {gert::Shape{1, 3, -1}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.ranges[0].empty());  // nothing bounds it: no range
}

}  // namespace
}  // namespace ops
