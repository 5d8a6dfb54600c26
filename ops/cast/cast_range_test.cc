// ops/cast/cast_range_test.cc
//
// Shape ranges through the cast ops' infer functions: Cast / CastLike copy the input
// range.
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::HasSubstr, ::testing::Pair;

TEST(CastRangeTest, CastCopiesTheRange) {
  InferResult r = Infer("Cast", {Ranged({-1, 3}, {{1, 16}, {3, 3}})}, 1,
                        Attrs().Set<ge::DataType>("to", ge::DT_INT32));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.dtypes[0], ge::DT_INT32);
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 16), Pair(3, 3)));
}

TEST(CastRangeTest, KnownDimOutsideItsRangeIsAnError) {
  InferResult r = Infer("Cast", {Ranged({5, 3}, {{1, 4}, {3, 3}})}, 1,
                        Attrs().Set<ge::DataType>("to", ge::DT_INT32));
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Cast"));
}

}  // namespace
}  // namespace ops
