// ops/nn/nn_range_test.cc
//
// Shape ranges through the nn infer functions: conv / pool spatial dims map
// the input range ends through the window formula, N is copied, the
// channels come from W (conv) or X (pool); norms and softmax copy X's range.
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

TEST(NnRangeTest, ConvSpatialRanges) {
  // 3x3 kernel, pads 1, stride 2: out = floor((in + 2 - 3) / 2) + 1.
  InferResult r = Infer("Conv",
                        {Ranged({-1, 3, -1, -1}, {{1, 4}, {3, 3}, {8, 16}, {5, kInf}}),
                         {gert::Shape{6, 3, 3, 3}}},
                        1,
                        Attrs()
                            .Set<std::vector<int64_t>>("pads", {1, 1, 1, 1})
                            .Set<std::vector<int64_t>>("strides", {2, 2}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 6, -1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 4), Pair(6, 6), Pair(4, 8), Pair(3, kInf)));
}

TEST(NnRangeTest, ConvRangeTooSmallForTheKernelNamesTheNode) {
  InferResult r = Infer("Conv",
                        {Ranged({1, 3, -1, 8}, {{1, 1}, {3, 3}, {1, 2}, {8, 8}}),
                         {gert::Shape{6, 3, 3, 3}}});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Conv"));
  EXPECT_THAT(Msg(r.status), HasSubstr("too small"));
}

TEST(NnRangeTest, MaxPoolRangesForBothOutputs) {
  InferResult r = Infer("MaxPool", {Ranged({-1, -1, -1}, {{2, 2}, {1, 8}, {4, 10}})}, 2,
                        Attrs().Set<std::vector<int64_t>>("kernel_shape", {2})
                            .Set<std::vector<int64_t>>("strides", {2}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 2), Pair(1, 8), Pair(2, 5)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(2, 2), Pair(1, 8), Pair(2, 5)));
}

TEST(NnRangeTest, NormsAndSoftmaxCopyRanges) {
  InferResult r = Infer("Softmax", {Ranged({-1, 10}, {{1, 64}, {10, 10}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 64), Pair(10, 10)));

  r = Infer("LayerNormalization",
            {Ranged({-1, -1, 8}, {{1, 4}, {2, 9}, {8, 8}}), {gert::Shape{8}}, {gert::Shape{8}}},
            3);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 4), Pair(2, 9), Pair(8, 8)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(1, 4), Pair(2, 9), Pair(1, 1)));

  r = Infer("BatchNormalization",
            {Ranged({-1, -1, 5}, {{1, 4}, {3, 3}, {5, 5}}), {gert::Shape{-1}}, {gert::Shape{-1}},
             {gert::Shape{-1}}, {gert::Shape{-1}}},
            3, Attrs().Set<int64_t>("training_mode", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 4), Pair(3, 3), Pair(5, 5)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(3, 3)));
}

}  // namespace
}  // namespace ops
