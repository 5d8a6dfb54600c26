// ops/math/math_range_test.cc
//
// Shape ranges through MatMul / Gemm infer: M and N come from the operands,
// K must agree, batch dims broadcast; Einsum labels meet across inputs; Det
// drops the matrix dims; the quantize ops keep x's range.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::HasSubstr, ::testing::Pair;

constexpr int64_t kInf = kUnboundedDim;

TEST(MathRangeTest, MatMulBatchBroadcastAndMN) {
  InferResult r = Infer("MatMul", {Ranged({-1, -1, -1}, {{1, 1}, {2, 9}, {4, 8}}),
                                   Ranged({3, -1, 5}, {{3, 3}, {6, 6}, {5, 5}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, -1, 5}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(3, 3), Pair(2, 9), Pair(5, 5)));

  // 1-D operand: its dim disappears.
  r = Infer("MatMul", {Ranged({-1}, {{2, 4}}), Ranged({-1, -1}, {{3, 6}, {1, kInf}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, kInf)));
}

TEST(MathRangeTest, MatMulConflictingKNamesTheNode) {
  InferResult r =
      Infer("MatMul", {Ranged({2, -1}, {{2, 2}, {1, 3}}), Ranged({-1, 4}, {{5, 9}, {4, 4}})});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_MatMul"));
  EXPECT_THAT(Msg(r.status), HasSubstr("do not overlap"));
}

TEST(MathRangeTest, GemmTransposesAndC) {
  InferResult r = Infer("Gemm",
                        {Ranged({-1, -1}, {{3, 5}, {1, 7}}), Ranged({-1, 4}, {{2, 6}, {4, 4}}),
                         Ranged({-1}, {{1, 4}})},
                        1, Attrs().Set<int64_t>("transA", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 4}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 7), Pair(4, 4)));

  r = Infer("Gemm", {Ranged({-1, -1}, {{3, 5}, {1, 3}}), Ranged({-1, 4}, {{6, 9}, {4, 4}})});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Gemm"));
}

TEST(MathRangeTest, EinsumLabelsMeetAcrossInputs) {
  InferResult r =
      Infer("Einsum", {Ranged({-1, -1}, {{2, 8}, {3, 6}}), Ranged({-1, -1}, {{4, 9}, {5, 5}})}, 1,
            Attrs().Set<std::string>("equation", "ij,jk->ik"));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 8), Pair(5, 5)));

  // j in [3, 4] and [7, 9]: no common size and neither may be 1.
  r = Infer("Einsum", {Ranged({-1, -1}, {{2, 8}, {3, 4}}), Ranged({-1, 5}, {{7, 9}, {5, 5}})}, 1,
            Attrs().Set<std::string>("equation", "ij,jk->ik"));
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Einsum"));
  EXPECT_THAT(Msg(r.status), HasSubstr("label 'j'"));
}

TEST(MathRangeTest, DetDropsTheMatrixDims) {
  InferResult r = Infer("Det", {Ranged({-1, -1, 3}, {{1, 4}, {2, 3}, {3, 3}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 4)));
  r = Infer("Det", {Ranged({-1, -1, 3}, {{1, 4}, {4, 5}, {3, 3}})});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Det"));
}

TEST(MathRangeTest, QuantizeKeepsTheRange) {
  InferResult r =
      Infer("QuantizeLinear",
            {Ranged({-1, 3}, {{2, 7}, {3, 3}}), {gert::Shape{}}, {gert::Shape{}, ge::DT_UINT8}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 7), Pair(3, 3)));
  r = Infer("DynamicQuantizeLinear", {Ranged({-1, 3}, {{2, 7}, {3, 3}})}, 3);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 7), Pair(3, 3)));
  EXPECT_TRUE(r.ranges[1].empty());  // scalar scale
}

}  // namespace
}  // namespace ops
