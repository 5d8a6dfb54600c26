// ops/nn/nn_range_test.cc
//
// Shape ranges through the nn infer functions: conv / pool spatial dims map
// the input range ends through the window formula, N is copied, the
// channels come from W (conv) or X (pool); norms and softmax copy X's range.
#include <string>
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
  InferResult r = Infer(
      "Conv",
      {Ranged({-1, 3, -1, -1}, {{1, 4}, {3, 3}, {8, 16}, {5, kInf}}), {gert::Shape{6, 3, 3, 3}}}, 1,
      Attrs()
          .Set<std::vector<int64_t>>("pads", {1, 1, 1, 1})
          .Set<std::vector<int64_t>>("strides", {2, 2}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 6, -1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 4), Pair(6, 6), Pair(4, 8), Pair(3, kInf)));
}

TEST(NnRangeTest, ConvRangeTooSmallForTheKernelNamesTheNode) {
  InferResult r = Infer(
      "Conv", {Ranged({1, 3, -1, 8}, {{1, 1}, {3, 3}, {1, 2}, {8, 8}}), {gert::Shape{6, 3, 3, 3}}});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Conv"));
  EXPECT_THAT(Msg(r.status), HasSubstr("too small"));
}

TEST(NnRangeTest, MaxPoolRangesForBothOutputs) {
  InferResult r = Infer("MaxPool", {Ranged({-1, -1, -1}, {{2, 2}, {1, 8}, {4, 10}})}, 2,
                        Attrs()
                            .Set<std::vector<int64_t>>("kernel_shape", {2})
                            .Set<std::vector<int64_t>>("strides", {2}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 2), Pair(1, 8), Pair(2, 5)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(2, 2), Pair(1, 8), Pair(2, 5)));
}

TEST(NnRangeTest, DepthToSpaceAndSpaceToDepth) {
  InferResult r =
      Infer("DepthToSpace", {Ranged({-1, -1, -1, 4}, {{1, 2}, {8, 20}, {3, 5}, {4, 4}})}, 1,
            Attrs().Set<int64_t>("blocksize", 2));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1, 8}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 2), Pair(2, 5), Pair(6, 10), Pair(8, 8)));

  r = Infer("SpaceToDepth", {Ranged({1, 3, -1, -1}, {{1, 1}, {3, 3}, {4, 9}, {2, kInf}})}, 1,
            Attrs().Set<int64_t>("blocksize", 2));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 1), Pair(12, 12), Pair(2, 4), Pair(1, kInf)));
}

TEST(NnRangeTest, DropoutCopiesToBothOutputs) {
  InferResult r = Infer("Dropout", {Ranged({-1, 5}, {{1, 9}, {5, 5}})}, 2);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 9), Pair(5, 5)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(1, 9), Pair(5, 5)));
}

TEST(NnRangeTest, ConvTransposeSpatialRanges) {
  // stride 2, kernel 3, no pads: out = 2 * (in - 1) + 3.
  InferResult r = Infer("ConvTranspose",
                        {Ranged({-1, 4, -1}, {{1, 2}, {4, 4}, {3, 10}}), {gert::Shape{4, 6, 3}}}, 1,
                        Attrs().Set<std::vector<int64_t>>("strides", {2}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 6, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 2), Pair(6, 6), Pair(7, 21)));

  // SAME_UPPER: out = in * stride; group 2 doubles W's output channels.
  r = Infer("ConvTranspose",
            {Ranged({1, 4, -1}, {{1, 1}, {4, 4}, {3, kInf}}), {gert::Shape{4, 3, 3}}}, 1,
            Attrs()
                .Set<std::vector<int64_t>>("strides", {2})
                .Set<std::string>("auto_pad", "SAME_UPPER")
                .Set<int64_t>("group", 2));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 1), Pair(6, 6), Pair(6, kInf)));
}

TEST(NnRangeTest, RoiAlignAndGridSample) {
  InferResult r =
      Infer("RoiAlign",
            {Ranged({-1, 8, -1, -1}, {{1, 2}, {8, 8}, {10, 20}, {10, 20}}),
             Ranged({-1, 4}, {{1, 100}, {4, 4}}), Ranged({-1}, {{5, 200}}, ge::DT_INT64)},
            1, Attrs().Set<int64_t>("output_height", 3).Set<int64_t>("output_width", 2));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(5, 100), Pair(8, 8), Pair(3, 3), Pair(2, 2)));

  r = Infer("GridSample", {Ranged({-1, 3, -1, -1}, {{1, 4}, {3, 3}, {5, 9}, {5, 9}}),
                           Ranged({-1, -1, -1, 2}, {{2, 6}, {1, 7}, {2, kInf}, {2, 2}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 4), Pair(3, 3), Pair(1, 7), Pair(2, kInf)));

  r = Infer("GridSample", {Ranged({-1, 3, -1, -1}, {{1, 1}, {3, 3}, {5, 9}, {5, 9}}),
                           Ranged({-1, -1, -1, 2}, {{2, 6}, {1, 7}, {2, kInf}, {2, 2}})});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_GridSample"));
}

TEST(NnRangeTest, NormsAndSoftmaxCopyRanges) {
  InferResult r = Infer("Softmax", {Ranged({-1, 10}, {{1, 64}, {10, 10}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 64), Pair(10, 10)));

  r = Infer("LayerNormalization",
            {Ranged({-1, -1, 8}, {{1, 4}, {2, 9}, {8, 8}}), {gert::Shape{8}}, {gert::Shape{8}}}, 3);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 4), Pair(2, 9), Pair(8, 8)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(1, 4), Pair(2, 9), Pair(1, 1)));

  r = Infer("BatchNormalization",
            {Ranged({-1, -1, 5}, {{1, 4}, {3, 3}, {5, 5}}),
             {gert::Shape{-1}},
             {gert::Shape{-1}},
             {gert::Shape{-1}},
             {gert::Shape{-1}}},
            3, Attrs().Set<int64_t>("training_mode", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 4), Pair(3, 3), Pair(5, 5)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(3, 3)));
}

}  // namespace
}  // namespace ops
